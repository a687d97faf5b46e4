import Patchbay
import PatchbayABI
import PatchbayEncoding
import Synchronization

/// One plugin instance's side of `@Shared(.inMemory("tally"))` between plugins: the bridge
/// of its ``InMemoryStorage``, which holds each `Codable` value through the host's
/// "patchbay.shared/1" (patchbay/shared.h, `hold` and `write`).
///
/// - A change the instance makes while it reduces is written to the host after the call; the
///   host orders it on the app queue and sends every other holder `_shared(name:, value:)`.
/// - That action sets the value here without writing it back.
/// - A change made in an effect, outside any call, reaches the host as the action
///   `_sharedWrite(name:, value:)` the instance sends itself, which writes it when reduced:
///   every change crosses on the app queue, and a recording replays it.
@usableFromInline
final class SharedHolding: _SharedBridge, @unchecked Sendable {
  let host: HostConnection
  let feature: String
  private struct Inside {
    var inCall = false
    /// The names held during the current call, in order, with what reads each one's value.
    var holds: [(name: String, current: () -> [UInt8]?)] = []
    /// The changes made during the current call, by name, in order.
    var pending: [(name: String, bytes: [UInt8])] = []
    /// What sets each held value from its bytes.
    var receivers: [String: (WireValue) throws -> Void] = [:]
  }
  private let inside = LockedValue(Inside())
  /// Whether it holds any value: until it does, a call costs no lock.
  @usableFromInline let holdsAny = Atomic(false)

  @usableFromInline
  init(host: HostConnection, feature: String) {
    (self.host, self.feature) = (host, feature)
  }

  @usableFromInline
  func hold<Value: Codable>(
    _ name: String, current: @escaping () -> Value, receive: @escaping (Value) -> Void
  ) {
    let read = { [weak self] () -> [UInt8]? in self?.encode(current(), name) }
    self.holdsAny.store(true, ordering: .releasing)
    let now = self.inside.withValue { inside in
      inside.receivers[name] = { value in
        receive(try WireValueDecoder().decode(Value.self, from: value))
      }
      guard inside.inCall else { return true }
      inside.holds.append((name, read))
      return false
    }
    if now, let bytes = read() { self.host.hold(name, initial: bytes) }
  }

  @usableFromInline
  func changed<Value: Codable>(_ name: String, to value: Value) {
    guard let bytes = self.encode(value, name) else { return }
    let inCall = self.inside.withValue { inside in
      guard inside.inCall else { return false }
      inside.pending.removeAll { $0.name == name }
      inside.pending.append((name, bytes))
      return true
    }
    guard !inCall, let value = try? WireValue(decoding: bytes) else { return }
    self.host.send(Self.action("_sharedWrite", name, value).bytes)
  }

  /// Runs one call into the instance: the values it made are held after it, with the value
  /// each has then, and its changes to values held before are written.
  @usableFromInline
  func call<T>(_ body: () -> T) -> T {
    self.begin()
    let result = body()
    self.end()
    return result
  }

  /// A call begins: the values made from now on are held at its ``end()``.
  func begin() {
    self.inside.withValue { $0.inCall = true }
  }

  /// The call ends: holds the values it made, with the value each has now, and writes its
  /// changes to values held before.
  func end() {
    let (holds, pending) = self.inside.withValue { inside in
      inside.inCall = false
      defer { (inside.holds, inside.pending) = ([], []) }
      return (inside.holds, inside.pending)
    }
    for (name, current) in holds {
      if let bytes = current() { self.host.hold(name, initial: bytes) }
    }
    // A value made in this call is held with its value now, changes included.
    for (name, bytes) in pending where !holds.contains(where: { $0.name == name }) {
      self.host.write(name, bytes)
    }
  }

  /// Takes `_shared(name:, value:)` (set here) or `_sharedWrite(name:, value:)` (set here and
  /// written): the call's status, or nil when `action` is neither. A name it does not hold, or
  /// a value of another type, fails the action with a line, and the value is kept.
  @usableFromInline
  func receive(_ action: WireValue) -> pb_status? {
    guard let (write, name, value) = Self.parse(action) else { return nil }
    let (receiver, held) = self.inside.withValue {
      ($0.receivers[name], $0.receivers.keys.sorted())
    }
    guard let receiver else {
      let holds =
        held.isEmpty
        ? "it holds none" : "it holds " + held.map { "'\($0)'" }.joined(separator: ", ")
      self.host.error(
        "\(self.feature): '\(name)' is not a shared value this instance holds (\(holds))")
      return PB_ERR_INVALID
    }
    do {
      try receiver(value)
    } catch {
      self.host.error(
        "\(self.feature): the shared value '\(name)' (\(value.actionText)) does not decode as "
          + "this build's type: \(error). Give every holder of '\(name)' the same type")
      return PB_ERR_DECODE
    }
    if write { self.inside.withValue { $0.pending.append((name, value.bytes)) } }
    return PB_OK
  }

  /// The held-value action `action` is, if it is one: `_shared` or `_sharedWrite`, with a
  /// name and a value.
  static func parse(_ action: WireValue) -> (write: Bool, name: String, value: WireValue)? {
    guard case .case(let kind, let fields) = action, kind == "_shared" || kind == "_sharedWrite",
      fields.count == 2, fields[0].name == "name", case .string(let name) = fields[0].value,
      fields[1].name == "value"
    else { return nil }
    return (kind == "_sharedWrite", name, fields[1].value)
  }

  static func action(_ kind: String, _ name: String, _ value: WireValue) -> WireValue {
    .case(kind, [WireValue.Field("name", .string(name)), WireValue.Field("value", value)])
  }

  private func encode<Value: Encodable>(_ value: Value, _ name: String) -> [UInt8]? {
    do {
      return try WireValueEncoder().encode(value).bytes
    } catch {
      self.host.log(
        PB_LOG_ERROR, "\(self.feature): the shared value '\(name)' cannot be encoded: \(error)")
      return nil
    }
  }
}

/// An instance's in-memory shared values: the storage its `.inMemory` keys use, current on
/// the thread during each call into it, and the holding that shares them with the app. Both
/// are made when the instance's code first uses `.inMemory`: until then an instance pays one
/// small object for them, and a call a thread-local store.
@usableFromInline
final class InstanceSharing: _InMemoryStorageSource, @unchecked Sendable {
  /// The instance's connection: effects send through it (``FeatureInstance``).
  @usableFromInline let host: HostConnection
  let feature: String
  // Touched only during calls into the instance, one at a time: unchecked, a call skips the
  // runtime's exclusivity check (`swift_beginAccess`) on each.
  /// Its holding, once its storage is made.
  @exclusivity(unchecked) @usableFromInline private(set) var holding: SharedHolding?
  /// Whether a state is being read (``readState(_:)``): a holding made then begins a call.
  @exclusivity(unchecked) private var reading = false

  @usableFromInline
  init(host: HostConnection, feature: String) {
    (self.host, self.feature) = (host, feature)
  }

  override func makeStorage() -> InMemoryStorage {
    let holding = SharedHolding(host: self.host, feature: self.feature)
    if self.reading { holding.begin() }
    self.holding = holding
    return InMemoryStorage(bridge: holding)
  }

  /// Runs one call into the instance, with its storage current; the values it made are held
  /// and its changes written after it. An instance that holds nothing yet pays a thread-local
  /// store for it, and no lock: a value it makes during the call is held at once.
  @inlinable
  func run<T>(_ body: () -> T) -> T {
    guard let holding = self.holding, !self.holdsNothing else {
      return InMemoryStorage.withCurrent(self, body)
    }
    return InMemoryStorage.withCurrent(self) { holding.call(body) }
  }

  /// Whether no value is held: then a call needs only its storage current
  /// (``InMemoryStorage/enterCurrent(_:)``), not the holding's lock around it.
  @inlinable
  var holdsNothing: Bool {
    guard let holding = self.holding else { return true }
    return !holding.holdsAny.load(ordering: .acquiring)
  }

  /// Reads a state from bytes (`create`, `restart_effects`): its values are held after the
  /// call with the values read, not the defaults the decoder made first.
  @usableFromInline
  func readState<T>(_ body: () -> T) -> T {
    if let storage = self.made, let holding = self.holding {
      storage.beginReading()
      return InMemoryStorage.withCurrent(self) { holding.call(body) }
    }
    // A holding made while the state is read begins a call, which ends here.
    self.reading = true
    let result = InMemoryStorage.withCurrent(self, body)
    self.reading = false
    self.holding?.end()
    return result
  }

  /// Takes a held value's action (`_shared`, `_sharedWrite`): its status, or nil for any other
  /// action.
  @usableFromInline
  func receive(_ action: WireValue) -> pb_status? {
    if let holding = self.holding { return holding.receive(action) }
    // An instance that holds nothing says so when it is sent a held value.
    guard SharedHolding.parse(action) != nil else { return nil }
    _ = self.storage
    return self.holding?.receive(action)
  }
}
