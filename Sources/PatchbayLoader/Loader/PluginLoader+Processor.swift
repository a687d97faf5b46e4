import PatchbayABI

extension PluginLoader {
  /// Checks a feature's processor descriptor (patchbay/process.h); nil when the feature has
  /// none. A processor the host could not run safely is refused at load, never on the audio
  /// thread.
  static func validateProcessor(
    _ pointer: UnsafePointer<pb_processor_desc>?, feature id: String, file: String
  ) throws(PluginLoadError) -> pb_processor_desc? {
    guard let pointer else { return nil }
    func refuse(_ problem: String) -> PluginLoadError {
      PluginLoadError(file: file, "feature '\(id)': the processor \(problem)")
    }
    let size = Int(pointer.pointee.struct_size)
    guard size >= Self.processorSize20 else {
      throw refuse(
        "descriptor's struct_size is \(size), smaller than the \(Self.processorSize20) bytes "
          + "ABI \(PATCHBAY_ABI_MAJOR).0 requires. Set it to sizeof(pb_processor_desc).")
    }
    // No field past struct_size is read: a 2.2 descriptor sends no MIDI.
    var processor = pb_processor_desc()
    withUnsafeMutableBytes(of: &processor) { copy in
      copy.copyMemory(
        from: UnsafeRawBufferPointer(start: pointer, count: min(size, copy.count)))
    }
    let required: [(String, Bool)] = [
      ("create", processor.create != nil), ("process", processor.process != nil),
      ("destroy", processor.destroy != nil),
      ("event_action", processor.event_action != nil || processor.max_output_events == 0),
    ]
    if let missing = required.first(where: { !$0.1 }) {
      throw refuse(
        "function '\(missing.0)' is NULL, but the feature claims a processor. Implement it, or "
          + "set pb_feature_desc.processor to NULL.")
    }
    guard processor.parameter_size <= PB_MAX_PARAMETER_SIZE else {
      throw refuse(
        "declares a \(processor.parameter_size)-byte parameter block; the most is "
          + "\(PB_MAX_PARAMETER_SIZE). Keep parameters to plain numbers.")
    }
    guard (processor.parameter_size > 0) == (processor.write_parameters != nil) else {
      throw refuse(
        processor.parameter_size > 0
          ? "declares \(processor.parameter_size) parameter bytes but no write_parameters. "
            + "Implement it, or set parameter_size to 0."
          : "has write_parameters but a parameter_size of 0. Set the size of the block.")
    }
    guard processor.max_output_events <= PB_MAX_PROCESSOR_EVENTS else {
      throw refuse(
        "declares \(processor.max_output_events) output events a period; the most is "
          + "\(PB_MAX_PROCESSOR_EVENTS). Send fewer, larger events (a level, not every sample).")
    }
    guard processor.max_midi_output <= PB_MAX_PROCESSOR_EVENTS else {
      throw refuse(
        "declares \(processor.max_midi_output) MIDI events a period; the most is "
          + "\(PB_MAX_PROCESSOR_EVENTS).")
    }
    return processor
  }

  /// The size of an ABI 2.0 processor descriptor: everything before `max_midi_output` (2.3).
  static let processorSize20 = MemoryLayout<pb_processor_desc>.offset(
    of: \pb_processor_desc.max_midi_output)!
}
