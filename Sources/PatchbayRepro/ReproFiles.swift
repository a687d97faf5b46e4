import Foundation
import PatchbayHost
import PatchbayScript

/// What `patchbay repro` writes into its folder, from a shrunk run: the run as a recording
/// (`repro.jsonl`, for `patchbay replay`), as a script (`repro.script`, for `patchbay run`),
/// and as a Swift Testing test that fails while the plugin has the fault and passes once it
/// is fixed (`<Feature>ReproTests.swift`): a `TestStore` test where the feature's Swift source
/// is found and the steps fit one (``ReproStoreTest``), else a test through the built plugin
/// (``PluginHarness``), which C plugins use too.
///
/// ```swift
/// let written = try ReproFiles.write(shrunk, config: recording.config, from: "crash.flight",
///                                    of: 10_000, callSeconds: nil, source: .notFound, into: "repro")
/// written.files   // ["repro/repro.jsonl", "repro/repro.script", "repro/LockReproTests.swift"]
/// written.test    // "through the built plugin (PluginHarness): no Swift source of …"
/// ```
package enum ReproFiles {
  /// The files written, and which test the last is and why.
  package struct Written: Sendable {
    package var files: [String]
    package var test: String
  }

  package static func write(
    _ shrunk: Repro.Shrunk, config: String, from origin: String, of total: Int,
    callSeconds: Int?, source: FeatureSource.Search, into folder: String
  ) throws(AppError) -> Written {
    do {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: true)
    } catch {
      throw AppError(
        .recording(
          file: folder, line: nil,
          problem: "cannot make the folder (\(error.localizedDescription)); name another with --out"
        ))
    }
    let recording = "\(folder)/repro.jsonl"
    try Recording(
      config: config, steps: shrunk.kept.enumerated().map { ($0.offset + 2, $0.element) },
      file: recording, stoppedBy: shrunk.report
    ).write(to: recording)
    let summary =
      "\(shrunk.failure), after \(shrunk.kept.count) of \(total) steps of \(origin) "
      + "(shrunk in \(shrunk.runs) replays by patchbay repro)"
    let script = "\(folder)/repro.script"
    let test = "\(folder)/\(Self.typeName(shrunk.failure.feature))ReproTests.swift"
    let (text, kind) = Self.test(
      shrunk, config: config, summary: summary, callSeconds: callSeconds, source: source)
    let files = [(script, Self.script(shrunk, config: config, summary: summary)), (test, text)]
    for (file, text) in files
    where !FileManager.default.createFile(atPath: file, contents: Data(text.utf8)) {
      throw AppError(
        .recording(
          file: file, line: nil, problem: "cannot write it; check the folder is writable"))
    }
    return Written(files: [recording, script, test], test: kind)
  }

  /// The test's text, and which test it is: a TestStore test where it can be, else one
  /// through the built plugin, with why.
  static func test(
    _ shrunk: Repro.Shrunk, config: String, summary: String, callSeconds: Int?,
    source found: FeatureSource.Search
  ) -> (text: String, kind: String) {
    let harness = Self.harnessTest(
      shrunk, config: config, summary: summary, callSeconds: callSeconds)
    let source: FeatureSource
    switch found {
    case .found(let found): source = found
    case .notLookedFor:
      return (harness, "through the built plugin (PluginHarness), as --harness asks")
    case .notFound:
      return (
        harness,
        "through the built plugin (PluginHarness): no Swift source of \(shrunk.failure.feature) "
          + "was found beside the plugin or in the package around this folder; run repro in "
          + "the plugin's package for a TestStore test"
      )
    }
    let store = ReproStoreTest(shrunk, config: config, source: source, callSeconds: callSeconds)
    do {
      return (
        try store.text(summary: summary), "a TestStore test of \(source.type) (\(source.file))"
      )
    } catch {
      return (harness, "through the built plugin (PluginHarness), not a TestStore: \(error)")
    }
  }

  /// The script: each kept step as the command that takes it.
  static func script(_ shrunk: Repro.Shrunk, config: String, summary: String) -> String {
    var lines = [
      "# \(summary)", "# \(shrunk.report)",
      "# patchbay run \(config) --script repro.script", "",
    ]
    for step in shrunk.kept {
      if case .action(let path, let text, let source) = step {
        // Sent here as a command, whoever sent it in the run (an effect, MIDI, a processor).
        lines.append(
          "send \(path) \(text)" + (source == .command ? "" : "  # sent by \(source.rawValue)"))
      } else {
        lines.append(step.scriptLine)
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The Swift Testing test through the built plugin: the kept steps, in a process of its own,
  /// expected to end well.
  static func harnessTest(
    _ shrunk: Repro.Shrunk, config: String, summary: String, callSeconds: Int?
  ) -> String {
    let type = Self.typeName(shrunk.failure.feature)
    let harness =
      "try PluginHarness(config: \(Self.literal(config))"
      + (callSeconds.map { ", callSeconds: \($0))" } ?? ")")
    var body = ["    let app = \(harness)"]
    for step in shrunk.kept {
      if case .action(let path, let text, _) = step {
        body.append("    try await app.send(\(Self.literal(path)), \(Self.literal(text)))")
      } else {
        body.append("    try await app.run(\(Self.literal(step.scriptLine)))")
      }
    }
    return """
      // \(summary).
      // The run ended: \(shrunk.report)
      //
      // This test fails while the plugin has that fault, and passes once it is fixed. Add it
      // to a test target that depends on Patchbay's PatchbayHarness product, then:
      //   swift test --filter \(type)ReproTests
      import PatchbayHarness
      import Testing

      @Suite struct \(type)ReproTests {
        /// The \(shrunk.kept.count) steps, through the app's real plugins.
        static func steps() async throws {
      \(body.joined(separator: "\n"))
        }

        /// \(shrunk.failure) no longer happens after the steps. They run in a process of their
        /// own: a crash or a hang ends it, and fails the test with what the host said.
        @Test func \(Self.testName(shrunk.failure))() async {
          let passed = await #expect(processExitsWith: .success) {
            try await \(type)ReproTests.steps()
          }
          guard passed == nil,
            let failed = await #expect(
              processExitsWith: .failure, observing: [\\.standardErrorContent],
              performing: { try await \(type)ReproTests.steps() })
          else { return }
          Issue.record(Comment(rawValue: String(decoding: failed.standardErrorContent, as: UTF8.self)))
        }
      }

      """
  }

  /// `Lock` for `dev.patchbay.fixture.lock`, `TheoryPlugin` for `dev.patchbay.theory-plugin`.
  static func typeName(_ feature: String) -> String {
    let last = feature.split(separator: ".").last.map(String.init) ?? "Feature"
    let words = last.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
    let name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    return name.first?.isLetter == true ? name : "Feature\(name)"
  }

  static func testName(_ failure: ReproFailure) -> String {
    switch failure.kind {
    case "hang": "itsCallsReturn"
    case "refused": "itsActionsAreTaken"
    case "nan": "itsProcessorWritesNumbers"
    default: "itDoesNotCrash"
    }
  }

  /// A Swift string literal of `text`.
  static func literal(_ text: String) -> String {
    String(reflecting: text)
  }
}
