import PatchbayEncoding

/// The app's shared state ("patchbay.shared/1", patchbay/shared.h): each name's value and
/// owner, and who reads it with which action. Pure bookkeeping; the app delivers. [app queue]
///
/// ```swift
/// var board = SharedBoard()
/// board.subscribe("transport", action: "transport", by: drums)      // nil: nothing yet
/// board.publish("transport", value: bytes, by: metronome, at: "metronome")
/// // .changed([(drums, transport(_: {tempo: 120.0, …}) as bytes)])
/// ```
struct SharedBoard {
  /// What a publish did.
  enum Outcome {
    /// The value changed: the actions to send, to each reader.
    case changed([(reader: FeatureHandle, action: [UInt8])])
    /// The same bytes again: nobody is told.
    case unchanged
    /// Another live instance owns the name.
    case refused(owner: String)
    /// The bytes are not a value.
    case malformed(String)
  }

  private struct Entry {
    weak var owner: FeatureHandle?
    /// Published by the host (`host.midi`): no feature may publish it.
    var byHost = false
    var ownerPath: String
    var value: WireValue
    var bytes: [UInt8]
  }

  private struct Reader {
    weak var handle: FeatureHandle?
    var action: String
  }

  private var entries: [String: Entry] = [:]
  private var readers: [String: [Reader]] = [:]

  /// Publishes `value` under `name` for `owner`, the first live instance to publish it.
  mutating func publish(
    _ name: String, value bytes: [UInt8], by owner: FeatureHandle, at path: String
  ) -> Outcome {
    if name.hasPrefix("host.") { return .refused(owner: "the host (names beginning host.)") }
    if let entry = self.entries[name], let current = entry.owner, current !== owner {
      return .refused(owner: entry.ownerPath)
    }
    if let entry = self.entries[name], entry.owner === owner, entry.bytes == bytes {
      return .unchanged
    }
    let value: WireValue
    do {
      value = try WireValue(decoding: bytes)
    } catch {
      return .malformed("\(error)")
    }
    self.entries[name] = Entry(owner: owner, ownerPath: path, value: value, bytes: bytes)
    self.readers[name]?.removeAll { $0.handle == nil }
    return .changed(
      (self.readers[name] ?? []).compactMap { reader in
        reader.handle.map { ($0, Self.action(reader.action, value)) }
      })
  }

  /// Publishes `value` under `name` for the host itself (`host.midi`): the actions to send,
  /// to each reader, when it changed.
  mutating func publishFromHost(_ name: String, value: WireValue) -> [(
    reader: FeatureHandle, action: [UInt8]
  )] {
    let bytes = value.bytes
    if let entry = self.entries[name], entry.byHost, entry.bytes == bytes { return [] }
    self.entries[name] = Entry(
      owner: nil, byHost: true, ownerPath: "host", value: value, bytes: bytes)
    self.readers[name]?.removeAll { $0.handle == nil }
    return (self.readers[name] ?? []).compactMap { reader in
      reader.handle.map { ($0, Self.action(reader.action, value)) }
    }
  }

  /// Makes `reader` receive `name`'s values as `action(_: value)` (nil: no more); the action
  /// for the value published now, if any and if the subscription is new or changed.
  mutating func subscribe(_ name: String, action: String?, by reader: FeatureHandle) -> [UInt8]? {
    var list = (self.readers[name] ?? []).filter { $0.handle != nil }
    let previous = list.first { $0.handle === reader }?.action
    list.removeAll { $0.handle === reader }
    if let action { list.append(Reader(handle: reader, action: action)) }
    self.readers[name] = list
    guard let action, action != previous, let entry = self.entries[name] else { return nil }
    return Self.action(action, entry.value)
  }

  /// The value published under `name`, if any.
  func value(_ name: String) -> WireValue? { self.entries[name]?.value }

  /// The names published, with their owners' paths ("" once the owner is gone).
  var names: [(name: String, owner: String)] {
    self.entries.keys.sorted().map { name in
      let entry = self.entries[name]!
      return (name, entry.owner != nil || entry.byHost ? entry.ownerPath : "")
    }
  }

  private static func action(_ name: String, _ value: WireValue) -> [UInt8] {
    WireValue.case(name, [WireValue.Field("_0", value)]).bytes
  }
}
