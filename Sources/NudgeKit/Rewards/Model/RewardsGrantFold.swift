// How the fold pays redemptions, and why a grant handed over stays paid.
//
// A redemption ("grant") is paid or void where it falls in stamp order: the
// balance must hold its points and, for a redemption that costs points, the
// day's and the week's reward limits must hold its minutes. Until a run
// claims it for the grant command it is provisional: a peer's batch that
// arrives later with an earlier stamp may spend the balance first, and the
// refold voids it. Once claimed (the grant command may have run), it is
// handed over: no batch that arrives later voids it. Folding the claim
// (or, from older runs, the "applied" mark) of a grant the refold had
// voided pays it there after all, and the provisional redemptions of that
// child, newest first, are voided to make room (the balance, the day's
// and the week's limits); what then still lacks (a parent's negative
// adjustment or usage that took learning back, stamped earlier but
// arriving later) is recorded as the grant's shortfall, the balance stays
// at zero, and both are conflicts told to the parents.
//
// Invariants: a grant with a claim is never void; no balance goes below
// zero; a child's balance is what was credited minus each paid grant's
// points less its shortfall; the same events give the same grants on every
// copy, whatever order the batches arrived in; where devices share a sync
// folder, only the granting device's hand-over marks count (`markCounts`).

extension RewardsState {
    /// A redemption and its way to the grant command: the grant (by a
    /// parent, or by the child themself where names are not proven by the
    /// file system), a run's claim on it, applied, failed.
    mutating func applyGrantEvent(_ type: String, _ e: JSONObject, day: Day?, stamp: Stamp, who: String, proven: Bool) {
        switch type {
        case "grant":
            guard let id = e["id"]?.string, grants[id] == nil, let c = e["child"]?.string, let d = day, let m = e["minutes"]?.int, let p = e["points"]?.int else { return }
            // A parent, or (where names are not proven by the file system) the child themself.
            guard parents.contains(who) || (proven && who == "root") || (!proven && children[c]?.login == who) else {
                refuse(who, "\(who) may not redeem for \(children[c]?.name ?? c)")
                return
            }
            applyGrant(Grant(id: id, child: c, minutes: Int(m), points: Int(p), app: e["app"]?.string, day: d), stamp: stamp, who: who,
                       limits: p > 0)
        case "grant_applied":
            guard let id = e["id"]?.string, let g = grants[id] else { return }
            guard markCounts(type, id, stamp: stamp, who: who, proven: proven) else { return }
            guard parents.contains(who) || (proven && who == "root") || (!proven && children[g.child]?.login == who) else {
                refuse(who, "\(who) may not mark grants applied")
                return
            }
            bind(id, stamp: stamp, who: who)
            grants[id]?.handover.ended(.delivered, claim: nil)
        case "grant_failed":
            // The holder's failure (or one naming no claim); one of a claim
            // that lost the race leaves the holder's claim alone.
            guard let id = e["id"]?.string, grants[id] != nil else { return }
            guard markCounts(type, id, stamp: stamp, who: who, proven: proven) else { return }
            let outcome: DeliveryOutcome = e["outcome"]?.string == "unknown" ? .unknown : .failed
            if grants[id]!.handover.ended(outcome, claim: e["claim"]?.string) { grants[id]!.failures += 1 }
        case "grant_claimed":
            // The first live claim in stamp order holds the grant; a grant
            // failed or unknown is claimed again (rewards retries it). A
            // claim binds: the grant is paid from here on, whatever arrives.
            guard let id = e["id"]?.string, let g = grants[id], let c = e["claim"]?.string, let u = e["until"]?.int else { return }
            guard parents.contains(who) || (proven && who == "root") || (!proven && children[g.child]?.login == who) else { return }
            guard markCounts(type, id, stamp: stamp, who: who, proven: proven) else { return }
            bind(id, stamp: stamp, who: who)
            grants[id]?.handover.claimed(c, until: Instant(ms: u), retry: true, at: Instant(ms: stamp.ms))
        case "grant_device":
            // The device that hands grants over, where devices share a sync folder.
            guard let d = e["device"]?.string, StoreOptions.isActorName(Substring(d)) else { return }
            // Only the granting device passes the role on (or any, once it
            // has been silent for `granterSilenceDays`): two devices never
            // both hand grants over while the change is on its way.
            if let g = granter, !Rewards.mayPassGrants(granter: g, writer: stamp.actor, at: stamp.ms, granterSeen: granterSeen) {
                noteChange(stamp, who, "\(who)'s naming of \(d) as the device that hands grants over does not count: only \(g), the granting device, passes it on (or any device after \(Rewards.granterSilenceDays) days without a word from \(g))", conflict: true)
                return
            }
            grantDevice = d
            granterSeen = stamp.ms
            noteChange(stamp, who, "\(who) made \(d) the device that hands grants over")
        default:
            break
        }
    }

    /// Whether a hand-over mark (a claim, applied, failed) counts: where
    /// devices share a sync folder (journals not proven by the file
    /// system), only the granting device at this point in stamp order hands
    /// grants over, so only its marks do; one planted in another device's
    /// journal would mark a grant applied (or failed, or claimed: paid)
    /// with no command run, and counts for nothing (a conflict). In a
    /// family folder (proven) every run takes the family's lock and root's
    /// run hands over; the author checks above decide there.
    mutating func markCounts(_ type: String, _ id: String, stamp: Stamp, who: String, proven: Bool) -> Bool {
        guard syncFolder, !proven, !stamp.actor.isEmpty, let g = granter, stamp.actor != g else { return true }
        let what = type == "grant_claimed" ? "claim on" : type == "grant_failed" ? "failure of" : "applied mark of"
        noteChange(stamp, who, "\(stamp.actor)'s \(what) grant \(id) does not count: only \(g), the granting device, hands grants over", conflict: true)
        return false
    }

    /// A grant counts only if the balance can pay it at this point, and (a
    /// redemption, `limits`) only within the day's and the week's reward
    /// limits as merged: two parents' redemptions that each fit do not
    /// both count when together they pass a limit.
    mutating func applyGrant(_ g: Grant, stamp: Stamp, who: String, limits: Bool = false) {
        var g = g
        grantSeq += 1
        g.seq = grantSeq
        if let why = lacks(g, limits: limits) {
            g.void = why
            let name = children[g.child]?.name ?? g.child
            noteChange(stamp, who, "\(g.minutes) reward minutes for \(name) (\(g.points) points, by \(who)) were reversed: \(why)", conflict: true)
            g.voidNote = conflicts.last?.id
            grants[g.id] = g
            return
        }
        grants[g.id] = g
        pay(g.id)
    }

    /// Why `g` cannot be paid at this point (nil: it can).
    func lacks(_ g: Grant, limits: Bool) -> String? {
        let bal = balance[g.child] ?? 0
        let set = settings(for: g.child).on(g.day)
        let today = totals(g.child, g.day).grantedMinutes, week = grantedThisWeek(g.child, g.day)
        if g.points > bal { return "the balance was \(bal) when it was merged, less than its \(g.points) points" }
        if limits && today + g.minutes > set.dailyRewardLimitMinutes {
            return "with it \(today + g.minutes) reward minutes were granted on \(g.day), past the daily limit of \(set.dailyRewardLimitMinutes)"
        }
        if limits && week + g.minutes > set.weeklyRewardLimitMinutes {
            return "with it \(week + g.minutes) reward minutes were granted that week, past the weekly limit of \(set.weeklyRewardLimitMinutes)"
        }
        return nil
    }

    /// Counts grant `id` (not void): its minutes granted on its day, its
    /// points (less what the balance lacks, its shortfall) taken.
    mutating func pay(_ id: String) {
        guard var g = grants[id] else { return }
        let bal = balance[g.child] ?? 0
        g.short = max(0, g.points - bal)
        g.void = nil
        grants[id] = g
        days.update(g.child, g.day) { $0.grantedMinutes += g.minutes }
        balance[g.child, default: 0] -= g.points - g.short
    }

    /// Takes back a paid grant that was never handed over: its minutes and
    /// its points return.
    mutating func unpay(_ id: String, why: String) {
        guard var g = grants[id], g.void == nil else { return }
        days.update(g.child, g.day) { $0.grantedMinutes -= g.minutes }
        balance[g.child, default: 0] += g.points - g.short
        g.short = 0
        g.void = why
        grants[id] = g
    }

    /// A grant handed over (claimed, or marked applied) is paid from here
    /// on. If the refold had voided it, it is paid now: the child's
    /// provisional redemptions, newest first, are voided while the balance
    /// or a limit still lacks; what still lacks then is its shortfall.
    mutating func bind(_ id: String, stamp: Stamp, who: String) {
        guard let g = grants[id], g.void != nil else { return }
        let name = children[g.child]?.name ?? g.child
        // Its reversal is taken back: one reversal, one line (the one that
        // gives way below), not three.
        if let note = g.voidNote { superseded.insert(note) }
        let limits = g.points > 0
        let week = g.day.adding(days: -((g.day.weekday + 6) % 7))
        let provisional = grants.values.filter { $0.child == g.child && $0.id != id && $0.void == nil && $0.handover.state == .pending }
            .sorted { $0.seq > $1.seq }
        let set = settings(for: g.child).on(g.day)
        for p in provisional {
            guard lacks(g, limits: limits) != nil else { break }
            // Only a redemption whose reversal gives back what lacks.
            let balanceLacks = g.points > (balance[g.child] ?? 0)
            let dayLacks = limits && totals(g.child, g.day).grantedMinutes + g.minutes > set.dailyRewardLimitMinutes
            let weekLacks = limits && grantedThisWeek(g.child, g.day) + g.minutes > set.weeklyRewardLimitMinutes
            let helps = (balanceLacks && p.points > p.short) || (dayLacks && p.day == g.day)
                || (weekLacks && p.day >= week && p.day < week.adding(days: 7))
            guard helps else { continue }
            unpay(p.id, why: "\(g.minutes) reward minutes (\(g.id)) were handed over before it was merged")
            noteChange(stamp, who, "\(p.minutes) reward minutes for \(name) (\(p.points) points) were reversed: \(g.minutes) minutes redeemed elsewhere had been handed over already", conflict: true)
        }
        pay(id)
        let paid = grants[id]!
        guard g.voidNote == nil || paid.short > 0 else { return }
        noteChange(stamp, who, "\(g.minutes) reward minutes for \(name) stand: they were handed over before other changes arrived\(paid.short > 0 ? "; \(paid.short) of their \(g.points) points were no longer there" : "")", conflict: true)
    }
}
