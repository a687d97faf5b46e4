import PatchbayEncoding
import PatchbayHost
import PatchbayScript

/// The app as it was after any step of a run: time travel. The run's steps are replayed, in
/// order, into an app of its own (created replaying, so effects send nothing: their recorded
/// actions are steps too), so each state is the run's exactly, not an approximation kept on
/// the side. Going forward applies only the steps in between; going back starts again from
/// the first. States once shown are kept, up to ``keptBytes``.
///
/// ```swift
/// let rewind = Rewind { try AppRuntime(config: config, registry: registry, replaying: true) }
/// try await rewind.state(after: 3, of: recording)     // {"counter": {"count": 3, …}}
/// ```
actor Rewind {
  private let makeApp: @Sendable () throws(AppError) -> AppRuntime
  private var app: AppRuntime?
  /// How many steps `app` has applied.
  private var applied = 0
  /// States already reconstructed, as JSON, by step count; and their total size.
  private var kept: [Int: String] = [:]
  private var keptSize = 0
  static let keptBytes = 64 << 20

  init(makeApp: @escaping @Sendable () throws(AppError) -> AppRuntime) {
    self.makeApp = makeApp
  }

  /// The whole app's state as JSON after the first `count` steps of `recording` (0: as it
  /// started).
  func state(after count: Int, of recording: Recording) async throws(AppError) -> String {
    let count = min(max(count, 0), recording.steps.count)
    if let json = self.kept[count] { return json }
    if self.app == nil || count < self.applied {
      self.app = nil  // the old one stops before the new one loads
      self.app = try self.makeApp()
      self.applied = 0
    }
    guard let app = self.app else { return "null" }
    while self.applied < count {
      let (line, step) = recording.steps[self.applied]
      try await recording.apply(step, to: app, at: line)
      self.applied += 1
    }
    let json = try app.stateValue().json()
    if self.keptSize + json.utf8.count > Self.keptBytes {
      self.kept.removeAll()
      self.keptSize = 0
    }
    self.kept[count] = json
    self.keptSize += json.utf8.count
    return json
  }
}
