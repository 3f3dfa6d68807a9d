// What `playa recipient import` does with each vCard, decided over values:
// a new recipient, an update of the one imported from the same card (or of
// the same name), nothing, or a skip with its reason. The reader is
// Core/Messages/VCard.swift; the command is Commands/CardCommands.swift.
//
// Invariants:
// - Importing the same cards again changes nothing; a card matches the
//   recipient holding its UID, else (cards without one, as Google's) the
//   recipient of its name. Nothing is ever added twice for one card.
// - An update changes only what the card says: the name (a card matched by
//   UID), the phone or e-mail the recipient's platform uses, the e-mail
//   addresses, and the card's dates (their reminder and messages stay). It
//   never changes a platform, a schedule, a pool, or removes a date.
// - A phone without a country code is read only with --country: a number
//   is never guessed into another country.

extension Playa {
    public static let maxCardEmails = 10

    public static func validateCardUID(_ s: String) -> String? {
        (1...255).contains(s.utf8.count) && !s.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            ? nil : "must be 1 to 255 bytes without control characters"
    }

    public struct CardOptions: Sendable {
        /// The platform of new recipients; nil: WhatsApp when the card has a phone, else e-mail.
        public var platform: Platform?
        /// The country calling code of numbers written without one (`44`).
        public var country: String?
        public var paused: Bool
        public init(platform: Platform? = nil, country: String? = nil, paused: Bool = false) {
            self.platform = platform
            self.country = country
            self.paused = paused
        }
    }

    public struct CardPlan: Sendable {
        public enum Outcome: Equatable, Sendable { case added, updated([String]), unchanged, skipped(String) }
        public var source: String
        public var card: VCard
        public var outcome: Outcome
        /// The recipient as it was (an update) and as it will be.
        public var was: Recipient?
        public var recipient: Recipient?
        /// What was left out of the card, and why (an unreadable date…).
        public var notes: [String] = []
    }

    /// A card's phone number in E.164: `+…` and `00…` as written, any other
    /// with `country`'s calling code (its trunk prefix dropped as
    /// `parseE164` drops it); nil and why when it cannot be read.
    public static func cardPhone(_ raw: String, country: String?) -> Result<PhoneNumber, ToolError> {
        var t = PhoneNumber.withoutTelScheme(raw).trimmingSpaces
        if t.hasPrefix("00") { t = "+" + t.dropFirst(2) }
        if t.hasPrefix("+") { return Result { () throws(ToolError) in try PhoneNumber.parseE164(t, what: "'\(raw)'") } }
        guard let cc = country else {
            return .failure(ToolError(.dataError, "'\(raw)' has no country code (+44…); --country CODE reads such numbers"))
        }
        if cc == "1" { return Result { () throws(ToolError) in try PhoneNumber.parseNANP(t, what: "'\(raw)'") } }
        return Result { () throws(ToolError) in try PhoneNumber.parseE164("+" + cc + " " + t, what: "'\(raw)'") }
    }

    /// `--country`: a calling code in use, with or without its `+`.
    public static func validateCountry(_ s: String) -> String? {
        let t = s.hasPrefix("+") ? String(s.dropFirst()) : s
        return PhoneNumber.countries[t] != nil || t == "1" ? nil : "--country takes a country calling code like 44 or +1, not '\(s)'"
    }

    /// What each card (with the file it came from) does to `state`, in
    /// order: later cards see what earlier ones add.
    public static func planCards(_ cards: [(VCard, String)], state: PlayaState, options: CardOptions,
                                 newID: () -> String, newSeed: () -> UInt64) -> [CardPlan] {
        var recipients = state.recipients
        // Indexes by card UID and by lower-cased name, kept as cards are planned.
        var idByCard: [String: String] = [:], idByName: [String: String] = [:]
        for r in recipients.values {
            if let c = r.card { idByCard[c] = r.id }
            idByName[r.name.lowercased()] = r.id
        }
        func keep(_ r: Recipient, was: Recipient?) {
            if let w = was {
                if let c = w.card, idByCard[c] == w.id { idByCard[c] = nil }
                if idByName[w.name.lowercased()] == w.id { idByName[w.name.lowercased()] = nil }
            }
            recipients[r.id] = r
            touched.insert(r.id)
            if let c = r.card { idByCard[c] = r.id }
            idByName[r.name.lowercased()] = r.id
        }
        var active = state.activeRecipients.count
        var touched = Set<String>()
        var plans: [CardPlan] = []
        let cc = options.country.map { $0.hasPrefix("+") ? String($0.dropFirst()) : $0 }
        for (read, source) in cards {
            var card = read
            var plan = CardPlan(source: source, card: card, outcome: .unchanged)
            // A UID playa cannot keep (control characters, over 255 bytes) is no UID.
            if let uid = card.uid, let e = validateCardUID(uid) {
                plan.notes.append("its UID is left out: a UID \(e)")
                card.uid = nil
            }
            func skip(_ why: String) {
                plan.outcome = .skipped(why)
                plan.notes.removeAll { $0 == "phone: " + why }
                plans.append(plan)
            }
            let name = card.name.trimmingSpaces
            if name.isEmpty { skip("the card has no name (FN, N or ORG)"); continue }
            if let e = validateName(name) { skip(e); continue }
            // The mobile number first, then the preferred, then as written.
            let ordered = card.phones.enumerated().sorted { a, b in
                (a.element.mobile ? 0 : 1, a.element.preferred ? 0 : 1, a.offset) < (b.element.mobile ? 0 : 1, b.element.preferred ? 0 : 1, b.offset)
            }.map(\.element)
            var phone: PhoneNumber? = nil
            var phoneProblem: String? = nil
            for p in ordered {
                switch cardPhone(p.value, country: cc) {
                case .success(let n): phone = n
                case .failure(let e): phoneProblem = phoneProblem ?? e.message
                }
                if phone != nil { break }
            }
            if phone == nil, let why = phoneProblem { plan.notes.append("phone: \(why)") }
            var emails: [String] = []
            for e in card.emails {
                if validateEmail(e) != nil { plan.notes.append("e-mail '\(e)' is not an address like ana@example.org"); continue }
                if emails.contains(where: { $0.lowercased() == e.lowercased() }) { continue }
                if emails.count == maxCardEmails { plan.notes.append("e-mail '\(e)' is left out: at most \(maxCardEmails) addresses are kept"); continue }
                emails.append(e)
            }
            var dates: [Occasion] = []
            for f in card.dates {
                var v = f.value.split(separator: "T", maxSplits: 1).first.map(String.init) ?? ""
                if v.utf8.count == 8, v.allSatisfy({ $0.isASCII && $0.isNumber }) {  // 19900314 as 1990-03-14
                    v = v.prefix(4) + "-" + v.dropFirst(4).prefix(2) + "-" + v.suffix(2)
                }
                // Apple's year to omit (1604) is outside what a date may have: read the rest.
                // A placeholder year is no year: Apple's 1604 (with or without
                // X-APPLE-OMIT-YEAR), and 1900 on a birthday (khard's advice for 3.0).
                let placeholder = [f.omitYear.map { String($0) }, "1604", f.label == "birthday" ? "1900" : nil].compactMap { $0 }
                let yearless = v.utf8.count == 10 && placeholder.contains { v.hasPrefix($0 + "-") }
                guard let (m, d, y) = yearless ? Occasion.parseDate("--" + v.dropFirst(5)) : Occasion.parseDate(v) else {
                    plan.notes.append("\(f.label) '\(f.value)' is not a date like 1990-03-14 or --03-14")
                    continue
                }
                let label = f.label.trimmingSpaces
                // The same date twice (Nextcloud's X-ABDATE and X-ANNIVERSARY): once.
                if dates.contains(where: { $0.label.lowercased() == label.lowercased() && ($0.month, $0.day, $0.year) == (m, d, y) }) { continue }
                if validateLabel(label) != nil || dates.contains(where: { $0.label.lowercased() == label.lowercased() }) {
                    plan.notes.append("the date '\(f.label)' is left out: its label is used twice or is not a label playa keeps")
                    continue
                }
                dates.append(Occasion(label: label, month: m, day: d, year: y))
            }
            // Which recipient the card is.
            let byCard = card.uid.flatMap { idByCard[$0] }.flatMap { recipients[$0] }
            let byName = idByName[name.lowercased()].flatMap { recipients[$0] }
            // A recipient linked to a card is updated by that card alone, and
            // by one card of an import: another of the same name is skipped.
            if let other = byCard ?? byName, touched.contains(other.id) {
                skip("another card in this import is the same recipient ('\(other.name)')"); continue
            }
            if byCard == nil, let other = byName, other.card != nil {
                skip("there is already a recipient named '\(other.name)', from another card"); continue
            }
            guard let had = byCard ?? byName else {
                let platform = options.platform ?? (!card.phones.isEmpty ? .whatsapp : !emails.isEmpty ? .email : nil)
                guard let p = platform else { skip(phoneProblem ?? "the card has no phone number or e-mail address"); continue }
                if p.address == .email && emails.isEmpty { skip("the card has no e-mail address for \(p.display)"); continue }
                if p.address != .email && phone == nil { skip(phoneProblem ?? "the card has no phone number for \(p.display)"); continue }
                if !options.paused && active >= maxRecipients {
                    skip("at most \(maxRecipients) active recipients; --paused adds the rest paused"); continue
                }
                var r = Recipient(id: newID(), name: name, platform: p, phone: p.address == .email ? nil : phone, username: nil,
                                  paused: options.paused, schedule: .random(1), messages: [], drawSeed: newSeed(),
                                  email: p.address == .email ? emails[0] : nil)
                r.card = card.uid
                r.emails = emails
                r.dates = Array(dates.prefix(Occasion.maxPerRecipient))
                if !r.paused { active += 1 }
                keep(r, was: nil)
                plan.outcome = .added
                plan.recipient = r
                plans.append(plan)
                continue
            }
            var r = had
            var changed: [String] = []
            if byCard != nil, r.name != name {
                if let other = idByName[name.lowercased()], other != r.id {
                    plan.notes.append("the name '\(name)' is another recipient's; the name stays '\(r.name)'")
                } else {
                    r.name = name
                    changed.append("name")
                }
            }
            if let p = phone, r.platform.address == .phone || (r.platform.address == .phoneOrUsername && r.username == nil), r.phone != p {
                r.phone = p
                changed.append("phone")
            }
            if r.platform.address == .email, let first = emails.first,
               !emails.contains(where: { $0.lowercased() == (r.email ?? "").lowercased() }) {
                r.email = first
                changed.append("email")
            }
            // The card's addresses: all gone from a card matched by UID empties them too.
            if r.emails != emails && (!emails.isEmpty || byCard != nil) {
                r.emails = emails
                changed.append("emails")
            }
            if r.card == nil, let uid = card.uid {
                r.card = uid
                changed.append("card")
            }
            for o in dates {
                if let i = r.dates.firstIndex(where: { $0.label.lowercased() == o.label.lowercased() }) {
                    guard (r.dates[i].month, r.dates[i].day, r.dates[i].year) != (o.month, o.day, o.year) else { continue }
                    (r.dates[i].month, r.dates[i].day, r.dates[i].year) = (o.month, o.day, o.year)
                } else if r.dates.count < Occasion.maxPerRecipient {
                    r.dates.append(o)
                } else {
                    plan.notes.append("\(r.name) already has \(Occasion.maxPerRecipient) dates; '\(o.label)' is left out")
                    continue
                }
                changed.append(o.label)
            }
            keep(r, was: had)
            plan.was = had
            plan.recipient = r
            plan.outcome = changed.isEmpty ? .unchanged : .updated(changed)
            plans.append(plan)
        }
        return plans
    }
}
