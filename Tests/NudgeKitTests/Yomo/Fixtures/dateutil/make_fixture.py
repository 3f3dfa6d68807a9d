#!/usr/bin/env python3
"""Makes rrule.ndjson, the fixture DateutilFixtureTests runs: python-dateutil's
own rrule test cases, each as an iCalendar file with the occurrences dateutil
computes for it.

How the input was made: python-dateutil 2.9.0's sdist (pip download --no-binary
:all: --no-deps python-dateutil==2.9.0.post0) holds tests/test_rrule.py; running
it under pytest with recorder_conftest.py (this folder) as its conftest.py
records every rule the tests iterate to the end, as text (str(rule), or the
text given to rrulestr with its arguments) with the list the test got:
rrule_cases.raw.ndjson.

This script: deduplicates those records; keeps each case that is iCalendar
text (rules built with the Python API have no text form and are left out,
counted); marks the ones that are not RFC 5545 (BYEASTER, BYWEEKDAY,
dateutil-only arguments such as tzids and unfold) as "refuse" with the
reason; and writes each case in up to three zone modes: floating (as the
tests give it), DTSTART;TZID=America/New_York and UTC, with the expected
instants computed by dateutil with zoneinfo.

    python3 make_fixture.py [DATEUTIL_SRC]   # DATEUTIL_SRC: the sdist's src/ (else the installed dateutil)
"""
import json, os, sys
from datetime import datetime, timezone, date
from zoneinfo import ZoneInfo

here = os.path.dirname(os.path.abspath(__file__))
if len(sys.argv) > 1:
    sys.path.insert(0, sys.argv[1])
from dateutil import rrule as R
import dateutil

NY = "America/New_York"


def lines_of(text):
    """Content lines as (name, params, value, original line)."""
    out = []
    for raw in text.split():  # as rrulestr reads it: any whitespace ends a line
        line = raw.strip()
        if not line:
            continue
        if ":" not in line:
            line = "RRULE:" + line
        head, value = line.split(":", 1)
        parts = head.split(";")
        params = {}
        for p in parts[1:]:
            k, _, v = p.partition("=")
            params[k.upper()] = v
        out.append((parts[0].upper(), params, value, line))
    return out


def zoned(value, mode):
    """A floating DATE-TIME value (comma list) in a zone mode."""
    vals = value.split(",")
    if mode == "UTC":
        return ",".join(v if v.endswith("Z") or len(v) == 8 else v + "Z" for v in vals)
    return value


def until_utc(rule_value, mode):
    parts = []
    for p in rule_value.split(";"):
        k, _, v = p.partition("=")
        if k.upper() == "UNTIL" and len(v) == 15 and mode != "floating":
            local = datetime.strptime(v, "%Y%m%dT%H%M%S")
            aware = local.replace(tzinfo=ZoneInfo(mode)) if mode != "UTC" else local.replace(tzinfo=timezone.utc)
            v = aware.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        parts.append(f"{k}={v}")
    return ";".join(parts)


def mode_text(ls, mode):
    """The rule's text lines in a zone mode (floating: as given)."""
    if mode == "floating":
        return [l[3] for l in ls]
    out = []
    for name, params, value, line in ls:
        if name in ("DTSTART", "RDATE", "EXDATE"):
            if params.get("VALUE", "").upper() == "DATE" or len(value.split(",")[0]) == 8:
                out.append(line)
                continue
            p = "".join(f";{k}={v}" for k, v in params.items() if k != "TZID")
            if mode == "UTC":
                out.append(f"{name}{p}:{zoned(value, 'UTC')}")
            else:
                out.append(f"{name}{p};TZID={mode}:{value}")
        elif name in ("RRULE", "EXRULE"):
            out.append(f"{name}:{until_utc(value, mode)}")
        else:
            out.append(line)
    return out


def expand(text_lines):
    rule = R.rrulestr("\n".join(text_lines), tzids=lambda n: ZoneInfo(n), forceset=True)
    out = []
    for i, dt in enumerate(rule):
        if i > 5000:
            raise ValueError("too many")
        out.append(dt)
    return out


def iso(dt):
    if dt.tzinfo is None:
        return dt.replace(tzinfo=timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def calendar(name, text_lines):
    body = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//dateutil cases//EN", "BEGIN:VEVENT",
            f"UID:{name}@dateutil", "DTSTAMP:20260101T000000Z", f"SUMMARY:{name}"]
    body += text_lines
    body += ["END:VEVENT", "END:VCALENDAR"]
    return "\r\n".join(body) + "\r\n"


def main():
    raw = [json.loads(l) for l in open(os.path.join(here, "rrule_cases.raw.ndjson"))]
    seen, unique = set(), []
    for r in raw:
        key = (r.get("str"), r.get("rrulestr"), json.dumps(r.get("kwargs"), sort_keys=True), tuple(r["expected"]))
        if key not in seen:
            seen.add(key)
            unique.append(r)
    cases, dropped = [], {}
    names = {}
    for r in unique:
        text = r.get("rrulestr") or r.get("str") or ""
        kwargs = r.get("kwargs") or {}
        base = r["test"]
        names[base] = names.get(base, 0) + 1
        name = f"{base}-{names[base]}"
        if not (text.lstrip().upper().startswith(("DTSTART", "RRULE", "FREQ", "RDATE"))):
            dropped.setdefault("built with dateutil's Python API: no text form", []).append(name)
            continue
        extra = set(kwargs) - {"dtstart"}
        if extra:
            dropped.setdefault("needs a dateutil-only argument (" + ", ".join(sorted(extra)) + ")", []).append(name)
            continue
        ls = lines_of(text)
        if "dtstart" in kwargs:
            ls.insert(0, ("DTSTART", {}, datetime.fromisoformat(kwargs["dtstart"]).strftime("%Y%m%dT%H%M%S"),
                          "DTSTART:" + datetime.fromisoformat(kwargs["dtstart"]).strftime("%Y%m%dT%H%M%S")))
        if not any(l[0] == "DTSTART" for l in ls):
            dropped.setdefault("no DTSTART", []).append(name)
            continue
        rules = " ".join(l[2].upper() for l in ls if l[0] in ("RRULE", "EXRULE"))
        refuse = None
        if "BYEASTER" in rules:
            refuse = "BYEASTER is dateutil's, not RFC 5545"
        elif "BYWEEKDAY" in rules:
            refuse = "BYWEEKDAY is dateutil's name, not RFC 5545's (BYDAY)"
        dt = next(l for l in ls if l[0] == "DTSTART")
        given_zone = "TZID" in dt[1] or dt[2].upper().endswith("Z")
        all_day = dt[1].get("VALUE", "").upper() == "DATE" or len(dt[2]) == 8
        modes = ["given"] if given_zone or all_day else ["floating", NY, "UTC"]
        # The floating expansion must be what the test got, else the text does not say the rule.
        if not given_zone and refuse is None:
            got = [d.isoformat() for d in expand(mode_text(ls, "floating"))]
            if got != r["expected"]:
                dropped.setdefault("its text form does not say the rule the test ran", []).append(name)
                continue
        for mode in modes:
            tl = mode_text(ls, "floating" if mode == "given" else mode)
            rec = {"name": name, "mode": mode, "ics": calendar(name, tl)}
            if refuse:
                rec["refuse"] = refuse
            else:
                if mode == NY and any(l[0] == "RDATE" for l in ls):
                    # dateutil's rrulestr reads no TZID on RDATE: the floating
                    # expansion's wall times, each read in the zone (fold=0: the
                    # first of a repeated time, a gap's time moved forward).
                    occ = [d.replace(tzinfo=ZoneInfo(NY)) for d in expand(mode_text(ls, "floating"))]
                else:
                    occ = expand(tl)
                if all_day:
                    rec["expected_days"] = [d.strftime("%Y-%m-%d") for d in occ]
                elif mode == "floating":
                    rec["expected_local"] = [d.strftime("%Y-%m-%dT%H:%M:%S") for d in occ]
                else:
                    rec["expected"] = [iso(d) for d in occ]
            cases.append(rec)
    with open(os.path.join(here, "rrule.ndjson"), "w") as f:
        f.write(json.dumps({"source": "python-dateutil " + dateutil.__version__ + " tests/test_rrule.py",
                            "records": len(raw), "unique": len(unique),
                            "left_out": {k: len(v) for k, v in sorted(dropped.items())}}) + "\n")
        for c in cases:
            f.write(json.dumps(c) + "\n")
    print(f"{len(cases)} cases ({sum(1 for c in cases if 'refuse' in c)} to refuse); left out:",
          {k: len(v) for k, v in dropped.items()})


main()
