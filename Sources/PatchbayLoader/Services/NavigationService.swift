import Patchbay
import PatchbayABI

extension HostTable {
  /// "patchbay.navigation/1": a feature asks the app to push, present, pop or dismiss
  /// (patchbay/host.h). The request is applied after the action that made it; from an
  /// effect's thread, in a job of its own on the app queue (``HostContext/navigate(_:)``).
  nonisolated(unsafe) static let navigationService: UnsafeMutablePointer<pb_navigation_service> = {
    let service = UnsafeMutablePointer<pb_navigation_service>.allocate(capacity: 1)
    service.initialize(
      to: pb_navigation_service(
        struct_size: UInt32(MemoryLayout<pb_navigation_service>.size),
        navigate: { host, kind, node, state, length in
          HostTable.audit("navigation->navigate")
          guard let context = HostTable.context(host) else { return }
          let node = node.map { String(cString: $0) } ?? ""
          let state = state.map { Array(UnsafeBufferPointer(start: $0, count: length)) }
          let request: NavigationRequest
          switch kind {
          case PB_NAVIGATE_PUSH: request = .push(node: node, state: state)
          case PB_NAVIGATE_PRESENT: request = .present(node: node, state: state)
          case PB_NAVIGATE_POP: request = .pop
          case PB_NAVIGATE_POP_TO_ROOT: request = .popToRoot
          case PB_NAVIGATE_DISMISS: request = .dismiss
          default:
            context.log(PB_LOG_ERROR, "unknown navigation kind \(kind.rawValue) ignored")
            return
          }
          context.navigate(request)
        }
      )
    )
    return service
  }()
}
