import Foundation
import PatchbayHost
import PatchbayScript

/// A failure `patchbay validate` found, as a run `patchbay repro` takes: an app of the one
/// feature (`app.toml`, the plugin by its path) and a recording of the actions validate sent
/// to it (`validate.jsonl`), so that the failure is confirmed, shrunk and written as a test
/// the same way as a crash in a real run.
///
/// ```swift
/// let run = try OneFeatureRun.write(
///   plugin: "/work/.build/debug/libLock.so", feature: "dev.patchbay.fixture.lock",
///   actions: ["dial(3)", "dial(1)", "dial(4)", "dial(1)"], into: "repro")
/// run.config   // "/…/repro/app.toml": [[feature]] key = "lock"
/// run.steps    // send lock dial(3), …
/// ```
package enum OneFeatureRun {
  package static func write(
    plugin: String, feature: String, actions: [String], into folder: String
  ) throws(AppError) -> Recording {
    let folder = URL(fileURLWithPath: folder).standardizedFileURL
    let config = folder.appendingPathComponent("app.toml").path
    let key = Self.key(feature)
    let text = """
      # The app `patchbay validate` found \(feature)'s failure in: its plugin alone.
      [app]
      name = \(ReproFiles.literal(ReproFiles.typeName(feature)))
      root = "\(key)"

      [plugins]
      load = [\(ReproFiles.literal(URL(fileURLWithPath: plugin).standardizedFileURL.path))]

      [[feature]]
      key = "\(key)"
      id = \(ReproFiles.literal(feature))

      """
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try text.write(toFile: config, atomically: true, encoding: .utf8)
    } catch {
      throw AppError(
        .recording(
          file: config, line: nil,
          problem: "cannot write it (\(error.localizedDescription)); name another folder with --out"
        ))
    }
    let steps = actions.enumerated().map { index, text in
      (line: index + 2, step: RecordingLine.Step.action(path: key, text: text, source: .command))
    }
    let file = folder.appendingPathComponent("validate.jsonl").path
    let recording = Recording(config: config, steps: steps, file: file)
    try recording.write(to: file)
    return recording
  }

  /// `lock` for `dev.patchbay.fixture.lock`: the id's last part, its letters and digits.
  static func key(_ feature: String) -> String {
    let last = feature.split(separator: ".").last.map(String.init) ?? ""
    let key = last.lowercased().filter { $0.isLetter || $0.isNumber }
    return key.first?.isLetter == true ? key : "feature"
  }
}
