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

    /// The events a copy would keep: those no later tombstone erases (the
    /// store's own rule, `Erasure`).
    var kept: [(Stamp, JSONObject)] {
        let all = batches.flatMap { b in b.events.map { (b.stamp, $0) } }
        let tombstones = Erasure.tombstones(all)
        return all.filter { !Erasure.erased($0.1, at: $0.0, by: tombstones, in: M.self) }
    }

    /// The state folded again from what is kept.
    func refold() -> M {
        var s = M(full: full)
        for (stamp, e) in kept { s.apply(e, stamp: stamp) }
        return s
    }
}

/// Snapshot lines written as the store writes them (one per line), and where
/// each lies: for models' lazy readers, which get the lines unparsed.
func snapshotLines(_ lines: [JSONObject]) -> (FileBytes, [Range<Int>]) {
    var all: [UInt8] = []
    var ranges: [Range<Int>] = []
    for line in lines {
        let start = all.count
        line.write(into: &all)
        ranges.append(start..<all.count)
        all.append(0x0A)
    }
    return (FileBytes(copying: all), ranges)
}
