/// One record of a flight file (``FlightWriter``): what the app did, as raw as the app queue
/// has it. Actions are their bytes, with a small number for the instance that reduced them (a
/// ``site``, defined once per segment); the rest — checkpoints, navigation, swaps — is rare
/// and kept whole.
///
/// ```swift
/// .site(id: 0, path: "counter", feature: "dev.patchbay.counter", plugin: "/…/libCounter.so")
/// .action(site: 0, source: 0, bytes: [/* increment */])
/// .failed                       // the action before it failed: it changed nothing
/// ```
///
/// On disk a record is its payload's length (4 bytes, little-endian), its kind (1 byte), then
/// the payload; strings and byte strings inside are a 4-byte length and their bytes.
public enum FlightRecord: Equatable, Sendable {
  /// A checkpoint starts: the app as it was after `actions` actions. The records up to
  /// ``checkpointEnd`` rebuild it (``kept``, ``navigation``, ``collection``, ``swap``).
  case checkpoint(actions: UInt64)
  /// The checkpoint is whole.
  case checkpointEnd
  /// An instance and the code that reduces its actions, numbered for the actions after it.
  case site(id: UInt16, path: String, feature: String, plugin: String)
  /// An action about to be reduced, by whom it was sent (an ``ActionSource``'s index).
  case action(site: UInt16, source: UInt8, bytes: [UInt8])
  /// The action before it was refused or failed: it changed nothing.
  case failed
  /// The instance at `path` is (at a checkpoint) or was set to (`state`, snapshot bytes).
  case kept(path: String, state: [UInt8])
  /// A navigation step: its name (`push`, `present`, `pop`, `popToRoot`, `dismiss`,
  /// `deepLink`), the nodes it names, and the state a new instance started from.
  case navigation(name: String, nodes: [String], state: [UInt8]?)
  /// An instance added to (from `state`, when given) or removed from a collection.
  case collection(path: String, id: String, added: Bool, state: [UInt8]?)
  /// A feature's implementation swapped for the one in `plugin`.
  case swap(feature: String, plugin: String)
  /// The screens (at a checkpoint): the stack bottom first and the presented one, as their
  /// instances are named (`echo#7`), and the number the next screen gets.
  case routes(stack: [String], presented: String?, next: UInt64)
  /// What stopped or hurt the run, as the host reported it.
  case report(String)

  enum Kind: UInt8 {
    case checkpoint = 1, checkpointEnd, site, action, failed, kept, navigation, collection, swap
    case report, routes
  }

  /// The bytes after the length and kind.
  var payload: (Kind, [UInt8]) {
    var out = FlightBytes()
    switch self {
    case .checkpoint(let actions):
      out.put(actions)
      return (.checkpoint, out.bytes)
    case .checkpointEnd:
      return (.checkpointEnd, [])
    case .site(let id, let path, let feature, let plugin):
      out.put(id)
      out.put(path)
      out.put(feature)
      out.put(plugin)
      return (.site, out.bytes)
    case .action(let site, let source, let bytes):
      out.put(site)
      out.put(source)
      out.bytes += bytes
      return (.action, out.bytes)
    case .failed:
      return (.failed, [])
    case .kept(let path, let state):
      out.put(path)
      out.put(state)
      return (.kept, out.bytes)
    case .navigation(let name, let nodes, let state):
      out.put(name)
      out.put(UInt32(nodes.count))
      nodes.forEach { out.put($0) }
      out.put(state)
      return (.navigation, out.bytes)
    case .collection(let path, let id, let added, let state):
      out.put(path)
      out.put(id)
      out.put(UInt8(added ? 1 : 0))
      out.put(state)
      return (.collection, out.bytes)
    case .swap(let feature, let plugin):
      out.put(feature)
      out.put(plugin)
      return (.swap, out.bytes)
    case .report(let text):
      out.put(text)
      return (.report, out.bytes)
    case .routes(let stack, let presented, let next):
      out.put(UInt32(stack.count))
      stack.forEach { out.put($0) }
      out.put(presented.map { Array($0.utf8) })
      out.put(next)
      return (.routes, out.bytes)
    }
  }

  /// The record of `kind` whose payload is `payload`; nil when they do not make one.
  init?(kind: UInt8, payload: ArraySlice<UInt8>) {
    var input = FlightBytes.Reader(payload)
    guard let kind = Kind(rawValue: kind) else { return nil }
    switch kind {
    case .checkpoint:
      guard let actions = input.uint64() else { return nil }
      self = .checkpoint(actions: actions)
    case .checkpointEnd:
      self = .checkpointEnd
    case .site:
      guard let id = input.uint16(), let path = input.string(), let feature = input.string(),
        let plugin = input.string()
      else { return nil }
      self = .site(id: id, path: path, feature: feature, plugin: plugin)
    case .action:
      guard let site = input.uint16(), let source = input.uint8() else { return nil }
      self = .action(site: site, source: source, bytes: input.rest())
      return
    case .failed:
      self = .failed
    case .kept:
      guard let path = input.string(), let state = input.bytes() else { return nil }
      self = .kept(path: path, state: state)
    case .navigation:
      guard let name = input.string(), let nodes = input.strings(),
        let state = input.optionalBytes()
      else { return nil }
      self = .navigation(name: name, nodes: nodes, state: state)
    case .routes:
      guard let stack = input.strings(), let presented = input.optionalBytes(),
        let next = input.uint64()
      else { return nil }
      let name = presented.map { String(validating: $0, as: UTF8.self) }
      guard name != .some(nil) else { return nil }
      self = .routes(stack: stack, presented: name ?? nil, next: next)
    case .collection:
      guard let path = input.string(), let id = input.string(), let added = input.uint8(),
        let state = input.optionalBytes()
      else { return nil }
      self = .collection(path: path, id: id, added: added != 0, state: state)
    case .swap:
      guard let feature = input.string(), let plugin = input.string() else { return nil }
      self = .swap(feature: feature, plugin: plugin)
    case .report:
      guard let text = input.string() else { return nil }
      self = .report(text)
    }
    guard input.isAtEnd else { return nil }
  }
}
