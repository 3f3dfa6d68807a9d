import XCTest
@testable import NudgeKit

final class MessagesTests: XCTestCase {
    func testNotificationRecordShape() {
        let n = NotificationRecord(tool: "yomo", id: "abc", title: "Water plants", body: "Due now",
                                   actions: [NotificationAction(id: "snooze", label: "Snooze 15 min", command: "yomo snooze abc 15")])
        XCTAssertEqual(n.record.serialized,
                       #"{"type":"notification","tool":"yomo","id":"abc","title":"Water plants","body":"Due now","url":null,"actions":[{"id":"snooze","label":"Snooze 15 min","command":"yomo snooze abc 15"}]}"#)
    }

    func testSMSRecordShape() throws {
        let s = SMSRecord(tool: "tenclub", id: "m1", to: try PhoneNumber.parseUS("415-555-0132"), body: "Hi")
        XCTAssertEqual(s.record.serialized, #"{"type":"sms","tool":"tenclub","id":"m1","to":"+14155550132","body":"Hi"}"#)
    }

    func testIDsAreTwelveHexDigitsAndSeedable() {
        var a = SeededRandom(seed: 1), b = SeededRandom(seed: 1)
        XCTAssertEqual(IDs.make(using: &a), IDs.make(using: &b))
        var seen = Set<String>()
        for _ in 0..<10000 {
            let id = IDs.make()
            XCTAssertEqual(id.count, 12)
            XCTAssertTrue(id.allSatisfy { $0.isHexDigit && !$0.isUppercase })
            seen.insert(id)
        }
        XCTAssertEqual(seen.count, 10000)
    }
}

final class ConfigTests: XCTestCase {
    func testKeyValueCommentsAndContinuations() throws {
        let c = try Config.parse("# c\n\nsms_command = curl -u a \\\n  --data x\nother=1\n", path: "cfg", known: ["sms_command", "other"])
        XCTAssertEqual(c["sms_command"], "curl -u a  --data x")
        XCTAssertEqual(c["other"], "1")
    }

    func testErrorsNameTheLine() {
        XCTAssertThrowsError(try Config.parse("a = 1\nnope\n", path: "cfg", known: ["a"])) { e in
            XCTAssertEqual((e as! ToolError).message, "cfg:2: expected 'key = value'")
            XCTAssertEqual((e as! ToolError).code, .config)
        }
        XCTAssertThrowsError(try Config.parse("b = 1\n", path: "cfg", known: ["a"])) { e in
            XCTAssertEqual((e as! ToolError).message, "cfg:1: unknown setting 'b' (known: a, sync_dir, signing_key)")
        }
        XCTAssertThrowsError(try Config.parse("a = 1 \\", path: "cfg", known: ["a"]))
    }
}
