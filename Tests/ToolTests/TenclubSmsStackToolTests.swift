import XCTest
import TestSupport
import NudgeKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// tenclub's texts through real SMS stacks, offline (#42): the sending
/// lines and the reply script exactly as README.md and the man page give
/// them, run by the real programs.
///
/// A GSM modem: gammu's dummy phone (`model = dummy`, a folder standing
/// for the modem's storage) under the real gammu-smsd with its `files`
/// service. The README's `sms_command` (gammu-smsd-inject) puts each text
/// in the daemon's outbox, where it is read back in gammu's own format
/// (an SMS backup file: one `[SMSBackupNNN]` section per part, the text
/// as hex UTF-16); the daemon sends it through the phone and moves it to
/// its sent folder. A reply is a message put in the phone's inbox folder
/// (written by `gammu savesms` to a second dummy phone, then renamed into
/// this one's, as a network would deliver it whole): the daemon reads it,
/// writes `IN<date>_<time>_<serial>_<sender>_<part>.txt` to its inbox and
/// runs the README's RunOnReceive script with SMS_1_NUMBER, SMS_1_TEXT,
/// DECODED_1_TEXT… in its environment.
///
/// Twilio: the README's curl line against a local stand-in for Twilio's
/// REST API (TestSupport's `TwilioStandIn`), only `https://api.twilio.com`
/// replaced by its address.
final class TenclubSmsStackToolTests: ToolTestCase {
    let now = "2026-11-22T09:00:00-05:00"
    let buddy = "+14155550132"
    var home: String { tmp + "/home" }
    /// The running gammu-smsd, ended in tearDown if a test did not.
    var daemon: Launched?
    var twilio: TwilioStandIn?

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["HOME"] = home
        e["TENCLUB_NOW"] = now
        return e
    }

    override func setUp() {
        super.setUp()
        for d in [home + "/.config/tenclub", home + "/bin"] {
            XCTAssertNoThrow(try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true))
        }
    }

    override func tearDown() {
        stopDaemon()
        twilio?.stop()
        twilio = nil
        super.tearDown()
    }

    /// tenclub, ended if it runs past 30 s (a failure, not a hang).
    @discardableResult
    func tc(_ args: String..., stdin: String? = nil, env: [String: String] = [:], file: StaticString = #filePath, line: UInt = #line) -> RunResult {
        let o = runLimited("tenclub", args, stdin: stdin, env: env, timeout: 30)
        XCTAssertFalse(o.timedOut, "tenclub \(args.joined(separator: " ")) ran past 30 s", file: file, line: line)
        return o.result
    }

    func buddyState(env: [String: String] = [:]) -> String? { tc("buddy", env: env).records.first?["state"] as? String }

    /// Polls `condition` every 0.1 s for up to `timeout` seconds.
    func waitFor(_ timeout: Double = 30, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(100_000)
        }
        return condition()
    }

    /// The configuration file with `lines` in it, as a user pastes them.
    func configure(_ lines: [String]) {
        _ = write("home/.config/tenclub/config", lines.joined(separator: "\n") + "\n")
    }

    // MARK: The documents

    static func document(_ name: String) throws -> String {
        try String(contentsOfFile: ToolTestCase.packageRoot + "/" + name, encoding: .utf8)
    }

    /// A roff page's text as its reader sees it in a literal display: `\e` is a backslash.
    static func unroff(_ s: String) -> String { s.replacingOccurrences(of: "\\e", with: "\\") }

    /// The lines of the setting `sms_command = PROGRAM …` in `text`: its
    /// first line and those its trailing backslashes continue, as a user
    /// pastes them into the configuration file. A choice shown commented
    /// out (`# sms_command = …`) is given uncommented.
    static func setting(_ text: String, program: String) -> [String] {
        let lines = text.components(separatedBy: "\n")
        guard let i = lines.firstIndex(where: { $0.hasPrefix("sms_command = \(program) ") || $0.hasPrefix("# sms_command = \(program) ") })
        else { return [] }
        let commented = lines[i].hasPrefix("# ")
        var out: [String] = []
        for l in lines[i...] {
            out.append(commented && l.hasPrefix("# ") ? String(l.dropFirst(2)) : l)
            if !l.hasSuffix("\\") { break }
        }
        return out
    }

    /// The RunOnReceive script in `text`: from `#!/bin/sh` to the end of
    /// its block (a Markdown fence or `.Ed`), the one that runs
    /// `tenclub sms receive`.
    static func receiveScript(_ text: String) -> String? {
        let lines = text.components(separatedBy: "\n")
        for (i, l) in lines.enumerated() where l == "#!/bin/sh" {
            let body = lines[i...].prefix { $0 != "```" && $0 != ".Ed" }
            let script = body.joined(separator: "\n") + "\n"
            if script.contains("tenclub sms receive") { return script }
        }
        return nil
    }

    /// Continued lines as one, spaces folded: what the shell is given.
    static func joined(_ lines: [String]) -> String {
        lines.map { $0.hasSuffix("\\") ? String($0.dropLast()) : $0 }.joined(separator: " ")
            .split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// README.md and the man page give the same sending lines and the same
    /// reply script, so what is tested from one is what the other says.
    func testTheManPageGivesTheReadmesLines() throws {
        let readme = try Self.document("README.md"), man = Self.unroff(try Self.document("man/tenclub.1"))
        for program in ["gammu-smsd-inject", "curl"] {
            let r = Self.setting(readme, program: program), m = Self.setting(man, program: program)
            XCTAssertFalse(r.isEmpty, "README.md has no sms_command = \(program) line")
            XCTAssertEqual(Self.joined(r), Self.joined(m), "man/tenclub.1's \(program) line")
        }
        let r = try XCTUnwrap(Self.receiveScript(readme)), m = try XCTUnwrap(Self.receiveScript(man))
        XCTAssertEqual(Self.joined(r.components(separatedBy: "\n")), Self.joined(m.components(separatedBy: "\n")))
        XCTAssertFalse(readme.contains("gammu sendsms TEXT"), "gammu sendsms cannot open a modem gammu-smsd holds")
    }

    // MARK: gammu

    /// gammu-smsd's folders and configuration, its dummy phone, and a
    /// second dummy phone where incoming messages are written.
    struct Gammu {
        var root: String
        var phone: String { root + "/phone" }
        var staging: String { root + "/staging" }
        var inbox: String { root + "/inbox" }
        var outbox: String { root + "/outbox" }
        var sent: String { root + "/sent" }
        var errors: String { root + "/error" }
        var log: String { root + "/smsd.log" }
    }

    /// ~/.config/gammu-smsdrc (the file the README's line names) for the
    /// dummy phone and the files service, with `RunOnReceive` when given;
    /// the daemon's timers at 1 s so that a test takes seconds.
    func makeGammu(runOnReceive script: String? = nil) throws -> Gammu {
        let g = Gammu(root: tmp + "/gammu")
        for d in [g.phone, g.staging, g.inbox, g.outbox, g.sent, g.errors] {
            try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        }
        _ = write("home/.config/gammu-smsdrc", """
            [gammu]
            model = dummy
            connection = none
            device = \(g.phone)

            [smsd]
            service = files
            inboxpath = \(g.inbox)/
            outboxpath = \(g.outbox)/
            sentsmspath = \(g.sent)/
            errorsmspath = \(g.errors)/
            logfile = \(g.log)
            \(script.map { "RunOnReceive = \($0)" } ?? "")
            CommTimeout = 1
            ReceiveFrequency = 1
            StatusFrequency = 0
            LoopSleep = 1

            """)
        _ = write("gammu/staging.rc", "[gammu]\nmodel = dummy\nconnection = none\ndevice = \(g.staging)\n")
        return g
    }

    /// The README's gammu sending line in the configuration file.
    func configureGammuLine() throws {
        let line = Self.setting(try Self.document("README.md"), program: "gammu-smsd-inject")
        XCTAssertEqual(line.count, 1)
        configure(line)
    }

    /// A text from `sender` arrives at the phone: gammu writes it (in as
    /// many parts as it needs) to the staging phone's inbox folder, and
    /// each part is renamed into the phone's, which the daemon reads.
    func arrive(_ g: Gammu, _ text: String, from sender: String? = nil) throws {
        let r = runProgram(command("gammu"), ["-c", g.root + "/staging.rc", "savesms", "TEXT", "-folder", "1", "-unread",
                                              "-sender", sender ?? buddy, "-autolen", "1000", "-textutf8", text], timeout: 30)
        XCTAssertEqual(r.status, 0, "gammu savesms: \(r.summary)\n\(r.out)\(r.err)")
        let inboxFolder = g.phone + "/sms/1"
        try FileManager.default.createDirectory(atPath: inboxFolder, withIntermediateDirectories: true)
        for part in names(in: g.staging + "/sms/1").sorted(by: { Int($0) ?? 0 < Int($1) ?? 0 }) {
            let free = (1...1000).first { !FileManager.default.fileExists(atPath: inboxFolder + "/\($0)") }!
            XCTAssertEqual(rename(g.staging + "/sms/1/" + part, inboxFolder + "/\(free)"), 0)
        }
    }

    /// Starts gammu-smsd on the configuration, with the tools on PATH and
    /// tenclub's variables (its RunOnReceive script inherits them), in a
    /// UTF-8 locale unless `utf8` is false.
    func startDaemon(utf8: Bool = true) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: command("gammu-smsd"))
        p.arguments = ["-c", home + "/.config/gammu-smsdrc"]
        var e = baseEnvironment
        e["PATH"] = ToolTestCase.productsDirectory.path + ":/usr/local/bin:/usr/bin:/bin"
        if !utf8 { e["LANG"] = nil; e["LC_ALL"] = nil; e["LC_CTYPE"] = nil }
        p.environment = e
        p.currentDirectoryURL = URL(fileURLWithPath: tmp)
        daemon = start(p)
    }

    /// Ends the daemon as its service manager would (SIGTERM; SIGKILL if it
    /// has not ended within 10 s).
    func stopDaemon() {
        guard let d = daemon else { return }
        daemon = nil
        d.send(SIGTERM)
        let o = d.finish(timeout: 10)
        XCTAssertFalse(o.timedOut, "gammu-smsd did not end on SIGTERM")
    }

    func daemonLog(_ g: Gammu) -> String { (try? String(contentsOfFile: g.log, encoding: .utf8)) ?? "" }

    /// One part of a message in gammu's SMS backup format.
    struct Part {
        var number = ""
        var text = ""
        var udh = ""
        var coding = ""
    }

    /// The parts of a message file gammu-smsd-inject writes (OutboxFormat
    /// `detail`, Debian's default; an INI file with CR LF line ends, one
    /// `[SMSBackupNNN]` section a part): `Number = "…"`, `UDH = …` (the
    /// concatenation header: 05 00 03 reference count sequence), `Coding`,
    /// and the text as `Text00`, `Text01`… of hex UTF-16BE.
    static func parts(ofBackup text: String) -> [Part] {
        var parts: [Part] = []
        // Lines end in CR LF ("\r\n" is one Character, a newline).
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[SMSBackup") { parts.append(Part()); continue }
            guard !parts.isEmpty, !line.hasPrefix(";"), let eq = line.range(of: " = ") else { continue }
            let key = String(line[..<eq.lowerBound]), value = String(line[eq.upperBound...])
            switch key {
            case "Number": parts[parts.count - 1].number = value.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            case "UDH": parts[parts.count - 1].udh = value
            case "Coding": parts[parts.count - 1].coding = value
            case _ where key.hasPrefix("Text"): parts[parts.count - 1].text += utf16BE(hex: value)
            default: break
            }
        }
        return parts
    }

    static func utf16BE(hex: String) -> String {
        let bytes = stride(from: 0, to: hex.count - 1, by: 2).compactMap { i -> UInt8? in
            let s = hex.index(hex.startIndex, offsetBy: i)
            return UInt8(hex[s..<hex.index(s, offsetBy: 2)], radix: 16)
        }
        let units = stride(from: 0, to: bytes.count - 1, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
        return String(decoding: units, as: UTF16.self)
    }

    /// The message a backup file holds: its parts in the order of their
    /// sequence numbers (the UDH's last byte), each once (see below).
    static func message(ofBackup text: String) -> String {
        var seen = Set<String>()
        return parts(ofBackup: text).filter { seen.insert($0.udh).inserted }
            .sorted { $0.udh.suffix(2) < $1.udh.suffix(2) }.map(\.text).joined()
    }

    func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    /// The README's gammu line hands the invitation to gammu-smsd's outbox
    /// whole and word for word, silently (cron mails what a run says), and
    /// the real daemon sends it through the phone and moves it to `sent`.
    /// gammu's default, `-text` alone, cuts a text at 160 characters: the
    /// invitation is 372, three linked parts.
    func testTheGammuLinePutsTheWholeInvitationInTheDaemonsOutboxAndTheDaemonSendsIt() throws {
        try require(.gammu, .gammuSmsd)
        let g = try makeGammu()
        try configureGammuLine()
        XCTAssertEqual(tc("buddy", "set", "415-555-0132", "-q").code, 0)
        let d = tc("sms", "deliver", "-q")
        XCTAssertEqual(d.code, 0, d.err)
        XCTAssertEqual(d.out + d.err, "", "gammu-smsd-inject -l: nothing for cron to mail")
        let files = names(in: g.outbox)
        XCTAssertEqual(files.count, 1, "\(files)")
        let name = try XCTUnwrap(files.first)
        XCTAssertNotNil(name.range(of: #"^OUTC[0-9]{8}_[0-9]{6}_00_\+14155550132_sms0\.smsbackup$"#, options: .regularExpression), name)
        let backup = text(g.outbox + "/" + name)
        let parts = Self.parts(ofBackup: backup)
        XCTAssertEqual(parts.count, 3, backup)
        XCTAssertEqual(parts.map(\.number), [buddy, buddy, buddy])
        XCTAssertEqual(parts.map(\.coding), Array(repeating: "Default_No_Compression", count: 3), "GSM 7-bit: the text is plain")
        XCTAssertEqual(Set(parts.map { String($0.udh.prefix(6)) + String($0.udh.dropFirst(8).prefix(2)) }), ["05000303"],
                       "a concatenation header naming three parts: \(parts.map(\.udh))")
        XCTAssertEqual(Self.message(ofBackup: backup), Tenclub.invitationText)
        let log = tc("sms", "log").records
        XCTAssertEqual(log.first?["body"] as? String, Tenclub.invitationText)
        XCTAssertEqual(log.first?["outcome"] as? String, "sent")
        XCTAssertEqual(tc("sms", "outbox").out, "")
        // Nothing twice.
        XCTAssertEqual(tc("sms", "deliver", "-q").out, "")
        XCTAssertEqual(names(in: g.outbox), files)

        startDaemon()
        XCTAssertTrue(waitFor { names(in: g.outbox).isEmpty && names(in: g.sent) == files },
                      "the daemon did not send it: outbox \(names(in: g.outbox)), sent \(names(in: g.sent))\n\(daemonLog(g))")
        stopDaemon()
        // As it sends each part the daemon records the part's message
        // reference in the file (gammu 1.42 writes it over the file's head,
        // the first section again each time): the message is all there still.
        let sent = Set(text(g.sent + "/" + name).split(whereSeparator: \.isNewline))
        XCTAssertTrue(Set(backup.split(whereSeparator: \.isNewline)).isSubset(of: sent), text(g.sent + "/" + name))
        XCTAssertEqual(names(in: g.errors), [])
        XCTAssertTrue(daemonLog(g).contains("Transmitted \(name)"), daemonLog(g))
    }

    /// The whole loop with the README's RunOnReceive script and gammu-smsd
    /// running it: the invitation goes out, "Yes 👍" comes back and makes
    /// the buddy accepted, the welcome goes out, and a reply too long for
    /// one SMS, whose STOP is its last word in the second part, makes them
    /// stopped (SMS_1_TEXT is only the first part: the script reads
    /// DECODED_1_TEXT, the whole).
    func testRepliesThroughGammuSmsdsRunOnReceiveScript() throws {
        try require(.gammu, .gammuSmsd, .jq)
        let script = try XCTUnwrap(Self.receiveScript(try Self.document("README.md")))
        let hook = write("home/bin/tenclub-sms-received", script)
        chmodPath(hook, 0o755)
        let g = try makeGammu(runOnReceive: hook)
        try configureGammuLine()
        XCTAssertEqual(tc("buddy", "set", "415-555-0132", "-q").code, 0)
        XCTAssertEqual(tc("sms", "deliver", "-q").code, 0)
        let invitation = names(in: g.outbox)
        XCTAssertEqual(invitation.count, 1)
        try arrive(g, "Yes 👍")
        startDaemon()
        XCTAssertTrue(waitFor { buddyState() == "accepted" }, "state \(buddyState() ?? "none")\n\(daemonLog(g))")
        let inbox = names(in: g.inbox)
        XCTAssertEqual(inbox.count, 1)
        let first = try XCTUnwrap(inbox.first)
        XCTAssertNotNil(first.range(of: #"^IN[0-9]{8}_[0-9]{6}_00_\+14155550132_00\.txt$"#, options: .regularExpression), first)
        XCTAssertEqual(text(g.inbox + "/" + first), "Yes 👍", "InboxFormat standard: the text in the locale's charset")
        XCTAssertTrue(waitFor { names(in: g.sent) == invitation }, "the invitation did not leave the outbox")

        // gammu-smsd-inject names a file by the second and makes it unique
        // in the outbox only: in the second the invitation was named, the
        // welcome would get its name, and replace it in `sent`.
        sleep(1)
        XCTAssertEqual(tc("sms", "deliver", "-q").code, 0)
        XCTAssertTrue(waitFor { names(in: g.sent).count == 2 }, "the welcome did not leave the outbox: \(names(in: g.outbox)) \(names(in: g.sent))\n\(daemonLog(g))")
        let welcome = try XCTUnwrap(names(in: g.sent).first { !invitation.contains($0) })
        XCTAssertEqual(Self.message(ofBackup: text(g.sent + "/" + welcome)), Tenclub.welcomeText)

        let long = "Sorry, I am really busy these weeks and I do not think I can be a good accountability buddy for you right now, so please do not send me these texts anymore. STOP"
        try arrive(g, long)
        XCTAssertTrue(waitFor { buddyState() == "stopped" }, "state \(buddyState() ?? "none")\n\(daemonLog(g))")
        stopDaemon()
        let parts = names(in: g.inbox).filter { $0 != first }
        XCTAssertEqual(parts.count, 2, "\(parts)")
        XCTAssertEqual(parts.map { $0.suffix(7) }, ["_00.txt", "_01.txt"])
        XCTAssertEqual(parts.map { text(g.inbox + "/" + $0) }.joined(), long)
        XCTAssertFalse(text(g.inbox + "/" + parts[0]).contains("STOP"), "the first part alone does not say stop")
        XCTAssertEqual(tc("sms", "outbox").out, "")
    }

    /// Why the README says "with a UTF-8 locale": gammu-smsd in the C
    /// locale hands RunOnReceive `????` for ｓｔｏｐ, and the stop is lost
    /// (a HELP after it, in ASCII, is read: its answer is queued once the
    /// script has run for both); in C.UTF-8 the same text stops the buddy.
    func testTheDaemonNeedsAUTF8LocaleForRepliesBeyondASCII() throws {
        try require(.gammu, .gammuSmsd, .jq)
        let hook = write("home/bin/tenclub-sms-received", try XCTUnwrap(Self.receiveScript(try Self.document("README.md"))))
        chmodPath(hook, 0o755)
        let g = try makeGammu(runOnReceive: hook)
        XCTAssertEqual(tc("buddy", "set", "415-555-0132", "-q").code, 0)
        XCTAssertEqual(tc("sms", "receive", "-q", stdin: #"{"from":"+14155550132","body":"YES"}"# + "\n").code, 0)
        try arrive(g, "ｓｔｏｐ")
        try arrive(g, "HELP")
        startDaemon(utf8: false)
        XCTAssertTrue(waitFor { tc("sms", "outbox").records.contains { $0["body"] as? String == Tenclub.helpText } },
                      "no answer to HELP: \(names(in: g.inbox))\n\(daemonLog(g))")
        stopDaemon()
        XCTAssertEqual(names(in: g.inbox).map { text(g.inbox + "/" + $0) }, ["????", "HELP"])
        XCTAssertEqual(buddyState(), "accepted", "in the C locale the stop never reaches tenclub")
        try arrive(g, "ｓｔｏｐ")
        startDaemon()
        XCTAssertTrue(waitFor { buddyState() == "stopped" }, "state \(buddyState() ?? "none")\n\(daemonLog(g))")
        stopDaemon()
    }

    // MARK: Twilio

    let sid = "AC" + String(repeating: "0123456789abcdef", count: 2)
    let token = String(repeating: "f00dfeed", count: 4)
    let twilioFrom = "+15005550006"

    var twilioEnv: [String: String] { ["TWILIO_SID": sid, "TWILIO_TOKEN": token, "TWILIO_FROM": twilioFrom] }

    func standIn() throws -> TwilioStandIn {
        let s = try TwilioStandIn(sid: sid, token: token, from: twilioFrom)
        twilio = s
        return s
    }

    /// The curl line of `document` with only Twilio's address replaced.
    func curlLine(_ document: String, _ s: TwilioStandIn) throws -> [String] {
        var text = try Self.document(document)
        if document.hasSuffix(".1") { text = Self.unroff(text) }
        let lines = Self.setting(text, program: "curl")
        XCTAssertTrue(lines.joined().contains("\"https://api.twilio.com/2010-04-01/Accounts/$TWILIO_SID/Messages.json\""), "\(lines)")
        return lines.map { $0.replacingOccurrences(of: "https://api.twilio.com", with: s.base) }
    }

    /// The documented curl line sends the invitation as Twilio's API asks:
    /// POST to the account's Messages.json, Basic authentication, a form
    /// with From, To in E.164 and the Body word for word; Twilio's 201
    /// marks it sent. README.md's line and the man page's, each.
    func testTheTwilioLineSendsTheInvitationAsTwilioDocumentsIt() throws {
        try require(.curl)
        let s = try standIn()
        for (n, document) in ["README.md", "man/tenclub.1"].enumerated() {
            configure(try curlLine(document, s))
            let env = twilioEnv.merging(["TENCLUB_DATA_DIR": tmp + "/data-\(n)"]) { $1 }
            XCTAssertEqual(tc("buddy", "set", "415-555-0132", "-q", env: env).code, 0)
            let d = tc("sms", "deliver", "-q", env: env)
            XCTAssertEqual(d.code, 0, "\(document): \(d.err)")
            XCTAssertEqual(d.out + d.err, "")
            XCTAssertEqual(s.requests.count, n + 1, document)
            let r = try XCTUnwrap(s.requests.last)
            XCTAssertEqual(r.status, 201, "\(document): \(r)")
            XCTAssertEqual(r.method, "POST")
            XCTAssertEqual(r.path, "/2010-04-01/Accounts/\(sid)/Messages.json")
            XCTAssertEqual(r.headers["authorization"], "Basic " + Data("\(sid):\(token)".utf8).base64EncodedString())
            XCTAssertEqual(r.headers["content-type"], "application/x-www-form-urlencoded")
            XCTAssertEqual(r.fields, ["From": twilioFrom, "To": buddy, "Body": Tenclub.invitationText])
            XCTAssertEqual(tc("sms", "log", env: env).records.first?["outcome"] as? String, "sent")
            XCTAssertEqual(tc("sms", "outbox", env: env).out, "")
        }
    }

    /// A line gone wrong is Twilio's 4xx, so `curl -f` fails and the text
    /// stays queued for the next run, with curl's reason on stderr: a
    /// misspelt field (400, no Body), a wrong path (404), a wrong token (401).
    func testABrokenTwilioLineLeavesTheTextQueued() throws {
        try require(.curl)
        let s = try standIn()
        let good = try curlLine("README.md", s)
        let cases: [(String, [String], [String: String], Int)] = [
            ("Bdy=", good.map { $0.replacingOccurrences(of: "\"Body=", with: "\"Bdy=") }, [:], 400),
            ("Message.json", good.map { $0.replacingOccurrences(of: "/Messages.json", with: "/Message.json") }, [:], 404),
            ("token", good, ["TWILIO_TOKEN": String(token.reversed())], 401),
        ]
        for (n, (what, lines, extra, status)) in cases.enumerated() {
            if extra.isEmpty { XCTAssertNotEqual(lines, good, "\(what): the variant changes the line") }
            configure(lines)
            let env = twilioEnv.merging(extra) { $1 }.merging(["TENCLUB_DATA_DIR": tmp + "/data-\(n)"]) { $1 }
            XCTAssertEqual(tc("buddy", "set", "415-555-0132", "-q", env: env).code, 0)
            let d = tc("sms", "deliver", env: env)
            XCTAssertEqual(d.code, 75, "\(what): \(d.out)\(d.err)")
            XCTAssertEqual(d.records.first?["delivery"] as? String, "failed", what)
            XCTAssertEqual(d.records.first?["exit_status"] as? Int, 22, "\(what): curl -f's status for an HTTP error")
            XCTAssertTrue(d.err.contains("curl: (22)") && d.err.contains("\(status)"), "\(what): \(d.err)")
            XCTAssertEqual(s.requests.last?.status, status, what)
            let queued = tc("sms", "outbox", env: env).records
            XCTAssertEqual(queued.count, 1, what)
            XCTAssertEqual(queued.first?["body"] as? String, Tenclub.invitationText)
        }
        XCTAssertEqual(s.requests.count, cases.count)
    }

    /// The man page's poll for replies: Twilio's list of the messages to
    /// the account's number brings the buddy's YES in, and reading it again
    /// changes nothing (the message id). The number is sent URL-encoded
    /// (`-G --data-urlencode`): in a query a bare `+` reads as a space.
    func testTheManPagesTwilioPollBringsEachReplyInOnce() throws {
        try require(.curl, .jq)
        let s = try standIn()
        s.receive(from: buddy, body: "YES", sid: "SM" + String(repeating: "5", count: 32))
        let man = Self.unroff(try Self.document("man/tenclub.1")).components(separatedBy: "\n")
        let start = try XCTUnwrap(man.firstIndex { $0.hasPrefix("curl -sS ") })
        let end = try XCTUnwrap(man[start...].firstIndex { $0.contains("tenclub sms receive") })
        let poll = man[start...end].joined(separator: "\n").replacingOccurrences(of: "https://api.twilio.com", with: s.base)
        XCTAssertEqual(tc("buddy", "set", "415-555-0132", "-q").code, 0)
        for run in 1...2 {
            let o = launchShell("set -o pipefail\n" + poll, env: twilioEnv).finish(timeout: 30)
            XCTAssertFalse(o.timedOut)
            XCTAssertEqual(o.code, 0, o.err)
            XCTAssertEqual(o.out + o.err, "", "run \(run)")
            XCTAssertEqual(s.requests.count, run)
            XCTAssertEqual(s.requests.last?.method, "GET")
            XCTAssertEqual(s.requests.last?.status, 200)
            XCTAssertEqual(s.requests.last?.fields["To"], twilioFrom, "run \(run): the query's To")
            XCTAssertEqual(buddyState(), "accepted", "run \(run)")
            XCTAssertEqual(tc("sms", "outbox").records.filter { $0["body"] as? String == Tenclub.welcomeText }.count, 1, "run \(run)")
        }
    }
}
