import PatchbayABI

/// A live processor behind the ABI's `void *processor`. The vtable reaches it through this
/// non-generic base; ``ProcessorBox`` is specialized for its feature.
@usableFromInline
class AnyProcessorBox {
  @usableFromInline init() {}

  /// [audio-thread]
  @usableFromInline func process(_ process: UnsafePointer<pb_process>) {}
}

@usableFromInline
final class ProcessorBox<Feature: AudioFeature>: AnyProcessorBox {
  @usableFromInline let processor: Feature.Processor

  @inlinable
  init(configuration: ProcessorConfiguration) {
    self.processor = Feature.Processor(configuration: configuration)
  }

  @inlinable
  override func process(_ process: UnsafePointer<pb_process>) {
    guard let block = process.pointee.parameters else { return }
    let parameters = block.load(as: Feature.Processor.Parameters.self)
    self.processor.process(ProcessorPeriod(process), parameters: parameters)
  }
}

/// A feature's instances' side of its processor: the calls the vtable makes with an instance.
@usableFromInline
struct InstanceAudio {
  let writeParameters: (FeatureInstanceBox, UnsafeMutableRawPointer) -> Void
  let createProcessor: (ProcessorConfiguration) -> AnyProcessorBox
  let eventAction: (ProcessorEvent) -> [UInt8]?

  @usableFromInline
  init(
    writeParameters: @escaping (FeatureInstanceBox, UnsafeMutableRawPointer) -> Void,
    createProcessor: @escaping (ProcessorConfiguration) -> AnyProcessorBox,
    eventAction: @escaping (ProcessorEvent) -> [UInt8]?
  ) {
    self.writeParameters = writeParameters
    self.createProcessor = createProcessor
    self.eventAction = eventAction
  }
}

/// What a feature's processor descriptor says (see ``ProcessorVTable``).
@usableFromInline
struct ProcessorDriver: Sendable {
  let parameterSize: Int
  let maxOutputEvents: Int
  let maxMIDIOutput: Int

  @usableFromInline
  init(parameterSize: Int, maxOutputEvents: Int, maxMIDIOutput: Int = 0) {
    self.parameterSize = parameterSize
    self.maxOutputEvents = maxOutputEvents
    self.maxMIDIOutput = maxMIDIOutput
  }
}
