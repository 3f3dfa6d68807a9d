// Reading vCards (RFC 6350, 4.0; RFC 2426, 3.0; and the 2.1 phones still
// export) as address books write them: Google Contacts, Apple Contacts,
// khard and vdirsyncer's CardDAV copies, Android. Content lines are
// iCalendar's (ICSReader: folding, NAME;PARAM=VALUE:value), with what
// vCard adds: a group before the name (`item1.TEL`), a parameter given
// more than once (`TYPE=cell;TYPE=pref`) or bare (2.1's `TEL;CELL:`),
// and 2.1's quoted-printable values, whose soft line breaks end in `=`.
// Pure: bytes in, cards and problems out.
//
// Invariants: a card is what lies between BEGIN:VCARD and END:VCARD;
// a card without a name (FN, N or ORG) is still returned with an empty
// name, for the caller to say why it is skipped; nothing outside a card
// is read.

public struct VCard: Equatable, Sendable {
    public struct Phone: Equatable, Sendable {
        /// As written (`+1 415-555-0132`, `tel:+1-415-555-0132`).
        public var value: String
        /// Lower-cased TYPE values: `cell`, `home`, `pref`…
        public var types: Set<String>
        public var preferred: Bool { types.contains("pref") }
        public var mobile: Bool { !types.isDisjoint(with: ["cell", "mobile", "iphone"]) }
    }

    /// A dated property: BDAY, ANNIVERSARY, or Apple's labelled X-ABDATE.
    public struct DateField: Equatable, Sendable {
        /// `birthday`, `anniversary`, or the label the address book gave.
        public var label: String
        public var value: String
        /// Apple writes a birthday without a year as 1604-MM-DD with
        /// X-APPLE-OMIT-YEAR=1604: the year to drop, when so marked.
        public var omitYear: Int?
    }

    /// UID, or Apple's X-ABUID: what says two files are one person.
    public var uid: String?
    public var name: String
    public var phones: [Phone] = []
    /// Preferred first, then as written.
    public var emails: [String] = []
    public var dates: [DateField] = []
    /// The line BEGIN:VCARD is on (1-based).
    public var line: Int
}

public enum VCardReader {
    /// The content lines of `bytes`, unfolded as iCalendar's, and with a
    /// quoted-printable value's soft line breaks (a line ending in `=`)
    /// joined to the next.
    static func lines(_ bytes: [UInt8]) -> [(String, Int)] {
        var out: [(String, Int)] = []
        for (text, no) in ICSReader.lines(bytes) {
            if let last = out.last, last.0.uppercased().contains("QUOTED-PRINTABLE"), last.0.hasSuffix("="),
               !last.0.hasPrefix("END") {
                out[out.count - 1].0 = String(last.0.dropLast()) + text
            } else {
                out.append((text, no))
            }
        }
        return out
    }

    /// The file as UTF-8: UTF-16 with its byte order mark (as Windows
    /// writes it) transcoded, and a file that is not UTF-8 read as Latin-1
    /// (ISO-8859-1, what old phones declare with CHARSET), said as a problem.
    static func utf8(_ bytes: [UInt8]) -> ([UInt8], ICSProblem?) {
        if bytes.count >= 2, (bytes[0], bytes[1]) == (0xFF, 0xFE) || (bytes[0], bytes[1]) == (0xFE, 0xFF) {
            let little = bytes[0] == 0xFF
            let units = stride(from: 2, to: bytes.count - 1, by: 2).map { i in
                little ? UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 : UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])
            }
            return (Array(String(decoding: units, as: UTF16.self).utf8), nil)
        }
        if String(validating: bytes, as: UTF8.self) != nil { return (bytes, nil) }
        // Line by line: a valid UTF-8 line stays as it is.
        var out: [UInt8] = []
        var first: Int? = nil
        for (n, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            if n > 0 { out.append(0x0A) }
            if String(validating: line, as: UTF8.self) != nil { out += line } else { out += latin1(line); first = first ?? n + 1 }
        }
        return (out, ICSProblem(line: first, message: "not UTF-8: read as Latin-1 (ISO-8859-1)"))
    }

    static func latin1(_ b: ArraySlice<UInt8>) -> [UInt8] { Array(String(String.UnicodeScalarView(b.map { Unicode.Scalar($0) })).utf8) }

    /// A quoted-printable value decoded as UTF-8 (`=C3=A9` is é), or as
    /// Latin-1 when its CHARSET says so.
    static func quotedPrintable(_ s: String, charset: String? = nil) -> String {
        var bytes: [UInt8] = []
        let u = Array(s.utf8)
        var i = 0
        func hex(_ b: UInt8) -> UInt8? {
            switch b {
            case 0x30...0x39: return b - 0x30
            case 0x41...0x46: return b - 0x41 + 10
            case 0x61...0x66: return b - 0x61 + 10
            default: return nil
            }
        }
        while i < u.count {
            if u[i] == 0x3D, i + 2 < u.count, let h = hex(u[i + 1]), let l = hex(u[i + 2]) {
                bytes.append(h << 4 | l)
                i += 3
            } else {
                bytes.append(u[i])
                i += 1
            }
        }
        if let c = charset?.uppercased(), ["ISO-8859-1", "LATIN1", "ISO8859-1", "WINDOWS-1252", "CP1252"].contains(c),
           String(validating: bytes, as: UTF8.self) == nil {
            return String(decoding: latin1(bytes[...]), as: UTF8.self)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// One content line: its group (lower-cased, or nil), name, parameters
    /// (repeated ones joined by commas; 2.1's bare ones as TYPE) and value.
    static func property(_ text: String, line: Int) -> (group: String?, prop: ICSProperty)? {
        // A parameter given twice (TYPE=cell;TYPE=pref) keeps both: split
        // them apart first, as ICSReader keeps one value per name.
        guard let colon = firstUnquotedColon(text) else { return nil }
        let head = text[..<colon]
        let value = String(text[text.index(after: colon)...])
        var parts = splitUnquoted(String(head), on: ";")
        guard !parts.isEmpty else { return nil }
        var name = parts.removeFirst().trimmingSpaces
        var group: String? = nil
        if let dot = name.lastIndex(of: ".") {
            group = String(name[..<dot]).lowercased()
            name = String(name[name.index(after: dot)...])
        }
        guard !name.isEmpty else { return nil }
        var params: [String: String] = [:]
        for p in parts {
            var key: String, val: String
            if let eq = p.firstIndex(of: "=") {
                key = String(p[..<eq]).trimmingSpaces.uppercased()
                val = String(p[p.index(after: eq)...])
            } else {
                (key, val) = ("TYPE", p)  // 2.1: TEL;CELL;PREF:
            }
            val = val.filter { $0 != "\"" }
            params[key] = params[key].map { $0 + "," + val } ?? val
        }
        return (group, ICSProperty(name: name.uppercased(), params: params, value: value, line: line))
    }

    static func firstUnquotedColon(_ s: String) -> String.Index? {
        var quoted = false
        var i = s.startIndex
        while i < s.endIndex {
            if s[i] == "\"" { quoted.toggle() } else if s[i] == ":" && !quoted { return i }
            i = s.index(after: i)
        }
        return nil
    }

    static func splitUnquoted(_ s: String, on sep: Character) -> [String] {
        var out: [String] = [""]
        var quoted = false
        for c in s {
            if c == "\"" { quoted.toggle() }
            if c == sep && !quoted { out.append("") } else { out[out.count - 1].append(c) }
        }
        return out
    }

    /// A structured value's components (N's family;given;…), unescaped.
    static func components(_ v: String) -> [String] {
        var out: [String] = [""]
        var esc = false
        for c in v {
            if esc { out[out.count - 1].append(c == "n" || c == "N" ? "\n" : c); esc = false } else if c == "\\" { esc = true } else if c == ";" { out.append("") } else { out[out.count - 1].append(c) }
        }
        return out
    }

    /// Every card in `bytes`, and the lines that are not vCard.
    public static func parse(_ bytes: [UInt8]) -> ([VCard], [ICSProblem]) {
        var cards: [VCard] = []
        var problems: [ICSProblem] = []
        var props: [(String?, ICSProperty)]? = nil
        var start = 0
        let (bytes, encoding) = utf8(bytes)
        if let e = encoding { problems.append(e) }
        for (text, no) in lines(bytes) {
            guard let (group, p) = property(text, line: no) else {
                if props != nil { problems.append(ICSProblem(line: no, message: "not a vCard content line (NAME:value)")) }
                continue
            }
            if p.name == "BEGIN", p.value.trimmingSpaces.uppercased() == "VCARD" {
                if props != nil { problems.append(ICSProblem(line: start, message: "BEGIN:VCARD is never closed")) }
                props = []
                start = no
            } else if p.name == "END", p.value.trimmingSpaces.uppercased() == "VCARD" {
                if let ps = props { cards.append(card(ps, line: start)) }
                props = nil
            } else {
                props?.append((group, p))
            }
        }
        if props != nil { problems.append(ICSProblem(line: start, message: "BEGIN:VCARD is never closed")) }
        if cards.isEmpty && problems.allSatisfy({ $0 == encoding }) { problems.append(ICSProblem(line: nil, message: "no vCard in it (BEGIN:VCARD … END:VCARD)")) }
        return (cards, problems)
    }

    /// A value as text: quoted-printable decoded, escapes undone.
    static func text(_ p: ICSProperty) -> String {
        let raw = (p.params["ENCODING"]?.uppercased() == "QUOTED-PRINTABLE") ? quotedPrintable(p.value, charset: p.params["CHARSET"]) : p.value
        return ICSValue.text(raw).trimmingSpaces
    }

    static func card(_ props: [(String?, ICSProperty)], line: Int) -> VCard {
        func first(_ n: String) -> ICSProperty? { props.first { $0.1.name == n }?.1 }
        var name = first("FN").map(text) ?? ""
        if name.isEmpty, let n = first("N") {
            // family;given;additional;prefix;suffix → "given additional family"
            let raw = (n.params["ENCODING"]?.uppercased() == "QUOTED-PRINTABLE") ? quotedPrintable(n.value, charset: n.params["CHARSET"]) : n.value
            let c = components(raw).map { String($0.map { $0 == "," ? " " : $0 }).trimmingSpaces }
            name = [c.count > 1 ? c[1] : "", c.count > 2 ? c[2] : "", c[0]].filter { !$0.isEmpty }.joined(separator: " ")
        }
        if name.isEmpty, let o = first("ORG") { name = components(o.value).first?.trimmingSpaces ?? "" }
        // A card of an address alone (Thunderbird's collected addresses) is named by it.
        if name.isEmpty, let e = first("EMAIL").map(text) { name = e.lowercased().hasPrefix("mailto:") ? String(e.dropFirst(7)) : e }
        var card = VCard(uid: (first("UID") ?? first("X-ABUID")).map(text).flatMap { $0.isEmpty ? nil : $0 }, name: name, line: line)
        func types(_ p: ICSProperty) -> Set<String> {
            var t = Set((p.params["TYPE"] ?? "").lowercased().split(separator: ",").map { String($0).trimmingSpaces })
            if p.params["PREF"] != nil { t.insert("pref") }  // 4.0: PREF=1
            return t
        }
        for (_, p) in props where p.name == "TEL" {
            let v = text(p)
            if !v.isEmpty { card.phones.append(VCard.Phone(value: v, types: types(p))) }
        }
        var emails: [(String, Bool)] = []
        for (_, p) in props where p.name == "EMAIL" {
            var v = text(p)
            if v.lowercased().hasPrefix("mailto:") { v = String(v.dropFirst(7)) }
            if !v.isEmpty { emails.append((v, types(p).contains("pref"))) }
        }
        card.emails = emails.filter(\.1).map(\.0) + emails.filter { !$0.1 }.map(\.0)
        // Apple labels a dated item by its group: item2.X-ABDATE + item2.X-ABLabel:_$!<Anniversary>!$_
        func label(group: String?) -> String? {
            guard let g = group, let l = props.first(where: { $0.0 == g && $0.1.name == "X-ABLABEL" }).map({ text($0.1) }) else { return nil }
            if l.hasPrefix("_$!<"), l.hasSuffix(">!$_") { return String(l.dropFirst(4).dropLast(4)).lowercased() }
            return l
        }
        for (group, p) in props {
            let l: String
            switch p.name {
            case "BDAY": l = "birthday"
            case "ANNIVERSARY", "X-ANNIVERSARY", "X-MS-ANNIVERSARY", "X-EVOLUTION-ANNIVERSARY": l = "anniversary"
            case "X-ABDATE": l = label(group: group) ?? "date"
            case "X-ANDROID-CUSTOM":
                // Android's events: contact_event;DATE;TYPE;LABEL (0 custom, 1 anniversary, 2 other, 3 birthday).
                let raw = (p.params["ENCODING"]?.uppercased() == "QUOTED-PRINTABLE") ? quotedPrintable(p.value, charset: p.params["CHARSET"]) : p.value
                let c = components(raw)
                guard c.count >= 3, c[0] == "vnd.android.cursor.item/contact_event" else { continue }
                let custom = c.count > 3 ? c[3].trimmingSpaces : ""
                let named = ["1": "anniversary", "2": "other", "3": "birthday"][c[2].trimmingSpaces] ?? (custom.isEmpty ? "date" : custom)
                card.dates.append(VCard.DateField(label: named, value: c[1].trimmingSpaces, omitYear: nil))
                continue
            default: continue
            }
            // VALUE=text ("circa 1990") is kept as written; the caller says it cannot be read.
            card.dates.append(VCard.DateField(label: l, value: text(p), omitYear: p.params["X-APPLE-OMIT-YEAR"].flatMap { Int($0) }))
        }
        return card
    }
}
