import Foundation
import Patchbay
import PatchbayABI
import PatchbayEncoding

/// Creating instances (with their children and hooks), forwarding to parents, taking them out.
/// On the app queue.
extension AppRuntime {
  /// Creates the instance of `node` at `path` (from `state` when given), and its `child`
  /// features and collections under it.
  func create(node key: String, at path: InstancePath, state: [UInt8]? = nil) throws(AppError) {
    guard let node = self.config.node(key), let feature = self.features[node.featureID] else {
      throw AppError(.noLoadedFeature(node: key))
    }
    let handle: FeatureHandle
    do {
      let logs = self.logHandler
      let id = feature.id
      handle = try FeatureHandle(
        feature: feature, restoring: state,
        log: { level, message in logs.value?(id, PluginLogLevel(level), message) },
        functions: self.functionResolver)
    } catch {
      throw AppError(.failed(path: path.description, reason: error.description))
    }
    if !self.replaying {
      // A replay applies the recorded navigation instead.
      handle.onNavigationRequest { [weak self] request in
        self?.navigationRequested(request, from: path)
      }
    }
    handle.onFailure { [weak self] message in
      self?.fail(AppError(.failed(path: path.description, reason: message)))
    }
    handle.attach(to: self.executor, limits: self.config.limits) { [weak self] in
      self?.afterJob()
    }
    handle.crashLabel.set(path.description)
    self.changes.track(path, state: try? handle.snapshot())
    let parentObserves =
      node.parent.flatMap { self.config.node($0)?.observes.contains(key) } ?? false
    let changes = self.changes
    // Per action: no weak reference is loaded unless a change handler or a parent needs one
    // (a weakly referenced object's every retain takes the runtime's slow path).
    let attached = self.attachedGraph
    let slotKey = ObjectIdentifier(handle)
    handle.onReduced { [weak self, weak handle] bytes, source in
      // Its parameters, for its processor (the app queue; the instance is held).
      attached.graph?.slot(for: slotKey)?.publishParameters()
      changes.reduced(
        path: path, text: (try? handle?.formatAction(bytes)) ?? "\(bytes.count) bytes",
        source: AppChange.Source(source)
      ) { handle?.snapshotDuringCallback() }
      // A replay applies the recorded parent actions instead.
      if node.parent != nil, self?.replaying == false {
        self?.forwardToParent(bytes, from: node, at: path, everything: parentObserves)
      }
    }
    if self.replaying { handle.muteEffects() }
    self.instances.insert(handle, at: path)
    try self.startProcessor(of: handle, at: path)
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
    let parentPath =
      path.parent
      ?? self.instances.paths.last { $0.matches(InstancePath(root: parentKey)) }
    guard let parentPath, let parent = self.instances[parentPath] else { return }
    var wrapped = action
    if node.kind == .collection, let id = path.last.instance {
      wrapped = .case(
        "element", [WireValue.Field("id", .string(id)), WireValue.Field("action", action)])
    }
    parent.send(WireValue.case(node.key, [WireValue.Field("_0", wrapped)]).bytes)
  }
}
