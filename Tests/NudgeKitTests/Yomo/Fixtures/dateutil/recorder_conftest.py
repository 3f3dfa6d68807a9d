import json, datetime, pytest
from dateutil import rrule as R

RECORDS = []
CURRENT = {"items": []}

_orig_iter = R.rrulebase.__iter__
def _iter(self):
    out = []
    for x in _orig_iter(self):
        out.append(x)
        yield x
    CURRENT["items"].append((self, out))
R.rrulebase.__iter__ = _iter

_orig_rrulestr = R._rrulestr.__call__
def _rrulestr(self, s, **kw):
    r = _orig_rrulestr(self, s, **kw)
    try:
        r._src = (s, {k: (v.isoformat() if hasattr(v, "isoformat") else repr(v)) for k, v in kw.items()})
    except Exception:
        pass
    return r
R._rrulestr.__call__ = _rrulestr

def fmt(d):
    return d.isoformat()

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    CURRENT["items"] = []
    outcome = yield
    if outcome.excinfo is None:
        for rule, items in CURRENT["items"]:
            src = getattr(rule, "_src", None)
            rec = {"test": item.name, "kind": type(rule).__name__}
            if src:
                rec["rrulestr"] = src[0]; rec["kwargs"] = src[1]
            else:
                try: rec["str"] = str(rule)
                except Exception as e: rec["str_error"] = repr(e)
            try:
                rec["dtstart"] = fmt(rule._dtstart) if getattr(rule, "_dtstart", None) else None
            except Exception: pass
            rec["expected"] = [fmt(x) for x in items]
            RECORDS.append(rec)

def pytest_sessionfinish(session):
    with open("/tmp/du/rrule_cases.ndjson", "w") as f:
        for r in RECORDS: f.write(json.dumps(r) + "\n")
