import CPatchbayABI

/// One feature instance, as the vtable's C functions hold it (type-erased: they are not
/// generic). ``Running`` is the one for a feature type.
class Instance {
  func reduce(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> pb_status { PB_ERR_UNSUPPORTED }
  func snapshot(_ out: UnsafePointer<pb_writer>) -> pb_status { PB_ERR_UNSUPPORTED }
  func render(_ out: UnsafePointer<pb_writer>) -> pb_status { PB_ERR_UNSUPPORTED }
}

/// An instance of `F`: its reducer, its state, and the host it sends its effects' actions to.
/// Made, it asks the host for what `F` declares: its MIDI channels, its subscriptions, its
/// functions; and publishes its shared values.
final class Running<F: Feature>: Instance {
  let feature = F()
  var state: F.State
  let host: UnsafePointer<pb_host>
  var published = PublishedValues()
  /// The state's `@Shared` fields, and each one's value as the host last had it.
  let held = F.held
  var heldBytes: [[UInt8]] = []

  init(state: F.State, host: UnsafePointer<pb_host>) {
    self.state = state
    self.host = host
    super.init()
    // A module instance holds one feature instance (the host makes one for each), so its
    // functions are the module's while it lives.
    let functions = ImportedFunctions(F.imports, host: host)
    if !functions.resolved.isEmpty { ImportedFunctions.current = functions }
    if let listen = F.midiChannels.listen { listen(host, F.midiChannels.mask) }
    for subscription in F.subscriptions {
      subscription.subscribe(host, subscription.name.cString, subscription.action.cString)
    }
    published.publish(F.shared(state), through: host)
    for field in held {
      let bytes = field.encode(state)
      heldBytes.append(bytes)
      bytes.withUnsafeBufferPointer {
        field.hold(host, field.name.cString, $0.baseAddress, $0.count)
      }
    }
  }

  /// `_shared(name:, value:)`: another holder wrote a `@Shared` field's name, whose field now
  /// has the value. nil when the action is another; else PB_OK, or why not after saying so.
  func receiveShared(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> pb_status? {
    var input = WireReader(bytes, count)
    guard let (kind, fields) = input.case(), kind == "_shared" else { return nil }
    guard fields == 2, let label = input.label(), label == "name", let name = input.string()
    else {
      Host.error(host, F.id, "cannot read _shared(name:, value:): \(input.error)")
      return PB_ERR_DECODE
    }
    guard let index = held.firstIndex(where: { $0.name.same(as: name) }) else {
      let names = held.map { PluginFeature.text($0.name) }.joined(separator: ", ")
      Host.error(
        host, F.id, "_shared names '\(name)', none of the state's @Shared values (\(names))")
      return PB_ERR_DECODE
    }
    guard let label = input.label(), label == "value", held[index].receive(&state, &input),
      input.atEnd
    else {
      Host.error(
        host, F.id,
        "the shared value '\(name)' does not read as this build's field (\(input.error)): give "
          + "every holder of '\(name)' the same type")
      return PB_ERR_DECODE
    }
    heldBytes[index] = held[index].encode(state)
    return PB_OK
  }

  /// Writes each `@Shared` field the last call changed.
  func writeHeld() {
    for (index, field) in held.enumerated() {
      let bytes = field.encode(state)
      guard bytes != heldBytes[index] else { continue }
      heldBytes[index] = bytes
      bytes.withUnsafeBufferPointer {
        field.write(host, field.name.cString, $0.baseAddress, $0.count)
      }
    }
  }

  override func reduce(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> pb_status {
    if !held.isEmpty, let status = receiveShared(bytes, count) { return status }
    var input = WireReader(bytes, count)
    guard let action = F.read(action: &input), input.atEnd else {
      Host.error(host, F.id, PluginFeature.refusal(F.self, bytes, count) ?? input.error)
      return PB_ERR_DECODE
    }
    let effect = feature.reduce(into: &state, action: action)
    let shared = F.shared(state)
    if !shared.isEmpty { published.publish(shared, through: host) }
    if !held.isEmpty { writeHeld() }
    for sent in effect.actions {
      let bytes = Bytes.written { F.write(sent, to: &$0) }
      bytes.withUnsafeBufferPointer { host.pointee.send(host, $0.baseAddress, $0.count) }
    }
    for call in effect.calls { call(host) }
    for delayed in effect.delayed {
      let bytes = Bytes.written { F.write(delayed.action, to: &$0) }
      bytes.withUnsafeBufferPointer { action in
        if let id = delayed.id {
          patchbay_send_after_keyed(
            delayed.milliseconds, action.baseAddress, UInt32(action.count), id.cString,
            UInt32(id.utf8CodeUnitCount))
        } else {
          patchbay_send_after(delayed.milliseconds, action.baseAddress, UInt32(action.count))
        }
      }
    }
    return PB_OK
  }

  override func snapshot(_ out: UnsafePointer<pb_writer>) -> pb_status {
    var writer = WireWriter(out)
    F.write(state, to: &writer)
    return writer.failed ? PB_ERR_FAILED : PB_OK
  }

  override func render(_ out: UnsafePointer<pb_writer>) -> pb_status {
    var writer = WireWriter(out)
    writer.text(plainView(F.render(state)))
    return writer.failed ? PB_ERR_FAILED : PB_OK
  }
}

/// The host's `error` and `log`, with the feature's id in front.
enum Host {
  static func error(_ host: UnsafePointer<pb_host>?, _ id: StaticString, _ message: String) {
    guard let host else { return }
    var line = PluginFeature.text(id)
    line += ": " + message
    line.withCString { host.pointee.error(host, $0) }
  }
}

/// Bytes written through a `pb_writer` that grows a Swift array.
enum Bytes {
  static func written(_ body: (inout WireWriter) -> Void) -> [UInt8] {
    var bytes: [UInt8] = []
    withUnsafeMutablePointer(to: &bytes) { storage in
      var writer = pb_writer(
        struct_size: UInt32(MemoryLayout<pb_writer>.size),
        context: UnsafeMutableRawPointer(storage),
        write: { context, data, count in
          guard let context, let data else { return 0 }
          let bytes = context.assumingMemoryBound(to: [UInt8].self)
          bytes.pointee.append(
            contentsOf: UnsafeRawBufferPointer(start: data, count: count))
          return count
        })
      withUnsafePointer(to: &writer) { pointer in
        var out = WireWriter(pointer)
        body(&out)
      }
    }
    return bytes
  }
}
