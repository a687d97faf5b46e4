import Foundation
import PatchbayHost
import PatchbayScript

/// One `patchbay repro` from start to end: the recording replayed in child processes,
/// confirmed, shrunk, and written as a script and a test. What `patchbay repro` runs, and
/// `patchbay validate --out` with the run it makes of a failure it found.
///
/// ```swift
/// let session = ReproSession(executable: "/usr/bin/patchbay", arguments: [], jobs: 2,
///                            confirmations: 3, callSeconds: nil)
/// let done = try session.run(recording, from: "crash.flight", into: "repro") { print($0) }
/// done.files   // ["repro/repro.jsonl", "repro/repro.script", "repro/LockReproTests.swift"]
/// ```
package struct ReproSession: Sendable {
  /// The `patchbay` executable the replays run.
  package var executable: String
  /// What each replay is given besides the config (`--plugin-path`, `--isolate`, …).
  package var arguments: [String]
  package var jobs: Int
  /// How many times the whole run is replayed first, to tell a flaky failure.
  package var confirmations: Int
  /// Overrides the config's `[limits] call-seconds` in the replays and the written test.
  package var callSeconds: Int?
  /// Whether the test goes through the built plugin even where a TestStore test could be
  /// written (`--harness`).
  package var harness = false

  package init(
    executable: String, arguments: [String], jobs: Int, confirmations: Int, callSeconds: Int?
  ) {
    self.executable = executable
    self.arguments = arguments
    self.jobs = jobs
    self.confirmations = confirmations
    self.callSeconds = callSeconds
  }

  /// What a session shrank and wrote.
  package struct Done: Sendable {
    package var shrunk: Repro.Shrunk
    package var files: [String]
    /// Which test was written, and why that one.
    package var test: String
    package var took: Duration
  }

  /// Shrinks `recording` (read from `source`) and writes what is left into `folder`, saying
  /// how it goes with `say`. Throws ``Repro/Refusal`` when the run does not fail every time
  /// the same way, ``AppError`` when the files cannot be written.
  package func run(
    _ recording: Recording, from source: String, into folder: String,
    say: (String) -> Void
  ) throws -> Done {
    let scratch = FileManager.default.temporaryDirectory
      .appendingPathComponent("patchbay-repro-\(getpid())-\(UUID().uuidString.prefix(8))").path
    try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    // The replays' own flight files go with the scratch folder.
    setenv("PATCHBAY_FLIGHT_DIR", scratch + "/flight", 1)
    // A child that ends while a candidate is written to it is read, not a signal to this.
    signal(SIGPIPE, SIG_IGN)
    var arguments = self.arguments
    if let seconds = self.callSeconds { arguments += ["--call-seconds", "\(seconds)"] }
    let runner = ReproRunner(
      executable: self.executable, config: recording.config, folder: scratch,
      arguments: arguments, jobs: self.jobs)
    defer { runner.stop() }
    let repro = Repro(
      steps: recording.steps.map(\.step), runner: runner, confirmations: self.confirmations,
      expected: recording.stoppedBy.flatMap { ReproFailure(report: $0) })
    let clock = ContinuousClock()
    let started = clock.now
    let shrunk = try repro.shrink(progress: say)
    let plugin = shrunk.report.firstMatch(of: /\((\/[^()]*\.so)\)/).map { String($0.output.1) }
    let found: FeatureSource.Search =
      self.harness
      ? .notLookedFor
      : FeatureSource.find(
        shrunk.failure.feature, plugin: plugin, from: FileManager.default.currentDirectoryPath
      ).map { .found($0) } ?? .notFound
    let written = try ReproFiles.write(
      shrunk, config: recording.config, from: source, of: recording.steps.count,
      callSeconds: self.callSeconds, source: found, into: folder)
    return Done(
      shrunk: shrunk, files: written.files, test: written.test,
      took: started.duration(to: clock.now))
  }

  /// The summary `patchbay repro` prints: what was kept, what was made simpler, how the run
  /// ended, what was written.
  package static func summary(_ done: Done, of total: Int) -> [String] {
    let shrunk = done.shrunk
    var lines = [
      "kept \(shrunk.kept.count) of \(total) steps, dropped \(total - shrunk.kept.count), in "
        + "\(shrunk.runs) replays "
        + "(\(done.took.formatted(.units(allowed: [.seconds], fractionalPart: .show(length: 1))))):"
    ]
    lines += shrunk.kept.map { "  \($0.scriptLine)" }
    lines += shrunk.simplified.map { "simpler: \($0.from) → \($0.to)" }
    lines.append("the run ended: \(shrunk.report)")
    lines += done.files.map { "wrote \($0)" }
    lines.append("the test is \(done.test)")
    return lines
  }
}
