import PatchbayCore

/// The boxes of a storage, by key: one box per key and value type. A key used with a second
/// type is reported (each type then keeps a value of its own), as swift-sharing reports it,
/// so a test that mixes them fails:
///
/// ```
/// @Shared(.inMemory("count")): this key holds a Int elsewhere, and a String here; each type
/// keeps its own value. Give every @Shared of a key the same type.
/// ```
final class SharedBoxes<Key: Hashable & Sendable>: Sendable {
  private struct Slot: Hashable {
    let key: Key
    let type: ObjectIdentifier
  }

  private let boxes = LockedValue<(byType: [Slot: AnyObject], firstType: [Key: Any.Type])>(
    ([:], [:]))

  /// The box of `Value` under `key`, made by `make` the first time; whether it was made now.
  func box<Value>(
    _ key: Key, named name: @autoclosure () -> String, make: () -> SharedBox<Value>
  ) -> (box: SharedBox<Value>, made: Bool) {
    let slot = Slot(key: key, type: ObjectIdentifier(Value.self))
    let (result, clash) = self.boxes.withValue { boxes -> ((SharedBox<Value>, Bool), Any.Type?) in
      if let box = boxes.byType[slot] as? SharedBox<Value> { return ((box, false), nil) }
      let box = make()
      boxes.byType[slot] = box
      let first = boxes.firstType[key]
      if first == nil { boxes.firstType[key] = Value.self }
      return ((box, true), first)
    }
    if let clash {
      runtimeWarn(
        """
        @Shared(\(name())): this key holds a \(clash) elsewhere, and a \(Value.self) here; each \
        type keeps its own value. Give every @Shared of a key the same type.
        """, fileID: #fileID, filePath: #filePath, line: #line, column: #column)
    }
    return result
  }
}
