// What a peer writes: the events of a journal in a synced or shared folder
// (a device, a parent, a pool member, a spool), folded by each tool's state
// as the store folds them, then written to a snapshot and read back.
//
// The input's first byte picks the tool; the rest is NDJSON, one event a
// line, each line a batch of its own from one of three writers, stamped in
// line order (a peer can write any event with any stamp it likes; the
// checksums that guard a batch are no barrier to one).
import NudgeKit

enum FuzzPeers {
    static let actors = ["laptop", "phone", "mum"]

    static func events(_ data: UnsafeRawBufferPointer) throws(FuzzFailure) {
        guard data.count > 0 else { return }
        let rest = UnsafeRawBufferPointer(rebasing: data[1...])
        var stamped: [(Stamp, JSONObject)] = []
        try? NDJSON.forEachLine(in: rest) { (n, line, _) throws(ToolError) in
            if let o = try? JSON.parseObject(line) {
                stamped.append((Stamp(ms: FuzzTargets.now.ms - 3_600_000 + Int64(n) * 1000, actor: actors[n % actors.count]), o))
            }
            return stamped.count < 200
        }
        switch data[0] % 5 {
        case 0: try fold(TenclubState.self, stamped)
        case 1:
            // Then what `yomo list`, `next` and `due` compute from each reminder.
            let s = try fold(YomoState.self, stamped)
            for r in s.reminders.values.sorted(by: { $0.id < $1.id }) {
                _ = Yomo.occurrences(r, count: 3, zone: FuzzTargets.zone)
                _ = Yomo.comeDue(r, now: FuzzTargets.now, zone: FuzzTargets.zone)
                _ = Yomo.nextAfterDone(r, now: FuzzTargets.now, zone: FuzzTargets.zone)
            }
        case 2: try fold(RewardsState.self, stamped)
        case 3: try fold(PlayaState.self, stamped)
        default: try fold(HabitmatchState.self, stamped)
        }
    }

    /// Folds what no tombstone erases, in stamp order; the snapshot's lines
    /// read into a new state give the same lines again.
    @discardableResult
    static func fold<M: JournalModel>(_ type: M.Type, _ stamped: [(Stamp, JSONObject)]) throws(FuzzFailure) -> M {
        var s = M(full: true)
        let tombstones = Erasure.tombstones(stamped)
        for (stamp, e) in stamped where !Erasure.erased(e, at: stamp, by: tombstones, state: s) {
            s.apply(e, stamp: stamp)
        }
        let hot = s.hotSnapshot()
        let cold = s.coldSnapshot()
        var back = M(full: true)
        for (l, isHot) in hot.map({ ($0, true) }) + cold.map({ ($0, false) }) {
            do throws(ToolError) {
                if isHot { try back.restoreHot(l) } else { try back.restoreCold(l) }
            } catch { throw FuzzFailure("\(M.self): a snapshot line it wrote is refused: \(error.message): \(line(l))") }
        }
        back.finishRestore()  // as the store ends a snapshot's restore
        try same(back.hotSnapshot(), hot, "\(M.self): the snapshot read back writes other hot lines")
        try same(back.coldSnapshot(), cold, "\(M.self): the snapshot read back writes other cold lines")
        return s
    }

    static func line(_ o: JSONObject?) -> String {
        guard let o else { return "(none)" }
        var out: [UInt8] = []
        o.write(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func same(_ a: [JSONObject], _ b: [JSONObject], _ what: String) throws(FuzzFailure) {
        guard a != b else { return }
        let k = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        throw FuzzFailure("\(what): line \(k + 1) was \(line(k < b.count ? b[k] : nil)), now \(line(k < a.count ? a[k] : nil))")
    }
}
