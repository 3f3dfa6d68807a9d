// Waiting for a deadline or a change in some folders, whichever comes
// first: for long-running `watch` commands. On Linux the kernel says when a
// folder changes (inotify, through the C library); elsewhere a short timer
// stands in, and the caller simply looks again. Spurious wake-ups are
// allowed: a caller re-reads and re-decides after every return.

public final class FolderWatch {
    #if os(Linux)
    let fd: Int32
    #endif
    /// The longest sleep without the kernel's help (other systems).
    public static let pollMillis = 1000

    public init(folders: [String]) {
        #if os(Linux)
        fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if fd >= 0 {
            let mask = UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM | IN_ATTRIB)
            for f in folders { _ = inotify_add_watch(fd, f, mask) }
        }
        #endif
    }

    deinit {
        #if os(Linux)
        if fd >= 0 { close(fd) }
        #endif
    }

    /// Whether the kernel tells this watch about changes.
    public var notifies: Bool {
        #if os(Linux)
        return fd >= 0
        #else
        return false
        #endif
    }

    /// Waits up to `millis`; returns true when a watched folder changed (or
    /// may have: without the kernel's help, after each timer tick).
    @discardableResult
    public func wait(millis: Int) -> Bool {
        let ms = max(0, millis)
        #if os(Linux)
        if fd >= 0 {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let n = poll(&p, 1, Int32(min(ms, Int(Int32.max))))
            guard n > 0 else { return false }
            var buf = [UInt8](repeating: 0, count: 4096)
            while read(fd, &buf, buf.count) > 0 {}
            return true
        }
        #endif
        let step = min(ms, FolderWatch.pollMillis)
        Sys.sleepMillis(step)
        return step < ms
    }
}
