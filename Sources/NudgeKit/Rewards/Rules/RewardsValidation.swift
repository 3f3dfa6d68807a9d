// What rewards accepts from people and files, checked at the edge with
// messages that say what is accepted: a child's name and login, the process
// patterns and sites of `app set`, `app import` records, and the requests
// children drop in a family folder's spool (validated as the CLI would).
//
// Invariants: nothing here reads a disk or the clock; a value refused
// changes nothing.

extension Rewards {
    /// A child's name as `child add` takes it: 1 to 40 characters, spaces
    /// at either end dropped, and nothing that would not show as itself (a
    /// control character, a line break, a bidi control).
    static func checkChildName(_ raw: String) throws(ToolError) -> String {
        let name = raw.trimmingSpaces
        guard !name.isEmpty, name.count <= 40 else { throw .usage("a child's name is 1 to 40 characters") }
        if name.unicodeScalars.contains(where: { Text.needsEscape($0.value) }) {
            throw .usage("a child's name must not contain control characters, line breaks or bidi controls, not '\(name)'")
        }
        return name
    }

    /// A login as `child add --user` takes it: up to 64 characters, none of
    /// them blank or a control, not starting with '-'.
    static func checkLogin(_ login: String) throws(ToolError) -> String {
        guard !login.isEmpty, login.count <= 64, !login.hasPrefix("-"),
              !login.unicodeScalars.contains(where: { Text.needsEscape($0.value) || Text.isBlank($0) }) else {
            throw .usage("--user must be the child's login, like alex (up to 64 characters, no spaces or control characters), not '\(login)'")
        }
        return login
    }

    /// `--process PATTERN` (repeatable, or comma-separated): shell patterns
    /// for the names of a reward app's processes; nil when none is given.
    static func processPatterns(_ raw: [String], _ cat: RewardsEngine.Category) throws(ToolError) -> [String]? {
        let given = raw.flatMap { $0.split(separator: ",").map { String($0).trimmingSpaces } }
        guard !given.isEmpty else { return nil }
        for p in given where p.isEmpty || p.utf8.count > 64 || p.unicodeScalars.contains(where: { Text.needsEscape($0.value) || $0 == "/" }) {
            throw .usage("--process is a process-name pattern like 'minecraft*' or 'java' (1 to 64 characters, no '/'), not '\(Text.terminalSafe(p))'")
        }
        for p in given where p == "*" || p.allSatisfy({ $0 == "*" || $0 == "?" }) {
            throw .usage("--process '\(p)' would match every process; name the app's own")
        }
        return given
    }

    /// The window-title patterns of `--title` (again for more): 1 to 128
    /// characters, no control characters, at most 4 `*` (a match costs
    /// little whatever a window's title), not a pattern every title
    /// matches; at most 16. Nil when none is given.
    static func titlePatterns(_ raw: [String]) throws(ToolError) -> [String]? {
        let given = raw.map(\.trimmingSpaces)
        guard !given.isEmpty else { return nil }
        let hint = "--title is a window-title pattern like 'Minecraft*' or '*krunker.io*' (1 to 128 characters, at most 4 '*')"
        for p in given where !isTitlePattern(p) { throw .usage("\(hint), not '\(Text.terminalSafe(p))'") }
        for p in given where p.allSatisfy({ $0 == "*" || $0 == "?" }) { throw .usage("--title '\(p)' would match every window; name the app's own") }
        guard given.count <= 16 else { throw .usage("at most 16 --title patterns an app") }
        var out: [String] = []
        for p in given where !out.contains(p) { out.append(p) }
        return out
    }

    static func isTitlePattern(_ p: String) -> Bool {
        !p.isEmpty && p.utf8.count <= 128 && !p.unicodeScalars.contains(where: { Text.needsEscape($0.value) })
            && p.filter({ $0 == "*" }).count <= 4
    }

    /// Title patterns as another copy's event or the snapshot holds them:
    /// those `--title` would take, at most 16.
    static func checkedTitles(_ raw: [String]) -> [String] {
        Array(raw.filter { isTitlePattern($0) && !$0.allSatisfy({ $0 == "*" || $0 == "?" }) }.prefix(16))
    }

    /// A site as `--site` and `app import` take it: a domain name like
    /// khanacademy.org (lower-cased; a leading "*." or "." is dropped).
    static func checkSite(_ raw: String) -> String? {
        var s = raw.trimmingSpaces.lowercased()
        if s.hasPrefix("*.") { s.removeFirst(2) } else if s.hasPrefix(".") { s.removeFirst() }
        if s.hasSuffix(".") { s.removeLast() }
        guard !s.isEmpty, s.utf8.count <= 253 else { return nil }
        for label in s.split(separator: ".", omittingEmptySubsequences: false) {
            guard (1...63).contains(label.utf8.count), !label.hasPrefix("-"), !label.hasSuffix("-"),
                  label.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }) else { return nil }
        }
        return s
    }

    static let siteHint = "a domain like khanacademy.org (it matches that host and the hosts under it)"

    /// One `app import` record: {"app" (or "name"), "category",
    /// "points_per_hour"?, "sites"?}, each field checked and named when wrong.
    static func appRecord(_ o: JSONObject) throws(ToolError) -> JSONObject {
        let hint = "need {\"app\":NAME,\"category\":\"learning\"|\"reward\"|\"ignore\"}"
        let key = o["app"] != nil ? "app" : "name"
        let name = try o.requiredString(key, hint: hint).trimmingSpaces
        guard !name.isEmpty else { throw .data("\"\(key)\" must not be empty") }
        let raw = try o.requiredString("category", hint: hint)
        guard let cat = RewardsEngine.Category(rawValue: raw) else { throw .data("\"category\" must be learning, reward or ignore, not '\(raw)'") }
        var e: JSONObject = ["type": "app_set", "name": .string(name), "category": .string(cat.rawValue)]
        if let p = try o.optionalNumber("points_per_hour") {
            guard cat == .learning else { throw .data("\"points_per_hour\" goes with \"category\":\"learning\" only, not '\(raw)'") }
            guard p.rounded() == p, (1...10_000).contains(p) else { throw .data("\"points_per_hour\" must be a whole number from 1 to 10000") }
            e["points_per_hour"] = .int(Int64(p))
        }
        if let v = o["sites"], !v.isNull {
            guard let a = v.array else { throw .data("\"sites\" must be an array of domains, not \(v.kindName)") }
            var sites: [String] = []
            for x in a {
                guard let raw = x.string, let site = checkSite(raw) else { throw .data("\"sites\" must hold \(siteHint)s, not \(x.serialized)") }
                if !sites.contains(site) { sites.append(site) }
            }
            e["sites"] = JSON(sites)
        }
        return e
    }

    /// The `request` event for a spool file, validated as the CLI would.
    static func requestEvent(_ f: SpoolFile, now: Instant, today: Day) -> JSONObject {
        // When it was taken, not what the file says (its owner may set its
        // time and its text): a join's code is checked against this.
        var e: JSONObject = ["type": "request", "id": .string(f.id), "from": .string(f.from), "day": .string(today.description),
                             "at": .int(now.ms), "file_changed": .int(f.changed)]
        guard let o = f.object else {
            e["kind"] = "invalid"
            e["reason"] = .string(f.problem ?? "unreadable")
            return e
        }
        let kind = o["kind"]?.string ?? ""
        e["kind"] = .string(kind)
        func bad(_ why: String) -> JSONObject {
            var b = e
            b["kind"] = "invalid"
            b["reason"] = .string(why)
            return b
        }
        // The spool is a trust boundary: a field named twice (which value
        // counts?) makes the request nothing.
        var names = Set<String>()
        for k in o.keys where !names.insert(k).inserted {
            return bad("a request names each field once; \"\(Text.terminalSafe(String(k.prefix(40))))\" is named twice")
        }
        switch kind {
        case "redeem", "more_time":
            guard let m = o["minutes"]?.int, (1...1440).contains(m) else { return bad("minutes must be a whole number from 1 to 1440") }
            e["minutes"] = .int(m)
            if let a = o["app"]?.string {
                guard Text.isPlainName(a, max: 100) else { return bad("an app is 1 to 100 characters without control characters") }
                e["app"] = .string(a)
            }
            if let n = o["note"]?.string {
                guard Text.isPlainName(n, max: 200) else { return bad("a note is 1 to 200 characters without control characters") }
                e["note"] = .string(n)
            }
        case "join":
            guard let c = o["code"]?.string, c.utf8.count <= 40 else { return bad("a join request needs its code") }
            e["code"] = .string(c)
        default:
            return bad("a request is redeem, more_time or join, not '\(Text.terminalSafe(String(kind.prefix(40))))'")
        }
        return e
    }
}
