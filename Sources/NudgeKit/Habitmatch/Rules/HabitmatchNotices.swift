// What the pool's owner's run tells members in a host pool, where nobody
// reads anyone else's likes: two likes make a match, announced to the two
// of them only, with a pair folder of a random name; a match that ended
// (an unmatch or a block in either spool) is announced as ended; a block is
// told to the blocked member, so neither sees the other, and an unblock too.
//
// Invariants: pure over the owner's fold (every spool and every notice it
// wrote); a notice is never repeated (the fold records what was
// announced); each side of a pair is told the same folder name.

extension Habitmatch {
    /// The notices due now, each for one member, in a stable order.
    /// `newFolder` names a new match's pair folder.
    static func ownerNotices(_ s: HabitmatchState, newFolder: () -> String) -> [(to: String, event: JSONObject)] {
        var out: [(to: String, event: JSONObject)] = []
        var mutual = Set<String>()
        let swipes = s.swipes
        for (a, sw) in swipes where s.members[a] != nil {
            for (b, right) in sw where right && a < b && swipes[b]?[a] == true && s.members[b] != nil && !s.isBlocked(a, b) {
                mutual.insert(HabitmatchState.pair(a, b))
            }
        }
        for key in mutual.sorted() where s.announced[key] == nil {
            let (a, b) = split(key, "|")
            let f = newFolder()
            out.append((a, ["type": "matched", "user": .string(b), "pair": .string(f)]))
            out.append((b, ["type": "matched", "user": .string(a), "pair": .string(f)]))
        }
        for key in s.announced.keys.sorted() where !mutual.contains(key) {
            let (a, b) = split(key, "|")
            out.append((a, ["type": "ended", "user": .string(b)]))
            out.append((b, ["type": "ended", "user": .string(a)]))
        }
        for (x, blocked) in s.blocks.sorted(by: { $0.key < $1.key }) {
            for u in blocked.sorted() where !s.hiddenSent.contains(x + "|" + u) && s.members[u] != nil {
                out.append((u, ["type": "hidden", "user": .string(x)]))
            }
        }
        for h in s.hiddenSent.sorted() {
            let (x, u) = split(h, "|")
            if s.blocks[x]?.contains(u) != true { out.append((u, ["type": "shown", "user": .string(x)])) }
        }
        return out
    }

    private static func split(_ key: String, _ sep: Character) -> (String, String) {
        let parts = key.split(separator: sep, maxSplits: 1).map(String.init)
        return (parts.first ?? "", parts.count > 1 ? parts[1] : "")
    }
}
