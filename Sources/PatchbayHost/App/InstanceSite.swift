import Patchbay
import PatchbayAppQueue
import PatchbayConfig
import PatchbayEncoding
import PatchbayFlight
import PatchbayLoader

/// Where an instance sits in its app — its node and path — and what the app does with what it
/// tells (``InstanceObserver``): publish its actions and failures, hand delegate actions to
/// its parent, apply its navigation requests. One per instance, made by
/// ``AppRuntime/create(node:at:state:)``. [app queue]
///
/// It points back at the app without retaining it (the app owns its instances, so no cycle):
/// the app clears every handle's observer before it goes, so the pointer is never followed
/// after that.
final class InstanceSite: InstanceObserver {
  unowned(unsafe) let app: AppRuntime
  let node: AppConfig.Node
  let path: InstancePath
  /// Whether the parent node observes every action of this one, not only its delegate ones.
  let parentObserves: Bool
  let flight: FlightRecorder?
  let changes: ChangeRecorder

  init(app: AppRuntime, node: AppConfig.Node, path: InstancePath) {
    self.app = app
    (self.flight, self.changes) = (app.flight, app.changes)
    self.node = node
    self.path = path
    self.parentObserves =
      node.parent.flatMap { app.config.node($0)?.observes.contains(node.key) } ?? false
  }

  func instance(
    _ handle: FeatureHandle, willReduce action: [UInt8], from source: ActionSource,
    by implementation: Implementation
  ) -> Bool {
    // The code by its identity, the recorders from this site's fields: no retain per send.
    self.flight?.willReduce(
      action, site: ObjectIdentifier(implementation), source: source.flightNumber
    ) {
      (
        implementation, self.path.description, implementation.feature.id,
        implementation.feature.plugin.path
      )
    } checkpoint: {
      self.app.flightCheckpoint()
    }
    if self.changes.hearsBeforeReduce.load(ordering: .relaxed) {
      self.changes.willReduce(action, path: self.path, handle: handle, source: source)
    }
    return self.changes.journaling.load(ordering: .relaxed)
  }

  func instance(
    _ handle: FeatureHandle, reduced action: [UInt8], from source: ActionSource,
    timing: ReduceTiming?
  ) {
    let app = self.app
    if !app.owned.probation.isEmpty { app.countOnProbation(handle.owned.implementation.feature) }
    // Its parameters, for its processor.
    app.attachedPlayer.player?.reduced(handle)
    if self.node.persists, let keeper = app.stateKeeper {
      do {
        let state = try handle.snapshot()
        let feature = handle.owned.implementation.feature
        keeper.save(
          path: app.keptName(of: self.path), featureID: feature.id, schema: feature.schemaVersion,
          state: state)
      } catch {
        // Not kept: said, never silently (the last whole state on disk stays).
        app.fail(
          AppError(
            .failed(
              path: self.path.description,
              reason: "its state could not be kept: \(error.description)")))
      }
    }
    app.changes.reduced(
      action, path: self.path,
      text: (try? handle.formatAction(action)) ?? "\(action.count) bytes",
      source: AppChange.Source(source), handle: handle,
      implementation: handle.owned.implementation, timing: timing,
      changed: { try? handle.owned.implementation.changedFields(limit: handle.limits.stateBytes) },
      after: { try? handle.snapshot() })
    // A replay applies the recorded parent actions instead.
    if self.node.parent != nil, !app.replaying {
      app.forwardToParent(action, from: self.node, at: self.path, everything: self.parentObserves)
    }
    app.applyShared(of: handle, at: self.path)
  }

  func instance(_ handle: FeatureHandle, crashed report: String) -> String? {
    let feature = handle.owned.implementation.feature
    self.app.keepFlight(after: feature.id)
    return self.app.rollBack(feature, after: report)
  }

  func instance(_ handle: FeatureHandle, refused message: String) {
    self.app.flight?.failed(message)
    self.app.fail(AppError(.failed(path: self.path.description, reason: message)))
    self.app.keepFlight(after: handle.owned.implementation.feature.id)
  }

  func instance(_ handle: FeatureHandle, requests navigation: NavigationRequest) {
    // A replay applies the recorded navigation instead.
    guard !self.app.replaying else { return }
    self.app.owned.pendingNavigation.append((navigation, self.path))
  }

  func jobEnded() {
    self.app.afterJob()
  }
}
