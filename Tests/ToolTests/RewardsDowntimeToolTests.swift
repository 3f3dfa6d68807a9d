import XCTest

/// Downtime, limits by weekday, a parent's lock and bonus, and the child's
/// widget, as a parent and a status bar use them (Saturday 2026-11-21,
/// 20:00 in New York).
final class RewardsDowntimeToolTests: ToolTestCase {
    let now = "2026-11-21T20:00:00-05:00"

    override var baseEnvironment: [String: String] {
        var e = super.baseEnvironment
        e["REWARDS_DATA_DIR"] = dataDir
        e["REWARDS_NOW"] = now
        e["REWARDS_USER"] = "mum"
        e["TZ"] = "America/New_York"
        e["XDG_CONFIG_HOME"] = tmp + "/config"
        return e
    }

    /// As text; `records` with `json`.
    @discardableResult
    func rw(_ args: String..., as user: String = "mum", at: String? = nil, json: Bool = false) -> RunResult {
        run("rewards", args, env: ["REWARDS_USER": user, "REWARDS_NOW": at ?? now, "REWARDS_FORMAT": json ? "json" : "text"])
    }

    func setUpFamily() {
        XCTAssertEqual(rw("init").code, 0)
        XCTAssertEqual(rw("child", "add", "Alex", "--user", "alex").code, 0)
        XCTAssertEqual(rw("app", "set", "Minecraft", "--reward").code, 0)
        XCTAssertEqual(rw("adjust", "Alex", "+1000", "--reason", "start").code, 0)
    }

    func testDowntimeAndWeekdayLimitsAreSettingsAParentReads() {
        setUpFamily()
        XCTAssertEqual(rw("settings", "set", "downtime", "20:30-07:00").out, "downtime: off → 20:30-07:00\n")
        XCTAssertEqual(rw("settings", "set", "downtime_sat", "10pm-8am").out, "downtime_sat: default → 22:00-08:00\n")
        XCTAssertEqual(rw("settings", "set", "daily_reward_limit_minutes_sat", "30").out, "daily_reward_limit_minutes_sat: default → 30\n")
        let shown = rw("settings").out
        XCTAssertTrue(shown.contains("downtime                          20:30-07:00  ("), shown)
        XCTAssertTrue(shown.contains("downtime_sat                      22:00-08:00  ("), shown)
        XCTAssertFalse(shown.contains("downtime_sun"), "a weekday's key shows once it is set")
        XCTAssertFalse(shown.contains("locked_until"), "a lock is 'rewards lock''s")
        // Saturday's cap is Saturday's.
        let over = rw("redeem", "Alex", "40")
        XCTAssertEqual(over.code, 65)
        XCTAssertEqual(over.err, "rewards: the daily limit is 30 reward minutes and 0 are granted today; 30 minutes would be possible now\n")
        XCTAssertEqual(rw("redeem", "Alex", "40", at: "2026-11-22T09:00:00-05:00").code, 0, "Sunday's is every day's 120")
        // What is accepted, said; nothing stored.
        let cases: [([String], String)] = [
            (["downtime", "25:00-07:00"], "rewards: downtime is a span of the day like 20:30-07:00 or 8:30pm-7am (past midnight runs into the next day; an hour before 10 needs its zero or am/pm), or off, not '25:00-07:00'\n"),
            (["downtime", "20:00-20:00"], "rewards: downtime is a span of the day like 20:30-07:00 or 8:30pm-7am (past midnight runs into the next day; an hour before 10 needs its zero or am/pm), or off, not '20:00-20:00'\n"),
            (["downtime_fri", "late"], "rewards: downtime_fri is a span of the day like 20:30-07:00 or 8:30pm-7am (past midnight runs into the next day; an hour before 10 needs its zero or am/pm), or off, or default (as downtime), not 'late'\n"),
            (["daily_reward_limit_minutes_mon", "2000"], "rewards: daily_reward_limit_minutes_mon is reward minutes that may be granted on a Monday instead: a whole number from 0 to 1440, or default, not '2000'\n"),
            (["downtime", "8-7"], "rewards: downtime is a span of the day like 20:30-07:00 or 8:30pm-7am (past midnight runs into the next day; an hour before 10 needs its zero or am/pm), or off, not '8-7'\n"),
            (["locked_until", "0"], "rewards: locked_until is set by 'rewards lock CHILD' and 'rewards unlock CHILD'\n"),
            (["downtime_funday", "off"], "rewards: unknown setting 'downtime_funday' (did you mean 'downtime_sun'?); settings: "),
        ]
        for (args, err) in cases {
            let r = run("rewards", ["settings", "set"] + args, env: ["REWARDS_FORMAT": "text"])
            XCTAssertEqual(r.code, 64, args.joined(separator: " "))
            XCTAssertTrue(r.err.hasPrefix(err), r.err)
        }
        XCTAssertEqual(rw("settings", "set", "downtime_sat", "default").out, "downtime_sat: 22:00-08:00 → default\n")
        XCTAssertEqual(rw("settings", "set", "downtime", "off", "--child", "Alex").out, "downtime: 20:30-07:00 → off\n")
        let log = rw("log", "--type", "setting_set").out
        XCTAssertTrue(log.contains("mum updated downtime from off to 20:30-07:00"), log)
        XCTAssertTrue(log.contains("mum updated downtime_sat from 22:00-08:00 to default"), log)
    }

    /// `default` with --child takes the child's own value away (the
    /// family's applies again, on every copy); without it, a family key
    /// goes back to its documented default.
    func testDefaultTakesAChildsOwnValueAway() {
        setUpFamily()
        XCTAssertEqual(rw("settings", "set", "daily_reward_limit_minutes", "90").out, "daily_reward_limit_minutes: 120 → 90\n")
        XCTAssertEqual(rw("settings", "set", "daily_reward_limit_minutes", "30", "--child", "Alex").out, "daily_reward_limit_minutes: 90 → 30\n")
        XCTAssertEqual(rw("settings", "set", "downtime", "21:00-07:00", "--child", "Alex").code, 0)
        let back = rw("settings", "set", "daily_reward_limit_minutes", "default", "--child", "Alex", json: true)
        XCTAssertEqual(back.code, 0, back.err)
        XCTAssertEqual(back.records.first?["value"] as? Int, 90)
        XCTAssertEqual(back.records.first?["previous"] as? Int, 30)
        XCTAssertEqual(back.records.first?["own"] as? Bool, false)
        XCTAssertTrue(rw("settings", "--child", "Alex").out.contains("daily_reward_limit_minutes        90"), rw("settings", "--child", "Alex").out)
        // The family's later change reaches Alex now.
        rw("settings", "set", "daily_reward_limit_minutes", "45")
        XCTAssertTrue(rw("settings", "--child", "Alex").out.contains("daily_reward_limit_minutes        45"), rw("settings", "--child", "Alex").out)
        XCTAssertEqual(rw("settings", "set", "downtime", "default", "--child", "Alex").out, "downtime: 21:00-07:00 → off (the family's)\n")
        let again = rw("settings", "set", "downtime", "default", "--child", "Alex")
        XCTAssertEqual(again.code, 65)
        XCTAssertEqual(again.err, "rewards: Alex has no downtime of their own; the family's applies\n")
        XCTAssertEqual(rw("settings", "set", "daily_reward_limit_minutes", "default").out, "daily_reward_limit_minutes: 45 → 120\n")
        XCTAssertEqual(rw("settings", "set", "locked_until", "default").code, 64, "a lock is lifted with unlock")
        let log = rw("log", "--type", "setting_set").out
        XCTAssertTrue(log.contains("mum set daily_reward_limit_minutes for Alex back to the family's (90; it was 30)"), log)
        XCTAssertTrue(log.contains("mum set downtime for Alex back to the family's (off; it was 21:00-07:00)"), log)
    }

    func testALockABonusAndTheWidgetAChildSees() {
        setUpFamily()
        rw("settings", "set", "downtime", "21:30-07:00")
        XCTAssertEqual(rw("widget", "Alex").out, "🎮 0m · 🌙 21:30 · 1000 pts\n")
        let bonus = rw("bonus", "Alex", "30", "--reason", "tidied room")
        XCTAssertEqual(bonus.code, 0, bonus.err)
        XCTAssertEqual(bonus.out, "Alex: 30 bonus reward minutes today (tidied room); 'rewards enforce' hands them to the grant command\n")
        XCTAssertEqual(rw("widget", "Alex", as: "alex").out, "🎮 30m · 🌙 21:30 · 1000 pts\n", "the bonus cost no points")
        XCTAssertEqual(rw("bonus", "Alex", "30").code, 64, "a bonus says why")
        XCTAssertEqual(rw("bonus", "Alex", "10", "--reason", "x", as: "alex").code, 77, "a child gives no bonus")
        // Locked until 21:00: the widget, the allowance and the log say so.
        let lock = rw("lock", "Alex", "--until", "21:00")
        XCTAssertEqual(lock.out, "Alex: reward time locked until 2026-11-21T21:00:00-05:00; 'rewards enforce' ends reward apps on its next run\n")
        XCTAssertEqual(rw("widget", "Alex", as: "alex").out, "🔒 locked till 21:00\n")
        let bar = rw("widget", "Alex", "--style", "waybar", json: true).records[0]
        XCTAssertEqual(bar["class"] as? String, "locked")
        XCTAssertEqual(bar["tooltip"] as? String, "A parent paused reward time until 21:00.")
        let allowance = rw("allowance", "Alex")
        XCTAssertEqual(allowance.code, 1, "no reward time while locked")
        XCTAssertEqual(allowance.out, "Alex today: 30 min granted, 0 used, 30 left; locked until 2026-11-21T21:00:00-05:00\n")
        XCTAssertEqual(rw("widget", "Alex", at: "2026-11-21T21:05:00-05:00").out, "🎮 30m · 🌙 21:30 · 1000 pts\n", "a lock ends by itself")
        XCTAssertEqual(rw("widget", "Alex", "--style", "tmux", at: "2026-11-21T21:45:00-05:00").out, "#[fg=blue]🌙 downtime till Sun 07:00#[default]\n")
        XCTAssertEqual(rw("allowance", "Alex", at: "2026-11-21T21:45:00-05:00").code, 1, "none in downtime")
        // Until lifted, then lifted; lifting twice is refused.
        XCTAssertEqual(rw("lock", "Alex").out, "Alex: reward time locked until a parent unlocks it; 'rewards enforce' ends reward apps on its next run\n")
        XCTAssertEqual(rw("widget", "Alex", at: "2026-11-25T12:00:00-05:00").out, "🔒 locked\n")
        XCTAssertEqual(rw("unlock", "Alex").out, "Alex: unlocked\n")
        let twice = rw("unlock", "Alex")
        XCTAssertEqual(twice.code, 65)
        XCTAssertEqual(twice.err, "rewards: Alex's reward time is not locked\n")
        XCTAssertEqual(rw("lock", "Alex", "--for", "soon").err, "rewards: --for is a duration from 1m to 7d like 30m, 2h or 1d, not 'soon'\n")
        XCTAssertEqual(rw("lock", "Alex", "--for", "1h", "--until", "21:00").code, 64)
        XCTAssertEqual(rw("lock", "Alex", "--until", "2026-11-01T10:00:00-05:00").err,
                       "rewards: --until 2026-11-01T10:00:00-05:00 has passed: give a time like 18:00 or 6pm (the next one), or a date-time up to a year ahead like 2026-12-01T07:00:00-05:00; with neither option, until 'rewards unlock'\n")
        XCTAssertEqual(rw("lock", "Alex", "--until", "6").code, 64, "6 in the morning or the evening? asked to say")
        XCTAssertEqual(rw("lock", "Alex", as: "alex").code, 77, "a child lifts no lock, sets none")
        let log = rw("log").out
        XCTAssertTrue(log.contains("mum gave Alex 30 bonus reward minutes (tidied room)"), log)
        XCTAssertTrue(log.contains("mum locked Alex's reward time until 2026-11-21T21:00:00-05:00"), log)
        XCTAssertTrue(log.contains("mum locked Alex's reward time until lifted"), log)
        XCTAssertTrue(log.contains("mum lifted the lock on Alex's reward time"), log)
    }

    /// A child whose family is a folder elsewhere is told how to point at
    /// it, as text and beside empty JSON (it was nothing at all).
    func testAChildWithoutAFamilyIsToldHowToPointAtIt() {
        let text = rw("dashboard", as: "alex")
        XCTAssertEqual(text.code, 0)
        XCTAssertTrue(text.out.hasSuffix("A child or a second parent: a family on this computer is a folder its parent made: point at it with --family DIR, REWARDS_FAMILY=DIR, or 'family = DIR' in \(tmp)/config/rewards/config.\n"), text.out)
        let json = rw("dashboard", as: "alex", json: true)
        XCTAssertEqual(json.out, "")
        XCTAssertEqual(json.err, "rewards: no family here yet: a parent makes one with 'rewards init'; a family on this computer is a folder its parent made: point at it with --family DIR, REWARDS_FAMILY=DIR, or 'family = DIR' in \(tmp)/config/rewards/config\n")
        XCTAssertEqual(run("rewards", ["-q"], env: ["REWARDS_FORMAT": "json"]).err, "", "-q: nothing")
    }
}
