// Zones by name, loaded once per process (yomo's reminders keep their zone
// by name; a calendar's TZIDs are looked up by ICSZones).

/// Zones by name, loaded once per process: what `Reminder.zone` reads when a
/// reminder's zone is not the reader's, and what an import checks names
/// against. Process-wide on purpose: keeping each reminder's loaded zone in
/// the state instead means a lookup for every reminder restored from the
/// snapshot (measured: about 1% more instructions for `due` and `next` on a
/// store of 4,000 reminders in five zones), where this looks up only what a
/// command uses. Behind `Locked`: safe from any thread; a name that cannot
/// be loaded is kept as nil, so it is tried once.
enum ZoneCache {
    static let cache = Locked([String: Zone?]())
    /// Seeds the cache with a zone already loaded (the run's own), so that
    /// it is not read again by name.
    static func keep(_ z: Zone) { cache.withLock { if $0[z.name] == nil { $0[z.name] = .some(z) } } }

    static func named(_ n: String) -> Zone? {
        if let z = cache.withLock({ $0[n] }) { return z }
        let z = try? Zone.named(n)
        cache.withLock { $0[n] = .some(z) }
        return z
    }
}
