import PatchbayABI

/// The C functions behind every Swift processor (patchbay/process.h).
enum ProcessorVTable {
  static let writeParameters:
    @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void = {
      instance, block in
      guard let block, let instance = FeatureVTable.instance(instance),
        let audio = instance.table.audio
      else { return }
      audio.writeParameters(instance, block)
    }

  static let create:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<pb_processor_config>?) ->
      UnsafeMutableRawPointer? = { instance, config in
        guard let config, let audio = FeatureVTable.instance(instance)?.table.audio else {
          return nil
        }
        let box = audio.createProcessor(
          ProcessorConfiguration(
            sampleRate: Int(config.pointee.sample_rate),
            channelCount: Int(config.pointee.channel_count),
            maxFrameCount: Int(config.pointee.max_frame_count)))
        return Unmanaged.passRetained(box).toOpaque()
      }

  static let process:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<pb_process>?) -> Void = {
      processor, process in
      guard let processor, let process else { return }
      Unmanaged<AnyProcessorBox>.fromOpaque(processor).takeUnretainedValue().process(process)
    }

  static let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { processor in
    guard let processor else { return }
    Unmanaged<AnyProcessorBox>.fromOpaque(processor).release()
  }

  static let eventAction:
    @convention(c) (
      UnsafeMutableRawPointer?, UnsafePointer<pb_processor_event>?, UnsafePointer<pb_writer>?
    ) -> pb_status = { instance, event, out in
      guard let event, let audio = FeatureVTable.instance(instance)?.table.audio else {
        return PB_ERR_INVALID
      }
      let value = event.pointee
      guard
        let bytes = audio.eventAction(
          ProcessorEvent(
            frame: Int(value.frame), kind: value.kind, value: value.value, time: value.time))
      else { return PB_ERR_UNSUPPORTED }
      return write(bytes, to: out) ? PB_OK : PB_ERR_FAILED
    }

  static func make(_ driver: ProcessorDriver) -> pb_processor_desc {
    pb_processor_desc(
      struct_size: UInt32(MemoryLayout<pb_processor_desc>.size),
      parameter_size: UInt32(driver.parameterSize),
      max_output_events: UInt32(driver.maxOutputEvents),
      write_parameters: driver.parameterSize > 0 ? Self.writeParameters : nil,
      create: Self.create,
      process: Self.process,
      destroy: Self.destroy,
      event_action: Self.eventAction,
      max_midi_output: UInt32(driver.maxMIDIOutput))
  }
}
