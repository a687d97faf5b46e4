import PatchbayConfig
import Testing

@testable import PatchbayHost

@Suite struct InstancePathTests {
  @Test func parsesSegmentsAndPrintsThemBack() throws {
    let path = try #require(InstancePath(parsing: "practice#1/quiz"))
    #expect(path.segments == [.init(key: "practice", instance: "1"), .init(key: "quiz")])
    #expect(path.description == "practice#1/quiz")
    #expect(path.parent == InstancePath(parsing: "practice#1"))
    #expect(path.last.key == "quiz")
    #expect(path.shortForm == "practice/quiz")
    #expect(
      InstancePath(root: "home").appending("tallies", instance: "a").description == "home/tallies#a"
    )
  }

  @Test(arguments: ["", "/", "a//b", "a/", "#1", "a#", "a/#x"])
  func refusesEmptySegments(_ text: String) {
    #expect(InstancePath(parsing: text) == nil)
  }

  @Test func shortFormsNameTheirPaths() throws {
    let quiz = try #require(InstancePath(parsing: "practice#1/quiz"))
    let tally = try #require(InstancePath(parsing: "home/tallies#a"))
    let named = { (text: String) in try #require(InstancePath(parsing: text)) }
    #expect(quiz.matches(try named("practice/quiz")))
    #expect(quiz.matches(try named("practice#1/quiz")))
    #expect(!quiz.matches(try named("practice#2/quiz")))
    #expect(!quiz.matches(try named("quiz")))  // a suffix, not the full form
    #expect(quiz.ends(with: try named("quiz")))
    #expect(tally.ends(with: try named("tallies#a")))
    #expect(!tally.ends(with: try named("tallies#b")))
    #expect(!tally.ends(with: try named("other/home/tallies#a")))
  }

  @Test func ancestryIsBySegmentNotByText() throws {
    let echo = try #require(InstancePath(parsing: "echo#1"))
    #expect(try #require(InstancePath(parsing: "echo#1/x")).isWithin(echo))
    #expect(echo.isWithin(echo))
    // A text prefix is not an ancestor: echo#10 does not live under echo#1.
    #expect(!(try #require(InstancePath(parsing: "echo#10"))).isWithin(echo))
  }
}

/// Short forms are resolved in one place (``InstanceTree/resolve(_:)``), as a person types
/// them into a running app.
@Suite struct InstanceTreeTests {
  @Test func resolvesShortFormsToTheOneLiveInstance() throws {
    let app = try makeFullDemoApp()
    try app.follow(route: "/practice")
    #expect(
      app.paths == ["home", "home/tallies#a", "home/tallies#b", "practice#1", "practice#1/quiz"])
    for (typed, live) in [
      ("practice", "practice#1"), ("practice/quiz", "practice#1/quiz"), ("quiz", "practice#1/quiz"),
      ("tallies#a", "home/tallies#a"), ("home/tallies#b", "home/tallies#b"),
    ] {
      let resolved = try app.executor.sync { () throws(AppError) in
        try app.owned.instances.resolve(typed)
      }
      #expect(resolved.path.description == live, "\(typed)")
    }
  }

  @Test func anAmbiguousShortFormIsRefusedWithTheLivePaths() throws {
    let app = try makeDemoApp()
    try app.navigate(.push(node: "echo"))
    try app.send("echo", #"say(text: "one")"#)
    try app.navigate(.push(node: "echo"))
    #expect(
      refusal { try app.send("echo", #"say(text: "two")"#) }
        == .noInstance(path: "echo", live: ["counter", "echo#1", "echo#2"]))
    try app.send("echo#2", #"say(text: "two")"#)
    #expect(try app.state("echo#1")[field: "message"] == "one")
    #expect(try app.state("echo#2")[field: "message"] == "two")
  }
}
