// JSON: the parser, the in-place scanner and the NDJSON line readers.
import NudgeKit
#if canImport(Glibc)
import Glibc
#endif

enum FuzzJSON {
    /// A document: parsed, written, parsed again to the same value.
    static func parse(_ data: UnsafeRawBufferPointer) throws(FuzzFailure) {
        guard let v = try? JSON.parse(data) else { return }
        var out: [UInt8] = []
        v.write(into: &out)
        let again: JSON
        do throws(JSONParseError) { again = try JSON.parse(out) } catch {
            throw FuzzFailure("JSON written from a parsed value does not parse: \(error.message): \(String(decoding: out, as: UTF8.self))")
        }
        if again != v { throw FuzzFailure("JSON written and parsed again differs: \(String(decoding: out, as: UTF8.self))") }
    }

    /// A file for the stream reader, unlinked at once: gone when the run
    /// ends (-1 when none could be made).
    static let scratch: Int32 = {
        var name = Array("/tmp/nudge-fuzz-XXXXXX".utf8CString)
        let fd = mkstemp(&name)
        if fd >= 0 { unlink(name) }
        return fd
    }()

    static let wanted: [[UInt8]] = ["type", "id", "at", "a", ""].map { Array($0.utf8) }

    /// One line's object: the scanner takes exactly what the parser takes,
    /// and finds the fields the parsed object has (the first of a name given twice).
    static func scan(_ data: UnsafeRawBufferPointer) throws(FuzzFailure) {
        let parsed = try? JSON.parseObject(data)
        var slots = [JSON?](repeating: nil, count: wanted.count)
        var fields = [ScannedField](repeating: .absent, count: wanted.count)
        let scanned = (try? JSON.scanObject(data, fields: wanted, into: &slots)) != nil
        let inPlace = (try? JSON.scanObject(data, fields: wanted, into: &fields)) != nil
        if scanned != inPlace { throw FuzzFailure("the two scans disagree on whether the line is an object") }
        guard let o = parsed else {
            if scanned { throw FuzzFailure("the scan takes a line the parser refuses") }
            return
        }
        if !scanned { throw FuzzFailure("the scan refuses a line the parser takes") }
        for (k, name) in wanted.enumerated() {
            let key = String(decoding: name, as: UTF8.self)
            if slots[k] != o[key] { throw FuzzFailure("the scan's '\(key)' is not the parsed object's") }
            if fields[k].json(in: data) != o[key] { throw FuzzFailure("the in-place scan's '\(key)' is not the parsed object's") }
        }
    }

    /// A stream of lines, read as a command reads stdin (in chunks from a
    /// file descriptor) and as the store reads a journal (from memory): the
    /// same lines, numbered alike, each parsed as an object or refused.
    static func lines(_ data: UnsafeRawBufferPointer) throws(FuzzFailure) {
        let fd = scratch
        guard fd >= 0 else { throw FuzzFailure("no scratch file in /tmp") }
        ftruncate(fd, 0)
        var off = 0
        while off < data.count {
            let n = pwrite(fd, data.baseAddress! + off, data.count - off, off_t(off))
            if n <= 0 { throw FuzzFailure("write to the scratch file: \(errno)") }
            off += n
        }
        var streamed: [(Int, [UInt8])] = []
        do throws(ToolError) {
            // Opened again as a command opens its operand, from the start.
            for source in try InputSource.openAll(["/proc/self/fd/\(fd)"]) {
                defer { source.closeIfOwned() }
                try NDJSON.forEachLine(source) { (n, line) throws(ToolError) in
                    streamed.append((n, Array(line)))
                    _ = try? JSON.parseObject(line)
                }
            }
        } catch { throw FuzzFailure("reading lines from a file failed: \(error.message)") }
        var inMemory: [(Int, [UInt8])] = []
        do throws(ToolError) {
            try NDJSON.forEachLine(in: data) { (n, line, _) throws(ToolError) in
                // The stream drops a byte order mark before the first line.
                var l = Array(line)
                if n == 1 && l.starts(with: [0xEF, 0xBB, 0xBF]) { l.removeFirst(3) }
                if !l.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { inMemory.append((n, l)) }
                return true
            }
        } catch { throw FuzzFailure("reading lines from memory failed: \(error.message)") }
        if streamed.count != inMemory.count { throw FuzzFailure("\(streamed.count) lines from a file, \(inMemory.count) from memory") }
        for (a, b) in zip(streamed, inMemory) where a.0 != b.0 || a.1 != b.1 {
            throw FuzzFailure("line \(a.0) differs between a file and memory")
        }
    }
}
