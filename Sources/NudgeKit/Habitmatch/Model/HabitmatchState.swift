// habitmatch's pool as a fold over its members' journals.
//
// Who did something is the journal it came from ("actor", tagged by the
// store, whose files are checked against their owners): nothing in an
// event can claim another author. Where it came from ("scope": journal,
// private, self, reports, or pairs/A+B) is tagged too; an event in a pair's
// folder may only concern the other member of that pair.
//
// Every event is validated here, by the same rules the commands enforce,
// because a peer can write anything in their own journal: a meeting is made
// only between a match and changed only by its two members, at most three
// habits, a buddy cap counted on both sides with accepts in flight, times
// and sizes within bounds, names from a safe set. What fails is ignored.
// Activity times come from the batches' stamps, never from a field a peer
// writes.
//
// Invariants: the state is a function of the set of events and their
// stamps, so any two copies holding the same events agree; the snapshot
// lines restore exactly what the fold built (schemaVersion changes when
// they change meaning).

public struct HabitmatchState: JournalModel {
    public static let schemaVersion = 4
    public internal(set) var members: [String: Habitmatch.Member] = [:]
    /// from → to → liked (true) or passed (false); the latest swipe counts.
    /// Parsed from the snapshot per member when first needed (`rawSwipes`,
    /// HabitmatchSnapshotLines.swift): a command needs a few of thousands.
    var swipeTable: [String: [String: Bool]] = [:]
    var rawSwipes: [String: Bytes] = [:]
    /// Shared pieces while restoring a snapshot (not part of the state).
    var restoreCache = RestoreCache()
    public private(set) var accepts: [String: Set<String>] = [:]
    public private(set) var chats: [String: [(from: String, text: String, at: Instant)]] = [:]
    public private(set) var done: [String: [String: Set<Day>]] = [:]
    /// A measurable habit's amounts by day (its days are in `done` too).
    public private(set) var amounts: [String: [String: [Day: Double]]] = [:]
    public private(set) var meetings: [String: Habitmatch.Meeting] = [:]
    /// Meetings cancelled (by either, or by an unmatch or block), kept so a
    /// calendar that imported them learns of it (STATUS:CANCELLED).
    public private(set) var cancelled: [String: Habitmatch.Meeting] = [:]
    public private(set) var reminded: [String: Set<String>] = [:]
    /// blocker → blocked.
    public private(set) var blocks: [String: Set<String>] = [:]
    public private(set) var reports: [Habitmatch.Report] = []
    /// Pairs that unmatched (either side): they are not offered to each other again.
    public private(set) var parted: Set<String> = []
    /// In a host pool, where nobody reads another's swipes: the matches the
    /// pool's owner's run announced (pair key → the pair folder's name), as
    /// announced ("ended" removes them) and as still standing (an unmatch or
    /// block seen first in the pair's folder removes them too).
    public private(set) var announced: [String: String] = [:]
    public private(set) var live: [String: String] = [:]
    /// A pair folder's name → its two members, as the member's notices say.
    public private(set) var pairFolders: [String: [String]] = [:]
    /// A pair folder's name → the two it was opened for, as the folder says.
    public private(set) var opened: [String: [String]] = [:]
    /// "BLOCKER|BLOCKED" the owner's run told the blocked member about.
    public private(set) var hiddenSent: Set<String> = []
    /// In a host pool, "WHO|PEER" → the folder of WHO's private file as WHO
    /// told PEER in their pair's folder (`private_at`).
    public private(set) var privateAt: [String: String] = [:]
    /// Per member, the bytes of state their events made this copy keep, and
    /// how many of their events were ignored past `memberQuotaBytes`.
    public private(set) var kept: [String: Int] = [:]
    public private(set) var overQuota: [String: Int] = [:]

    public init(full: Bool) {}

    // MARK: Queries

    /// A pair's key: both names, sorted, joined by "|".
    static func pair(_ a: String, _ b: String) -> String { a < b ? a + "|" + b : b + "|" + a }

    public func liked(by u: String) -> Set<String> { Set(swipes(of: u).filter { $0.value }.keys) }
    public func passed(by u: String) -> Set<String> { Set(swipes(of: u).filter { !$0.value }.keys) }
    public func isBlocked(_ a: String, _ b: String) -> Bool {
        blocks[a]?.contains(b) == true || blocks[b]?.contains(a) == true
    }
    /// Two likes this copy can see (a synced pool, the pool's owner), or a
    /// match the pool's owner announced and nobody ended since.
    public func isMatch(_ a: String, _ b: String) -> Bool {
        !isBlocked(a, b) && ((swipes(of: a)[b] == true && swipes(of: b)[a] == true) || live[HabitmatchState.pair(a, b)] != nil)
    }
    /// The pair folder the pool's owner made for two members, if any.
    public func pairFolder(_ a: String, _ b: String) -> String? { live[HabitmatchState.pair(a, b)] }
    /// Every pair folder `u` is one of: what their copy reads.
    public func pairFolders(of u: String) -> [(folder: String, other: String)] {
        pairFolders.compactMap { (f, names) in names.contains(u) ? (f, names[0] == u ? names[1] : names[0]) : nil }.sorted { $0.folder < $1.folder }
    }
    public func matches(of u: String) -> Set<String> { liked(by: u).filter { isMatch(u, $0) } }
    public func isBuddy(_ a: String, _ b: String) -> Bool {
        isMatch(a, b) && accepts[a]?.contains(b) == true && accepts[b]?.contains(a) == true
    }
    public func buddies(of u: String) -> Set<String> { matches(of: u).filter { isBuddy(u, $0) } }
    /// Buddies plus accepts still waiting for the other side: what the cap counts.
    public func commitments(of u: String) -> Int { (accepts[u] ?? []).filter { isMatch(u, $0) }.count }
    /// Everyone `u` has (or had) something with: matches, accepts, blocks
    /// either way, parted pairs. Pair folders exist only for these.
    public func related(to u: String) -> Set<String> {
        var out = matches(of: u).union(accepts[u] ?? []).union(blocks[u] ?? [])
        for (b, set) in blocks where set.contains(u) { out.insert(b) }
        for p in parted {
            let names = p.split(separator: "|", maxSplits: 1).map(String.init)
            if names.count == 2, names.contains(u) { out.insert(names[0] == u ? names[1] : names[0]) }
        }
        out.remove(u)
        return out
    }
    public func chat(_ a: String, _ b: String) -> [(from: String, text: String, at: Instant)] { chats[HabitmatchState.pair(a, b)] ?? [] }
    public func doneDays(_ u: String, _ habit: String) -> Set<Day> { done[u]?[habit] ?? [] }
    public func amounts(_ u: String, _ habit: String) -> [Day: Double] { amounts[u]?[habit] ?? [:] }

    // MARK: The fold

    public mutating func apply(_ e: JSONObject) { apply(e, stamp: Stamp(ms: 0, actor: e["actor"]?.string ?? "")) }

    /// The other member of the pair folder an event came from; nil when it
    /// is not in one. `.some(nil)` when the folder does not include `who`.
    func pairOther(_ scope: String?, _ who: String) -> String?? {
        guard let sc = scope, sc.hasPrefix("pairs/") else { return .none }
        // A folder the pool's owner made for a match, or (in a synced pool) one named "A+B".
        let names = pairFolders[String(sc.dropFirst(6))] ?? Store<HabitmatchState>.groupMembers(String(sc.dropFirst(6)))
        guard names.count == 2, names.contains(who), names[0] != names[1] else { return .some(nil) }
        return .some(names[0] == who ? names[1] : names[0])
    }

    /// What each folder may hold, by its first part: anything else there
    /// counts for nothing, so no member makes every other keep what only
    /// they should (690,000 `reminded` lines in a profile journal).
    static let typesIn: [String: Set<String>] = [
        "journal": ["joined", "profile", "habit_added", "habit_removed", "habit_set",
                    "swiped", "unmatch", "block", "buddy_accept"],  // the last four as older journals have them
        "private": ["profile", "done", "undone"],
        "self": ["habit_remind", "reminded"],
        "spool": ["swiped", "unmatch", "block", "unblock"],
        "pairs": ["chat", "meeting", "meeting_move", "meeting_cancel", "buddy_accept", "unmatch", "block", "unblock", "opened", "closed", "private_at"],
        "notices": ["matched", "ended", "hidden", "shown"],
        "reports": ["report"],
    ]

    public mutating func apply(_ e: JSONObject, stamp: Stamp) {
        guard let who = e["actor"]?.string, let type = e["type"]?.string else { return }
        let scope = e["scope"]?.string
        if let sc = scope {
            let top = sc.firstIndex(of: "/").map { String(sc[..<$0]) } ?? sc
            guard HabitmatchState.typesIn[top]?.contains(type) == true else { return }
        }
        // Events in a pair's folder concern the other member only.
        var pairPeer: String? = nil
        // What the pool's owner's run says to one member, in a folder only it writes in.
        if let sc = scope, sc.hasPrefix("notices/") {
            // notices/USER, or notices/USER/in (a host pool's hidden folder).
            let rest = sc.dropFirst(8)
            applyNotice(type, e, to: String(rest.prefix { $0 != "/" }))
            return
        }
        // The pool's owner's run opening or closing a pair's folder: the one
        // batch both of them fold, before either writes there.
        if type == "opened" || type == "closed", let sc = scope, sc.hasPrefix("pairs/") {
            applyPairFolder(type == "opened", e, folder: String(sc.dropFirst(6)), by: who)
            return
        }
        switch pairOther(scope, who) {
        case .none: break
        case .some(nil): return
        case .some(let p?): pairPeer = p
        }
        // What one member can make every reader keep is bounded.
        if let cost = Habitmatch.keptCost(type, e) {
            if kept[who, default: 0] + cost > Habitmatch.memberQuotaBytes {
                overQuota[who, default: 0] += 1
                return
            }
            kept[who, default: 0] += cost
        }
        let at = Instant(ms: stamp.ms)
        if var m = members[who], at > m.lastActive, type != "reminded", type != "habit_remind", scope != "self" {
            m.lastActive = at
            members[who] = m
        }
        switch type {
        case "joined", "profile", "habit_added", "habit_removed", "habit_remind", "habit_set":
            applyProfile(type, e, who: who, at: at)
        case "swiped", "unmatch", "block", "unblock", "chat", "buddy_accept":
            applyMatching(type, e, who: who, at: at, pairPeer: pairPeer)
        case "done", "undone":
            applyMark(done: type == "done", e, who: who, at: at, stamp: stamp)
        case "meeting", "meeting_move", "meeting_cancel":
            applyMeeting(type, e, who: who, at: at, pairPeer: pairPeer)
        case "report":
            guard let t = e["user"]?.string, members[t] != nil, t != who,
                  let reason = e["reason"]?.string, !reason.isEmpty, reason.count <= 500 else { return }
            reports.append(Habitmatch.Report(reporter: who, user: t, reason: reason, at: at))
        case "reminded":
            if let k = e["key"]?.string, k.utf8.count <= 200 { reminded[who, default: []].insert(k) }
        case "private_at":
            // Only in a pair's folder, and only a folder of the writer's own name.
            guard let peer = pairPeer, let f = e["folder"]?.string, Habitmatch.validPrivateFolder(f, of: who) else { return }
            privateAt[who + "|" + peer] = f
        default:
            break
        }
    }

    /// Whom an event names in `key`: in a pair's folder, the other of the
    /// pair (the field may be left out, and naming anyone else counts for
    /// nothing); elsewhere the field as written.
    private static func target(in e: JSONObject, _ key: String, pairPeer: String?) -> String? {
        let t = e[key]?.string
        if let p = pairPeer { return t == nil || t == p ? p : nil }
        return t
    }

    /// joined, profile, habit_added, habit_removed, habit_remind: what a
    /// member says about themselves.
    private mutating func applyProfile(_ type: String, _ e: JSONObject, who: String, at: Instant) {
        switch type {
        case "joined":
            guard members[who] == nil, let name = e["name"]?.string.flatMap(Habitmatch.validName),
                  let tz = e["timezone"]?.string, Habitmatch.validZone(tz) else { return }
            members[who] = Habitmatch.Member(user: who, name: name, email: e["email"]?.string.flatMap(Habitmatch.validEmail),
                                             timezone: tz, bio: e["bio"]?.string.flatMap(Habitmatch.validBio) ?? "",
                                             habits: HabitmatchState.habits(e["habits"]), joinedAt: at, lastActive: at)
        case "profile":
            guard var m = members[who] else { return }
            if let n = e["name"]?.string.flatMap(Habitmatch.validName) { m.name = n }
            if let v = e["email"] {
                if v.isNull { m.email = nil } else if let x = v.string.flatMap(Habitmatch.validEmail) { m.email = x }
            }
            if let t = e["timezone"]?.string, Habitmatch.validZone(t) { m.timezone = t }
            if let b = e["bio"]?.string.flatMap(Habitmatch.validBio) { m.bio = b }
            members[who] = m
        case "habit_added":
            guard var m = members[who], let id = e["id"]?.string, let name = e["name"]?.string,
                  Habitmatch.validHabit(id: id, name: name), !m.habitIDs.contains(id), m.habits.count < Habitmatch.maxHabits else { return }
            guard let h = Habitmatch.Habit(id: id, name: name, remindAt: nil).measured(by: e) else { return }
            m.habits.append(h)
            members[who] = m
        case "habit_set":
            guard var m = members[who], let id = e["id"]?.string, let i = m.habits.firstIndex(where: { $0.id == id }) else { return }
            guard let h = m.habits[i].measured(by: e) else { return }
            m.habits[i] = h
            members[who] = m
        case "habit_removed":
            guard var m = members[who], let id = e["id"]?.string else { return }
            m.habits.removeAll { $0.id == id }
            members[who] = m
        case "habit_remind":
            guard var m = members[who], let id = e["id"]?.string, let i = m.habits.firstIndex(where: { $0.id == id }) else { return }
            m.habits[i].remindAt = e["time"]?.string.flatMap(TimeOfDay.parse)
            members[who] = m
        default:
            break
        }
    }

    /// swiped, unmatch, block, unblock, chat, buddy_accept: what one member does
    /// about another.
    private mutating func applyMatching(_ type: String, _ e: JSONObject, who: String, at: Instant, pairPeer: String?) {
        func target(_ key: String) -> String? { HabitmatchState.target(in: e, key, pairPeer: pairPeer) }
        switch type {
        case "swiped":
            guard let t = target("target"), t != who, members[t] != nil, !isBlocked(who, t), let right = e["right"]?.bool else { return }
            // Leaving a match takes `unmatch`, never a left swipe.
            if !right && isMatch(who, t) { return }
            materializeSwipes(who)
            swipeTable[who, default: [:]][t] = right
        case "unmatch", "block":
            guard let t = target("user"), t != who, members[t] != nil else { return }
            if type == "block" { blocks[who, default: []].insert(t) }
            endContact(who, t)
        case "unblock":
            guard let t = target("user"), t != who else { return }
            blocks[who]?.remove(t)
        case "chat":
            guard let t = target("to"), isMatch(who, t), let text = e["text"]?.string, Habitmatch.validChat(text) else { return }
            chats[HabitmatchState.pair(who, t), default: []].append((who, text, Habitmatch.chatTime(e["at_ms"]?.int, stamp: at.ms)))
        case "buddy_accept":
            guard let t = target("user"), t != who, isMatch(who, t), accepts[who]?.contains(t) != true,
                  commitments(of: who) < Habitmatch.maxBuddiesLimit else { return }
            accepts[who, default: []].insert(t)
        default:
            break
        }
    }

    /// matched, ended, hidden, shown: the pool's owner's run telling `u`
    /// what only it can see (two likes; a block by someone who never
    /// matched them).
    private mutating func applyNotice(_ type: String, _ e: JSONObject, to u: String) {
        guard let x = e["user"]?.string, x != u, members[u] != nil, members[x] != nil else { return }
        let key = HabitmatchState.pair(u, x)
        switch type {
        case "matched":
            // Which folder to read; the match stands once the folder says so ("opened").
            guard let f = e["pair"]?.string, Habitmatch.validID(f), pairFolders[f] == nil || pairFolders[f] == [u, x].sorted() else { return }
            pairFolders[f] = [u, x].sorted()
            announced[key] = f
            if opened[f] == [u, x].sorted() && !isBlocked(u, x) {
                live[key] = f
                parted.remove(key)
            }
        case "ended":
            announced[key] = nil
            endContact(u, x)
        case "hidden":
            blocks[x, default: []].insert(u)
            hiddenSent.insert(x + "|" + u)
            endContact(x, u)
        case "shown":
            blocks[x]?.remove(u)
            hiddenSent.remove(x + "|" + u)
        default:
            break
        }
    }

    /// "opened" or "closed" {users: [A, B]} in the pair's folder, by the
    /// pool's owner: only the owner's run writes in a pair's folder besides
    /// the two (its access list), so it is the one writer who is neither.
    private mutating func applyPairFolder(_ open: Bool, _ e: JSONObject, folder f: String, by who: String) {
        let users = (e["users"]?.array ?? []).compactMap(\.string).sorted()
        guard users.count == 2, users[0] != users[1], !users.contains(who), members[users[0]] != nil, members[users[1]] != nil,
              pairFolders[f] == nil || pairFolders[f] == users else { return }
        let key = HabitmatchState.pair(users[0], users[1])
        if !open {
            opened[f] = nil
            endContact(users[0], users[1])
            return
        }
        opened[f] = users
        // It stands once the member's own notice names this folder for these two.
        if pairFolders[f] == users && !isBlocked(users[0], users[1]) {
            live[key] = f
            parted.remove(key)
        }
    }

    /// Everything between two members ends, whoever ended it and in
    /// whichever folder or order their events come: no like, no accept, no
    /// chat, no meeting survives (so a later move or cancel by either finds
    /// nothing), and they are not offered to each other again.
    private mutating func endContact(_ a: String, _ b: String) {
        let key = HabitmatchState.pair(a, b)
        parted.insert(key)
        materializeSwipes(a)
        materializeSwipes(b)
        swipeTable[a, default: [:]][b] = false
        swipeTable[b]?[a] = nil
        accepts[a]?.remove(b)
        accepts[b]?.remove(a)
        chats[key] = nil
        live[key] = nil
        for (id, m) in meetings where HabitmatchState.pair(m.organizer, m.attendee) == key { cancel(id, m) }
    }

    /// done, undone: a member's marks on their own habits' days, from 2000
    /// until the day after the batch's day in the zone furthest ahead
    /// (`Habitmatch.lastMarkDay`: no zone is read while folding).
    private mutating func applyMark(done isDone: Bool, _ e: JSONObject, who: String, at: Instant, stamp: Stamp) {
        guard let m = members[who], let h = e["habit"]?.string, m.habitIDs.contains(h),
              let d = e["date"]?.string.flatMap(Day.parse), d >= Day(year: 2000, month: 1, day: 1) else { return }
        if stamp.ms > 0 && d > Habitmatch.lastMarkDay(stampedAt: at) { return }
        if isDone {
            if let a = e["amount"] {
                guard let x = a.double, Habitmatch.validAmount(x) else { return }
                amounts[who, default: [:]][h, default: [:]][d] = x
            } else {
                amounts[who]?[h]?[d] = nil
            }
            done[who, default: [:]][h, default: []].insert(d)
        } else {
            done[who]?[h]?.remove(d)
            amounts[who]?[h]?[d] = nil
        }
    }

    /// meeting, meeting_move, meeting_cancel: check-ins between a match.
    private mutating func applyMeeting(_ type: String, _ e: JSONObject, who: String, at: Instant, pairPeer: String?) {
        func target(_ key: String) -> String? { HabitmatchState.target(in: e, key, pairPeer: pairPeer) }
        switch type {
        case "meeting":
            guard let id = e["id"]?.string, Habitmatch.validID(id), meetings[id] == nil, cancelled[id] == nil,
                  let with = target("with"), with != who, isMatch(who, with),
                  let tz = e["timezone"]?.string, Habitmatch.validZone(tz),
                  let start = e["start"]?.string.flatMap({ RFC3339.parse($0, allowLocal: true)?.local }),
                  start.day >= Day(year: 2000, month: 1, day: 1),
                  let minutes = e["minutes"]?.int, (1...Int64(Habitmatch.maxMeetingMinutes)).contains(minutes) else { return }
            let description = e["description"]?.string ?? ""
            guard Habitmatch.validDescription(description) else { return }
            meetings[id] = Habitmatch.Meeting(id: id, organizer: who, attendee: with, start: start, timezone: tz, minutes: Int(minutes),
                                              weekly: e["weekly"]?.bool ?? false, description: description, createdAt: at)
        case "meeting_move", "meeting_cancel":
            guard let id = e["id"]?.string, var mt = meetings[id], mt.organizer == who || mt.attendee == who else { return }
            if let p = pairPeer, p != (mt.organizer == who ? mt.attendee : mt.organizer) { return }
            if type == "meeting_cancel" {
                cancel(id, mt)
                return
            }
            guard let start = e["start"]?.string.flatMap({ RFC3339.parse($0, allowLocal: true)?.local }),
                  start.day >= Day(year: 2000, month: 1, day: 1) else { return }
            if let tz = e["timezone"]?.string {
                guard Habitmatch.validZone(tz) else { return }
                mt.timezone = tz
            }
            if let minutes = e["minutes"]?.int {
                guard (1...Int64(Habitmatch.maxMeetingMinutes)).contains(minutes) else { return }
                mt.minutes = Int(minutes)
            }
            mt.start = start
            mt.sequence += 1
            meetings[id] = mt
        default:
            break
        }
    }

    /// A meeting ends: out of the list, into the cancelled, one version later.
    private mutating func cancel(_ id: String, _ m: Habitmatch.Meeting) {
        var c = m
        c.sequence += 1
        cancelled[id] = c
        meetings[id] = nil
    }

    // MARK: Snapshot

    public func hotSnapshot() -> [JSONObject] {
        var lines: [JSONObject] = []
        for m in members.values.sorted(by: { $0.user < $1.user }) {
            var o: JSONObject = ["k": "member", "user": .string(m.user), "name": .string(m.name), "timezone": .string(m.timezone),
                                 "habits": HabitmatchState.compactHabits(m.habits), "joined": .int(m.joinedAt.ms), "active": .int(m.lastActive.ms)]
            if let e = m.email { o["email"] = .string(e) }
            if !m.bio.isEmpty { o["bio"] = .string(m.bio) }
            lines.append(o)
        }
        for (u, s) in swipes.sorted(by: { $0.key < $1.key }) where !s.isEmpty {
            lines.append(["k": "swipes", "user": .string(u), "liked": JSON(s.filter { $0.value }.keys.sorted()),
                          "passed": JSON(s.filter { !$0.value }.keys.sorted())])
        }
        for (u, a) in accepts.sorted(by: { $0.key < $1.key }) where !a.isEmpty { lines.append(["k": "accepts", "user": .string(u), "v": JSON(a.sorted())]) }
        for (u, b) in blocks.sorted(by: { $0.key < $1.key }) where !b.isEmpty { lines.append(["k": "blocks", "user": .string(u), "v": JSON(b.sorted())]) }
        for (p, c) in chats.sorted(by: { $0.key < $1.key }) {
            lines.append(["k": "chat", "pair": .string(p), "v": .array(c.map { .array([.string($0.from), .string($0.text), .int($0.at.ms)]) })])
        }
        for (u, hs) in done.sorted(by: { $0.key < $1.key }) {
            for (h, ds) in hs.sorted(by: { $0.key < $1.key }) where !ds.isEmpty {
                lines.append(["k": "done", "user": .string(u), "habit": .string(h), "v": JSON(ds.sorted().map(\.description))])
            }
        }
        for (u, hs) in amounts.sorted(by: { $0.key < $1.key }) {
            for (h, a) in hs.sorted(by: { $0.key < $1.key }) where !a.isEmpty {
                lines.append(["k": "amounts", "user": .string(u), "habit": .string(h),
                              "v": .object(JSONObject(a.sorted { $0.key < $1.key }.map { ($0.key.description, .double($0.value)) }))])
            }
        }
        for m in (meetings.values.sorted { $0.id < $1.id } + cancelled.values.sorted { $0.id < $1.id }) {
            lines.append(["k": meetings[m.id] != nil ? "meeting" : "cancelled", "seq": JSON(m.sequence), "id": .string(m.id), "organizer": .string(m.organizer), "with": .string(m.attendee),
                          "start": .string(m.start.description), "timezone": .string(m.timezone), "minutes": JSON(m.minutes),
                          "weekly": .bool(m.weekly), "description": .string(m.description), "at": .int(m.createdAt.ms)])
        }
        for (u, r) in reminded.sorted(by: { $0.key < $1.key }) { lines.append(["k": "reminded", "user": .string(u), "v": JSON(r.sorted())]) }
        if !parted.isEmpty { lines.append(["k": "parted", "v": JSON(parted.sorted())]) }
        if !privateAt.isEmpty { lines.append(["k": "private_at", "v": .object(JSONObject(privateAt.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))]) }
        if !pairFolders.isEmpty || !opened.isEmpty || !hiddenSent.isEmpty {
            lines.append(["k": "notices", "folders": .object(JSONObject(pairFolders.sorted { $0.key < $1.key }.map { ($0.key, JSON($0.value)) })),
                          "opened": .object(JSONObject(opened.sorted { $0.key < $1.key }.map { ($0.key, JSON($0.value)) })),
                          "announced": .object(JSONObject(announced.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
                          "live": .object(JSONObject(live.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })),
                          "hidden": JSON(hiddenSent.sorted())])
        }
        if !kept.isEmpty || !overQuota.isEmpty {
            lines.append(["k": "quota", "kept": .object(JSONObject(kept.sorted { $0.key < $1.key }.map { ($0.key, JSON($0.value)) })),
                          "over": .object(JSONObject(overQuota.sorted { $0.key < $1.key }.map { ($0.key, JSON($0.value)) }))])
        }
        for r in reports {
            lines.append(["k": "report", "reporter": .string(r.reporter), "user": .string(r.user), "reason": .string(r.reason), "at": .int(r.at.ms)])
        }
        return lines
    }

    public mutating func restoreHot(_ l: JSONObject) throws(ToolError) {
        func strings(_ j: JSON?) -> [String] { (j?.array ?? []).compactMap(\.string) }
        guard let k = l["k"]?.string else { throw .data("bad snapshot line") }
        switch k {
        case "member":
            guard let u = l["user"]?.string else { throw .data("bad snapshot line") }
            members[u] = Habitmatch.Member(user: u, name: l["name"]?.string ?? u, email: l["email"]?.string,
                                           timezone: l["timezone"]?.string ?? "UTC", bio: l["bio"]?.string ?? "",
                                           habits: HabitmatchState.habits(l["habits"]), joinedAt: Instant(ms: l["joined"]?.int ?? 0),
                                           lastActive: Instant(ms: l["active"]?.int ?? 0))
        case "swipes":
            guard let u = l["user"]?.string else { throw .data("bad snapshot line") }
            var s: [String: Bool] = [:]
            for t in strings(l["liked"]) { s[t] = true }
            for t in strings(l["passed"]) { s[t] = false }
            rawSwipes[u] = nil
            swipeTable[u] = s
        case "accepts":
            if let u = l["user"]?.string { accepts[u] = Set(strings(l["v"])) }
        case "blocks":
            if let u = l["user"]?.string { blocks[u] = Set(strings(l["v"])) }
        case "chat":
            guard let p = l["pair"]?.string else { throw .data("bad snapshot line") }
            chats[p] = (l["v"]?.array ?? []).compactMap { x in
                guard let a = x.array, a.count == 3, let f = a[0].string, let t = a[1].string, let ms = a[2].int else { return nil }
                return (f, t, Instant(ms: ms))
            }
        case "done":
            if let u = l["user"]?.string, let h = l["habit"]?.string { done[u, default: [:]][h] = Set(strings(l["v"]).compactMap(Day.parse)) }
        case "amounts":
            if let u = l["user"]?.string, let h = l["habit"]?.string {
                var a: [Day: Double] = [:]
                for (k, v) in l["v"]?.object?.fields ?? [] { if let d = Day.parse(k), let x = v.double { a[d] = x } }
                amounts[u, default: [:]][h] = a
            }
        case "meeting", "cancelled":
            guard let id = l["id"]?.string, let o = l["organizer"]?.string, let w = l["with"]?.string, let tz = l["timezone"]?.string,
                  let start = l["start"]?.string.flatMap({ RFC3339.parse($0, allowLocal: true)?.local }) else { throw .data("bad snapshot line") }
            var m = Habitmatch.Meeting(id: id, organizer: o, attendee: w, start: start, timezone: tz, minutes: Int(l["minutes"]?.int ?? 30),
                                       weekly: l["weekly"]?.bool ?? false, description: l["description"]?.string ?? "",
                                       createdAt: Instant(ms: l["at"]?.int ?? 0))
            m.sequence = Int(l["seq"]?.int ?? 0)
            if k == "meeting" { meetings[id] = m } else { cancelled[id] = m }
        case "reminded":
            if let u = l["user"]?.string { reminded[u] = Set(strings(l["v"])) }
        case "parted":
            parted = Set(strings(l["v"]))
        case "private_at":
            for (k, v) in l["v"]?.object?.fields ?? [] { privateAt[k] = v.string }
        case "notices":
            for (k, v) in l["folders"]?.object?.fields ?? [] { pairFolders[k] = strings(v) }
            for (k, v) in l["opened"]?.object?.fields ?? [] { opened[k] = strings(v) }
            for (k, v) in l["announced"]?.object?.fields ?? [] { announced[k] = v.string }
            for (k, v) in l["live"]?.object?.fields ?? [] { live[k] = v.string }
            hiddenSent = Set(strings(l["hidden"]))
        case "quota":
            for (k, v) in l["kept"]?.object?.fields ?? [] { kept[k] = v.int.map { Int($0) } }
            for (k, v) in l["over"]?.object?.fields ?? [] { overQuota[k] = v.int.map { Int($0) } }
        case "report":
            if let r = l["reporter"]?.string, let u = l["user"]?.string, let why = l["reason"]?.string {
                reports.append(Habitmatch.Report(reporter: r, user: u, reason: why, at: Instant(ms: l["at"]?.int ?? 0)))
            }
        default:
            break
        }
    }
}
