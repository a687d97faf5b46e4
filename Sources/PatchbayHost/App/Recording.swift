import Foundation
import Patchbay
import PatchbayEncoding

/// One line of a recording (`patchbay run --record FILE`): JSON, one per line.
///
/// ```json
/// {"format":"patchbay-record/1","config":"/path/host-config/app.toml"}
/// {"seq":1,"source":"command","path":"counter","action":"setStep(by: 5)"}
/// {"seq":2,"source":"effect","path":"counter","action":"delayedIncrement"}
/// {"seq":3,"source":"navigation","navigation":"push","node":"echo"}
/// {"seq":4,"source":"collection","path":"home/tallies","add":"c","state":"{count: 2, step: 1}"}
/// {"seq":5,"source":"swap","feature":"dev.patchbay.counter","plugin":"/path/libCounterAlt.so"}
/// {"end":true,"stateHash":"9f2c…"}
/// ```
public struct RecordingLine: Codable, Equatable, Sendable {
  public var format: String?
  public var config: String?
  public var seq: Int?
  public var source: String?
  public var path: String?
  public var action: String?
  public var navigation: String?
  public var node: String?
  public var nodes: [String]?
  /// The state a pushed, presented or added instance started from, as text.
  public var state: String?
  /// The id added to or removed from the collection at `path`.
  public var add: String?
  public var remove: String?
  /// A swap: the feature id, and the plugin file that implements it from here on.
  public var feature: String?
  public var plugin: String?
  public var end: Bool?
  public var stateHash: String?

  public init() {}
}

/// Writes a run as it happens. [thread-safe]
public final class RunRecorder: Sendable {
  private let handle: FileHandle
  private let sequence = LockedValue(0)

  /// Starts a recording of an app run from `config`.
  public init(file: String, config: String) throws {
    guard FileManager.default.createFile(atPath: file, contents: nil) else {
      throw AppError("\(file): cannot create the recording file.")
    }
    self.handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
    var header = RecordingLine()
    header.format = "patchbay-record/1"
    header.config = URL(fileURLWithPath: config).standardizedFileURL.path
    self.write(header)
  }

  /// Records one change.
  public func record(_ change: AppChange) {
    self.sequence.withValue { seq in
      var line = RecordingLine()
      switch change {
      case .action(let path, let text, let source, _):
        line.source = source.rawValue
        line.path = path
        line.action = text
      case .navigation(let action, _, let initial):
        line.source = "navigation"
        line.state = initial.flatMap { try? WireValue(decoding: $0).actionText }
        switch action {
        case .push(let node): (line.navigation, line.node) = ("push", node)
        case .present(let node): (line.navigation, line.node) = ("present", node)
        case .pop: line.navigation = "pop"
        case .popToRoot: line.navigation = "popToRoot"
        case .dismiss: line.navigation = "dismiss"
        case .deepLink(let nodes): (line.navigation, line.nodes) = ("deepLink", nodes)
        }
      case .collection(let path, let id, let added, let initial):
        line.source = "collection"
        line.path = path
        if added { line.add = id } else { line.remove = id }
        line.state = initial.flatMap { try? WireValue(decoding: $0).actionText }
      case .swap(let report):
        line.source = "swap"
        line.feature = report.featureID
        line.plugin = report.to
      case .failure:
        return  // refused actions changed nothing
      }
      seq += 1
      line.seq = seq
      self.write(line)
    }
  }

  /// Ends the recording with the final state's hash.
  public func finish(stateHash: String) {
    var line = RecordingLine()
    line.end = true
    line.stateHash = stateHash
    self.sequence.withValue { _ in self.write(line) }
    try? self.handle.close()
  }

  private func write(_ line: RecordingLine) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(line) else { return }
    self.handle.write(data + Data("\n".utf8))
  }
}

/// A recording read back, ready to replay.
public struct Recording: Sendable {
  public let config: String
  public let lines: [RecordingLine]
  /// The final state hash the recording ended with, if it was finished.
  public let stateHash: String?

  /// Reads a recording; errors name the line.
  public init(file: String) throws(AppError) {
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
      throw AppError("\(file): cannot read the recording.")
    }
    var lines: [RecordingLine] = []
    var config: String?
    var stateHash: String?
    for (index, raw) in text.split(separator: "\n").enumerated() {
      guard let line = try? JSONDecoder().decode(RecordingLine.self, from: Data(raw.utf8)) else {
        throw AppError(
          "\(file):\(index + 1): not a recording line (expected one JSON object per line).")
      }
      if index == 0 {
        guard line.format == "patchbay-record/1", let path = line.config else {
          throw AppError(
            "\(file):1: not a patchbay recording (the first line names its format and config).")
        }
        config = path
      } else if line.end == true {
        stateHash = line.stateHash
      } else {
        lines.append(line)
      }
    }
    guard let config else { throw AppError("\(file): the recording is empty.") }
    // A relative config path is the recording's neighbour (a recording kept with a project).
    self.config =
      config.hasPrefix("/")
      ? config
      : URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(config)
        .standardizedFileURL.path
    self.lines = lines
    self.stateHash = stateHash
  }

  /// Applies every recorded action and navigation, in order, to an app created with
  /// `replaying: true`.
  public func replay(into app: AppRuntime) async throws(AppError) {
    for (index, line) in self.lines.enumerated() {
      let at = "line \(index + 2)"
      switch line.source {
      case "command", "effect":
        guard let path = line.path, let action = line.action else {
          throw AppError("\(at): an action line needs 'path' and 'action'.")
        }
        let handle = try app.instance(path)
        do {
          handle.send(
            try handle.parseAction(action), as: line.source == "effect" ? .effect : .command)
        } catch {
          throw AppError("\(at): \(error)")
        }
      case "navigation":
        let action: NavigationAction
        switch (line.navigation, line.node, line.nodes) {
        case ("push", let node?, _): action = .push(node: node)
        case ("present", let node?, _): action = .present(node: node)
        case ("pop", _, _): action = .pop
        case ("popToRoot", _, _): action = .popToRoot
        case ("dismiss", _, _): action = .dismiss
        case ("deepLink", _, let nodes?): action = .deepLink(nodes: nodes)
        default: throw AppError("\(at): unknown navigation '\(line.navigation ?? "")'.")
        }
        try app.navigate(action, state: try Self.state(line.state, at: at))
      case "collection":
        switch (line.path, line.add, line.remove) {
        case (let path?, let id?, nil):
          try app.add(to: path, id: id, state: try Self.state(line.state, at: at))
        case (let path?, nil, let id?): try app.remove(from: path, id: id)
        default:
          throw AppError("\(at): a collection line needs 'path' and one of 'add' or 'remove'.")
        }
      case "swap":
        guard let feature = line.feature, let plugin = line.plugin else {
          throw AppError("\(at): a swap line needs 'feature' and 'plugin'.")
        }
        do {
          try app.swap(feature, to: plugin)
        } catch {
          throw AppError("\(at): \(error)")
        }
      default:
        throw AppError("\(at): unknown source '\(line.source ?? "")'.")
      }
      _ = await app.settle()
    }
  }
}

extension Recording {
  /// The snapshot bytes of a recorded state's text.
  static func state(_ text: String?, at location: String) throws(AppError) -> [UInt8]? {
    guard let text else { return nil }
    guard let value = WireValue(stateText: text) else {
      throw AppError("\(location): '\(text)' is not a state value.")
    }
    return value.bytes
  }
}

extension WireValue {
  /// A state value from its text (`{score: 3, outOf: 3}`), as `push NODE STATE` takes it.
  public init?(stateText text: String) {
    guard case .case(_, let fields)? = try? WireValue(parsingAction: "state(\(text))"),
      fields.count == 1
    else { return nil }
    self = fields[0].value
  }
}

extension AppRuntime {
  /// A hash of the whole app state (FNV-1a 64 over its encoding): equal states, equal hashes.
  public func stateHash() throws(AppError) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in try self.stateValue().bytes {
      hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
  }
}
