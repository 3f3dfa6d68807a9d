// The habits to choose from, and how a habit the user types becomes one:
// a catalog habit by id or name, or an own habit `other:TEXT`.
//
// Invariants: catalog ids are stable (journals keep them); an own habit's
// id is `other:` and a slug of lower-case letters, digits and '-', at most
// 60 characters; text with no Latin letter or digit gets its slug from a
// hash of the text, so habits in other scripts do not all share one id.

extension Habitmatch {
    /// The built-in catalog: stable ids, names a person reads.
    public static let catalog: [(id: String, name: String)] = [
        ("exercise", "Exercise"), ("meditate", "Meditate"), ("read", "Read every day"), ("journal", "Keep a journal"),
        ("sleep-early", "Go to bed by 11"), ("wake-early", "Wake up early"), ("water", "Drink enough water"),
        ("walk", "Walk 10,000 steps"), ("language", "Learn a language"), ("instrument", "Practise an instrument"),
        ("vegetables", "Eat vegetables"), ("no-sugar", "No added sugar"), ("stretch", "Stretch"), ("code", "Code every day"),
        ("gratitude", "Write three gratitudes"), ("no-phone-bed", "No phone in bed"),
    ]

    /// A habit from the catalog (by id or name) or `other:TEXT`.
    public static func habit(_ raw: String) throws(ToolError) -> (id: String, name: String) {
        let t = raw.trimmingSpaces
        if let c = catalog.first(where: { $0.id == t.lowercased() || $0.name.lowercased() == t.lowercased() }) { return c }
        if t.lowercased().hasPrefix("other:") {
            let text = String(t.dropFirst(6)).trimmingSpaces
            guard !text.isEmpty, text.count <= 60, !hasControl(text) else { throw .usage("an own habit is other:TEXT, with 1 to 60 characters and no control characters") }
            var slug = ""
            for ch in text.lowercased().unicodeScalars {
                if (ch >= "a" && ch <= "z") || (ch >= "0" && ch <= "9") { slug.unicodeScalars.append(ch) } else if !slug.hasSuffix("-") { slug += "-" }
            }
            while slug.hasSuffix("-") { slug.removeLast() }
            // Text in other scripts: a slug from a hash of the words, so
            // different habits keep different ids.
            if slug.isEmpty { slug = "u-" + String(StableHash.fnv1a(text.lowercased()) & 0xFFFF_FFFF, radix: 16) }
            return ("other:" + String(slug.prefix(60)), text)
        }
        let hint = Suggest.nearest(t.lowercased(), in: catalog.map(\.id)).map { " (did you mean '\($0)'?)" } ?? ""
        throw ToolError(.usage, "unknown habit '\(t)'\(hint): see 'habitmatch catalog', or use other:TEXT")
    }
}
