// habitmatch's commands: the declaration and thin handlers over the pure core.

extension Habitmatch {
    static let habitOp = OptionSpec("habit", value: "HABIT", help: "A catalog habit, or other:TEXT (up to 3)", repeatable: true)

    public static let spec = ToolSpec(
        name: "habitmatch",
        summary: "Habits on a calendar, and accountability buddies who share them, found by swiping.",
        commands: [
            CommandSpec("dashboard", summary: "Your habits this week, streaks, buddies, the next meeting, new likes", run: dashboard),
            CommandSpec("join", summary: "Join the pool with a profile and up to three habits",
                        options: [OptionSpec("name", value: "NAME", help: "Your name as others see it"),
                                  OptionSpec("email", value: "ADDR", help: "For calendar invitations"),
                                  OptionSpec("timezone", value: "TZ", help: "IANA zone (default the system's)"),
                                  OptionSpec("bio", value: "TEXT", help: "A line about you"), habitOp], group: .admin, run: join),
            CommandSpec("catalog", summary: "The habits to choose from", group: .admin, run: catalogCommand),
            CommandSpec("habit", summary: "Your habits",
                        subcommands: [
                            CommandSpec("list", summary: "List your habits with streaks", run: habitList),
                            CommandSpec("add", summary: "Add a habit (at most 3)", usage: "HABIT", operands: .words, min: 1, max: 1, run: habitAdd),
                            CommandSpec("rm", summary: "Drop a habit", usage: "HABIT", operands: .words, min: 1, max: 1, run: habitRemove),
                            CommandSpec("remind", summary: "Be reminded at HH:MM if the habit is not done (or 'off')", usage: "HABIT HH:MM",
                                        operands: .words, min: 2, max: 2, run: habitRemind),
                        ], group: .admin, run: habitList),
            CommandSpec("profile", summary: "Show a member's profile (default yours)", usage: "[USER]",
                        operands: .words, max: 1,
                        subcommands: [CommandSpec("set", summary: "Change your profile",
                                                  options: [OptionSpec("name", value: "NAME", help: "Your name"),
                                                            OptionSpec("email", value: "ADDR", help: "Your e-mail, or '' to remove it"),
                                                            OptionSpec("timezone", value: "TZ", help: "IANA zone"),
                                                            OptionSpec("bio", value: "TEXT", help: "A line about you")],
                                                  run: profileSet)],
                        group: .admin, run: profile),
            CommandSpec("candidates", summary: "Members who share a habit, best first",
                        options: [OptionSpec("limit", short: "n", value: "N", help: "How many (default 10)")], run: candidatesCommand),
            CommandSpec("like", summary: "Swipe right", usage: "USER", operands: .words, min: 1, max: 1,
                        run: { (c) throws(ToolError) in try swipe(c, c.operands[0], true) }),
            CommandSpec("pass", summary: "Swipe left", usage: "USER", operands: .words, min: 1, max: 1,
                        run: { (c) throws(ToolError) in try swipe(c, c.operands[0], false) }),
            CommandSpec("swipe", summary: "Swipe right or left", usage: "USER right|left", operands: .words, min: 2, max: 2, run: swipeCommand),
            CommandSpec("chat", summary: "Read or write to a match", usage: "USER [TEXT...]", operands: .words, min: 1, max: nil, run: chat),
            CommandSpec("buddy", summary: "Your buddies",
                        subcommands: [CommandSpec("accept", summary: "Accept a match as a buddy (both must)", usage: "USER",
                                                  operands: .words, min: 1, max: 1, run: buddyAccept)], run: buddyList),
            CommandSpec("done", summary: "Mark a habit done for a day", usage: "[HABIT]",
                        options: [OptionSpec("date", value: "DAY", help: "The day (default today)")], operands: .words, max: 1,
                        run: { (c) throws(ToolError) in try mark(c, true) }),
            CommandSpec("undo", summary: "Unmark a day", usage: "[HABIT]",
                        options: [OptionSpec("date", value: "DAY", help: "The day (default today)")], operands: .words, max: 1,
                        run: { (c) throws(ToolError) in try mark(c, false) }),
            CommandSpec("calendar", summary: "A month of progress", usage: "[HABIT]",
                        options: [OptionSpec("month", value: "YYYY-MM", help: "The month (default this one)"),
                                  OptionSpec("of", value: "USER", help: "A buddy's calendar")],
                        operands: .words, max: 1, run: calendar),
            CommandSpec("meet", summary: "Schedule a check-in (30 minutes at most) with a match or buddy", usage: "USER",
                        options: [OptionSpec("at", value: "TIME", help: "\"YYYY-MM-DD HH:MM\""),
                                  OptionSpec("tz", value: "ZONE", help: "The zone of --at (default yours)"),
                                  OptionSpec("minutes", value: "N", help: "1 to 30 (default 30)"),
                                  OptionSpec("weekly", help: "Every week"),
                                  OptionSpec("description", value: "TEXT", help: "Default: a check-in checklist")],
                        operands: .words, min: 1, max: 1, run: meet),
            CommandSpec("meetings", summary: "Upcoming meetings", options: [OptionSpec("ics", help: "Print an iCalendar file instead")],
                        subcommands: [
                            CommandSpec("cancel", summary: "Cancel a check-in (either of the two may)", usage: "ID", operands: .words, min: 1, max: 1, run: meetingCancel),
                            CommandSpec("move", summary: "Move a check-in to another time", usage: "ID",
                                        options: [OptionSpec("at", value: "TIME", help: "\"YYYY-MM-DD HH:MM\""),
                                                  OptionSpec("tz", value: "ZONE", help: "The zone of --at (default the meeting's)")],
                                        operands: .words, min: 1, max: 1, run: meetingMove),
                        ], run: meetingsCommand),
            CommandSpec("unmatch", summary: "Part ways with a match or buddy (no chat, no meetings, not offered again)", usage: "USER",
                        operands: .words, min: 1, max: 1, run: unmatch),
            CommandSpec("block", summary: "Never see a member again; what they write about you is ignored", usage: "USER",
                        operands: .words, min: 1, max: 1, run: block),
            CommandSpec("report", summary: "Tell the pool's owner about a member", usage: "USER REASON...",
                        operands: .words, min: 2, max: nil, run: report),
            CommandSpec("pool", summary: "The pool itself",
                        subcommands: [
                            CommandSpec("init", summary: "Make a pool folder with the right owners and modes", usage: "DIR",
                                        options: [OptionSpec("group", value: "GROUP", help: "The group whose logins are the members (host pool)"),
                                                  OptionSpec("synced", help: "A pool kept in step across machines by a sync engine")],
                                        operands: .words, min: 1, max: 1, run: poolInit),
                            CommandSpec("reports", summary: "Reports members made (the pool's owner only)", run: poolReports),
                        ], runnable: false, group: .admin),
            CommandSpec("remind", summary: "Notifications: habits not done yet, meetings soon, milestones, matches (for cron)", group: .plumbing, records: ["notification"], run: remind),
        ],
        defaultCommand: ["dashboard"],
        globals: [OptionSpec("user", value: "USER", help: "Your member name in a synced pool (env HABITMATCH_USER; default your login)"),
                  OptionSpec("pool", value: "DIR", help: "The shared pool (env HABITMATCH_POOL)", completion: .directories)],
        syncs: false,
        footer: "The pool is a folder the members share; each writes only their own journal in it."
    )

    static let configKeys = ["max_buddies"]

    /// A zone a user names in an option: a bad name is a usage error that
    /// names the option (an unknown TZ stays bad configuration).
    static func zoneOption(_ name: String, _ option: String) throws(ToolError) -> Zone {
        do throws(ToolError) { return try Zone.named(name) } catch {
            throw ToolError(.usage, "\(option) must be an IANA time zone like America/New_York, not '\(name)'")
        }
    }

    /// The data directory holds each member's private state folder (and the
    /// default pool): anyone who may write in it may replace them. Warned
    /// once, as the store warns about its own folder.
    static func warnIfOpen(_ dataDir: String) {
        guard case .directory(_, let mode)? = try? Sys.pathState(dataDir), mode & 0o002 != 0, mode & 0o1000 == 0 else { return }
        Store<HabitmatchState>.warnOnce("\(dataDir) is writable by everyone; fix: chmod 700 \(dataDir)")
    }

    static func at(_ ctx: Context) -> JSON { .string(ctx.clock.format(ctx.now)) }

    static func member(_ s: HabitmatchState, _ ctx: Context) throws(ToolError) -> Member {
        guard let m = s.members[me(ctx)] else {
            throw ToolError(.dataError, "\(me(ctx)) has not joined this pool yet: habitmatch join --name NAME --habit exercise")
        }
        return m
    }

    static func other(_ s: HabitmatchState, _ user: String) throws(ToolError) -> Member {
        let u = StoreOptions.sanitize(user)
        guard let m = s.members[u] else {
            throw ToolError(.dataError, "no member '\(user)' in this pool" + (Suggest.nearest(u, in: Array(s.members.keys)).map { " (did you mean '\($0)'?)" } ?? ""))
        }
        return m
    }

    static func today(_ m: Member, _ ctx: Context) -> Day { ((try? Zone.named(m.timezone)) ?? ctx.zone).day(of: ctx.now) }

    static func profileRecord(_ m: Member, _ s: HabitmatchState, today: Day, viewer: String, zone: Zone = .utc) -> JSONObject {
        var o: JSONObject = ["type": "member", "user": .string(m.user), "name": .string(m.name), "timezone": .string(m.timezone),
                             "bio": .string(m.bio), "joined": .string(zone.format(m.joinedAt)), "last_active": .string(zone.format(m.lastActive))]
        if viewer == m.user || s.isBuddy(viewer, m.user) { o["email"] = JSON(m.email) }
        o["habits"] = .array(m.habits.map { h in
            let st = streaks(s.doneDays(m.user, h.id), today: today)
            return .object(["id": .string(h.id), "name": .string(h.name), "remind_at": JSON(h.remindAt?.description),
                            "current_streak": JSON(st.current), "longest_streak": JSON(st.longest)])
        })
        return o
    }

    static func join(_ ctx: Context) throws(ToolError) -> ExitCode {
        guard let name = ctx.option("name")?.trimmingSpaces, !name.isEmpty else { throw .usage("join needs --name NAME") }
        let raws = ctx.invocation.all("habit")
        guard !raws.isEmpty else { throw .usage("join needs at least one --habit (see 'habitmatch catalog', or other:TEXT)") }
        var habits: [Habit] = []
        for r in raws {
            let h = try habit(r)
            if !habits.contains(where: { $0.id == h.id }) { habits.append(Habit(id: h.id, name: h.name, remindAt: nil)) }
        }
        guard habits.count <= maxHabits else { throw .usage("at most \(maxHabits) habits: fewer habits, kept, beat many dropped") }
        let tz = ctx.option("timezone") ?? ctx.zone.name
        _ = try zoneOption(tz, "--timezone")
        if let e = ctx.option("email"), validEmail(e) == nil { throw .usage("--email must be an address like ana@example.com") }
        guard validName(name) != nil else { throw .usage("--name must be 1 to 60 characters") }
        guard validBio(ctx.option("bio") ?? "") != nil else { throw .usage("--bio must be at most 280 characters") }
        guard validZone(tz) else { throw .usage("--timezone must be an IANA time zone like America/New_York, not '\(tz)'") }
        let user = me(ctx)
        var (m, s) = try write(ctx) { (tx) throws(ToolError) -> (Member, HabitmatchState) in
            if tx.state.members[user] != nil { throw ToolError(.dataError, "\(user) has already joined; use 'habitmatch profile set' and 'habit add'") }
            tx.record(["type": "joined", "name": .string(name), "timezone": .string(tz),
                       "bio": .string(ctx.option("bio") ?? ""), "habits": HabitmatchState.habitsJSON(habits)])
            return (tx.state.members[user] ?? Member(user: user, name: name, email: nil, timezone: tz, bio: "", habits: habits,
                                                     joinedAt: ctx.now, lastActive: ctx.now), tx.state)
        }
        // The e-mail goes to the file only the member and their buddies read.
        if let e = ctx.option("email") {
            (m, s) = try write(ctx, folder: "private") { (tx) throws(ToolError) -> (Member, HabitmatchState) in
                tx.record(["type": "profile", "email": .string(e)])
                return (tx.state.members[user] ?? m, tx.state)
            }
        }
        ctx.out.emit(profileRecord(m, s, today: today(m, ctx), viewer: user, zone: ctx.zone),
                     text: "Welcome, \(m.name.terminalSafe). Habits: \(m.habits.map(\.name).joined(separator: ", ").terminalSafe). Next: habitmatch candidates")
        return .ok
    }

    static func catalogCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        for c in catalog { ctx.out.emit(["type": "habit", "id": .string(c.id), "name": .string(c.name)], text: "\(c.id)\(String(repeating: " ", count: max(1, 14 - c.id.count)))\(c.name)") }
        if !ctx.out.isJSON { ctx.out.raw("or your own: --habit \"other:Practise drawing\"\n") }
        return .ok
    }

    static func habitList(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        let m = try member(s, ctx)
        let t = today(m, ctx)
        for h in m.habits {
            let st = streaks(s.doneDays(m.user, h.id), today: t)
            ctx.out.emit(["type": "habit", "id": .string(h.id), "name": .string(h.name), "remind_at": JSON(h.remindAt?.description),
                          "done_today": .bool(s.doneDays(m.user, h.id).contains(t)), "current_streak": JSON(st.current), "longest_streak": JSON(st.longest)],
                         text: "\(h.id.terminalSafe)  \(h.name.terminalSafe)  streak \(st.current) (best \(st.longest))\(h.remindAt.map { "  remind \($0)" } ?? "")")
        }
        return .ok
    }

    static func habitAdd(_ ctx: Context) throws(ToolError) -> ExitCode {
        let h = try habit(ctx.operands[0])
        try write(ctx) { (tx) throws(ToolError) in
            let m = try member(tx.state, ctx)
            if m.habitIDs.contains(h.id) { throw ToolError(.dataError, "you already have '\(h.name)'") }
            if m.habits.count >= maxHabits {
                throw ToolError(.dataError, "at most \(maxHabits) habits at once (you have \(m.habits.map(\.id).joined(separator: ", "))): drop one with 'habitmatch habit rm'")
            }
            tx.record(["type": "habit_added", "id": .string(h.id), "name": .string(h.name)])
        }
        ctx.out.emit(["type": "habit", "id": .string(h.id), "name": .string(h.name), "added": true], text: "Added \(h.name.terminalSafe)")
        return .ok
    }

    static func ownHabit(_ m: Member, _ raw: String?) throws(ToolError) -> Habit {
        guard let raw = raw else {
            guard m.habits.count == 1 else { throw .usage("which habit? one of: \(m.habits.map(\.id).joined(separator: ", "))") }
            return m.habits[0]
        }
        let id = (try? habit(raw).id) ?? raw
        guard let h = m.habits.first(where: { $0.id == id || $0.id == raw || $0.name.lowercased() == raw.lowercased() }) else {
            throw ToolError(.usage, "you have no habit '\(raw)'; yours: \(m.habits.map(\.id).joined(separator: ", "))")
        }
        return h
    }

    static func habitRemove(_ ctx: Context) throws(ToolError) -> ExitCode {
        let h = try write(ctx) { (tx) throws(ToolError) -> Habit in
            let h = try ownHabit(try member(tx.state, ctx), ctx.operands[0])
            tx.record(["type": "habit_removed", "id": .string(h.id)])
            return h
        }
        ctx.out.emit(["type": "habit", "id": .string(h.id), "name": .string(h.name), "removed": true], text: "Dropped \(h.name.terminalSafe)")
        return .ok
    }

    static func habitRemind(_ ctx: Context) throws(ToolError) -> ExitCode {
        let raw = ctx.operands[1]
        let time = raw == "off" ? nil : TimeOfDay.parse(raw)
        if raw != "off" && time == nil { throw .usage("the reminder time must be HH:MM like 20:00, or off") }
        let h = try write(ctx, folder: "self") { (tx) throws(ToolError) -> Habit in
            let h = try ownHabit(try member(tx.state, ctx), ctx.operands[0])
            tx.record(["type": "habit_remind", "id": .string(h.id), "time": JSON(time?.description)])
            return h
        }
        ctx.out.emit(["type": "habit", "id": .string(h.id), "name": .string(h.name), "remind_at": JSON(time?.description)],
                     text: time.map { "\(h.name.terminalSafe): reminder at \($0) on days it is not done" } ?? "\(h.name.terminalSafe): no reminder")
        return .ok
    }

    static func profile(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        let m = ctx.operands.isEmpty ? try member(s, ctx) : try other(s, ctx.operands[0])
        let r = profileRecord(m, s, today: today(m, ctx), viewer: me(ctx), zone: ctx.zone)
        ctx.out.emit(r, text: "\(m.name.terminalSafe) (\(m.user.terminalSafe)) · \(m.timezone.terminalSafe)\n  \(m.bio.terminalSafe)\n  habits: \(m.habits.map(\.name).joined(separator: ", ").terminalSafe)")
        return .ok
    }

    static func profileSet(_ ctx: Context) throws(ToolError) -> ExitCode {
        var e: JSONObject = ["type": "profile"]
        if let n = ctx.option("name") { guard let v = validName(n) else { throw .usage("--name must be 1 to 60 characters") }; e["name"] = .string(v) }
        var email: JSON? = nil
        if let em = ctx.option("email") {
            if !em.isEmpty && validEmail(em) == nil { throw .usage("--email must be an address like ana@example.com, or '' to remove it") }
            email = em.isEmpty ? .null : .string(em)
        }
        if let tz = ctx.option("timezone") {
            guard validZone(tz) else { throw .usage("--timezone must be an IANA time zone like America/New_York, not '\(tz)'") }
            e["timezone"] = .string(tz)
        }
        if let b = ctx.option("bio") { guard validBio(b) != nil else { throw .usage("--bio must be at most 280 characters") }; e["bio"] = .string(b) }
        guard e.keys.count > 1 || email != nil else { throw .usage("profile set needs --name, --email, --timezone or --bio") }
        var (m, s) = try write(ctx) { (tx) throws(ToolError) -> (Member, HabitmatchState) in
            let m = try member(tx.state, ctx)
            if e.keys.count > 1 { tx.record(e) }
            return (tx.state.members[m.user]!, tx.state)
        }
        if let em = email {
            (m, s) = try write(ctx, folder: "private") { (tx) throws(ToolError) -> (Member, HabitmatchState) in
                tx.record(["type": "profile", "email": em])
                return (tx.state.members[m.user]!, tx.state)
            }
        }
        ctx.out.emit(profileRecord(m, s, today: today(m, ctx), viewer: m.user, zone: ctx.zone), text: "Profile saved")
        return .ok
    }

    static func candidatesCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let limit = try ctx.option("limit").map { (s) throws(ToolError) in try ctx.int(s, option: "--limit", range: 1...1000) } ?? 10
        let s = try store(ctx).read()
        let m = try member(s, ctx)
        let u = m.user
        if s.members.count <= 1 {
            if !ctx.out.isJSON { ctx.out.raw("No user for now. Come back later\n") }
            return .ok
        }
        var cache: [String: Int] = [:]
        let now = ctx.now
        // Nobody who blocked you or whom you blocked, nobody you parted with.
        let pool = s.members.values.filter { !s.isBlocked(u, $0.user) && !s.parted.contains(HabitmatchState.pair(u, $0.user)) }
        let cs = candidates(for: m, in: Array(pool), liked: s.liked(by: u), passed: s.passed(by: u),
                            matched: s.matches(of: u), buddies: s.buddies(of: u), now: now,
                            zoneMinutes: { a, b in
                                if let v = cache[b] { return v }
                                let v = zoneDistance(a, b, at: now)
                                cache[b] = v
                                return v
                            })
        if cs.isEmpty && !ctx.out.isJSON { ctx.out.raw("No user for now. Come back later\n") }
        let names = Dictionary(uniqueKeysWithValues: catalog.map { ($0.id, $0.name) })
        for c in cs.prefix(limit) {
            let liker = s.swipes[c.member.user]?[u] == true
            let r: JSONObject = ["type": "candidate", "user": .string(c.member.user), "name": .string(c.member.name),
                                 "shared_habits": JSON(c.shared), "timezone": .string(c.member.timezone),
                                 "hours_apart": .double(Double(c.zoneMinutes) / 60), "last_active": .string(ctx.clock.format(c.member.lastActive)),
                                 "bio": .string(c.member.bio), "seen_before": .bool(c.passedBefore), "likes_you": .bool(liker)]
            ctx.out.emit(r, text: "\(c.member.user.terminalSafe)  \(c.member.name.terminalSafe) · shares \(c.shared.map { names[$0] ?? $0 }.joined(separator: ", ").terminalSafe) · \(c.member.timezone.terminalSafe)\(c.passedBefore ? " · seen before" : "")\n  \(c.member.bio.terminalSafe)")
        }
        return .ok
    }

    static func swipeCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        switch ctx.operands[1] {
        case "right": return try swipe(ctx, ctx.operands[0], true)
        case "left": return try swipe(ctx, ctx.operands[0], false)
        default: throw .usage("swipe takes right or left, not '\(ctx.operands[1])'")
        }
    }

    static func matchNotification(_ other: Member, _ me: String) -> JSONObject {
        NotificationRecord(tool: "habitmatch", id: "match-\(HabitmatchState.pair(me, other.user))", title: "It's a match: \(other.name)",
                           body: "You both want to keep it up. Say hello: habitmatch chat \(other.user) TEXT",
                           actions: [NotificationAction(id: "chat", label: "Chat", command: "habitmatch chat \(other.user)"),
                                     NotificationAction(id: "accept", label: "Make buddies", command: "habitmatch buddy accept \(other.user)")]).record
    }

    static func swipe(_ ctx: Context, _ target: String, _ right: Bool) throws(ToolError) -> ExitCode {
        let (o, matched) = try write(ctx) { (tx) throws(ToolError) -> (Member, Bool) in
            let m = try member(tx.state, ctx)
            let o = try other(tx.state, target)
            guard o.user != m.user else { throw .usage("you cannot swipe on yourself") }
            if tx.state.isBlocked(m.user, o.user) { throw ToolError(.noPermission, "no member '\(target)' you can see") }
            let wasMatch = tx.state.isMatch(m.user, o.user)
            if wasMatch && !right {
                throw ToolError(.usage, "\(o.user) is a match\(tx.state.isBuddy(m.user, o.user) ? " and a buddy" : ""); to part ways say so: habitmatch unmatch \(o.user)")
            }
            tx.record(["type": "swiped", "target": .string(o.user), "right": .bool(right)])
            let isMatch = tx.state.isMatch(m.user, o.user)
            return (o, isMatch && !wasMatch)
        }
        if matched {
            try write(ctx, folder: "self") { (tx) throws(ToolError) in tx.record(["type": "reminded", "key": .string("match|\(o.user)")]) }
        }
        let r: JSONObject = ["type": "swipe", "user": .string(o.user), "direction": .string(right ? "right" : "left"), "match": .bool(matched)]
        ctx.out.emit(r, text: right ? "Liked \(o.name.terminalSafe)" : "Passed on \(o.name.terminalSafe)")
        if matched { ctx.out.emit(matchNotification(o, me(ctx)), text: "It's a match with \(o.name.terminalSafe)! Say hello: habitmatch chat \(o.user.terminalSafe) TEXT") }
        return .ok
    }

    static func chat(_ ctx: Context) throws(ToolError) -> ExitCode {
        let text = ctx.operands.dropFirst().joined(separator: " ")
        let s = try store(ctx).read()
        let m = try member(s, ctx)
        let o = try other(s, ctx.operands[0])
        guard s.isMatch(m.user, o.user) else { throw ToolError(.noPermission, "you can chat only with a match; like \(o.user) and wait for them to like you back") }
        if !text.trimmingSpaces.isEmpty {
            guard text.count <= 1000 else { throw .usage("a chat message is at most 1000 characters") }
            try write(ctx, folder: try pairFolder(ctx, m.user, o.user)) { (tx) throws(ToolError) in
                tx.record(["type": "chat", "to": .string(o.user), "text": .string(text)])
            }
            ctx.out.emit(["type": "chat", "from": .string(m.user), "to": .string(o.user), "text": .string(text), "at": at(ctx)], text: "sent")
            return .ok
        }
        for line in s.chat(m.user, o.user) {
            ctx.out.emit(["type": "chat", "from": .string(line.from), "to": .string(line.from == m.user ? o.user : m.user),
                          "text": .string(line.text), "at": .string(ctx.clock.format(line.at))],
                         text: "\(ctx.zone.local(line.at).day) \(ctx.zone.local(line.at).time)  \(line.from.terminalSafe): \(line.text.terminalSafe)")
        }
        return .ok
    }

    static func buddyList(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        let m = try member(s, ctx)
        for b in s.buddies(of: m.user).sorted() {
            guard let o = s.members[b] else { continue }
            ctx.out.emit(["type": "buddy", "user": .string(o.user), "name": .string(o.name), "email": JSON(o.email), "timezone": .string(o.timezone)],
                         text: "\(o.user.terminalSafe)  \(o.name.terminalSafe) · \(o.timezone.terminalSafe)")
        }
        return .ok
    }

    static func maxBuddies(_ ctx: Context) throws(ToolError) -> Int {
        let c = try Config.load(directory: ctx.configDir, known: configKeys)
        guard let v = c["max_buddies"] else { return defaultMaxBuddies }
        guard let n = Int(v), (1...20).contains(n) else { throw ToolError(.config, "\(c.path): max_buddies must be 1 to 20") }
        return n
    }

    static func buddyAccept(_ ctx: Context) throws(ToolError) -> ExitCode {
        let cap = try maxBuddies(ctx)
        let (o, now) = try write(ctx) { (tx) throws(ToolError) -> (Member, Bool) in
            let m = try member(tx.state, ctx)
            let o = try other(tx.state, ctx.operands[0])
            guard tx.state.isMatch(m.user, o.user) else { throw ToolError(.noPermission, "\(o.user) is not a match yet: you both have to like each other first") }
            if tx.state.isBuddy(m.user, o.user) { return (o, true) }
            if tx.state.accepts[m.user]?.contains(o.user) == true { return (o, false) }
            // Buddies and accepts still waiting both count, on both sides.
            let mine = tx.state.commitments(of: m.user)
            guard mine < cap else { throw ToolError(.noPermission, "you already have \(mine) buddies or accepts waiting, the most allowed (\(cap)); a few real commitments work better than many") }
            tx.record(["type": "buddy_accept", "user": .string(o.user)])
            return (o, tx.state.isBuddy(m.user, o.user))
        }
        ctx.out.emit(["type": "buddy", "user": .string(o.user), "name": .string(o.name), "accepted": true, "buddies": .bool(now)],
                     text: now ? "You and \(o.name.terminalSafe) are buddies." : "Accepted. You become buddies when \(o.name.terminalSafe) accepts too.")
        return .ok
    }

    static func mark(_ ctx: Context, _ isDone: Bool) throws(ToolError) -> ExitCode {
        let (h, d, st) = try write(ctx, folder: "private") { (tx) throws(ToolError) -> (Habit, Day, (current: Int, longest: Int)) in
            let m = try member(tx.state, ctx)
            let h = try ownHabit(m, ctx.operands.first)
            let t = today(m, ctx)
            // "today" is the member's today, in their zone, as without --date.
            let d = try ctx.option("date").map { (s) throws(ToolError) -> Day in
                s == "today" ? t : s == "yesterday" ? t.adding(days: -1) : try ctx.day(s, option: "--date")
            } ?? t
            if d > t { throw .usage("--date cannot be in the future: today is \(t)") }
            let has = tx.state.doneDays(m.user, h.id).contains(d)
            if isDone != has { tx.record(["type": isDone ? "done" : "undone", "habit": .string(h.id), "date": .string(d.description)]) }
            return (h, d, streaks(tx.state.doneDays(m.user, h.id), today: t))
        }
        ctx.out.emit(["type": "progress", "habit": .string(h.id), "date": .string(d.description), "done": .bool(isDone),
                      "current_streak": JSON(st.current), "longest_streak": JSON(st.longest)],
                     text: "\(h.name.terminalSafe) \(isDone ? "done" : "not done") on \(d) · streak \(st.current) (best \(st.longest))")
        return .ok
    }

    static func calendar(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        let viewer = try member(s, ctx)
        var m = viewer
        if let u = ctx.option("of") {
            m = try other(s, u)
            guard m.user == viewer.user || s.isBuddy(viewer.user, m.user) else {
                throw ToolError(.noPermission, "only buddies may see each other's calendar; \(m.user) is not your buddy")
            }
        }
        let h = try ownHabit(m, ctx.operands.first)
        let t = today(m, ctx)
        var year = t.year, month = t.month
        if let mo = ctx.option("month") {
            guard let d = Day.parse(mo + "-01") else { throw .usage("--month must be YYYY-MM, not '\(mo)'") }
            year = d.year
            month = d.month
        }
        let days = s.doneDays(m.user, h.id)
        let st = streaks(days, today: t)
        if ctx.out.isJSON {
            for n in 1...Day.daysInMonth(year: year, month: month) {
                let d = Day(year: year, month: month, day: n)
                ctx.out.record(["type": "day", "user": .string(m.user), "habit": .string(h.id), "date": .string(d.description),
                                "done": .bool(days.contains(d)), "future": .bool(d > t)])
            }
            return .ok
        }
        let monthName = ReminderParser.months[month - 1].prefix(1).uppercased() + ReminderParser.months[month - 1].dropFirst()
        var out = "\(h.name.terminalSafe) — \(m.name.terminalSafe), \(monthName) \(year)\n Mo Tu We Th Fr Sa Su\n"
        for row in monthGrid(year: year, month: month) {
            for d in row {
                guard let d = d else { out += "   "; continue }
                let mark = days.contains(d) ? ctx.out.style(" ■", "32") : (d > t ? "  " : " ·")
                out += d == t ? (days.contains(d) ? ctx.out.style("[■", "1;32") : "[·") : mark
                out += String(repeating: " ", count: 1)
            }
            out += "\n"
        }
        out += "■ done  · not done   streak \(st.current), best \(st.longest)\n"
        ctx.out.raw(out)
        return .ok
    }

    static func meet(_ ctx: Context) throws(ToolError) -> ExitCode {
        guard let raw = ctx.option("at") else { throw .usage("meet needs --at \"YYYY-MM-DD HH:MM\"") }
        guard let p = RFC3339.parse(raw, allowLocal: true), p.offsetSeconds == nil else {
            throw .usage("--at must be a local time like \"2026-11-24 18:00\" (the zone comes from --tz)")
        }
        let minutes = try ctx.option("minutes").map { (s) throws(ToolError) in
            guard let n = Int(s), (1...maxMeetingMinutes).contains(n) else { throw ToolError.usage("--minutes must be 1 to \(maxMeetingMinutes): a check-in takes no longer than 30 minutes") }
            return n
        } ?? maxMeetingMinutes
        let description = ctx.option("description") ?? defaultChecklist
        guard description.count <= maxDescription else { throw .usage("--description is at most \(maxDescription) characters") }
        let s0 = try store(ctx).read()
        let o0 = try other(s0, ctx.operands[0])
        let (mt, names) = try write(ctx, folder: try pairFolder(ctx, me(ctx), o0.user)) { (tx) throws(ToolError) -> (Meeting, [String: String]) in
            let m = try member(tx.state, ctx)
            let o = try other(tx.state, ctx.operands[0])
            guard tx.state.isMatch(m.user, o.user) else { throw ToolError(.noPermission, "you can meet a match or a buddy; \(o.user) is neither yet") }
            let tz = ctx.option("tz") ?? m.timezone
            guard validZone(tz) else { throw .usage("--tz must be an IANA time zone like America/New_York, not '\(tz)'") }
            let zone = try Zone.named(tz)
            if zone.resolve(p.local) < ctx.now { throw .usage("--at is in the past") }
            let id = IDs.make()
            tx.record(["type": "meeting", "id": .string(id), "with": .string(o.user), "start": .string(p.local.description), "timezone": .string(tz),
                       "minutes": JSON(minutes), "weekly": .bool(ctx.flag("weekly")), "description": .string(description)])
            guard let made = tx.state.meetings[id] else { throw ToolError(.software, "internal error: the meeting was not recorded") }
            return (made, [m.user: m.name, o.user: o.name])
        }
        ctx.out.emit(meetingRecord(mt, names: names, ctx: ctx), text: "Check-in with \((names[mt.attendee] ?? mt.attendee).terminalSafe) on \(mt.start.day) at \(mt.start.time) (\(mt.timezone.terminalSafe))\(mt.weekly ? ", every week" : ""). Calendar: habitmatch meetings --ics")
        return .ok
    }

    /// A meeting of yours by id (or a unique prefix).
    static func myMeeting(_ s: HabitmatchState, _ u: String, _ raw: String) throws(ToolError) -> Meeting {
        let mine = s.meetings.values.filter { $0.organizer == u || $0.attendee == u }
        let hits = mine.filter { $0.id == raw || $0.id.hasPrefix(raw) }
        guard hits.count == 1, let m = hits.first else {
            throw ToolError(.dataError, hits.isEmpty ? "no meeting '\(raw)' of yours (habitmatch meetings lists them)" : "'\(raw)' matches \(hits.count) meetings; give more of the id")
        }
        return m
    }

    static func meetingCancel(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s0 = try store(ctx).read()
        let u = try member(s0, ctx).user
        let m0 = try myMeeting(s0, u, ctx.operands[0])
        let other = m0.organizer == u ? m0.attendee : m0.organizer
        try write(ctx, folder: try pairFolder(ctx, u, other)) { (tx) throws(ToolError) in
            tx.record(["type": "meeting_cancel", "id": .string(m0.id)])
        }
        ctx.out.emit(["type": "meeting", "id": .string(m0.id), "cancelled": true], text: "Cancelled the check-in \(m0.id) with \(other.terminalSafe)")
        return .ok
    }

    static func meetingMove(_ ctx: Context) throws(ToolError) -> ExitCode {
        guard let raw = ctx.option("at"), let p = RFC3339.parse(raw, allowLocal: true), p.offsetSeconds == nil else {
            throw .usage("meetings move needs --at \"YYYY-MM-DD HH:MM\" (a local time; the zone comes from --tz)")
        }
        let s0 = try store(ctx).read()
        let u = try member(s0, ctx).user
        let m0 = try myMeeting(s0, u, ctx.operands[0])
        let other = m0.organizer == u ? m0.attendee : m0.organizer
        let tz = ctx.option("tz") ?? m0.timezone
        guard validZone(tz) else { throw .usage("--tz must be an IANA time zone like America/New_York, not '\(tz)'") }
        if (try Zone.named(tz)).resolve(p.local) < ctx.now { throw .usage("--at is in the past") }
        let (mt, names) = try write(ctx, folder: try pairFolder(ctx, u, other)) { (tx) throws(ToolError) -> (Meeting, [String: String]) in
            tx.record(["type": "meeting_move", "id": .string(m0.id), "start": .string(p.local.description), "timezone": .string(tz)])
            return (tx.state.meetings[m0.id] ?? m0, tx.state.members.mapValues(\.name))
        }
        ctx.out.emit(meetingRecord(mt, names: names, ctx: ctx), text: "Moved the check-in with \((names[other] ?? other).terminalSafe) to \(mt.start.day) at \(mt.start.time) (\(mt.timezone.terminalSafe))")
        return .ok
    }

    static func meetingRecord(_ m: Meeting, names: [String: String], ctx: Context) -> JSONObject {
        let next = m.next(after: ctx.now)
        return ["type": "meeting", "id": .string(m.id), "organizer": .string(m.organizer), "with": .string(m.attendee),
                "start": .string(m.start.description), "timezone": .string(m.timezone), "minutes": JSON(m.minutes), "weekly": .bool(m.weekly),
                "next": JSON(next.map(ctx.zone.format)), "description": .string(m.description)]
    }

    static func myMeetings(_ s: HabitmatchState, _ u: String, now: Instant) -> [Meeting] {
        s.meetings.values.filter { ($0.organizer == u || $0.attendee == u) && $0.next(after: now) != nil }
            .sorted { ($0.next(after: now)!, $0.id) < ($1.next(after: now)!, $1.id) }
    }

    static func meetingsCommand(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        let m = try member(s, ctx)
        let list = myMeetings(s, m.user, now: ctx.now)
        let names = s.members.mapValues(\.name)
        if ctx.flag("ics") {
            var emails: [String: String] = [:]
            for x in list { for u in [x.organizer, x.attendee] { if let e = s.members[u]?.email { emails[u] = e } } }
            ctx.out.rawForced(Habitmatch.meetingsCalendar(list, emails: emails, names: names, now: ctx.now))
            return .ok
        }
        if list.isEmpty && !ctx.out.isJSON { ctx.out.raw("No meetings. Schedule one: habitmatch meet USER --at \"YYYY-MM-DD HH:MM\"\n") }
        for x in list {
            let other = x.organizer == m.user ? x.attendee : x.organizer
            let n = x.next(after: ctx.now)!
            ctx.out.emit(meetingRecord(x, names: names, ctx: ctx), text: "\(ctx.zone.local(n).day) \(ctx.zone.local(n).time)  \((names[other] ?? other).terminalSafe)  \(x.minutes) min\(x.weekly ? " weekly" : "")")
        }
        return .ok
    }

    /// What `remind` would say to `u` at `now`, with the keys that make each once.
    public static func reminders(_ s: HabitmatchState, user u: String, now: Instant) -> [(key: String, notification: JSONObject)] {
        guard let m = s.members[u] else { return [] }
        let zone = (try? Zone.named(m.timezone)) ?? .utc
        let today = zone.day(of: now)
        let seen = s.reminded[u] ?? []
        var out: [(String, JSONObject)] = []
        for v in s.matches(of: u).sorted() where !seen.contains("match|\(v)") {
            if let o = s.members[v] { out.append(("match|\(v)", matchNotification(o, u))) }
        }
        for h in m.habits {
            let days = s.doneDays(u, h.id)
            if let t = h.remindAt, !days.contains(today), zone.resolve(LocalDateTime(day: today, time: t)) <= now {
                let key = "habit|\(h.id)|\(today)"
                if !seen.contains(key) {
                    out.append((key, NotificationRecord(tool: "habitmatch", id: key, title: "\(h.name): not done yet today",
                                                        body: "Keep the streak going (\(streaks(days, today: today).current) so far).",
                                                        actions: [NotificationAction(id: "done", label: "Done", command: "habitmatch done \(h.id)")]).record))
                }
            }
            let st = streaks(days, today: today)
            for ms in milestones where st.current >= ms {
                let start = (days.contains(today) ? today : today.adding(days: -1)).adding(days: -(st.current - 1))
                let key = "milestone|\(h.id)|\(ms)|\(start)"
                if !seen.contains(key) {
                    out.append((key, NotificationRecord(tool: "habitmatch", id: key, title: "\(ms) days of \(h.name)!",
                                                        body: "A \(ms)-day streak. Tell your buddies.").record))
                }
            }
        }
        for mt in myMeetings(s, u, now: now) {
            // From 15 minutes before the start until its end: a late cron run still tells.
            guard let n = mt.next(after: now), n.ms - now.ms <= 15 * 60_000, n.ms + Int64(mt.minutes) * 60_000 > now.ms else { continue }
            let key = "meeting|\(mt.id)|\(n.ms)"
            if seen.contains(key) { continue }
            let other = mt.organizer == u ? mt.attendee : mt.organizer
            out.append((key, NotificationRecord(tool: "habitmatch", id: key, title: "Check-in with \(s.members[other]?.name ?? other) at \(zone.local(n).time)",
                                                body: mt.description, extra: ["starts": .string(zone.format(n))]).record))
        }
        return out
    }

    static func remind(_ ctx: Context) throws(ToolError) -> ExitCode {
        let u = me(ctx)
        guard try !reminders(store(ctx).read(), user: u, now: ctx.now).isEmpty else { return .ok }
        let list = try write(ctx, folder: "self") { (tx) throws(ToolError) -> [JSONObject] in
            _ = try member(tx.state, ctx)
            let rs = reminders(tx.state, user: u, now: ctx.now)
            for r in rs { tx.record(["type": "reminded", "key": .string(r.key)]) }
            return rs.map(\.notification)
        }
        for n in list { ctx.out.emit(n, text: "\((n["title"]?.string ?? "").terminalSafe): \((n["body"]?.string ?? "").terminalSafe)") }
        return .ok
    }

    static func dashboard(_ ctx: Context) throws(ToolError) -> ExitCode {
        let s = try store(ctx).read()
        guard let m = s.members[me(ctx)] else {
            if !ctx.out.isJSON { ctx.out.raw("Welcome to habitmatch. Join with up to three habits:\n  habitmatch join --name NAME --habit exercise --habit read\n  (habitmatch catalog lists them)\n") }
            return .ok
        }
        let t = today(m, ctx)
        let monday = t.adding(days: -((t.weekday + 6) % 7))
        var text = "\(m.name.terminalSafe) — week of \(monday)\n            Mo Tu We Th Fr Sa Su  streak\n"
        for h in m.habits {
            let days = s.doneDays(m.user, h.id)
            let st = streaks(days, today: t)
            let week = (0..<7).map { monday.adding(days: $0) }
            ctx.out.emit(["type": "habit", "id": .string(h.id), "name": .string(h.name),
                          "week": .array(week.map { .object(["date": .string($0.description), "done": .bool(days.contains($0))]) }),
                          "current_streak": JSON(st.current), "longest_streak": JSON(st.longest)], text: nil)
            let marks = week.map { d in days.contains(d) ? "■" : (d > t ? " " : "·") }.joined(separator: "  ")
            text += h.id.terminalSafe.padding(12) + marks + "   \(st.current) (best \(st.longest))\n"
        }
        let buddies = s.buddies(of: m.user).sorted()
        for b in buddies { ctx.out.emit(["type": "buddy", "user": .string(b), "name": .string(s.members[b]?.name ?? b)], text: nil) }
        text += "Buddies: " + (buddies.isEmpty ? "none yet (habitmatch candidates)" : buddies.map { s.members[$0]?.name ?? $0 }.joined(separator: ", ").terminalSafe) + "\n"
        if let mt = myMeetings(s, m.user, now: ctx.now).first, let n = mt.next(after: ctx.now) {
            let other = mt.organizer == m.user ? mt.attendee : mt.organizer
            ctx.out.emit(["type": "next_meeting", "id": .string(mt.id), "with": .string(other), "at": .string(ctx.zone.format(n))], text: nil)
            text += "Next meeting: \(ctx.zone.local(n).day) \(ctx.zone.local(n).time) with \((s.members[other]?.name ?? other).terminalSafe)\n"
        }
        let likers = s.members.keys.filter { s.swipes[$0]?[m.user] == true && s.swipes[m.user]?[$0] == nil }.sorted()
        let matches = s.matches(of: m.user).subtracting(buddies).sorted()
        for l in likers { ctx.out.emit(["type": "pending_like", "user": .string(l)], text: nil) }
        for x in matches { ctx.out.emit(["type": "match", "user": .string(x)], text: nil) }
        if !likers.isEmpty { text += "Liked you: \(likers.joined(separator: ", ").terminalSafe) (habitmatch like USER)\n" }
        if !matches.isEmpty { text += "Matches: \(matches.joined(separator: ", ").terminalSafe) (habitmatch chat USER, buddy accept USER)\n" }
        if !ctx.out.isJSON { ctx.out.raw(text) }
        return .ok
    }
}

extension String {
    func padding(_ n: Int) -> String { count >= n ? self + " " : self + String(repeating: " ", count: n - count) }
}
