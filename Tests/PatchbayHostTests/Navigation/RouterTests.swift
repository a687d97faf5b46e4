import PatchbayConfig
import PatchbayTesting
import Testing

@testable import PatchbayHost

/// A home with a practice screen (a quiz child, a results screen above it) and a settings
/// sheet: the navigation tree the router and plan tests walk.
func makeConfig() throws -> AppConfig {
  try AppConfig(
    parsing: """
      [app]
      root = "home"
      [plugins]
      load = []
      [[feature]]
      key = "home"
      id = "dev.patchbay.home"
      [[feature]]
      key = "practice"
      id = "dev.patchbay.practice"
      parent = "home"
      kind = "stack"
      [[feature]]
      key = "quiz"
      id = "dev.patchbay.quiz"
      parent = "practice"
      kind = "child"
      [[feature]]
      key = "results"
      id = "dev.patchbay.results"
      parent = "practice"
      kind = "stack"
      [[feature]]
      key = "settings"
      id = "dev.patchbay.settings"
      parent = "home"
      kind = "presented"
      [routes]
      "/" = "home"
      "/practice" = "practice"
      "/practice/quiz" = "quiz"
      "/practice/results" = "results"
      "/settings" = "settings"
      """,
    file: "app.toml")
}

@Suite struct RouterTests {
  @Test func pushPresentDismissPop() async throws {
    let config = try makeConfig()
    let store = TestStore(initialState: NavigationState()) { Router(config: config) }
    await store.send(.push(node: "practice")) {
      $0.stack = [.init(node: "practice", instance: 1)]
      $0.nextInstance = 2
    }
    await store.send(.push(node: "results")) {
      $0.stack.append(.init(node: "results", instance: 2))
      $0.nextInstance = 3
    }
    await store.send(.present(node: "settings")) {
      $0.presented = .init(node: "settings", instance: 3)
      $0.nextInstance = 4
    }
    await store.send(.dismiss) { $0.presented = nil }
    await store.send(.pop) { $0.stack.removeLast() }
    await store.send(.popToRoot) { $0.stack = [] }
  }

  @Test func deepLinksBuildTheStackFromTheTree() async throws {
    let config = try makeConfig()
    let router = Router(config: config)
    let store = TestStore(initialState: NavigationState()) { router }
    guard case .success(let results) = router.deepLink("/practice/results"),
      case .success(let quiz) = router.deepLink("/practice/quiz"),
      case .success(let settings) = router.deepLink("/settings")
    else {
      Issue.record("routes should resolve")
      return
    }
    #expect(quiz == .deepLink(nodes: ["practice"]))  // quiz is a child of the practice screen
    await store.send(results) {
      $0.stack = [.init(node: "practice", instance: 1), .init(node: "results", instance: 2)]
      $0.nextInstance = 3
    }
    await store.send(settings) {
      $0.stack = []
      $0.presented = .init(node: "settings", instance: 3)
      $0.nextInstance = 4
    }
  }

  @Test func refusalsChangeNothingAndSayWhy() throws {
    let config = try makeConfig()
    let router = Router(config: config)
    var state = NavigationState()
    let cases: [(NavigationAction, String)] = [
      (.pop, "nothing to pop: the root 'home' is showing."),
      (.dismiss, "nothing is presented."),
      (.push(node: "practis"), "'practis' is not a feature of this app. Did you mean 'practice'?"),
      (
        .push(node: "settings"),
        "'settings' is a presented feature; only stack features can be pushed. Change its kind in the config, or use present."
      ),
      (
        .present(node: "practice"),
        "'practice' is a stack feature; only presented features can be presented. Change its kind in the config, or use push."
      ),
    ]
    for (action, reason) in cases {
      #expect(router.refusal(of: action, in: state) == reason)
      _ = router.reduce(into: &state, action: action)
      #expect(state == NavigationState())
    }
    guard case .failure(let error) = router.deepLink("/practise"),
      case .noRoute("/practise", let routes) = error.reason
    else {
      Issue.record("expected an unknown route")
      return
    }
    #expect(routes.contains("/practice"))
    #expect(error.description.hasPrefix("no route '/practise'. Did you mean '/practice'?"))
  }
}
