/// The actions of an isolated instance whose effects still run, each with the state it was
/// reduced on: what a new process starts those effects again from when a crash ended them
/// (patchbay/feature.h, `effect_origins` and `restart_effects`).
///
/// The plugin says after each call which actions' effects still run; this keeps those and
/// drops the rest, so a timer started by `start` is kept until `pause` cancels it:
///
/// ```swift
/// var running = RunningEffects()
/// running.update(originsAfterStart, reduced: start, on: stateBeforeStart)  // kept: ticking
/// running.update(originsAfterPause, reduced: pause, on: stateBeforePause)  // dropped
/// ```
struct RunningEffects {
  /// An action whose effects were still running at the last reply.
  struct Origin: Equatable {
    /// Its call's number in the current process.
    var number: UInt64
    /// The state it was reduced on, and its bytes.
    let state: [UInt8]
    let action: [UInt8]
    /// Its effects still running, by number.
    var effects: [UInt32]
  }

  /// Whether the plugin says which effects run; false: effects end with a crash for good.
  private(set) var isKnown = false
  private(set) var origins: [Origin] = []
  /// Whether any action was reduced since the instance was created.
  private(set) var hasReduced = false

  /// After a call that reduced `action` on `state` (both nil for a call that reduced none):
  /// keeps the actions whose effects `bytes` says still run. `bytes` nil: the plugin has no
  /// `effect_origins`, and nothing is kept.
  mutating func update(_ bytes: [UInt8]?, reduced action: [UInt8]?, on state: [UInt8]?) {
    if action != nil { self.hasReduced = true }
    guard let bytes, let (last, running) = Self.parse(bytes) else {
      (self.isKnown, self.origins) = (false, [])
      return
    }
    self.isKnown = true
    self.origins = self.origins.compactMap { origin in
      guard let effects = running[origin.number] else { return nil }
      var origin = origin
      origin.effects = effects
      return origin
    }
    if let action, let state, let effects = running[last],
      !self.origins.contains(where: { $0.number == last })
    {
      self.origins.append(Origin(number: last, state: state, action: action, effects: effects))
    }
  }

  /// Takes the origins, to start their effects again in a new process, whose calls are
  /// numbered afresh: each restart's reply (``update(_:reduced:on:)``) files it again.
  mutating func takeForRestart() -> [Origin] {
    defer { self.origins = [] }
    return self.origins
  }

  /// Reads `effect_origins` bytes: the last call's number, and each action's running effects.
  static func parse(_ bytes: [UInt8]) -> (last: UInt64, running: [UInt64: [UInt32]])? {
    guard bytes.count >= 12 else { return nil }
    return bytes.withUnsafeBytes { buffer in
      var reader = WireReader(buffer.baseAddress!, length: buffer.count)
      do {
        let last = try reader.read(UInt64.self)
        var running: [UInt64: [UInt32]] = [:]
        for _ in 0..<(try reader.read(UInt32.self)) {
          let action = try reader.read(UInt64.self)
          let count = try reader.read(UInt32.self)
          guard count <= buffer.count / 4 else { return nil }
          running[action] = try (0..<count).map { _ in try reader.read(UInt32.self) }
        }
        return (last, running)
      } catch {
        return nil
      }
    }
  }
}
