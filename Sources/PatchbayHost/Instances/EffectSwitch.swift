import Synchronization

/// Whether a feature's effects are heard: muted for replays.
final class EffectSwitch: Sendable {
  private let muted = Atomic<Bool>(false)
  var isMuted: Bool { self.muted.load(ordering: .relaxed) }
  func mute() { self.muted.store(true, ordering: .relaxed) }
}
