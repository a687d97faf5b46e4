import CPatchbayABI

/// A function a feature calls from another plugin ("patchbay.functions/1"), native or wasm,
/// as in the native SDK: declare it in `imports`; the SDK resolves it when an instance is
/// created, and the reducer calls it through its pointer.
///
///     static let imports = [
///       FunctionImport("dev.patchbay.theory-plugin", "note_frequency", "double(int32, double)")
///     ]
///     // in reduce:
///     if let pointer = ImportedFunctions.current.pointer("note_frequency") {
///       let noteFrequency = unsafeBitCast(
///         pointer, to: (@convention(c) (Int32, Double) -> Double).self)
///       state.frequency = noteFrequency(69, 440)
///     }
///
/// The pointer is an index into the module's function table (what a C function pointer is in
/// wasm32), whose function the host keeps pointing at the provider across its swaps. One that
/// could not be resolved is nil, and the host was told why. A module that declares one imports
/// the service, which `[sandbox]` must grant ("functions").
public struct FunctionImport {
  public let provider: StaticString
  public let name: StaticString
  public let signature: StaticString
  let resolve: Resolve

  @usableFromInline typealias Resolve = (
    UnsafePointer<pb_host>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?
  ) -> UnsafeRawPointer?

  @usableFromInline
  init(
    provider: StaticString, name: StaticString, signature: StaticString, resolve: @escaping Resolve
  ) {
    (self.provider, self.name, self.signature, self.resolve) = (provider, name, signature, resolve)
  }

  /// `signature` as patchbay/functions.h writes it: "double(int32, double)".
  @_alwaysEmitIntoClient
  public init(_ provider: StaticString, _ name: StaticString, _ signature: StaticString) {
    self.init(provider: provider, name: name, signature: signature, resolve: patchbay_resolve)
  }
}

/// The functions an instance resolved, by name: ``current``.
public struct ImportedFunctions {
  let resolved: [(name: StaticString, pointer: UnsafeRawPointer)]

  /// Resolves each of `imports` through the host.
  init(_ imports: [FunctionImport], host: UnsafePointer<pb_host>) {
    var resolved: [(name: StaticString, pointer: UnsafeRawPointer)] = []
    for function in imports {
      if let pointer = function.resolve(
        host, function.provider.cString, function.name.cString, function.signature.cString)
      {
        resolved.append((function.name, pointer))
      }
    }
    self.resolved = resolved
  }

  /// The pointer to `name`; nil when it was not resolved (or not declared).
  public func pointer(_ name: StaticString) -> UnsafeRawPointer? {
    resolved.first { $0.name.same(as: name) }?.pointer
  }

  /// The instance's functions. The host makes a module instance for each feature instance,
  /// so they are the module's: set when the instance is made (when it resolved any), and
  /// never swapped in and out around a reduce, which would cost every action of every
  /// feature (3 % more instructions for the Counter's increment).
  public nonisolated(unsafe) internal(set) static var current = ImportedFunctions()

  init() { resolved = [] }
}
