#!/usr/bin/env python3
"""Makes own-tests.ndjson: for each calendar on which the library version
CI has (Debian's python3-recurring-ical-events, 2.0.1) and the version the
calendars come from (3.8.2) disagree, or which one of them cannot expand,
what the calendar's own test in 3.8.2 expects, as 3.8.2 expands it (3.8.2
passes those tests). RecurringIcalEventsTests compares yomo with these
lines instead of with 2.0.1 and says so; a line with "compare": "days"
compares the start days only, for the reason it gives.

Run with a python3 that has recurring-ical-events 3.8.2 (a venv:
pip install recurring-ical-events==3.8.2), from this folder:

    VENV/bin/python make_own_tests.py /usr/bin/python3

The argument is the python3 with Debian's 2.0.1. Both expand with floating
times in Europe/Berlin (what the test uses; no calendar here that 2.0.1 and
3.8.2 disagree on has a floating time).
"""
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
FLOATING = "Europe/Berlin"

# What each calendar's own test (recurring_ical_events/test/ in the 3.8.2
# sdist) says, in its words. Every calendar the two versions disagree on
# must be here; the script stops otherwise.
OWN_TESTS = {
    "bad_rrule_missing_until_event.ics": ("test_bad_rrule_format.py",
        "UNTL is not a rule part: an error (BadRuleStringFormat)"),
    "end_before_start_event.ics": ("test_issue_132_swapped_start_and_end.py::test_old_example_works_now",
        "DTEND 08:00 before DTSTART 08:30: one event from 08:00 to 08:30 (the two swapped; 2.0.1 stops: the event must start before it ends)"),
    "issue_107_omitting_last_event.ics": ("test_issue_107_omitting_last_event.py::test_last_event_is_present",
        "the weekly series keeps its last event, 2023-06-08 (2.0.1 omits it)"),
    "issue_113_period_in_rdate.ics": ("test_issue_113_period_in_rdate.py::test_start_of_rdate",
        "an RDATE that is a PERIOD starts at its start, 2023-12-13 12:00 America/Vancouver (2.0.1 stops: a PERIOD is a tuple)"),
    "issue_113_period_rdate_duration.ics": ("test_issue_113_period_in_rdate.py::test_rdate_with_a_period_with_duration",
        "the RDATE PERIOD with a duration is one event on 2024-09-13 (2.0.1 stops)"),
    "issue_117_until_before_dtstart.ics": ("test_issue_117_until_before_dtstart.py::test_event_is_deleted",
        "UNTIL before DTSTART: no event at all (2.0.1 keeps DTSTART)"),
    "issue_128_only_first_event.ics": ("test_issue_128_only_first_event.py::test_all_events_are_present",
        "COUNT=-1 is ignored: 7 events (2.0.1: the first only)"),
    "issue_132_swapped_start_and_end.ics": ("test_issue_132_swapped_start_and_end.py::test_event_case",
        "DTEND 23:30 before DTSTART 23:45: the event starts at 23:30 (2.0.1 stops: the event must start before it ends)"),
    "issue_148_edge_case_1.ics": ("test_issue_148_ignored_exdate_in_higher_sequence.py::test_edge_case_1",
        "2 events, 07-01 and 07-29: the override (SEQUENCE 2) of 07-15 is older than the series (SEQUENCE 3), whose EXDATE removes 07-15 (2.0.1 keeps the override)"),
    "issue_148_exdate_and_rdate_updated.ics": ("test_issue_148_ignored_exdate_in_higher_sequence.py::test_rdate_and_exdate_are_updated",
        "the newer version's EXDATE and RDATE count, not the older's: 07-15 and 07-30 in, 07-17 and 07-29 out (2.0.1 mixes both versions)"),
    "issue_148_ignored_exdate.ics": ("test_issue_148_ignored_exdate_in_higher_sequence.py::test_total_events",
        "2 events: the EXDATE of the newer version removes 07-15 (2.0.1 keeps it)"),
    "issue_163_deleted_modification.ics": ("test_issue_163_deleted_modification.py::test_exdate_excludes_modification",
        "nothing on 2024-08-19: the newer series' EXDATE removes that override (2.0.1 keeps it)"),
    "issue_201_test_matrix.ics": ("test_issue_201_incompatible_dates.py::test_all_possiblilities_are_considered",
        "every start and end type is an event; a DATE start with a DURATION of hours starts at that date's midnight (2.0.1: the date itself)"),
    "issue_253_additional_recurrence_id.ics": ("test_issue_253_additional_recurrence_id.py::test_calendar_from_issue",
        "July 2024 holds 2 events, 07-01 and 07-15: the override of 07-29 is older than the series, which ends 07-20 (2.0.1 keeps it)"),
    "issue_75_range_parameter.ics": ("test_issue_75_range_parameter.py",
        "RECURRENCE-ID;RANGE=THISANDFUTURE moves that occurrence and every later one (2.0.1 moves one)"),
    "multiple_rrule.ics": ("test_multiple_rrule.py::test_multiple_rrule",
        "two RRULEs: 2023 holds 20 + 2 events (2.0.1 stops: it takes one RRULE)"),
}

# Calendars both versions agree on, where yomo's reading is a different,
# stated one: compared by start day.
BY_DAY = {
    "issue_201_mixed_datetime_and_date.ics": ("test_issue_201_incompatible_dates.py::test_can_calculate_times_of_issue_example",
        "DTSTART is a DATE and DTEND a DATE-TIME (RFC 5545 wants one type): the library starts it at midnight UTC, the end's type; "
        "yomo keeps what DTSTART says, an all-day item (at 09:00 on 2023-07-24), so the day is compared"),
}


def expand(python, files):
    out = subprocess.run([python, os.path.join(here, "expand.py"), FLOATING] + files, capture_output=True, check=True, text=True).stdout
    return {json.loads(l)["file"]: json.loads(l) for l in out.splitlines()}


def same(a, b):
    """The same starts per UID (a UID's repeated start once; no UID: each event)."""
    if "error" in a or "error" in b:
        return False
    def norm(o):
        seen, out = set(), []
        for uid, t in o["events"]:
            if uid and (uid, t) in seen:
                continue
            seen.add((uid, t))
            out.append((uid, t))
        return sorted(out)
    return norm(a) == norm(b)


def main():
    folder = os.path.join(here, "calendars")
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.endswith(".ics"))
    old, new = expand(sys.argv[1], files), expand(sys.executable, files)
    lines = []
    for name in sorted(new):
        a, b = old[name], new[name]
        if not same(a, b):
            if name not in OWN_TESTS:
                sys.exit(f"{name}: {a['version']} and {b['version']} disagree; say what its own test expects in OWN_TESTS")
            test, says = OWN_TESTS[name]
            line = {"file": name, "test": test, "says": says, "debian": a.get("error") or f"{len(a['events'])} events"}
        elif name in BY_DAY:
            test, says = BY_DAY[name]
            line = {"file": name, "test": test, "says": says, "compare": "days"}
        else:
            continue
        if "error" in b:
            line["error"] = b["error"]
        else:
            line["window"], line["events"] = b["window"], b["events"]
        line["version"] = b["version"]
        lines.append(line)
    with open(os.path.join(here, "own-tests.ndjson"), "w") as f:
        for line in lines:
            f.write(json.dumps(line) + "\n")
    print(f"{len(lines)} calendars: {', '.join(l['file'] for l in lines)}")


main()
