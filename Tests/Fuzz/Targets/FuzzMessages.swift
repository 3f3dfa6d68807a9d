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
