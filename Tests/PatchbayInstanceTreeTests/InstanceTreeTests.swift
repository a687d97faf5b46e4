import PatchbayConfig
import PatchbayInstanceTree
import Testing

/// The app's instances by path: found exactly or by a short form, kept in creation order
/// through removals (the holes they leave, and the pass that closes them), and taken out with
/// everything under them.
@Suite struct InstanceTreeTests {
  final class Handle {
    let name: String
    init(_ name: String) { self.name = name }
  }

  func path(_ text: String) -> InstancePath { InstancePath(parsing: text)! }

  /// `home`, `home/tallies#0` … `#(rows - 1)`, `echo#1`, `echo#1/reply`.
  func tree(rows: Int) -> InstanceTree<Handle> {
    var tree = InstanceTree<Handle>()
    let rows = (0..<rows).map { "home/tallies#\($0)" }
    for text in ["home"] + rows + ["echo#1", "echo#1/reply"] {
      tree.insert(Handle(text), at: self.path(text))
    }
    return tree
  }

  @Test func anInstanceIsFoundByItsPathOrAShortFormOfIt() {
    let tree = self.tree(rows: 3)
    #expect(tree.count == 6)
    #expect(tree.exactly("home/tallies#1")?.handle.name == "home/tallies#1")
    #expect(tree[self.path("echo#1/reply")]?.name == "echo#1/reply")
    #expect(tree.find("echo")?.handle.name == "echo#1")  // the one live echo
    #expect(tree.find("tallies#2")?.handle.name == "home/tallies#2")  // its last segments
    #expect(tree.find("echo/reply")?.handle.name == "echo#1/reply")
    #expect(tree.find("tallies") == nil)  // three of them
    #expect(tree.find("nowhere") == nil && tree.find("a//b") == nil)
    #expect(!tree.contains(self.path("home/tallies#9")))
    #expect(tree.newestScreen(ofNode: "echo")?.text == "echo#1")
    #expect(tree.newestScreen(ofNode: "tallies") == nil)  // rows, not screens
  }

  @Test func removingARowLeavesTheOthersInCreationOrder() {
    var tree = self.tree(rows: 5)
    let removed = tree.removeSubtree(at: self.path("home/tallies#2"))
    #expect(removed.map(\.text) == ["home/tallies#2"])
    #expect(tree.count == 7)
    #expect(tree.exactly("home/tallies#2") == nil)
    #expect(
      tree.ids(inCollection: "tallies", under: self.path("home")) == ["0", "1", "3", "4"])
    // Added again, it comes last.
    tree.insert(Handle("again"), at: self.path("home/tallies#2"))
    #expect(
      tree.ids(inCollection: "tallies", under: self.path("home")) == ["0", "1", "3", "4", "2"])
    #expect(tree.exactly("home/tallies#2")?.handle.name == "again")
    #expect(tree.entries.map(\.text).first == "home" && tree.entries.last?.text == "home/tallies#2")
  }

  @Test func aSubtreeGoesWithItsTopParentsFirst() {
    var tree = self.tree(rows: 2)
    #expect(tree.descendants(of: self.path("echo#1")).map(\.text) == ["echo#1/reply"])
    #expect(tree.descendants(of: self.path("home/tallies#0")).isEmpty)
    let removed = tree.removeSubtree(at: self.path("echo#1"))
    #expect(removed.map(\.text) == ["echo#1", "echo#1/reply"])
    #expect(tree.find("reply") == nil && tree.count == 3)
    #expect(tree.removeSubtree(at: self.path("echo#1")).isEmpty)  // gone already
    // The whole app: the rows go with their parent.
    #expect(tree.removeSubtree(at: self.path("home")).map(\.text).count == 3)
    #expect(tree.count == 0 && tree.entries.isEmpty)
  }

  @Test func theHolesAreClosedAndEveryLookupStillFindsItsInstance() {
    var tree = self.tree(rows: 1_000)
    // Every other row, then most of the rest: passes that close the holes run in between.
    for row in stride(from: 0, to: 1_000, by: 2) {
      #expect(tree.removeSubtree(at: self.path("home/tallies#\(row)")).count == 1)
    }
    for row in stride(from: 1, to: 900, by: 2) {
      _ = tree.removeSubtree(at: self.path("home/tallies#\(row)"))
    }
    let left = stride(from: 901, to: 1_000, by: 2).map { "\($0)" }
    #expect(tree.ids(inCollection: "tallies", under: self.path("home")) == left)
    for id in left {
      #expect(tree.exactly("home/tallies#\(id)")?.handle.name == "home/tallies#\(id)")
    }
    #expect(tree.count == left.count + 3)
    #expect(tree.instances(ofNode: "home").map(\.text) == ["home"])
    #expect(tree.entries.map(\.text).suffix(2) == ["echo#1", "echo#1/reply"])
  }

  @Test func aFailedCreationIsUndoneToTheCountBeforeIt() {
    var tree = self.tree(rows: 2)
    let before = tree.count
    _ = tree.removeSubtree(at: self.path("home/tallies#0"))  // a hole in the middle
    let mark = tree.count
    tree.insert(Handle("x"), at: self.path("home/tallies#x"))
    tree.insert(Handle("y"), at: self.path("home/tallies#x/inner"))
    let dropped = tree.truncate(to: mark)
    #expect(dropped.map(\.text) == ["home/tallies#x", "home/tallies#x/inner"])
    #expect(tree.count == before - 1)
    #expect(tree.exactly("home/tallies#1") != nil && tree.exactly("home/tallies#x") == nil)
    #expect(tree.descendants(of: self.path("home/tallies#x")).isEmpty)
    #expect(tree.removeAll().count == before - 1 && tree.count == 0)
  }

  /// A swap keeps the instances it made successors for while the version stays: every
  /// insert and removal moves it on, and no pass or reset brings it back to an earlier one.
  @Test func theVersionMovesOnAtEveryChangeAndNeverRepeats() {
    var tree = self.tree(rows: 100)
    var seen: Set<Int> = [tree.version]
    func changed() { #expect(seen.insert(tree.version).inserted) }
    _ = tree.instances(ofNode: "tallies")
    _ = tree.exactly("home/tallies#3")
    #expect(seen.contains(tree.version))  // reading changes nothing
    tree.insert(Handle("x"), at: self.path("home/tallies#x"))
    changed()
    for row in 0..<90 {  // passes that close the holes run in between
      _ = tree.removeSubtree(at: self.path("home/tallies#\(row)"))
      changed()
    }
    _ = tree.truncate(to: tree.count - 1)
    changed()
    _ = tree.removeAll()
    changed()
    tree.insert(Handle("home"), at: self.path("home"))
    changed()
  }
}
