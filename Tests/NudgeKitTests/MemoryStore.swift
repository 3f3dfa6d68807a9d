@testable import NudgeKit

/// A store in memory for property tests: commands run as transactions on the
/// current state, every batch is kept with its stamp, and the whole history
/// can be folded again the way the store folds it (in stamp order, skipping
/// what a later tombstone erases), to check that the two agree.
struct MemoryStore<M: JournalModel> {
    var state: M
    var batches: [(stamp: Stamp, events: [JSONObject])] = []
    private var clock: Int64 = 0
    let full: Bool

    init(full: Bool = true) {
        self.full = full
        state = M(full: full)
    }

    /// One command's batch, stamped after every earlier one.
    @discardableResult
    mutating func write<T>(at ms: Int64, _ body: (inout Transaction<M>) -> T) -> T {
        clock = max(clock + 1, ms)
        var tx = Transaction<M>(state: state, stamp: Stamp(ms: clock, actor: "sim"))
        let r = body(&tx)
        state = tx.state
        if !tx.events.isEmpty { batches.append((tx.stamp, tx.events)) }
        return r
    }

    /// The events a copy would keep: those no later tombstone erases.
    var kept: [(Stamp, JSONObject)] {
        var tombstones: [(Stamp, JSONObject)] = []
        for b in batches { for e in b.events where e["type"]?.string == "erase" { tombstones.append((b.stamp, e)) } }
        var out: [(Stamp, JSONObject)] = []
        for b in batches {
            for e in b.events {
                if e["type"]?.string != "erase", tombstones.contains(where: { $0.0 > b.stamp && M.erases($0.1, e) }) { continue }
                out.append((b.stamp, e))
            }
        }
        return out
    }

    /// The state folded again from what is kept.
    func refold() -> M {
        var s = M(full: full)
        for (stamp, e) in kept { s.apply(e, stamp: stamp) }
        return s
    }
}
