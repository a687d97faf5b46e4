import Foundation
import PatchbayEncoding
import PatchbayStateDiff
import Testing

/// What DevTools sends a page per action: JSON Pointers and new values that turn the page's
/// copy of the state's JSON into the new state's JSON, and cost what changed.
@Suite struct StateChangesTests {
  /// `before`'s JSON with `after`'s changes applied, as a page applies them.
  func applied(_ before: WireValue, _ after: WireValue) throws -> Any? {
    let changes = try #require(StateDiff.changes(before: before.bytes, after: after.bytes))
    var root: Any? = try JSONSerialization.jsonObject(
      with: Data(before.json().utf8), options: .fragmentsAllowed)
    for change in changes {
      let value = try change.json.map {
        try JSONSerialization.jsonObject(with: Data($0.utf8), options: .fragmentsAllowed)
      }
      root = Self.set(root, at: Self.tokens(change.pointer)[...], to: value)
    }
    return root
  }

  static func tokens(_ pointer: String) -> [String] {
    pointer.isEmpty
      ? []
      : pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
        $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
      }
  }

  /// Sets (or, with nil, removes) the value at `path` under `root`.
  static func set(_ root: Any?, at path: ArraySlice<String>, to value: Any?) -> Any? {
    guard let key = path.first else { return value }
    if var object = root as? [String: Any] {
      object[key] = Self.set(object[key], at: path.dropFirst(), to: value)
      return object
    }
    if var array = root as? [Any], let index = Int(key) {
      if path.count == 1, value == nil {
        array.removeSubrange(min(index, array.count)...)  // lists shrink from the end
      } else if index < array.count {
        array[index] = Self.set(array[index], at: path.dropFirst(), to: value) as Any
      } else {
        array.append(Self.set(nil, at: path.dropFirst(), to: value) as Any)
      }
      return array
    }
    return root
  }

  func json(_ value: WireValue) throws -> NSObject {
    try JSONSerialization.jsonObject(with: Data(value.json().utf8), options: .fragmentsAllowed)
      as! NSObject
  }

  @Test(arguments: [
    (
      WireValue.record(fields: ("count", 1), ("inner", .record(fields: ("on", false)))),
      WireValue.record(fields: ("count", 2), ("inner", .record(fields: ("on", true))))
    ),
    (
      .record(fields: ("old", 1), ("items", .list([1, 2, 3]))),
      .record(fields: ("items", .list([1, 5])), ("new", "n"))
    ),
    (.record(fields: ("items", .list([1]))), .record(fields: ("items", .list([1, 2, 3])))),
    (
      .record(fields: ("mode", .action("playing", ("bpm", 120), ("bar", 1)))),
      .record(fields: ("mode", .action("playing", ("bpm", 90), ("bar", 1))))
    ),
    (
      .record(fields: ("mode", .action("playing", ("bpm", 120)))),
      .record(fields: ("mode", .action("stopped")))
    ),
    (.record(fields: ("a/b", 1), ("c~d", 2)), .record(fields: ("a/b", 3), ("c~d", 4))),
    (.record(fields: ("x", 1)), .string("a whole new type")),
  ])
  func applyingTheChangesGivesTheNewState(_ before: WireValue, _ after: WireValue) throws {
    let result = try #require(try self.applied(before, after) as? NSObject)
    #expect(result == (try self.json(after)), "\(before.json()) → \(after.json())")
  }

  @Test func aFieldOfACaseIsFoundUnderTheCaseName() throws {
    let changes = StateDiff.changes(
      before: WireValue.record(fields: ("mode", .action("playing", ("bpm", 120)))).bytes,
      after: WireValue.record(fields: ("mode", .action("playing", ("bpm", 90)))).bytes)
    #expect(changes == [StateChange(pointer: "/mode/playing/bpm", json: "90")])
  }

  @Test func oneChangeInALargeStateCostsOneValue() throws {
    let items = (0..<200_000).map { WireValue.int($0) }
    var changed = items
    changed[123_456] = .int(-1)
    let before = WireValue.record(fields: ("items", .list(items)), ("name", "big"))
    let after = WireValue.record(fields: ("items", .list(changed)), ("name", "big"))
    let changes = try #require(StateDiff.changes(before: before.bytes, after: after.bytes))
    #expect(changes == [StateChange(pointer: "/items/123456", json: "-1")])
    #expect(before.bytes.count > 1_000_000)
  }

  @Test func equalStatesHaveNoChangesAndAnUnreadableOldStateIsReplacedWhole() {
    let state = WireValue.record(fields: ("count", 1))
    #expect(StateDiff.changes(before: state.bytes, after: state.bytes) == [])
    #expect(
      StateDiff.changes(before: [0xEE, 1], after: state.bytes)
        == [StateChange(pointer: "", json: #"{"count":1}"#)])
    // Two records whose fields cannot be walked: nothing is said, rather than a wrong change.
    let cut = Array(WireValue.record(fields: ("count", 2), ("step", 1)).bytes.dropLast(3))
    #expect(StateDiff.changes(before: state.bytes, after: cut) == nil)
    #expect(
      StateDiff.changes(before: nil, after: state.bytes)
        == [StateChange(pointer: "", json: #"{"count":1}"#)])
  }
}
