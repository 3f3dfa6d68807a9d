// What `rewards enforce` decides from the state after the run's usage is
// counted: warn a child with five minutes or less left, end the reward apps
// of a child whose granted time is spent (or who has none), and tell the
// parents of a reward app used with no time granted.
//
// Invariants: one decision per child and app; a warning only while some
// time is left.

extension Rewards {
    /// What enforce does about one child, decided from the state after the
    /// run's usage is counted.
    public enum EnforceAction: Equatable, Sendable {
        /// Few minutes left: tell the child (once a day).
        case warn(child: String, leftMinutes: Int)
        /// Time is up (or none was granted): end the app's processes.
        case end(child: String, app: String, pids: [Int32])
        /// A reward app running with no time granted today: tell the parents (once a day per app).
        case unauthorized(child: String, app: String)
    }

    /// The decisions for the processes running now (child id → app → processes).
    public static func enforceActions(_ s: RewardsState, running: [String: [String: [RunningProcess]]], today: Day) -> [EnforceAction] {
        var out: [EnforceAction] = []
        for (cid, apps) in running.sorted(by: { $0.key < $1.key }) where !apps.isEmpty {
            let t = s.totals(cid, today)
            let left = Int64(t.grantedMinutes) * 60 - t.rewardSeconds
            if left <= 0 {
                for (app, ps) in apps.sorted(by: { $0.key < $1.key }) {
                    out.append(.end(child: cid, app: app, pids: ps.map(\.pid)))
                    if t.grantedMinutes == 0 { out.append(.unauthorized(child: cid, app: app)) }
                }
            } else if left <= 300 {
                out.append(.warn(child: cid, leftMinutes: Int((left + 59) / 60)))
            }
        }
        return out
    }
}
