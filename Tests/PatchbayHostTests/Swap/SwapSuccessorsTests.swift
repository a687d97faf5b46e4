import PatchbayEncoding
import PatchbayLoader
import Testing

@testable import PatchbayHost

/// A swap's successors are made before it holds the app's actions; the switch makes again
/// those whose instance changed since, so no action reduced in between is lost.
@Suite struct SwapSuccessorsTests {
  /// The demo's two tallies (Counter), and CounterAlt's feature to swap them to.
  static func tallies() throws -> (AppRuntime, [FeatureHandle], LoadedFeature) {
    let app = try makeFullDemoApp()
    let handles = try ["tallies#a", "tallies#b"].map { try app.instance($0) }
    let alt = try BuiltPlugins.loader.load("CounterAlt").features[0]
    return (app, handles, alt)
  }

  @Test func anActionReducedAfterTheSuccessorWasMadeReachesTheNewCode() throws {
    let (app, handles, alt) = try Self.tallies()
    let successors = SwapSuccessors(to: alt)
    try app.perform { () throws(FeatureCallError) in try successors.make(for: handles) }
    try app.send("tallies#a", "increment")  // after its successor was made from count 0
    let old = try app.perform { () throws(FeatureCallError) in
      try successors.switchAll(handles)
    }
    // The stale successor of tallies#a. The replaced code is kept until the next reap asks
    // whether it runs an effect (Counter cancels by key, so it could carry one on).
    #expect(old.count == 1)
    #expect(handles.allSatisfy { $0.earlierGenerations == 1 })
    app.perform {
      old.forEach { $0.destroy() }
      handles.forEach { $0.reapRetired() }
    }
    #expect(handles.allSatisfy { $0.earlierGenerations == 0 })
    #expect(handles.allSatisfy { $0.feature === alt })
    #expect(try app.state("tallies#a")[field: "value"] == 1)
    #expect(try app.state("tallies#b")[field: "value"] == 0)
  }

  @Test func anInstanceAddedAfterTheMakingGetsItsSuccessorAtTheSwitch() throws {
    let (app, handles, alt) = try Self.tallies()
    let successors = SwapSuccessors(to: alt)
    try app.perform { () throws(FeatureCallError) in try successors.make(for: handles) }
    try app.add(to: "home/tallies", id: "c")
    try app.send("tallies#c", "increment")
    let all = handles + [try app.instance("tallies#c")]
    let old = try app.perform { () throws(FeatureCallError) in try successors.switchAll(all) }
    app.perform { old.forEach { $0.destroy() } }
    #expect(all.allSatisfy { $0.feature === alt })
    #expect(try app.state("tallies#c")[field: "value"] == 1)
  }

  @Test func aSuccessorNoInstanceTookIsHandedBackToBeDestroyed() throws {
    let (app, handles, alt) = try Self.tallies()
    let successors = SwapSuccessors(to: alt)
    try app.perform { () throws(FeatureCallError) in try successors.make(for: handles) }
    let old = try app.perform { () throws(FeatureCallError) in
      try successors.switchAll([handles[0]])  // tallies#b was removed meanwhile
    }
    app.perform { old.forEach { $0.destroy() } }
    #expect(handles[0].feature === alt)
    #expect(handles[1].feature.schemaVersion == 1)  // never switched
    #expect(old.count == 1)  // tallies#b's unused successor
  }

  @Test func discardingDestroysWhatWasMadeAndChangesNothing() throws {
    let (app, handles, alt) = try Self.tallies()
    try app.send("tallies#a", "increment")
    let successors = SwapSuccessors(to: alt)
    try app.perform { () throws(FeatureCallError) in try successors.make(for: handles) }
    app.perform { successors.discard() }
    #expect(handles.allSatisfy { $0.feature.schemaVersion == 1 })
    #expect(try app.state("tallies#a")[field: "count"] == 1)
    try app.send("tallies#a", "increment")
    #expect(try app.state("tallies#a")[field: "count"] == 2)
  }
}
