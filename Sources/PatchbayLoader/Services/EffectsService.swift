import PatchbayABI

extension HostTable {
  /// "patchbay.effects/1": the new code of an instance reaches the effects its earlier
  /// generations still run (patchbay/host.h; ``HostContext/cancelled(key:)``).
  nonisolated(unsafe) static let effectsService: UnsafeMutablePointer<pb_effects_service> = {
    let service = UnsafeMutablePointer<pb_effects_service>.allocate(capacity: 1)
    service.initialize(
      to: pb_effects_service(
        struct_size: UInt32(MemoryLayout<pb_effects_service>.size),
        generations: { host in
          HostTable.audit("effects->generations")
          return HostTable.context(host)?.generations.load(ordering: .relaxed) ?? 1
        },
        cancelled: { host, key, length in
          HostTable.audit("effects->cancelled")
          guard let context = HostTable.context(host), let key else { return }
          context.cancelled(key: HostTable.text(key, length))
        },
        send_from: { host, keys, keysLength, bytes, length in
          HostTable.audit("effects->send_from")
          guard let context = HostTable.context(host) else { return }
          let copy = bytes.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
          context.deliver(copy, keys: keys.map { HostTable.text($0, keysLength) })
        }))
    return service
  }()

  /// UTF-8 text of `length` bytes at `pointer` (not NUL-terminated).
  static func text(_ pointer: UnsafePointer<CChar>, _ length: Int) -> String {
    pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
      String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
    }
  }
}
