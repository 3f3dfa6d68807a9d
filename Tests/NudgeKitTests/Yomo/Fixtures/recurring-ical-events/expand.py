#!/usr/bin/env python3
"""Expands iCalendar files with the library recurring_ical_events: the oracle
RecurringIcalEventsTests compares yomo's reading of the same files with.

    python3 expand.py FLOATING_ZONE FILE...

Prints one JSON line per file: {"file", "version", "window": [from, to],
"events": [[uid, start], ...]}, or with "error" when the library cannot
expand the file. The window (two dates, UTC) runs from two days before the
earliest DTSTART, DUE, RECURRENCE-ID or RDATE of the file's events and
to-dos to two years after the latest, within 1970-2037 (the library's
range); the library is asked for two days more on each side, since it reads
a window in each event's zone. A start is "YYYYMMDD" for a date, else the
instant in UTC ("YYYYMMDDTHHMMSSZ"); a floating time is read in
FLOATING_ZONE, unless the calendar names its zone (X-WR-TIMEZONE, which the
library applies). VEVENTs and VTODOs only, as yomo imports; left out as
yomo leaves them out: what is STATUS:CANCELLED, and a VTODO with neither
DTSTART nor DUE.
"""
import datetime
import json
import re
import sys
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events

UTC = datetime.timezone.utc


def window(raw):
    """The window of the file's dates, or None when it has none."""
    text = re.sub(rb"\r?\n[ \t]", b"", raw).decode("utf-8", "replace")
    text = re.sub(r"(?ims)^BEGIN:VTIMEZONE.*?^END:VTIMEZONE", "", text)
    days = []
    for m in re.finditer(r"(?im)^(DTSTART|DUE|RECURRENCE-ID|RDATE)[^:\n]*:([^\r\n]*)", text):
        for v in m.group(2).split(","):
            d = re.match(r"\s*(\d{4})(\d{2})(\d{2})", v)
            if d:
                try:
                    days.append(datetime.date(int(d.group(1)), int(d.group(2)), int(d.group(3))))
                except ValueError:
                    pass
    if not days:
        return None
    lo = max(min(days) - datetime.timedelta(days=2), datetime.date(1970, 1, 4))
    hi = max(days)
    hi = min(hi.replace(year=hi.year + 2, day=min(hi.day, 28)), datetime.date(2037, 12, 28))
    return lo, max(hi, lo)


def start_text(v, floating):
    if isinstance(v, datetime.datetime):
        if v.tzinfo is None:
            v = v.replace(tzinfo=floating)
        return v.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    return v.strftime("%Y%m%d")


def library_version():
    try:
        from importlib.metadata import version
        return version("recurring-ical-events")
    except Exception:
        return getattr(recurring_ical_events, "__version__", "?")


def main():
    floating = ZoneInfo(sys.argv[1])
    version = library_version()
    for path in sys.argv[2:]:
        out = {"file": path.rsplit("/", 1)[-1], "version": version}
        try:
            raw = open(path, "rb").read()
            w = window(raw)
            cal = icalendar.Calendar.from_ical(raw)
            undated = {str(c.get("UID", "")) for c in cal.walk("VTODO") if "DTSTART" not in c and "DUE" not in c}
            events = []
            if w:
                lo, hi = w
                out["window"] = [lo.strftime("%Y%m%d"), hi.strftime("%Y%m%d")]
                outer = (lo - datetime.timedelta(days=2), hi + datetime.timedelta(days=2))
                for e in recurring_ical_events.of(cal, components=["VEVENT", "VTODO"]).between(*outer):
                    uid = str(e.get("UID", ""))
                    if str(e.get("STATUS", "")).upper() == "CANCELLED" or (e.name == "VTODO" and uid in undated):
                        continue
                    start = e.get("DTSTART") or e.get("DUE")
                    events.append([uid, start_text(start.dt, floating)])
            out["events"] = sorted(events)
        except Exception as x:  # what the library cannot expand
            out["error"] = f"{type(x).__name__}: {x}"[:300]
        print(json.dumps(out), flush=True)


main()
