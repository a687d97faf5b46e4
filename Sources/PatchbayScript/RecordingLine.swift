import Foundation
import Patchbay
import PatchbayHost

/// One line of a recording (`patchbay run --record FILE`): one JSON object per line.
///
/// ```json
/// {"config":"/path/host-config/app.toml","format":"patchbay-record/1"}
/// {"action":"setStep(by: 5)","path":"counter","seq":1,"source":"command"}
/// {"action":"delayedIncrement","path":"counter","seq":2,"source":"effect"}
/// {"navigation":"push","node":"echo","seq":3,"source":"navigation"}
/// {"add":"c","path":"home/tallies","seq":4,"source":"collection","state":"{count: 2, step: 1}"}
/// {"feature":"dev.patchbay.counter","plugin":"/path/libCounterAlt.so","seq":5,"source":"swap"}
/// {"end":true,"stateHash":"9f2c…"}
/// ```
///
/// The format is fixed: a recording made today replays tomorrow (a kept recording,
/// `Tests/PatchbayCLITests/Fixtures/counter-echo-2026-11.jsonl`, guards it). Reading a line
/// checks it whole; a line that is not one of these says which field is missing or wrong.
public enum RecordingLine: Equatable, Sendable {
  /// The first line: the format and the config the run used (relative to the recording's
  /// folder when not absolute).
  case header(config: String)
  /// Something that changed the app, numbered from 1.
  case step(seq: Int, Step)
  /// The last line of a finished recording: the hash of the final state.
  case end(stateHash: String)
  /// The last line of a run a plugin stopped (a crash, or a call that did not return): the
  /// report the host printed. Written by the crash handler or the watchdog, not by the
  /// recorder: `{"report": "patchbay: a plugin call did not return within 5 s: …"}`.
  case report(String)

  public static let format = "patchbay-record/1"

  /// What a recorded step did.
  public enum Step: Equatable, Sendable {
    /// An action reduced by the instance at `path`, and who sent it: a command, an effect,
    /// MIDI input, or the instance's processor.
    case action(path: String, text: String, source: ActionSource)
    /// A navigation step; `state` is the text of the state a new instance started from.
    case navigation(NavigationAction, state: String?)
    /// An instance added to (from `state`, when given) or removed from a collection.
    case collection(path: String, id: String, added: Bool, state: String?)
    /// A feature's implementation swapped for the one in `plugin`.
    case swap(feature: String, plugin: String)
    /// The instance at `path` started from a state kept by an earlier run (`persist = true`).
    case kept(path: String, state: String)
  }
}

extension RecordingLine {
  /// The line as a file holds it: JSON with sorted keys, then a newline.
  var fileLine: Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return ((try? encoder.encode(self)) ?? Data()) + Data("\n".utf8)
  }
}

/// A line that is JSON but not a recording line: what is wrong with it.
struct RecordingLineProblem: Error, CustomStringConvertible {
  let description: String
  /// Whether the line is a header (it names a format), so a first line with this problem is
  /// a recording this patchbay cannot read, not something else.
  var isHeader = false
}

extension RecordingLine: Codable {
  private enum Key: String, CodingKey {
    case format, config, seq, source, path, action, navigation, node, nodes, state, add, remove
    case feature, plugin, end, stateHash, report
  }

  public init(from decoder: any Decoder) throws {
    let line = try decoder.container(keyedBy: Key.self)
    func required<T: Decodable>(_ key: Key, _ what: String) throws -> T {
      guard let value = try line.decodeIfPresent(T.self, forKey: key) else {
        throw RecordingLineProblem(description: "\(what) needs '\(key.rawValue)'.")
      }
      return value
    }
    if let format = try line.decodeIfPresent(String.self, forKey: .format) {
      guard format == Self.format else {
        throw RecordingLineProblem(
          description:
            "format '\(format)' is not '\(Self.format)'; this patchbay cannot replay it.",
          isHeader: true)
      }
      guard let config = try line.decodeIfPresent(String.self, forKey: .config) else {
        throw RecordingLineProblem(description: "the header line needs 'config'.", isHeader: true)
      }
      self = .header(config: config)
    } else if line.contains(.report) {
      guard let report = try? line.decode(String.self, forKey: .report) else {
        throw RecordingLineProblem(description: "a report line's 'report' is the report's text.")
      }
      self = .report(report)
    } else if try line.decodeIfPresent(Bool.self, forKey: .end) == true {
      self = .end(stateHash: try required(.stateHash, "the end line"))
    } else {
      let seq: Int = try required(.seq, "a step line")
      let source: String = try required(.source, "a step line")
      let state = try line.decodeIfPresent(String.self, forKey: .state)
      switch source {
      case "command", "effect", "midi", "processor", "shared":
        let path: String = try required(.path, "an action line")
        let text: String = try required(.action, "an action line")
        let from = ActionSource(rawValue: source) ?? .command
        self = .step(seq: seq, .action(path: path, text: text, source: from))
      case "navigation":
        let name: String = try required(.navigation, "a navigation line")
        let action: NavigationAction
        switch name {
        case "push": action = .push(node: try required(.node, "a push line"))
        case "present": action = .present(node: try required(.node, "a present line"))
        case "pop": action = .pop
        case "popToRoot": action = .popToRoot
        case "dismiss": action = .dismiss
        case "deepLink": action = .deepLink(nodes: try required(.nodes, "a deepLink line"))
        default:
          throw RecordingLineProblem(
            description: "unknown navigation '\(name)' (push, present, pop, popToRoot, "
              + "dismiss or deepLink).")
        }
        self = .step(seq: seq, .navigation(action, state: state))
      case "collection":
        let path: String = try required(.path, "a collection line")
        let add = try line.decodeIfPresent(String.self, forKey: .add)
        let remove = try line.decodeIfPresent(String.self, forKey: .remove)
        guard let id = add ?? remove, (add == nil) != (remove == nil) else {
          throw RecordingLineProblem(
            description: "a collection line needs one of 'add' or 'remove'.")
        }
        self = .step(seq: seq, .collection(path: path, id: id, added: add != nil, state: state))
      case "swap":
        self = .step(
          seq: seq,
          .swap(
            feature: try required(.feature, "a swap line"),
            plugin: try required(.plugin, "a swap line")))
      case "kept":
        self = .step(
          seq: seq,
          .kept(
            path: try required(.path, "a kept line"), state: try required(.state, "a kept line")))
      default:
        throw RecordingLineProblem(
          description: "unknown source '\(source)' (command, effect, midi, processor, shared, "
            + "navigation, collection, swap or kept).")
      }
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var line = encoder.container(keyedBy: Key.self)
    switch self {
    case .header(let config):
      try line.encode(Self.format, forKey: .format)
      try line.encode(config, forKey: .config)
    case .end(let stateHash):
      try line.encode(true, forKey: .end)
      try line.encode(stateHash, forKey: .stateHash)
    case .report(let report):
      try line.encode(report, forKey: .report)
    case .step(let seq, let step):
      try line.encode(seq, forKey: .seq)
      switch step {
      case .action(let path, let text, let source):
        try line.encode(source.rawValue, forKey: .source)
        try line.encode(path, forKey: .path)
        try line.encode(text, forKey: .action)
      case .navigation(let action, let state):
        try line.encode("navigation", forKey: .source)
        try line.encodeIfPresent(state, forKey: .state)
        switch action {
        case .push(let node):
          try line.encode("push", forKey: .navigation)
          try line.encode(node, forKey: .node)
        case .present(let node):
          try line.encode("present", forKey: .navigation)
          try line.encode(node, forKey: .node)
        case .pop: try line.encode("pop", forKey: .navigation)
        case .popToRoot: try line.encode("popToRoot", forKey: .navigation)
        case .dismiss: try line.encode("dismiss", forKey: .navigation)
        case .deepLink(let nodes):
          try line.encode("deepLink", forKey: .navigation)
          try line.encode(nodes, forKey: .nodes)
        }
      case .collection(let path, let id, let added, let state):
        try line.encode("collection", forKey: .source)
        try line.encode(path, forKey: .path)
        try line.encode(id, forKey: added ? .add : .remove)
        try line.encodeIfPresent(state, forKey: .state)
      case .swap(let feature, let plugin):
        try line.encode("swap", forKey: .source)
        try line.encode(feature, forKey: .feature)
        try line.encode(plugin, forKey: .plugin)
      case .kept(let path, let state):
        try line.encode("kept", forKey: .source)
        try line.encode(path, forKey: .path)
        try line.encode(state, forKey: .state)
      }
    }
  }
}

extension RecordingLine.Step {
  /// The script line that takes this step (`patchbay run --script`): what DevTools copies
  /// when asked for a script that reproduces a selection of a run.
  ///
  /// ```swift
  /// RecordingLine.Step.action(path: "counter", text: "increment", source: .command).scriptLine
  /// // "send counter increment"
  /// ```
  public var scriptLine: String {
    switch self {
    case .action(let path, let text, let source):
      // What effects, MIDI and processors sent, they send again when the script runs.
      (source == .command ? "" : "# \(source.rawValue): ") + "send \(path) \(text)"
    case .navigation(let action, let state):
      switch action {
      case .push(let node): "push \(node)" + (state.map { " \($0)" } ?? "")
      case .present(let node): "present \(node)" + (state.map { " \($0)" } ?? "")
      case .pop: "pop"
      case .popToRoot: "route /"
      case .dismiss: "dismiss"
      case .deepLink(let nodes): "route /" + nodes.joined(separator: "/")
      }
    case .collection(let path, let id, let added, let state):
      added ? "add \(path) \(id)" + (state.map { " \($0)" } ?? "") : "remove \(path) \(id)"
    case .swap(let feature, let plugin):
      "swap \(feature) \(plugin)"
    case .kept(let path, let state):
      "# \(path) started from its kept state \(state)"
    }
  }
}
