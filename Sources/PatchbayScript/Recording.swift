import Foundation
import Patchbay
import PatchbayEncoding
import PatchbayFlight
import PatchbayHost

/// A recording read back and checked whole, ready to replay.
///
/// ```swift
/// let recording = try Recording(file: "run.jsonl")
/// let app = try AppRuntime(config: …, registry: …, replaying: true)
/// try await recording.replay(into: app)
/// try app.stateHash() == recording.stateHash  // the run, reproduced
/// ```
public struct Recording: Sendable {
  /// The config the run used, as an absolute path.
  public let config: String
  /// The recorded steps, in order, with their line numbers in the file.
  public let steps: [(line: Int, step: RecordingLine.Step)]
  /// The final state hash the recording ended with, if it was finished.
  public let stateHash: String?
  /// What stopped the run, when a plugin did (its crash or hang report); nil otherwise.
  public let stoppedBy: String?
  public let file: String

  /// A recording held in memory (DevTools' of the live run): `file` names it in errors.
  public init(
    config: String, steps: [(line: Int, step: RecordingLine.Step)], file: String,
    stateHash: String? = nil, stoppedBy: String? = nil
  ) {
    self.config = config
    self.steps = steps
    self.stateHash = stateHash
    self.stoppedBy = stoppedBy
    self.file = file
  }

  /// Reads a recording; a line that is not a recording line fails it, naming the line. A
  /// flight file (the flight recorder's, `PBFLIGHT`) reads as its history (``init(flight:)``).
  public init(file: String) throws(AppError) {
    func problem(_ line: Int?, _ text: String) -> AppError {
      AppError(.recording(file: file, line: line, problem: text))
    }
    if FlightLog.isFlightFile(file) {
      let log: FlightLog
      do { log = try FlightLog(file: file) } catch { throw problem(nil, error.problem) }
      self = try Recording(flight: log)
      return
    }
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
      throw problem(nil, "cannot read the recording.")
    }
    var config: String?
    var steps: [(Int, RecordingLine.Step)] = []
    var stateHash: String?
    var stoppedBy: String?
    for (index, raw) in text.split(separator: "\n").enumerated() {
      let number = index + 1
      let line: RecordingLine
      do {
        line = try JSONDecoder().decode(RecordingLine.self, from: Data(raw.utf8))
      } catch let error as RecordingLineProblem where index > 0 || error.isHeader {
        throw problem(number, error.description)
      } catch  where index == 0 {
        throw problem(1, "not a patchbay recording (the first line names its format and config).")
      } catch {
        throw problem(number, "not a recording line (expected one JSON object per line).")
      }
      switch (index, line) {
      case (0, .header(let path)): config = path
      case (0, _):
        throw problem(1, "not a patchbay recording (the first line names its format and config).")
      case (_, .header): throw problem(number, "a second header line; recordings have one.")
      case (_, .step(_, let step)) where stateHash == nil && stoppedBy == nil:
        steps.append((number, step))
      case (_, .end(let hash)) where stateHash == nil && stoppedBy == nil: stateHash = hash
      case (_, .report(let report)) where stateHash == nil && stoppedBy == nil:
        stoppedBy = report
      case (_, _): throw problem(number, "a line after the end line.")
      }
    }
    guard let config else { throw problem(nil, "the recording is empty.") }
    // A relative config path is the recording's neighbour (a recording kept with a project).
    self.config =
      config.hasPrefix("/")
      ? config
      : URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(config)
        .standardizedFileURL.path
    self.steps = steps
    self.stateHash = stateHash
    self.stoppedBy = stoppedBy
    self.file = file
  }

  /// Writes it as a recording file (`patchbay-record/1`), its steps numbered from 1, ending
  /// with what stopped it or its state hash: what `patchbay replay` reads.
  public func write(to file: String) throws(AppError) {
    var lines = [RecordingLine.header(config: self.config)]
    lines += self.steps.enumerated().map { .step(seq: $0.offset + 1, $0.element.step) }
    if let stoppedBy = self.stoppedBy {
      lines.append(.report(stoppedBy))
    } else if let stateHash = self.stateHash {
      lines.append(.end(stateHash: stateHash))
    }
    guard
      FileManager.default.createFile(atPath: file, contents: Data(lines.map(\.fileLine).joined()))
    else {
      throw AppError(
        .recording(
          file: file, line: nil,
          problem: "cannot write the recording; check the folder exists and is writable."))
    }
  }

  /// Applies every recorded step, in order, to an app created with `replaying: true`, letting
  /// the app settle after each.
  public func replay(into app: AppRuntime) async throws(AppError) {
    for (line, step) in self.steps {
      try await self.apply(step, to: app, at: line)
    }
  }

  /// Applies one recorded step (the one at `line` of the file) and lets the app settle: what
  /// DevTools' time travel does, step by step.
  public func apply(_ step: RecordingLine.Step, to app: AppRuntime, at line: Int)
    async
    throws(AppError)
  {
    do {
      try self.applyNow(step, to: app, at: line)
    } catch let error where error.reason.isRecording {
      throw error
    } catch {
      throw AppError(.recording(file: self.file, line: line, problem: error.description))
    }
    _ = await app.settle()
  }

  private func applyNow(_ step: RecordingLine.Step, to app: AppRuntime, at line: Int)
    throws(AppError)
  {
    switch step {
    case .action(let path, let text, let source):
      let handle = try app.instance(path)
      do {
        handle.send(try handle.parseAction(text), as: source)
      } catch {
        throw AppError(.actionText(path: path, reason: error.reason))
      }
    case .navigation(let action, let state):
      try app.navigate(action, state: try self.state(state, at: line))
    case .collection(let path, let id, let added, let state):
      if added {
        try app.add(to: path, id: id, state: try self.state(state, at: line))
      } else {
        try app.remove(from: path, id: id)
      }
    case .swap(let feature, let plugin):
      try app.swap(feature, to: plugin)
    case .kept(let path, let state):
      try app.restore(path, state: try self.state(state, at: line) ?? [])
    }
  }

  /// The snapshot bytes of a recorded state's text.
  private func state(_ text: String?, at line: Int) throws(AppError) -> [UInt8]? {
    guard let text else { return nil }
    guard let value = WireValue(stateText: text) else {
      throw AppError(
        .recording(file: self.file, line: line, problem: "'\(text)' is not a state value."))
    }
    return value.bytes
  }
}

extension AppError.Reason {
  var isRecording: Bool {
    if case .recording = self { true } else { false }
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
