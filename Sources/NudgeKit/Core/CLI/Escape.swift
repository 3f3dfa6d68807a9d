// Untrusted text made safe to show on a terminal: one function, used by every
// diagnostic (Diagnostics.error) and by every text layout that interpolates a
// value a user, a peer or a file supplied (names, titles, messages, chat,
// SMS bodies and numbers, file names).
//
// Invariants: the result holds no C0 control (U+0000–U+001F, so no ESC, BEL,
// CR, LF or TAB), no DEL, no C1 control (U+0080–U+009F), no bidi override,
// embedding, isolate or mark (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F,
// U+061C) and no line or paragraph separator (U+2028, U+2029): each is shown
// as `\uXXXX` (four lowercase hex digits), so a value stays on one line and
// cannot move the cursor, retitle the window, ring the bell or reorder what
// follows it. Everything else, valid non-ASCII included (é, 日本, emoji), is
// unchanged, and a string with nothing to escape is returned as is. The
// escaping is for display only: NDJSON output keeps the exact data.

public enum Text {
    /// Whether a scalar must be shown escaped on a terminal.
    @inline(__always)
    public static func needsEscape(_ v: UInt32) -> Bool {
        switch v {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// Whether `s` is a name or short text a person typed: 1 to `max`
    /// characters, not only blanks, with no control or bidi characters.
    public static func isPlainName(_ s: String, max: Int) -> Bool {
        !isBlank(s) && s.count <= max && !s.unicodeScalars.contains { needsEscape($0.value) }
    }

    /// `s` with every control, bidi control and line separator shown as
    /// `\uXXXX`; valid text otherwise unchanged.
    public static func terminalSafe(_ s: String) -> String {
        // Fast path: only bytes below 0x20, DEL and the lead bytes of the
        // two- and three-byte sequences above (0xC2, 0xD8, 0xE2) can start one.
        var suspect = false
        for b in s.utf8 where b < 0x20 || b == 0x7F || b == 0xC2 || b == 0xD8 || b == 0xE2 {
            suspect = true
            break
        }
        if !suspect { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 16)
        let hex = Array("0123456789abcdef")
        for u in s.unicodeScalars {
            if needsEscape(u.value) {
                out += "\\u"
                for shift in stride(from: 12, through: 0, by: -4) { out.append(hex[Int((u.value >> UInt32(shift)) & 0xF)]) }
            } else {
                out.unicodeScalars.append(u)
            }
        }
        return out
    }
}

extension Text {
    /// Whether a scalar shows nothing by itself: white space of any script
    /// (NBSP, ideographic space, ...), controls, format characters (zero
    /// width space and joiners, word joiner, byte order mark, bidi marks) and
    /// the fillers that render blank (Hangul fillers, Braille blank).
    public static func isBlank(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800: return true
        default: break
        }
        if u.properties.isWhitespace { return true }
        switch u.properties.generalCategory {
        case .control, .format: return true
        default: return false
        }
    }

    /// Whether `s` has nothing to read: empty, or only blank scalars.
    public static func isBlank(_ s: String) -> Bool { s.unicodeScalars.allSatisfy(isBlank) }

    /// `s` without blank scalars at either end.
    public static func trimmingBlanks(_ s: String) -> String {
        let u = s.unicodeScalars
        guard let first = u.firstIndex(where: { !isBlank($0) }), let last = u.lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(u[first...last])
    }
}

extension String {
    /// This string made safe for a terminal (`Text.terminalSafe`).
    public var terminalSafe: String { Text.terminalSafe(self) }
}

extension Substring {
    /// This text made safe for a terminal (`Text.terminalSafe`).
    public var terminalSafe: String { Text.terminalSafe(String(self)) }
}

extension String {
    /// Padded with spaces to `n` characters, and at least one space after:
    /// a column of a text layout.
    public func padding(_ n: Int) -> String { count >= n ? self + " " : self + String(repeating: " ", count: n - count) }
}
