import Foundation
import PatchbayFunctionTable
import PatchbayLoader

/// A feature swapped in recently: if its code crashes or hangs within its first
/// `[limits] rollback-actions` actions or `rollback-seconds` seconds (it must run isolated to
/// survive that), the app swaps back to the code before, each instance's state migrated back.
/// cr.h does the same for C hot reload.
struct Probation {
  let previous: LoadedFeature
  let replacement: LoadedFeature
  let since: ContinuousClock.Instant
  var actionsLeft: Int
}

extension AppRuntime {
  /// Puts `replacement` on probation after a swap from `previous`. [app queue]
  func startProbation(_ replacement: LoadedFeature, from previous: LoadedFeature) {
    guard self.config.limits.rollbackActions > 0 || self.config.limits.rollbackSeconds > 0 else {
      return
    }
    self.owned.probation[replacement.id] = Probation(
      previous: previous, replacement: replacement, since: ContinuousClock.now,
      actionsLeft: self.config.limits.rollbackActions)
  }

  /// An action `feature` reduced: one fewer left on its probation. [app queue]
  func countOnProbation(_ feature: LoadedFeature) {
    guard var probation = self.owned.probation[feature.id], probation.replacement === feature
    else { return }
    probation.actionsLeft -= 1
    let seconds = Duration.seconds(self.config.limits.rollbackSeconds)
    let over = probation.actionsLeft <= 0 && ContinuousClock.now - probation.since >= seconds
    self.owned.probation[feature.id] = over ? nil : probation
  }

  /// `feature` crashed or hung: when it is on probation, swaps every instance of it back to
  /// the code before. What was done, for the report: "Rolled back to <file> …", or why it
  /// could not be; nil when it was not on probation. [app queue]
  func rollBack(_ feature: LoadedFeature, after report: String) -> String? {
    guard let probation = self.owned.probation[feature.id], probation.replacement === feature
    else { return nil }
    self.owned.probation[feature.id] = nil
    let elapsed = ContinuousClock.now - probation.since
    let actions = self.config.limits.rollbackActions - probation.actionsLeft
    guard probation.actionsLeft > 0 || elapsed < .seconds(self.config.limits.rollbackSeconds) else {
      return nil
    }
    let previous = probation.previous
    let targets = self.owned.instances.entries.filter {
      $0.handle.owned.implementation.feature === feature
    }
    do throws(FeatureCallError) {
      try FeatureHandle.swap(targets.map(\.handle), to: previous)
    } catch {
      return "It could not be rolled back to \(previous.plugin.path): \(error.reason)"
    }
    self.owned.features.replace(with: previous)
    self.flight?.write(.swap(feature: feature.id, plugin: previous.plugin.path))
    self.functions.retarget(in: self.owned.features)
    for target in targets {
      do throws(AppError) {
        try self.attachedPlayer.player?.play(target.handle, at: target.path)
      } catch {
        self.fail(error)
      }
      self.changes.states.track(target.path, state: try? target.handle.snapshot())
      self.applyShared(of: target.handle, at: target.path)
    }
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let note =
      "Rolled back to \(previous.plugin.path): \(feature.plugin.path), swapped in "
      + String(format: "%.1f s", seconds) + " and \(actions) action\(actions == 1 ? "" : "s") "
      + "before, failed within [limits] rollback-actions (\(self.config.limits.rollbackActions)) or "
      + "rollback-seconds (\(self.config.limits.rollbackSeconds)); each instance's state was migrated back."
    self.publish(
      .swap(
        SwapReport(
          featureID: feature.id, from: feature.plugin.path, to: previous.plugin.path,
          generation: previous.plugin.generation, fromSchema: feature.schemaVersion,
          toSchema: previous.schemaVersion, instances: targets.map(\.path.description),
          duration: elapsed, held: .zero, isRollback: true)))
    self.hooks.log(feature.id, .error, "\(report) \(note)")
    return note
  }
}
