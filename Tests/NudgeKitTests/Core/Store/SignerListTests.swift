import XCTest
import TestSupport
@testable import NudgeKit

/// The allowed_signers list as `signers` edits it: lines read as
/// ssh-keygen(1) reads them and written back byte for byte, base64 against
/// RFC 4648 and coreutils, the edits' refusals, and retiring as OpenSSH
/// then verifies it.
final class SignerListTests: XCTestCase {
    let ed = "AAAAC3NzaC1lZDI1NTE5AAAAIPp303cFCZRqFXHEd7wnfPhv7DVkMiLu5f2YFXfObmuK"
    let ed2 = "AAAAC3NzaC1lZDI1NTE5AAAAIAz7ZSQxszzwRvKfIg35Fl3UpD3RdIEUwtuc33vFtsaa"

    func testLinesAreReadAsSshKeygenReadsThemAndKeptAsWritten() throws {
        let text = """
        # the family's keys
        mum namespaces="nudge-rewards,nudge-rewards-signers" ssh-ed25519 \(ed) mum@laptop
        dad,papa valid-before="20261201000000Z",namespaces="nudge-rewards" ssh-ed25519 \(ed2)

        *@example.com cert-authority ssh-ed25519 \(ed)
        junk line

        """
        let entries = SignerList.parse(Array(text.utf8))
        XCTAssertEqual(SignerList.format(entries), Array(text.utf8))
        let s = SignerList.signers(entries)
        XCTAssertEqual(s.map(\.principals), [["mum"], ["dad", "papa"], ["*@example.com"]])
        XCTAssertEqual(s[0].namespaces, ["nudge-rewards", "nudge-rewards-signers"])
        XCTAssertEqual(s[0].comment, "mum@laptop")
        XCTAssertTrue(s[0].allows("nudge-rewards-signers"))
        XCTAssertFalse(s[1].allows("nudge-rewards-signers"))
        XCTAssertTrue(s[2].allows("anything"), "no namespaces: every namespace, as ssh-keygen reads it")
        XCTAssertEqual(s[1].validBefore, 1_796_083_200_000)
        XCTAssertTrue(s[1].retired(at: 1_796_083_200_000))
        XCTAssertFalse(s[1].retired(at: 1_796_083_199_999))
        XCTAssertEqual(s[2].options, ["cert-authority"])
    }

    /// Seeded lines of every shape: read and written back unchanged, and read again the same.
    func testAnyListRoundTrips() {
        var x: UInt64 = 0xC0FF_EE00_5EED_0001
        func next(_ n: Int) -> Int { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return Int(x % UInt64(n)) }
        let names = ["mum", "dad", "a.b@c", "x-1_2+3", "*", "ann,bob"]
        let options = ["", "namespaces=\"nudge-yomo\"", "namespaces=\"nudge-yomo,nudge-yomo-signers\"", "valid-before=\"20270101Z\"",
                       "valid-after=\"20260101\",namespaces=\"a,b,c\"", "cert-authority"]
        let keys = [("ssh-ed25519", ed), ("ssh-ed25519", ed2), ("ecdsa-sha2-nistp256", "AAAAE2VjZHNh"), ("sk-ssh-ed25519@openssh.com", "AAAAGnNr")]
        for _ in 0..<300 {
            var lines: [String] = []
            for _ in 0..<(1 + next(6)) {
                switch next(8) {
                case 0: lines.append("# a comment \(next(100))")
                case 1: lines.append("")
                default:
                    let k = keys[next(keys.count)]
                    let o = options[next(options.count)]
                    lines.append([names[next(names.count)], o, k.0, k.1, next(2) == 0 ? "" : "some comment"].filter { !$0.isEmpty }.joined(separator: " "))
                }
            }
            let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
            let once = SignerList.parse(bytes)
            XCTAssertEqual(SignerList.format(once), bytes, String(decoding: bytes, as: UTF8.self))
            XCTAssertEqual(SignerList.parse(SignerList.format(once)), once)
        }
    }

    func testBase64AgainstTheRFCAndCoreutils() {
        for (plain, b64) in [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")] {
            XCTAssertEqual(Base64.encode(Array(plain.utf8)), b64)
            XCTAssertEqual(Base64.decode(b64), Array(plain.utf8))
        }
        XCTAssertNil(Base64.decode("Zm9v!"))
        XCTAssertNil(Base64.decode("Z"))
        XCTAssertNil(Base64.decode("Zg==="))
        var x: UInt64 = 42
        for n in [1, 2, 3, 57, 100, 1000] {
            let bytes: [UInt8] = (0..<n).map { _ in x = x &* 6364136223846793005 &+ 1442695040888963407; return UInt8(truncatingIfNeeded: x >> 33) }
            let r = runProgram("/usr/bin/base64", ["-w", "0"], stdin: bytes)
            XCTAssertEqual(Base64.encode(bytes), r.out)
            XCTAssertEqual(Base64.decode(r.out), bytes)
        }
    }

    func testAPublicKeyMustSayWhatItIs() {
        XCTAssertEqual(SignerList.publicKey("ssh-ed25519 \(ed) me@host\n")?.key, ed)
        XCTAssertNil(SignerList.publicKey("ssh-rsa \(ed)"), "the blob says ed25519")
        XCTAssertNil(SignerList.publicKey("ssh-ed25519 notbase64!"))
        XCTAssertNil(SignerList.publicKey("root:x:0:0:root:/root:/bin/bash"))
        XCTAssertNil(SignerList.publicKey("-----BEGIN OPENSSH PRIVATE KEY-----"))
        XCTAssertNil(SignerList.publicKey(""))
    }

    func testAddingRefusesASecondNameForAKeyAndANameThatIsNotOne() throws {
        let list = SignerList.parse(Array("mum namespaces=\"nudge-yomo,nudge-yomo-signers\" ssh-ed25519 \(ed)\n".utf8))
        let added = try SignerList.adding(list, name: "dad", keyType: "ssh-ed25519", key: ed2, tool: "yomo", writerOnly: true, now: 0)
        XCTAssertEqual(SignerList.signers(added).last?.text, "dad namespaces=\"nudge-yomo\" ssh-ed25519 \(ed2)")
        for (name, key) in [("dad", ed), ("mum", ed), ("-o", ed2), ("a b", ed2), ("a,b", ed2), ("", ed2)] {
            XCTAssertThrowsError(try SignerList.adding(list, name: name, keyType: "ssh-ed25519", key: key, tool: "yomo", writerOnly: false, now: 0)) {
                XCTAssertEqual(($0 as? ToolError)?.code, .dataError, name)
            }
        }
    }

    func testRetiringSplitsASharedLineKeepsAnEarlierEndAndLeavesSomeoneWhoMayChangeTheList() throws {
        let text = """
        mum namespaces="nudge-yomo,nudge-yomo-signers" ssh-ed25519 \(ed)
        dad,papa namespaces="nudge-yomo,nudge-yomo-signers" ssh-ed25519 \(ed2)

        """
        let list = SignerList.parse(Array(text.utf8))
        let at: Int64 = 1_796_083_200_000  // 2026-12-01T00:00:00Z
        let out = try SignerList.retiring(list, name: "dad", key: nil, at: at, tool: "yomo")
        XCTAssertEqual(String(decoding: SignerList.format(out), as: UTF8.self), """
        mum namespaces="nudge-yomo,nudge-yomo-signers" ssh-ed25519 \(ed)
        papa namespaces="nudge-yomo,nudge-yomo-signers" ssh-ed25519 \(ed2)
        dad namespaces="nudge-yomo,nudge-yomo-signers",valid-before="20261201000000Z" ssh-ed25519 \(ed2)

        """)
        // Retired already by then: nothing to do; a later time does not move an earlier end.
        XCTAssertThrowsError(try SignerList.retiring(out, name: "dad", key: nil, at: at + 1000, tool: "yomo"))
        let earlier = try SignerList.retiring(out, name: "dad", key: nil, at: at - 86_400_000, tool: "yomo")
        XCTAssertEqual(SignerList.signers(earlier).last?.validBefore, at - 86_400_000)
        // By fingerprint, as ssh-keygen -l prints it.
        let fp = try XCTUnwrap(SignerList.signers(list)[0].fingerprint)
        XCTAssertEqual(SignerList.signers(try SignerList.retiring(list, name: "mum", key: fp, at: at, tool: "yomo"))[0].validBefore, at)
        XCTAssertThrowsError(try SignerList.retiring(list, name: "mum", key: "SHA256:other", at: at, tool: "yomo"))
        // The last whose key may change the list with no end stays.
        let one = SignerList.parse(Array("mum namespaces=\"nudge-yomo,nudge-yomo-signers\" ssh-ed25519 \(ed)\ndad namespaces=\"nudge-yomo\" ssh-ed25519 \(ed2)\n".utf8))
        XCTAssertThrowsError(try SignerList.retiring(one, name: "mum", key: nil, at: at, tool: "yomo")) {
            XCTAssertTrue(($0 as? ToolError)?.message.contains("would leave nobody") == true)
        }
        // Another tool's list namespace is not this one's.
        XCTAssertThrowsError(try SignerList.retiring(SignerList.parse(Array(text.utf8)), name: "mum", key: nil, at: at, tool: "playa"))
    }

    func testTimesAsOpenSSHWritesThem() {
        XCTAssertEqual(SignerList.time(1_796_083_200_000), "20261201000000Z")
        XCTAssertEqual(SignerList.parseTime("20261201000000Z"), 1_796_083_200_000)
        XCTAssertEqual(SignerList.parseTime("202612010000Z"), 1_796_083_200_000)
        XCTAssertEqual(SignerList.parseTime("20261201Z"), 1_796_083_200_000)
        for bad in ["20261201", "20261301Z", "20260230Z", "2026120124Z", "202612012460Z", "x0261201Z", "Z", "", "20261201000060Z"] {
            XCTAssertNil(SignerList.parseTime(bad), bad)
        }
        var x: UInt64 = 7
        for _ in 0..<500 {
            x = x &* 6364136223846793005 &+ 1442695040888963407
            let ms = Int64(x >> 24) % 4_102_444_800_000 / 1000 * 1000
            XCTAssertEqual(SignerList.parseTime(SignerList.time(ms)), ms)
        }
    }

    func testTheVersionLineIsReadAndRaised() {
        let plain = SignerList.parse(Array("mum ssh-ed25519 \(ed)\n".utf8))
        XCTAssertEqual(SignerList.version(SignerList.format(plain)), 0)
        let one = SignerList.versioned(plain, 1)
        XCTAssertEqual(String(decoding: SignerList.format(one), as: UTF8.self), "# nudge-signers version 1\nmum ssh-ed25519 \(ed)\n")
        XCTAssertEqual(SignerList.version(SignerList.format(SignerList.versioned(one, 7))), 7)
        XCTAssertEqual(SignerList.format(SignerList.versioned(one, 7)).split(separator: 0x0A).count, 2, "raised in place, not added")
        for junk in ["# nudge-signers version x", "# nudge-signers version -5", "# nudge-signers version 99999999999999999999999",
                     "# nudge-signers version 1099511627777", "# nudge-signers version 0x10", "# nudge-signers version \u{FF14}"] {
            XCTAssertEqual(SignerList.version(Array((junk + "\n").utf8)), -1, junk)
        }
        XCTAssertEqual(SignerList.version(Array("# nudge-signers version 1099511627776\n".utf8)), 1 << 40)
    }

    func testANewerListIsTakenOnlyOneStepAtATimeAndNeverLiftsARetirement() {
        let a = "# nudge-signers version 3\nmum ssh-ed25519 \(ed)\ndad valid-before=\"20261201000000Z\" ssh-ed25519 \(ed2)\n"
        func offered(_ s: String) -> String? { SignerList.refusal(Array(s.utf8), after: Array(a.utf8)) }
        XCTAssertNil(offered(a.replacingOccurrences(of: "version 3", with: "version 4")))
        XCTAssertNil(offered(a.replacingOccurrences(of: "version 3", with: "version 10003")))
        XCTAssertNotNil(offered(a.replacingOccurrences(of: "version 3", with: "version 10004")))
        XCTAssertNotNil(offered(a.replacingOccurrences(of: "version 3", with: "version 3") + "# changed\n"))
        XCTAssertNotNil(offered(a.replacingOccurrences(of: "version 3", with: "version 2")))
        XCTAssertNotNil(offered(a.replacingOccurrences(of: "version 3", with: "version 4").replacingOccurrences(of: "valid-before=\"20261201000000Z\" ", with: "")))
        XCTAssertNotNil(offered(a.replacingOccurrences(of: "version 3", with: "version 4").replacingOccurrences(of: "20261201000000Z", with: "20261202000000Z")))
        XCTAssertNil(offered(a.replacingOccurrences(of: "version 3", with: "version 4").replacingOccurrences(of: "20261201000000Z", with: "20261130000000Z")), "an earlier end is fine")
        XCTAssertNotNil(offered(a.replacingOccurrences(of: "version 3", with: "version 4") + "papa ssh-ed25519 \(ed2)\n"), "the same key under another name")
        XCTAssertNotNil(offered(a.replacingOccurrences(of: "version 3", with: "version 4").replacingOccurrences(of: "\n", with: "\r\n")))
    }

    func testNamespacesArePatternsAsSshReadsThem() {
        func line(_ ns: String) -> SignerLine { SignerLine(Substring("x namespaces=\"\(ns)\" ssh-ed25519 \(ed)"))! }
        XCTAssertTrue(line("nudge-yomo*").allows("nudge-yomo-signers"))
        XCTAssertTrue(line("*").allows("nudge-rewards"))
        XCTAssertFalse(line("nudge-yomo").allows("nudge-yomo-signers"))
        XCTAssertTrue(line("nudge-?omo").allows("nudge-yomo"))
        XCTAssertFalse(line("*,!nudge-yomo-signers").allows("nudge-yomo-signers"))
        XCTAssertTrue(line("*,!nudge-yomo-signers").allows("nudge-yomo"))
        XCTAssertFalse(line("!nudge-yomo").allows("nudge-yomo"))
        XCTAssertTrue(line("nudge-yomo*").namespacePatterns)
        XCTAssertFalse(line("nudge-yomo,nudge-yomo-signers").namespacePatterns)
    }

    func testAKeysBlobIsWholeStrings() {
        let blob = Base64.decode(ed)!
        XCTAssertNotNil(SignerList.publicKey("ssh-ed25519 \(Base64.encode(blob))"))
        XCTAssertNil(SignerList.publicKey("ssh-ed25519 \(Base64.encode(Array(blob.dropLast(1))))"), "cut short")
        XCTAssertNil(SignerList.publicKey("ssh-ed25519 \(Base64.encode(blob + [0]))"), "a byte more")
        XCTAssertNil(SignerList.publicKey("ssh-ed25519 \(Base64.encode(Array(blob.prefix(15)) + [0, 0, 0, 3, 1, 2, 3]))"), "not 32 bytes")
        XCTAssertNil(SignerList.publicKey("ssh-ed25519 \(Base64.encode([0xFF, 0xFF, 0xFF, 0xFF] + blob))"), "a length past the end")
    }

    /// The key in a signature ssh-keygen made is the key it signed with:
    /// a writer checks its own batch against the list by that, and falls
    /// back to a full verify on anything less plain.
    func testAWritersOwnSignatureIsCheckedByTheKeyInIt() throws {
        try require(.sshKeygen)
        let tmp = NSTemporaryDirectory() + "sig-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: tmp) }
        for k in ["a", "b"] { XCTAssertEqual(runProgram(command("ssh-keygen"), ["-q", "-t", "ed25519", "-N", "", "-f", tmp + "/" + k]).status, 0) }
        let a = try String(contentsOfFile: tmp + "/a.pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        let b = try String(contentsOfFile: tmp + "/b.pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        let r = runProgram(command("ssh-keygen"), ["-Y", "sign", "-q", "-f", tmp + "/a", "-n", "nudge-yomo"], stdin: Array("hello\n".utf8))
        XCTAssertEqual(r.status, 0, r.err)
        let sig = r.out.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let parsed = try XCTUnwrap(SignerList.signatureKey(sig))
        XCTAssertEqual(parsed.namespace, "nudge-yomo")
        XCTAssertEqual(parsed.key, Base64.decode(String(a.split(separator: " ")[1])))
        let at: Int64 = 1_796_083_200_000
        func allowed(_ list: String, signer: String = "dev", ns: String = "nudge-yomo") -> Bool {
            SignerList.allowsOwnSignature(sig, signer: signer, namespace: ns, list: Array(list.utf8), at: at)
        }
        XCTAssertTrue(allowed("dev namespaces=\"nudge-yomo\" \(a)\n"))
        XCTAssertTrue(allowed("x,dev \(a)\n"))
        XCTAssertFalse(allowed("dev namespaces=\"nudge-yomo\" \(b)\n"), "another key")
        XCTAssertFalse(allowed("other namespaces=\"nudge-yomo\" \(a)\n"), "another name")
        XCTAssertFalse(allowed("dev namespaces=\"nudge-yomo\" \(a)\n", ns: "nudge-playa"), "another namespace than signed")
        XCTAssertFalse(allowed("dev namespaces=\"nudge-playa\" \(a)\n"), "not allowed for it")
        XCTAssertFalse(allowed("dev valid-before=\"20261201000000Z\" \(a)\n"), "retired at that time")
        XCTAssertTrue(allowed("dev valid-before=\"20261201000001Z\" \(a)\n"))
        XCTAssertFalse(allowed("dev valid-after=\"20261201000001Z\" \(a)\n"), "not yet")
        XCTAssertFalse(allowed("dev valid-before=\"20261201\" \(a)\n"), "a local time: verified in full")
        XCTAssertFalse(allowed("d* \(a)\n"), "a pattern: verified in full")
        XCTAssertFalse(allowed("dev cert-authority \(a)\n"), "a certificate authority: verified in full")
        XCTAssertFalse(allowed("dev \(a)\r\n"))
        XCTAssertNil(SignerList.signatureKey("AAAA"))
        XCTAssertNil(SignerList.signatureKey(String(sig.prefix(20))))
    }
}
