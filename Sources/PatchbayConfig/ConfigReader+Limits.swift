import PatchbayLoader
import PatchbayTOML

extension ConfigReader {
  /// `[limits]`: optional.
  mutating func readLimits(_ table: TOMLDocument.Table?) -> OutputLimits {
    var limits = OutputLimits.standard
    guard let table else { return limits }
    self.checkKeys(table, in: "limits")
    limits.stateBytes =
      self.integer(table, "state-bytes", in: OutputLimits.range) ?? limits.stateBytes
    limits.viewBytes = self.integer(table, "view-bytes", in: OutputLimits.range) ?? limits.viewBytes
    limits.callSeconds = self.integer(table, "call-seconds", in: 1...3_600) ?? limits.callSeconds
    limits.audioPeriods =
      self.integer(table, "audio-periods", in: 1...1_000_000) ?? limits.audioPeriods
    limits.rollbackActions =
      self.integer(table, "rollback-actions", in: 0...1_000_000) ?? limits.rollbackActions
    limits.rollbackSeconds =
      self.integer(table, "rollback-seconds", in: 0...86_400) ?? limits.rollbackSeconds
    limits.isolatedCrashes =
      self.integer(table, "isolated-crashes", in: 1...1_000) ?? limits.isolatedCrashes
    limits.isolatedCrashSeconds =
      self.integer(table, "isolated-crash-seconds", in: 1...86_400) ?? limits.isolatedCrashSeconds
    limits.isolatedMemoryMB =
      self.integer(table, "isolated-memory-mb", in: 0...1_048_576) ?? limits.isolatedMemoryMB
    limits.isolatedCPUSeconds =
      self.integer(table, "isolated-cpu-seconds", in: 0...86_400) ?? limits.isolatedCPUSeconds
    limits.wasmFuel =
      self.integer(table, "wasm-fuel", in: 1_000...1_000_000_000_000) ?? limits.wasmFuel
    limits.wasmMemoryMB =
      self.integer(table, "wasm-memory-mb", in: 1...4_096) ?? limits.wasmMemoryMB
    limits.flightActions =
      self.integer(table, "flight-actions", in: 0...10_000_000) ?? limits.flightActions
    return limits
  }
}
