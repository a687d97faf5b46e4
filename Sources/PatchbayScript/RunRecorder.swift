import Foundation
import Patchbay
import PatchbayEncoding
import PatchbayHost
import PatchbayLoader
import Synchronization

/// Writes a run as it happens, one ``RecordingLine`` per change. [thread-safe]
///
/// ```swift
/// let recorder = try RunRecorder(file: "run.jsonl", config: app.config.file)
/// app.onChange(recorder.record)
/// // … the run …
/// recorder.finish(stateHash: try app.stateHash())
/// ```
public final class RunRecorder: Sendable {
  private let handle: FileHandle
  private let sequence = LockedValue(0)
  /// Whether actions are taken down before they are reduced (``recordActions(before:)``).
  private let actionsFirst = Atomic<Bool>(false)

  /// Starts a recording of an app run from `config`.
  public init(file: String, config: String) throws(AppError) {
    guard FileManager.default.createFile(atPath: file, contents: nil),
      let handle = FileHandle(forWritingAtPath: file)
    else {
      throw AppError(
        .recording(
          file: file, line: nil,
          problem: "cannot create the recording file; check the folder exists and is writable."))
    }
    self.handle = handle
    self.write(.header(config: URL(fileURLWithPath: config).standardizedFileURL.path))
    // A plugin's crash or hang ends the run: its report is the recording's last line.
    CrashReports.copyReports(to: handle.fileDescriptor)
  }

  /// Takes `app`'s actions down as each is about to be reduced, not once it was: an action
  /// whose reduce crashes or hangs the app is in the recording, its report after it. An action
  /// the plugin then refuses is in it too (a replay sends it, and it is refused again).
  public func recordActions(before app: AppRuntime) {
    self.actionsFirst.store(true, ordering: .relaxed)
    app.onWillReduce { [self] path, text, source in
      self.sequence.withValue { seq in
        seq += 1
        self.write(.step(seq: seq, .action(path: path, text: text, source: source)))
      }
    }
  }

  /// Records one change; failures changed nothing and are not recorded.
  public func record(_ change: AppChange) {
    if case .action = change, self.actionsFirst.load(ordering: .relaxed) { return }
    guard let step = RecordingLine.Step(change) else { return }
    self.sequence.withValue { seq in
      seq += 1
      self.write(.step(seq: seq, step))
    }
  }

  /// Records the states kept by an earlier run that the app's first instances started from
  /// (``AppRuntime/keptStatesAtStart``): a replay starts them from the same states.
  public func recordKeptStates(of app: AppRuntime) {
    for (path, state) in app.keptStatesAtStart {
      guard let text = Self.text(of: state) else { continue }
      self.sequence.withValue { seq in
        seq += 1
        self.write(.step(seq: seq, .kept(path: path, state: text)))
      }
    }
  }

  /// Ends the recording with the final state's hash.
  public func finish(stateHash: String) {
    CrashReports.copyReports(to: -1)  // the end line is the last
    self.sequence.withValue { _ in self.write(.end(stateHash: stateHash)) }
    try? self.handle.close()
  }

  /// A starting state's text. The instance was created from these bytes, so they decode.
  static func text(of state: [UInt8]?) -> String? {
    state.flatMap { try? WireValue(decoding: $0).actionText }
  }

  private func write(_ line: RecordingLine) {
    self.handle.write(line.fileLine)
  }
}

extension RecordingLine.Step {
  /// The step that records `change`; nil for a failure, which changed nothing.
  public init?(_ change: AppChange) {
    switch change {
    case .action(let path, let text, let source, _):
      guard let from = ActionSource(rawValue: source.rawValue) else { return nil }
      self = .action(path: path, text: text, source: from)
    case .navigation(let action, _, let initial):
      self = .navigation(action, state: RunRecorder.text(of: initial))
    case .collection(let path, let id, let added, let initial):
      self = .collection(path: path, id: id, added: added, state: RunRecorder.text(of: initial))
    case .swap(let report):
      self = .swap(feature: report.featureID, plugin: report.to)
    case .failure:
      return nil
    }
  }
}
