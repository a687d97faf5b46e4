import Testing

@testable import PatchbayHost

/// The router's plan is a pure value: what to create and destroy, decided before the app
/// changes.
@Suite struct NavigationPlanTests {
  let router: Router

  init() throws {
    self.router = Router(config: try makeConfig())
  }

  @Test func pushCreatesAndPopDestroys() throws {
    let push = try self.router.plan(.push(node: "practice"), from: NavigationState()).get()
    let practice = NavigationState.Route(node: "practice", instance: 1)
    #expect(push.steps == [.create(practice)])
    #expect(push.next.stack == [practice])
    #expect(try self.router.plan(.pop, from: push.next).get().steps == [.destroy(practice)])
  }

  @Test func aDeepLinkCreatesTheNewScreensThenDestroysTheOldTopFirst() throws {
    var state = NavigationState()
    for action in [NavigationAction.push(node: "practice"), .push(node: "results")] {
      state = try self.router.plan(action, from: state).get().next
    }
    let plan = try self.router.plan(.deepLink(nodes: ["settings"]), from: state).get()
    #expect(
      plan.steps == [
        .create(.init(node: "settings", instance: 3)),
        .destroy(.init(node: "results", instance: 2)),
        .destroy(.init(node: "practice", instance: 1)),
      ])
    #expect(plan.next.presented == .init(node: "settings", instance: 3))
    #expect(plan.next.stack.isEmpty)
  }

  @Test func aRefusalIsAReasonNotAPlan() {
    let result = self.router.plan(.present(node: "practice"), from: NavigationState())
    guard case .failure(let error) = result, case .navigationRefused(let why) = error.reason else {
      Issue.record("presenting a stack feature should be refused, got \(result)")
      return
    }
    #expect(why.hasPrefix("'practice' is a stack feature"))
  }
}
