import CPatchbayCrash
import Foundation

/// Notes, for the crash handler, which plugin call this thread is in (`CPatchbayCrash`).
///
/// ```swift
/// CrashNote.during("reduce", feature.crashLabel, instance: label.pointer) {
///   feature.vtable.reduce(instance, bytes, count)
/// }
/// // a NULL dereference inside prints: patchbay: a plugin crashed the app with SIGSEGV
/// // (invalid memory access) in its reduce: feature dev.patchbay.fixture (/…/crashes.so),
/// // instance fixture, action noop. …   and the process exits with code 3
/// ```
///
/// Two thread-local stores and a restore: a few nanoseconds around each call.
package enum CrashNote {
  /// What a crash report says of a crash on a thread of the plugin's own, in no call from the
  /// host (crash.c writes it): the call being made did not cause it.
  package static let outsideCalls = "outside any call from the host"

  @inline(__always)
  static func during<R>(
    _ call: StaticString, _ feature: UnsafePointer<CChar>, instance: UnsafePointer<CChar>? = nil,
    _ body: () throws -> R
  ) rethrows -> R {
    let name = UnsafeRawPointer(call.utf8Start).assumingMemoryBound(to: CChar.self)
    let saved = pb_crash_enter(feature, instance, name)
    defer { pb_crash_leave(saved) }
    return try body()
  }

  /// Runs `body` with `text` noted as the action this thread sends. About 80 ns, so callers
  /// that send text from people (scripts, the terminal UI) use it, and `AppRuntime.send` does
  /// not: its budget is 300 ns.
  public static func sending<R, E: Error>(_ text: String, _ body: () throws(E) -> R) throws(E) -> R
  {
    let result = text.withCString { pointer in
      let saved = pb_crash_set_action(pointer)
      defer { _ = pb_crash_set_action(saved) }
      return Result { () throws(E) -> R in try body() }
    }
    return try result.get()
  }
}

/// A C string a crash report names (an instance's path), made before the instance is, so a
/// signal handler never reads it half written.
///
/// `@unchecked Sendable`: the pointer is immutable, and the string it points at is never
/// written after `init`.
package final class CrashLabel: @unchecked Sendable {
  package let pointer: UnsafeMutablePointer<CChar>?

  package init(_ text: String?) {
    self.pointer = text.map { strdup($0) }
  }

  deinit {
    free(self.pointer)
  }
}

/// The host's crash reports: after ``install(exitCode:)``, a crash inside a plugin call prints
/// one line naming the feature, its original file, the instance, the call and the action's text
/// (when it came as text), and the process exits with `exitCode`. Standard output becomes
/// line-buffered, so what was printed before the crash is not lost.
public enum CrashReports {
  /// The exit code `patchbay` documents for "a plugin crashed the app".
  public static let pluginCrashed: Int32 = 3

  public static func install(exitCode: Int32 = CrashReports.pluginCrashed) {
    pb_crash_install(exitCode)
  }

  /// Copies crash and hang reports into `fileDescriptor` (a run's recording) as a JSON line
  /// (``RecordingLine/report(_:)``); -1 for nowhere.
  public static func copyReports(to fileDescriptor: Int32) {
    pb_crash_copy_reports_to(fileDescriptor)
  }

  /// The terminal settings to put back, and what to write to leave full screen, when a crash
  /// or a hang report ends the process; nil once the terminal is restored.
  public static func restoreTerminalOnExit(_ settings: termios?, leaving: StaticString = "") {
    guard var settings else {
      pb_crash_restore_terminal_on_exit(nil, nil)
      return
    }
    pb_crash_restore_terminal_on_exit(
      &settings, UnsafeRawPointer(leaving.utf8Start).assumingMemoryBound(to: CChar.self))
  }

  /// While a full-screen UI runs: keeps what the process writes to stderr (a plugin's prints,
  /// Swift's "Fatal error" line before a crash) instead of drawing it over the screen; a
  /// crash or hang report prints it after the terminal is back. False when stderr stays.
  @discardableResult
  public static func captureStderr() -> Bool {
    pb_crash_capture_stderr() == 0
  }

  /// Ends ``captureStderr()``, after the terminal is back: what was kept is printed.
  /// `inSignalHandler`: from a handler, where only async-signal-safe calls may run.
  public static func releaseStderr(inSignalHandler: Bool = false) {
    guard inSignalHandler else { return pb_crash_release_stderr() }
    if pb_crash_reclaim_stderr() != 0 { pb_crash_write_kept_stderr() }
  }

  /// Names the flight recorder's file at the end of a crash or hang report, with the command
  /// that replays it; nil names none.
  public static func nameFlightFile(_ file: String?) {
    pb_crash_name_flight_file(file)
  }

  /// Starts the watchdog (once a process): a call on the app queue that has not returned
  /// after `limits.callSeconds`, or a processor call after `limits.audioPeriods` periods of
  /// `periodSeconds`, is reported in one line like a crash, and the process exits with the
  /// code given to ``install(exitCode:)``. It costs one store a call.
  public static func watch(_ limits: OutputLimits, periodSeconds: Double) {
    pb_watch_start(
      UInt32(limits.callSeconds), UInt32(limits.audioPeriods),
      Double(limits.audioPeriods) * periodSeconds)
  }

  /// The watchdog for offline work, where a period has no deadline of its own (the
  /// validator's children): a call, or a `process` call, that has not returned after
  /// `seconds` is reported.
  public static func watch(callSeconds seconds: Int) {
    pb_watch_start(UInt32(seconds), 0, Double(seconds))
  }
}
