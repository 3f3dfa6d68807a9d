// Small pictures in text: a row of columns for a series of counts, in block
// characters or, where the locale's character set is not UTF-8, in ASCII.
// Pure: the locale is read by the caller (`Chart.unicode(env:)`).
//
// Invariants: no column is blank (a zero is a dot), so no line ends in
// spaces; a count above zero never draws as zero.

public enum Chart {
    /// Whether the locale's character set is UTF-8: LC_ALL, else LC_CTYPE,
    /// else LANG, the first one set and not empty; none is the C locale,
    /// ASCII.
    public static func unicode(env: (String) -> String?) -> Bool {
        guard let v = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap(env).first(where: { !$0.isEmpty }) else { return false }
        let l = v.lowercased()
        return l.contains("utf-8") || l.contains("utf8")
    }

    /// The width a picture is drawn in: COLUMNS when it is a positive
    /// number (as shells and `watch` set it), else the terminal's, else 80.
    /// Each picture clamps it to what it can draw in.
    public static func width(columns: String?, terminal: Int?) -> Int {
        columns.flatMap { Int($0.trimmingSpaces) }.flatMap { $0 > 0 ? $0 : nil } ?? terminal ?? 80
    }

    /// One column a value, its height against the largest, a dot for none;
    /// `:-=+*#%@` without Unicode.
    public static func columns(_ xs: [Int], unicode: Bool) -> String {
        let levels: [Character] = unicode ? Array("·▁▂▃▄▅▆▇█") : Array(".:-=+*#%@")
        let top = max(1, xs.max() ?? 1)
        return String(xs.map { v in v <= 0 ? levels[0] : levels[max(1, (v * (levels.count - 1) + top - 1) / top)] })
    }
}
