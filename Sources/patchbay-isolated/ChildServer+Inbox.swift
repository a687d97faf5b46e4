import PatchbayABI
import PatchbayIsolation
import PatchbayLoader

extension ChildServer {
  /// Where one instance's sends and navigation requests go.
  final class Inbox: InstanceInbox {
    unowned let server: ChildServer
    let instance: UInt64
    init(server: ChildServer, instance: UInt64) {
      (self.server, self.instance) = (server, instance)
    }

    /// Its instance holds it until the instance's context has let go of it.
    var isOpen: Bool { true }

    func pluginSent(_ action: [UInt8], from context: HostContext, keys: String?) {
      let note: PluginNote = keys.map { .sendFrom(keys: $0, action) } ?? .send(action)
      self.server.say(note, instance: self.instance)
    }

    /// The instance cancelled `key`: the host cancels it in the earlier generations it runs.
    func earlierGenerationsCancel(key: String) {
      self.server.say(.cancelled(key), instance: self.instance)
    }

    func requestNavigation(_ request: NavigationRequest) -> Bool {
      let note: PluginNote.NavigationNote
      switch request {
      case .push(let node, let state):
        note = .init(kind: PB_NAVIGATE_PUSH.rawValue, node: node, state: state)
      case .present(let node, let state):
        note = .init(kind: PB_NAVIGATE_PRESENT.rawValue, node: node, state: state)
      case .pop: note = .init(kind: PB_NAVIGATE_POP.rawValue, node: "", state: nil)
      case .popToRoot: note = .init(kind: PB_NAVIGATE_POP_TO_ROOT.rawValue, node: "", state: nil)
      case .dismiss: note = .init(kind: PB_NAVIGATE_DISMISS.rawValue, node: "", state: nil)
      }
      self.server.say(.navigate(note), instance: self.instance)
      return true
    }

    func jobEnded() {}
    func pluginCrashed(_ report: String) {}
  }
}
