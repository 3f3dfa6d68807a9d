// The words of a short text a person sent (an SMS reply), as a program
// matching keywords should read them: compatibility forms folded to ASCII
// the way NFKC folds them (fullwidth ｓｔｏｐ, mathematical 𝐒𝐓𝐎𝐏, circled Ⓢ,
// ligatures; the table is CompatibilityLetters.swift), lower case, and split
// at everything that is not a letter or a digit: spaces of every kind,
// punctuation, emoji, symbols. Combining marks, joiners and variation
// selectors vanish; an apostrophe inside a word joins it ("don't" is "dont").
//
// Pure and table-driven: no Unicode database beyond the standard library's
// scalar properties.

extension Text {
    /// A scalar folded by compatibility to ASCII letters or digits, or nil
    /// when it has no such form.
    static func compatibilityFolded(_ v: UInt32) -> String? {
        if v < 0x80 { return nil }
        if let s = compatibilityStrings[v] { return s }
        var lo = 0, hi = compatibilityRuns.count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            let (start, count, target) = compatibilityRuns[mid]
            if v < start { hi = mid - 1 } else if v >= start + count { lo = mid + 1 } else {
                return String(Unicode.Scalar(target + (v - start))!)
            }
        }
        return nil
    }

    /// The words of `s`, folded and lower-cased (see above).
    public static func replyWords(_ s: String) -> [String] {
        var words: [String] = []
        var cur = ""
        func close() {
            if !cur.isEmpty { words.append(cur) }
            cur = ""
        }
        for u in s.unicodeScalars {
            let v = u.value
            if let f = compatibilityFolded(v) {
                cur += f.lowercased()
                continue
            }
            let p = u.properties
            if v < 0x80 ? (u.properties.isAlphabetic || (v >= 0x30 && v <= 0x39)) : (p.isAlphabetic || p.numericType != nil) {
                if p.generalCategory == .nonspacingMark || p.generalCategory == .enclosingMark || p.generalCategory == .spacingMark {
                    continue  // a combining mark over a letter: the letter counts
                }
                cur += String(u).lowercased()
                continue
            }
            switch p.generalCategory {
            case .nonspacingMark, .enclosingMark, .spacingMark, .format: continue  // marks, joiners, selectors
            default: break
            }
            if (v == 0x27 || v == 0x2019) && !cur.isEmpty { continue }
            close()
        }
        close()
        return words
    }
}
