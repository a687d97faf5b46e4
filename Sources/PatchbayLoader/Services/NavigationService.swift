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
          guard let request = NavigationRequest(kind: kind, node: node, state: state) else {
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
