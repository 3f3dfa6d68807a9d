// Who wrote to whom, and when, from the mail people keep: an mbox file (as
// mutt, Thunderbird and Python's mailbox write it: each message after a
// `From ` line) or a Maildir (a file a message in cur/ and new/). Only the
// headers are read, a message at a time, so a mailbox of gigabytes costs
// its headers. RFC 5322 dates (and the obsolete forms still sent) and
// address lists (names, quoted strings, comments, groups) are parsed here.
//
// Invariants: addresses come back lower-cased; a message without a
// readable Date has no date (it is not guessed from the file); a header
// block is at most 256 KB (a longer one is read that far).

public enum MailHeaders {
    public struct Message: Equatable, Sendable {
        public var date: Instant?
        /// From and Sender.
        public var from: [String]
        /// To, Cc and Bcc.
        public var to: [String]
        /// Its header block was longer than 256 KB and read that far.
        public var truncated = false
    }

    static let headerCap = 256 * 1024

    /// The messages of an mbox file or a Maildir folder, each handed to `each`.
    public static func scan(_ path: String, each: (Message) -> Void) throws(ToolError) -> Int {
        if case .directory = try Sys.pathState(path) {
            var n = 0
            var any = false
            for sub in ["cur", "new"] {
                guard let entries = try Sys.scanDirectory(Sys.join(path, sub)) else { continue }
                any = true
                for e in entries where e.kind == .regular && !e.name.hasPrefix(".") {
                    guard let (head, cut) = try headOfFile(Sys.join(Sys.join(path, sub), e.name)) else { continue }
                    var m = message(head)
                    m.truncated = cut
                    each(m)
                    n += 1
                }
            }
            if !any { throw ToolError(.dataError, "\(path): not a Maildir (it has no cur/ or new/ folder) nor an mbox file") }
            return n
        }
        return try scanMbox(path, each: each)
    }

    /// A file's header block, and whether it was cut at `headerCap`.
    static func headOfFile(_ path: String) throws(ToolError) -> ([UInt8], Bool)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 { if errno == ENOENT { return nil }; throw Sys.accessError(path) }
        defer { close(fd) }
        var out: [UInt8] = []
        while out.count < headerCap {
            let chunk = try Sys.readAt(fd: fd, offset: out.count, count: 16384, path: path)
            if chunk.isEmpty { break }
            out += chunk
            if let end = headerEnd(out) { return (Array(out[..<end]), false) }
        }
        return (out, out.count >= headerCap)
    }

    /// Where the header block ends (the first empty line), if it does.
    static func headerEnd(_ b: [UInt8]) -> Int? {
        var i = 0
        while i < b.count {
            if b[i] == 0x0A {
                if i + 1 < b.count, b[i + 1] == 0x0A { return i + 1 }
                if i + 2 < b.count, b[i + 1] == 0x0D, b[i + 2] == 0x0A { return i + 1 }
            }
            i += 1
        }
        return nil
    }

    /// An mbox read in chunks: a message starts at a `From ` line at the
    /// start of the file or after an empty line; its headers run to the
    /// first empty line; the body is skipped. Linear in the file, however
    /// long its lines: a line is kept only as far as a header block can go.
    static func scanMbox(_ path: String, each: (Message) -> Void) throws(ToolError) -> Int {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            if errno == ENOENT { throw ToolError(.noInput, "cannot open \(path): No such file or directory") }
            throw Sys.accessError(path)
        }
        defer { close(fd) }
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) != S_IFREG {
            throw ToolError(.dataError, "\(path): not an mbox file or a Maildir folder")
        }
        if st.st_size == 0 { return 0 }  // an empty folder, as mutt leaves it
        var head: [UInt8]? = nil
        var cut = false
        var previousEmpty = true
        var count = 0
        var sawFrom = false
        func finish() {
            if let h = head {
                var m = message(h)
                m.truncated = cut
                each(m)
                count += 1
            }
            head = nil
            cut = false
        }
        func line(_ l: ArraySlice<UInt8>) {
            let text = l.last == 0x0D ? l.dropLast() : l
            if previousEmpty && text.starts(with: Array("From ".utf8)) {
                finish()
                head = []
                sawFrom = true
                previousEmpty = false
                return
            }
            if head != nil {
                if text.isEmpty {
                    finish()
                } else if head!.count + l.count < headerCap {
                    head! += l
                    head!.append(0x0A)
                } else {
                    cut = true
                }
            }
            previousEmpty = text.isEmpty
        }
        var offset = 0
        var pending: [UInt8] = []  // the line read so far, as far as headerCap
        var pendingLong = false
        while true {
            let chunk = try Sys.readAt(fd: fd, offset: offset, count: 1 << 20, path: path)
            if chunk.isEmpty { break }
            offset += chunk.count
            var start = 0
            while let nl = chunk[start...].firstIndex(of: 0x0A) {
                if pending.isEmpty && !pendingLong {
                    line(chunk[start..<nl])
                } else {
                    pending += chunk[start..<min(nl, start + max(0, headerCap - pending.count))]
                    line(pending[...])
                    pending = []
                    pendingLong = false
                }
                start = nl + 1
            }
            let rest = chunk[start...]
            if pending.count + rest.count <= headerCap { pending += rest } else {
                pending += rest.prefix(max(0, headerCap - pending.count))
                pendingLong = true
            }
            // An mbox starts with a `From ` line: anything else is not read further.
            if !sawFrom && !pending.starts(with: Array("From ".utf8)) { break }
        }
        if !pending.isEmpty { line(pending[...]) }
        finish()
        if !sawFrom { throw ToolError(.dataError, "\(path): not an mbox file (no message starts with a 'From ' line) nor a Maildir folder") }
        return count
    }

    /// A header block's Date, senders and receivers.
    public static func message(_ head: [UInt8]) -> Message {
        var fields: [(String, String)] = []
        for raw in head.split(separator: 0x0A, omittingEmptySubsequences: true) {
            let l = raw.last == 0x0D ? raw.dropLast() : raw
            if let f = l.first, f == 0x20 || f == 0x09, !fields.isEmpty {
                fields[fields.count - 1].1 += " " + String(decoding: l, as: UTF8.self).trimmingSpaces
            } else if let colon = l.firstIndex(of: 0x3A) {
                fields.append((String(decoding: l[..<colon], as: UTF8.self).trimmingSpaces.lowercased(),
                               String(decoding: l[(colon + 1)...], as: UTF8.self).trimmingSpaces))
            }
        }
        func all(_ names: Set<String>) -> [String] { fields.filter { names.contains($0.0) }.flatMap { addresses($0.1) } }
        return Message(date: fields.first { $0.0 == "date" }.flatMap { date($0.1) }, from: all(["from", "sender"]), to: all(["to", "cc", "bcc"]))
    }

    /// The addresses of an address list: `Ana Lima <ana@example.org>`,
    /// `"Lima, Ana" <ana@x.org>, bo@y.org (Bo)`, `team: a@x.org, b@x.org;`.
    public static func addresses(_ field: String) -> [String] {
        // Quoted strings and comments go first: they may hold commas, @ and <>.
        var plain = ""
        var quoted = false, depth = 0, escaped = false
        for c in field {
            if escaped { escaped = false; continue }
            if c == "\\" && (quoted || depth > 0) { escaped = true; continue }
            if quoted { if c == "\"" { quoted = false }; continue }
            if depth > 0 { if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }; continue }
            if c == "\"" { quoted = true } else if c == "(" { depth = 1 } else { plain.append(c) }
        }
        var out: [String] = []
        for part in plain.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            var p = Substring(part)
            if let colon = p.firstIndex(of: ":") { p = p[p.index(after: colon)...] }  // a group's name
            let addr: Substring
            if let lt = p.lastIndex(of: "<"), let gt = p[lt...].firstIndex(of: ">") {
                addr = p[p.index(after: lt)..<gt]
            } else {
                addr = p
            }
            let a = String(addr).trimmingSpaces.lowercased()
            if a.contains("@"), !a.contains(" ") { out.append(a) }
        }
        return out
    }

    static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    static let zones: [String: Int] = ["ut": 0, "gmt": 0, "utc": 0, "z": 0, "est": -300, "edt": -240, "cst": -360, "cdt": -300,
                                       "mst": -420, "mdt": -360, "pst": -480, "pdt": -420]

    /// An RFC 5322 date: `Tue, 24 Nov 2026 18:05:00 -0500`, with the
    /// obsolete forms still sent: no weekday, no seconds, a two-digit
    /// year, a zone name (GMT, EST…), a comment after it.
    public static func date(_ s: String) -> Instant? {
        var t = s
        if let paren = t.firstIndex(of: "(") { t = String(t[..<paren]) }
        if let comma = t.firstIndex(of: ",") { t = String(t[t.index(after: comma)...]) }
        let w = t.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { String($0).lowercased() }
        guard w.count >= 4, let d = Int(w[0]), let mi = months.firstIndex(of: String(w[1].prefix(3))), var y = Int(w[2]) else { return nil }
        if w[2].count == 2 { y += y < 50 ? 2000 : 1900 } else if w[2].count == 3 { y += 1900 }
        let hms = w[3].split(separator: ":").map { Int($0) }
        guard (2...3).contains(hms.count), hms.allSatisfy({ $0 != nil }), (1900...9999).contains(y), (1...31).contains(d),
              d <= Day.daysInMonth(year: y, month: mi + 1) else { return nil }
        let (h, m, sec) = (hms[0]!, hms[1]!, hms.count == 3 ? hms[2]! : 0)
        guard (0...23).contains(h), (0...59).contains(m), (0...60).contains(sec) else { return nil }
        var offset = 0  // minutes east of UTC
        if w.count > 4 {
            let z = w[4]
            if let n = zones[z] {
                offset = n
            } else if z.count == 5, let sign = z.first, sign == "+" || sign == "-", let v = Int(z.dropFirst()), v % 100 < 60, v <= 2359 {
                offset = (sign == "-" ? -1 : 1) * (v / 100 * 60 + v % 100)
            } else {
                return nil
            }
        }
        let days = Int64(Day(year: y, month: mi + 1, day: d).daysSinceEpoch)
        return Instant(seconds: days * 86400 + Int64(h * 3600 + m * 60 + min(sec, 59)) - Int64(offset * 60))
    }
}
