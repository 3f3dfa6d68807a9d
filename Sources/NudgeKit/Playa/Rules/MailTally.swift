// What `contacted --mail` takes from a mailbox, decided over values: each
// recipient's last message from or to one of their addresses, and the
// messages left out. The reading is Core/Messages/MailHeaders.swift; the
// command (files, the store) is Commands/ContactCommands.swift.
//
// Invariants: an address several recipients have credits each of them; a
// message dated more than the contact lead ahead of now, or before 2000
// where you are, counts for nobody; the latest message wins, whatever the
// order the mailbox holds them in.

extension Playa {
    public struct MailTally: Equatable, Sendable {
        /// Lower-cased address → the recipients who have it.
        public let who: [String: Set<String>]
        public let now: Instant
        public let zone: Zone
        /// Recipient id → the time of their last message.
        public private(set) var latest: [String: Instant] = [:]
        public private(set) var read = 0
        public private(set) var undated = 0
        public private(set) var cut = 0

        /// The addresses of `recipients`: the e-mail platform's and those
        /// the address book gave (`emails`).
        public init(_ recipients: some Sequence<Recipient>, now: Instant, zone: Zone) {
            var who: [String: Set<String>] = [:]
            for r in recipients {
                for a in r.emails + [r.email].compactMap({ $0 }) { who[a.lowercased(), default: []].insert(r.id) }
            }
            self.who = who
            self.now = now
            self.zone = zone
        }

        public mutating func add(_ m: MailHeaders.Message) {
            read += 1
            if m.truncated { cut += 1 }
            guard let d = m.date, d.ms <= now.ms + contactLeadMillis, zone.day(of: d).year >= 2000 else { undated += 1; return }
            for a in m.from + m.to {
                for id in who[a] ?? [] where latest[id].map({ d > $0 }) ?? true { latest[id] = d }
            }
        }

        /// What is logged: each recipient's last message later than their
        /// last contact (`last`), earliest first, with an id from the
        /// recipient and the time (the same on every device).
        public func contacts(last: (String) -> Instant?) -> [(recipientID: String, at: Instant, id: String)] {
            latest.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
                .filter { e in last(e.key).map { e.value > $0 } ?? true }
                .map { ($0.key, $0.value, String(IDs.hex(StableHash.fnv1a("mail|\($0.key)|\($0.value.ms)"), digits: 16).suffix(12))) }
        }
    }
}
