import Dependencies

/// A plugin's runtime numbers the effects each action starts (``EffectOrigin``), so that a new
/// process can start again those that a crash ended.
extension ReducerRuntime {
  /// Reduces `action` as ``reduce(_:)`` does; its long-lived effects are filed as those of
  /// action `number` (``effectOrigins``).
  @inlinable
  package func reduce(_ action: Action, number: UInt64) {
    var numbering = EffectNumbering(action: number)
    if let dependencies = self.dependencies {
      DependencyValues.$_current.withValue(dependencies) {
        self.reduceNow(action, numbering: &numbering)
      }
    } else {
      self.reduceNow(action, numbering: &numbering)
    }
  }

  @inlinable
  func reduceNow(_ action: Action, numbering: inout EffectNumbering) {
    let effect = self.reducer.reduce(into: &self.storage.pointee, action: action)
    switch effect.operation {
    case .none: return
    case .send(let action): self.send(action)  // no effect runs: none is made
    default: self.runner.start(effect, ids: [], numbering: &numbering)
    }
  }

  /// Starts again the effects `effects` (``EffectOrigin/effect``) that `action` started when
  /// it was reduced on `state`. The reducer runs on a copy of `state`, which is dropped: this
  /// runtime's state is not changed, and nothing is sent, requested or cancelled. The effects
  /// are filed as those of action `number`.
  ///
  /// ```swift
  /// // After a crash: the `start` that began the timer, on the state it was reduced on.
  /// runtime.restartEffects(of: .start, reducedOn: stateBeforeStart, effects: [0], number: 1)
  /// ```
  package func restartEffects(
    of action: Action, reducedOn state: State, effects: Set<UInt32>, number: UInt64
  ) {
    var numbering = EffectNumbering(action: number, only: effects)
    let restart = {
      var copy = state
      let effect = self.reducer.reduce(into: &copy, action: action)
      self.runner.start(effect, ids: [], numbering: &numbering)
    }
    if let dependencies = self.dependencies {
      DependencyValues.$_current.withValue(dependencies, operation: restart)
    } else {
      restart()
    }
  }

  /// The origins of the effects running now that were started numbered, in order.
  package var effectOrigins: [EffectOrigin] { self.madeEffects.load()?.origins ?? [] }
}
