// Durations as people type them in options ("10m", "1h30m", "2d"): one
// reader for every tool's --nag, --for and the like.

public enum Durations {
    /// "10m", "1h", "90" (minutes), "2d", "1h30m": minutes, 1 to 10080 (a week).
    public static func minutes(_ s: String) -> Int? {
        var total = 0
        var num = 0
        var digits = 0
        for c in s.lowercased() {
            if let d = c.wholeNumberValue, c.isASCII { num = num * 10 + d; digits += 1; if digits > 6 { return nil }; continue }
            guard digits > 0 else { return nil }
            switch c {
            case "m": total += num
            case "h": total += num * 60
            case "d": total += num * 1440
            default: return nil
            }
            num = 0
            digits = 0
        }
        total += num
        return (1...10080).contains(total) ? total : nil
    }
}
