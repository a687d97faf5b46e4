/// The processors of one published set, as plain memory (iterating an `Array` can allocate
/// in unoptimized builds).
final class SlotSet {
  let slots: UnsafeMutablePointer<Unmanaged<ProcessorSlot>>
  let count: Int
  /// How many of the first slots send MIDI (they come first).
  let senders: Int
  /// Processors taken out that sent MIDI: their held notes end in this set's first period.
  let releasing: UnsafeMutablePointer<Unmanaged<ProcessorSlot>>
  let releasingCount: Int
  /// Whether that was done. [audio-thread]
  var released = false
  private let retained: [ProcessorSlot]

  init(_ slots: [ProcessorSlot], releasing: [ProcessorSlot] = []) {
    self.retained = slots + releasing
    self.count = slots.count
    self.senders = slots.prefix { $0.sendsMIDI }.count
    self.releasingCount = releasing.count
    self.releasing = .allocate(capacity: max(1, releasing.count))
    for (index, slot) in releasing.enumerated() {
      (self.releasing + index).initialize(to: Unmanaged.passUnretained(slot))
    }
    self.slots = .allocate(capacity: max(1, slots.count))
    for (index, slot) in slots.enumerated() {
      (self.slots + index).initialize(to: Unmanaged.passUnretained(slot))
    }
  }

  deinit {
    self.slots.deallocate()
    self.releasing.deallocate()
  }
}
