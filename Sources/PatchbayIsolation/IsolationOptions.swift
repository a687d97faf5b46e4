import Foundation
import PatchbayLoader

/// How isolated plugins run: the limits their calls and processes keep (`[limits]`: call
/// seconds, when a plugin that keeps crashing is disabled, memory and CPU), and where the
/// child executable is.
///
/// ```swift
/// var options = IsolationOptions(limits: config.limits)
/// options.limits.isolatedCrashes = 3      // within isolatedCrashSeconds: disabled
/// ```
package struct IsolationOptions: Sendable {
  /// `callSeconds` bounds a call across (past it, the process is ended: a hang);
  /// `stateBytes` sizes the channel.
  package var limits: OutputLimits
  /// How much of a period the host's audio thread waits for an isolated processor, live;
  /// past it the period is silence for that processor.
  package var deadlineShare = 0.5
  /// The SHA-256 the file must have, checked by the child's loader.
  package var pin: String?
  package var allowsInsecurePaths = false
  /// Plugin files the process loads, when the plugin imports a function, to find its
  /// provider (``PluginLoader/functionProviders``).
  package var providers: [String] = []
  /// What its sandbox lets the process do after all: "sockets", "exec", "ptrace".
  package var sandboxAllows: Set<String> = []
  /// The child executable; nil: `PATCHBAY_ISOLATED_CHILD`, else `patchbay-isolated` beside
  /// this process's executable.
  package var childExecutable: String?

  package init(limits: OutputLimits = .standard) {
    self.limits = limits
  }

  /// The plugins `PATCHBAY_ISOLATE` names (comma-separated, or "all"), isolated on top of
  /// what a config or the command line asks: how the tests run the host's plugin tests a
  /// second time, every plugin isolated.
  package static var fromEnvironment: Set<String> {
    let names = ProcessInfo.processInfo.environment["PATCHBAY_ISOLATE"] ?? ""
    return Set(names.split(separator: ",").map { String($0.trimmingCharacters(in: .whitespaces)) })
  }

  func executable() throws(IsolationError) -> String {
    if let path = self.childExecutable
      ?? ProcessInfo.processInfo.environment["PATCHBAY_ISOLATED_CHILD"]
    {
      return path
    }
    let own = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    let beside = own.deletingLastPathComponent().appendingPathComponent("patchbay-isolated").path
    guard FileManager.default.isExecutableFile(atPath: beside) else {
      throw IsolationError(
        "cannot find patchbay-isolated, the process isolated plugins run in, beside \(own.path). "
          + "Build it (swift build), or set PATCHBAY_ISOLATED_CHILD to its path.")
    }
    return beside
  }
}
