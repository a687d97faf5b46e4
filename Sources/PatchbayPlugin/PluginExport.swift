import Patchbay
import PatchbayABI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Builds the descriptor a plugin's entry point returns.
///
/// Every plugin library has one entry point, which `#plugin` writes:
///
/// ```swift
/// #plugin(
///   id: "dev.patchbay.counter-plugin", name: "Counter", version: "1.0.0",
///   features: [Counter.self])
/// // @_cdecl("patchbay_plugin_entry")
/// // public func patchbay_plugin_entry(_ hostABIMajor: UInt16) -> UnsafeRawPointer? {
/// //   PluginExport.entry(id: …, name: …, version: …, features: […], hostABIMajor: hostABIMajor)
/// // }
/// ```
///
/// Write the function by hand only when the entry must compute something at load time (the
/// Numbered test fixture names itself after its file).
///
/// The descriptor is built on the first call and kept for the life of the library (hosts never
/// unload plugins). The host checks the ABI version it reports.
///
/// Every Swift plugin shares one SDK library, so the descriptors are kept per plugin image:
/// `dsoHandle` (`#dsohandle`, filled in at the call site) says which plugin, and which
/// generation of it, is asking.
public enum PluginExport {
  private static let built = LockedValue<[UnsafeRawPointer: UnsafeRawPointer]>([:])

  /// The plugin descriptor (`const pb_plugin_desc *`), built on the first call.
  ///
  /// Name each feature with ``FeatureDriver/feature(_:)`` — `.feature(Counter.self)` — which
  /// specializes its code in the plugin's module, where the feature's types are known.
  public static func entry(
    id: String, name: String, version: String, features drivers: [FeatureDriver],
    hostABIMajor: UInt16, dsoHandle: UnsafeRawPointer = #dsohandle
  ) -> UnsafeRawPointer? {
    // Its own symbol, not a default argument: plugins built before functions existed call it.
    self.entry(
      id: id, name: name, version: version, features: drivers, functions: [],
      hostABIMajor: hostABIMajor, dsoHandle: dsoHandle)
  }

  /// ``entry(id:name:version:features:hostABIMajor:)``, with plain C functions the plugin
  /// exports (see ``ExportedFunction``).
  public static func entry(
    id: String, name: String, version: String, features drivers: [FeatureDriver],
    functions: [ExportedFunction], hostABIMajor: UInt16,
    dsoHandle: UnsafeRawPointer = #dsohandle
  ) -> UnsafeRawPointer? {
    self.built.withValue { built in
      if let descriptor = built[dsoHandle] { return descriptor }
      let descriptor = UnsafeRawPointer(
        DescriptorBuilder.plugin(
          id: id, name: name, version: version, drivers: drivers, functions: functions)
      )
      built[dsoHandle] = descriptor
      return descriptor
    }
  }
}

/// Maps each feature descriptor this library built to the driver of its Swift type.
enum DriverRegistry {
  private static let drivers = LockedValue<[UnsafeRawPointer: FeatureDriver]>([:])

  static func register(_ driver: FeatureDriver, for feature: UnsafePointer<pb_feature_desc>) {
    self.drivers.withValue { $0[UnsafeRawPointer(feature)] = driver }
  }

  static func driver(for feature: UnsafePointer<pb_feature_desc>) -> FeatureDriver? {
    self.drivers.withValue { $0[UnsafeRawPointer(feature)] }
  }
}

/// Lays out the C descriptors in memory that lives as long as the library.
enum DescriptorBuilder {
  static func string(_ string: String) -> UnsafePointer<CChar> {
    UnsafePointer(strdup(string)!)
  }

  static func allocate<T>(_ value: T) -> UnsafeMutablePointer<T> {
    let pointer = UnsafeMutablePointer<T>.allocate(capacity: 1)
    pointer.initialize(to: value)
    return pointer
  }

  static func array<T>(_ pointers: [UnsafeMutablePointer<T>]) -> UnsafePointer<UnsafePointer<T>?> {
    let array = UnsafeMutablePointer<UnsafePointer<T>?>.allocate(capacity: max(pointers.count, 1))
    for (index, pointer) in pointers.enumerated() {
      (array + index).initialize(to: UnsafePointer(pointer))
    }
    return UnsafePointer(array)
  }

  static func plugin(
    id: String, name: String, version: String, drivers: [FeatureDriver],
    functions: [ExportedFunction] = []
  ) -> UnsafeMutablePointer<pb_plugin_desc> {
    let featureDescriptors = drivers.map { self.feature($0) }
    let functionDescriptors = functions.map { function in
      self.allocate(
        pb_function_desc(
          struct_size: UInt32(MemoryLayout<pb_function_desc>.size),
          name: self.string(function.name), signature: self.string(function.signature),
          summary: function.summary.isEmpty ? nil : self.string(function.summary),
          function: unsafeBitCast(function.pointer, to: (@convention(c) () -> Void).self)))
    }
    return self.allocate(
      pb_plugin_desc(
        magic: PATCHBAY_MAGIC,
        abi_major: pb_abi_version(PATCHBAY_ABI_MAJOR),
        abi_minor: pb_abi_version(PATCHBAY_ABI_MINOR),
        struct_size: UInt32(MemoryLayout<pb_plugin_desc>.size),
        id: self.string(id),
        name: self.string(name),
        version: self.string(version),
        feature_count: UInt32(featureDescriptors.count),
        features: self.array(featureDescriptors),
        function_count: UInt32(functionDescriptors.count),
        functions: self.array(functionDescriptors)
      )
    )
  }

  static func feature(_ driver: FeatureDriver) -> UnsafeMutablePointer<pb_feature_desc> {
    let actions = driver.actions.map { action in
      let fields = action.fields.map { field in
        self.allocate(
          pb_field_desc(
            struct_size: UInt32(MemoryLayout<pb_field_desc>.size),
            name: self.string(field.name),
            type: self.string(field.type.rawValue)
          )
        )
      }
      return self.allocate(
        pb_action_desc(
          struct_size: UInt32(MemoryLayout<pb_action_desc>.size),
          name: self.string(action.name),
          summary: action.summary.isEmpty ? nil : self.string(action.summary),
          field_count: UInt32(fields.count),
          fields: self.array(fields),
          sent_by: action.sentBy.map { self.string($0.rawValue) }
        )
      )
    }
    let descriptor = self.allocate(
      pb_feature_desc(
        struct_size: UInt32(MemoryLayout<pb_feature_desc>.size),
        id: self.string(driver.id),
        name: self.string(driver.name),
        summary: driver.summary.isEmpty ? nil : self.string(driver.summary),
        state_schema_version: driver.schemaVersion,
        action_count: UInt32(actions.count),
        actions: self.array(actions),
        vtable: UnsafePointer(self.allocate(FeatureVTable.make(migrates: driver.migrates))),
        processor: driver.processor.map { UnsafePointer(self.allocate(ProcessorVTable.make($0))) }
      )
    )
    DriverRegistry.register(driver, for: descriptor)
    return descriptor
  }
}
