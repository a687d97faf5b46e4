// patchbay-probe: the child `patchbay validate` runs its realtime tests in. It takes the place
// of malloc (ordo-one/malloc-interposer) and of libc's locks and I/O (CPatchbayBlockingCallCounter) for
// the whole process, the plugin under test included, and counts what the audio thread calls
// inside `process`:
//
//   patchbay-probe --child processor.realtime .build/debug/libSynth.so --seed 7 --strictness 5
//
// Its arguments and output are `patchbay validate --child`'s (ValidationChild).
import CPatchbayBlockingCallCounter
import CPatchbayProcessGroup
import Foundation
import PatchbayValidation
import RealtimeCheckSupport

pb_group_adopt()  // it dies with the validator that started it
AllocationCounter.install()
RealtimeProbe.installed = RealtimeProbe(
  watch: { on in
    AllocationCounter.watch(currentThread: on)
    pb_blocking_watch(on ? 1 : 0)
  },
  counts: {
    let calls = (0..<pb_blocking_function_count()).compactMap {
      index -> RealtimeProbe.Counts.Call? in
      let count = Int(pb_blocking_calls(index))
      guard count > 0 else { return nil }
      return .init(
        name: String(cString: pb_blocking_function_name(index)),
        isLock: pb_blocking_function_kind(index) == PB_BLOCKING_LOCK, count: count)
    }
    return .init(allocations: AllocationCounter.count, calls: calls)
  },
  reset: {
    AllocationCounter.reset()
    pb_blocking_reset()
  },
  selfTest: {
    AllocationCounter.watch(currentThread: true)
    let probe = [Int](repeating: 1, count: Int.random(in: 100...200))
    AllocationCounter.watch(currentThread: false)
    defer { AllocationCounter.reset() }
    if AllocationCounter.count == 0 || probe.isEmpty {
      return "patchbay-probe's allocation counter saw no allocation made on purpose: "
        + "is malloc-interposer linked?"
    }
    if pb_blocking_self_test() == 0 {
      return "patchbay-probe's call counter saw no sched_yield made on purpose: is it linked "
        + "with --export-dynamic?"
    }
    return nil
  })
exit(ValidationChild.main(Array(CommandLine.arguments.dropFirst())))
