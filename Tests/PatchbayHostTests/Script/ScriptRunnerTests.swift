import PatchbayHost
import PatchbayScript
import Synchronization
import Testing

@Suite struct ScriptRunnerTests {
  func run(_ script: String) async throws -> (ScriptRunner.Outcome, [String]) {
    let output = Mutex<[String]>([])
    let runner = ScriptRunner(app: try makeDemoApp(), name: "test.script") { line in
      output.withLock { $0.append(line) }
    }
    let outcome = await runner.run(script)
    return (outcome, output.withLock { $0 })
  }

  @Test func aScriptDrivesTheApp() async throws {
    let (outcome, output) = try await self.run(
      """
      # set up
      send counter setStep(by: 5)
      send counter increment

      expect counter /count 5
      expect counter /step 5.0
      push echo
      send echo say(text: "hi there")
      expect echo /message "hi there"
      state echo
      render
      pop
      quit
      send counter increment
      """)
    #expect(outcome == .finished)
    #expect(
      output == [
        "{\n  \"message\": \"hi there\",\n  \"count\": 1\n}", "Heard 1 message(s). Last:\nhi there",
      ])
  }

  @Test func waitSwapReturnsOnceASwapHappened() async throws {
    let app = try makeDemoApp()
    let runner = ScriptRunner(app: app, name: "test.script") { _ in }
    // A swap made elsewhere (as --watch makes one) while the script waits.
    Task.detached {
      try await Task.sleep(for: .milliseconds(50))
      _ = try app.swap("counter", to: "CounterAlt")
    }
    let outcome = await runner.run(
      "send counter increment\nwait swap 300000\nsend counter increment")
    #expect(outcome == .finished)
    #expect(try app.state("counter")[field: "value"] == 2)
  }

  @Test func waitSwapCountsEachSwapOnce() async throws {
    let app = try makeDemoApp()
    let runner = ScriptRunner(app: app, name: "test.script") { _ in }
    let outcome = await runner.run("swap counter CounterAlt\nwait swap 300000\nwait swap 20")
    #expect(outcome == .failed("test.script:3: wait swap: no swap within 20 ms"))
  }

  /// A refused swap ends the wait at once, with why: a script does not sit out its limit.
  @Test func waitSwapFailsWhenTheSwapIsRefused() async throws {
    let app = try makeDemoApp()
    let runner = ScriptRunner(app: app, name: "test.script") { _ in }
    Task.detached {
      try await Task.sleep(for: .milliseconds(50))
      _ = try? app.swap("counter", to: "Echo")  // Echo has no dev.patchbay.counter
    }
    let outcome = await runner.run("wait swap 600000\nsend counter increment")
    guard case .failed(let message) = outcome else {
      Issue.record("the script went on: \(outcome)")
      return
    }
    #expect(message.hasPrefix("test.script:1: wait swap: the swap was refused: swap counter: "))
    #expect(message.contains("has no feature 'dev.patchbay.counter'"), "\(message)")
    #expect(try app.state("counter")[field: "count"] == 0)
  }

  @Test func pushWithInitialState() async throws {
    let output = Mutex<[String]>([])
    let runner = ScriptRunner(app: try makeFullDemoApp(), name: "test.script") { line in
      output.withLock { $0.append(line) }
    }
    let outcome = await runner.run("push practice\npush results {score: 3, outOf: 3}\nrender")
    #expect(outcome == .finished)
    #expect(output.withLock { $0 } == ["You scored 3 of 3. Perfect!"])
    let bad = await runner.run("push results score=3")
    #expect(
      bad
        == .invalid(
          "test.script:1: 'score=3' is not a state value; write a record: {score: 3, outOf: 3}"))
    let wrong = await runner.run("push results {points: 3}")
    guard case .failed(let message) = wrong else {
      Issue.record("expected a refusal, got \(wrong)")
      return
    }
    #expect(message.contains("dev.patchbay.results: create failed"))
    // A state that lacks a field and has one the State does not: most likely a misnamed one.
    #expect(message.contains("field 'points' is not in this State, and 'score', an int too"))
  }

  @Test func failedExpectationNamesTheLineAndShowsTheDifference() async throws {
    let (outcome, output) = try await self.run("send counter increment\nexpect counter /count 2")
    #expect(outcome == .failed("test.script:2: expect counter /count: expected 2, found 1"))
    #expect(outcome.exitCode == 1)
    #expect(output == ["- 2\n+ 1"])
  }

  @Test(arguments: [
    (
      "snd counter increment",
      "test.script:1: unknown command 'snd'. Did you mean 'send'? Commands: send, push, pop, present, dismiss, add, remove, swap, call, route, state, render, expect, wait, settle, quit."
    ),
    ("send counter", "test.script:1: usage: send PATH ACTION (send counter setStep(by: 5))"),
    (
      "expect counter count 1",
      "test.script:1: usage: expect PATH /POINTER VALUE (expect counter /count 5)"
    ),
    (
      "expect counter /count five",
      "test.script:1: 'five' is not a JSON value (strings need double quotes)"
    ),
    (
      "wait soon",
      "test.script:1: usage: wait MS (wait 100), or wait swap [MS] (wait swap 60000)"
    ),
    ("wait swap soon", "test.script:1: usage: wait swap [MS] (wait swap 60000)"),
    ("pop now", "test.script:1: 'pop' takes no arguments"),
    (
      "add tallies",
      "test.script:1: usage: add COLLECTION ID [STATE] (add home/tallies c {count: 2})"
    ),
    (
      "add tallies c {count: 1",
      "test.script:1: '{count: 1' is not a state value; write a record: {count: 2, step: 1}"
    ),
    ("remove tallies", "test.script:1: usage: remove COLLECTION ID (remove home/tallies a)"),
  ])
  func malformedLinesAreUsageErrors(_ line: String, _ message: String) async throws {
    let (outcome, _) = try await self.run(line)
    #expect(outcome == .invalid(message))
    #expect(outcome.exitCode == 2)
  }

  @Test(arguments: [
    (
      "send counter frobnicate",
      "test.script:1: counter: dev.patchbay.counter: cannot parse action 'frobnicate'"
    ),
    ("send nowhere increment", "test.script:1: no feature at 'nowhere'."),
    ("pop", "test.script:1: nothing to pop: the root 'counter' is showing."),
    ("dismiss", "test.script:1: nothing is presented."),
    ("expect counter /missing 1", "test.script:1: expect counter /missing: no such field in"),
    ("add tallies c", "test.script:1: 'tallies' is not a collection. This app has none."),
  ])
  func refusedCommandsFail(_ line: String, _ messagePrefix: String) async throws {
    let (outcome, _) = try await self.run(
      "send counter increment\n" + line.replacingOccurrences(of: "test.script:1", with: ""))
    guard case .failed(let message) = outcome else {
      Issue.record("expected a failure, got \(outcome)")
      return
    }
    #expect(
      message.hasPrefix(
        messagePrefix.replacingOccurrences(of: "test.script:1", with: "test.script:2")))
  }
}
