import PatchbayConfig
import PatchbayFunctions

/// A command the running app refused: what was asked, why, and what to do. The app's state is
/// as the refusal left it (unchanged, unless a plugin refused an action halfway).
///
/// Tests match the ``reason``; people read the ``description`` derived from it:
///
/// ```swift
/// #expect(throws: AppError(.noInstance(path: "ech", live: ["counter", "echo#1"]))) {
///   try app.send("ech", "increment")
/// }
/// // no feature at 'ech'. Did you mean 'echo'? Live paths: counter, echo#1.
/// ```
public struct AppError: Error, Equatable, CustomStringConvertible {
  public enum Reason: Equatable, Sendable {
    /// No live instance has `path`, exactly or as a short form.
    case noInstance(path: String, live: [String])
    /// The action text is not an action of the feature at `path` (the plugin's reason).
    case actionText(path: String, reason: String)
    /// The feature at `path` refused an action, or failed a call (the plugin's reason).
    case failed(path: String, reason: String)
    /// A navigation request the feature at `path` made was refused.
    case requestRefused(path: String, request: String, reason: String)
    /// The router refused a navigation command.
    case navigationRefused(String)
    /// A deep link to a route the app does not have.
    case noRoute(path: String, routes: [String])
    /// A config node has no loaded feature (the config was not checked).
    case noLoadedFeature(node: String)
    /// `path` names no collection of the app.
    case notACollection(path: String, collections: [String])
    /// A collection whose parent node has no live instance.
    case collectionParentNotLive(path: String, parent: String)
    /// A collection whose parent node is live more than once, at `parents`.
    case ambiguousCollection(path: String, parent: String, parents: [String])
    /// An id that cannot name an instance (the rule it breaks).
    case invalidID(String)
    case duplicateID(collection: String, id: String)
    case noSuchID(collection: String, id: String, ids: [String])
    /// A swap names no node or feature id of the app.
    case noFeature(name: String, nodes: [String], ids: [String])
    /// A swap's plugin could not be loaded, or does not have the feature.
    case swapPlugin(feature: String, reason: String)
    /// The new implementation refused the instances' state.
    case swapRefused(feature: String, plugin: String, reason: String)
    /// A function call refused, or a function that does not exist (`Plugin.name`).
    case functionCall(function: String, reason: String)
    /// A recording that cannot be written, read or replayed; `line` is 1-based.
    case recording(file: String, line: Int?, problem: String)
  }

  public let reason: Reason

  public init(_ reason: Reason) {
    self.reason = reason
  }

  public var description: String {
    switch self.reason {
    case .noInstance(let path, let live):
      let short = live.compactMap { InstancePath(parsing: $0)?.shortForm }
      return "no feature at '\(path)'.\(suggestion(for: path, among: short))"
        + " Live paths: \(live.joined(separator: ", "))."
    case .actionText(let path, let reason), .failed(let path, let reason):
      return "\(path): \(reason)"
    case .requestRefused(let path, let request, let reason):
      return "\(path): navigation \(request) refused: \(reason)"
    case .navigationRefused(let reason):
      return reason
    case .noRoute(let path, let routes):
      return "no route '\(path)'.\(suggestion(for: path, among: routes))"
        + " Routes: \(routes.joined(separator: ", "))."
    case .noLoadedFeature(let node):
      return "'\(node)' has no loaded feature; run `patchbay check` on the config."
    case .notACollection(let path, let collections):
      let key = String(path.split(separator: "/").last ?? "")
      return "'\(path)' is not a collection.\(suggestion(for: key, among: collections))"
        + (collections.isEmpty
          ? " This app has none." : " Collections: \(collections.joined(separator: ", ")).")
    case .collectionParentNotLive(let path, let parent):
      return "'\(path)': its parent '\(parent)' is not live; navigate to it first."
    case .ambiguousCollection(let path, let parent, let parents):
      let key = String(path.split(separator: "/").last ?? "")
      return "'\(path)' is ambiguous: '\(parent)' is live at \(parents.joined(separator: ", "));"
        + " write the full path (\(parents.first ?? parent)/\(key))."
    case .invalidID(let problem):
      return problem
    case .duplicateID(let collection, let id):
      return "'\(collection)' already has '\(id)'; remove it first, or pick another id."
    case .noSuchID(let collection, let id, let ids):
      return "'\(collection)' has no '\(id)'.\(suggestion(for: id, among: ids))"
        + " It has: \(ids.isEmpty ? "nothing" : ids.joined(separator: ", "))."
    case .noFeature(let name, let nodes, let ids):
      return "swap: no feature '\(name)'.\(suggestion(for: name, among: nodes + ids)) Name a node "
        + "(\(nodes.joined(separator: ", "))) or a feature id (\(ids.joined(separator: ", ")))."
    case .swapPlugin(let feature, let reason):
      return "swap \(feature): \(reason) The old implementation keeps running."
    case .swapRefused(let feature, let plugin, let reason):
      return "swap \(feature) to \(plugin) refused: \(reason). The old implementation keeps "
        + "running, with its state."
    case .functionCall(let function, let reason):
      return "\(function): \(reason)"
    case .recording(let file, let line, let problem):
      return "\(file)\(line.map { ":\($0)" } ?? ""): \(problem)"
    }
  }
}
