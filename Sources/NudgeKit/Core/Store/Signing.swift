// Who wrote a batch, across machines: in a folder that holds an
// allowed_signers file (git's format), every batch carries an SSH signature
// made with `ssh-keygen -Y sign -n nudge-TOOL`, and every copy counts a batch
// only when `ssh-keygen -Y verify` finds it signed by a key that file allows
// for the batch's signer, at the batch's time (so a key given
// `valid-before` when someone leaves still proves what they wrote before).
//
// The message signed binds the batch's journal, stamp and bytes:
//     nudge-batch 1\njournal ACTOR\nhlc MS COUNTER\nsha256 HEX\n
// so a batch moved to another journal, changed in one byte, or copied again
// into its own journal (a stamp not past the one before it) counts for
// nothing. The commit line holds "signer" and "sig" (the armour stripped).
//
// The list itself: each copy keeps the version it accepted in its data
// directory (allowed_signers.accepted). The first one it sees is accepted on
// first use, and said; a later version is accepted only with
// allowed_signers.sig beside it, made by a key the accepted version lists
// (`TOOL signers add`, or `ssh-keygen -Y sign -n nudge-TOOL-signers
// allowed_signers`: each tool its own, so one tool's list cannot be
// replayed into another's folder). Once accepted,
// signatures stay required: removing the folder's file changes nothing.
//
// Invariants: a copy never verifies the same batch twice under the same
// list (signatures.verified holds a SHA-256 of list, message, signature and
// signer for each one that held); its own batches are verified once, when
// written, before they are appended (a key the list does not allow is
// refused, nothing written); what fails verification is never set aside
// or removed, it only counts for nothing, and is reported once.

/// A folder whose batches are signed: where its list is, and how this copy signs.
public struct StoreSignatures: Sendable, Equatable {
    /// Whom a batch's signer must be.
    public enum Rule: Sendable, Equatable {
        /// The journal's own name (a device, a pool member).
        case actor
        /// Anyone the list allows, as long as every event that names who
        /// made it ("by") names the signer (a parent on any laptop).
        case eventsBy
    }
    /// The folder's allowed_signers.
    public var allowedSigners: String
    /// The key this copy signs with: a private key file, or a public key
    /// whose private half ssh-agent holds. nil: this copy reads, and
    /// refuses to write.
    public var signingKey: String?
    /// Who this copy signs as (a principal of the list).
    public var principal: String
    public var rule: Rule

    public init(allowedSigners: String, signingKey: String?, principal: String, rule: Rule = .actor) {
        self.allowedSigners = allowedSigners
        self.signingKey = signingKey
        self.principal = principal
        self.rule = rule
    }

    /// A principal as it may appear in a commit line: what ssh-keygen reads
    /// as one name (no spaces, commas or quotes; not an option).
    public static func isPrincipal(_ s: String) -> Bool {
        guard !s.isEmpty, s.utf8.count <= 128, s.utf8.first != UInt8(ascii: "-") else { return false }
        return s.utf8.allSatisfy { c in
            (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || (c >= 0x30 && c <= 0x39)
                || c == 0x2D || c == 0x5F || c == 0x2E || c == 0x40 || c == 0x2B
        }
    }
}

/// What a process has learned of each store's signatures: the list it
/// verifies against, and the batches already verified.
enum SignatureMemo {
    static let lists = Locked([String: (path: String, digest: String)]())
    static let verified = Locked([String: (keys: Set<String>, whole: Bool)]())
    /// ssh-keygen runs spent verifying in this process, and failures per journal.
    static let spent = Locked((runs: 0, failed: [String: Int]()))
    /// Forgets it all (tests that change a list within one process).
    static func reset() {
        lists.withLock { $0 = [:] }
        verified.withLock { $0 = [:] }
        spent.withLock { $0 = (0, [:]) }
    }
}

/// What a batch of a signed folder comes to.
enum SignatureVerdict: Equatable {
    case holds, fails
    /// Not checked in this run (its budget spent): the journal is read on from it next time.
    case later
}

extension StoreSignatures {
    /// The most signatures one run checks with ssh-keygen (about 6 ms each):
    /// a new copy of a long history catches up over a few runs.
    static let verificationsPerRun = 1000
    /// The most that fail per journal in one run: a journal full of forged
    /// batches costs every reader a few checks a run, not one per batch.
    static let failuresPerJournal = 64
    /// The most that fail in one run in all the journals that never held a
    /// good batch (junk files, or a device not heard from yet).
    static let failuresInNewJournals = 16
}

extension Store {
    var acceptedSignersPath: String { Sys.join(dir, "allowed_signers.accepted") }
    var verifiedSignaturesPath: String { Sys.join(dir, "signatures.verified") }

    /// The namespace of this tool's batches: a batch signed for another tool
    /// cannot be replayed into this one.
    var signatureNamespace: String { "nudge-" + options.tool }
    /// The namespace a change of the list is signed in (SignerList.listNamespace).
    var listNamespace: String { SignerList.listNamespace(options.tool) }

    /// The message a batch's signature covers. `journal`: its path in the
    /// folder, without ".ndjson" ("laptop", "journal/ann").
    static func signedMessage(journal: String, stamp: Stamp, body: UnsafeRawBufferPointer) -> [UInt8] {
        Array("nudge-batch 1\njournal \(journal)\nhlc \(stamp.ms) \(stamp.counter)\nsha256 \(SHA256.hex(digest: SHA256.digest(body)))\n".utf8)
    }

    static func signedName(_ rel: String) -> String { rel.hasSuffix(".ndjson") ? String(rel.dropLast(7)) : rel }

    // MARK: The list

    /// The allowed_signers this copy verifies against (path and digest):
    /// the version it accepted, or the folder's when that is the first seen
    /// (said once) or signed by a signer of the accepted one. nil when there
    /// is none at all: then nothing can verify.
    func acceptedSigners(_ sg: StoreSignatures) -> (path: String, digest: String)? {
        if let m = SignatureMemo.lists.withLock({ $0[dir] }) { return m }
        let accepted = (try? Sys.readPeerFile(acceptedSignersPath, from: 0, cap: 1 << 20))??.bytes
        var offered: [UInt8]? = nil
        if let got = (try? Sys.readPeerFile(sg.allowedSigners, from: 0, cap: 1 << 20)) ?? nil {
            if got.size > got.bytes.count {
                Store.warnOnce("\(sg.allowedSigners) is larger than 1 MiB and is not read; still verifying with the list accepted before")
            } else {
                offered = got.bytes
            }
        }
        var use = accepted
        let historyPath = acceptedSignersPath + "-history"
        if let o = offered, o != accepted {
            // What was folded under another list (or none) is folded again under this one.
            defer {
                if use == o {
                    Sys.removeFile(snapshotPath)
                    dropCheckpoint()
                    warnPatterns(o)
                }
            }
            let digest = SHA256.hex(o)
            let before = ((try? Sys.readPeerFile(historyPath, from: 0, cap: 1 << 20)) ?? nil)?.bytes ?? []
            if accepted == nil {
                let keys = SignerList.signers(SignerList.parse(o)).filter { SignerList.publicKey("\($0.keyType) \($0.key)") != nil }.count
                if keys == 0 || SignerList.version(o) < 0 {
                    // Nothing in it could ever verify, or nothing could ever follow it: trusting it would leave this copy stuck with it.
                    let why = o.contains(0x0D) ? "has Windows line endings (CR LF)" : keys == 0 ? "has no line with a public key ssh-keygen can read"
                        : "has a '# nudge-signers version N' line whose N is not a whole number from 0 to \(SignerList.maxVersion)"
                    Store.warnOnce("\(sg.allowedSigners) \(why), and is not trusted; nothing counts until it is mended")
                } else if (try? keep(o, history: before)) != nil {
                    use = o
                    // This copy's own batches as they stand now are its history, which it signs with its next change
                    // (their size and SHA-256: an edit made after this, even of the same length, is not signed).
                    let own = target(nil)
                    let held = ((try? Sys.readPeerFile(Sys.join(journalDir, own), from: 0, cap: 256 << 20)) ?? nil)?.bytes ?? []
                    try? Sys.writeFileAtomically(Sys.join(dir, "signatures.cut"), Array("\(own) \(held.count) \(SHA256.hex(held))\n".utf8), mode: 0o600)
                    Store.warnOnce("\(sg.allowedSigners): trusted on first use (\(keys) signer\(keys == 1 ? "" : "s")); from now on it changes only when signed by one of them (\(options.tool) signers add)")
                }
            } else if before.split(separator: 0x0A).contains(where: { $0.elementsEqual(digest.utf8) }) {
                Store.warnOnce("\(sg.allowedSigners) is a list this copy accepted before and has replaced since (put back?); still verifying with the current one")
            } else if let a = accepted, let why = SignerList.refusal(o, after: a) {
                // (A list signed once by someone who could then, put back after a later one retired them.)
                Store.warnOnce("\(sg.allowedSigners) \(why); still verifying with the list accepted before")
            } else if let signer = listChangeSigner(o) {
                if (try? keep(o, history: before)) != nil {
                    use = o
                    Store.warnOnce("\(sg.allowedSigners): accepted the changed list, signed by \(signer)")
                }
            } else {
                Store.warnOnce("\(sg.allowedSigners) changed, but \(sg.allowedSigners).sig is not a signature of it by one of the signers accepted before (\(options.tool) signers add, or ssh-keygen -Y sign -n \(listNamespace)); still verifying with the list accepted before")
            }
        }
        guard let list = use else { return nil }
        let r = (path: acceptedSignersPath, digest: SHA256.hex(list))
        SignatureMemo.lists.withLock { $0[dir] = r }
        return r

        /// Keeps `bytes` as the accepted list, and the one it replaces in the history (never to be taken back).
        func keep(_ bytes: [UInt8], history: [UInt8]) throws(ToolError) {
            try Sys.makeDirectories(dir)
            if let a = accepted { try Sys.writeFileAtomically(historyPath, history + Array((SHA256.hex(a) + "\n").utf8), mode: 0o600) }
            try Sys.writeFileAtomically(acceptedSignersPath, bytes, mode: 0o600)
        }
        /// Who signed the changed list, if one of the accepted list's signers did (for listNamespace).
        func listChangeSigner(_ list: [UInt8]) -> String? {
            guard let got = (try? Sys.readPeerFile(sg.allowedSigners + ".sig", from: 0, cap: 64 << 10)) ?? nil, got.size == got.bytes.count else { return nil }
            let sig = got.bytes
            // A change refused once is not checked again (each check is an ssh-keygen run).
            let key = "!list " + SHA256.hex(list + sig)
            if verifiedBefore(whole: true).contains(key) { return nil }
            var signer: String? = nil
            if let found = try? Subprocess.output(["ssh-keygen", "-Y", "find-principals", "-s", "/dev/stdin", "-f", acceptedSignersPath], stdin: sig),
               found.status == 0 {
                let principals = String(decoding: found.out, as: UTF8.self).split(separator: "\n").map(String.init)
                signer = principals.first { p in
                    StoreSignatures.isPrincipal(p) && verify(list, armoured: sig, principal: p, namespace: listNamespace, list: acceptedSignersPath, at: nil)
                }
            }
            if signer == nil { rememberVerified(key) }
            return signer
        }
        /// A list line whose signers are a pattern lets its key sign as any name that matches: said.
        func warnPatterns(_ list: [UInt8]) {
            for (n, line) in list.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
                guard let first = line.split(separator: 0x20).first, first.first != UInt8(ascii: "#") else { continue }
                // (The list is anyone's text: escaped before it reaches a terminal.)
                let names = String(decoding: first, as: UTF8.self)
                if names.contains(where: { "*?!".contains($0) }) {
                    Store.warnOnce("\(sg.allowedSigners):\(n + 1): '\(String(names.prefix(64)).terminalSafe)' is a pattern: its key may sign as any name it matches")
                }
                if let s = SignerLine(Substring(String(decoding: line, as: UTF8.self))), s.namespacePatterns {
                    Store.warnOnce("\(sg.allowedSigners):\(n + 1): its namespaces are patterns: its key may sign for any namespace they match (changing this list, if they match \(listNamespace))")
                }
            }
        }
    }

    // MARK: Signing and verifying

    /// Signs `message` with this copy's key: the signature, armour stripped.
    func sign(_ message: [UInt8], _ sg: StoreSignatures, namespace: String? = nil) throws(ToolError) -> String {
        guard let key = sg.signingKey else {
            throw ToolError(.config, "\(sg.allowedSigners) asks for signed changes, and no key is set: add 'signing_key = ~/.ssh/id_ed25519' (or its .pub, with the key in ssh-agent) to the config file; nothing was written")
        }
        // (ssh-keygen reads what it is given whole: a device or a FIFO would never end.)
        var st = stat()
        guard stat(key, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, st.st_size <= 1 << 20 else {
            throw ToolError(.config, "signing_key \(key) is not a key file (a private key, or a .pub whose key is in ssh-agent); nothing was written")
        }
        let r = try Subprocess.output(["ssh-keygen", "-Y", "sign", "-q", "-f", key, "-n", namespace ?? signatureNamespace], stdin: message)
        let text = String(decoding: r.out, as: UTF8.self)
        let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        guard r.status == 0, text.hasPrefix("-----BEGIN SSH SIGNATURE-----"), !body.isEmpty else {
            throw ToolError(.config, "ssh-keygen -Y sign with \(key) failed (exit \(r.status)): is the key readable, or held by ssh-agent? nothing was written")
        }
        return body
    }

    static func armour(_ sig: String) -> [UInt8] {
        var s = "-----BEGIN SSH SIGNATURE-----\n"
        var rest = Substring(sig)
        while !rest.isEmpty {
            s += rest.prefix(70) + "\n"
            rest = rest.dropFirst(70)
        }
        return Array((s + "-----END SSH SIGNATURE-----\n").utf8)
    }

    /// Whether `armoured` is a good signature of `message` by a key `list`
    /// allows for `principal` in `namespace`, at `at` (ms; nil: now).
    func verify(_ message: [UInt8], armoured: [UInt8], principal: String, namespace: String, list: String, at: Int64?) -> Bool {
        // The signature goes through a file of this copy's own (the message is stdin).
        guard (try? Sys.makeDirectories(dir)) != nil else { return false }
        // (Not fsynced: it lives for one ssh-keygen run.)
        let tmp = Sys.join(dir, "signature.tmp-\(getpid())")
        unlink(tmp)
        let fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        let written = Sys.writeAll(fd: fd, armoured)
        close(fd)
        defer { unlink(tmp) }
        guard written else { return false }
        var argv = ["ssh-keygen", "-Y", "verify", "-f", list, "-I", principal, "-n", namespace, "-s", tmp]
        if let ms = at { argv.append("-Overify-time=" + SignerList.time(ms)) }
        return (try? Subprocess.output(argv, stdin: message))?.status == 0
    }

    /// ssh-keygen's time: YYYYMMDDHHMMSS in UTC.

    /// Whether a committed batch of a signed folder counts: signed by a key
    /// the accepted list allows for its signer at its time, the signer the
    /// one the rule asks for, and its stamp past the journal's previous one.
    /// Remembers what held.
    /// Remembers what held, and what failed (so it is not checked again).
    /// `own`: a journal of this copy's, never left for later (what it wrote
    /// itself it remembers as verified; past the failures allowed, anything
    /// else there fails unchecked). `force`: checked whatever was spent (a
    /// batch this copy is about to write).
    func signedBatchHolds(_ commit: JSONObject, body: UnsafeRawBufferPointer, journal rel: String, declared: Stamp?,
                          previous: Stamp?, events: [JSONObject], own: Bool = false, force: Bool = false,
                          _ sg: StoreSignatures) -> SignatureVerdict {
        let actor = Store.actorOf(rel)
        guard let signer = commit["signer"]?.string, StoreSignatures.isPrincipal(signer),
              let sig = commit["sig"]?.string, sig.utf8.count <= 16 << 10, let stamp = declared else { return .fails }
        if let p = previous, !(stamp > p) { return .fails }  // a copy of an earlier batch
        switch sg.rule {
        case .actor: if signer != actor { return .fails }
        case .eventsBy: if events.contains(where: { $0["by"].map { $0.string != signer } ?? false }) { return .fails }
        }
        guard let list = acceptedSigners(sg) else { return .fails }
        let message = Store.signedMessage(journal: Store.signedName(rel), stamp: stamp, body: body)
        let key = SHA256.hex(Array((list.digest + "\n" + signer + "\n" + sig + "\n").utf8) + message)
        var seen = verifiedBefore()
        if !seen.contains(key) && !seen.contains("!" + key) { seen = verifiedBefore(whole: true) }
        if seen.contains(key) { return .holds }
        if seen.contains("!" + key) { return .fails }
        // A journal that never held a good batch (junk, or a new device) shares a few failures a run with all such.
        let known = own || seen.contains("+" + rel)
        let budget = force || SignatureMemo.spent.withLock { (s) -> Bool in
            guard s.runs < StoreSignatures.verificationsPerRun, s.failed[dir + rel, default: 0] < StoreSignatures.failuresPerJournal,
                  known || s.failed[dir, default: 0] < StoreSignatures.failuresInNewJournals else { return false }
            s.runs += 1
            return true
        }
        guard budget else { return own ? .fails : .later }
        // A batch this copy is about to write, signed by ssh-keygen a moment ago: the key
        // in the signature is the one it signed with, so the list allowing that key is
        // what a verify would say, without a second ssh-keygen run. (Any doubt, as a
        // certificate or a pattern, and it is verified; every other copy verifies in full.)
        let holds = (force && SignerList.allowsOwnSignature(sig, signer: signer, namespace: signatureNamespace,
                                                             list: ((try? Sys.readPeerFile(list.path, from: 0, cap: 1 << 20)) ?? nil)?.bytes ?? [],
                                                             at: stamp.ms))
            || verify(message, armoured: Store.armour(sig), principal: signer, namespace: signatureNamespace,
                      list: list.path, at: stamp.ms)
        if !holds {
            SignatureMemo.spent.withLock {
                $0.failed[dir + rel, default: 0] += 1
                if !known { $0.failed[dir, default: 0] += 1 }
            }
        } else if !known {
            rememberVerified("+" + rel)
        }
        rememberVerified(holds ? key : "!" + key)
        return holds ? .holds : .fails
    }

    /// What this copy verified before: at first only the file's last 32 KiB
    /// (the newest thousand, where a status bar's few new batches are), the
    /// whole file once a batch is not found there (`whole`).
    func verifiedBefore(whole: Bool = false) -> Set<String> {
        if let s = SignatureMemo.verified.withLock({ $0[dir] }), whole ? s.whole : true { return s.keys }
        let size = Sys.fileIdentity(verifiedSignaturesPath).map { Int($0.size) } ?? 0
        let from = whole ? 0 : max(0, size - (32 << 10))
        var bytes = ((try? Sys.readPeerFile(verifiedSignaturesPath, from: from, cap: 64 << 20)) ?? nil)?.bytes ?? []
        if from > 0, let nl = bytes.firstIndex(of: 0x0A) { bytes.removeSubrange(0...nl) }  // (a line cut at the start)
        let s = Set(bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) })
        SignatureMemo.verified.withLock { $0[dir] = (s, from == 0) }
        return s
    }

    func rememberVerified(_ key: String) {
        _ = verifiedBefore()
        SignatureMemo.verified.withLock { _ = $0[dir, default: ([], false)].keys.insert(key) }
        guard (try? Sys.makeDirectories(dir)) != nil else { return }
        let fd = open(verifiedSignaturesPath, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return }
        _ = Sys.writeAll(fd: fd, Array((key + "\n").utf8))
        close(fd)
    }

    /// The commit line's signature fields for a batch this copy writes to
    /// journal `actor`: signed, then checked against the accepted list, so a
    /// key nobody would believe is refused before anything is written.
    func signatureFields(body: [UInt8], journal rel: String, stamp: Stamp, events: [JSONObject], _ sg: StoreSignatures) throws(ToolError) -> JSONObject {
        let message = body.withUnsafeBytes { Store.signedMessage(journal: Store.signedName(rel), stamp: stamp, body: $0) }
        let sig = try sign(message, sg)
        let c: JSONObject = ["signer": .string(sg.principal), "sig": .string(sig)]
        let holds = body.withUnsafeBytes {
            signedBatchHolds(c, body: $0, journal: rel, declared: stamp, previous: nil, events: events, own: true, force: true, sg) == .holds
        }
        guard holds else {
            throw ToolError(.noPermission, "\(sg.allowedSigners) (as this copy accepted it) does not allow \(sg.signingKey ?? "this key") to sign as \(sg.principal) for \(signatureNamespace) now; ask one of its signers to add it (\(options.tool) signers add \(sg.principal) KEY.pub); nothing was written")
        }
        return c
    }

    /// Signs this writer's own batches written before the folder asked for
    /// signatures (once per journal, under the lock): until then the other
    /// copies count none of them. A batch the rule does not let this signer
    /// sign (events by someone else) stays unsigned and counts for nothing;
    /// said.
    func signOwnHistory(_ rel: String, _ sg: StoreSignatures) throws(ToolError) {
        let marker = Sys.join(dir, "signatures.history")
        let done = (try? Sys.readPeerFile(marker, from: 0, cap: 1 << 20))??.bytes ?? []
        if done.split(separator: 0x0A).contains(where: { $0.elementsEqual(rel.utf8) }) { return }
        // Only what the journal held when this copy first accepted the list is its history:
        // a batch slipped in after that is nobody's this copy would vouch for.
        _ = acceptedSigners(sg)
        let cutText = String(decoding: ((try? Sys.readPeerFile(Sys.join(dir, "signatures.cut"), from: 0, cap: 1 << 16)) ?? nil)?.bytes ?? [], as: UTF8.self)
        let cutLine = cutText.split(separator: "\n").compactMap { l -> (size: Int, hash: Substring?)? in
            let f = l.split(separator: " ")
            return f.count >= 2 && f[0] == rel ? Int(f[1]).map { ($0, f.count > 2 ? f[2] : nil) } : nil
        }.first
        var cut = cutLine?.size ?? 0
        let path = Sys.join(journalDir, rel)
        if let got = try Sys.readPeerFile(path, from: 0, cap: Int.max), !got.bytes.isEmpty {
            // What the journal held then, or nothing: a history changed since is nobody's this copy would vouch for.
            if let h = cutLine?.hash, cut > 0, got.bytes.count < cut || SHA256.hex(Array(got.bytes[0..<cut])) != h {
                Store.warnOnce("\(path) is not what it was when this copy accepted \(sg.allowedSigners) (changed since), so its earlier changes are not signed and count for nothing in a signed folder")
                cut = 0
            }
            // The history: up to the end of the last commit line within the cut; the rest is kept as it is.
            var end = 0, start = 0
            let bytes = got.bytes
            while start < min(cut, bytes.count), let nl = bytes[start...].firstIndex(of: 0x0A), nl < cut {
                if let o = try? JSON.parseObject(bytes: Array(bytes[start..<nl])), o["type"]?.string == "commit" { end = nl + 1 }
                start = nl + 1
            }
            let actor = Store.actorOf(rel)
            var left = 0
            let (signed, _) = try Store.rewritten(Array(bytes[0..<end]), actor: actor, sign: { (body, stamp, events) throws(ToolError) -> JSONObject? in
                do throws(ToolError) {
                    return try signatureFields(body: body, journal: rel, stamp: stamp, events: events, sg)
                } catch {
                    if error.code != .noPermission { throw error }
                    left += 1
                    return nil
                }
            }, signUnsigned: true) { _, _ in true }
            let out = signed + bytes[end...]
            if out != got.bytes {
                try Sys.writeFileAtomically(path, out, mode: fileMode(for: rel))
                Sys.removeFile(snapshotPath)
                dropCheckpoint()
            }
            if left > 0 {
                Store.warnOnce("\(path): \(left) earlier batch(es) name someone other than \(sg.principal) and stay unsigned; they count for nothing in a signed folder")
            }
        }
        try Sys.writeFileAtomically(marker, done + Array((rel + "\n").utf8), mode: 0o600)
    }
}
