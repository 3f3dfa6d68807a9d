// How many terminal columns text takes, as wcwidth(3) counts them: East
// Asian wide and full-width characters (and most emoji) two, combining marks
// and zero-width characters none, the rest one. Pictures and meters cut
// their lines by this, not by characters, so a name in CJK does not wrap.

extension Text {
    /// The columns one scalar takes.
    static func columns(of u: Unicode.Scalar) -> Int {
        let v = u.value
        if v == 0x200B || v == 0x200C || v == 0x200D || v == 0xFEFF || (0xFE00...0xFE0F).contains(v) { return 0 }
        switch u.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0, 0x23F3...0x23F3,
            0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F, 0x2693...0x2693, 0x26A1...0x26A1,
            0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA,
            0x26F2...0x26F3, 0x26F5...0x26F5, 0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B,
            0x2728...0x2728, 0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
            0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
            0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F,
            0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x1F004...0x1F004, 0x1F0CF...0x1F0CF,
            0x1F18E...0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF,
            0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
        ]
        if v < 0x1100 { return 1 }
        return wide.contains { $0.contains(v) } ? 2 : 1
    }

    /// The columns `s` takes on a terminal.
    public static func columns(_ s: some StringProtocol) -> Int {
        var n = 0
        for u in s.unicodeScalars { n += columns(of: u) }
        return n
    }

    /// The longest start of `s` that takes at most `limit` columns, whole
    /// characters only.
    public static func prefix(_ s: String, columns limit: Int) -> String {
        var n = 0
        var out = ""
        for c in s {
            let w = columns(String(c))
            if n + w > limit { break }
            n += w
            out.append(c)
        }
        return out
    }

    /// `s` cut to `limit` columns, with an ellipsis where something was cut.
    public static func fitted(_ s: String, columns limit: Int) -> String {
        if columns(s) <= limit { return s }
        guard limit >= 1 else { return "" }
        return prefix(s, columns: limit - 1) + "…"
    }
}
