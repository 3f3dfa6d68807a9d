// What a buddy's reply says: opt-out, opt-in, help, or nothing.
//
// Opt-out as 47 CFR 64.1200(a)(12) reads it (in force since 11 April 2025):
// a reply that uses stop, quit, end, revoke, opt out, cancel or unsubscribe
// revokes consent, and so does any other reasonable way of saying so. So a
// reply is read by its words (`Text.replyWords`: compatibility forms such as
// fullwidth ｓｔｏｐ folded as NFKC folds them, any case, punctuation, emoji
// and symbols ignored), and a keyword anywhere in a short reply counts:
// "Stop texting me", "STOP please", "opt-out", "OPTOUT", "REVOKE" (which
// carriers' default lists carry too). In a longer text only a keyword as
// its first or last word counts, so a chatty message that mentions the end
// of the week is not read as one.
//
// Invariants: opt-out wins over everything else in the same reply ("yes,
// stop" stops); YES and START are read the same way ("YES 👍", "yes
// please"); a bare "Y" is YES only on its own.

extension Tenclub {
    public enum Keyword: String, Sendable, CaseIterable {
        case yes, start, stop, help, other
    }

    /// Words that revoke consent: the rule's list and carriers' own.
    public static let stopWords: Set<String> = ["stop", "stopall", "quit", "end", "revoke", "cancel", "unsubscribe", "optout", "unsub"]
    public static let yesWords: Set<String> = ["yes"]
    public static let startWords: Set<String> = ["start", "unstop"]
    public static let helpWords: Set<String> = ["help", "info"]
    /// A reply of at most this many words is short: a keyword anywhere in it counts.
    public static let shortReplyWords = 12

    /// What a reply says (see above).
    public static func keyword(_ body: String) -> Keyword {
        let words = Text.replyWords(body)
        guard !words.isEmpty else { return .other }
        // Where a keyword may stand: anywhere in a short reply, else first or last.
        let places = words.count <= shortReplyWords ? words : [words[0], words[words.count - 1]]
        var pairs = Set<String>()
        let scan = words.count <= shortReplyWords ? Array(words.indices.dropLast()) : [0, words.count - 2].filter { $0 >= 0 }
        for i in scan { pairs.insert(words[i] + words[i + 1]) }
        if places.contains(where: stopWords.contains) || pairs.contains("optout") { return .stop }
        if words == ["y"] { return .yes }
        if places.contains(where: startWords.contains) { return .start }
        if places.contains(where: yesWords.contains) { return .yes }
        if places.contains(where: helpWords.contains) { return .help }
        return .other
    }
}
