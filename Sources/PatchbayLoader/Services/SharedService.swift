import PatchbayABI

extension HostTable {
  /// "patchbay.shared/1": a feature publishes state others read, subscribes to what others
  /// publish, and holds and writes a value many write (patchbay/shared.h). All are
  /// [main-thread]: the request is kept in the instance's context, and the app applies it after
  /// the call (``HostContext/share(_:)``).
  nonisolated(unsafe) static let sharedService: UnsafeMutablePointer<pb_shared_service> = {
    let service = UnsafeMutablePointer<pb_shared_service>.allocate(capacity: 1)
    service.initialize(
      to: pb_shared_service(
        struct_size: UInt32(MemoryLayout<pb_shared_service>.size),
        publish: { host, name, value, length in
          HostTable.share("shared->publish", host, name, value, length) {
            .publish(name: $0, value: $1)
          }
        },
        subscribe: { host, name, action in
          HostTable.audit("shared->subscribe")
          guard let context = HostTable.context(host) else { return PB_ERR_INVALID }
          let name = name.map { String(cString: $0) } ?? ""
          return context.share(.subscribe(name: name, action: action.map { String(cString: $0) }))
        },
        hold: { host, name, initial, length in
          HostTable.share("shared->hold", host, name, initial, length) {
            .hold(name: $0, initial: $1)
          }
        },
        write: { host, name, value, length in
          HostTable.share("shared->write", host, name, value, length) {
            .write(name: $0, value: $1)
          }
        }))
    return service
  }()

  /// A request of a name and value bytes, kept in the calling instance's context.
  private static func share(
    _ call: StaticString, _ host: UnsafePointer<pb_host>?, _ name: UnsafePointer<CChar>?,
    _ value: UnsafePointer<UInt8>?, _ length: Int, _ request: (String, [UInt8]) -> SharedRequest
  ) -> pb_status {
    HostTable.audit(call)
    guard let context = HostTable.context(host) else { return PB_ERR_INVALID }
    let name = name.map { String(cString: $0) } ?? ""
    let bytes = value.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
    return context.share(request(name, bytes))
  }
}
