// Phone numbers as a person or a peer writes them.
import NudgeKit

enum FuzzMessages {
    /// Every form: refused with an error, or a number that reads back as itself.
    static func phone(_ data: UnsafeRawBufferPointer) throws(FuzzFailure) {
        let s = FuzzTargets.text(data)
        for p in [try? PhoneNumber.parseNANP(s), try? PhoneNumber.parseUS(s), try? PhoneNumber.parseE164(s)] {
            guard let p = p else { continue }
            guard let again = try? PhoneNumber.parseE164(p.e164), again == p else {
                throw FuzzFailure("the number \(p.e164) read from '\(s)' does not read back")
            }
        }
        _ = PhoneNumber.withoutTelScheme(s)
    }
}

extension FuzzMessages {
    /// vCards as any address book (or an attacker) writes them: read, then
    /// planned into recipients; every recipient planned reads back from its
    /// JSON as itself, and nothing is planned twice for one recipient.
    static func vcard(_ data: UnsafeRawBufferPointer) throws(FuzzFailure) {
        let (cards, _) = VCardReader.parse(Array(data))
        var n = 0
        let plans = Playa.planCards(cards.map { ($0, "fuzz") }, state: PlayaState(full: true), options: Playa.CardOptions(country: "44"),
                                    newID: { n += 1; return "r\(n)" }, newSeed: { UInt64(n) })
        var ids = Set<String>()
        for p in plans {
            guard let r = p.recipient else { continue }
            guard ids.insert(r.id).inserted else { throw FuzzFailure("one recipient planned twice: \(r.id)") }
            guard let back = try? Playa.Recipient.from(r.json).get(), back == r else {
                throw FuzzFailure("the recipient planned from a card does not read back: \(r.json.serialized)")
            }
        }
    }

    /// Mail header blocks: addresses are lower-case with an @ and no space.
    static func mailHeaders(_ data: UnsafeRawBufferPointer) throws(FuzzFailure) {
        let m = MailHeaders.message(Array(data))
        for a in m.from + m.to where !a.contains("@") || a.contains(" ") || a != a.lowercased() {
            throw FuzzFailure("a malformed address read: '\(a)'")
        }
        if let d = m.date, !(d.ms > -100_000_000_000_000 && d.ms < 300_000_000_000_000) { throw FuzzFailure("a date out of range: \(d.ms)") }
    }
}
