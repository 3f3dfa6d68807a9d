// CSV as spreadsheets read it: one cell at a time, safe for text that
// came from another person.
//
// Invariants: a cell that holds a separator, a quote or a line break is
// quoted with its quotes doubled; a cell a spreadsheet would run as a
// formula never reaches it as one.

public enum CSV {
    /// One CSV text cell. Quoted (quotes doubled) when it holds a comma, a
    /// semicolon (the separator where the decimal mark is a comma), a quote
    /// or a line break. Text a spreadsheet would take for a formula
    /// (starting with =, +, -, @, a tab or a carriage return: an app name,
    /// a site or a child's name from untrusted data) is neutralised as OWASP
    /// advises: a single quote in front, and quoted.
    public static func cell(_ s: String) -> String {
        if let first = s.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) {
            return "\"'" + s.replacingAll("\"", "\"\"") + "\""
        }
        return s.contains(",") || s.contains(";") || s.contains("\"") || s.contains("\n") || s.contains("\r") ? "\"" + s.replacingAll("\"", "\"\"") + "\"" : s
    }
}
