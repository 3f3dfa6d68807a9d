// Grants and their way to the grant command: which grants a run hands over,
// the claim it records first, the record the command reads, and how many
// failed hand-overs a grant gets. The lifecycle (claim, run, outcome) is
// `Handover` (Core/Messages/Delivery.swift).
//
// Where devices share a sync folder, only one of them hands grants over
// (`handsOver`): the one the family named (`settings set grant_device`),
// else the one that made the family. Two devices that each hand over a
// redemption the other has not seen yet could give time the balance cannot
// pay; one granting device decides each grant seeing every grant it handed
// over before. The others record redemptions, which count at once, and the
// granting device's next run hands them over.
//
// Invariants: a grant is handed over only on its own day, while its child is
// in the family, when it is neither applied nor void, has been tried fewer
// than `grantTries` times and no other run's claim on it is alive; and only
// by the granting device where the store is shared with other devices.

extension Rewards {
    /// Hand-overs of one grant that may fail (or run past the timeout)
    /// before runs stop trying it.
    public static let grantTries = 10

    /// The grants a run hands to the grant command at `now`: `today`'s, of
    /// children still in the family, not applied, void or given up on
    /// (`grantTries`), and held by no live claim; in id order.
    public static func grantsToHandOver(_ s: RewardsState, today: Day, at now: Instant) -> [RewardsState.Grant] {
        s.grants.values.filter { $0.day == today && s.children[$0.child] != nil && $0.mayHandOver(at: now) }.sorted { $0.id < $1.id }
    }

    /// `today`'s grants of children in the family that no run tries again:
    /// not applied, not void, failed `grantTries` times.
    public static func grantsGivenUp(_ s: RewardsState, today: Day) -> [RewardsState.Grant] {
        s.grants.values.filter { $0.day == today && s.children[$0.child] != nil && $0.void == nil && !$0.applied && $0.failures >= grantTries }
            .sorted { $0.id < $1.id }
    }

    /// Whether `device` hands grants over: always where no other device
    /// writes (a data directory of one's own, or a family folder, whose
    /// writers take the family's lock), else when it is the granting device.
    public static func handsOver(_ s: RewardsState, device: String, shared: Bool) -> Bool {
        !shared || s.granter == nil || s.granter == device
    }

    /// The claim on grant `id` a run records before it runs the grant
    /// command: it expires `timeout` plus the margin after `t`, the claim's
    /// own time.
    static func claimEvent(_ id: String, claim: String, at t: Instant, timeout: Int) -> JSONObject {
        ["type": "grant_claimed", "id": .string(id), "claim": .string(claim),
         "until": .int(Handover.expiry(claimedAt: t, timeoutSeconds: timeout).ms)]
    }

    static func grantRecord(_ g: RewardsState.Grant, _ c: RewardsState.Child) -> JSONObject {
        ["type": "grant", "id": .string(g.id), "child": .string(c.name), "login": JSON(c.login), "minutes": JSON(g.minutes),
         "points": JSON(g.points), "app": JSON(g.app), "date": .string(g.day.description), "applied": .bool(g.applied)]
    }
}
