import Foundation
import Patchbay
import PatchbayABI
import PatchbayConfig
import PatchbayEncoding
import PatchbayLoader

/// Creating instances (with their children and hooks), forwarding to parents, taking them out.
/// On the app queue.
extension AppRuntime {
  /// Creates the instance of `node` at `path` (from `state` when given), and its `child`
  /// features and collections under it.
  func create(node key: String, at path: InstancePath, state: [UInt8]? = nil) throws(AppError) {
    guard let node = self.config.node(key), let feature = self.owned.features[node.featureID] else {
      throw AppError(.noLoadedFeature(node: key))
    }
    // A kept state, from an earlier run, unless the caller gives one (a push's).
    let kept =
      state == nil && node.persists
      ? self.stateKeeper?.load(
        path: self.keptName(of: path), feature: feature, limit: self.config.limits.stateBytes)
      : nil
    if let kept {
      if self.owned.started {
        // A screen pushed from its kept state: the navigation change carries that state, so a
        // recording replays it.
        self.owned.keptForStep = self.owned.keptForStep ?? kept
      } else {
        self.owned.keptAtStart.append((path.description, kept))
      }
    }
    let handle: FeatureHandle
    do throws(AppError) {
      handle = try self.makeHandle(feature, at: path, state: state ?? kept)
    } catch {
      // A kept state the plugin refuses is set aside (one line), never a reason not to start.
      guard state == nil, kept != nil, let keeper = self.stateKeeper else { throw error }
      keeper.refused(path: self.keptName(of: path), because: error.description)
      if !self.owned.started { self.owned.keptAtStart.removeAll { $0.path == path.description } }
      self.owned.keptForStep = nil
      handle = try self.makeHandle(feature, at: path, state: nil)
    }
    handle.owned.observer = InstanceSite(app: self, node: node, path: path)
    self.changes.states.track(path, state: try? handle.snapshot())
    if self.replaying { handle.muteEffects() }
    self.owned.instances.insert(handle, at: path)
    try self.attachedPlayer.player?.play(handle, at: path)
    if self.owned.sharedLater != nil {
      self.owned.sharedLater?.append((handle, path))
    } else {
      self.applyShared(of: handle, at: path)
    }
    for child in self.config.children(of: key) {
      switch child.kind {
      case .child: try self.create(node: child.key, at: path.appending(child.key))
      case .collection:
        for id in child.ids {
          try self.create(node: child.key, at: path.appending(child.key, instance: id))
        }
      case .stack, .presented: break
      }
    }
  }

  /// An instance of `feature` for `path`, on the app queue, from `state` when given.
  private func makeHandle(_ feature: LoadedFeature, at path: InstancePath, state: [UInt8]?)
    throws(AppError) -> FeatureHandle
  {
    do {
      return try FeatureHandle(
        feature: feature, restoring: state, on: self.executor, limits: self.config.limits,
        label: path.description, log: self.pluginLog(of: feature.id),
        functions: self.instancesFunctionResolver)
    } catch {
      throw AppError(.failed(path: path.description, reason: error.description))
    }
  }

  /// What the instances of feature `id` log through (made at the first).
  private func pluginLog(of id: String) -> @Sendable (pb_log_level, String) -> Void {
    if let log = self.owned.pluginLogs[id] { return log.call }
    let hooks = self.hooks
    let log = PluginLog { level, message in hooks.log(id, PluginLogLevel(level), message) }
    self.owned.pluginLogs[id] = log
    return log.call
  }

  /// The name a kept state is filed under: the path without the instance numbers of screens
  /// (`practice`, not `practice#3`), so the next push of a screen finds what the last one left.
  func keptName(of path: InstancePath) -> String {
    InstancePath(
      path.segments.map { segment in
        switch self.config.node(segment.key)?.kind {
        case .stack?, .presented?: InstancePath.Segment(key: segment.key)
        default: segment
        }
      }
    ).description
  }

  /// On the app queue, after the child reduced it: hands a child's action to its parent, as
  /// `<childKey>(<action>)` — from a collection's
  /// instance `<key>(element(id: "a", action: <action>))`, like TCA's `forEach` — delegate
  /// actions (`delegate(…)`) always, every action when the parent observes the child.
  func forwardToParent(
    _ bytes: [UInt8], from node: AppConfig.Node, at path: InstancePath, everything: Bool
  ) {
    // Most actions are not for the parent: look at the name before decoding anything.
    guard let parentKey = node.parent,
      everything || WireValue.caseName(of: bytes) == "delegate",
      let action = try? WireValue(decoding: bytes)
    else { return }
    // A child's parent is the path above it; a screen's is the nearest live instance of the
    // parent node below it.
    let parentPath = path.parent ?? self.owned.instances.newestScreen(ofNode: parentKey)?.path
    guard let parentPath, let parent = self.owned.instances[parentPath] else { return }
    var wrapped = action
    if node.kind == .collection, let id = path.last.instance {
      wrapped = .case(
        "element", [WireValue.Field("id", .string(id)), WireValue.Field("action", action)])
    }
    parent.send(WireValue.case(node.key, [WireValue.Field("_0", wrapped)]).bytes)
  }
}

/// A feature's log, kept in a struct: a closure kept bare in a dictionary comes back out
/// through a thunk, which costs an allocation each time.
struct PluginLog {
  let call: @Sendable (pb_log_level, String) -> Void
}
