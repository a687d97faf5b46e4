import ArgumentParser
import CPatchbayProcessGroup
import Foundation
import PatchbayDevTools
import PatchbayHost
import PatchbayLoader
// Every command writes through Terminal (Sources/PatchbayTerminalText).
@_exported import PatchbayTerminalText

/// `patchbay`: load feature plugins, inspect them, and run them composed into an app.
@main
struct PatchbayCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "patchbay",
    abstract: "Host Patchbay feature plugins.",
    discussion: """
      Plugins are shared libraries (lib<Name>.so) exporting features through the Patchbay \
      C ABI (patchbay.h). Name a plugin by path, or by name to search the plugin path: \
      --plugin-path folders, then $PATCHBAY_PLUGIN_PATH (colon-separated), then the folder \
      holding this executable (where `swift build` puts plugins).

      Exit codes: 0 success, 1 failure, 2 usage error, 3 a plugin crashed the app (the line \
      before names the feature, its file, the instance, the call and the action).
      """,
    // With the ABI it hosts: a plugin built for another major is refused.
    version: PatchbayVersion.description,
    subcommands: [
      Run.self, Replay.self, ReproCommand.self, Render.self, Check.self, Inspect.self,
      Functions.self, Call.self,
      New.self, Validate.self, AudioCommand.self, DevToolsCommand.self,
      MIDICommand.self, LV2Command.self, ReproChild.self,
    ]
  )

  /// Runs the command line with the documented exit codes: 0, 1 failure, 2 usage, 3 a plugin
  /// crashed.
  static func main() async {
    // Started by another patchbay (a validator's test): it dies with it.
    pb_group_adopt()
    // Also makes stdout line-buffered: a crash loses no output, even when redirected.
    CrashReports.install()
    do {
      let arguments = DevToolsAddress.normalize(Array(CommandLine.arguments.dropFirst()))
      var command = try Self.parseAsRoot(arguments)
      if var command = command as? any AsyncParsableCommand {
        try await command.run()
      } else {
        try command.run()
      }
    } catch {
      let code = Self.exitCode(for: error)
      let message = Self.fullMessage(for: error)
      if code == .success {
        Terminal.out(message)
        Foundation.exit(0)
      }
      if !message.isEmpty {
        Terminal.error(message)
      }
      Foundation.exit(
        code == .validationFailure || code.rawValue == 2 ? 2 : code.rawValue == 0 ? 0 : 1)
    }
  }
}

/// A failure the CLI reports as `error: …` on stderr, exit code 1.
struct CommandFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
