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
        now_ns: { monotonicNanoseconds() }
      )
    )
    return service
  }()
}

/// CLOCK_MONOTONIC in nanoseconds: "patchbay.clock/1"'s `now_ns`, for native and WebAssembly
/// plugins alike. One `clock_gettime`, no allocation.
package func monotonicNanoseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_MONOTONIC, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
