import PatchbayLoader
import PatchbayTOML

extension ConfigReader {
  /// `[limits]`: optional.
  mutating func readLimits(_ table: TOMLDocument.Table?) -> OutputLimits {
    var limits = OutputLimits.standard
    guard let table else { return limits }
    self.checkKeys(
      table, allowed: ["state-bytes", "view-bytes", "call-seconds", "audio-periods"])
    limits.stateBytes =
      self.integer(table, "state-bytes", in: OutputLimits.range) ?? limits.stateBytes
    limits.viewBytes = self.integer(table, "view-bytes", in: OutputLimits.range) ?? limits.viewBytes
    limits.callSeconds = self.integer(table, "call-seconds", in: 1...3_600) ?? limits.callSeconds
    limits.audioPeriods =
      self.integer(table, "audio-periods", in: 1...1_000_000) ?? limits.audioPeriods
    return limits
  }
}
