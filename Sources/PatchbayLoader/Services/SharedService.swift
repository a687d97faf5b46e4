import PatchbayABI

extension HostTable {
  /// "patchbay.shared/1": a feature publishes state others read, and subscribes to what
  /// others publish (patchbay/shared.h). Both are [main-thread]: the request is kept in the
  /// instance's context, and the app applies it after the call (``HostContext/share(_:)``).
  nonisolated(unsafe) static let sharedService: UnsafeMutablePointer<pb_shared_service> = {
    let service = UnsafeMutablePointer<pb_shared_service>.allocate(capacity: 1)
    service.initialize(
      to: pb_shared_service(
        struct_size: UInt32(MemoryLayout<pb_shared_service>.size),
        publish: { host, name, value, length in
          HostTable.audit("shared->publish")
          guard let context = HostTable.context(host) else { return PB_ERR_INVALID }
          let name = name.map { String(cString: $0) } ?? ""
          let value = value.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
          return context.share(.publish(name: name, value: value))
        },
        subscribe: { host, name, action in
          HostTable.audit("shared->subscribe")
          guard let context = HostTable.context(host) else { return PB_ERR_INVALID }
          let name = name.map { String(cString: $0) } ?? ""
          return context.share(.subscribe(name: name, action: action.map { String(cString: $0) }))
        }))
    return service
  }()
}
