// Zones by what names them: a POSIX TZ rule as TZ or a peer's event may
// hold one, and a zone file's bytes (a TZif file at a path a name gives).
import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

enum FuzzTime {
    /// A file for the zone's bytes, unlinked at once (-1 when none could be made).
    static let scratch: Int32 = {
        var name = Array("/tmp/nudge-fuzz-zone-XXXXXX".utf8CString)
        let fd = mkstemp(&name)
        if fd >= 0 { unlink(name) }
        return fd
    }()

    /// The first byte chooses: even, the rest is a zone's name or POSIX
    /// rule; odd, a zone file's bytes. A zone read either way writes every
    /// instant as RFC 3339 text that reads back as that instant, and a wall
    /// time it resolves lies where the zone says.
    static func zone(_ data: UnsafeRawBufferPointer) throws(FuzzFailure) {
        guard let first = data.first else { return }
        let rest = UnsafeRawBufferPointer(rebasing: data[1...])
        let z: Zone?
        if first % 2 == 0 {
            let name = FuzzTargets.text(rest)
            guard !name.hasPrefix("/"), !name.contains("..") else { return }
            z = try? Zone.named(name)
        } else {
            let fd = scratch
            guard fd >= 0 else { throw FuzzFailure("no scratch file in /tmp") }
            ftruncate(fd, 0)
            var off = 0
            while off < rest.count {
                let n = pwrite(fd, rest.baseAddress! + off, rest.count - off, off_t(off))
                if n <= 0 { throw FuzzFailure("write to the scratch file: \(errno)") }
                off += n
            }
            z = try? Zone.named("/proc/self/fd/\(fd)")
        }
        guard let zone = z else { return }
        for ms: Int64 in [-2_208_988_800_000, 0, 946_684_800_000, 1_795_878_000_000, 1_805_000_000_000, 4_102_444_800_000, 253_402_300_799_000] {
            let t = Instant(ms: ms)
            let text = zone.format(t)
            guard let back = RFC3339.parse(text) else { throw FuzzFailure("\(zone.name): \(ms) written as '\(text)' does not read") }
            if back.instant != t { throw FuzzFailure("\(zone.name): \(ms) written as '\(text)' reads as \(back.instant.ms)") }
            let l = zone.local(t)
            let r = zone.resolve(l)
            if abs(r.ms - t.ms) > 2 * 86_400_000 { throw FuzzFailure("\(zone.name): the wall time of \(ms), \(l), resolves to \(r.ms)") }
        }
    }
}
