import CPatchbayABI

/// Where a held value is kept: in memory, by the host, under a name every holder uses.
public struct SharedKey {
  public let name: StaticString

  /// `name`'s value, which every instance that holds it shares, native ones too.
  public static func inMemory(_ name: StaticString) -> SharedKey { SharedKey(name: name) }
}

/// A state field every holder of `key` shares through the host ("patchbay.shared/1", `hold`
/// and `write`), as TCA code writes it with the native SDK:
///
///     struct State {
///       @Shared(.inMemory("tally")) var tally: Int64 = 0
///     }
///     // reduce: state.tally += 1   (every other holder is told)
///
/// `@Feature` reads the mark: the instance holds the name when it is made (the app's value,
/// when it has one, comes back and replaces the field's), writes it after every action that
/// changed it, and sets the field when another holder writes it (the host's
/// `_shared(name:, value:)`, which the reducer never sees). In a snapshot the field is
/// `{inMemory: "tally", value: 3}`, as the native SDK writes it, so a swap between the builds
/// keeps it. The module imports "patchbay.shared/1", which `[sandbox]` must grant ("shared").
@attached(peer)
public macro Shared(_ key: SharedKey) =
  #externalMacro(module: "PatchbayMacros", type: "NoOpPeerMacro")

/// One `@Shared` field of a feature's state: `@Feature` writes the list (`held`).
public struct SharedHeld<State> {
  let name: StaticString
  /// The field's value, encoded.
  let encode: (State) -> [UInt8]
  /// Reads a value into the field; false when it is not one.
  let receive: (inout State, inout WireReader) -> Bool
  let hold: SharedValue.Publish
  let write: SharedValue.Publish

  @usableFromInline
  init<Value: WireValue>(
    name: StaticString, get: @escaping (State) -> Value,
    set: @escaping (inout State, Value) -> Void, hold: @escaping SharedValue.Publish,
    write: @escaping SharedValue.Publish
  ) {
    self.name = name
    encode = { state in Bytes.written { get(state).write(to: &$0) } }
    receive = { state, input in
      guard let value = Value.read(from: &input) else { return false }
      set(&state, value)
      return true
    }
    (self.hold, self.write) = (hold, write)
  }

  @_alwaysEmitIntoClient
  public init<Value: WireValue>(
    _ key: SharedKey, get: @escaping (State) -> Value, set: @escaping (inout State, Value) -> Void
  ) {
    self.init(
      name: key.name, get: get, set: set, hold: patchbay_shared_hold,
      write: patchbay_shared_write)
  }
}

extension WireWriter {
  /// A `@Shared` field's value with its key, as the native SDK writes it:
  /// `{inMemory: "tally", value: 3}`.
  public mutating func field<Value: WireValue>(
    _ name: StaticString, _ key: SharedKey, _ value: Value
  ) {
    check(pb_write_name(writer, name.cString))
    record(2)
    check(pb_write_name(writer, "inMemory"))
    string(PluginFeature.text(key.name))
    field("value", value)
  }
}

extension WireReader {
  /// A `@Shared` field's value: the value of `{inMemory: "tally", value: 3}`, or a value alone
  /// (a state written before the field was shared).
  public mutating func readShared<Value: WireValue>(into target: inout Value) -> Bool {
    var keyed = self
    if keyed.peek() == UInt8(ascii: "r"), let count = keyed.record() {
      var key = false
      var value: Value?
      for _ in 0..<count {
        guard let label = keyed.label() else { return false }
        if label == "inMemory" {
          key = keyed.string() != nil
        } else if label == "value" {
          value = Value.read(from: &keyed)
        } else {
          guard keyed.skip() else { return false }
        }
      }
      if key {
        guard let value else { return false }
        target = value
        self = keyed
        return true
      }
    }
    return read(into: &target)
  }
}
