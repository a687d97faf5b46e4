import Foundation
import PatchbayEncoding
import PatchbayHost
import Testing

/// The shipped app config, with the plugins `swift build` made.
func makeDemoApp() throws -> AppRuntime {
  try makeApp("counter-echo")
}

@Suite struct AppRuntimeTests {
  @Test func startsAtTheRootAndSendsByPath() throws {
    let app = try makeDemoApp()
    #expect(app.paths == ["counter"])
    #expect(app.currentPath == "counter")
    try app.send("counter", "setStep(by: 2)")
    try app.send("counter", "increment")
    #expect(try app.state("counter")[field: "count"] == 2)
    #expect(try app.renderCurrent() == "Count: 2\nStep:  2")
  }

  @Test func pushingCreatesAndPoppingDestroysInstances() throws {
    let app = try makeDemoApp()
    try app.navigate(.push(node: "echo"))
    #expect(app.paths == ["counter", "echo#1"])
    #expect(app.currentPath == "echo#1")
    try app.send("echo", #"say(text: "one")"#)
    try app.send("echo#1", #"say(text: "two")"#)
    #expect(try app.state("echo")[field: "count"] == 2)
    try app.navigate(.pop)
    #expect(app.paths == ["counter"])
    try app.navigate(.push(node: "echo"))
    #expect(app.paths == ["counter", "echo#2"])
    #expect(try app.state("echo")[field: "count"] == 0)  // a new instance
  }

  @Test func deepLinkAtStart() throws {
    let app = try makeDemoApp()
    try app.follow(route: "/echo")
    #expect(app.navigation.stack.map(\.node) == ["echo"])
    try app.follow(route: "/")
    #expect(app.navigation.stack.isEmpty)
    #expect(app.paths == ["counter"])
  }

  @Test func stateIsTheNavigationAndEveryInstance() throws {
    let app = try makeDemoApp()
    try app.navigate(.push(node: "echo"))
    #expect(
      try app.stateValue().json()
        == #"{"navigation":{"stack":["echo#1"],"presented":null},"features":{"counter":{"count":0,"step":1,"pending":0},"echo#1":{"message":"","count":0}}}"#
    )
  }

  /// Bad commands: a clear error, and the running app keeps its state.
  @Test func badCommandsAreRefusedAndStateIsKept() throws {
    let app = try makeDemoApp()
    try app.send("counter", "increment")
    let before = try app.stateValue()
    #expect(
      refusal { try app.send("countr", "increment") }
        == .noInstance(path: "countr", live: ["counter"]))
    #expect(
      errorMessage { try app.send("countr", "increment") }
        == "no feature at 'countr'. Did you mean 'counter'? Live paths: counter.")
    guard
      case .actionText("counter", let reason) = refusal({ try app.send("counter", "incrementt") })
    else {
      Issue.record("bad action text should be refused as such")
      return
    }
    #expect(reason.hasPrefix("dev.patchbay.counter: cannot parse action 'incrementt'"))
    #expect(
      refusal { try app.navigate(.pop) }
        == .navigationRefused("nothing to pop: the root 'counter' is showing."))
    #expect(refusal { try app.navigate(.dismiss) } == .navigationRefused("nothing is presented."))
    #expect(
      refusal { try app.navigate(.push(node: "nope")) }
        == .navigationRefused("'nope' is not a feature of this app."))
    #expect(
      refusal { try app.follow(route: "/ech") }
        == .noRoute(path: "/ech", routes: ["/", "/echo"]))
    #expect(
      errorMessage { try app.follow(route: "/ech") }.hasPrefix(
        "no route '/ech'. Did you mean '/echo'?"))
    #expect(try app.stateValue() == before)
  }

  @Test func settleWaitsForEffects() async throws {
    let app = try makeDemoApp()
    try app.send("counter", "incrementLater(ms: 30)")
    // The bound stops a hang only: a loaded machine can hold the effect off for seconds.
    let settled = await app.settle(timeout: .seconds(300))
    #expect(settled)
    let state = try app.stateValue().json()
    #expect(try app.state("counter")[field: "count"] == 1, "\(state)")
  }
}
