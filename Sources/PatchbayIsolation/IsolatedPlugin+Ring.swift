import CPatchbayChannel
import Foundation
import PatchbayABI
import PatchbayLoader

/// What an isolated plugin says outside calls: a reader thread per process takes it from the
/// ring and replays it into the instances' contexts.
extension IsolatedPlugin {
  /// A thread that takes what the process says outside calls and hands it to the instances'
  /// contexts, until the process ends.
  func startReader(for child: ChildProcess) {
    let reader = Thread { [weak self] in
      var buffer = [UInt8](repeating: 0, count: 1 << 20)
      while true {
        let length = buffer.withUnsafeMutableBytes {
          pb_channel_ring_take(child.channel, $0.baseAddress, UInt32($0.count))
        }
        guard length > 0, let self else { return }
        buffer.withUnsafeBytes { bytes in
          var reader = WireReader(bytes.baseAddress!, length: Int(length))
          guard let id = try? reader.read(UInt64.self),
            let note = try? PluginNote.read(from: &reader)
          else { return }
          let context = self.contexts.withValue { $0[id] }
          if let context { apply([note], to: context) }
        }
        child.ringApplied.store(pb_channel_ring_taken(child.channel), ordering: .releasing)
      }
    }
    reader.name = "patchbay-iso-ring"
    reader.start()
  }
}

/// Replays what the plugin said into `context`, as if it had said it in this process.
func apply(_ notes: [PluginNote], to context: HostContext) {
  for note in notes {
    switch note {
    case .error(let text): context.report(text)
    case .log(let level, let text): context.log(level, text)
    case .send(let bytes): context.deliver(bytes)
    case .sendFrom(let keys, let bytes): context.deliver(bytes, keys: keys)
    case .cancelled(let key): context.cancelled(key: key)
    case .navigate(let request):
      let navigation: NavigationRequest
      switch pb_navigation_kind(rawValue: request.kind) {
      case PB_NAVIGATE_PUSH: navigation = .push(node: request.node, state: request.state)
      case PB_NAVIGATE_PRESENT: navigation = .present(node: request.node, state: request.state)
      case PB_NAVIGATE_POP: navigation = .pop
      case PB_NAVIGATE_POP_TO_ROOT: navigation = .popToRoot
      default: navigation = .dismiss
      }
      context.navigate(navigation)
    case .midiChannels(let mask): context.midiChannels.store(mask, ordering: .relaxed)
    case .share(let request): _ = context.share(request)
    }
  }
}
