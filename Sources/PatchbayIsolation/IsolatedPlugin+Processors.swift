import CPatchbayChannel
import Foundation
import PatchbayABI
import PatchbayLoader

/// An isolated plugin's processors: created in its process, bound to the host-side
/// `pb_isolated_processor`, destroyed there, and watched for lateness.
extension IsolatedPlugin {
  /// Creates `instance`'s processor in the process and binds a host-side one to it.
  func createProcessor(
    for instance: IsolatedInstance, config: pb_processor_config, offline: Bool,
    parameterSize: UInt32
  ) -> IsolatedProcessor? {
    let reply = self.call("processor create") {
      instance.writeCreateProcessor(&$0, config: config)
    } read: {
      try $0.read(UInt32.self)
    }
    guard case .success(let reply) = reply else {
      if case .failure(let error) = reply { instance.context.report(error.description) }
      return nil
    }
    apply(reply.notes, to: instance.context)
    guard reply.status == PB_OK else { return nil }
    let processor = IsolatedProcessor(
      instance: instance, config: config, offline: offline, parameterSize: parameterSize)
    self.executor.sync {
      processor.bind(self.owned.child.channel, index: reply.result)
      self.owned.processors[ObjectIdentifier(processor)] = processor
      if self.owned.monitor == nil { self.startMonitor() }
    }
    return processor
  }

  /// Frees the processor in the process (if it is still the one it was made in).
  func destroy(_ processor: IsolatedProcessor) {
    let index = self.executor.sync { () -> UInt32? in
      self.owned.processors[ObjectIdentifier(processor)] = nil
      return processor.childIndex
    }
    guard let index else { return }
    _ = self.call("processor destroy") {
      $0.put(IsolatedCall.destroyProcessor.rawValue)
      $0.put(index)
      $0.put(processor.instance.feature.index)
    } read: { _ in
    }
  }

  /// A thread that ends the process when one of its processors has not delivered a period
  /// for `[limits] audio-periods` periods in a row (the processor hangs, so the audio thread
  /// plays silence for it): the reaper then starts it again.
  /// [executor]
  func startMonitor() {
    let limit = UInt64(self.options.limits.audioPeriods)
    let monitor = Thread { [weak self] in
      while let self {
        usleep(25_000)
        let stuck = self.executor.sync { () -> ChildProcess? in
          let late = self.owned.processors.values.first {
            $0.lateInARow >= limit && $0.childIndex != nil
          }
          guard let late, !self.owned.child.hasEnded, self.owned.noteHang == nil else {
            return nil
          }
          self.owned.noteHang =
            late.pointer.pointee.offline != 0
            ? "hung: its processor did not render a period within "
              + "\(self.options.limits.callSeconds) s ([limits] call-seconds)"
            : "hung: its processor delivered no period for \(limit) periods in a row "
              + "([limits] audio-periods)"
          return self.owned.child
        }
        stuck?.kill()
      }
    }
    monitor.name = "patchbay-iso-watch"
    monitor.start()
    self.owned.monitor = monitor
  }
}
