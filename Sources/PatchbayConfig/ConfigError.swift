import PatchbayFunctions
import PatchbayMIDI

/// A problem in a host config: the file, the line, the key path, and what is expected.
///
/// `host-config/app.toml:14: feature[1].parent: 'hom' is not a feature key. Did you mean 'home'?`
public struct ConfigError: Error, Equatable, CustomStringConvertible {
  /// What is wrong; tests match these, people read the ``description`` made from them.
  public enum Reason: Equatable, Sendable {
    case unreadable(String)
    /// TOML that does not parse (the parser's reason, and the column).
    case syntax(String, column: Int)
    case unknownTable(String)
    case keyOutsideTables
    case singleBracketFeature
    /// A required table is missing: `app` or `plugins`.
    case missingTable(String)
    case unknownKey(String, allowed: [String])
    /// A required key is missing; `expected` is what it holds ("a string").
    case missing(expected: String)
    case wrongType(expected: String, found: String)
    case notAKind(String)
    case duplicateKey(String)
    case idsOutsideCollection
    /// An instance id that breaks a rule (the rule).
    case invalidID(String)
    case duplicateID(String)
    case noFeatures
    case routeNotAbsolute
    /// A parent, root or route target that names no feature.
    case notAFeatureKey(String, keys: [String])
    case parentCycle([String])
    case rootHasParent
    case noParent(root: String)
    case observesNonChild(child: String, parent: String)
    case routeToCollection(String)
    case kindUnderCollection(collection: String, kind: String)
    case unknownInitialRoute(String)
    /// A plugin in `load` that cannot be loaded (the loader's one line).
    case plugin(String)
    case badPin(String)
    case pinsUnloadedPlugin(String)
    case isolatesUnloadedPlugin(String)
    case sandboxesUnloadedPlugin(String)
    case unknownSandboxAllowance(String, known: [String])
    case undeclaredFeature(id: String, known: [String])
    /// A feature given both `id` and `lv2`.
    case idBesideLV2
    /// `lv2-realtime` or `optional` on a feature that is not an LV2 plugin.
    case lv2KeyAlone(String)
    /// A number outside what the setting allows: the value, the least and the most.
    case outOfRange(Int, Int, Int)
    case badMIDIInput(String)
    case badAudioBackend(String)
    case badKey(String)
    case reservedKey(String, String)
    case badKeyTarget(String)
    case badNodeKey(String)
    case duplicateBinding(String)
    /// A binding's action that its feature does not parse, with the feature's reason.
    case badBindingAction(String, feature: String, reason: String)
    /// A binding's path that names no feature of the app.
    case badBindingPath(String, BindingPathProblem)
    case pinnedUnknown(String, keys: [String])
  }

  public let file: String
  public let line: Int?
  public let keyPath: String
  public let reason: Reason

  public init(file: String, line: Int?, keyPath: String, _ reason: Reason) {
    self.file = file
    self.line = line
    self.keyPath = keyPath
    self.reason = reason
  }

  public var description: String {
    let location = self.line.map { "\(self.file):\($0)" } ?? self.file
    return self.keyPath.isEmpty
      ? "\(location): \(self.explanation)" : "\(location): \(self.keyPath): \(self.explanation)"
  }

  /// The reason in words, with what to do.
  public var explanation: String {
    let tables = ConfigSchema.tables.map(\.name)
    switch self.reason {
    case .badKey(let name):
      return "'\(name)' is not a key: write one character (a, +, 1) or space."
    case .reservedKey(let name, let use):
      return "'\(name)' \(use) on the terminal; bind another key."
    case .badKeyTarget(let text):
      return "'\(text)' is not PATH ACTION: write where the action goes, then the action "
        + "(\"studio/metronome toggle\")."
    case .badNodeKey(let text):
      return "'\(text)' is not KEY ACTION: write the key, a space, then the action (\"n skip\")."
    case .duplicateBinding(let name): return "key '\(name)' is bound twice on this screen."
    case .badBindingAction(let action, let feature, let reason):
      return "'\(action)' is not an action of \(feature): \(reason)"
    case .badBindingPath(let path, let problem):
      let why: String
      switch problem {
      case .notAFeatureKey(let key, let keys):
        why = "'\(key)' is not a feature key.\(suggestion(for: key, among: keys))"
      case .notAChild(let key, let parent):
        why = "'\(key)' is not a child of '\(parent)'."
      case .notTheRoot(let key, let root):
        why = "it starts at '\(key)', not at the root '\(root)'."
      }
      return "'\(path)' is not a path of this app: \(why) Write the features from the root, "
        + "each a child of the one before (\"studio/metronome\")."

    case .pinnedUnknown(let key, let keys):
      return "no feature '\(key)' to pin; features: \(keys.joined(separator: ", "))."
    case .unreadable(let why): return "cannot read the file: \(why)"
    case .syntax(let why, let column): return "\(why) (column \(column))"
    case .unknownTable(let name):
      let headers = ConfigSchema.tables.map(\.header)
      return "unknown table.\(suggestion(for: name, among: tables))"
        + " Expected \(headers.dropLast().joined(separator: ", ")) or \(headers.last ?? "")."
    case .keyOutsideTables:
      return "keys belong in a table ([app], [plugins], [[feature]], [routes])."
    case .singleBracketFeature:
      return "write [[feature]] (double brackets): there is one per feature."
    case .missingTable(let name):
      return name == "app"
        ? "missing: add an [app] table with `root = \"<feature key>\"`."
        : "missing: add a [\(name)] table with `load = [\"Name\", …]`."
    case .unknownKey(let key, let allowed):
      return "unknown key.\(suggestion(for: key, among: allowed))"
        + " Expected: \(allowed.joined(separator: ", "))."
    case .missing(let expected): return "missing: expected \(expected)."
    case .wrongType(let expected, let found): return "expected \(expected), found \(found)."
    case .notAKind(let text):
      return "'\(text)' is not a kind; expected one of "
        + "\(AppConfig.Kind.allCases.map(\.rawValue).joined(separator: ", "))."
    case .duplicateKey(let key): return "'\(key)' is used by another feature; keys must be unique."
    case .idsOutsideCollection:
      return "only a collection has ids; add `kind = \"collection\"` or remove `ids`."
    case .invalidID(let problem): return problem
    case .duplicateID(let id): return "'\(id)' is listed twice; ids in a collection are unique."
    case .idBesideLV2:
      return "give id (a loaded plugin's feature) or lv2 (an installed LV2 plugin's URI), not both."
    case .lv2KeyAlone(let key):
      return "\(key) applies to an LV2 feature only: add lv2 = \"URI\", or remove it."
    case .noFeatures: return "no features: add at least the root feature."
    case .routeNotAbsolute: return "a route path starts with '/'."
    case .notAFeatureKey(let key, let keys):
      return "'\(key)' is not a feature key.\(suggestion(for: key, among: keys))"
    case .parentCycle(let chain):
      return "the tree has a cycle: \(chain.joined(separator: " → ")). Every chain of parents "
        + "must end at the root."
    case .rootHasParent: return "the root feature has no parent."
    case .noParent(let root):
      return "has no parent: give it `parent = \"…\"` (only the root, '\(root)', has none)."
    case .observesNonChild(let child, let parent):
      return "'\(child)' is not a child of '\(parent)'."
    case .routeToCollection(let node):
      return "'\(node)' is a collection, whose instances live with its parent; route to the "
        + "parent instead."
    case .kindUnderCollection(let collection, let kind):
      return "'\(collection)' is a collection; what lives under its instances is a `child`, "
        + "not a \(kind)."
    case .unknownInitialRoute(let route): return "'\(route)' is not a route in [routes]."
    case .plugin(let line): return line
    case .badPin(let text):
      return "'\(text)' is not a SHA-256: write its 64 hex digits (patchbay inspect prints them)."
    case .pinsUnloadedPlugin(let reference):
      return "pins '\(reference)', which [plugins].load does not name; write the key as load does."
    case .sandboxesUnloadedPlugin(let reference):
      return "names '\(reference)', which [plugins].load does not name; write the key as load "
        + "does."
    case .unknownSandboxAllowance(let allowance, let known):
      let quoted = known.map { "\"\($0)\"" }
      return "'\(allowance)' is not something a sandbox allows this plugin: use "
        + quoted.dropLast().joined(separator: ", ") + " or \(quoted.last ?? "")."
    case .isolatesUnloadedPlugin(let reference):
      return "isolates '\(reference)', which [plugins].load does not name; write it as load "
        + "does, or \"all\"."
    case .outOfRange(let value, let least, let most):
      return "\(value) is out of range: use \(least) to \(most)."
    case .badMIDIInput(let input):
      return "'\(input)' is not a MIDI input: use \(MIDIInputSpec.forms)."
    case .badAudioBackend(let backend):
      return "'\(backend)' is not an audio backend: use alsa or jack."
    case .undeclaredFeature(let id, let known):
      return "no loaded plugin declares '\(id)'.\(suggestion(for: id, among: known)) "
        + "Known: \(known.joined(separator: ", "))."
    }
  }
}

/// All the problems of one config, reported together.
public struct ConfigErrors: Error, CustomStringConvertible {
  public let errors: [ConfigError]
  public var description: String { self.errors.map(\.description).joined(separator: "\n") }
}

/// What is wrong with a key binding's path (``ConfigError/Reason/badBindingPath(_:_:)``).
public enum BindingPathProblem: Equatable, Sendable {
  case notAFeatureKey(String, keys: [String])
  case notAChild(String, of: String)
  case notTheRoot(String, root: String)
}
