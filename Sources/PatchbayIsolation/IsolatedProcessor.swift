import CPatchbayChannel
import Foundation
import PatchbayABI

/// The host's side of an isolated feature's processor: the `pb_isolated_processor` the audio
/// thread calls (`pb_isolated_process`, in C: it copies the period in, wakes the child's audio
/// thread, waits until a deadline and mixes what came back), and where its periods go now.
/// A restart of the plugin's process creates the processor again there and rebinds it; the
/// audio thread never waits for that, it plays silence meanwhile.
///
/// `@unchecked Sendable`: `bindings` and `childIndex` change only on the plugin's executor; the
/// audio thread reads the C struct, whose binding is swapped atomically.
final class IsolatedProcessor: @unchecked Sendable {
  let pointer: UnsafeMutablePointer<pb_isolated_processor>
  unowned let instance: IsolatedInstance
  let config: pb_processor_config
  /// Every binding made, freed with the processor: the audio thread may read an old one for
  /// the rest of a period.
  private var bindings: [UnsafeMutablePointer<pb_isolated_binding>] = []
  /// Its index in the current process, nil while it has none. [plugin executor]
  var childIndex: UInt32?

  init(
    instance: IsolatedInstance, config: pb_processor_config, offline: Bool, parameterSize: UInt32
  ) {
    self.instance = instance
    self.config = config
    self.pointer = .allocate(capacity: 1)
    self.pointer.initialize(
      to: pb_isolated_processor(
        binding: nil, parameter_size: parameterSize, offline: offline ? 1 : 0,
        offline_timeout_ns: UInt64(instance.feature.plugin.options.limits.callSeconds)
          * 1_000_000_000,
        deadline_share: instance.feature.plugin.options.deadlineShare, late: 0, skipped: 0,
        rendered: 0, late_in_a_row: 0, inserts: instance.feature.processorInserts ? 1 : 0,
        owner: nil, release: Self.release))
    self.pointer.pointee.owner = Unmanaged.passRetained(self).toOpaque()
  }

  /// Sends its periods to processor `index` of `channel` (nil: nowhere). [plugin executor]
  func bind(_ channel: UnsafeMutablePointer<pb_channel>?, index: UInt32?) {
    self.childIndex = index
    guard let channel, let index else {
      pb_isolated_bind(self.pointer, nil)
      return
    }
    let binding = UnsafeMutablePointer<pb_isolated_binding>.allocate(capacity: 1)
    binding.initialize(to: pb_isolated_binding(channel: channel, index: index))
    self.bindings.append(binding)
    pb_isolated_bind(self.pointer, binding)
  }

  /// Periods late or skipped in a row now. [any thread]
  var lateInARow: UInt64 { pb_isolated_late_in_a_row(self.pointer) }

  /// Periods rendered, late (silence: not back by the deadline) and skipped (silence: the
  /// process was still late, or away). [any thread]
  var counts: (rendered: UInt64, late: UInt64, skipped: UInt64) {
    var counts: (UInt64, UInt64, UInt64) = (0, 0, 0)
    pb_isolated_counts(self.pointer, &counts.0, &counts.1, &counts.2)
    return counts
  }

  /// `pb_processor_desc.destroy`: the graph is done with it. [app queue]
  private static let release: @convention(c) (UnsafeMutableRawPointer?) -> Void = { owner in
    guard let owner else { return }
    let processor = Unmanaged<IsolatedProcessor>.fromOpaque(owner).takeRetainedValue()
    processor.instance.feature.plugin.destroy(processor)
    for binding in processor.bindings { binding.deallocate() }
    processor.pointer.deallocate()
  }
}
