// Erasure on request: `child rm --purge` records a tombstone, {"type":"erase",
// "salt","digests"}, and the store skips every event stamped before it that
// names the child, on every copy that syncs, and removes those events from
// the journals each copy writes (then the snapshot is rebuilt without them).
//
// An event names the child when its "child" is the child's id, when it is
// the child's own added/removed event, a flag, grant or decision about one
// of the child's flags or grants, a request the child made (from their login,
// in a family folder) or its decision, a "notified" key holding one of those ids,
// or when the child made it ("by" their login: a grant they redeemed, a
// notify or rollover they ran; what such a run recorded about others is
// derived again, so a notification may be said once more).
//
// The tombstone holds digests of those values under a random salt, never the
// values: after a purge nothing in the data directory names the child.

extension Rewards {
    /// The tombstone erasing one child: digests of their id, their login
    /// (unless a parent or another child has it), and their flags' and
    /// grants' ids.
    static func erasure(of c: RewardsState.Child, in s: RewardsState, salt: String) -> JSONObject {
        var values = [c.id]
        if let l = c.login {
            switch s.role(of: l) {
            case .stranger: values.append(l)
            case .child(let id) where id == c.id: values.append(l)
            default: break
            }
        }
        values += s.flags.values.filter { $0.child == c.id }.map(\.id)
        values += s.grants.values.filter { $0.child == c.id }.map(\.id)
        if let l = c.login { values += s.requests.values.filter { $0.from == l }.map(\.id) }
        return ["type": "erase", "salt": .string(salt), "digests": JSON(Array(Set(values.map { erasureDigest($0, salt: salt) })).sorted())]
    }

    static func erasureDigest(_ value: String, salt: String) -> String {
        Checksum.hex(Checksum.hash(Array((salt + "|" + value).utf8)))
    }

    /// Whether `value`'s digest is among the sorted `digests`.
    static func erasureHit(_ digests: [JSON], salt: String, _ value: String) -> Bool {
        let d = erasureDigest(value, salt: salt)
        var lo = 0, hi = digests.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if (digests[mid].string ?? "") < d { lo = mid + 1 } else { hi = mid }
        }
        return lo < digests.count && digests[lo].string == d
    }

    /// The ids a "notified" key holds: "points|CHILD|DAY|N", "flags|F1,F2", ….
    static func keyParts(_ key: String) -> [String] {
        key.split(whereSeparator: { $0 == "|" || $0 == "," }).map(String.init)
    }

    /// Whether the tombstone `t` erases the event `e` (see above).
    static func erases(_ t: JSONObject, _ e: JSONObject) -> Bool {
        guard let salt = t["salt"]?.string, let ds = t["digests"]?.array, !ds.isEmpty else { return false }
        func hit(_ v: String?) -> Bool { v.map { erasureHit(ds, salt: salt, $0) } ?? false }
        let type = e["type"]?.string
        if type == "family_created" { return false }
        if hit(e["child"]?.string) || hit(e["by"]?.string) { return true }
        switch type {
        case "child_added", "child_removed", "flag", "flag_decided", "grant", "grant_applied", "grant_claimed", "grant_failed", "request_decided":
            return hit(e["id"]?.string)
        case "request": return hit(e["from"]?.string) || hit(e["id"]?.string)
        case "notified": return e["key"]?.string.map { keyParts($0).contains(where: hit) } ?? false
        default: return false
        }
    }
}
