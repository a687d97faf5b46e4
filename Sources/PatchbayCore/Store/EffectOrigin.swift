/// Which action started a running effect, and which of that action's effects it is.
///
/// A plugin's host keeps, for each action whose effects still run, the state the action was
/// reduced on. When an isolated plugin's process crashes, its effects end with it; the new
/// process reduces each such action again on a copy of that state and starts only the
/// effects that were still running (patchbay/feature.h, `restart_effects`). A timer keeps
/// ticking, and nothing that already finished runs twice.
///
/// ```swift
/// runtime.reduce(.start, number: 7)   // its `.run` is effect 0 of action 7
/// runtime.effectOrigins               // [EffectOrigin(action: 7, effect: 0)] while it runs
/// ```
@usableFromInline
package struct EffectOrigin: Hashable, Sendable {
  /// The number of the reduce that started it, as its runtime's caller counted.
  @usableFromInline package var action: UInt64
  /// Its index among the effects that reduce returned: each `run` and each concatenation
  /// counts one, in the order the effect lists them; merges and cancellables do not count.
  @usableFromInline package var effect: UInt32

  @inlinable
  package init(action: UInt64, effect: UInt32) {
    self.action = action
    self.effect = effect
  }
}

/// Numbers the effects one reduce starts (``EffectOrigin/effect``) while they are started;
/// when it restarts effects, it says which of them start again.
@usableFromInline
struct EffectNumbering {
  @usableFromInline let action: UInt64
  @usableFromInline var next: UInt32 = 0
  /// nil: a reduce, which starts everything. Else a restart: only these effects start, and
  /// nothing is sent, requested or cancelled again.
  @usableFromInline let only: Set<UInt32>?

  @inlinable
  init(action: UInt64, only: Set<UInt32>? = nil) {
    self.action = action
    self.only = only
  }

  @inlinable
  var isRestart: Bool { self.only != nil }

  /// The origin of the next effect in order, or nil when a restart leaves it out.
  @inlinable
  mutating func take() -> EffectOrigin? {
    defer { self.next += 1 }
    if let only = self.only, !only.contains(self.next) { return nil }
    return EffectOrigin(action: self.action, effect: self.next)
  }
}
