import CustomDump
import Dependencies
import IssueReporting
import Patchbay

/// A store for tests: send an action and describe how the state must change, then receive
/// the actions effects feed back and describe those changes too.
///
/// ```swift
/// @Test func incrementLater() async {
///   let clock = TestClock()
///   let store = TestStore(initialState: Counter.State()) {
///     Counter()
///   } withDependencies: {
///     $0.continuousClock = clock
///   }
///
///   await store.send(.incrementLaterTapped) { $0.isWaiting = true }
///   await clock.advance(by: .seconds(1))
///   await store.receive(.incremented) {
///     $0.isWaiting = false
///     $0.count = 1
///   }
/// }
/// ```
///
/// Effects run for real, on an executor the store watches: a ``TestClock`` in the store's
/// dependencies lets them settle before it moves time on. By default the store is exhaustive:
/// every state change, every action an effect sends and every effect still running when the
/// store goes away must be asserted, or the test fails with a diff pointing at the line that
/// did not match. Effects that are already ending (cancelled, or past their last send) are
/// waited for, up to ``timeout``. Set ``exhaustivity`` to `.off` to assert only what matters
/// to the test.
///
/// Its API is TCA's: `send` returns a ``TestStoreTask``; `send(\.binding.name, "Blob")` and
/// `receive(\.response.success)` take case key paths; it works from `@MainActor` suites and
/// from nonisolated ones alike (every async method runs on its caller's actor).
public final class TestStore<State: Equatable, Action>: @unchecked Sendable {
  /// How much of what happens must be asserted. Default `.on`.
  public var exhaustivity: Exhaustivity = .on

  /// How long ``receive(_:timeout:assert:fileID:filePath:line:column:)-8ncwh`` and
  /// ``finish(timeout:fileID:filePath:line:column:)`` wait. Default one second.
  public var timeout: Duration = .seconds(1)

  /// The state as of the last assertion.
  public internal(set) var state: State

  let core: StoreCore<State, TestAction<Action>>
  let log: TestLog<State, Action>
  /// What shared values (`@Shared`) were before the changes not yet asserted.
  let sharedChanges = SharedChangeTracker()
  let executor = SettlingExecutor()
  let currentDependencies: LockedValue<DependencyValues>

  /// The dependencies the reducer and effects see. Change them mid-test, as TCA allows:
  /// `store.dependencies.continuousClock = ImmediateClock()` applies to the actions sent
  /// after it and the effects they start.
  public var dependencies: DependencyValues {
    get { self.currentDependencies.value }
    set {
      self.currentDependencies.withValue { $0 = newValue }
      self.settleTestClocks(in: newValue)
    }
  }
  var sends = 0
  let requestLog = LockedValue<[any Sendable]>([])
  let origin: (fileID: StaticString, filePath: StaticString, line: UInt, column: UInt)

  /// Creates a test store running `reducer`, with dependencies overridden for the reducer and
  /// its effects. Dependencies not overridden use their `testValue`.
  public init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let (state, compiled, dependencies) = withDependencies(prepareDependencies) {
      (initialState(), reducer()._compiled(), DependencyValues._current)
    }
    let log = TestLog<State, Action>(initialState: state)
    self.state = state
    self.log = log
    let requestLog = self.requestLog
    let currentDependencies = LockedValue(dependencies)
    self.currentDependencies = currentDependencies
    let base = compiled.transformDependency(\.self) { $0 = currentDependencies.value }
    self.core = StoreCore(
      initialState: state,
      reducer: TestReducer(base: base, log: log, sharedChanges: self.sharedChanges),
      dependencies: dependencies,
      requests: { payload in requestLog.withValue { $0.append(payload) } },
      effectExecutor: self.executor
    )
    self.origin = (fileID, filePath, line, column)
    self.settleTestClocks(in: dependencies)
  }

  /// Makes the test clocks among `dependencies` wait for this store's effects.
  func settleTestClocks(in dependencies: DependencyValues) {
    for clock in [dependencies.continuousClock, dependencies.suspendingClock] {
      (clock as? Patchbay.TestClock<Duration>)?.waitsFor(self.executor)
    }
  }

  deinit {
    guard self.exhaustivity == .on else { return }
    // Effects that are ending (past their last send, unwinding) get a moment to finish: the
    // wait lasts while they run on the store's executor, and ends soon after it falls quiet
    // (what is still in flight then is waiting on something, and would fail the test anyway).
    waitBlocking(
      until: { self.core.effects.count == 0 && !self.core.isBusy },
      whileBusy: self.executor, timeout: self.timeout
    )
    let unreceived = self.log.received
    if !unreceived.isEmpty {
      self.fail(
        """
        The store received \(unreceived.count) action(s) the test did not assert:
        \(unreceived.map { describeAction($0.action) }.joined(separator: "\n"))

        Fix: assert each with 'receive', or call 'skipReceivedActions()' before the test ends.
        """,
        at: self.origin
      )
    }
    let requests = self.requestLog.value
    if !requests.isEmpty {
      self.fail(
        """
        The store made \(requests.count) host request(s) the test did not assert:
        \(requests.map { describeAction($0) }.joined(separator: "\n"))

        Fix: check them with 'takeRequests()' before the test ends.
        """,
        at: self.origin
      )
    }
    let running = self.core.effects.count
    if running > 0 {
      self.fail(
        """
        \(running) effect(s) were still running when the test ended.

        Fix: make the effect finish (advance the test clock, complete its stream), cancel it \
        with an action, or call 'skipInFlightEffects()' or 'finish()' before the test ends.
        """,
        at: self.origin
      )
    }
  }

  /// Sends an action and asserts how it changed the state.
  ///
  /// In the `assert` closure, mutate `$0` (the state before the action) into the state you
  /// expect after it. Omit it when the action must not change the state. Returns the effects
  /// the action started, to cancel or wait for.
  @discardableResult
  public nonisolated(nonsending) func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = (fileID, filePath, line, column)
    if self.exhaustivity == .on {
      let pending = self.log.received
      if !pending.isEmpty {
        self.fail(
          """
          Must handle \(pending.count) received action(s) before sending an action:
          \(pending.map { describeAction($0.action) }.joined(separator: "\n"))

          Fix: assert them with 'receive' first, or call 'skipReceivedActions()'.
          """,
          at: location
        )
      }
    } else if let last = self.log.takeAllReceived().last {
      self.state = last.after
    }

    let send = self.sends
    self.sends += 1
    self.core.send(.sent(action, send: send))
    guard let entry = await self.waitForSent() else {
      self.fail(
        "The store did not reduce \(describeAction(action)) within \(self.timeout).",
        at: location
      )
      return TestStoreTask(id: nil, effects: self.core.effects, timeout: self.timeout)
    }
    self.check(entry, updateStateToExpectedResult, at: location)
    return TestStoreTask(
      id: entry.startedEffects ? SentActionEffects(send: send) : nil, effects: self.core.effects,
      timeout: self.timeout
    )
  }

  /// Sends the action a case key path names, for cases without a value:
  /// `await store.send(\.incrementButtonTapped) { $0.count = 1 }`.
  @_disfavoredOverload
  @discardableResult
  public nonisolated(nonsending) func send(
    _ action: CaseKeyPath<Action, Void>,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask where Action: CasePathable {
    await self.send(
      action(), assert: updateStateToExpectedResult, fileID: fileID, file: filePath, line: line,
      column: column
    )
  }

  /// Sends the action a case key path names with `value`: a binding,
  /// `await store.send(\.binding.name, "Blob") { $0.name = "Blob" }`, or any case with a
  /// value, `await store.send(\.todos[id: id].binding.isComplete, true)`.
  @_disfavoredOverload
  @discardableResult
  public nonisolated(nonsending) func send<Value>(
    _ action: CaseKeyPath<Action, Value>,
    _ value: Value,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask where Action: CasePathable {
    await self.send(
      action(value), assert: updateStateToExpectedResult, fileID: fileID, file: filePath,
      line: line, column: column
    )
  }

  /// Asserts the current state without sending anything: for non-exhaustive tests, after
  /// skipping what they do not check.
  public func assert(
    _ updateStateToExpectedResult: (_ state: inout State) throws -> Void,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    let location = (fileID, filePath, line, column)
    let actual = self.core.state
    var expected = self.exhaustivity == .on ? self.state : actual
    defer { self.sharedChanges.reset() }
    do {
      try SharedChangeTracker.$asserting.withValue(self.sharedChanges) {
        try updateStateToExpectedResult(&expected)
      }
    } catch {
      self.fail("The 'assert' closure threw: \(error)", at: location)
      return
    }
    guard let difference = self.difference(expected: expected, actual: actual) else { return }
    self.fail(
      """
      The state does not match expectation:

      \(difference.indent())

      (Expected: −, Actual: +)
      """,
      at: location
    )
  }

  /// Runs `operation` with ``exhaustivity`` set to `exhaustivity`, then restores it.
  public nonisolated(nonsending) func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity, operation: () async throws -> R
  ) async rethrows -> R {
    let saved = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = saved }
    return try await operation()
  }

  typealias Location = (
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  )

  /// Compares the state after `entry` with what the test expects.
  func check(
    _ entry: TestLog<State, Action>.Entry,
    _ updateStateToExpectedResult: ((inout State) throws -> Void)?,
    at location: Location
  ) {
    defer {
      self.state = entry.after
      self.sharedChanges.reset()
    }
    do {
      var expected = self.exhaustivity == .on ? entry.before : entry.after
      try SharedChangeTracker.$asserting.withValue(self.sharedChanges) {
        try updateStateToExpectedResult?(&expected)
      }
      self.compare(expected: expected, actual: entry.after, action: entry.action, at: location)
    } catch {
      self.fail("The 'assert' closure threw: \(error)", at: location)
    }
  }

  func compare(expected: State, actual: State, action: Action, at location: Location) {
    guard let difference = self.difference(expected: expected, actual: actual) else { return }
    self.fail(
      """
      A state change does not match expectation after \(describeAction(action)):

      \(difference.indent())

      (Expected: −, Actual: +)
      """,
      at: location
    )
  }

  nonisolated(nonsending) func waitForSent() async -> TestLog<State, Action>.Entry? {
    var entry = self.log.takeSent()
    if entry != nil { return entry }
    _ = await poll(
      until: {
        entry = self.log.takeSent()
        return entry != nil
      },
      timeout: self.timeout
    )
    return entry
  }

  func fail(_ message: String, at location: Location) {
    reportIssue(
      message, fileID: location.fileID, filePath: location.filePath, line: location.line,
      column: location.column
    )
  }
}

func describeAction<Action>(_ action: Action) -> String {
  var output = ""
  customDump(action, to: &output, maxDepth: 4)
  return output
}

extension String {
  func indent() -> String {
    self.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }
      .joined(separator: "\n")
  }
}
