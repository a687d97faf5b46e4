import Foundation
import Patchbay
import PatchbayABI
import PatchbayEncoding

/// Creating instances (with their children and hooks), forwarding to parents, taking them out.
/// On the app queue.
extension AppRuntime {
  /// Creates the instance of `node` at `path` (from `state` when given), and its `child`
  /// features under it.
  func create(node key: String, at path: String, state: [UInt8]? = nil) throws(AppError) {
    guard let node = self.config.node(key), let feature = self.features[node.featureID] else {
      throw AppError("'\(key)' has no loaded feature; run `patchbay check` on the config.")
    }
    let handle: FeatureHandle
    do {
      let logs = self.logHandler
      let id = feature.id
      handle = try FeatureHandle(feature: feature, restoring: state) { level, message in
        logs.value?(id, PluginLogLevel(level), message)
      }
    } catch {
      throw AppError(error.description)
    }
    if !self.replaying {
      // A replay applies the recorded navigation instead.
      handle.onNavigationRequest { [weak self] request in
        self?.navigationRequested(request, from: path)
      }
    }
    let changes = self.changeHandler
    handle.onFailure { [weak self] message in self?.fail(path: path, message) }
    handle.attach(to: self.executor) { [weak self] in self?.afterJob() }
    let parentObserves =
      node.parent.flatMap { self.config.node($0)?.observes.contains(key) } ?? false
    if self.tracksStateChanges, let initial = try? handle.stateValue() {
      self.lastStates.withValue { $0?[path] = initial }
    }
    let lastStates = self.lastStates
    handle.onReduced { [weak self, weak handle] bytes, source in
      if let handler = changes.value {
        let text = (try? handle?.formatAction(bytes)) ?? "\(bytes.count) bytes"
        var diff: String?
        if lastStates.value != nil, let after = handle?.stateDuringCallback() {
          let before = lastStates.withValue { states in
            defer { states?[path] = after }
            return states?[path]
          }
          diff = stateDiff(before, after)
        }
        handler(
          .action(
            path: path, text: text, source: source == .effect ? .effect : .command, diff: diff))
      }
      // A replay applies the recorded parent actions instead.
      if node.parent != nil, self?.replaying == false {
        self?.forwardToParent(bytes, from: node, at: path, everything: parentObserves)
      }
    }
    if self.replaying { handle.muteEffects() }
    self.instances.append((path, handle))
    for child in self.config.children(of: key) {
      switch child.kind {
      case .child: try self.create(node: child.key, at: "\(path)/\(child.key)")
      case .collection:
        for id in child.ids { try self.create(node: child.key, at: "\(path)/\(child.key)#\(id)") }
      case .stack, .presented: break
      }
    }
  }

  /// On the app queue, after the child reduced it: hands a child's action to its parent, as
  /// `<childKey>(<action>)` — from a collection's
  /// instance `<key>(element(id: "a", action: <action>))`, like TCA's `forEach` — delegate
  /// actions (`delegate(…)`) always, every action when the parent observes the child.
  func forwardToParent(
    _ bytes: [UInt8], from node: AppConfig.Node, at path: String, everything: Bool
  ) {
    // Most actions are not for the parent: look at the name before decoding anything.
    guard let parentKey = node.parent,
      everything || WireValue.caseName(of: bytes) == "delegate",
      let action = try? WireValue(decoding: bytes)
    else { return }
    let parentPath: String? = {
      if node.kind == .child || node.kind == .collection {
        return String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
      }
      // A screen's parent is the nearest live instance of the parent node below it.
      return self.instances.last { Self.strip($0.path) == parentKey || $0.path == parentKey }?.path
    }()
    guard let parentPath,
      let parent = self.instances.first(where: { $0.path == parentPath })?.handle
    else { return }
    var wrapped = action
    if node.kind == .collection, let hash = path.lastIndex(of: "#") {
      let id = String(path[path.index(after: hash)...])
      wrapped = .case(
        "element", [WireValue.Field("id", .string(id)), WireValue.Field("action", action)])
    }
    parent.send(WireValue.case(node.key, [WireValue.Field("_0", wrapped)]).bytes)
  }

  /// Takes the instance at `path` and everything under it out of the app; the caller cancels
  /// and releases them.
  func remove(prefix path: String) -> [FeatureHandle] {
    let removed = self.instances.filter { $0.path == path || $0.path.hasPrefix(path + "/") }
    self.instances.removeAll { $0.path == path || $0.path.hasPrefix(path + "/") }
    return removed.map(\.handle)
  }
}
