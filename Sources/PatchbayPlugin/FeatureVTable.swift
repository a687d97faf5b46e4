import PatchbayABI

/// The C functions behind every Swift feature. They find their feature through the
/// descriptor (`this`) or the instance, and never let a Swift error cross the boundary.
enum FeatureVTable {
  static func instance(_ pointer: UnsafeMutableRawPointer?) -> FeatureInstanceBox? {
    pointer.map { Unmanaged<FeatureInstanceBox>.fromOpaque($0).takeUnretainedValue() }
  }

  static func bytes(_ pointer: UnsafePointer<UInt8>?, _ length: Int) -> [UInt8] {
    guard let pointer, length > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: pointer, count: length))
  }

  static let create:
    @convention(c) (
      UnsafePointer<pb_feature_desc>?, UnsafePointer<pb_host>?, UnsafePointer<UInt8>?, Int
    ) -> UnsafeMutableRawPointer? = { feature, host, state, length in
      guard let feature, let host, let driver = DriverRegistry.driver(for: feature) else {
        return nil
      }
      let connection = HostConnection(instanceHost: host)
      let bytes = state.map { _ in Self.bytes(state, length) }
      guard let instance = driver.create(connection, bytes) else { return nil }
      return Unmanaged.passRetained(instance).toOpaque()
    }

  static let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
    guard let pointer else { return }
    let instance = Unmanaged<FeatureInstanceBox>.fromOpaque(pointer)
    let box = instance.takeUnretainedValue()
    box.table.cancelEffects(box)
    instance.release()
  }

  static let reduce:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int) ->
      pb_status = { pointer, action, length in
        guard let pointer else { return PB_ERR_INVALID }
        // Borrowed, not retained: the host holds the instance for as long as it calls it.
        return Unmanaged<FeatureInstanceBox>.fromOpaque(pointer)._withUnsafeGuaranteedRef {
          $0.table.reduce(
            $0, UnsafeRawBufferPointer(start: action, count: action == nil ? 0 : length))
        }
      }

  static let snapshot:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<pb_writer>?) ->
      pb_status = { pointer, out in
        guard let instance = Self.instance(pointer) else { return PB_ERR_INVALID }
        guard let bytes = instance.table.snapshot(instance) else { return PB_ERR_FAILED }
        return write(bytes, to: out) ? PB_OK : PB_ERR_FAILED
      }

  static let render:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<pb_writer>?) ->
      pb_status = { pointer, out in
        guard let instance = Self.instance(pointer) else { return PB_ERR_INVALID }
        return write(Array(plainView(instance.table.render(instance)).utf8), to: out)
          ? PB_OK : PB_ERR_FAILED
      }

  static let parseAction:
    @convention(c) (
      UnsafePointer<pb_feature_desc>?, UnsafePointer<pb_host>?, UnsafePointer<CChar>?, Int,
      UnsafePointer<pb_writer>?
    ) -> pb_status = { feature, host, text, length, out in
      guard let feature, let host, let driver = DriverRegistry.driver(for: feature) else {
        return PB_ERR_INVALID
      }
      let bytes = Self.bytes(UnsafeRawPointer(text)?.assumingMemoryBound(to: UInt8.self), length)
      guard let string = String(validating: bytes, as: UTF8.self) else {
        HostConnection(host: host).error("action text is not valid UTF-8")
        return PB_ERR_DECODE
      }
      guard let encoded = driver.parseAction(string, HostConnection(host: host)) else {
        return PB_ERR_DECODE
      }
      return write(encoded, to: out) ? PB_OK : PB_ERR_FAILED
    }

  static let formatAction:
    @convention(c) (
      UnsafePointer<pb_feature_desc>?, UnsafePointer<pb_host>?, UnsafePointer<UInt8>?, Int,
      UnsafePointer<pb_writer>?
    ) -> pb_status = { feature, host, action, length, out in
      guard let feature, let host, let driver = DriverRegistry.driver(for: feature) else {
        return PB_ERR_INVALID
      }
      guard
        let text = driver.formatAction(Self.bytes(action, length), HostConnection(host: host))
      else { return PB_ERR_DECODE }
      return write(Array(text.utf8), to: out) ? PB_OK : PB_ERR_FAILED
    }

  static let cancelEffects: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
    guard let instance = Self.instance(pointer) else { return }
    instance.table.cancelEffects(instance)
  }

  static let migrate:
    @convention(c) (
      UnsafePointer<pb_feature_desc>?, UnsafePointer<pb_host>?, UInt32, UnsafePointer<UInt8>?,
      Int, UnsafePointer<pb_writer>?
    ) -> pb_status = { feature, host, schema, state, length, out in
      guard let feature, let host, let driver = DriverRegistry.driver(for: feature) else {
        return PB_ERR_INVALID
      }
      let (status, bytes) = driver.migrate(
        schema, Self.bytes(state, length), HostConnection(host: host))
      guard status == PB_OK else { return status }
      return write(bytes, to: out) ? PB_OK : PB_ERR_FAILED
    }

  static let runningEffects: @convention(c) (UnsafeMutableRawPointer?) -> UInt32 = { pointer in
    guard let instance = Self.instance(pointer) else { return 0 }
    return UInt32(clamping: instance.table.runningEffects(instance))
  }

  static let cancelEffectsKeyed:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int) -> Void = {
      pointer, key, length in
      guard let instance = Self.instance(pointer), let key else { return }
      let bytes = UnsafeRawBufferPointer(start: key, count: length)
      instance.table.cancelEffectsKeyed(instance, String(decoding: bytes, as: UTF8.self))
    }

  static let resumeEffects: @convention(c) (UnsafeMutableRawPointer?) -> pb_status = { pointer in
    guard let instance = Self.instance(pointer) else { return PB_ERR_INVALID }
    return instance.table.resumeEffects(instance) ? PB_OK : PB_ERR_UNSUPPORTED
  }

  static let effectOrigins:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<pb_writer>?) -> pb_status = {
      pointer, out in
      guard let instance = Self.instance(pointer) else { return PB_ERR_INVALID }
      return write(instance.table.effectOrigins(instance), to: out) ? PB_OK : PB_ERR_FAILED
    }

  static let restartEffects:
    @convention(c) (
      UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int,
      UnsafePointer<UInt32>?, Int
    ) -> pb_status = { pointer, state, stateLength, action, actionLength, effects, count in
      guard let instance = Self.instance(pointer) else { return PB_ERR_INVALID }
      let numbers = Set(UnsafeBufferPointer(start: effects, count: effects == nil ? 0 : count))
      return instance.table.restartEffects(
        instance, UnsafeRawBufferPointer(start: state, count: state == nil ? 0 : stateLength),
        UnsafeRawBufferPointer(start: action, count: action == nil ? 0 : actionLength), numbers)
    }

  /// The vtable of a feature, with or without `migrate`.
  static func make(migrates: Bool) -> pb_feature_vtable {
    pb_feature_vtable(
      struct_size: UInt32(MemoryLayout<pb_feature_vtable>.size),
      create: Self.create,
      destroy: Self.destroy,
      reduce: Self.reduce,
      snapshot: Self.snapshot,
      render: Self.render,
      parse_action: Self.parseAction,
      format_action: Self.formatAction,
      cancel_effects: Self.cancelEffects,
      migrate: migrates ? Self.migrate : nil,
      running_effects: Self.runningEffects,
      cancel_effects_keyed: Self.cancelEffectsKeyed,
      resume_effects: Self.resumeEffects,
      effect_origins: Self.effectOrigins,
      restart_effects: Self.restartEffects,
      // Not yet: a Swift state's changed fields need its previous value kept across each
      // reduce while someone watches. The host diffs two snapshots instead.
      changed_fields: nil
    )
  }
}
