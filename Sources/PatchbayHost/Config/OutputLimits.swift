import PatchbayTOML

/// How much a plugin may write in one call: its state's snapshot and its view. `[limits]` in
/// an app's config.
///
/// ```toml
/// [limits]
/// state-bytes = 16777216   # 16 MiB: a larger snapshot fails (the swap, `state`, the diff)
/// view-bytes = 1048576     # 1 MiB: a larger view fails to render
/// ```
///
/// A plugin that writes past a limit gets a full writer (a short write, `core.h`), and the
/// call fails with a line naming the feature, the limit and this table; the instance keeps
/// running with its state. The limits keep one runaway plugin from taking the host's memory
/// and the terminal with it.
public struct OutputLimits: Sendable, Equatable {
  public var stateBytes: Int
  public var viewBytes: Int

  public init(stateBytes: Int = 16 << 20, viewBytes: Int = 1 << 20) {
    self.stateBytes = stateBytes
    self.viewBytes = viewBytes
  }

  /// 16 MiB of state, 1 MiB of view.
  public static let standard = OutputLimits()

  static let range = 1_024...(1 << 31)

  /// Why a call failed that wrote more than `limit` bytes of `what` ("state", "view").
  static func exceeded(_ what: String, _ limit: Int) -> String {
    "the \(what) is larger than the \(describe(limit)) limit; raise [limits] "
      + "\(what)-bytes in the app's config, or keep less in it"
  }

  /// "16 MiB", "1 KiB", "1500 bytes": a limit as people read it.
  static func describe(_ bytes: Int) -> String {
    if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
    if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
    return "\(bytes) bytes"
  }
}

extension ConfigReader {
  /// `[limits]`: optional.
  mutating func readLimits(_ table: TOMLDocument.Table?) -> OutputLimits {
    var limits = OutputLimits.standard
    guard let table else { return limits }
    self.checkKeys(table, allowed: ["state-bytes", "view-bytes"])
    limits.stateBytes =
      self.integer(table, "state-bytes", in: OutputLimits.range) ?? limits.stateBytes
    limits.viewBytes = self.integer(table, "view-bytes", in: OutputLimits.range) ?? limits.viewBytes
    return limits
  }
}
