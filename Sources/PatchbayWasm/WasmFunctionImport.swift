import Foundation
import PatchbayFunctions
import WasmKit

/// Another plugin's function, called from inside a module: what the guest's `resolve`
/// ("patchbay.functions/1") gets is the index of a host function of the signature's wasm type,
/// put in its table. A call reads the guest's arguments (a string up to its NUL, a buffer's
/// bytes, an out_string's room, each checked against its memory), calls the native address the
/// app resolved (a stable trampoline: it follows swaps of the provider) through libffi, and
/// writes the result and any out_string back. No guest pointer reaches native code, NULL
/// included: address 0 is an address in the module's memory like any other, read there (a
/// native function given NULL where it expects text could stop the app).
///
/// ```swift
/// let function = WasmFunctionImport.function(calling: pointer, signature: signature,
///                                            type: type, edge: edge, store: store)
/// ```
enum WasmFunctionImport {
  static func function(
    calling pointer: UnsafeRawPointer, signature: FunctionSignature, type: FunctionType,
    edge: WasmEdge, store: Store
  ) -> Function {
    let prepared = PreparedFunction(signature: signature)
    return Function(store: store, type: type) { [unowned edge] _, arguments in
      try Self.call(pointer, prepared, arguments, edge: edge)
    }
  }

  private static func call(
    _ pointer: UnsafeRawPointer, _ prepared: PreparedFunction, _ arguments: [Value],
    edge: WasmEdge
  ) throws -> [Value] {
    let signature = prepared.signature
    // One slot per C argument (buffers and out_strings take two); the native copies of
    // strings and buffers, and the out_string's room, owned until the call returns.
    var frame = CallFrame(
      count: signature.parameters.reduce(0) { $0 + ($1 == .buffer || $1 == .outString ? 2 : 1) })
    defer { frame.release() }
    var out: (guest: UInt32, native: UnsafeMutableRawPointer, capacity: Int)?
    var index = 0
    func word() -> UInt32 {
      defer { index += 1 }
      return arguments[index].i32
    }
    for parameter in signature.parameters {
      switch parameter {
      case .string:
        let text = try edge.string(at: word(), for: "a function's string")
        frame.next().storeBytes(of: frame.copy(text + [0]), as: UnsafeMutableRawPointer.self)
      case .buffer:
        let (address, length) = (word(), word())
        let bytes = try edge.bytes(address, length, for: "a function's buffer")
        frame.next().storeBytes(of: frame.copy(bytes), as: UnsafeMutableRawPointer.self)
        frame.next().storeBytes(of: UInt(length), as: UInt.self)
      case .outString:
        let (address, capacity) = (word(), word())
        _ = try edge.bytes(address, capacity, for: "a function's out_string")
        let room = frame.copy([UInt8](repeating: 0, count: Int(capacity)))
        out = (address, room, Int(capacity))
        frame.next().storeBytes(of: room, as: UnsafeMutableRawPointer.self)
        frame.next().storeBytes(of: UInt(capacity), as: UInt.self)
      default:
        Self.store(arguments[index], as: parameter, into: frame.next())
        index += 1
      }
    }
    var result: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &result) {
      prepared.callRaw(pointer, arguments: frame.pointers, result: $0.baseAddress!)
    }
    if let out, out.capacity > 0 {
      try edge.store(
        Array(UnsafeRawBufferPointer(start: out.native, count: out.capacity)), at: out.guest,
        for: "a function's out_string")
    }
    return withUnsafeBytes(of: result) { Self.value(of: signature.returns, from: $0) }
  }

  /// The wasm value `value` as the C argument of `type`, at `slot`.
  private static func store(
    _ value: Value, as type: FunctionSignature.ValueType, into slot: UnsafeMutableRawPointer
  ) {
    switch (type, value) {
    case (.bool, .i32(let bits)), (.uint8, .i32(let bits)), (.int8, .i32(let bits)):
      slot.storeBytes(of: UInt8(truncatingIfNeeded: bits), as: UInt8.self)
    case (.int16, .i32(let bits)), (.uint16, .i32(let bits)):
      slot.storeBytes(of: UInt16(truncatingIfNeeded: bits), as: UInt16.self)
    case (.int32, .i32(let bits)), (.uint32, .i32(let bits)):
      slot.storeBytes(of: bits, as: UInt32.self)
    case (.size, .i32(let bits)): slot.storeBytes(of: UInt(bits), as: UInt.self)
    case (.int64, .i64(let bits)), (.uint64, .i64(let bits)), (.double, .f64(let bits)):
      slot.storeBytes(of: bits, as: UInt64.self)
    case (.float, .f32(let bits)): slot.storeBytes(of: bits, as: UInt32.self)
    default: break  // the function's type was checked when it was made
    }
  }

  /// The C result of `type` in `raw` (libffi widens an integer narrower than a register) as
  /// the guest's value.
  private static func value(of type: FunctionSignature.ValueType, from raw: UnsafeRawBufferPointer)
    -> [Value]
  {
    let word = raw.load(as: UInt64.self)
    switch type {
    case .void: return []
    case .bool: return [.i32(word & 0xFF == 0 ? 0 : 1)]
    case .int64, .uint64: return [.i64(word)]
    case .float: return [.f32(raw.load(as: UInt32.self))]
    case .double: return [.f64(word)]
    default: return [.i32(UInt32(truncatingIfNeeded: word))]  // narrower integers, size
    }
  }
}
