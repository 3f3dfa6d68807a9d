// The apps a child uses, as the parents categorise them: what an app_set
// event holds when an app is set again (the rate, sites and process
// patterns it keeps), when a site would be two apps', and which app a web
// visit is (`app set APP --site DOMAIN`).
//
// Invariants: a site is one app's; a host is the app whose site is the host
// or the longest domain above it.

extension Rewards {
    /// An app_set event: the rate, sites and process patterns given, else
    /// those the app keeps (`keptRate`; its sites, whatever the category;
    /// its patterns while it is a reward app).
    static func appEvent(name: String, category: RewardsEngine.Category, rate: Int?, sites: [String]?,
                         processes: [String]? = nil, titles: [String]? = nil, before: RewardsState.App?) -> JSONObject {
        var e: JSONObject = ["type": "app_set", "name": .string(name), "category": .string(category.rawValue),
                             "points_per_hour": JSON(keptRate(rate, category: category, before: before))]
        let keep = sites ?? before?.sites ?? []
        if !keep.isEmpty { e["sites"] = JSON(keep) }
        // The process and title patterns stay unless new ones are given:
        // they name the app whatever its category (enforce ends only a
        // reward app's processes; ActivityWatch's names are every app's).
        let patterns = processes ?? before?.processes ?? []
        if !patterns.isEmpty { e["processes"] = JSON(patterns) }
        let t = titles ?? before?.titles ?? []
        if !t.isEmpty { e["titles"] = JSON(t) }
        return e
    }

    /// The rate an app keeps when set again: the one given, else (still a
    /// learning app) its own.
    static func keptRate(_ given: Int?, category: RewardsEngine.Category, before: RewardsState.App?) -> Int? {
        guard category == .learning else { return nil }
        return given ?? (before?.category == .learning ? before?.pointsPerHour : nil)
    }

    /// The app a window ActivityWatch reports is: the app of that name;
    /// else the app whose process patterns match the name ActivityWatch
    /// gives (`java`, `Minecraft.exe`) and whose title patterns, if it has
    /// any, match the window's title; else an app known by titles alone
    /// (a game in a browser) whose pattern matches. An app with title
    /// patterns claims only the windows whose title matches; the most
    /// particular claim wins (process and title, then title, then
    /// process), then the first by name. Else the name as reported.
    static func appForWindow(_ app: String, title: String?, apps: [RewardsState.App]) -> String {
        let key = app.lowercased()
        if let a = apps.first(where: { $0.name.lowercased() == key }) { return a.name }
        let t = title.map { String($0.utf8.prefix(1024)) ?? "" } ?? ""
        var best: (rank: Int, name: String)? = nil
        for a in apps {
            let byProcess = a.processes.contains { Processes.matches(Processes.Pattern($0), name: app) }
            let byTitle = !t.isEmpty && a.titles.contains { Processes.matches(Processes.Pattern($0), name: t) }
            let rank: Int
            if byProcess && byTitle { rank = 0 }
            else if byTitle && a.processes.isEmpty { rank = 1 }
            else if byProcess && a.titles.isEmpty { rank = 2 }
            else { continue }
            if best.map({ rank < $0.rank || (rank == $0.rank && a.name.lowercased() < $0.name.lowercased()) }) ?? true { best = (rank, a.name) }
        }
        return best?.name ?? app
    }

    /// Why an app_set event cannot be: one of its sites is another app's.
    static func siteConflict(_ e: JSONObject, in s: RewardsState) -> String? {
        let name = e["name"]?.string ?? ""
        for site in (e["sites"]?.array ?? []).compactMap(\.string) {
            if let other = s.apps.values.sorted(by: { $0.name < $1.name }).first(where: { $0.name.lowercased() != name.lowercased() && $0.sites.contains(site) }) {
                return "\(site) is already a site of '\(other.name)'; 'rewards app rm \(other.name)' or set it there"
            }
        }
        return nil
    }

    /// The app a host belongs to: the app whose site is the host or a
    /// domain above it, the longest such site winning; nil when none is.
    public static func appForSite(_ host: String, apps: [String: RewardsState.App]) -> String? {
        var best: (site: Int, name: String)? = nil
        for a in apps.values {
            for s in a.sites where host == s || host.hasSuffix("." + s) {
                if best.map({ s.count > $0.site || (s.count == $0.site && a.name < $0.name) }) ?? true { best = (s.count, a.name) }
            }
        }
        return best?.name
    }

    /// How a site with no app is named: its host, without "www.".
    public static func siteName(_ host: String) -> String {
        host.hasPrefix("www.") && host.count > 4 ? String(host.dropFirst(4)) : host
    }
}
