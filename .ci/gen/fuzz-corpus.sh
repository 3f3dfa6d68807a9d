#!/usr/bin/env bash
# Writes the fuzz targets' seed corpus, Tests/Fuzz/corpus/TARGET/seed-*,
# from what the tests already hold (the iCalendar fixtures, dateutil's rrule
# cases, the phone table, the ActivityWatch exports, the phrases the parser
# tests read) and from the journals the debug tools write in a short session
# of each tool (the events a peer's journal holds). Files a fuzzer found
# (crash-*, timeout-*) are left as they are. Run after `swift build`:
#
#   .ci/gen/fuzz-corpus.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
B=$PWD/.build/debug
[ -x "$B/tenclub" ] || { echo "fuzz-corpus: build first (swift build)" >&2; exit 2; }
out=Tests/Fuzz/corpus
find "$out" -name 'seed-*' -delete 2>/dev/null || true
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A short session of each tool, as a user (and a pool's two members) would have it.
export TZ=America/New_York HOME=$work/home NO_COLOR=1
mkdir -p "$HOME"
N=2026-11-27T20:00:00-05:00
run() { "$@" >/dev/null 2>&1 || echo "fuzz-corpus: (failed, left out) $*" >&2; }
T() { run "$B/$1" --data-dir "$work/$1" --now "$N" "${@:2}"; }
T tenclub unlock
T tenclub unlock
echo '{"at":"2026-11-27T09:00:00-05:00"}' | T tenclub ingest
T tenclub buddy set 415-555-0132
echo '{"from":"+14155550132","body":"YES","at":"2026-11-27T19:01:00-05:00"}' | T tenclub sms receive
T tenclub rollover
T yomo add "call mum every other tuesday at 9am"
T yomo add "water plants in 20 minutes"
T yomo add "pay rent on the 1st of every month"
T yomo add "standup every weekday at 9:30 until dec 24"
run "$B/yomo" --data-dir "$work/yomo" --now 2026-11-27T20:30:00-05:00 due
id=$("$B/yomo" --data-dir "$work/yomo" --now "$N" list --format json | head -1 | sed 's/.*"id":"\([^"]*\)".*/\1/')
T yomo done "$id"
T yomo rm "$id"
T rewards init
T rewards child add sam
T rewards app set Duolingo --learning
T rewards app set Minecraft --reward --process java
echo '{"child":"sam","app":"Duolingo","start":"2026-11-27T08:00:00-05:00","end":"2026-11-27T08:40:00-05:00"}' | T rewards ingest
T rewards adjust sam +5 --reason helped
T rewards redeem sam 2
T rewards settings set daily_goal_minutes 30
T playa recipient add Ana --platform whatsapp --phone +14155550132
T playa recipient add Bo --platform instagram --username bo
T playa message add Ana "thinking of you"
T playa message add Ana "coffee soon?"
T playa schedule Ana --random 2
T playa generate
run "$B/playa" --data-dir "$work/playa" --now 2026-11-27T23:00:00-05:00 due
pool=$work/pool
run "$B/habitmatch" pool init --synced "$pool"
H() { run "$B/habitmatch" --pool "$pool" --user "$1" --data-dir "$work/hm-$1" --now "$N" "${@:2}"; }
H ana join --name Ana --email ana@example.com --habit exercise --habit read
H cy join --name Cy --habit exercise --tz America/Chicago
H ana like cy
H cy like ana
H cy buddy accept ana
H ana buddy accept cy
H ana chat cy "hi there"
H ana done exercise
H ana meet cy --at "2026-11-30 18:00"
H cy block ana

python3 - "$work" "$out" <<'EOF'
import glob, hashlib, json, os, random, re, sys
work, out = sys.argv[1], sys.argv[2]
random.seed(46)
def put(target, data):
    if isinstance(data, str): data = data.encode()
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, "seed-" + hashlib.sha1(data).hexdigest()[:12]), "wb").write(data)

tools = ["tenclub", "yomo", "rewards", "playa", "habitmatch"]
journals = {t: sorted(glob.glob(f"{work}/{t}/journal/*.ndjson")) for t in tools[:4]}
journals["habitmatch"] = sorted(glob.glob(f"{work}/pool/**/*.ndjson", recursive=True))
lines = []
for k, t in enumerate(tools):
    for j in journals[t]:
        data = open(j, "rb").read()
        put("peer-events", bytes([k]) + data)
        put("ndjson", data)
        lines += data.splitlines()
for s in glob.glob(f"{work}/*/snapshot.ndjson"):
    put("ndjson", open(s, "rb").read())
for l in random.sample(lines, min(60, len(lines))):
    put("json", l)
    put("json-scan", l)
for doc in ['{"a":[1,2.5e3,-0,true,false,null,"\\u00e9\\ud83d\\ude00"]}', '[]', '{}', '"\\n"', '123456789012345678901234567890',
            '{"type":"x","type":"y"}', '{"id":"\\u0000"}', '\ufeff{"at":1}', '[[[[[[[[[[]]]]]]]]]]', '1e400', '-9223372036854775808']:
    put("json", doc); put("json-scan", doc)

fx = "Tests/NudgeKitTests"
for f in glob.glob(f"{fx}/Rewards/Fixtures/activitywatch-*.json"):
    put("activitywatch", open(f, "rb").read())

for f in sorted(glob.glob(f"{fx}/Yomo/Fixtures/recurring-ical-events/calendars/*.ics")):
    data = open(f, "rb").read()
    if len(data) <= 20000: put("ics", data)
cases = [json.loads(l) for l in open(f"{fx}/Yomo/Fixtures/dateutil/rrule.ndjson") if l.strip()][1:]
for c in random.sample(cases, 40):
    put("ics", c["ics"])
rules = set()
for l in open(f"{fx}/Yomo/Fixtures/dateutil/rrule_cases.raw.ndjson"):
    for m in re.finditer(r"RRULE:([^\\\n\"]+)", json.loads(l).get("str", "")):
        rules.add(m.group(1))
for r in sorted(rules): put("rrule", r)

phrases = set()
for f in glob.glob(f"{fx}/Yomo/*.swift") + glob.glob("Tests/ToolTests/Yomo*.swift"):
    src = open(f).read()
    for m in re.finditer(r'(?:parse\(|"add", |"parse", )"((?:[^"\\]|\\.){3,100})"', src):
        phrases.add(m.group(1))
for p in sorted(phrases): put("phrase", p)

rows = [l.rstrip("\n").split("\t") for l in open(f"{fx}/Core/Messages/Fixtures/phones.tsv") if not l.startswith("#")]
for r in random.sample(rows, 120):
    put("phone", r[1])
EOF
for t in $(ls "$out"); do echo "$t: $(ls "$out/$t" | wc -l) files"; done
