import PatchbayLoader

/// Key bindings checked against the plugins, once they are loaded: each path names features
/// of this app, parent to child from the root, and each action parses as one of its
/// feature's. The reader checked the keys themselves (one character, not the terminal's own,
/// once a screen).
///
/// ```
/// studio.toml:16: keys.space: 'studio/metronom' is not a path of this app: 'metronom' is not
/// a feature key. Did you mean 'metronome'?
/// studio.toml:24: feature "studio".keys[0]: 'strat' is not an action of dev.patchbay.studio:
/// unknown action 'strat'. …
/// ```
extension AppConfig {
  func keyBindingErrors(in registry: FeatureRegistry) -> [ConfigError] {
    var errors: [ConfigError] = []
    for node in self.nodes {
      for (index, binding) in node.keys.enumerated() {
        let keyPath = "feature \"\(node.key)\".keys[\(index)]"
        if let problem = self.actionProblem(binding.action, at: node, in: registry) {
          errors.append(ConfigError(file: self.file, line: binding.line, keyPath: keyPath, problem))
        }
      }
    }
    for binding in self.terminal.keys {
      let keyPath = "keys.\(binding.name)"
      let path = binding.path ?? self.root
      let (node, pathProblem) = self.bindingTarget(path)
      if let problem = pathProblem
        ?? node.flatMap({
          self.actionProblem(binding.action, at: $0, in: registry)
        })
      {
        errors.append(ConfigError(file: self.file, line: binding.line, keyPath: keyPath, problem))
      }
    }
    return errors
  }

  /// Why `action` is not an action of `node`'s feature, if it is not.
  private func actionProblem(_ action: String, at node: Node, in registry: FeatureRegistry)
    -> ConfigError.Reason?
  {
    guard let feature = registry[node.featureID] else { return nil }  // reported already
    do {
      _ = try feature.parseAction(action)
      return nil
    } catch {
      // The plugin's reason may name its feature again.
      var reason = Substring(error.reason)
      if reason.hasPrefix("\(node.featureID): ") {
        reason = reason.dropFirst(node.featureID.count + 2)
      }
      return .badBindingAction(action, feature: node.featureID, reason: String(reason))
    }
  }

  /// The node a binding's path ends at: `studio/metronome` (root first, each a child of the
  /// one before; `#id` picks no node, only an instance).
  func bindingTarget(_ path: String) -> (node: Node?, problem: ConfigError.Reason?) {
    let keys = path.split(separator: "/", omittingEmptySubsequences: false).map {
      String($0.split(separator: "#", maxSplits: 1).first ?? "")
    }
    var parent: Node?
    for key in keys {
      guard let node = self.node(key) else {
        return (nil, .badBindingPath(path, .notAFeatureKey(key, keys: self.nodes.map(\.key))))
      }
      if let parent, node.parent != parent.key {
        return (nil, .badBindingPath(path, .notAChild(key, of: parent.key)))
      }
      if parent == nil, node.key != self.root {
        return (nil, .badBindingPath(path, .notTheRoot(key, root: self.root)))
      }
      parent = node
    }
    return (parent, nil)
  }
}
