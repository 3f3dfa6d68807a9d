import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Running a program that is not ours (a shell, mandoc, python3, useradd)
/// from a test, safely: standard input, output and error are files, never
/// pipes, so a child that exits without reading its input cannot kill the
/// test process with SIGPIPE, and one that writes a lot to both outputs
/// cannot deadlock it. A child still running at `timeout` seconds is
/// killed and reported as such: a failure with a message, not a hung suite.
public struct ProgramResult: Sendable {
    public var out: String
    public var err: String
    /// The exit status, 128 + the signal that ended it, or 127 when it could not start.
    public var status: Int32
    public var timedOut: Bool
    /// "exited 3", "killed by signal 9", "ran past 60 s": for failure messages.
    public var summary: String
}

public func runProgram(_ path: String, _ args: [String], stdin: [UInt8]? = nil, env: [String: String]? = nil,
                       cwd: String? = nil, timeout: Double = 120) -> ProgramResult {
    let fm = FileManager.default
    let dir = NSTemporaryDirectory() + "program-\(UUID().uuidString)"
    do {
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
    } catch {
        return ProgramResult(out: "", err: "cannot make \(dir): \(error)", status: 127, timedOut: false, summary: "did not start")
    }
    defer { try? fm.removeItem(atPath: dir) }
    let inPath = dir + "/in", outPath = dir + "/out", errPath = dir + "/err"
    _ = fm.createFile(atPath: inPath, contents: Data(stdin ?? []))
    _ = fm.createFile(atPath: outPath, contents: nil)
    _ = fm.createFile(atPath: errPath, contents: nil)
    let p = Process()
    p.executableURL = URL(fileURLWithPath: path)
    p.arguments = args
    if let env { p.environment = env }
    if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
    p.standardInput = FileHandle(forReadingAtPath: inPath)
    p.standardOutput = FileHandle(forWritingAtPath: outPath)
    p.standardError = FileHandle(forWritingAtPath: errPath)
    do {
        try p.run()
    } catch {
        return ProgramResult(out: "", err: "cannot run \(path): \(error)", status: 127, timedOut: false, summary: "could not start")
    }
    let deadline = Date().addingTimeInterval(timeout)
    var timedOut = false
    while p.isRunning {
        if Date() > deadline {
            timedOut = true
            kill(p.processIdentifier, SIGKILL)
            break
        }
        usleep(2_000)
    }
    p.waitUntilExit()
    let out = (try? Data(contentsOf: URL(fileURLWithPath: outPath))).map { String(decoding: $0, as: UTF8.self) } ?? ""
    let err = (try? Data(contentsOf: URL(fileURLWithPath: errPath))).map { String(decoding: $0, as: UTF8.self) } ?? ""
    let signaled = p.terminationReason == .uncaughtSignal
    let status = signaled ? 128 + p.terminationStatus : p.terminationStatus
    let summary = timedOut ? "ran past \(Int(timeout)) s and was killed"
        : signaled ? "killed by signal \(p.terminationStatus)" : "exited \(p.terminationStatus)"
    return ProgramResult(out: out, err: err, status: status, timedOut: timedOut, summary: summary)
}

/// The package's root: the nearest folder above `file` holding Package.swift
/// (so a test file can move between folders without counting levels).
public func packageRoot(_ file: String = #filePath) -> String {
    var dir = file
    while let slash = dir.lastIndex(of: "/"), slash > dir.startIndex {
        dir = String(dir[..<slash])
        if FileManager.default.fileExists(atPath: dir + "/Package.swift") { return dir }
    }
    return FileManager.default.currentDirectoryPath
}
