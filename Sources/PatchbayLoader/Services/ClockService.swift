import Foundation
import PatchbayABI

extension HostTable {
  /// "patchbay.clock/1": the monotonic clock, in nanoseconds (patchbay/host.h). Any thread,
  /// the audio thread included: one `clock_gettime`, no allocation.
  nonisolated(unsafe) static let clockService: UnsafeMutablePointer<pb_clock_service> = {
    let service = UnsafeMutablePointer<pb_clock_service>.allocate(capacity: 1)
    service.initialize(
      to: pb_clock_service(
        struct_size: UInt32(MemoryLayout<pb_clock_service>.size),
        now_ns: {
          var time = timespec()
          clock_gettime(CLOCK_MONOTONIC, &time)
          return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
        }
      )
    )
    return service
  }()
}
