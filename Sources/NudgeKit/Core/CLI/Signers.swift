// `TOOL signers`: who may write into a signed folder (Signing.swift), as
// this copy accepted the list; `signers add NAME KEY.pub` and `signers
// retire NAME`, each a change of the list signed by the one who makes it.
// The same command in all five tools; each tool says where its folder is
// and who this copy signs as (a `SignedPlace`).
//
// Invariants: nothing is written unless the change verifies against the
// list this copy accepted; `add` on a folder with no list makes one with
// the maker's key first (as `rewards init` in a sync folder does).

/// A tool's signed folder as the `signers` command sees it.
public struct SignedPlace {
    public var keeper: any SignedFolderKeeper
    public var folder: String
    /// Who this copy signs as.
    public var principal: String
    public var rule: StoreSignatures.Rule
    /// Where the store keeps what it accepted.
    public var state: String

    /// The folder of a store whose journals are shared (`journalFolder`).
    public init<M>(_ ctx: Context, _ st: Store<M>, principal: String? = nil, rule: StoreSignatures.Rule = .actor) throws(ToolError) {
        guard let f = st.options.journalFolder else {
            throw ToolError(.config, "signers are for a folder shared with your other devices, and none is set: give --sync-dir, or set sync_dir in \(Sys.join(ctx.configDir, "config")) (see SIGNED FOLDERS in \(ctx.spec.name)(1))")
        }
        keeper = st
        folder = f
        self.principal = principal ?? st.options.actor
        self.rule = rule
        state = st.dir
    }
}

public enum Signers {
    /// The command, for a tool whose folder `place` finds.
    public static func command(_ place: @escaping @Sendable (Context) throws(ToolError) -> SignedPlace) -> CommandSpec {
        CommandSpec("signers", summary: "Who may write into the signed sync folder: list, add or retire a signer's key",
                    subcommands: [
                        CommandSpec("add", summary: "Let NAME sign with the public key in KEY.pub (- for stdin), signed by you", usage: "NAME KEY.pub",
                                    options: [OptionSpec("writer-only", help: "NAME may write, not change the list")],
                                    operands: .words, min: 2, max: 2,
                                    details: "With no list in the folder yet, one is made first with your own key (signing_key), as you.",
                                    records: ["signer"], run: { (c) throws(ToolError) in try add(c, try place(c)) }),
                        CommandSpec("retire", summary: "Stop NAME's keys signing from now (or --at): what they signed before still counts", usage: "NAME",
                                    options: [OptionSpec("key", value: "KEY", help: "Only this key: its .pub file or SHA256: fingerprint"),
                                              OptionSpec("at", value: "TIME", help: "From this time (default now; earlier: a key that was lost)")],
                                    operands: .words, min: 1, max: 1, records: ["signer"], run: { (c) throws(ToolError) in try retire(c, try place(c)) }),
                    ], group: .admin, records: ["signer"], run: { (c) throws(ToolError) in try list(c, try place(c)) }).listed()
    }

    static func signatures(_ ctx: Context, _ p: SignedPlace) throws(ToolError) -> StoreSignatures? {
        try ctx.signatures(folder: p.folder, principal: p.principal, rule: p.rule, state: p.state)
    }

    static func list(_ ctx: Context, _ p: SignedPlace) throws(ToolError) -> ExitCode {
        guard let sg = try signatures(ctx, p), let bytes = p.keeper.signerList(sg) else {
            ctx.note("\(p.folder) is not signed: anyone who can write into it can write as anyone (\(ctx.spec.name) signers add NAME KEY.pub signs it)")
            return .ok
        }
        for s in SignerList.signers(SignerList.parse(bytes)) { emit(ctx, s) }
        return .ok
    }

    static func add(_ ctx: Context, _ p: SignedPlace) throws(ToolError) -> ExitCode {
        let name = ctx.operands[0], path = ctx.operands[1]
        let raw: [UInt8]
        do {
            raw = try Sys.readInput(path, cap: 64 << 10).bytes
        } catch where error.code == .dataError {
            throw ToolError(.dataError, "\(path) is not an SSH public key (\(error.message)); nothing was changed")
        }
        let lines = String(decoding: raw, as: UTF8.self).split(separator: "\n").filter { SignerList.publicKey(String($0)) != nil }
        guard lines.count <= 1 else {
            throw ToolError(.dataError, "\(path) holds \(lines.count) keys: give one .pub file for each (signers add NAME KEY.pub); nothing was changed")
        }
        guard let key = SignerList.publicKey(String(decoding: raw, as: UTF8.self)) else {
            throw ToolError(.dataError, "\(path) is not an SSH public key: a .pub file's line, like 'ssh-ed25519 AAAA… you@host'; nothing was changed")
        }
        guard StoreSignatures.isPrincipal(name) else {
            throw ToolError(.usage, "'\(String(name.prefix(64)).terminalSafe)\(name.count > 64 ? "…" : "")' cannot be a signer: a signer's name is letters, digits and . _ - @ +, at most 128, not starting with -")
        }
        var sg = try signatures(ctx, p)
        if sg == nil {
            guard try ctx.signingKey() != nil else {
                throw ToolError(.config, "\(p.folder) has no list of signers yet, and you have no key to start one: set signing_key in \(Sys.join(ctx.configDir, "config")) (see SIGNED FOLDERS in \(ctx.spec.name)(1)); nothing was changed")
            }
            try ctx.startSignedFolder(p.folder, principal: p.principal)
            sg = try signatures(ctx, p)
            guard let sg, p.keeper.signerList(sg) != nil else { throw ToolError(.software, "\(p.folder): the list of signers just made cannot be read") }
            // What this device wrote before counts from now, not from its next change.
            try p.keeper.signHistory(sg)
        }
        guard let sg, p.keeper.signerList(sg) != nil else {
            throw ToolError(.tempFail, "\(p.folder)/allowed_signers is not a list this copy trusts (see the warning above); nothing was changed")
        }
        let ours = SignerList.signers(SignerList.parse(p.keeper.signerList(sg) ?? [])).first { $0.key == key.key && $0.principals.contains(name) && !$0.retired(at: ctx.now.ms) }
        if let s = ours, name == p.principal {
            // The list just made holds this key already.
            emit(ctx, s)
            return .ok
        }
        _ = try p.keeper.changeSigners(sg) { (e) throws(ToolError) in
            try SignerList.adding(e, name: name, keyType: key.type, key: key.key, tool: ctx.spec.name, writerOnly: ctx.flag("writer-only"), now: ctx.now.ms)
        }
        if let s = SignerList.signers(SignerList.parse(p.keeper.signerList(sg) ?? [])).last(where: { $0.key == key.key }) {
            emit(ctx, s, text: "Added \(name) (\(s.fingerprint ?? key.type)) to \(sg.allowedSigners), signed by \(p.principal): each copy takes the change as it syncs")
        }
        return .ok
    }

    static func retire(_ ctx: Context, _ p: SignedPlace) throws(ToolError) -> ExitCode {
        let name = ctx.operands[0]
        var at = ctx.now
        if let raw = ctx.option("at") {
            guard let t = Clock.parseTime(raw, zone: ctx.zone), t.ms >= 0 else { throw ToolError(.usage, "--at must be \(Clock.timeHint), from 1970 on, not '\(raw.terminalSafe)'") }
            at = t
        }
        var key: String? = nil
        if let k = ctx.option("key") {
            if k.hasPrefix("SHA256:") {
                key = k
            } else if let got = (try? Sys.readPeerFile(k, from: 0, cap: 16 << 10)) ?? nil, let pk = SignerList.publicKey(String(decoding: got.bytes, as: UTF8.self)) {
                key = pk.key
            } else {
                throw ToolError(.usage, "--key must be a public key's .pub file or its SHA256: fingerprint (signers lists them), not '\(k.terminalSafe)'")
            }
        }
        guard let sg = try signatures(ctx, p), p.keeper.signerList(sg) != nil else {
            throw ToolError(.noInput, "\(p.folder) is not signed: there is nobody to retire")
        }
        let before = Set(SignerList.signers(SignerList.parse(p.keeper.signerList(sg) ?? [])).map(\.text))
        _ = try p.keeper.changeSigners(sg) { (e) throws(ToolError) in
            try SignerList.retiring(e, name: name, key: key, at: at.ms, tool: ctx.spec.name)
        }
        for s in SignerList.signers(SignerList.parse(p.keeper.signerList(sg) ?? [])) where !before.contains(s.text) && s.principals == [name] {
            emit(ctx, s, text: "Retired \(name)'s key \(s.fingerprint ?? s.keyType) from \(RFC3339.format(at, offsetSeconds: 0)): what it signed before still counts, nothing it signs after does")
        }
        return .ok
    }

    static func record(_ s: SignerLine, now: Int64, tool: String) -> JSONObject {
        var r: JSONObject = ["type": "signer", "name": .string(s.principals.joined(separator: ",")), "key_type": .string(s.keyType),
                             "fingerprint": s.fingerprint.map(JSON.string) ?? .null,
                             "namespaces": s.namespaces.map { .array($0.map(JSON.string)) } ?? .null,
                             "may_change_list": .bool(s.allows(SignerList.listNamespace(tool))),
                             "retired": .bool(s.retired(at: now))]
        if s.options.contains(where: { $0.lowercased() == "cert-authority" }) { r["cert_authority"] = .bool(true) }
        if let v = s.option("valid-after") { r["valid_after"] = SignerList.parseTime(v).map { .string(RFC3339.format(Instant(ms: $0), offsetSeconds: 0)) } ?? .string(v) }
        if let v = s.option("valid-before") { r["valid_before"] = s.validBefore.map { .string(RFC3339.format(Instant(ms: $0), offsetSeconds: 0)) } ?? .string(v) }
        if !s.comment.isEmpty { r["comment"] = .string(s.comment) }
        return r
    }

    static func emit(_ ctx: Context, _ s: SignerLine, text: String? = nil) {
        let r = record(s, now: ctx.now.ms, tool: ctx.spec.name)
        var what = s.allows(SignerList.listNamespace(ctx.spec.name)) ? "writes, changes the list" : "writes"
        if r["cert_authority"] != nil { what += " (a certificate authority: any certificate it signs, for any name it names)" }
        if let a = r["valid_after"]?.string { what += ", from \(a)" }
        let until = r["valid_before"]?.string.map { s.retired(at: ctx.now.ms) ? "retired \($0)" : "until \($0)" } ?? what
        // (The list is anyone's text: escaped before it reaches a terminal.)
        // (A time the list gives in a form not read here is shown as written: anyone's text, escaped.)
        ctx.out.emit(r, text: text?.terminalSafe ?? "\(s.principals.joined(separator: ",").terminalSafe)  \((s.fingerprint ?? s.keyType).terminalSafe)  \(until.terminalSafe)")
    }
}
