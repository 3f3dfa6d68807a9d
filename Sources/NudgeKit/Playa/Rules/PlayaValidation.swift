// What a person may type for a recipient: names, usernames, messages and
// schedules, each checked with a message that says what is accepted and
// never echoes a phone number or a message's text.

extension Playa {
    public static func validateName(_ s: String) -> String? {
        let t = s.trimmingSpaces
        if Text.isBlank(t) { return "a name must not be empty" }
        if t.count > 80 { return "a name must be at most 80 characters" }
        return nil
    }

    /// Instagram's rules: 1 to 30 letters, digits, `_` and `.`, neither
    /// starting nor ending with `.`, and no `..`.
    public static func validateUsername(_ s: String) -> String? {
        let hint = "an Instagram username is 1 to 30 letters, digits, '_' or '.'"
        guard (1...30).contains(s.unicodeScalars.count), s.unicodeScalars.allSatisfy({
            ($0 >= "a" && $0 <= "z") || ($0 >= "A" && $0 <= "Z") || ($0 >= "0" && $0 <= "9") || $0 == "_" || $0 == "."
        }) else { return hint }
        if s.hasPrefix(".") || s.hasSuffix(".") { return hint + ", and does not start or end with '.'" }
        if s.utf8.indices.dropLast().contains(where: { i in s.utf8[i] == 0x2E && s.utf8[s.utf8.index(after: i)] == 0x2E }) {
            return hint + ", with no two '.' in a row"
        }
        return nil
    }

    /// Telegram's rules: 5 to 32 letters, digits and `_`, starting with a
    /// letter, not ending with `_`.
    public static func validateTelegramUsername(_ s: String) -> String? {
        let hint = "a Telegram username is 5 to 32 letters, digits or '_', starting with a letter and not ending with '_'"
        let u = Array(s.unicodeScalars)
        func letter(_ c: Unicode.Scalar) -> Bool { (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") }
        guard (5...32).contains(u.count), letter(u[0]), u.last != "_", u.allSatisfy({ letter($0) || ($0 >= "0" && $0 <= "9") || $0 == "_" }) else {
            return hint
        }
        return nil
    }

    /// An e-mail address as a mailto: link carries it unencoded (RFC 6068's
    /// addr-spec, kept to the characters every mail program takes): a local
    /// part of letters, digits and `.`, `_`, `+`, `-`; a domain of two or
    /// more labels of letters, digits and `-`; 254 characters at most.
    public static func validateEmail(_ s: String) -> String? {
        let hint = "an e-mail address is like ana@example.org: letters, digits, '.', '_', '+' or '-' before the @, a domain after it"
        let parts = s.split(separator: "@", omittingEmptySubsequences: false)
        guard s.utf8.count <= 254, parts.count == 2, (1...64).contains(parts[0].count), !parts[0].hasPrefix("."), !parts[0].hasSuffix("."),
              !parts[0].contains(".."),
              parts[0].unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._+-".unicodeScalars.contains($0)) })
        else { return hint }
        let labels = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ (1...63).contains($0.count) && !$0.hasPrefix("-") && !$0.hasSuffix("-")
            && $0.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") } }),
              let top = labels.last, top.count >= 2, top.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic }) else { return hint }
        return nil
    }

    /// A username as typed, with the `@` people write before it dropped.
    public static func normalizeUsername(_ s: String) -> String {
        let t = s.trimmingSpaces
        return t.hasPrefix("@") ? String(t.dropFirst()) : t
    }

    /// Something to read (not only spaces or invisible characters), at most
    /// 500 characters as a person counts them and 4,000 bytes of UTF-8.
    public static func validateMessage(_ s: String) -> String? {
        if s.trimmingSpaces.isEmpty { return "a message must not be empty" }
        if Text.isBlank(s) { return "a message must not be only spaces or invisible characters" }
        if s.utf8.count > maxMessageBytes { return "a message must be at most \(maxMessageBytes) bytes of UTF-8 (this one has \(s.utf8.count))" }
        if s.count > maxMessageLength { return "a message must be at most \(maxMessageLength) characters (this one has \(s.count))" }
        return nil
    }

    public static func parseSchedule(random: String?, fixed: String?, every: String? = nil, today: Day? = nil) throws(ToolError) -> Schedule {
        if let e = every {
            guard random == nil, fixed == nil else { throw .usage("use one of --random, --fixed and --every") }
            return .every(try Cadence.parse(e, since: today ?? Day(year: 2000, month: 1, day: 1)))
        }
        switch (random, fixed) {
        case (let r?, nil):
            guard let n = Int(r), (1...10).contains(n) else { throw .usage("--random must be 1 to 10 messages a day, not '\(r)'") }
            return .random(n)
        case (nil, let f?):
            var ts: [TimeOfDay] = []
            for part in f.split(separator: ",", omittingEmptySubsequences: false) {
                guard let t = TimeOfDay.parse(String(part).trimmingSpaces) else {
                    throw .usage("--fixed takes times like 09:30,18:00 (HH:MM, 24-hour), not '\(part)'")
                }
                if !ts.contains(t) { ts.append(t) }
            }
            guard !ts.isEmpty else { throw .usage("--fixed needs at least one time, like 09:30") }
            return .fixed(ts.sorted())
        case (nil, nil): throw .usage("schedule needs --random N (1-10 a day), --fixed HH:MM[,HH:MM…] or --every 2w (days, weeks or months after the last contact)")
        default: throw .usage("use --random or --fixed, not both")
        }
    }
}
