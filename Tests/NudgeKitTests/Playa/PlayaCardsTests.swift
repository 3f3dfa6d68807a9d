import XCTest
@testable import NudgeKit

/// vCards as address books write them (Google Contacts' and Apple Contacts'
/// exports, Android's 2.1 with quoted-printable names, khard's 4.0) read
/// into recipients; importing again updates and never duplicates.
final class PlayaCardsTests: XCTestCase {
    /// Google Contacts, "Export → vCard": 3.0, CRLF, folded at 75 octets,
    /// repeated TYPE parameters, a yearless birthday as --MM-DD, Apple-style
    /// labelled dates, no UID.
    static let google = [
        "BEGIN:VCARD", "VERSION:3.0", "FN:Ana Lima", "N:Lima;Ana;;;",
        "EMAIL;TYPE=INTERNET;TYPE=HOME:ana.lima@example.org",
        "TEL;TYPE=HOME:(415) 555-0199", "TEL;TYPE=CELL:+1 415-555-0132",
        "BDAY:--03-14", "item1.X-ABDATE:2015-06-20", "item1.X-ABLabel:_$!<Anniversary>!$_",
        "NOTE:Met at the climbing gym\\; likes long walks\\, tea.", "CATEGORIES:myContacts", "END:VCARD",
        "BEGIN:VCARD", "VERSION:3.0", "FN:Dr. Kwame Mensah-Boateng of the very long name that Google fol",
        " ds at seventy-five", "N:Mensah-Boateng;Kwame;;Dr.;", "TEL;TYPE=CELL:+233 24 123 4567", "END:VCARD",
    ].joined(separator: "\r\n") + "\r\n"

    /// Apple Contacts (macOS), "Export vCard": 3.0, lower-case types, a
    /// grouped preferred e-mail, a birthday without a year as 1604 with
    /// X-APPLE-OMIT-YEAR, X-ABUID.
    static let apple = [
        "BEGIN:VCARD", "VERSION:3.0", "PRODID:-//Apple Inc.//macOS 14.5//EN", "N:Okafor;Ben;;;", "FN:Ben Okafor",
        "item1.EMAIL;type=INTERNET;type=pref:ben@example.com", "item1.X-ABLabel:_$!<Other>!$_",
        "EMAIL;type=INTERNET;type=WORK:ben.okafor@work.example",
        "TEL;type=HOME;type=VOICE:020 7946 0018", "TEL;type=CELL;type=VOICE;type=pref:+44 7400 123456",
        "BDAY;X-APPLE-OMIT-YEAR=1604;VALUE=date:1604-07-02",
        "item2.X-ABDATE;type=pref:2012-09-08", "item2.X-ABLabel:name day",
        "X-ABUID:5AD380FD-B2DE-4261-BA99-DE1D1DB52FBE:ABPerson", "END:VCARD",
    ].joined(separator: "\r\n") + "\r\n"

    /// Android's export: 2.1, bare types, a quoted-printable UTF-8 name
    /// with a soft line break.
    static let android = [
        "BEGIN:VCARD", "VERSION:2.1",
        "N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:D=C3=B6rte;J=C3=BCrgen;;;",
        "FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:J=C3=BCrgen D=C3=",
        "=B6rte", "TEL;CELL;PREF:+49 151 23456789", "TEL;HOME:030 1234567", "END:VCARD",
    ].joined(separator: "\r\n") + "\r\n"

    /// khard with preferred_version = 4.0: tel: URIs, --MMDD, ANNIVERSARY.
    static let khard4 = [
        "BEGIN:VCARD", "VERSION:4.0", "UID:xx6qh8r6eiv6jfj19ow0rbtwdtxw0iogq4qq", "ANNIVERSARY:20100612", "BDAY:--0521",
        "EMAIL;TYPE=home:chloe@example.fr", "FN:Chloé Martin", "N:Martin;Chloé;;;", "REV:20261129T101911Z",
        "TEL;TYPE=cell;VALUE=uri:tel:+33 6 12 34 56 78", "TEL;TYPE=home;VALUE=uri:tel:01 23 45 67 89", "END:VCARD",
    ].joined(separator: "\r\n") + "\r\n"

    func cards(_ s: String) -> [VCard] {
        let (c, problems) = VCardReader.parse(Array(s.utf8))
        XCTAssertEqual(problems, [])
        return c
    }

    func testReadingWhatEachAddressBookWrites() {
        let g = cards(Self.google)
        XCTAssertEqual(g.map(\.name), ["Ana Lima", "Dr. Kwame Mensah-Boateng of the very long name that Google folds at seventy-five"])
        XCTAssertNil(g[0].uid)
        XCTAssertEqual(g[0].phones.map(\.value), ["(415) 555-0199", "+1 415-555-0132"])
        XCTAssertTrue(g[0].phones[1].mobile)
        XCTAssertEqual(g[0].emails, ["ana.lima@example.org"])
        XCTAssertEqual(g[0].dates, [VCard.DateField(label: "birthday", value: "--03-14"), VCard.DateField(label: "anniversary", value: "2015-06-20")])

        let a = cards(Self.apple)[0]
        XCTAssertEqual(a.uid, "5AD380FD-B2DE-4261-BA99-DE1D1DB52FBE:ABPerson")
        XCTAssertEqual(a.emails, ["ben@example.com", "ben.okafor@work.example"])
        XCTAssertTrue(a.phones[1].mobile && a.phones[1].preferred)
        XCTAssertEqual(a.dates, [VCard.DateField(label: "birthday", value: "1604-07-02", omitYear: 1604), VCard.DateField(label: "name day", value: "2012-09-08")])

        // Latin-1 (said), quoted-printable Latin-1, and UTF-16 with its mark.
        let latin: [UInt8] = Array("BEGIN:VCARD\nVERSION:2.1\nN;CHARSET=ISO-8859-1:M".utf8) + [0xFC] + Array("ller;Zo".utf8) + [0xEB] + Array(";;;\nEND:VCARD\n".utf8)
        let (lc, lp) = VCardReader.parse(latin)
        XCTAssertEqual(lc.map(\.name), ["Zoë Müller"])
        XCTAssertEqual(lp.map(\.message), ["not UTF-8: read as Latin-1 (ISO-8859-1)"])
        XCTAssertEqual(cards("BEGIN:VCARD\nFN;CHARSET=ISO-8859-1;ENCODING=QUOTED-PRINTABLE:Zo=EB\nEND:VCARD\n").map(\.name), ["Zoë"])
        // One bad line does not make the rest of a UTF-8 file Latin-1.
        let mixed: [UInt8] = Array("BEGIN:VCARD\nFN:José Müller\nEND:VCARD\nBEGIN:VCARD\nFN:Zo".utf8) + [0xEB] + Array("\nEND:VCARD\n".utf8)
        let (mc, mp) = VCardReader.parse(mixed)
        XCTAssertEqual(mc.map(\.name), ["José Müller", "Zoë"])
        XCTAssertEqual(mp.map(\.line), [5])
        let u16: [UInt8] = [0xFF, 0xFE] + "BEGIN:VCARD\r\nFN:Łukasz\r\nEND:VCARD\r\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        XCTAssertEqual(VCardReader.parse(u16).0.map(\.name), ["Łukasz"])

        // Dates under other names: Android's events, Outlook's and Evolution's
        // anniversaries; a card of an address alone is named by it.
        let others = cards("""
            BEGIN:VCARD
            VERSION:2.1
            FN:Panos
            X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;Panos;1;;;;;;;;;;;;;
            X-ANDROID-CUSTOM:vnd.android.cursor.item/contact_event;2012-09-29;1;;;;;;;;;;;;;
            X-ANDROID-CUSTOM:vnd.android.cursor.item/contact_event;--08-15;0;Name day;;;;;;;;;;;;
            X-MS-ANNIVERSARY:20090613
            X-EVOLUTION-ANNIVERSARY:2009-07-25
            END:VCARD
            BEGIN:VCARD
            VERSION:4.0
            EMAIL;PREF=1:chidi.okafor@example.net
            END:VCARD

            """)
        XCTAssertEqual(others[0].dates.map(\.label), ["anniversary", "Name day", "anniversary", "anniversary"])
        XCTAssertEqual(others[1].name, "chidi.okafor@example.net")

        let d = cards(Self.android)[0]
        XCTAssertEqual(d.name, "Jürgen Dörte")
        XCTAssertEqual(d.phones.first?.types, ["cell", "pref"])

        let k = cards(Self.khard4)[0]
        XCTAssertEqual(k.name, "Chloé Martin")
        XCTAssertEqual(k.phones.first?.value, "tel:+33 6 12 34 56 78")

        // A card with only N, one with only ORG; text outside cards is not read.
        let n = cards("junk before\nBEGIN:VCARD\nN:Silva;Rita;Maria;;\nEND:VCARD\nBEGIN:VCARD\nORG:Bakery;Front\nEND:VCARD\n")
        XCTAssertEqual(n.map(\.name), ["Rita Maria Silva", "Bakery"])
        XCTAssertEqual(VCardReader.parse(Array("hello".utf8)).1.map(\.message), ["no vCard in it (BEGIN:VCARD … END:VCARD)"])
        XCTAssertEqual(VCardReader.parse(Array("BEGIN:VCARD\nFN:A\n".utf8)).1.map(\.message), ["BEGIN:VCARD is never closed"])
    }

    func plan(_ text: String, _ state: PlayaState, _ options: Playa.CardOptions = .init()) -> [Playa.CardPlan] {
        var n = 0
        return Playa.planCards(cards(text).map { ($0, "x.vcf") }, state: state, options: options,
                               newID: { n += 1; return "r\(n)" }, newSeed: { UInt64(n) })
    }

    func outcomes(_ p: [Playa.CardPlan]) -> [Playa.CardPlan.Outcome] { p.map(\.outcome) }

    func apply(_ plans: [Playa.CardPlan], to s: inout PlayaState) {
        for p in plans { if let r = p.recipient { s.apply(["type": "recipient_saved", "recipient": .object(r.json)]) } }
    }

    func testImportingAddsThenUpdatesNeverDuplicates() {
        var s = PlayaState(full: true)
        let all = Self.google + Self.apple + Self.android + Self.khard4
        let first = plan(all, s, .init(country: "44"))
        XCTAssertEqual(outcomes(first), [.added, .added, .added, .added, .added])
        let byName = Dictionary(uniqueKeysWithValues: first.compactMap(\.recipient).map { ($0.name, $0) })
        XCTAssertEqual(byName["Ana Lima"]?.phone?.e164, "+14155550132", "the mobile number, not the first")
        XCTAssertEqual(byName["Ana Lima"]?.platform, .whatsapp)
        XCTAssertEqual(byName["Ana Lima"]?.dates.map(\.dateText), ["--03-14", "2015-06-20"])
        XCTAssertEqual(byName["Ben Okafor"]?.phone?.e164, "+447400123456")
        XCTAssertEqual(byName["Ben Okafor"]?.dates.map(\.dateText), ["--07-02", "2012-09-08"], "Apple's 1604 is no year")
        XCTAssertEqual(byName["Ben Okafor"]?.emails, ["ben@example.com", "ben.okafor@work.example"])
        XCTAssertEqual(byName["Jürgen Dörte"]?.phone?.e164, "+4915123456789")
        XCTAssertEqual(byName["Chloé Martin"]?.phone?.e164, "+33612345678")
        XCTAssertEqual(byName["Chloé Martin"]?.card, "xx6qh8r6eiv6jfj19ow0rbtwdtxw0iogq4qq")
        apply(first, to: &s)

        // The same cards again: nothing changes.
        XCTAssertEqual(outcomes(plan(all, s, .init(country: "44"))), [.unchanged, .unchanged, .unchanged, .unchanged, .unchanged])

        // The address book changed: a new number, a birthday moved, a
        // renamed card (same UID): updated in place, pool and schedule kept.
        var ben = s.recipients.values.first { $0.name == "Ben Okafor" }!
        ben.messages = [Playa.Message(id: "m1", text: "Pint?")]
        ben.schedule = .random(3)
        s.apply(["type": "recipient_saved", "recipient": .object(ben.json)])
        let changed = Self.apple.replacingOccurrences(of: "+44 7400 123456", with: "+44 7400 999888")
            .replacingOccurrences(of: "1604-07-02", with: "1604-07-03").replacingOccurrences(of: "FN:Ben Okafor", with: "FN:Benjamin Okafor")
        let again = plan(changed, s)
        XCTAssertEqual(outcomes(again), [.updated(["name", "phone", "birthday"])])
        let after = again[0].recipient!
        XCTAssertEqual(after.id, ben.id)
        XCTAssertEqual(after.name, "Benjamin Okafor")
        XCTAssertEqual(after.phone?.e164, "+447400999888")
        XCTAssertEqual(after.messages, ben.messages)
        XCTAssertEqual(after.schedule, .random(3))
        XCTAssertEqual(after.dates.first?.dateText, "--07-03")
        // Every address gone from a card matched by UID: none kept.
        apply(again, to: &s)
        let noMail = changed.replacingOccurrences(of: "item1.EMAIL;type=INTERNET;type=pref:ben@example.com\r\n", with: "")
            .replacingOccurrences(of: "EMAIL;type=INTERNET;type=WORK:ben.okafor@work.example\r\n", with: "")
        XCTAssertEqual(plan(noMail, s).first?.recipient?.emails, [])
    }

    func testWhatIsSkippedAndWhy() {
        var s = PlayaState(full: true)
        // Without --country a national number is never guessed.
        let noCountry = plan(Self.apple.replacingOccurrences(of: "+44 7400 123456", with: "07400 123456"), s)
        XCTAssertEqual(outcomes(noCountry), [.skipped("'07400 123456' has no country code (+44…); --country CODE reads such numbers")])
        XCTAssertEqual(noCountry[0].notes, [])
        // With it, the trunk 0 goes.
        XCTAssertEqual(plan(Self.apple.replacingOccurrences(of: "+44 7400 123456", with: "07400 123456"), s, .init(country: "+44"))[0].recipient?.phone?.e164,
                       "+447400123456")
        // The mobile number over a preferred landline.
        XCTAssertEqual(plan("BEGIN:VCARD\nFN:Landline Larry\nTEL;TYPE=HOME;TYPE=pref:+1 415 555 0199\nTEL;TYPE=CELL:+1 415-555-0132\nEND:VCARD\n", s)[0]
            .recipient?.phone?.e164, "+14155550132")
        // E-mail only: an e-mail recipient; --platform sms: skipped, naming why.
        let mailOnly = "BEGIN:VCARD\nFN:Rita\nEMAIL:rita@example.org\nEND:VCARD\n"
        XCTAssertEqual(plan(mailOnly, s)[0].recipient?.platform, .email)
        XCTAssertEqual(outcomes(plan(mailOnly, s, .init(platform: .sms))), [.skipped("the card has no phone number for SMS")])
        XCTAssertEqual(outcomes(plan("BEGIN:VCARD\nTEL:+14155550132\nEND:VCARD\n", s)), [.skipped("the card has no name (FN, N or ORG)")])
        // Another card of the same name: not merged into someone else.
        apply(plan(Self.khard4, s), to: &s)
        let twin = Self.khard4.replacingOccurrences(of: "UID:xx6q", with: "UID:zz6q")
        XCTAssertEqual(outcomes(plan(twin, s)), [.skipped("there is already a recipient named 'Chloé Martin', from another card")])
        // A card without a UID does not update the recipient another card
        // brought in, and two cards of one name in one import: the first only.
        let noUID = Self.khard4.replacingOccurrences(of: "UID:xx6qh8r6eiv6jfj19ow0rbtwdtxw0iogq4qq\r\n", with: "")
        XCTAssertEqual(outcomes(plan(noUID, s)), [.skipped("there is already a recipient named 'Chloé Martin', from another card")])
        let twice = "BEGIN:VCARD\nFN:Ben\nTEL:+14155550199\nEND:VCARD\nBEGIN:VCARD\nFN:BEN\nTEL:+14155550111\nEND:VCARD\n"
        XCTAssertEqual(outcomes(plan(twice, s)), [.added, .skipped("another card in this import is the same recipient ('Ben')")])
        // Placeholder years: Apple's 1604 without its marker, 1900 on a birthday.
        let placeholders = plan("BEGIN:VCARD\nFN:Old Pal\nTEL:+14155550134\nBDAY:1900-05-06\nitem1.X-ABDATE:1604-09-09\nitem1.X-ABLabel:met\nEND:VCARD\n", s)
        XCTAssertEqual(placeholders[0].recipient?.dates.map(\.dateText), ["--05-06", "--09-09"])
        let basic = plan("BEGIN:VCARD\nFN:Old Pal 2\nTEL:+14155550135\nBDAY:19000506\nANNIVERSARY;X-APPLE-OMIT-YEAR=1604:16040909\nEND:VCARD\n", s)
        XCTAssertEqual(basic[0].recipient?.dates.map(\.dateText), ["--05-06", "--09-09"], "in basic format too")
        // An unreadable birthday is left out and said; the card still comes in.
        let odd = plan("BEGIN:VCARD\nFN:Old Friend\nTEL:+14155550133\nBDAY;VALUE=text:circa 1960\nEND:VCARD\n", s)
        XCTAssertEqual(odd[0].outcome, .added)
        XCTAssertEqual(odd[0].notes, ["birthday 'circa 1960' is not a date like 1990-03-14 or --03-14"])
        // The active limit: the rest are skipped unless added paused.
        var full = PlayaState(full: true)
        let many = (0..<(Playa.maxRecipients + 2)).map { "BEGIN:VCARD\nFN:P\($0)\nTEL:+1415555\(String(1000 + $0))\nEND:VCARD\n" }.joined()
        let limited = plan(many, full)
        XCTAssertEqual(limited.filter { $0.outcome == .added }.count, Playa.maxRecipients)
        XCTAssertEqual(limited.last?.outcome, .skipped("at most \(Playa.maxRecipients) active recipients; --paused adds the rest paused"))
        let paused = plan(many, full, .init(paused: true))
        XCTAssertTrue(paused.allSatisfy { $0.outcome == .added && $0.recipient?.paused == true })
        apply(paused, to: &full)
        XCTAssertEqual(full.recipients.count, Playa.maxRecipients + 2)
    }

    /// Over random address books (names, phones in every form, e-mail,
    /// dates, UIDs or none, folded and CRLF or LF): importing twice leaves
    /// the second import unchanged, never a duplicate, and every recipient's
    /// JSON reads back as itself.
    func testRandomAddressBooksImportOnce() {
        var g = SeededRandom(seed: 0xCA4D)
        for _ in 0..<60 {
            var text = ""
            let n = Int.random(in: 1...8, using: &g)
            var used = Set<String>()
            for i in 0..<n {
                var name = ["Ana", "Bo", "Cy", "Dee", "Éva", "李雷", "O'Neil"].randomElement(using: &g)! + " \(i)"
                if !used.insert(name.lowercased()).inserted { name += "x" }
                var lines = ["BEGIN:VCARD", "VERSION:" + ["3.0", "4.0"].randomElement(using: &g)!]
                if Bool.random(using: &g) { lines.append("UID:u\(i)-\(Int.random(in: 0..<1000, using: &g))") }
                lines.append("FN:" + name)
                let digits = String(Int.random(in: 2_000_000...9_999_999, using: &g))
                switch Int.random(in: 0..<4, using: &g) {
                case 0: lines.append("TEL;TYPE=cell:+1 415 555 " + digits.suffix(4))
                case 1: lines.append("TEL;TYPE=cell;VALUE=uri:tel:+44-7400-" + digits.suffix(6))
                case 2: lines.append("TEL:0049 151 2" + digits)
                default: lines.append("EMAIL:p\(i)@example.org")
                }
                if Bool.random(using: &g) { lines.append("BDAY:" + ["1990-03-14", "--0229", "19851231", "--12-01"].randomElement(using: &g)!) }
                lines.append("END:VCARD")
                var card = lines.joined(separator: "\n") + "\n"
                if Bool.random(using: &g) { card = card.replacingOccurrences(of: "\n", with: "\r\n") }
                if Bool.random(using: &g), card.count > 40 {  // fold somewhere inside a line
                    let at = card.index(card.startIndex, offsetBy: 30)
                    if card[at] != "\n" && card[at] != "\r" && card[card.index(before: at)] != "\n" { card.insert(contentsOf: "\r\n ", at: at) }
                }
                text += card
            }
            var s = PlayaState(full: true)
            let first = plan(text, s)
            XCTAssertTrue(first.allSatisfy { if case .skipped = $0.outcome { return false }; return true }, text)
            apply(first, to: &s)
            XCTAssertEqual(s.recipients.count, n, text)
            XCTAssertTrue(plan(text, s).allSatisfy { $0.outcome == .unchanged }, text)
            for r in s.recipients.values {
                XCTAssertEqual(try? Playa.Recipient.from(r.json).get(), r, text)
            }
            var back = PlayaState(full: true)
            for l in s.hotSnapshot() { try? back.restoreHot(JSON.parse(l.serialized).object!) }
            XCTAssertEqual(back.recipients, s.recipients, "card and emails survive the snapshot")
        }
    }

    /// Random bytes and mangled cards: never a crash.
    func testMangledInputNeverCrashes() {
        var g = SeededRandom(seed: 77)
        let pieces = ["BEGIN:VCARD", "END:VCARD", "FN:", "N:;;;", ";", ":", "=", "\"", "\\", "TEL;", "ENCODING=QUOTED-PRINTABLE:", "=C3", "\r\n", "\n", " ", "item1.", "X-ABLabel:", "BDAY:", "é"]
        for _ in 0..<300 {
            let s = (0..<Int.random(in: 0...40, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
            let (cards, _) = VCardReader.parse(Array(s.utf8))
            _ = Playa.planCards(cards.map { ($0, "f") }, state: PlayaState(full: true), options: .init(country: "1"), newID: { "x" }, newSeed: { 1 })
        }
    }

    /// `contacted --mail`'s decisions without a disk: the latest message
    /// per recipient whatever the mailbox's order, a shared address credits
    /// each who has it, implausible dates count for nobody, and only what
    /// is later than the log is logged, with the same id on every device.
    func testMailTally() {
        let zone = try! Zone.named("America/New_York")
        let now = Instant(seconds: 1_795_446_000)  // 2026-11-23T10:00:00-05:00
        var a = Playa.Recipient(id: "a", name: "Ana", platform: .whatsapp, phone: try! PhoneNumber.parseE164("+14155550132"), username: nil,
                                paused: false, schedule: .random(1), messages: [])
        a.emails = ["ana@example.org", "family@example.org"]
        let b = Playa.Recipient(id: "b", name: "Bo", platform: .email, phone: nil, username: nil, paused: false, schedule: .random(1), messages: [],
                                email: "Family@Example.org")
        func m(_ from: [String], _ to: [String], _ at: Int64?) -> MailHeaders.Message {
            MailHeaders.Message(date: at.map { Instant(seconds: now.seconds + $0) }, from: from, to: to)
        }
        var t = Playa.MailTally([a, b], now: now, zone: zone)
        t.add(m(["me@x.org"], ["ana@example.org"], -3600))
        t.add(m(["ana@example.org"], ["me@x.org"], -7200))  // earlier, after: the later one stays
        t.add(m(["family@example.org"], [], -86_400))
        t.add(m(["ana@example.org"], [], 600))  // 10 minutes ahead
        t.add(m(["ana@example.org"], [], nil))
        t.add(m(["ana@example.org"], [], -Int64(30 * 365 * 86_400)))  // before 2000
        XCTAssertEqual(t.read, 6)
        XCTAssertEqual(t.undated, 3)
        XCTAssertEqual(t.latest, ["a": Instant(seconds: now.seconds - 3600), "b": Instant(seconds: now.seconds - 86_400)])
        let all = t.contacts { _ in nil }
        XCTAssertEqual(all.map(\.recipientID), ["b", "a"], "earliest first")
        XCTAssertEqual(all.map(\.id), t.contacts { _ in nil }.map(\.id))
        XCTAssertEqual(Set(all.map(\.id)).count, 2)
        XCTAssertEqual(t.contacts { $0 == "a" ? Instant(seconds: now.seconds - 3600) : nil }.map(\.recipientID), ["b"], "not later than the log")
    }
}
