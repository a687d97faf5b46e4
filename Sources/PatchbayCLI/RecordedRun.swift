import ArgumentParser
import PatchbayHost
import PatchbayScript

/// `--record FILE` for `run` and `render`: the recorder, started with the app's kept states,
/// and its end — the final state hash, written and printed, which `patchbay replay` reproduces.
///
/// ```swift
/// let recorder = try RecordedRun.start(self.record, config: self.config, app: app)
/// // … the run …
/// try await RecordedRun.finish(recorder, file: self.record, app: app)   // "state hash: …"
/// ```
enum RecordedRun {
  static func start(_ file: String?, config: String, app: AppRuntime) throws -> RunRecorder? {
    guard let file else { return nil }
    do {
      let recorder = try RunRecorder(file: file, config: config)
      recorder.recordKeptStates(of: app)
      recorder.recordActions(before: app)
      return recorder
    } catch {
      throw CommandFailure("\(error)")
    }
  }

  /// Waits for the app to settle, then ends the recording with its state hash.
  static func finish(_ recorder: RunRecorder?, file: String?, app: AppRuntime) async throws {
    guard let recorder, let file else { return }
    _ = await app.settle()
    let hash: String
    do {
      hash = try app.stateHash()
    } catch {
      // A recording without its final state proves nothing on replay: say so, and fail.
      Terminal.error(
        "Error: \(file): the recording has no final state: \(error). Fix the plugin's snapshot, "
          + "then record again.")
      throw ExitCode(1)
    }
    recorder.finish(stateHash: hash)
    Terminal.out("state hash: \(hash)")
  }
}
