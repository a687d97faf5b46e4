import CLilv
import Foundation

/// The features an instance is made with: `urid:map`, `urid:unmap`, `options` (the rate, the
/// block lengths, the sequence size), `buf-size:boundedBlockLength` and `worker:schedule`, as the
/// null-terminated list `instantiate` takes. It lives as long as its instance (plugins may keep
/// the pointers).
final class LV2Features: @unchecked Sendable {
  /// The list for `lilv_plugin_instantiate`.
  let list: UnsafeMutablePointer<UnsafePointer<LV2_Feature>?>
  private var allocations: [UnsafeMutableRawPointer] = []

  init(sampleRate: Int, maximumFrames: Int, sequenceCapacity: Int, worker: LV2Worker) {
    let map = LV2URIDMap.shared
    let rate = Self.value(Float(sampleRate), into: &self.allocations)
    let minimum = Self.value(Int32(1), into: &self.allocations)
    let maximum = Self.value(Int32(maximumFrames), into: &self.allocations)
    let nominal = Self.value(Int32(maximumFrames), into: &self.allocations)
    let sequence = Self.value(Int32(sequenceCapacity), into: &self.allocations)
    let (floatType, intType) = (map.map(LV2URI.atomFloat), map.map(LV2URI.atomInt))
    let options = UnsafeMutablePointer<LV2_Options_Option>.allocate(capacity: 6)
    self.allocations.append(UnsafeMutableRawPointer(options))
    let entries: [(String, LV2_URID, UnsafeMutableRawPointer)] = [
      (LV2URI.sampleRate, floatType, rate), (LV2URI.minBlockLength, intType, minimum),
      (LV2URI.maxBlockLength, intType, maximum), (LV2URI.nominalBlockLength, intType, nominal),
      (LV2URI.sequenceSize, intType, sequence),
    ]
    for (index, (key, type, value)) in entries.enumerated() {
      (options + index).initialize(
        to: LV2_Options_Option(
          context: LV2_OPTIONS_INSTANCE, subject: 0, key: map.map(key), size: 4, type: type,
          value: UnsafeRawPointer(value)))
    }
    (options + entries.count).initialize(
      to: LV2_Options_Option(
        context: LV2_OPTIONS_INSTANCE, subject: 0, key: 0, size: 0, type: 0, value: nil))
    let features: [(String, UnsafeMutableRawPointer?)] = [
      (LV2URI.uridMap, UnsafeMutableRawPointer(map.mapFeature)),
      (LV2URI.uridUnmap, UnsafeMutableRawPointer(map.unmapFeature)),
      (LV2URI.options, UnsafeMutableRawPointer(options)),
      (LV2URI.boundedBlockLength, nil),
      (LV2URI.workerSchedule, UnsafeMutableRawPointer(worker.schedule)),
    ]
    self.list = .allocate(capacity: features.count + 1)
    for (index, (uri, data)) in features.enumerated() {
      let name = strdup(uri)!
      self.allocations.append(UnsafeMutableRawPointer(name))
      let feature = UnsafeMutablePointer<LV2_Feature>.allocate(capacity: 1)
      feature.initialize(to: LV2_Feature(URI: name, data: data))
      self.allocations.append(UnsafeMutableRawPointer(feature))
      (self.list + index).initialize(to: UnsafePointer(feature))
    }
    (self.list + features.count).initialize(to: nil)
  }

  deinit {
    self.list.deallocate()
    for allocation in self.allocations { free(allocation) }
  }

  private static func value<T>(_ value: T, into allocations: inout [UnsafeMutableRawPointer])
    -> UnsafeMutableRawPointer
  {
    let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
    pointer.initialize(to: value)
    allocations.append(UnsafeMutableRawPointer(pointer))
    return UnsafeMutableRawPointer(pointer)
  }
}
