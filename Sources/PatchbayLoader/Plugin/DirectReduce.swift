import CPatchbayCrash
import PatchbayABI

/// The `reduce` of an instance in this process, as a C call the host makes itself: the
/// plugin's function, its instance pointer and the names a crash report gives. The host's
/// send calls it with no Swift dispatch between it and the plugin (no protocol witness, no
/// class of the loader's), noted for crash reports as ``PluginInstance/reduce(_:)`` is.
///
/// ```swift
/// if let direct = instance.directReduce {
///   direct(bytes)              // PB_OK: the same as instance.reduce(bytes)
/// }
/// ```
///
/// Valid while its instance is: the pointers belong to the instance's code and its handle,
/// which outlive it.
@frozen
public struct DirectReduce {
  @usableFromInline let function:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int) -> pb_status
  @usableFromInline let instance: UnsafeMutableRawPointer
  /// "id (original file)" and the instance's path: what a crash report names.
  @usableFromInline let feature: UnsafePointer<CChar>
  @usableFromInline let label: UnsafePointer<CChar>?

  init(
    _ function:
      @escaping @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int)
      -> pb_status,
    instance: UnsafeMutableRawPointer, feature: UnsafePointer<CChar>,
    label: UnsafePointer<CChar>?
  ) {
    (self.function, self.instance, self.feature, self.label) = (function, instance, feature, label)
  }

  /// Reduces the encoded action `action`: the plugin's status.
  @inlinable @inline(__always)
  public func callAsFunction(_ action: [UInt8]) -> pb_status {
    let call = UnsafeRawPointer(("reduce" as StaticString).utf8Start)
    let saved = pb_crash_enter(self.feature, self.label, call.assumingMemoryBound(to: CChar.self))
    defer { pb_crash_leave(saved) }
    return action.withUnsafeBufferPointer {
      self.function(self.instance, $0.baseAddress, $0.count)
    }
  }
}
