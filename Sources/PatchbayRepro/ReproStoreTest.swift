import PatchbayConfig
import PatchbayEncoding
import PatchbayScript

/// The test `patchbay repro` writes where the feature's Swift source is found: the kept
/// actions sent to the feature's reducer through a `TestStore`, as a TCA user writes a test,
/// in a process of its own that a crash or a hang fails.
///
/// ```swift
/// let test = ReproStoreTest(shrunk, config: "lock.toml", source: source, callSeconds: nil)
/// try test.text(summary: "SIGILL in dev.patchbay.fixture.lock's reduce, after 4 of 304 …")
/// //   let store = TestStore(initialState: Lock.initialState) { Lock() }
/// //   store.exhaustivity = .off
/// //   await store.send(.dial(3))
/// //   …
/// ```
///
/// A TestStore runs the reducer, its effects and nothing else of an app, so the steps must be
/// that: actions to one instance of the failing feature (and the state it started from), none
/// of them sent by an effect (the store's own effects send those again), and a failure in the
/// reduce that is a crash or a hang. Anything else is a test through the built plugin
/// (``ReproFiles``), and ``Unfit`` says why.
struct ReproStoreTest {
  let shrunk: Repro.Shrunk
  let config: String
  /// The config read once: which feature a path runs, and how long a call may take.
  let app: AppConfig?
  let source: FeatureSource
  let callSeconds: Int?

  init(_ shrunk: Repro.Shrunk, config: String, source: FeatureSource, callSeconds: Int?) {
    self.shrunk = shrunk
    self.config = config
    self.app = try? AppConfig(contentsOf: config)
    self.source = source
    self.callSeconds = callSeconds
  }

  /// Why the steps are no TestStore test.
  struct Unfit: Error, CustomStringConvertible {
    let description: String
  }

  /// The test file, or why there is none.
  func text(summary: String) throws(Unfit) -> String {
    let (start, actions) = try self.steps()
    let type = self.source.type
    let name = ReproFiles.typeName(self.shrunk.failure.feature) + "ReproTests"
    let initial = start.map { "\(type).State\($0.swiftExpression.dropFirst(".init".count))" }
    var body: [String] = []
    var imports = ["import PatchbayPlugin", "import PatchbayTesting", "import Testing"]
    if self.shrunk.failure.kind == "hang" {
      // The reduce runs on the test's own thread: a watchdog ends the process when the sends
      // take longer than the app allows each.
      let seconds = self.seconds * actions.count
      imports.append("import Foundation")
      body += [
        "    // A reduce that takes longer than the app allows (\(self.seconds) s) is the hang.",
        "    DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(\(seconds))) {",
        "      let said = \"the \(actions.count) actions did not return within \(seconds) s\\n\"",
        "      FileHandle.standardError.write(Data(said.utf8))",
        "      exit(EXIT_FAILURE)",
        "    }",
      ]
    }
    body += [
      "    let store = TestStore(initialState: \(initial ?? "\(type).initialState")) { \(type)() }",
      "    store.exhaustivity = .off",
    ]
    body += actions.map { "    await store.send(\($0.swiftExpression))" }
    let module = self.source.module
    imports =
      self.source.isPublic
      ? (imports + ["import \(module)"]).sorted()
      : ["@testable import \(module)"] + imports.sorted()
    return """
      // \(summary).
      // The run ended: \(self.shrunk.report)
      //
      // This test fails while \(type) has that fault, and passes once it is fixed.
      // \(type): \(self.source.file)
      // Add it to a test target that depends on \(self.source.module) and on the PatchbaySDK and
      // PatchbayTestReporting products (a `patchbay new` package's test target does), then:
      //   swift test --filter \(name)
      \(imports.joined(separator: "\n"))

      @Suite struct \(name) {
        /// The \(actions.count) actions the run sent \(type), to its reducer.
        static func steps() async {
      \(body.joined(separator: "\n"))
        }

        /// \(self.shrunk.failure) no longer happens after the steps. They run in a process of
        /// their own: a crash or a hang ends it, and fails the test with what the process said.
        @Test func \(ReproFiles.testName(self.shrunk.failure))() async {
          let passed = await #expect(processExitsWith: .success) { await \(name).steps() }
          guard passed == nil,
            let failed = await #expect(
              processExitsWith: .failure, observing: [\\.standardErrorContent],
              performing: { await \(name).steps() })
          else { return }
          Issue.record(Comment(rawValue: String(decoding: failed.standardErrorContent, as: UTF8.self)))
        }
      }

      """
  }

  /// How long a reduce may take: the replays' own limit, else the config's.
  private var seconds: Int {
    self.callSeconds
      ?? self.app.map { Int($0.limits.callSeconds) } ?? 10
  }

  /// The state the instance started from (nil: the feature's initial state) and the actions.
  private func steps() throws(Unfit) -> (start: WireValue?, actions: [WireValue]) {
    let failure = self.shrunk.failure
    guard failure.call == "reduce", failure.kind != "refused", failure.kind != "nan" else {
      throw Unfit(
        description: "\(failure) is not a crash or a hang of the reduce, which a TestStore sees")
    }
    var path: String?
    var start: WireValue?
    var actions: [WireValue] = []
    for (index, step) in self.shrunk.kept.enumerated() {
      switch step {
      case .action(let at, let text, let source) where path == nil || path == at:
        guard source != .effect else {
          throw Unfit(
            description: "an effect sent '\(text)', which the TestStore's own effects send again")
        }
        guard let action = try? WireValue(parsingAction: text) else {
          throw Unfit(description: "'\(text)' is not an action's text")
        }
        (path, actions) = (at, actions + [action])
      case .kept(let at, let state) where index == 0:
        (path, start) = (at, WireValue(stateText: state))
        guard start != nil else { throw Unfit(description: "'\(state)' is not a state value") }
      default:
        throw Unfit(description: "'\(step.scriptLine)' needs the app, not one TestStore")
      }
    }
    guard let path else { throw Unfit(description: "the steps send no action") }
    try self.check(path, runs: failure.feature)
    return (start, actions)
  }

  /// Checks that the instance at `path` is of `feature`, as the config says.
  private func check(_ path: String, runs feature: String) throws(Unfit) {
    let key = path.split(separator: "/").last.map { String($0.prefix { $0 != "#" }) } ?? path
    guard let node = self.app?.node(key), node.featureID == feature else {
      throw Unfit(
        description: "the actions go to \(path), which the config \(self.config) does not say "
          + "runs \(feature)")
    }
  }
}
