import Foundation
import PatchbayHost

/// Each plugin's life as DevTools' Plugins view shows it: swaps and rollbacks (from the app's
/// changes), crashes and failures (from its failures), and what its own log lines tell of its
/// code (a crash, a hang or a restart of an isolated plugin outside any call).
///
/// ```swift
/// feed.noteLog(feature: "dev.patchbay.counter", level: .error, "… crashed … started again")
/// feed.pluginHistory()["feature:dev.patchbay.counter"]   // [{"t":1204,"event":"crash",…}]
/// ```
extension DevToolsFeed {
  /// A plugin's log line, in the timeline; a crash, a hang or a restart it reports (an
  /// isolated plugin's, outside any call) in its feature's history too. On any thread, the
  /// app queue included: nothing here waits for the app.
  func noteLog(feature: String, level: PluginLogLevel, _ text: String) {
    let time = self.milliseconds
    let event = Self.lifeEvent(in: text)
    self.log.withValue { log in
      if level == .error || level == .warning, let event {
        Self.addHistory(to: Self.featureKey(feature), time, event, text, in: &log)
      }
      Self.append(
        JSONText.object([
          ("seq", String(log.steps.count)), ("t", String(time)), ("kind", #""log""#),
          ("feature", JSONText.string(feature)), ("level", JSONText.string(level.rawValue)),
          ("text", JSONText.string(text)),
        ]), to: &log)
    }
  }

  /// What a plugin's line says happened to its code: a crash, a hang, a restart. (A rollback's
  /// line repeats the crash; the rollback itself is its swap.)
  static func lifeEvent(in text: String) -> String? {
    if text.contains("Rolled back to") { return nil }
    if text.contains("crashed") { return "crash" }
    if text.contains(" hung") || text.contains("hangs") { return "hang" }
    if text.contains("started again") || text.contains("restarted") { return "restart" }
    return nil
  }

  /// Where a history kept by feature (from a log line, which names no file) is filed.
  static func featureKey(_ feature: String) -> String { "feature:" + feature }

  static func addHistory(
    to plugin: String, _ time: Int, _ event: String, _ text: String, in log: inout Log
  ) {
    log.plugins[plugin, default: []].append(
      JSONText.object([
        ("t", String(time)), ("event", JSONText.string(event)), ("text", JSONText.string(text)),
      ]))
  }

  /// Each plugin file's events (swaps, crashes), as JSON objects by file; those its log
  /// lines told, by ``featureKey(_:)``.
  func pluginHistory() -> [String: [String]] { self.log.withValue { $0.plugins } }

  /// History events (each with `"t"` first) in the order they happened.
  static func byTime(_ events: [String]) -> [String] {
    events.sorted { Self.time(of: $0) < Self.time(of: $1) }
  }

  private static func time(of event: String) -> Int {
    Int(event.dropFirst(#"{"t":"#.count).prefix { $0.isNumber }) ?? 0
  }
}
