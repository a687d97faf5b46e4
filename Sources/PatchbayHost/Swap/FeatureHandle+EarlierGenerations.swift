import PatchbayABI
import PatchbayLoader

/// The earlier generations of an instance that a swap left running their effects
/// (``FeatureHandle/Owned/retired``): what reaches them, and when they go.
///
/// ```swift
/// // a timer ticks every second; the user saves a change and the swap runs:
/// try FeatureHandle.swap([timer], to: rebuilt)   // the old instance retires, still ticking
/// // tick → reduced by the new code; the new code's `pause` cancels CancelID.tick in both
/// // generations; the old instance is destroyed once it runs no effect
/// ```
extension FeatureHandle {
  /// How many earlier generations of the instance still run effects after a swap.
  public var earlierGenerations: Int { self.executor.sync { self.owned.retired.count } }

  /// An action an earlier generation's effect sent: whether it goes to the new code. It does
  /// when the new code has that action; otherwise the effect is cancelled and the log says
  /// so, once, naming the effect's ids and the action. [executor]
  func carriesOver(_ action: [UInt8], from context: HostContext, keys: String?) -> Bool {
    guard let old = self.owned.retired.first(where: { $0.context === context }) else {
      return false
    }
    if self.owned.carriedActions.contains(action) { return true }
    let current = self.owned.implementation
    do {
      _ = try current.feature.formatAction(action, context: current.context)
      self.owned.carriedActions.insert(action)
      return true
    } catch {
      let ids = keys.map { $0.split(separator: "\n").map(String.init) } ?? []
      if ids.isEmpty {
        old.instance.cancelEffects()
      } else {
        ids.forEach { old.instance.cancelEffects(key: $0) }
      }
      let text = (try? old.feature.formatAction(action, context: old.context)) ?? "\(action)"
      let effect = ids.isEmpty ? "the effects" : "the effect \(ids.joined(separator: ", "))"
      let instance = self.label.pointer.map { " (\(String(cString: $0)))" } ?? ""
      current.context.log(
        PB_LOG_WARNING,
        "\(current.feature.id)\(instance): \(effect) of the code before the swap sent "
          + "'\(text)', which the new code has no action for (\(error.reason)): cancelled. "
          + "Restart it from the new code (PluginFeature.resume).")
      self.reapRetired()
      return false
    }
  }

  /// The instance's code cancelled `key`: cancels it in the earlier generations. [executor]
  package func earlierGenerationsCancel(key: String) {
    for old in self.owned.retired { old.instance.cancelEffects(key: key) }
    self.reapRetired()
  }

  /// Destroys the earlier generations that run no effect any more, and tells every context
  /// how many generations run. [executor]
  func reapRetired() {
    self.owned.retired.removeAll { old in
      guard old.instance.runningEffects == 0 else { return false }
      old.destroy()
      return true
    }
    self.countGenerations()
  }

  /// Tells every context how many generations run. [executor]
  func countGenerations() {
    let count = UInt32(self.owned.retired.count + 1)
    self.owned.implementation.context.generations.store(count, ordering: .relaxed)
    for old in self.owned.retired { old.context.generations.store(count, ordering: .relaxed) }
  }
}
