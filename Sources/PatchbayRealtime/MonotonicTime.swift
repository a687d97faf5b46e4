import Foundation

/// CLOCK_MONOTONIC now, in nanoseconds: the time stamp of audio periods and MIDI events.
/// [audio-thread] safe: a vDSO call, no allocation, no lock.
@inline(__always)
public func monotonicNanoseconds() -> UInt64 {
  var now = timespec()
  clock_gettime(CLOCK_MONOTONIC, &now)
  return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}
