// Bytes of a file shared without copying: a snapshot is mapped read-only
// (its pages come straight from the page cache, nothing is zeroed or
// copied), and the lines a model keeps unparsed are slices of the mapping.
// Safe because the store never changes a snapshot in place: it writes a new
// file and renames it, so a mapping keeps the old one's bytes.

/// The storage behind `Bytes`: a read-only mapping, or a private copy.
public final class FileBytes: @unchecked Sendable {
    public let base: UnsafeRawPointer
    public let count: Int
    private let mapping: UnsafeMutableRawPointer?
    private let mappedLength: Int
    private let allocated: UnsafeMutableRawPointer?

    private init(base: UnsafeRawPointer, count: Int, mapping: UnsafeMutableRawPointer?, mappedLength: Int, allocated: UnsafeMutableRawPointer?) {
        self.base = base
        self.count = count
        self.mapping = mapping
        self.mappedLength = mappedLength
        self.allocated = allocated
    }

    /// A private copy of `bytes`.
    public convenience init<C: Collection>(copying bytes: C) where C.Element == UInt8 {
        let p = malloc(max(1, bytes.count))!
        var k = 0
        for b in bytes { p.storeBytes(of: b, toByteOffset: k, as: UInt8.self); k += 1 }
        self.init(base: UnsafeRawPointer(p), count: bytes.count, mapping: nil, mappedLength: 0, allocated: p)
    }

    /// `count` bytes of the file at `offset`, mapped read-only; nil when the
    /// file is shorter than that or cannot be mapped (then read it instead).
    /// `populate`: its pages are read in at once (bytes that will all be
    /// read); otherwise each page comes in when first touched (a large part
    /// of which a reader looks at a few lines).
    public static func map(fd: Int32, offset: Int, count: Int, populate: Bool = true) -> FileBytes? {
        var st = stat()
        guard count > 0, offset >= 0, fstat(fd, &st) == 0, Int(st.st_size) >= offset + count else { return nil }
        let page = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))
        let start = offset / page * page
        let length = offset - start + count
        #if os(Linux)
        let flags = populate ? MAP_PRIVATE | MAP_POPULATE : MAP_PRIVATE
        #else
        let flags = MAP_PRIVATE
        #endif
        guard let p = mmap(nil, length, PROT_READ, flags, fd, off_t(start)), p != MAP_FAILED else { return nil }
        return FileBytes(base: UnsafeRawPointer(p) + (offset - start), count: count, mapping: p, mappedLength: length, allocated: nil)
    }

    /// Mapped when possible, else read into memory.
    public static func read(fd: Int32, offset: Int, count: Int, path: String) throws(ToolError) -> FileBytes {
        if let m = map(fd: fd, offset: offset, count: count) { return m }
        return FileBytes(copying: try Sys.readAt(fd: fd, offset: offset, count: count, path: path))
    }

    deinit {
        if let m = mapping { munmap(m, mappedLength) }
        if let a = allocated { free(a) }
    }

    public var all: Bytes { Bytes(self, 0..<count) }
}

/// A slice of a file's bytes: indices are offsets into the whole file part
/// (as with ArraySlice, a slice keeps its parent's indices).
public struct Bytes: RandomAccessCollection, Sendable {
    public typealias Index = Int
    public typealias Indices = Range<Int>
    public typealias SubSequence = Bytes
    public let storage: FileBytes
    public let startIndex: Int
    public let endIndex: Int

    public init(_ storage: FileBytes, _ range: Range<Int>) {
        self.storage = storage
        startIndex = range.lowerBound
        endIndex = range.upperBound
    }

    /// A private copy of an array's bytes.
    public init(_ array: [UInt8]) { self.init(FileBytes(copying: array), 0..<array.count) }

    public subscript(i: Int) -> UInt8 { storage.base.load(fromByteOffset: i, as: UInt8.self) }
    public subscript(r: Range<Int>) -> Bytes { Bytes(storage, r) }

    public func withUnsafeBytes<R, E: Error>(_ body: (UnsafeRawBufferPointer) throws(E) -> R) throws(E) -> R {
        try body(UnsafeRawBufferPointer(start: storage.base + startIndex, count: endIndex - startIndex))
    }

    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try body(UnsafeBufferPointer(start: storage.base.assumingMemoryBound(to: UInt8.self) + startIndex, count: endIndex - startIndex))
    }
}
