import PatchbayEncoding

/// The app's shared state ("patchbay.shared/1", patchbay/shared.h): each name's value and
/// owner, who reads it with which action, and who holds it. Pure bookkeeping over instances
/// known only by identity (the host's `FeatureHandle`s); the app delivers. [app queue]
///
/// ```swift
/// var board = SharedBoard<FeatureHandle>()
/// board.subscribe("transport", action: "transport", by: drums)      // nil: nothing yet
/// board.publish("transport", value: bytes, by: metronome, at: "metronome")
/// // .changed([(drums, transport(_: {tempo: 120.0, …}) as bytes)])
/// board.hold("tally", initial: zero, by: left, at: "left")          // .unchanged: 0 is its value
/// board.write("tally", value: one, by: left, at: "left")
/// // .changed([(right, _shared(name: "tally", value: 1) as bytes)])  once `right` holds it too
/// ```
package struct SharedBoard<Handle: AnyObject> {
  /// What a publish, a hold or a write did.
  package enum Outcome {
    /// The value changed: the actions to send, to each reader and holder.
    case changed([Delivery])
    /// Nobody is told: the same bytes again.
    case unchanged
    /// Another live instance owns the name.
    case refused(owner: String)
    /// A write by an instance that does not hold the name.
    case notHeld
    /// The bytes are not a value.
    case malformed(String)
  }

  package typealias Delivery = (reader: Handle, action: [UInt8])

  private struct Entry {
    weak var owner: Handle?
    /// Published by the host (`host.midi`): no feature may publish it.
    var byHost = false
    var ownerPath: String
    var value: WireValue
    var bytes: [UInt8]
    /// The path of the holder that wrote it last, for a name nobody publishes.
    var writer: String?
  }

  private struct Reader {
    weak var handle: Handle?
    var action: String
  }

  private struct Holder {
    weak var handle: Handle?
  }

  private var entries: [String: Entry] = [:]
  private var readers: [String: [Reader]] = [:]
  private var holders: [String: [Holder]] = [:]

  package init() {}

  /// Publishes `value` under `name` for `owner`, the first live instance to publish it.
  package mutating func publish(
    _ name: String, value bytes: [UInt8], by owner: Handle, at path: String
  ) -> Outcome {
    if name.hasPrefix("host.") { return Self.hostsOwn }
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
    return .changed(self.deliveries(name, value, except: owner))
  }

  /// Publishes `value` under `name` for the host itself (`host.midi`): the actions to send,
  /// to each reader and holder, when it changed.
  package mutating func publishFromHost(_ name: String, value: WireValue) -> [Delivery] {
    let bytes = value.bytes
    if let entry = self.entries[name], entry.byHost, entry.bytes == bytes { return [] }
    self.entries[name] = Entry(
      owner: nil, byHost: true, ownerPath: "host", value: value, bytes: bytes)
    return self.deliveries(name, value, except: nil)
  }

  /// Makes `holder` hold `name`: `initial` becomes its value when it has none (told to its
  /// readers), else the holder is sent the value when it differs from `initial`.
  package mutating func hold(
    _ name: String, initial bytes: [UInt8], by holder: Handle, at path: String
  ) -> Outcome {
    let initial: WireValue
    do {
      initial = try WireValue(decoding: bytes)
    } catch {
      return .malformed("\(error)")
    }
    var list = (self.holders[name] ?? []).filter { $0.handle != nil && $0.handle !== holder }
    list.append(Holder(handle: holder))
    self.holders[name] = list
    guard let entry = self.entries[name] else {
      self.entries[name] = Entry(
        owner: nil, ownerPath: "", value: initial, bytes: bytes, writer: path)
      return .changed(self.deliveries(name, initial, except: holder))
    }
    guard entry.bytes != bytes else { return .unchanged }
    return .changed([(holder, Self.heldAction(name, entry.value))])
  }

  /// A holder's new value of `name`: every other holder and every reader is told.
  package mutating func write(
    _ name: String, value bytes: [UInt8], by writer: Handle, at path: String
  ) -> Outcome {
    if name.hasPrefix("host.") { return Self.hostsOwn }
    if let entry = self.entries[name], let owner = entry.owner, owner !== writer {
      return .refused(owner: entry.ownerPath)
    }
    guard self.holders[name]?.contains(where: { $0.handle === writer }) == true else {
      return .notHeld
    }
    if let entry = self.entries[name], entry.bytes == bytes { return .unchanged }
    let value: WireValue
    do {
      value = try WireValue(decoding: bytes)
    } catch {
      return .malformed("\(error)")
    }
    self.entries[name] = Entry(owner: nil, ownerPath: "", value: value, bytes: bytes, writer: path)
    return .changed(self.deliveries(name, value, except: writer))
  }

  /// Makes `reader` receive `name`'s values as `action(_: value)` (nil: no more); the action
  /// for the value published now, if any and if the subscription is new or changed.
  package mutating func subscribe(_ name: String, action: String?, by reader: Handle) -> [UInt8]? {
    var list = (self.readers[name] ?? []).filter { $0.handle != nil }
    let previous = list.first { $0.handle === reader }?.action
    list.removeAll { $0.handle === reader }
    if let action { list.append(Reader(handle: reader, action: action)) }
    self.readers[name] = list
    guard let action, action != previous, let entry = self.entries[name] else { return nil }
    return Self.action(action, entry.value)
  }

  /// The value published under `name`, if any.
  package func value(_ name: String) -> WireValue? { self.entries[name]?.value }

  /// The names published, with their owners' paths ("" once the owner is gone), and the names
  /// held, with the path of the holder that wrote last ("written by counter.left").
  package var names: [(name: String, owner: String)] {
    self.entries.keys.sorted().map { name in
      let entry = self.entries[name]!
      if entry.owner != nil || entry.byHost { return (name, entry.ownerPath) }
      return (name, entry.writer.map { "written by \($0)" } ?? "")
    }
  }

  /// The actions telling `name`'s readers and holders, but `source`, of its new value.
  private mutating func deliveries(
    _ name: String, _ value: WireValue, except source: Handle?
  )
    -> [Delivery]
  {
    self.readers[name]?.removeAll { $0.handle == nil }
    self.holders[name]?.removeAll { $0.handle == nil }
    var result: [Delivery] = (self.readers[name] ?? []).compactMap { reader in
      reader.handle.map { ($0, Self.action(reader.action, value)) }
    }
    for holder in self.holders[name] ?? [] {
      guard let handle = holder.handle, handle !== source else { continue }
      result.append((handle, Self.heldAction(name, value)))
    }
    return result
  }

  /// A `host.` name: no feature may publish or write it.
  private static var hostsOwn: Outcome { .refused(owner: "the host (names beginning host.)") }

  private static func action(_ name: String, _ value: WireValue) -> [UInt8] {
    WireValue.case(name, [WireValue.Field("_0", value)]).bytes
  }

  /// `_shared(name: "tally", value: 3)`: what a holder is sent.
  package static func heldAction(_ name: String, _ value: WireValue) -> [UInt8] {
    WireValue.case(
      "_shared", [WireValue.Field("name", .string(name)), WireValue.Field("value", value)]
    ).bytes
  }
}
