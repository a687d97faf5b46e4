import Patchbay
import PatchbayTestWaiting
import Synchronization
import Testing

private struct SinkChild: Reducer {
  struct State: Equatable { var received: [Int] = [] }
  @CasePathable enum Action: Equatable { case start, value(Int) }
  func reduce(into state: inout State, action: Action) -> Effect<Action> {
    switch action {
    case .start:
      return .run { send in
        for i in 0..<10_000 {
          await send(.value(i))
          if i % 100 == 0 { await Task.yield() }
        }
      }
    case .value(let i):
      state.received.append(i)
      return .none
    }
  }
}
private struct SinkParent: Reducer {
  struct State: Equatable { var child = SinkChild.State() }
  @CasePathable enum Action: Equatable { case child(SinkChild.Action) }
  var body: some Reducer<State, Action> {
    Scope(state: \.child, action: \.child) { SinkChild() }
  }
}

private struct OptionalParent: Reducer {
  struct State: Equatable { var child: Counter.State? }
  @CasePathable enum Action { case child(Counter.Action), show }
  var body: some Reducer<State, Action> {
    Reduce { state, action in
      if case .show = action { state.child = Counter.State() }
      return .none
    }
    .ifLet(\.child, action: \.child) { Counter() }
  }
}

@Suite(.highPriority) struct StoreTests {
  @Test func sendReducesImmediatelyAndStateIsReadable() {
    let store = Store(initialState: Counter.State()) { Counter() }
    store.send(.increment)
    store.send(.setStep(5))
    store.send(.increment)
    #expect(store.state == Counter.State(count: 6, step: 5))
  }

  @Test func sendsFromEffectsAreQueuedNotRecursed() {
    // `.send` effects are reduced after the action that returned them, and after the actions
    // already waiting: depth never exceeds one.
    struct Recorder: Reducer {
      struct State: Equatable { var log: [String] = [] }
      enum Action: Equatable { case start, a, b, c }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        state.log.append("\(action)")
        switch action {
        case .start: return .merge(.send(.a), .send(.b))
        case .a: return .send(.c)
        case .b, .c: return .none
        }
      }
    }
    let store = Store(initialState: Recorder.State()) { Recorder() }
    store.send(.start)
    #expect(store.state.log == ["start", "a", "b", "c"])
  }

  @Test func observerSendsAreQueued() {
    let store = Store(initialState: Counter.State()) { Counter() }
    var seen: [Int] = []
    let token = store.observe { state in
      seen.append(state.count)
      if state.count < 3 { store.send(.increment) }
    }
    store.send(.increment)
    #expect(seen == [1, 2, 3])
    token.cancel()
    store.send(.increment)
    #expect(seen == [1, 2, 3])
  }

  @Test func observersHearOnlyChanges() {
    let store = Store(initialState: Counter.State()) { Counter() }
    let changes = Mutex(0)
    let token = store.observe { _ in changes.withLock { $0 += 1 } }
    store.send(.setStep(1))  // unchanged
    store.send(.increment)
    #expect(changes.withLock { $0 } == 1)
    _ = token
  }

  @Test func tenThousandActionsFromOneEffectArriveInOrder() async {
    let store = Store(initialState: SinkChild.State()) { SinkChild() }
    store.send(.start)
    #expect(await eventually { store.state.received.count == 10_000 })
    #expect(store.state.received == Array(0..<10_000))
  }

  @Test func tenThousandActionsThroughScopeArriveInOrder() async {
    let store = Store(initialState: SinkParent.State()) { SinkParent() }
    store.scope(state: \.child, action: \.child).send(.start)
    #expect(await eventually { store.state.child.received.count == 10_000 })
    #expect(store.state.child.received == Array(0..<10_000))
  }

  @Test func concurrentSendsFromManyThreadsAreAllReduced() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<1_000 { store.send(.increment) }
        }
      }
    }
    #expect(store.state.count == 8_000)
  }

  @Test func anEndlessEffectDoesNotKeepAReleasedStoreAlive() async {
    struct Ticker: Reducer {
      struct State: Equatable { var ticks = 0 }
      enum Action: Equatable { case start, tick }
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .start:
          return .run { send in
            while !Task.isCancelled {
              await send(.tick)
              try await Task.sleep(for: .milliseconds(1))
            }
          }
        case .tick:
          state.ticks += 1
          return .none
        }
      }
    }
    weak var weakStore: Store<Ticker.State, Ticker.Action>?
    do {
      let store = Store(initialState: Ticker.State()) {
        Ticker()
      }
      weakStore = store
      store.send(.start)
      #expect(await eventually { store.state.ticks > 2 })
    }
    #expect(weakStore == nil)
  }

  @Test func releasingTheStoreCancelsItsEffects() async {
    let finished = Mutex<String?>(nil)
    struct Waiter: Reducer {
      let finished: @Sendable (String) -> Void
      func reduce(into state: inout Int, action: Void) -> Effect<Void> {
        let finished = self.finished
        return .run { _ in
          do {
            try await Task.sleep(for: .seconds(3_600))
            finished("slept")
          } catch {
            finished("cancelled")
          }
        }
      }
    }
    do {
      let store = Store(initialState: 0) {
        Waiter { value in finished.withLock { $0 = value } }
      }
      store.send(())
    }
    #expect(await eventually { finished.withLock { $0 } != nil })
    #expect(finished.withLock { $0 } == "cancelled")
  }

  @Test func scopedStoreSeesAndSendsItsPart() {
    let store = Store(initialState: Outer.State()) { Outer() }
    let counter =
      store
      .scope(state: \.middle, action: \.middle)
      .scope(state: \.inner, action: \.inner)
      .scope(state: \.counter, action: \.counter)
    counter.send(.increment)
    counter.send(.increment)
    #expect(counter.state.count == 2)
    #expect(store.state.childActionsSeen == 2)
  }

  @Test func optionalScopeIsNilWhileChildIsAbsent() {
    let store = Store(initialState: OptionalParent.State()) { OptionalParent() }
    #expect(store.scope(state: \.child, action: \.child) == nil)
    store.send(.show)
    let child = store.scope(state: \.child, action: \.child)
    child?.send(.increment)
    #expect(child?.state.count == 1)
  }

  @Test func stateChangesStreamYieldsNewStates() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    let stream = store.stateChanges
    let reader = Task {
      var counts: [Int] = []
      for await state in stream {
        counts.append(state.count)
        if counts.count == 3 { break }
      }
      return counts
    }
    try? await Task.sleep(for: .milliseconds(20))
    store.send(.increment)
    store.send(.increment)
    store.send(.increment)
    #expect(await reader.value == [1, 2, 3])
  }
}
