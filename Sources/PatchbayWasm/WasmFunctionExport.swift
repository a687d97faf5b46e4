import CFFI
import CPatchbayFFITrampolines
import Foundation
import PatchbayFunctions
import PatchbayLoader
import WasmKit

/// A function a WebAssembly plugin exports (patchbay/functions.h), given a native address: a
/// libffi closure of its C signature. A call copies the strings and buffers it is given into
/// the guest's memory, calls the guest's function through its table index (what the C
/// function pointer is in wasm32) in the plugin's ``WasmFunctionRunner``, and copies the result
/// and any out_string back. So `patchbay call Theory.wasm note_name 60`, a script's `call`, and
/// a native plugin that resolved the function through "patchbay.functions/1" all call it as
/// they call a native one.
///
/// ```swift
/// let export = try WasmFunctionExport(name: "note_frequency", signature: signature,
///                                     index: 3, runner: runner, file: "Theory.wasm")
/// let f = unsafeBitCast(export.pointer, to: (@convention(c) (Int32, Double) -> Double).self)
/// f(69, 440)   // 440.0, computed in the guest
/// ```
///
/// Not for the audio thread: a call takes a lock and allocates. A call that traps (fuel, its
/// memory, a bad index) returns zero, and an out_string reads as "".
final class WasmFunctionExport: @unchecked Sendable {
  let name: String
  let signature: FunctionSignature
  /// The function's index in the guest's table.
  let index: UInt32
  /// Its type in wasm32 (a `size` is 32 bits there, a buffer two i32s).
  let type: FunctionType
  let runner: WasmFunctionRunner
  /// The signature's cif, which the closure lives by.
  private let prepared: PreparedFunction
  /// The native address callers call. Never freed: a caller may hold it as long as the
  /// process lives, as a library's code stays mapped.
  private(set) var pointer = UnsafeRawPointer(bitPattern: 1)!

  init(
    name: String, signature: FunctionSignature, index: UInt32, runner: WasmFunctionRunner,
    file: String
  ) throws(PluginLoadError) {
    guard let type = Self.wasmType(of: signature) else {
      throw PluginLoadError(
        file: file,
        "function '\(name)' is \(signature): a pointer means nothing across a WebAssembly "
          + "module's edge (its memory is its own). Pass a string or a buffer, or export it "
          + "from a native plugin.")
    }
    (self.name, self.signature, self.index, self.type, self.runner) = (
      name, signature, index, type, runner
    )
    self.prepared = PreparedFunction(signature: signature)
    let context = Unmanaged.passRetained(self).toOpaque()
    guard
      let code = patchbay_closure_create(
        self.prepared.cif,
        { _, result, arguments, context in
          guard let result, let arguments, let context else { return }
          Unmanaged<WasmFunctionExport>.fromOpaque(context).takeUnretainedValue()
            .call(result: result, arguments: arguments)
        }, context)
    else {
      Unmanaged<WasmFunctionExport>.fromOpaque(context).release()
      throw PluginLoadError(file: file, "function '\(name)': no memory for its closure.")
    }
    self.pointer = unsafeBitCast(code, to: UnsafeRawPointer.self)
  }

  /// The wasm32 type of a C function of `signature`; nil when it takes or returns a pointer.
  static func wasmType(of signature: FunctionSignature) -> FunctionType? {
    var parameters: [ValueType] = []
    for parameter in signature.parameters {
      switch parameter {
      case .buffer, .outString: parameters += [.i32, .i32]
      case .pointer: return nil
      default: parameters.append(Self.wasmType(parameter))
      }
    }
    switch signature.returns {
    case .void: return FunctionType(parameters: parameters)
    case .pointer: return nil
    case let returns: return FunctionType(parameters: parameters, results: [Self.wasmType(returns)])
    }
  }

  private static func wasmType(_ type: FunctionSignature.ValueType) -> ValueType {
    switch type {
    case .int64, .uint64: .i64
    case .float: .f32
    case .double: .f64
    default: .i32  // the narrower integers, bool, size (32 bits in wasm32), string's address
    }
  }

  // MARK: - A call

  /// One C argument the guest needs in its memory: `bytes` copied in (a string with its NUL, a
  /// buffer; nil for NULL), or `capacity` bytes for an out_string to write into `out`.
  private enum Payload {
    case bytes([UInt8]?)
    case room(out: UnsafeMutablePointer<CChar>?, capacity: Int)

    var count: Int {
      switch self {
      case .bytes(let bytes): bytes?.count ?? 0
      case .room(_, let capacity): capacity
      }
    }

    var isNull: Bool {
      switch self {
      case .bytes(let bytes): bytes == nil
      case .room(let out, _): out == nil
      }
    }
  }

  /// The closure's body: `arguments` holds a pointer to each C argument; `result` gets the
  /// result as libffi's closures return it.
  private func call(
    result: UnsafeMutableRawPointer, arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  ) {
    // The C arguments, read here: numbers become values, the rest payloads placed below.
    var values: [Value?] = []
    var payloads: [(value: Int, payload: Payload)] = []
    var slot = 0
    func next() -> UnsafeMutableRawPointer {
      defer { slot += 1 }
      return arguments[slot]!
    }
    for parameter in self.signature.parameters {
      switch parameter {
      case .string:
        let text = next().load(as: UnsafePointer<CChar>?.self)
        let bytes = text.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0) + 1)) }
        payloads.append((values.count, .bytes(bytes)))
        values.append(nil)
      case .buffer:
        let start = next().load(as: UnsafeRawPointer?.self)
        let count = Int(next().load(as: UInt.self))
        let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) }
        payloads.append((values.count, .bytes(bytes)))
        values += [nil, .i32(UInt32(truncatingIfNeeded: bytes == nil ? 0 : count))]
      case .outString:
        let out = next().load(as: UnsafeMutablePointer<CChar>?.self)
        let capacity = min(Int(next().load(as: UInt.self)), PreparedFunction.maximumStringBytes)
        payloads.append((values.count, .room(out: out, capacity: out == nil ? 0 : capacity)))
        values += [nil, .i32(UInt32(out == nil ? 0 : capacity))]
      default:
        values.append(Self.value(of: parameter, at: next()))
      }
    }
    let total = payloads.reduce(0) { $0 + $1.payload.count }
    let returned = self.runner.run(
      self.name, index: self.index, type: self.type,
      prepare: { (guest) throws(WasmTrap) -> [Value] in
        var address = try guest.room(for: total)
        for (position, payload) in payloads {
          // NULL stays NULL; anything else gets its place in the room.
          guard !payload.isNull else {
            values[position] = .i32(0)
            continue
          }
          values[position] = .i32(address)
          if case .bytes(let bytes?) = payload, !bytes.isEmpty {
            guest.memory.withUnsafeMutableBufferPointer(offset: UInt(address), count: bytes.count) {
              $0.copyBytes(from: bytes)
            }
          }
          address += UInt32(payload.count)
        }
        return values.map { $0 ?? .i32(0) }
      },
      finish: { (guest, results) throws(WasmTrap) -> Value? in
        for (position, payload) in payloads {
          guard case .room(let out?, let capacity) = payload, capacity > 0,
            case .i32(let address)? = values[position]
          else { continue }
          guest.memory.withUnsafeBufferPointer(offset: UInt(address), count: capacity) {
            UnsafeMutableRawPointer(out).copyMemory(from: $0.baseAddress!, byteCount: capacity)
          }
          out[capacity - 1] = 0
        }
        return results.first
      })
    guard let returned else {
      // It trapped: zero, and an empty out_string.
      result.storeBytes(of: 0, as: UInt64.self)
      for case (_, .room(let out?, let capacity)) in payloads where capacity > 0 { out[0] = 0 }
      return
    }
    if let value = returned { Self.store(value, as: self.signature.returns, into: result) }
  }

  /// The value of the C argument at `pointer`, of `type` (a number or bool).
  private static func value(of type: FunctionSignature.ValueType, at pointer: UnsafeRawPointer)
    -> Value
  {
    switch type {
    case .bool, .uint8: .i32(UInt32(pointer.load(as: UInt8.self)))
    case .int8: .i32(UInt32(bitPattern: Int32(pointer.load(as: Int8.self))))
    case .int16: .i32(UInt32(bitPattern: Int32(pointer.load(as: Int16.self))))
    case .uint16: .i32(UInt32(pointer.load(as: UInt16.self)))
    case .int32, .uint32: .i32(pointer.load(as: UInt32.self))
    case .size: .i32(UInt32(truncatingIfNeeded: pointer.load(as: UInt.self)))
    case .int64, .uint64: .i64(pointer.load(as: UInt64.self))
    case .float: .f32(pointer.load(as: UInt32.self))
    case .double: .f64(pointer.load(as: UInt64.self))
    case .void, .pointer, .string, .buffer, .outString: .i32(0)  // placed by the caller
    }
  }

  /// `value` as libffi's closures return `type`: an integer narrower than a register widened to
  /// a whole ffi_arg, sign-extended when signed.
  private static func store(
    _ value: Value, as type: FunctionSignature.ValueType, into result: UnsafeMutableRawPointer
  ) {
    let word: UInt64
    switch (type, value) {
    case (.float, .f32(let bits)):
      result.storeBytes(of: bits, as: UInt32.self)
      return
    case (.double, .f64(let bits)), (.int64, .i64(let bits)), (.uint64, .i64(let bits)):
      word = bits
    case (.bool, .i32(let bits)): word = bits & 0xFF == 0 ? 0 : 1
    case (.uint8, .i32(let bits)): word = UInt64(UInt8(truncatingIfNeeded: bits))
    case (.uint16, .i32(let bits)): word = UInt64(UInt16(truncatingIfNeeded: bits))
    case (.uint32, .i32(let bits)), (.size, .i32(let bits)): word = UInt64(bits)
    case (.int8, .i32(let bits)):
      word = UInt64(bitPattern: Int64(Int8(truncatingIfNeeded: bits)))
    case (.int16, .i32(let bits)):
      word = UInt64(bitPattern: Int64(Int16(truncatingIfNeeded: bits)))
    case (.int32, .i32(let bits)):
      word = UInt64(bitPattern: Int64(Int32(bitPattern: bits)))
    default: return  // void (the types were checked when the caller was made)
    }
    result.storeBytes(of: word, as: UInt64.self)
  }
}
