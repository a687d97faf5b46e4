import CFFI
import Foundation
import PatchbayEncoding

/// A signature made ready for libffi once (its `ffi_cif`), then called with values any number
/// of times.
///
/// ```swift
/// let prepared = try PreparedFunction(signature: FunctionSignature(parsing: "double(int32, double)"))
/// try prepared.call(noteFrequency, [.int(69), .double(440)])   // .double(440.0)
/// ```
///
/// Each parameter takes one value (an `out_string` takes none: it becomes the result):
/// integers for the integer types and `pointer`, numbers for `float` and `double`, `true` or
/// `false`, a string for `string`, and a list of bytes (or a string) for `buffer`.
///
/// `@unchecked Sendable`: the cif and its type list are written once in `init` and only read
/// after (`ffi_call` does not write them); each call has buffers of its own.
public final class PreparedFunction: @unchecked Sendable {
  public let signature: FunctionSignature
  /// The prepared call description; lives as long as this (trampolines keep their own).
  package let cif: UnsafeMutablePointer<ffi_cif>
  private let types: UnsafeMutablePointer<UnsafeMutablePointer<ffi_type>?>
  /// C arguments per parameter: 2 for buffer and out_string, else 1.
  private let cArgumentCount: Int

  /// The most an out_string result may be.
  public static let maximumStringBytes = 64 * 1024

  public init(signature: FunctionSignature) {
    self.signature = signature
    var types: [UnsafeMutablePointer<ffi_type>] = []
    for parameter in signature.parameters {
      switch parameter {
      case .buffer, .outString: types += [patchbay_ffi_type_pointer(), Self.ffiType(.size)]
      default: types.append(Self.ffiType(parameter))
      }
    }
    self.cArgumentCount = types.count
    self.types = .allocate(capacity: max(1, types.count))
    for (index, type) in types.enumerated() { (self.types + index).initialize(to: type) }
    self.cif = .allocate(capacity: 1)
    // ffi_prep_cif fails only for malformed types, which a parsed signature cannot make.
    let status = patchbay_ffi_prep_cif(
      self.cif, UInt32(types.count), Self.ffiType(signature.returns), self.types)
    precondition(status == 0, "ffi_prep_cif refused \(signature)")
  }

  deinit {
    self.types.deallocate()
    self.cif.deallocate()
  }

  static func ffiType(_ type: FunctionSignature.ValueType) -> UnsafeMutablePointer<ffi_type> {
    switch type {
    case .void: patchbay_ffi_type_void()
    case .bool, .uint8: patchbay_ffi_type_uint8()
    case .int8: patchbay_ffi_type_sint8()
    case .int16: patchbay_ffi_type_sint16()
    case .uint16: patchbay_ffi_type_uint16()
    case .int32: patchbay_ffi_type_sint32()
    case .uint32: patchbay_ffi_type_uint32()
    case .int64: patchbay_ffi_type_sint64()
    case .uint64, .size: patchbay_ffi_type_uint64()
    case .float: patchbay_ffi_type_float()
    case .double: patchbay_ffi_type_double()
    case .pointer, .string, .buffer, .outString: patchbay_ffi_type_pointer()
    }
  }

  /// Calls `function` with C arguments already in place: `arguments` points at one pointer
  /// per C argument (buffers and out_strings take two), `result` at 8 or more bytes. No
  /// checking, no decoding: what `ffi_call` costs (benchmarks).
  public func callRaw(
    _ function: UnsafeRawPointer, arguments: UnsafeMutablePointer<UnsafeMutableRawPointer?>,
    result: UnsafeMutableRawPointer
  ) {
    ffi_call(
      self.cif, unsafeBitCast(function, to: (@convention(c) () -> Void).self), result, arguments)
  }

  /// How many values a call takes (every parameter but an out_string).
  public var valueCount: Int {
    self.signature.parameters.count - (self.signature.outStringIndex == nil ? 0 : 1)
  }

  /// Calls `function` with `values`; the result as a value (the written text, with an
  /// out_string). Errors say which argument is wrong and what it takes.
  public func call(_ function: UnsafeRawPointer, _ values: [WireValue]) throws(FunctionCallFailure)
    -> WireValue
  {
    guard values.count == self.valueCount else {
      throw FunctionCallFailure(
        "takes \(self.valueCount) argument(s) (\(self.signature)), got \(values.count)")
    }
    var capacity = 256
    while true {
      let (result, written) = try self.callOnce(function, values, stringCapacity: capacity)
      guard self.signature.outStringIndex != nil else { return result }
      guard case .int(let needed) = result, needed >= 0 else {
        throw FunctionCallFailure("returned \(result.actionText) instead of the text's length")
      }
      if Int(needed) < capacity { return .string(written ?? "") }
      guard Int(needed) < Self.maximumStringBytes else {
        throw FunctionCallFailure(
          "needs \(needed) bytes for its text; the most is \(Self.maximumStringBytes)")
      }
      capacity = Int(needed) + 1
    }
  }

  private func callOnce(_ function: UnsafeRawPointer, _ values: [WireValue], stringCapacity: Int)
    throws(FunctionCallFailure) -> (WireValue, String?)
  {
    // Every C argument in its own 8-byte-aligned slot; strings and buffers alive until return.
    var frame = CallFrame(count: self.cArgumentCount)
    defer { frame.release() }
    var outString: UnsafeMutablePointer<CChar>?
    var valueIndex = 0
    for (position, parameter) in self.signature.parameters.enumerated() {
      if parameter == .outString {
        let buffer = frame.copy([UInt8](repeating: 0, count: stringCapacity))
          .assumingMemoryBound(to: CChar.self)
        outString = buffer
        frame.next().storeBytes(
          of: UnsafeMutableRawPointer(buffer), as: UnsafeMutableRawPointer.self)
        frame.next().storeBytes(of: UInt64(stringCapacity), as: UInt64.self)
        continue
      }
      let value = values[valueIndex]
      valueIndex += 1
      let what = "argument \(valueIndex) (\(parameter.rawValue))"
      func integer(_ range: ClosedRange<Int64>) throws(FunctionCallFailure) -> Int64 {
        guard case .int(let number) = value else {
          throw FunctionCallFailure("\(what) takes an integer, got \(value.actionText)")
        }
        guard range.contains(number) else {
          throw FunctionCallFailure(
            "\(what) takes \(range.lowerBound) to \(range.upperBound), got \(number)")
        }
        return number
      }
      func number() throws(FunctionCallFailure) -> Double {
        switch value {
        case .double(let number): return number
        case .int(let number): return Double(number)
        default: throw FunctionCallFailure("\(what) takes a number, got \(value.actionText)")
        }
      }
      switch parameter {
      case .bool:
        guard case .bool(let flag) = value else {
          throw FunctionCallFailure("\(what) takes true or false, got \(value.actionText)")
        }
        frame.next().storeBytes(of: flag ? 1 : 0, as: UInt8.self)
      case .int8: frame.next().storeBytes(of: Int8(try integer(-128...127)), as: Int8.self)
      case .uint8: frame.next().storeBytes(of: UInt8(try integer(0...255)), as: UInt8.self)
      case .int16: frame.next().storeBytes(of: Int16(try integer(-32_768...32_767)), as: Int16.self)
      case .uint16: frame.next().storeBytes(of: UInt16(try integer(0...65_535)), as: UInt16.self)
      case .int32:
        frame.next().storeBytes(
          of: Int32(try integer(Int64(Int32.min)...Int64(Int32.max))), as: Int32.self)
      case .uint32:
        frame.next().storeBytes(of: UInt32(try integer(0...Int64(UInt32.max))), as: UInt32.self)
      case .int64: frame.next().storeBytes(of: try integer(Int64.min...Int64.max), as: Int64.self)
      case .uint64, .size, .pointer:
        frame.next().storeBytes(of: UInt64(try integer(0...Int64.max)), as: UInt64.self)
      case .float: frame.next().storeBytes(of: Float(try number()), as: Float.self)
      case .double: frame.next().storeBytes(of: try number(), as: Double.self)
      case .string:
        guard case .string(let text) = value else {
          throw FunctionCallFailure("\(what) takes a string, got \(value.actionText)")
        }
        let bytes = Array(text.utf8) + [0]
        let copy = frame.copy(bytes)
        frame.next().storeBytes(of: copy, as: UnsafeMutableRawPointer.self)
      case .buffer:
        let bytes: [UInt8]
        switch value {
        case .string(let text): bytes = Array(text.utf8)
        case .list(let items):
          var collected: [UInt8] = []
          for (index, item) in items.enumerated() {
            guard case .int(let byte) = item, (0...255).contains(byte) else {
              throw FunctionCallFailure(
                "\(what): element \(index) is \(item.actionText); a buffer holds bytes, 0 to 255")
            }
            collected.append(UInt8(byte))
          }
          bytes = collected
        default:
          throw FunctionCallFailure("\(what) takes a list of bytes, got \(value.actionText)")
        }
        let copy = frame.copy(bytes)
        frame.next().storeBytes(of: copy, as: UnsafeMutableRawPointer.self)
        frame.next().storeBytes(of: UInt64(bytes.count), as: UInt64.self)
      case .void, .outString:
        break  // rejected by the parser / handled above
      }
      _ = position
    }
    var result: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &result) { raw in
      ffi_call(
        self.cif, unsafeBitCast(function, to: (@convention(c) () -> Void).self), raw.baseAddress,
        frame.pointers)
    }
    let value = withUnsafeBytes(of: result) { raw -> WireValue in
      // libffi widens integer results narrower than a register to a full ffi_arg.
      let word = raw.load(as: UInt64.self)
      switch self.signature.returns {
      case .void: return .nil
      case .bool: return .bool(word & 0xFF != 0)
      case .int8: return .int(Int64(Int8(truncatingIfNeeded: word)))
      case .uint8: return .int(Int64(UInt8(truncatingIfNeeded: word)))
      case .int16: return .int(Int64(Int16(truncatingIfNeeded: word)))
      case .uint16: return .int(Int64(UInt16(truncatingIfNeeded: word)))
      case .int32: return .int(Int64(Int32(truncatingIfNeeded: word)))
      case .uint32: return .int(Int64(UInt32(truncatingIfNeeded: word)))
      case .int64, .uint64, .size, .pointer: return .int(Int64(bitPattern: word))
      case .float: return .double(Double(raw.load(as: Float.self)))
      case .double: return .double(raw.load(as: Double.self))
      case .string, .buffer, .outString: return .nil
      }
    }
    return (value, outString.map { String(cString: $0) })
  }
}

/// Why a call was refused before or after it ran: one line, without the function's name (the
/// caller adds it).
public struct FunctionCallFailure: Error, Equatable, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
