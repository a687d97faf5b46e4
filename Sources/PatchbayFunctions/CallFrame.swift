/// The C arguments of one libffi call, being laid out: a zeroed 16-byte slot per argument (a
/// buffer or an out_string takes two), the list of pointers to them `ffi_call` takes, and the
/// copies (strings, buffers, an out_string's room) that must live until the call returns.
///
/// ```swift
/// let frame = CallFrame(count: 2)
/// defer { frame.release() }
/// frame.next().storeBytes(of: Int32(69), as: Int32.self)
/// frame.next().storeBytes(of: 440.0, as: Double.self)
/// prepared.callRaw(function, arguments: frame.pointers, result: &result)
/// ```
package struct CallFrame {
  package let pointers: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  private let slots: UnsafeMutableRawPointer
  private var used = 0
  private var owned: [UnsafeMutableRawPointer] = []

  package init(count: Int) {
    self.slots = .allocate(byteCount: max(1, count) * 16, alignment: 16)
    self.slots.initializeMemory(as: UInt8.self, repeating: 0, count: max(1, count) * 16)
    self.pointers = .allocate(capacity: max(1, count))
  }

  /// The next argument's slot (zeroed), now in ``pointers``.
  package mutating func next() -> UnsafeMutableRawPointer {
    let slot = self.slots + self.used * 16
    self.pointers[self.used] = slot
    self.used += 1
    return slot
  }

  /// A copy of `bytes` (at least one byte long) that lives until ``release()``.
  package mutating func copy(_ bytes: [UInt8]) -> UnsafeMutableRawPointer {
    let copy = UnsafeMutableRawPointer.allocate(byteCount: max(1, bytes.count), alignment: 1)
    copy.initializeMemory(as: UInt8.self, repeating: 0, count: 1)
    copy.copyMemory(from: bytes, byteCount: bytes.count)
    self.owned.append(copy)
    return copy
  }

  /// Frees the slots and the copies: after the call has returned.
  package func release() {
    self.slots.deallocate()
    self.pointers.deallocate()
    self.owned.forEach { $0.deallocate() }
  }
}
