// Records meant to reach a person. Every tool emits these same shapes, so one
// delivery script serves all five (README.md and each man page show them).

public struct NotificationAction: Equatable, Sendable {
    public var id: String
    public var label: String
    /// The exact command that performs the action.
    public var command: String
    public init(id: String, label: String, command: String) {
        self.id = id
        self.label = label
        self.command = command
    }
    public var json: JSON { .object(["id": .string(id), "label": .string(label), "command": .string(command)]) }
}

public struct NotificationRecord: Equatable, Sendable {
    public var tool: String
    public var id: String
    public var title: String
    public var body: String
    public var url: String?
    public var actions: [NotificationAction]
    public var extra: JSONObject

    public init(tool: String, id: String, title: String, body: String, url: String? = nil,
                actions: [NotificationAction] = [], extra: JSONObject = [:]) {
        self.tool = tool
        self.id = id
        self.title = title
        self.body = body
        self.url = url
        self.actions = actions
        self.extra = extra
    }

    public var record: JSONObject {
        var o: JSONObject = ["type": "notification", "tool": .string(tool), "id": .string(id),
                             "title": .string(title), "body": .string(body), "url": JSON(url),
                             "actions": .array(actions.map(\.json))]
        for f in extra.fields { o[f.key] = f.value }
        return o
    }
}

public struct SMSRecord: Equatable, Sendable {
    public var tool: String
    public var id: String
    public var to: PhoneNumber
    public var body: String
    public var extra: JSONObject

    public init(tool: String, id: String, to: PhoneNumber, body: String, extra: JSONObject = [:]) {
        self.tool = tool
        self.id = id
        self.to = to
        self.body = body
        self.extra = extra
    }

    public var record: JSONObject {
        var o: JSONObject = ["type": "sms", "tool": .string(tool), "id": .string(id), "to": .string(to.e164), "body": .string(body)]
        for f in extra.fields { o[f.key] = f.value }
        return o
    }
}

/// Short random identifiers: 12 lowercase hex digits (48 bits).
public enum IDs {
    public static func make<G: RandomNumberGenerator>(using g: inout G) -> String {
        hex(g.next() & 0xFFFF_FFFF_FFFF, digits: 12)
    }

    /// `v` in lowercase hex, zero-padded to `digits`.
    public static func hex(_ v: UInt64, digits: Int) -> String {
        var n = 1
        while n < 16 && v >> (4 * UInt64(n)) != 0 { n += 1 }
        guard digits <= 32 else { return String(repeating: "0", count: digits - n) + hex(v, digits: n) }
        let length = max(n, digits)
        // Written into a buffer on the stack: no allocation for an id.
        var buf: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &buf) { b in
            var x = v
            for i in stride(from: length - 1, through: 0, by: -1) {
                let d = UInt8(x & 15)
                b[i] = d < 10 ? 0x30 + d : 0x57 + d
                x >>= 4
            }
            return String(decoding: UnsafeRawBufferPointer(rebasing: b[0..<length]), as: UTF8.self)
        }
    }

    /// An id that is the same wherever it is made from the same `key`
    /// (FNV-1a, 48 bits): a draw's events on every device.
    public static func stable(_ key: String) -> String {
        hex(StableHash.fnv1a(key) & 0xFFFF_FFFF_FFFF, digits: 12)
    }

    /// The same of a key's UTF-8 bytes.
    public static func stable(bytes key: [UInt8]) -> String {
        hex(StableHash.fnv1a(bytes: key) & 0xFFFF_FFFF_FFFF, digits: 12)
    }
    public static func make() -> String {
        var g = SystemRandomNumberGenerator()
        return make(using: &g)
    }
}
