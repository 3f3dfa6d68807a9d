// A day's unlock count shown as a playing card: face down at zero, the Ace
// to Ten of Clubs for 1 to 10, the Joker past the limit (busted).
// Pure values and functions; no disk, no clock.

extension Tenclub {
    /// The limit is the product: ten unlocks a day.
    public static let limit = 10

    public struct Card: Equatable, Sendable {
        /// `BACK`, `AC`, `2C` … `10C`, `JOKER`.
        public var code: String
        public var name: String
        /// The corner index printed on the card (`A`, `7`, `10`, `J`).
        public var index: String
    }

    static let rankNames = ["", "Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"]

    /// 0 = the card still face down (nothing dealt yet), 1 = Ace of Clubs,
    /// 2–10 = that card of Clubs, 11 or more = the Joker.
    public static func card(for unlocks: Int) -> Card {
        switch unlocks {
        case ..<1: return Card(code: "BACK", name: "Face down (no unlocks yet)", index: "")
        case 1: return Card(code: "AC", name: "Ace of Clubs", index: "A")
        case 2...10: return Card(code: "\(unlocks)C", name: "\(rankNames[unlocks]) of Clubs", index: "\(unlocks)")
        default: return Card(code: "JOKER", name: "Joker", index: "J")
        }
    }

    public static func isBusted(_ unlocks: Int) -> Bool { unlocks > limit }

    public static let bustedMessage = "No tenclub today! Better luck tomorrow"

    public static func message(for unlocks: Int) -> String {
        switch unlocks {
        case ..<1: return "No unlocks yet today. Ten to spend."
        case 1..<(limit - 1): return "\(limit - unlocks) unlocks left today."
        case limit - 1: return "1 unlock left today."
        case limit: return "That's ten: the 10 of Clubs. Make it the last one today."
        default: return bustedMessage
        }
    }

    /// Widget class: `ok` up to 7, `close` from 8 to 10, `busted` after.
    public static func widgetClass(_ unlocks: Int) -> String {
        unlocks > limit ? "busted" : unlocks >= limit - 2 ? "close" : "ok"
    }

    /// The status of one day, as printed by `status`, `check` and `unlock`.
    public struct Status: Equatable, Sendable {
        public var date: Day
        public var unlocks: Int
        public var limit: Int { Tenclub.limit }
        public var remaining: Int { max(0, Tenclub.limit - unlocks) }
        public var card: Card { Tenclub.card(for: unlocks) }
        public var busted: Bool { Tenclub.isBusted(unlocks) }
        public var message: String { Tenclub.message(for: unlocks) }

        public init(date: Day, unlocks: Int) {
            self.date = date
            self.unlocks = unlocks
        }

        public var record: JSONObject {
            ["type": "status", "date": .string(date.description), "unlocks": JSON(unlocks), "limit": JSON(limit),
             "remaining": JSON(remaining), "card": .string(card.code), "card_name": .string(card.name),
             "busted": .bool(busted), "message": .string(message)]
        }
    }

    // MARK: Text drawing

    /// The card drawn with box characters, 9 columns by 7 rows.
    public static func drawCard(_ unlocks: Int) -> [String] {
        let c = card(for: unlocks)
        let w = 7
        func row(_ s: String) -> String {
            let n = s.count
            return "│" + s + String(repeating: " ", count: max(0, w - n)) + "│"
        }
        func center(_ s: String) -> String {
            let n = s.count
            let left = (w - n) / 2
            return String(repeating: " ", count: left) + s + String(repeating: " ", count: w - n - left)
        }
        var rows = ["┌" + String(repeating: "─", count: w) + "┐"]
        switch c.code {
        case "BACK":
            for _ in 0..<5 { rows.append("│" + String(repeating: "░", count: w) + "│") }
        case "JOKER":
            rows += [row("J"), row(center("JOKER")), row(center("★")), row("BUSTED!"),
                     "│" + String(repeating: " ", count: w - 1) + "J│"]
        default:
            let idx = c.index
            rows += [row(idx), row("♣"), row(center(unlocks == 1 ? "♣" : "♣ ♣")), row(""),
                     "│" + String(repeating: " ", count: w - idx.count) + idx + "│"]
        }
        rows.append("└" + String(repeating: "─", count: w) + "┘")
        return rows
    }

    public static func statusText(_ s: Status, style: (String, String) -> String) -> String {
        let colour = s.busted ? "1;31" : (s.unlocks >= limit - 2 ? "33" : "32")
        var out = drawCard(s.unlocks).map { "  " + style($0, colour) }.joined(separator: "\n") + "\n"
        let countLine = "\(s.unlocks) unlock\(s.unlocks == 1 ? "" : "s") · \(s.date)"
        out += "  " + style(countLine, "1") + "\n"
        out += "  " + s.card.name + "\n"
        out += "  " + s.message + "\n"
        return out
    }
}
