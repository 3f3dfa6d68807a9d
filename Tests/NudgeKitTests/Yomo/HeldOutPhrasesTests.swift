import XCTest
@testable import NudgeKit

/// Tables of phrases written by people who had not seen the parser
/// (Fixtures/heldout-a.tsv to heldout-z.tsv, heldout-aa.tsv to heldout-at.tsv: phrase, title, first occurrence,
/// second occurrence, rule in words, clear or ambiguous, class), kept aside
/// while the parser was tuned and judged once at the end. Now they guard
/// against going back: a phrase is right (its first two occurrences and its
/// title as the table says; an ambiguous one also when the reading taken is
/// stated), refused (a warning or a conflict: `add` says which words), or
/// wrong; wrong without a stated reading is silently wrong. Pinned to
/// Saturday 2026-11-28 10:00 in New York.
final class HeldOutPhrasesTests: XCTestCase {
    let ny = try! Zone.named("America/New_York")
    let now = RFC3339.parse("2026-11-28T10:00:00-05:00")!.instant

    /// The phrases still silently wrong, with why they are left.
    static let known: [String: String] = [
        "txt jess happy bday on dec 9 lol": "the day is right; the title keeps 'lol', which P's writer dropped",
    ]

    enum Verdict: String { case right, refused, stated = "wrong, stated", silent = "silently wrong" }

    func rows(_ name: String) -> [[String]] {
        let path = name.hasPrefix("/") ? name : String(#filePath.dropLast("HeldOutPhrasesTests.swift".count)) + "Fixtures/" + name
        guard let bytes = try? Sys.readFile(path) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }.filter { $0.count >= 7 }
    }

    func words(_ s: String) -> [String] {
        s.lowercased().filter { $0.isLetter || $0.isNumber || $0 == " " }.split(separator: " ").map(String.init)
    }

    /// "2026-11-28 15:00", "2026-11-28 ?", "-" against a local time.
    func matches(_ want: String, _ got: String?) -> Bool {
        if want == "-" || want == "?" { return want == "?" || got == nil }
        guard let g = got else { return false }
        let parts = want.split(separator: " ")
        return g.hasPrefix(String(parts[0])) && (parts.count < 2 || parts[1] == "?" || g.dropFirst(11).hasPrefix(parts[1]))
    }

    func judge(_ c: [String]) -> Verdict {
        let (phrase, title, first, second, ambiguous) = (c[0], c[1], c[2], c[3], c[5] == "ambiguous")
        let p = ReminderParser.parse(phrase, now: now, zone: ny)
        let refused = p.conflict != nil || !p.warnings.isEmpty
        if first == "refuse" { return refused ? .right : (p.assumptions.isEmpty ? .silent : .stated) }
        if refused { return .refused }
        guard let f = try? Yomo.form(parsed: p, options: ReminderFormOptions(), now: now, zone: ny) else { return .refused }
        var occ: [String] = []
        var t = f.exact ?? Yomo.firstTrigger(anchor: f.anchor, recurrence: f.recurrence, now: now, zone: ny)
        while let x = t, occ.count < 2 {
            occ.append(String(ny.format(x).prefix(16)).replacingAll("T", " "))
            t = f.recurrence.repeats ? f.recurrence.next(after: x, anchor: f.anchor, zone: ny) : nil
        }
        let firstRight = first == "-" ? (p.date == nil && p.time == nil && !p.recurrence.repeats) : matches(first, occ.first)
        let secondRight = second == "-" ? !f.recurrence.repeats : matches(second, occ.count > 1 ? occ[1] : nil)
        // A rule word the rule was read from may stay as the title's first word ("quarterly VAT return",
        // as "daily standup"): yomo keeps it, some tables drop it; both name the same thing.
        let got = words(f.title)
        let ruleWords: Set<String> = ["daily", "weekly", "monthly", "quarterly", "yearly", "annual", "annually", "nightly", "biweekly"]
        // "rent due fri": "rent due" or "rent" (tables differ); the word "due" before the deadline read names nothing else.
        let undue = { (w: [String]) in w.last == "due" ? Array(w.dropLast()) : w }
        let sameTitle = got == words(title) || (got.count > 1 && ruleWords.contains(got[0]) && f.recurrence.repeats && Array(got.dropFirst()) == words(title))
            || (undue(got) == undue(words(title)) && (got.last == "due" || words(title).last == "due"))
        if firstRight && secondRight && sameTitle { return .right }
        let stated = !f.assumptions.isEmpty
        return stated ? (ambiguous ? .right : .stated) : .silent
    }

    /// A new table, judged once before anything is tuned on it:
    /// HELDOUT_TABLE=/path/to/table.tsv (HELDOUT_VERBOSE to list what is
    /// not right). Nothing to judge without it.
    func testAFreshTable() throws {
        guard let path = Sys.env("HELDOUT_TABLE") else { return }
        var tally: [Verdict: Int] = [:]
        for c in rows(path) {
            let v = judge(c)
            tally[v, default: 0] += 1
            if Sys.env("HELDOUT_VERBOSE") != nil && v != .right { print("\(v.rawValue): \(c.joined(separator: " | "))") }
        }
        print("\(path): " + [Verdict.right, .refused, .stated, .silent].map { "\($0.rawValue) \(tally[$0] ?? 0)" }.joined(separator: ", "))
    }

    func testNoHeldOutPhraseIsSilentlyWrong() {
        // (J's own floor: one reading is stated, not taken, and one title with a weekday's name refused. O's: its
        // writer took "morning" as 09:00 where yomo says 08:00 (3 stated), and 7 of its phrases are refused.)
        // P's: 14 of its phrases are refused (zones named by "her time", a show called Wednesday, "this time next week",
        // "tmrw b4 8", once judged right only because its reading of "tmrw" was said, and now refused for its "8").
        // Q's: 9 refused (EOD, "this time next week", names with days in them left to be refused).
        // R's (judged first at 68 right, 4 refused, 1 stated, 3 silent): 2 refused ("the 14th pay property tax", whose
        // ordinal before a word may be a title's; "sunrise service", a vague time word in a title).
        // S's, judged once with nothing tuned on it: 74 right, 1 refused, 1 stated ("every 2 hours" from the next full hour,
        // said, where its writer started at noon).
        // T's (judged first at 70 right, 2 refused, 2 stated, 2 silent: "when i'm next on days", "when ellie's exam results
        // come out"): 2 refused ("decemebr", "invoice 0457"), 1 stated (the same "every 2 hrs" as S's).
        // U's, judged once (73 right, 0 refused, 1 stated, 2 silent: "3:30pn", "3pm cet monday"): 1 refused ("3:30pn"), 1 stated
        // ("this afternoon" is 14:00, said, where its writer has 15:00).
        // V's, judged once (66 right, 6 refused, 2 stated, 2 silent: "at pickup", "after mums hospital discharge"): 3 refused
        // ("for xmas week by dec 18th", "twelfth night" the play, "the saturday paper"), 1 stated ("the 31st of every month" is
        // the last day in shorter months, said, November's 30th first, where its writer skips to December).
        // W's, judged once (72 right, 2 refused, 2 silent: "1830 collect kids", "kindly remind me to"): 2 refused (Diwali, a
        // day of another calendar; "the 9 o'clock news").
        // X's, judged once (62 right, 9 refused, 3 stated, 2 silent: "at 22 elm", "with dinner"): 8 refused (a house number
        // or an hour, "between 10 and 12", "sun 4-9", "saturdays 8 to 2", "chapters 7 and 8", two rules' mornings and
        // evenings, "the 1st and 15th" without "each month"), 3 stated ("friday night lights", "saturday off", "3 times a day").
        // Y's, judged once after the round on W and X: 70 right, 5 refused, 1 stated, 0 silent (goal met at first look).
        // Z's, judged once with Y: 63 right, 8 refused, 2 stated, 3 silent ("after harvest", "read farmers weekly", "day after").
        // AA's and AB's, the last two, judged once at the end of the stop with nothing tuned on them: AA 66 right, 8 refused, 1
        // stated, 1 silent ("Monday first"); AB 67 right, 4 refused, 3 stated, 2 silent ("remnd me to", "every 3 days" from
        // today, unsaid). The next stop read or said all three ("Monday first" read, "remnd me" said, "every 3 days" said):
        // AA 67 right, AB 69.
        // AC's and AD's, judged once at the start of the stop after: AC 64 right, 9 refused, 3 silent ("station 7 dec 19",
        // "tuesday tiles ltd", "wednesday cafe"); AD 67 right, 8 refused, 1 stated, 0 silent. After the fixes AC 72, AD 74;
        // AC 71 after an adversary's round: "for wednesday cafe" is Wednesday again, said (a day before a kind of business
        // is mostly the day: "friday pub quiz"), and stated wrong for AC's writer, who meant a client.
        // AE's and AF's, the last two of that stop, written while it worked and judged once at its end with nothing tuned
        // on them: AE 64 right, 7 refused, 2 stated, 3 silent ("thurs from 4pm", "about friday club", "visitor coming
        // thurs"); AF 62 right, 7 refused, 2 stated, 5 silent ("quartely", "st brigid's day", "the shortest day", "once all
        // the leaves have dropped", "reminder: ..."). After the fixes: AE 67, AF 69, none silent; then AE 66 after a review:
        // "about friday club" (a day before a kind of business after "at", "to", "about") is refused, the day or the place?
        // AG's and AH's, judged once at the start of the stop after: AG 66 right, 7 refused, 1 stated, 2 silent ("tuesday
        // then every 10 days" kept "then"; "monday when they open" kept its event); AH 65 right, 5 refused, 5 stated, 1 silent
        // ("when i wake up tomorrow", the same). After the fixes AG 70, AH 67; the two events stay in the title (the
        // day is read) and are said to give no hour: stated wrong for writers who dropped them.
        // AI's and AJ's, judged once at the start of the stop after (with that stop's first fixes, made before they were
        // seen): AI 65 right, 5 refused, 1 stated, 5 silent ("45 min", "before winter break", "when budget approved",
        // "every 250 hrs", "8am my time"); AJ 68 right, 3 refused, 2 stated, 3 silent ("after ap bio", "sunday after
        // service", "if pager goes off"). After the fixes AI 71, AJ 75, none silent.
        // AK's, written while that stop worked and judged once at its end with nothing tuned on it: 69 right (90.8 %),
        // 6 refused, 0 stated, 1 silent ("end of quarter", read since: AK 73).
        // AL's and AM's, judged once at the start of the stop after (with its first fixes, made before they were seen: the
        // end of a quarter or year): AL 65 right, 6 refused, 3 stated, 2 silent ("when forecast says snow", "every wednesday
        // 730"); AM 67 right, 7 refused, 0 stated, 2 silent ("when temps drop below 40", "1st of the month" read once
        // unsaid). After the fixes AL 73, AM 71, none silent; other tables' floors raised where the fixes read more.
        // AO's and AP's, written after an adversary's round on those fixes and judged once: AO 64 right, 5 refused, 5 stated,
        // 2 silent ("mtg w/ ad 730 monday", "due the 22nd every month" kept "the"); AP 64 right, 7 refused, 1 stated, 4 silent
        // ("8pm new york time", "before trip", "b4 the 12th", "before prices go up"). After the fixes AO 67, AP 69, none silent.
        // AN's, written at the start of that stop and kept unseen until its end, then judged once with nothing tuned on it:
        // 68 right (89.5 %), 6 refused, 1 stated, 1 silent ("call adult day care about thursday pickup": the day of the topic).
        // After two fixes (that phrase refused, "before end of month" is the end itself): 69, none silent.
        // AQ's (food-truck owner, nursing student, home-health aide, band director, IVF patient) and AR's (wedding photographer,
        // carpooling parent, airline pilot, puppy trainer, night student), judged once each: AQ 67 right (88.2 %), 5 refused,
        // 2 stated, 2 silent ("once principal signs off", "on day 6 of stims"); AR 70 (92.1 %), 4 refused, 1 stated, 1 silent
        // ("once grades post"). After the fixes ("once" + a subject and its verb, "day N of", lead times "remind me 2 wks
        // before", "between mon and wed" as a span, "every 2 hours" from the last full hour, "sz 3", "ch 7-9",
        // "2 more 128gb cards", "about sunday shift" beside another day): AQ 72, AR 74, none silent. S 75, T 74 and AP 71 too.
        // AS's (hairdresser, union electrician, chess player and coach, city council member, knee-surgery patient), written at
        // the start of that stop and kept unseen until the end of its work, then judged once: 60 right (78.9 %), 10 refused,
        // 3 stated, 3 silent ("for sat tourney", "before deadline", "w breakfast"). After the fixes (a day after "for" refused,
        // "deadline" an event, "w" before a meal, an h:mm before a rule word or "on the 7th", "leave early" beside a time,
        // "rd 4", "vs the 2100"): 65, none silent.
        let least = ["heldout-j.tsv": 75, "heldout-u.tsv": 74, "heldout-v.tsv": 73, "heldout-w.tsv": 74, "heldout-x.tsv": 66, "heldout-y.tsv": 72, "heldout-z.tsv": 67,
                     "heldout-aa.tsv": 72, "heldout-ab.tsv": 71, "heldout-ac.tsv": 71, "heldout-ad.tsv": 74, "heldout-ae.tsv": 67, "heldout-af.tsv": 70,
                     "heldout-ag.tsv": 72, "heldout-ah.tsv": 68, "heldout-ai.tsv": 71, "heldout-aj.tsv": 75, "heldout-ak.tsv": 73, "heldout-o.tsv": 66,
                     "heldout-p.tsv": 59, "heldout-q.tsv": 67, "heldout-r.tsv": 75, "heldout-s.tsv": 75, "heldout-t.tsv": 74, "heldout-al.tsv": 73, "heldout-am.tsv": 71,
                     "heldout-ao.tsv": 67, "heldout-ap.tsv": 71, "heldout-an.tsv": 69, "heldout-aq.tsv": 72, "heldout-ar.tsv": 74, "heldout-as.tsv": 65, "heldout-at.tsv": 52]
        for name in ["heldout-a.tsv", "heldout-b.tsv", "heldout-c.tsv", "heldout-d.tsv", "heldout-e.tsv", "heldout-f.tsv", "heldout-g.tsv", "heldout-h.tsv",
                     "heldout-i.tsv", "heldout-j.tsv", "heldout-k.tsv", "heldout-l.tsv", "heldout-m.tsv", "heldout-n.tsv", "heldout-o.tsv", "heldout-p.tsv", "heldout-q.tsv",
                     "heldout-r.tsv", "heldout-s.tsv", "heldout-t.tsv", "heldout-u.tsv", "heldout-v.tsv",
                     "heldout-w.tsv", "heldout-x.tsv", "heldout-y.tsv", "heldout-z.tsv",
                     "heldout-aa.tsv", "heldout-ab.tsv", "heldout-ac.tsv", "heldout-ad.tsv", "heldout-ae.tsv", "heldout-af.tsv",
                     "heldout-ag.tsv", "heldout-ah.tsv", "heldout-ai.tsv", "heldout-aj.tsv", "heldout-ak.tsv", "heldout-al.tsv", "heldout-am.tsv",
                     "heldout-ao.tsv", "heldout-ap.tsv", "heldout-an.tsv", "heldout-aq.tsv", "heldout-ar.tsv", "heldout-as.tsv", "heldout-at.tsv"] {
            let table = rows(name)
            XCTAssertEqual(table.count, 76, name)
            var tally: [Verdict: Int] = [:]
            for c in table {
                let v = judge(c)
                tally[v, default: 0] += 1
                if Sys.env("HELDOUT_VERBOSE") != nil && v != .right { print("\(name): \(v.rawValue): \(c.joined(separator: " | "))") }
                if v == .silent && HeldOutPhrasesTests.known[c[0]] == nil {
                    XCTFail("\(name): '\(c[0])' is silently wrong (wanted \(c[1...4].joined(separator: " | ")))")
                }
            }
            print("\(name): " + [Verdict.right, .refused, .stated, .silent].map { "\($0.rawValue) \(tally[$0] ?? 0)" }.joined(separator: ", "))
            XCTAssertGreaterThanOrEqual(tally[.right] ?? 0, least[name] ?? 72, "\(name): \(tally)")
        }
    }
}
