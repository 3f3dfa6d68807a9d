// The snapshot: a header line (schema, per-journal marks, frontier, three
// checksums), the hot lines every reader needs, {"type":"cold"}, the cold
// lines only writers need, {"type":"end"}. Written whole and renamed into
// place; a snapshot that fails a check is moved aside as evidence.
//
// Invariants: head_sum covers the header and the first hot line (for
// `readHead`), sum the header and all hot lines, cold_sum the cold part; a
// reader checks the sums of every part it uses before believing any of it.
// A model whose hot lines index its cold lines with a checksum each
// (`readsColdByOffset`) may be handed the cold part unchecked in a read
// without it, and checks each line it reads against its hot lines.
// A header with "hash":2 was summed with `Checksum.wide`, one without it
// (written before) with `Checksum.hash`.

extension Store {
    // MARK: The snapshot

    struct Snapshot {
        var schema: Int
        var marks: [String: JournalMark]
        var frontier: Stamp?
        var hot: [JSONObject]
        var cold: [JSONObject]
        /// Its checksum (header and hot part): what a remembered listing is tied to.
        var sum: UInt64 = 0
        /// In a read without the cold part, for a model that reads cold lines
        /// by offset: the cold lines, mapped, unchecked (`restoreColdSource`).
        var coldLines: Bytes? = nil
    }

    static var coldMarker: [UInt8] { Array("{\"type\":\"cold\"}\n".utf8) }

    enum SnapshotRead {
        case absent
        case otherSchema
        case bad(String)
        case ok(Snapshot)
    }

    /// Where the digits of head_sum, cold_sum and sum are in a header line,
    /// which ends `"head_sum":"…","cold_sum":"…","sum":"…"}`; the checksums
    /// are computed with those digits all '0'.
    static func sumRanges(_ line: [UInt8]) -> [Range<Int>]? {
        let n = line.count
        let z = n - 18, y = z - 9 - 16, x = y - 14 - 16
        guard x >= 12 else { return nil }
        func at(_ i: Int, _ s: String) -> Bool { Array(s.utf8) == Array(line[i..<(i + s.utf8.count)]) }
        guard at(n - 2, "\"}"), at(z - 9, "\",\"sum\":\""), at(y - 14, "\",\"cold_sum\":\""), at(x - 12, "\"head_sum\":\"") else { return nil }
        return [x..<(x + 16), y..<(y + 16), z..<(z + 16)]
    }

    /// Header line parsed, and the three sums it declares.
    struct Header {
        var schema: Int
        var hotBytes: Int
        var marks: [String: JournalMark]
        var frontier: Stamp?
        var headSum: UInt64
        var coldSum: UInt64
        var sum: UInt64
        /// The header line (without newline) with the sums' digits set to '0'.
        var zeroed: [UInt8]
        /// Summed with `Checksum.wide` ("hash":2), else with `Checksum.hash`.
        var wide: Bool

        func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64) -> UInt64 {
            wide ? Checksum.wide(bytes, seed: seed) : Checksum.hash(bytes, seed: seed)
        }
        func hash(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { hash($0, seed: 0x9E37_79B9_7F4A_7C15) } }
    }

    /// The header's "journals" object, scanned without the general parser (a
    /// pool's header lists thousands): the byte range of the object, and the
    /// marks, or nil when it is not in the form this store writes.
    static func scanJournals(_ line: [UInt8]) -> (range: Range<Int>, marks: [String: JournalMark])? {
        let key = Array("\"journals\":{".utf8)
        guard line.count > key.count else { return nil }
        var start = -1
        for i in 0...(line.count - key.count) where line[i] == 0x22 && Array(line[i..<(i + key.count)]) == key { start = i; break }
        guard start >= 0 else { return nil }
        var i = start + key.count
        var marks: [String: JournalMark] = [:]
        marks.reserveCapacity(line.count / 48)
        func int() -> Int? {
            var v = 0
            var digits = 0
            while i < line.count, line[i] >= 0x30, line[i] <= 0x39, digits < 19 { v = v * 10 + Int(line[i] - 0x30); i += 1; digits += 1 }
            return digits > 0 ? v : nil
        }
        func expect(_ c: UInt8) -> Bool { guard i < line.count, line[i] == c else { return false }; i += 1; return true }
        if i < line.count && line[i] == 0x7D { return (start..<(i + 1), marks) }
        while true {
            guard expect(0x22) else { return nil }
            let n0 = i
            while i < line.count, line[i] != 0x22, line[i] != 0x5C { i += 1 }
            guard i < line.count, line[i] == 0x22 else { return nil }
            let name = String(decoding: line[n0..<i], as: UTF8.self)
            let nameRange = n0..<i
            i += 1
            guard expect(0x3A), expect(0x5B), let end = int(), expect(0x2C), let tag = int(), expect(0x2C), let bad = int(),
                  tag <= Int(UInt32.max) else { return nil }
            // [end, tag, bad] or, since the last stamp is kept, [end, tag, bad, ms, counter].
            var last: Stamp? = nil
            if expect(0x2C) {
                guard let ms = int(), expect(0x2C), let counter = int() else { return nil }
                last = Stamp(ms: Int64(ms), counter: Int64(counter), actor: Store.actorOf(bytes: line[nameRange]) ?? Store.actorOf(name))
            }
            guard expect(0x5D) else { return nil }
            marks[name] = JournalMark(end: end, tag: UInt32(tag), bad: bad, last: last)
            if expect(0x7D) { return (start..<i, marks) }
            guard expect(0x2C) else { return nil }
        }
    }

    func parseHeader(_ line: [UInt8]) -> Result<Header, SnapshotError> {
        // The journals object is scanned on its own; the rest is small.
        let scanned = Store.scanJournals(line)
        var rest = line
        if let sc = scanned { rest.replaceSubrange(sc.range, with: Array("\"journals\":{}".utf8)) }
        guard let o = try? JSON.parseObject(bytes: rest), o["type"]?.string == "snapshot" else { return .failure(.bad("its header cannot be read")) }
        let schema = Int(o["schema"]?.int ?? 0)
        if schema != M.schemaVersion { return .failure(.otherSchema) }
        // Written by a version without checksums: rebuilt quietly, like a migration.
        if o["sum"] == nil && o["head_sum"] == nil { return .failure(.otherSchema) }
        guard let hot = o["hot_bytes"]?.int, hot > 0,
              let hs = o["head_sum"]?.string.flatMap({ UInt64($0, radix: 16) }),
              let cs = o["cold_sum"]?.string.flatMap({ UInt64($0, radix: 16) }),
              let s = o["sum"]?.string.flatMap({ UInt64($0, radix: 16) }) else {
            return .failure(.bad("its header is incomplete"))
        }
        // Zero the digits of the three sums, which end the line in a fixed layout.
        guard let ranges = Store.sumRanges(line) else { return .failure(.bad("its header is incomplete")) }
        var zeroed = line
        for r in ranges { for i in r { zeroed[i] = 0x30 } }
        guard let marks = scanned?.marks else { return .failure(.bad("its list of journals cannot be read")) }
        var frontier: Stamp? = nil
        if let a = o["frontier"]?.array, a.count == 3, let ms = a[0].int, let c = a[1].int, let who = a[2].string {
            frontier = Stamp(ms: ms, counter: c, actor: who)
        }
        // Only the two hashes this store has written are known.
        let version = o["hash"]?.int ?? 1
        guard version == 1 || version == 2 else { return .failure(.bad("its checksum is of an unknown kind")) }
        return .success(Header(schema: schema, hotBytes: Int(hot), marks: marks, frontier: frontier,
                               headSum: hs, coldSum: cs, sum: s, zeroed: zeroed, wide: version == 2))
    }

    enum SnapshotError: Error { case otherSchema, bad(String) }

    /// Reads the header line of an open snapshot.
    func readHeaderLine(_ fd: Int32, path: String? = nil) throws(ToolError) -> [UInt8]? {
        var head = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(head.count)) }
            if n < 0 { throw Sys.accessError(path ?? snapshotPath) }
            if n == 0 { return nil }
            let before = head.count
            head.append(contentsOf: chunk[0..<n])
            if let nl = head[before...].firstIndex(of: 0x0A) { return Array(head[0..<nl]) }
            if head.count > 64 << 20 { return nil }
        }
    }

    func openSnapshot(_ path: String? = nil) throws(ToolError) -> Int32? {
        let snapshotPath = path ?? self.snapshotPath
        let fd = open(snapshotPath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            if errno == EACCES || errno == EPERM || errno == ELOOP {
                // Left by a sudo run, or planted: the journals still hold the truth.
                Store.warnOnce("cannot read \(snapshotPath)\(Sys.ownerHint(snapshotPath) ?? ""); answers come from the journals")
                return nil
            }
            throw Sys.accessError(snapshotPath)
        }
        var st = stat()
        if fstat(fd, &st) != 0 || (st.st_mode & S_IFMT) != S_IFREG {
            close(fd)
            return nil
        }
        return fd
    }

    /// `raw(line, cold)` is offered each model line first (hot lines when
    /// `lazy`, cold ones when `full`) and returns whether it kept it unparsed.
    /// (Not optional, so not escaping: what it captures needs no checks at
    /// run time for each of ten thousand lines.)
    func readSnapshot(full: Bool, lazy: Bool = false, path: String? = nil,
                      raw keep: (Bytes, _ cold: Bool) -> Bool = { _, _ in false }) throws(ToolError) -> SnapshotRead {
        let snapshotPath = path ?? self.snapshotPath
        guard let fd = try openSnapshot(snapshotPath) else { return .absent }
        defer { close(fd) }
        guard let headerLine = try readHeaderLine(fd, path: snapshotPath) else { return .bad("it is cut short") }
        let header: Header
        switch parseHeader(headerLine) {
        case .success(let h): header = h
        case .failure(.otherSchema): return .otherSchema
        case .failure(.bad(let why)): return .bad(why)
        }
        var size = stat()
        guard fstat(fd, &size) == 0 else { throw Sys.accessError(snapshotPath) }
        let nl = headerLine.count
        let fileBody = max(0, Int(size.st_size) - nl - 1)
        let hotBody = header.hotBytes - nl - 1
        if hotBody < 0 || hotBody > fileBody { return .bad("it is cut short") }
        let want = full ? fileBody : hotBody
        // Mapped, not copied: lines kept raw are slices of it.
        let body = want > 0 ? try FileBytes.read(fd: fd, offset: nl + 1, count: want, path: snapshotPath) : FileBytes(copying: [UInt8]())
        if body.count < want { return .bad("it is cut short") }
        var zeroedLine = header.zeroed
        zeroedLine.append(0x0A)
        let hotRaw = UnsafeRawBufferPointer(start: body.base, count: hotBody)
        let sum = header.hash(hotRaw, seed: header.hash(zeroedLine))
        if sum != header.sum { return .bad("its checksum does not match its contents") }
        if full {
            let coldRaw = UnsafeRawBufferPointer(start: body.base + hotBody, count: want - hotBody)
            if header.hash(coldRaw, seed: 0x9E37_79B9_7F4A_7C15) != header.coldSum { return .bad("its checksum does not match its contents") }
        }
        var hot: [JSONObject] = []
        var cold: [JSONObject] = []
        var inCold = false
        var complete = !full
        var bad = false
        body.all.withUnsafeBytes { raw in
            let limit = full ? raw.count : hotBody
            try? NDJSON.forEachLine(in: UnsafeRawBufferPointer(rebasing: raw[0..<limit])) { (_, line, _) throws(ToolError) -> Bool in
                // Model lines are offered unparsed first; the store's own
                // lines ({"type":…}) never are.
                if inCold ? full : lazy, line.count > 8,
                   line[2] != UInt8(ascii: "t") || line[3] != UInt8(ascii: "y") {
                    let start = raw.baseAddress!.distance(to: line.baseAddress!)
                    if keep(Bytes(body, start..<(start + line.count)), inCold) { return true }
                }
                guard let o = try? JSON.parseObject(line) else { bad = true; return false }
                switch o["type"]?.string {
                case "cold": inCold = true; if !full { return false }
                case "end": complete = true; return false
                default: if inCold { cold.append(o) } else { hot.append(o) }
                }
                return true
            }
        }
        if bad || !complete { return .bad("a line cannot be read") }
        // The cold part's pages are mapped, not read: the model reads and
        // checks the few lines it needs against its hot lines' index.
        var coldLines: Bytes? = nil
        if !full && M.readsColdByOffset, fileBody > hotBody,
           let m = FileBytes.map(fd: fd, offset: nl + 1 + hotBody, count: fileBody - hotBody, populate: false) {
            let marker = Store.coldMarker
            if m.count > marker.count && m.all[0..<marker.count].elementsEqual(marker) { coldLines = m.all[marker.count..<m.count] }
        }
        return .ok(Snapshot(schema: header.schema, marks: header.marks, frontier: header.frontier, hot: hot, cold: cold, sum: header.sum,
                            coldLines: coldLines))
    }

    /// The header and first hot line, checked against the head checksum.
    func readSnapshotHead(_ path: String? = nil) throws(ToolError) -> (schema: Int, marks: [String: JournalMark], frontier: Stamp?, hot: [JSONObject])? {
        guard let fd = try openSnapshot(path) else { return nil }
        defer { close(fd) }
        guard let headerLine = try readHeaderLine(fd), case .success(let h) = parseHeader(headerLine) else { return nil }
        let start = headerLine.count + 1
        let hotLen = h.hotBytes - start
        guard hotLen >= 0 else { return nil }
        // The first hot line: up to its newline, within the hot part.
        var line = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 16384)
        var nlAt: Int? = nil
        while nlAt == nil && line.count < hotLen {
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, min($0.count, hotLen - line.count), off_t(start + line.count)) }
            if n <= 0 { return nil }
            let before = line.count
            line.append(contentsOf: chunk[0..<n])
            nlAt = line[before...].firstIndex(of: 0x0A)
        }
        var zeroedLine = h.zeroed
        zeroedLine.append(0x0A)
        let first: [UInt8] = nlAt.map { Array(line[0...$0]) } ?? []
        guard first.withUnsafeBytes({ h.hash($0, seed: h.hash(zeroedLine)) }) == h.headSum else { return nil }
        var hot: [JSONObject] = []
        if !first.isEmpty {
            guard let o = try? JSON.parseObject(bytes: Array(first.dropLast())) else { return nil }
            if o["type"]?.string != "cold" { hot.append(o) }
        }
        return (h.schema, h.marks, h.frontier, hot)
    }

    /// Writes the snapshot of `l`; returns its checksum.
    @discardableResult
    func writeSnapshot(_ l: Loaded, keepCheckpoint: Bool = true) throws(ToolError) -> UInt64 {
        // The cold part first: the hot lines may index it.
        var cold = Store.coldMarker
        l.state.writeColdSnapshot(into: &cold)
        var hot = [UInt8]()
        let hotLines = cold.withUnsafeBytes { l.state.hotSnapshot(cold: UnsafeRawBufferPointer(rebasing: $0[Store.coldMarker.count...])) }
        for h in hotLines { h.write(into: &hot); hot.append(0x0A) }
        cold += Array("{\"type\":\"end\"}\n".utf8)
        let sorted = l.marks.sorted(by: { $0.key < $1.key })
        let journals = JSONObject(parsedKeys: sorted.map(\.key), values: sorted.map { (_, m) in
            .array([.int(Int64(m.end)), .int(Int64(m.tag)), .int(Int64(m.bad))] + (m.last.map { [.int($0.ms), .int($0.counter)] } ?? []))
        })
        let frontier: JSON = l.frontier.map { .array([.int($0.ms), .int($0.counter), .string($0.actor)]) } ?? .null
        let zeros = String(repeating: "0", count: 16)
        // The header holds its own length; iterate until the digits settle.
        var hotBytes = 0
        var headerBytes = [UInt8]()
        for _ in 0..<4 {
            let header: JSONObject = ["type": "snapshot", "schema": .int(Int64(M.schemaVersion)),
                                      "tool": .string(options.tool), "hot_bytes": .int(Int64(hotBytes)),
                                      "frontier": frontier, "journals": .object(journals), "hash": 2,
                                      "head_sum": .string(zeros), "cold_sum": .string(zeros), "sum": .string(zeros)]
            headerBytes = []
            header.write(into: &headerBytes)
            headerBytes.append(0x0A)
            let total = headerBytes.count + hot.count
            if total == hotBytes { break }
            hotBytes = total
        }
        let firstLen = hot.firstIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let headSum = Checksum.wide(Array(hot[0..<firstLen]), seed: Checksum.wide(headerBytes))
        let sum = hot.withUnsafeBytes { Checksum.wide($0, seed: Checksum.wide(headerBytes)) }
        let coldSum = Checksum.wide(cold)
        // Fill in the digits.
        let digits = Array((Checksum.hex(headSum) + Checksum.hex(coldSum) + Checksum.hex(sum)).utf8)
        if let ranges = Store.sumRanges(Array(headerBytes.dropLast())) {
            var k = 0
            for r in ranges { for i in r { headerBytes[i] = digits[k]; k += 1 } }
        }
        // (A fold that erased something, or folded a peer's rewrite again,
        // keeps no checkpoint: an older one may hold what was erased.)
        if keepCheckpoint && l.erased.isEmpty && !l.refolded { promoteToCheckpoint(before: l.frontier) } else { dropCheckpoint() }
        try Sys.writeFileAtomically(snapshotPath, headerBytes + hot + cold)
        return sum
    }

    /// Keeps a snapshot that failed a check as evidence, under a new name.
    func moveSnapshotAside() {
        var n = 1
        var target = snapshotPath + ".bad-1"
        while Sys.fileExists(target) && n < 1000 { n += 1; target = snapshotPath + ".bad-\(n)" }
        if rename(snapshotPath, target) == 0 {
            Store.warnOnce("kept the refused snapshot as \(target)")
        }
    }
}
