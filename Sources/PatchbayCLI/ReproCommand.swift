import ArgumentParser
import Foundation
import PatchbayHost
import PatchbayRepro
import PatchbayScript

/// `patchbay repro FILE`: a failing run shrunk to the fewest steps that still fail the same
/// way, written as a script and a test.
struct ReproCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "repro",
    abstract: "Shrink a failing run to the fewest actions that fail the same way, as a test.",
    discussion: """
      FILE is a recording (`patchbay run --record`) or a flight file (the last actions every \
      app keeps, named by a crash or hang report). Replays it in child processes; when it \
      fails every time the same way (same kind, feature and call), leaves out steps (delta \
      debugging) and makes arguments simpler (numbers toward 0, strings shorter) while it \
      still does. Writes into --out: repro.jsonl (patchbay replay), repro.script (patchbay \
      run --script) and a Swift Testing test that fails until the plugin is fixed: a \
      TestStore test of the feature where its Swift source is found (SwiftPM's records in \
      the plugin's build folder, or in the .build of the package around the current folder) \
      and the kept steps are actions to one instance of it; else a test that loads the built \
      plugin (PluginHarness), as C plugins need.

      Exits 0 with the files written, 1 when the recording does not fail or fails only \
      sometimes (flaky: how many times is said).

      Example:
        patchbay repro /tmp/patchbay-flight/Lock-4242-1.flight --out repro
      """)

  @Argument(help: "The recording or flight file.")
  var file: String

  @Option(
    help: ArgumentHelp("Where to write the script, the test and the recording.", valueName: "dir"))
  var out = "repro"

  @Option(help: "How many replays run at once (default: one per core).")
  var jobs = ProcessInfo.processInfo.activeProcessorCount

  @Option(help: "How many times the whole run is replayed first, to tell a flaky failure.")
  var confirm = 3

  @Option(
    help: ArgumentHelp(
      "How long a call may take before it counts as a hang (overrides [limits] "
        + "call-seconds; lower it to shrink a hang faster).", valueName: "seconds"))
  var callSeconds: Int?

  @Flag(
    help: ArgumentHelp(
      "Write the test through the built plugin (PluginHarness) even where the feature's Swift "
        + "source is found (a TestStore test is written then)."))
  var harness = false

  @OptionGroup var search: PluginSearchOptions
  @OptionGroup var isolation: IsolateOption

  func validate() throws {
    guard self.jobs >= 1, self.confirm >= 1, (self.callSeconds ?? 1) >= 1 else {
      throw ValidationError("--jobs, --confirm and --call-seconds take 1 or more.")
    }
  }

  func run() throws {
    let recording: Recording
    do {
      recording = try Recording(file: self.file)
    } catch {
      throw CommandFailure(error.description)
    }
    var session = ReproSession(
      executable: executableDirectory() + "/patchbay", arguments: self.childArguments,
      jobs: self.jobs, confirmations: self.confirm, callSeconds: self.callSeconds)
    session.harness = self.harness
    do {
      let done = try session.run(recording, from: self.file, into: self.out) { Terminal.out($0) }
      ReproSession.summary(done, of: recording.steps.count).forEach { Terminal.out($0) }
    } catch {
      throw CommandFailure("\(error)")
    }
  }

  /// What each replay is given of this command's options.
  private var childArguments: [String] {
    var arguments = self.search.pluginPaths.flatMap { ["--plugin-path", $0] }
    if self.search.allowInsecurePluginPath { arguments.append("--allow-insecure-plugin-path") }
    arguments += self.isolation.isolate.flatMap { ["--isolate", $0] }
    return arguments
  }
}
