// What a tool gives the store: its state as a fold over events (the
// `JournalModel`), and the `Transaction` a command records its events in.
//
// Invariants: `apply` is the only way state changes; it sees events already
// migrated to the model's schema, in stamp order, each once. Snapshot lines
// restored with `restoreHot`/`restoreCold` give the same state as folding the
// events they summarise.

/// A tool's state as a fold over its events.
public protocol JournalModel {
    /// The schema this version writes. Older events are upgraded by `migrate`.
    static var schemaVersion: Int { get }
    /// An empty state. `full` false means the cold parts (indexes only
    /// writers need) may be left out.
    init(full: Bool)
    /// Folds one committed event (already migrated to `schemaVersion`).
    mutating func apply(_ event: JSONObject)
    /// Folds one committed event with its batch's stamp; by default `apply(_:)`.
    /// Models with last-writer-wins fields read the stamp here.
    mutating func apply(_ event: JSONObject, stamp: Stamp)
    /// Whether the erasure `tombstone` (an event of type "erase") erases
    /// `event`, an event stamped before it. Erased events are skipped by the
    /// fold on every copy and removed from journals by their writers.
    static func erases(_ tombstone: JSONObject, _ event: JSONObject) -> Bool
    /// Whether `tombstone` also erases the events it names that are stamped
    /// after it: those a device wrote before the tombstone reached it (a
    /// day's draw for a recipient erased elsewhere). By default false: a
    /// tombstone erases what came before it (a reset keeps what is written
    /// after it). A tombstone naming ids only may say true.
    static func erasesLaterEvents(_ tombstone: JSONObject) -> Bool
    /// The same with both stamps, judged by the state folded up to `event`
    /// (so a tombstone's author can be checked against who may erase what):
    /// by default `erases(_:_:)`. The journal rewrite, which has no state,
    /// uses the static rule only.
    func erases(_ tombstone: JSONObject, stamped tombstoneStamp: Stamp, _ event: JSONObject, stamped stamp: Stamp) -> Bool
    /// Whether `tombstone` counts at all, judged by the state folded so far
    /// and the other tombstones: false when a later one takes its author's
    /// word back (a removed member's tombstone, cut with the rest of what
    /// they wrote then). By default true: every tombstone counts.
    func counts(tombstone: JSONObject, stamped: Stamp, among all: [(Stamp, JSONObject)]) -> Bool
    /// Lines that every reader needs.
    func hotSnapshot() -> [JSONObject]
    /// The same, when the snapshot is written: `cold` is the cold lines as
    /// `writeColdSnapshot` wrote them, so that hot lines may describe them
    /// (where each line is and its checksum: `readsColdByOffset`). By
    /// default `hotSnapshot()`.
    func hotSnapshot(cold: UnsafeRawBufferPointer) -> [JSONObject]
    /// Lines that only writers need (dedupe indexes and the like).
    func coldSnapshot() -> [JSONObject]
    mutating func restoreHot(_ line: JSONObject) throws(ToolError)
    mutating func restoreCold(_ line: JSONObject) throws(ToolError)
    /// In a lazy read, offered each hot line unparsed first (a slice of the
    /// snapshot's bytes, shared, not copied); true means the model kept it as
    /// it is, to parse later or never.
    mutating func restoreHotRaw(_ line: Bytes) -> Bool
    /// In a full read, offered each cold line unparsed first, the same way:
    /// a model with a large cold part parses only what a command touches.
    mutating func restoreColdRaw(_ line: Bytes) -> Bool
    /// Appends the cold lines, each ending in a newline (by default
    /// `coldSnapshot()`, serialized; a model may copy lines it kept raw).
    func writeColdSnapshot(into out: inout [UInt8])
    /// Upgrades an event written under `schema` to `schemaVersion`.
    static func migrate(_ event: JSONObject, from schema: Int) -> JSONObject
    /// Whether every read, not only a lazy one, offers hot lines to
    /// `restoreHotRaw` first (a model with a fast reader of its own lines).
    static var restoresRawLines: Bool { get }
    /// Whether a read without the cold part hands the model the cold lines'
    /// bytes, mapped but unread and unchecked (`restoreColdSource`): a model
    /// whose hot lines index its cold lines (offset, length, checksum) reads
    /// and checks the few it needs. By default false.
    static var readsColdByOffset: Bool { get }
    /// In a read without the cold part (`readsColdByOffset`), the snapshot's
    /// cold lines as `writeColdSnapshot` wrote them, then {"type":"end"}:
    /// bytes nothing has checked; the model believes a line only once it
    /// matches the checksum its hot lines (checked) hold for it.
    mutating func restoreColdSource(_ lines: Bytes)
    /// Called once a snapshot's lines are all restored (before any journal
    /// is folded on top): for a model that gathers lines that came out of
    /// order (hot first, then cold). By default nothing.
    mutating func finishRestore()
}

extension JournalModel {
    public static func migrate(_ event: JSONObject, from schema: Int) -> JSONObject { event }
    public static var restoresRawLines: Bool { false }
    public static var readsColdByOffset: Bool { false }
    public mutating func restoreColdSource(_ lines: Bytes) {}
    public mutating func finishRestore() {}
    public func hotSnapshot(cold: UnsafeRawBufferPointer) -> [JSONObject] { hotSnapshot() }
    public mutating func apply(_ event: JSONObject, stamp: Stamp) { apply(event) }
    public static func erases(_ tombstone: JSONObject, _ event: JSONObject) -> Bool { false }
    public static func erasesLaterEvents(_ tombstone: JSONObject) -> Bool { false }
    public func erases(_ tombstone: JSONObject, stamped tombstoneStamp: Stamp, _ event: JSONObject, stamped stamp: Stamp) -> Bool {
        Self.erases(tombstone, event)
    }
    public func counts(tombstone: JSONObject, stamped: Stamp, among all: [(Stamp, JSONObject)]) -> Bool { true }
    public func coldSnapshot() -> [JSONObject] { [] }
    public mutating func restoreCold(_ line: JSONObject) throws(ToolError) {}
    public mutating func restoreHotRaw(_ line: Bytes) -> Bool { false }
    public mutating func restoreColdRaw(_ line: Bytes) -> Bool { false }
    public func writeColdSnapshot(into out: inout [UInt8]) {
        for c in coldSnapshot() { c.write(into: &out); out.append(0x0A) }
    }
}

/// The events a command appends, applied to the state as they are recorded so
/// that the rest of the command sees them.
public struct Transaction<M: JournalModel> {
    public private(set) var events: [JSONObject] = []
    /// Each event's line where its recorder wrote it (`record(_:line:)`),
    /// else nil: the batch writes the object.
    private(set) var lines: [[UInt8]?] = []
    public internal(set) var state: M
    /// The stamp this batch will carry: greater than everything folded.
    public let stamp: Stamp
    /// Set when the store tags events with their journal: the writer's own.
    var actor: String? = nil
    /// In a store with subfolders, the one this batch goes to (default the
    /// first); a batch goes to one file, so it stays all or nothing.
    public var folder: String? = nil {
        didSet { if let f = folder, scopeTag != nil { scopeTag = f } }
    }
    var scopeTag: String? = nil
    /// Set by `abandon()`: the store writes nothing of this batch.
    public private(set) var abandoned = false

    init(state: M, stamp: Stamp = Stamp(ms: 0, actor: "")) {
        self.state = state
        self.stamp = stamp
    }

    public mutating func record(_ event: JSONObject) {
        record(event, line: nil)
    }

    /// Gives the batch up, as a verdict the store honours: nothing recorded
    /// in it is written (nor recorded after), and the write returns what the
    /// change returned. For a change that finds it must begin again with
    /// more of the state (rewards: usage facts a partial read cannot fold).
    public mutating func abandon() { abandoned = true }

    /// Records `event` with `line`, the bytes `event.write(into:)` writes,
    /// made by the recorder from the values the event was made of (a day's
    /// draw writes hundreds): the batch holds them instead of writing the
    /// object again. (Checked in debug builds: the tests run them.)
    public mutating func record(_ event: JSONObject, line: [UInt8]?) {
        guard !abandoned else { return }
        #if DEBUG
        if let l = line {
            var written: [UInt8] = []
            event.write(into: &written)
            precondition(written == l, "a line given with an event is not the event: \(String(decoding: l, as: UTF8.self))")
        }
        #endif
        if actor != nil || scopeTag != nil {
            var tagged = event
            if let a = actor { tagged["actor"] = .string(a) }
            if let sc = scopeTag { tagged["scope"] = .string(sc) }
            state.apply(tagged, stamp: stamp)
        } else {
            state.apply(event, stamp: stamp)
        }
        events.append(event)
        lines.append(line)
    }
}
