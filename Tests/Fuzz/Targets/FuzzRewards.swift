// rewards: an ActivityWatch export, read in place and read the general way.
import NudgeKit

enum FuzzRewards {
    /// The in-place reader gives what the parsed document gives: the same
    /// usage, or both an error.
    static func activityWatch(_ data: UnsafeRawBufferPointer) throws(FuzzFailure) {
        let bytes = Array(data)
        // Also with windows named by their titles, as a family with title
        // patterns reads them: both readers see the same titles.
        for titles in [false, true] {
            let naming: (String, String?) -> String = { a, t in t.map { a + "|" + $0 } ?? a }
            let fast = ActivityWatch.read(bytes: bytes, now: FuzzTargets.now, titles: titles, naming: naming)
            let general: Result<ActivityWatch.Usage, ToolError>
            do throws(JSONParseError) {
                general = ActivityWatch.read(try JSON.parseDocument(bytes), now: FuzzTargets.now, titles: titles, naming: naming)
            } catch { general = .failure(.data(error.message)) }
            switch (fast, general) {
            case (.success(let a), .success(let b)): if a != b { throw FuzzFailure("the in-place reading of an export differs from the parsed one") }
            case (.failure, .failure): break
            default: throw FuzzFailure("one reading of an export fails and the other does not")
            }
        }
    }
}
