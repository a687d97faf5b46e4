import PatchbayABI
import PatchbayLoader

/// The calls the host makes of an isolated plugin's process, one per `pb_feature_vtable` and
/// `pb_processor_desc` call, plus `describe` at start. A request is the call's code, then its
/// arguments; a reply is a status, then the call's result, then the ``PluginNotes`` the plugin
/// made during the call.
///
/// | call | arguments | result |
/// |---|---|---|
/// | describe | — | a ``PluginDescription`` as JSON, or the load error |
/// | create | instance, feature, state? | snapshot after create |
/// | reduce | instance, action | snapshot after the action, when it succeeded; effect origins? |
/// | snapshot, render | instance, limit | bytes? |
/// | parseAction, formatAction | feature, bytes | bytes |
/// | migrate | feature, schema, limit, state | bytes? |
/// | runningEffects, cancelEffects, destroy | instance | count, and where its last ring note ends (flag, mark) / — |
/// | cancelEffectsKeyed | instance, key | — |
/// | resumeEffects | instance | — (the status says whether it did) |
/// | restartEffects | instance, state, action, effect numbers | effect origins? |
/// | createProcessor | instance, rate, channels, frames | processor index |
/// | writeParameters | instance | block |
/// | eventAction | instance, event | bytes |
/// | destroyProcessor | processor index | — |
package enum IsolatedCall: UInt8, Sendable {
  case describe = 1
  case create, reduce, snapshot, render, parseAction, formatAction, migrate
  case runningEffects, cancelEffects, destroy
  case createProcessor, writeParameters, eventAction, destroyProcessor
  case cancelEffectsKeyed, resumeEffects
  case restartEffects
}

/// What an isolated plugin said to the host during a call (or, in the channel's ring,
/// outside one), replayed on the host's side into the instance's ``HostContext``: its
/// `host->error` reasons, log lines, sends, navigation requests, the MIDI channels it
/// listens to, and its effects' cancellations ("patchbay.effects/1").
package enum PluginNote: Sendable, Equatable {
  case error(String)
  case log(pb_log_level, String)
  case send([UInt8])
  case navigate(NavigationNote)
  case midiChannels(UInt16)
  case share(SharedRequest)
  /// `send_from`: an action from an effect filed under `keys`.
  case sendFrom(keys: String, [UInt8])
  /// `cancelled`: the instance cancelled the effects filed under a key.
  case cancelled(String)

  /// A navigation request in the ABI's terms: kind, node, state.
  package struct NavigationNote: Sendable, Equatable {
    package var kind: UInt32
    package var node: String
    package var state: [UInt8]?

    package init(kind: UInt32, node: String, state: [UInt8]?) {
      (self.kind, self.node, self.state) = (kind, node, state)
    }
  }

  package func write(to out: inout WireWriter) {
    switch self {
    case .error(let text):
      out.put(UInt8(1))
      out.put(text)
    case .log(let level, let text):
      out.put(UInt8(2))
      out.put(UInt32(level.rawValue))
      out.put(text)
    case .send(let bytes):
      out.put(UInt8(3))
      out.put(bytes: bytes)
    case .navigate(let request):
      out.put(UInt8(4))
      out.put(request.kind)
      out.put(request.node)
      out.put(optional: request.state)
    case .midiChannels(let mask):
      out.put(UInt8(5))
      out.put(mask)
    case .share(.publish(let name, let value)):
      out.put(UInt8(6))
      out.put(name)
      out.put(bytes: value)
    case .share(.subscribe(let name, let action)):
      out.put(UInt8(7))
      out.put(name)
      out.put(optional: action.map { Array($0.utf8) })
    case .sendFrom(let keys, let bytes):
      out.put(UInt8(8))
      out.put(keys)
      out.put(bytes: bytes)
    case .cancelled(let key):
      out.put(UInt8(9))
      out.put(key)
    case .share(.hold(let name, let initial)):
      out.put(UInt8(10))
      out.put(name)
      out.put(bytes: initial)
    case .share(.write(let name, let value)):
      out.put(UInt8(11))
      out.put(name)
      out.put(bytes: value)
    }
  }

  package static func read(from reader: inout WireReader) throws(WireReader.Truncated) -> Self {
    switch try reader.read(UInt8.self) {
    case 1: return .error(try reader.string())
    case 2:
      let level = pb_log_level(rawValue: try reader.read(UInt32.self))
      return .log(level, try reader.string())
    case 3: return .send(try reader.bytes())
    case 4:
      let kind = try reader.read(UInt32.self)
      let node = try reader.string()
      return .navigate(NavigationNote(kind: kind, node: node, state: try reader.optionalBytes()))
    case 5: return .midiChannels(try reader.read(UInt16.self))
    case 6:
      let name = try reader.string()
      return .share(.publish(name: name, value: try reader.bytes()))
    case 7:
      let name = try reader.string()
      let action = try reader.optionalBytes().map { String(decoding: $0, as: UTF8.self) }
      return .share(.subscribe(name: name, action: action))
    case 8:
      let keys = try reader.string()
      return .sendFrom(keys: keys, try reader.bytes())
    case 9: return .cancelled(try reader.string())
    case 10:
      let name = try reader.string()
      return .share(.hold(name: name, initial: try reader.bytes()))
    case 11:
      let name = try reader.string()
      return .share(.write(name: name, value: try reader.bytes()))
    default: throw WireReader.Truncated()
    }
  }
}
