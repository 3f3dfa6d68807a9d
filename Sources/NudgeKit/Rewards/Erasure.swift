// Erasure on request: which events `child rm --purge` removes from the
// journal. Every event that names the child goes, whatever its type.

extension Rewards {
    /// Whether an event names the child: their own added/removed events,
    /// flags, grants, days and badges (a "child" field), and "notified" keys.
    static func erases(_ e: JSONObject, child id: String) -> Bool {
        e["child"]?.string == id || (e["type"]?.string == "child_added" && e["id"]?.string == id)
            || (e["type"]?.string == "child_removed" && e["id"]?.string == id)
            || (e["key"]?.string?.contains(id) ?? false)
    }
}
