// The allowed_signers list of a signed folder (Signing.swift), as the
// `signers` command edits it: each line as ssh-keygen(1) reads it
// (ALLOWED SIGNERS: principals, options, key), adding a signer, retiring a
// key at a time (valid-before, so what it signed before still counts), and
// the change signed by someone the accepted list allows to change it.
//
// Invariants: lines this code does not understand (comments, blank lines,
// other tools' forms) are kept as they were, byte for byte; a key signs as
// one name; an edit never leaves the list with no one who may change it;
// a change is written only when its signature verifies against the list
// this copy accepted, and the folder's list is never edited over a version
// this copy has not accepted.

/// One signer line: `principals [options] keytype base64 [comment]`.
public struct SignerLine: Equatable, Sendable {
    public var principals: [String]
    /// Options as written (`namespaces="a,b"`, `valid-before="…"`, `cert-authority`).
    public var options: [String]
    public var keyType: String
    public var key: String
    public var comment: String

    /// A line of the list, or nil when it is not a signer line (a comment, a blank).
    public init?(_ line: Substring) {
        let words = SignerLine.words(line)
        guard let first = words.first, !first.hasPrefix("#") else { return nil }
        var i = 1
        var options: [String] = []
        if i < words.count, !SignerLine.isKeyType(words[i]) {
            options = SignerLine.splitOptions(words[i])
            i += 1
        }
        guard i + 1 < words.count, SignerLine.isKeyType(words[i]) else { return nil }
        principals = first.split(separator: ",").map(String.init)
        self.options = options
        keyType = words[i]
        key = words[i + 1]
        comment = words.dropFirst(i + 2).joined(separator: " ")
    }

    public init(principals: [String], options: [String], keyType: String, key: String, comment: String = "") {
        self.principals = principals
        self.options = options
        self.keyType = keyType
        self.key = key
        self.comment = comment
    }

    public var text: String {
        var s = principals.joined(separator: ",")
        if !options.isEmpty { s += " " + options.joined(separator: ",") }
        s += " \(keyType) \(key)"
        if !comment.isEmpty { s += " " + comment }
        return s
    }

    static func isKeyType(_ w: String) -> Bool {
        w.hasPrefix("ssh-") || w.hasPrefix("ecdsa-sha2-") || w.hasPrefix("sk-ssh-") || w.hasPrefix("sk-ecdsa-")
    }

    /// Words split at spaces and tabs outside double quotes.
    static func words(_ line: Substring) -> [String] {
        var out: [String] = [], cur = "", quoted = false
        for c in line {
            if c == "\"" { quoted.toggle() }
            if (c == " " || c == "\t") && !quoted {
                if !cur.isEmpty { out.append(cur); cur = "" }
            } else {
                cur.append(c)
            }
        }
        if !cur.isEmpty { out.append(cur) }
        return out
    }

    /// Options split at commas outside double quotes.
    static func splitOptions(_ w: String) -> [String] {
        var out: [String] = [], cur = "", quoted = false
        for c in w {
            if c == "\"" { quoted.toggle() }
            if c == "," && !quoted { out.append(cur); cur = "" } else { cur.append(c) }
        }
        out.append(cur)
        return out.filter { !$0.isEmpty }
    }

    /// An option's value, unquoted (nil: not given).
    public func option(_ name: String) -> String? {
        for o in options {
            guard o.lowercased().hasPrefix(name + "=") else { continue }
            var v = o.dropFirst(name.count + 1)
            if v.hasPrefix("\""), v.hasSuffix("\""), v.count >= 2 { v = v.dropFirst().dropLast() }
            return String(v)
        }
        return nil
    }

    public mutating func set(_ name: String, _ value: String) {
        options.removeAll { $0.lowercased().hasPrefix(name + "=") }
        options.append("\(name)=\"\(value)\"")
    }

    /// The namespaces the key may sign in; nil: any (ssh-keygen's rule when none are given).
    public var namespaces: [String]? { option("namespaces").map { $0.split(separator: ",").map(String.init) } }

    /// Whether the key may sign in `namespace`, as ssh-keygen decides it:
    /// `namespaces=` is a pattern list (`*`, `?`, and `!` for "not").
    public func allows(_ namespace: String) -> Bool {
        guard let ns = namespaces else { return true }
        var yes = false
        for p in ns {
            if p.hasPrefix("!") {
                if SignerList.glob(Array(p.dropFirst().utf8)[...], Array(namespace.utf8)[...]) { return false }
            } else if SignerList.glob(Array(p.utf8)[...], Array(namespace.utf8)[...]) {
                yes = true
            }
        }
        return yes
    }

    /// Whether any namespace is a pattern (it may match more than it names).
    public var namespacePatterns: Bool { namespaces?.contains { $0.contains(where: { "*?!".contains($0) }) } ?? false }

    /// The time from which the key no longer signs, as ms since the epoch
    /// (nil: never retired, or a form read here only as "retired": see `retired(at:)`).
    public var validBefore: Int64? { option("valid-before").flatMap(SignerList.parseTime) }

    /// Whether the key no longer signs at `ms`. A valid-before this code
    /// cannot read (a local time) counts as retired already: the edit that
    /// asks is refused rather than guessing.
    public func retired(at ms: Int64) -> Bool {
        guard let v = option("valid-before") else { return false }
        guard let t = SignerList.parseTime(v) else { return true }
        return t <= ms
    }

    /// OpenSSH's fingerprint of the key: SHA256:base64 of its blob, unpadded.
    public var fingerprint: String? {
        guard let blob = Base64.decode(key) else { return nil }
        return "SHA256:" + Base64.encode(SHA256.digest(blob), padded: false)
    }
}

/// The list, line by line: signer lines and everything else kept as written.
public enum SignerList {
    public enum Entry: Equatable, Sendable {
        case signer(SignerLine)
        case other(String)
    }

    public static func parse(_ bytes: [UInt8]) -> [Entry] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast(bytes.last == 0x0A ? 1 : 0)
            .map { l in SignerLine(l).map(Entry.signer) ?? .other(String(l)) }
    }

    public static func format(_ entries: [Entry]) -> [UInt8] {
        Array(entries.map { e -> String in
            switch e {
            case .signer(let s): return s.text + "\n"
            case .other(let o): return o + "\n"
            }
        }.joined().utf8)
    }

    public static func signers(_ entries: [Entry]) -> [SignerLine] {
        entries.compactMap { if case .signer(let s) = $0 { return s } else { return nil } }
    }

    /// The list's version: its `# nudge-signers version N` line (0 when it
    /// has none). A copy takes a changed list only when it is newer than
    /// the one it accepted, so an old list, signed once by someone retired
    /// since, cannot be put back on a copy that never saw it.
    /// -1 when the line is not a whole number from 0 to `maxVersion`.
    public static func version(_ bytes: [UInt8]) -> Int {
        for e in parse(bytes) {
            guard case .other(let o) = e, o.hasPrefix(versionPrefix) else { continue }
            guard let n = Int(String(o.dropFirst(versionPrefix.count)).trimmingSpaces), (0...maxVersion).contains(n) else { return -1 }
            return n
        }
        return 0
    }

    /// The highest version a list may have, and the most one change may raise it:
    /// one list-changer cannot put the list out of everyone's reach.
    public static let maxVersion = 1 << 40
    public static let maxVersionStep = 10_000

    /// Why a copy that accepted `accepted` would not take `offered` as a
    /// newer list, whoever signed it; nil when it would.
    public static func refusal(_ offered: [UInt8], after accepted: [UInt8]) -> String? {
        let (o, a) = (version(offered), version(accepted))
        if offered.contains(0x0D) { return "has Windows line endings (CR LF); ssh-keygen and this copy read lines ended by LF alone" }
        if o < 0 { return "has a '\(versionPrefix)N' line whose N is not a whole number from 0 to \(maxVersion)" }
        if o == a { return "has the same version (\(o)) as the list this copy accepted, and differs from it: two changes of the list made at once? A change made from here (signers add or retire) settles it for every copy" }
        if o < a { return "is not newer than the list this copy accepted (its version is \(o), the accepted one's \(a)): an old list put back?" }
        if o > a + maxVersionStep { return "raises the version from \(a) to \(o), more than \(maxVersionStep) at once" }
        // A retired key stays retired: a list that lifts a retirement this copy holds is not taken.
        let now = signers(parse(offered))
        for r in signers(parse(accepted)) {
            guard let end = r.validBefore else { continue }
            if let back = now.first(where: { $0.key == r.key && ($0.option("valid-before") == nil || ($0.validBefore.map { $0 > end } ?? false)) }) {
                return "takes back the retirement of \(back.principals.joined(separator: ",").terminalSafe)'s key \(r.fingerprint ?? r.keyType) (retired from \(time(end)) in the list accepted here): a retired key stays retired; give them a new key"
            }
        }
        return nil
    }

    /// The public key and namespace an SSH signature (SSHSIG, armour
    /// stripped) names: "SSHSIG", version 1, then SSH strings.
    public static func signatureKey(_ base64: String) -> (key: [UInt8], namespace: String)? {
        guard let b = Base64.decode(base64), b.count > 10, b.prefix(6).elementsEqual("SSHSIG".utf8) else { return nil }
        var i = 6
        func u32() -> Int? {
            guard i + 4 <= b.count else { return nil }
            defer { i += 4 }
            return Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
        }
        func string() -> [UInt8]? {
            guard let n = u32(), n <= b.count - i else { return nil }
            defer { i += n }
            return Array(b[i..<(i + n)])
        }
        guard u32() == 1, let key = string(), let ns = string() else { return nil }
        return (key, String(decoding: ns, as: UTF8.self))
    }

    /// Whether `list` plainly allows the key that made `sig` to sign as
    /// `signer` in `namespace` at `at`: a line naming the signer (no
    /// pattern, no certificate authority) with that key, its namespaces
    /// allowing it, valid at that time. false means "not plainly": the
    /// caller verifies in full.
    public static func allowsOwnSignature(_ sig: String, signer: String, namespace: String, list: [UInt8], at: Int64) -> Bool {
        guard let (key, ns) = signatureKey(sig), ns == namespace, !list.contains(0x0D) else { return false }
        return signers(parse(list)).contains { s in
            s.principals.contains(signer) && !s.principals.contains(where: { $0.contains(where: { "*?!".contains($0) }) })
                && !s.options.contains(where: { $0.lowercased() == "cert-authority" })
                && Base64.decode(s.key) == key && s.allows(namespace)
                && (s.option("valid-before") == nil || (s.validBefore.map { $0 > at } ?? false))
                && (s.option("valid-after") == nil || (s.option("valid-after").flatMap(parseTime).map { $0 <= at } ?? false))
        }
    }

    /// ssh's pattern match: `*` any run, `?` any one character.
    static func glob(_ p: ArraySlice<UInt8>, _ s: ArraySlice<UInt8>) -> Bool {
        guard let c = p.first else { return s.isEmpty }
        if c == UInt8(ascii: "*") {
            var rest = s
            while true {
                if glob(p.dropFirst(), rest) { return true }
                guard !rest.isEmpty else { return false }
                rest = rest.dropFirst()
            }
        }
        guard let d = s.first, c == UInt8(ascii: "?") || c == d else { return false }
        return glob(p.dropFirst(), s.dropFirst())
    }

    static let versionPrefix = "# nudge-signers version "

    /// The entries with their version line set to `n` (first, if there was none).
    public static func versioned(_ entries: [Entry], _ n: Int) -> [Entry] {
        var out = entries
        let line = Entry.other(versionPrefix + String(n))
        if let i = out.firstIndex(where: { if case .other(let o) = $0 { return o.hasPrefix(versionPrefix) } else { return false } }) {
            out[i] = line
        } else {
            out.insert(line, at: 0)
        }
        return out
    }

    /// The namespace a change of `tool`'s list is signed in: a list signed
    /// for one tool's folder cannot be replayed into another's.
    public static func listNamespace(_ tool: String) -> String { "nudge-\(tool)-signers" }

    /// A public key as a .pub file holds it: its type and blob, or a reason.
    public static func publicKey(_ text: String) -> (type: String, key: String)? {
        let w = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init)
        guard w.count >= 2, SignerLine.isKeyType(w[0]), let blob = Base64.decode(w[1]), blob.count <= 16 << 10 else { return nil }
        // The blob is SSH strings (a length, then bytes) end to end, the first the key's type.
        var parts: [ArraySlice<UInt8>] = []
        var i = 0
        while i < blob.count {
            guard i + 4 <= blob.count else { return nil }
            let n = Int(blob[i]) << 24 | Int(blob[i + 1]) << 16 | Int(blob[i + 2]) << 8 | Int(blob[i + 3])
            guard n <= blob.count - i - 4 else { return nil }
            parts.append(blob[(i + 4)..<(i + 4 + n)])
            i += 4 + n
        }
        guard parts.count >= 2, String(decoding: parts[0], as: UTF8.self) == w[0] else { return nil }
        // Ed25519 (plain or on a security key): a 32-byte point.
        if w[0] == "ssh-ed25519" || w[0].hasPrefix("sk-ssh-ed25519") { guard parts[1].count == 32 else { return nil } }
        return (w[0], w[1])
    }

    /// The list with `name` allowed to sign with the key, for `tool`, and
    /// to change the list unless `writerOnly`. Refused (65): a name that is
    /// not one name, a key already on the list (for this name, or signing
    /// as another).
    public static func adding(_ entries: [Entry], name: String, keyType: String, key: String, tool: String,
                              writerOnly: Bool, now: Int64) throws(ToolError) -> [Entry] {
        guard StoreSignatures.isPrincipal(name) else {
            throw ToolError(.dataError, "'\(name.terminalSafe)' cannot be a signer: a signer's name is letters, digits and . _ - @ +, at most 128, not starting with -")
        }
        if let r = signers(entries).first(where: { $0.key == key && $0.option("valid-before") != nil }) {
            throw ToolError(.dataError, "that key (\(r.fingerprint ?? keyType)) was retired\(r.validBefore.map { " from " + time($0) } ?? ""): a retired key stays retired, on every copy; make a new one (ssh-keygen -t ed25519); nothing was changed")
        }
        for s in signers(entries) where s.key == key && !s.retired(at: now) {
            if s.principals.contains(name) {
                throw ToolError(.dataError, "\(name) already signs with that key (\(s.fingerprint ?? keyType)); nothing was changed")
            }
            throw ToolError(.dataError, "that key already signs as \(s.principals.joined(separator: ",").terminalSafe): one key, one name (retire it there first); nothing was changed")
        }
        let ns = ["nudge-\(tool)"] + (writerOnly ? [] : [listNamespace(tool)])
        return entries + [.signer(SignerLine(principals: [name], options: ["namespaces=\"\(ns.joined(separator: ","))\""], keyType: keyType, key: key))]
    }

    /// The list with `name`'s keys (or the one `key` names: a fingerprint
    /// or a base64 blob) retired from `at`: what they signed before still
    /// counts. A line naming others too is split so that only `name` is
    /// retired. Refused (65): no such key not yet retired, or an edit that
    /// leaves nobody who may change the list after `at`.
    public static func retiring(_ entries: [Entry], name: String, key: String?, at: Int64, tool: String) throws(ToolError) -> [Entry] {
        var out: [Entry] = []
        var retired = 0
        let stamp = time(at)
        for e in entries {
            // A key not retired by `at` (a valid-before read here only as "retired" stays as it is).
            guard case .signer(var s) = e, s.principals.contains(name), key == nil || key == s.key || key == s.fingerprint,
                  s.option("valid-before") == nil || (s.validBefore.map { $0 > at } ?? false) else {
                out.append(e)
                continue
            }
            if s.principals.count > 1 {
                var others = s
                others.principals.removeAll { $0 == name }
                out.append(.signer(others))
                s.principals = [name]
            }
            s.set("valid-before", stamp)
            out.append(.signer(s))
            retired += 1
        }
        guard retired > 0 else {
            let has = signers(entries).contains { $0.principals.contains(name) }
            throw ToolError(.dataError, has ? "\(name.terminalSafe) has no key\(key.map { " " + $0.terminalSafe } ?? "") that signs after then; nothing was changed"
                                              : "\(name.terminalSafe) is not on the list (see the signers command); nothing was changed")
        }
        let ns = listNamespace(tool)
        // (Someone whose key has no end: a key retired later still ends.)
        guard signers(out).contains(where: { $0.allows(ns) && $0.option("valid-before") == nil && !$0.principals.contains(where: { $0.contains("*") || $0.contains("?") }) }) else {
            throw ToolError(.dataError, "that would leave nobody whose key may change the list with no end: add another signer first (signers add); nothing was changed")
        }
        return out
    }

    /// ssh-keygen's time: YYYYMMDDHHMMSSZ, in UTC.
    public static func time(_ ms: Int64) -> String {
        let t = RFC3339.format(Instant(ms: max(0, ms)), offsetSeconds: 0)  // 2026-11-30T12:00:00Z
        return String(t.prefix(19).filter { $0.isNumber }) + "Z"
    }

    /// A valid-before time: YYYYMMDD[HHMM[SS]]Z (UTC); nil for a local time or junk.
    static func parseTime(_ s: String) -> Int64? {
        guard s.hasSuffix("Z") || s.hasSuffix("z") else { return nil }
        let d = s.dropLast()
        guard [8, 12, 14].contains(d.count), d.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        let n = d.map { Int($0.asciiValue! - 48) }
        func num(_ i: Int, _ len: Int) -> Int { n[i..<(i + len)].reduce(0) { $0 * 10 + $1 } }
        let (y, m, dd) = (num(0, 4), num(4, 2), num(6, 2))
        guard (1...12).contains(m), dd >= 1, dd <= Day.daysInMonth(year: y, month: m), d.count < 12 || (num(8, 2) < 24 && num(10, 2) < 60), d.count < 14 || num(12, 2) < 60 else { return nil }
        let secs = (d.count >= 12 ? num(8, 2) * 3600 + num(10, 2) * 60 : 0) + (d.count == 14 ? num(12, 2) : 0)
        return (Int64(Day(year: y, month: m, day: dd).daysSinceEpoch) * 86_400 + Int64(secs)) * 1000
    }
}

/// RFC 4648 base64, as OpenSSH writes keys.
enum Base64 {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8], padded: Bool = true) -> String {
        var out = [UInt8]()
        var i = 0
        while i < bytes.count {
            let n = min(3, bytes.count - i)
            let v = (Int(bytes[i]) << 16) | (n > 1 ? Int(bytes[i + 1]) << 8 : 0) | (n > 2 ? Int(bytes[i + 2]) : 0)
            for k in 0...n { out.append(alphabet[(v >> (18 - 6 * k)) & 63]) }
            if padded { out += Array(repeating: UInt8(ascii: "="), count: 3 - n) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func decode(_ s: String) -> [UInt8]? {
        var out = [UInt8](), acc = 0, bits = 0
        var body = Substring(s)
        while body.hasSuffix("=") { body = body.dropLast() }
        guard s.utf8.count - body.utf8.count <= 2 else { return nil }
        for c in body.utf8 {
            guard let v = alphabet.firstIndex(of: c) else { return nil }
            acc = (acc << 6) | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8((acc >> bits) & 0xFF))
            }
        }
        return bits >= 6 ? nil : out
    }
}

/// What the `signers` command needs of a tool's store, whatever its model.
public protocol SignedFolderKeeper {
    /// The list this copy verifies with (accepting the folder's as reading does); nil: none.
    func signerList(_ sg: StoreSignatures) -> [UInt8]?
    /// Edits the accepted list, signs the change as `sg.principal` and
    /// puts it in the folder; false when the edit changes nothing.
    func changeSigners(_ sg: StoreSignatures, _ edit: ([SignerList.Entry]) throws(ToolError) -> [SignerList.Entry]) throws(ToolError) -> Bool
    /// Signs this copy's own changes made before the list (as its next change would).
    func signHistory(_ sg: StoreSignatures) throws(ToolError)
}

extension Store: SignedFolderKeeper {
    public func signHistory(_ sg: StoreSignatures) throws(ToolError) {
        try Sys.makeDirectories(dir)
        let lock = try FileLock.acquire(lockPath, timeoutMillis: options.lockTimeoutMillis, what: "the \(options.tool) data directory \(dir)")
        defer { lock.release() }
        try signOwnHistory(target(nil), sg)
    }

    public func signerList(_ sg: StoreSignatures) -> [UInt8]? {
        guard acceptedSigners(sg) != nil else { return nil }
        return (try? Sys.readPeerFile(acceptedSignersPath, from: 0, cap: 1 << 20))??.bytes
    }

    public func changeSigners(_ sg: StoreSignatures, _ edit: ([SignerList.Entry]) throws(ToolError) -> [SignerList.Entry]) throws(ToolError) -> Bool {
        try Sys.makeDirectories(dir)
        let lock = try FileLock.acquire(lockPath, timeoutMillis: options.lockTimeoutMillis, what: "the \(options.tool) data directory \(dir)")
        defer { lock.release() }
        do {
            SignatureMemo.lists.withLock { $0[dir] = nil }
            guard let accepted = signerList(sg) else {
                throw ToolError(.noInput, "\(sg.allowedSigners): no list of signers yet (signers add makes one with your key)")
            }
            // Over a list this copy would never take (older, at once with another, lifting a retirement):
            // this copy's list and the change, numbered past both. Never over one that is only
            // waiting for its signature (still syncing): that is said, and nothing changes.
            var base = SignerList.version(accepted)
            if let folder = (try? Sys.readPeerFile(sg.allowedSigners, from: 0, cap: 1 << 20)) ?? nil, folder.bytes != accepted {
                let fv = SignerList.version(folder.bytes)
                guard let why = SignerList.refusal(folder.bytes, after: accepted) else {
                    throw ToolError(.tempFail, "\(sg.allowedSigners) is a newer list this copy has not taken (its signature not synced yet, or not by a signer who may change the list); nothing was changed (to go on from the list this copy accepted instead: cp \(acceptedSignersPath) \(sg.allowedSigners))")
                }
                if fv > base && fv <= base + SignerList.maxVersionStep { base = fv }
                Store.warnOnce("\(sg.allowedSigners) \(why); it is replaced with the list this copy accepted and this change, as version \(base + 1)")
            }
            // Whether this signer may change the list at all, before what the change would do
            // (the signature, checked below, proves the key).
            let now = options.nowMillis ?? Sys.nowMillis()
            guard SignerList.signers(SignerList.parse(accepted)).contains(where: { $0.principals.contains(sg.principal) && $0.allows(listNamespace) && !$0.retired(at: now) }) else {
                throw ToolError(.noPermission, "\(sg.allowedSigners) does not let \(sg.principal) change the list (no key of theirs there for \(listNamespace)): ask one who may; nothing was changed")
            }
            let parsed = SignerList.parse(accepted)
            let edited = try edit(parsed)
            if edited == parsed { return false }
            let next = SignerList.format(SignerList.versioned(edited, min(base, SignerList.maxVersion - 1) + 1))
            let sig = try sign(next, sg, namespace: listNamespace)
            let armoured = Store.armour(sig)
            guard verify(next, armoured: armoured, principal: sg.principal, namespace: listNamespace, list: acceptedSignersPath, at: nil) else {
                throw ToolError(.noPermission, "\(sg.allowedSigners) does not let \(sg.principal) (with \(sg.signingKey ?? "this key")) change the list: ask one who may (its lines for \(listNamespace)); nothing was changed")
            }
            try Sys.writeFileAtomically(sg.allowedSigners, next, mode: 0o644)
            try Sys.writeFileAtomically(sg.allowedSigners + ".sig", armoured, mode: 0o644)
            // This copy takes it as every other will: a change signed by one who may.
            SignatureMemo.lists.withLock { $0[dir] = nil }
            guard let now = signerList(sg), now == next else {
                throw ToolError(.software, "\(sg.allowedSigners): the signed change was written but this copy did not accept it")
            }
            return true
        }
    }
}
