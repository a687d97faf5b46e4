import Dependencies
import PatchbayABI

#if canImport(Glibc)
  import Glibc
#endif

/// A function a Swift feature calls from another plugin ("patchbay.functions/1"): declare it
/// in ``PluginFeature/imports``; the SDK resolves it when an instance is created.
///
/// ```swift
/// public static let imports = [
///   FunctionImport("dev.patchbay.theory-plugin", "note_frequency", "double(int32, double)")
/// ]
/// @Dependency(\.importedFunctions) var functions
/// // in reduce:
/// let frequency = functions.pointer("note_frequency").map {
///   unsafeBitCast($0, to: (@convention(c) (Int32, Double) -> Double).self)(69, 440)
/// }
/// ```
///
/// The pointer is the host's stable trampoline: it keeps working across swaps of the
/// provider. A function that could not be resolved is missing (nil), and the host was told
/// why (its log).
public struct FunctionImport: Sendable, Equatable {
  public let provider: String
  public let name: String
  public let signature: String

  public init(_ provider: String, _ name: String, _ signature: String) {
    self.provider = provider
    self.name = name
    self.signature = signature
  }
}

/// The functions an instance resolved, by name.
///
/// A feature imports a handful, and `@Import` looks one up at every call: they are kept as
/// two arrays searched in order, which for a few short names (compared as small strings,
/// without hashing) is several times faster than a dictionary.
public struct ImportedFunctions: @unchecked Sendable {
  @usableFromInline let names: [String]
  @usableFromInline let pointers: [UnsafeRawPointer]

  public init(_ pointers: [String: UnsafeRawPointer] = [:]) {
    let sorted = pointers.sorted { $0.key < $1.key }
    self.names = sorted.map(\.key)
    self.pointers = sorted.map(\.value)
  }

  /// The stable pointer to `name`; nil when it was not resolved.
  @inlinable
  public func pointer(_ name: String) -> UnsafeRawPointer? {
    for index in self.names.indices where self.names[index] == name {
      return self.pointers[index]
    }
    return nil
  }
}

extension ImportedFunctions: DependencyKey {
  public static let liveValue = ImportedFunctions()
  public static let testValue = ImportedFunctions()
}

extension DependencyValues {
  /// The functions the feature's ``PluginFeature/imports`` resolved.
  public var importedFunctions: ImportedFunctions {
    get { self[ImportedFunctions.self] }
    set { self[ImportedFunctions.self] = newValue }
  }
}

extension HostConnection {
  /// Resolves `imports` through "patchbay.functions/1"; a missing one is logged.
  @usableFromInline
  func resolve(_ imports: [FunctionImport], for featureID: String) -> ImportedFunctions {
    guard !imports.isEmpty, let getService = self.host.pointee.get_service,
      let raw = getService(self.host, PB_SERVICE_FUNCTIONS)
    else {
      if !imports.isEmpty {
        self.log(PB_LOG_WARNING, "\(featureID): the host offers no functions to import")
      }
      return ImportedFunctions()
    }
    let service = raw.assumingMemoryBound(to: pb_functions_service.self)
    var pointers: [String: UnsafeRawPointer] = [:]
    for function in imports {
      let resolved = service.pointee.resolve?(
        self.host, function.provider, function.name, function.signature)
      if let resolved {
        pointers[function.name] = unsafeBitCast(resolved, to: UnsafeRawPointer.self)
      } else {
        self.log(
          PB_LOG_WARNING,
          "\(featureID): could not import \(function.provider).\(function.name) as \(function.signature)"
        )
      }
    }
    return ImportedFunctions(pointers)
  }
}

/// The functions of the instance whose action this thread is reducing: the SDK sets them
/// around each `reduce` of a feature with imports, so `@Import` reads them with a thread-local
/// load instead of a dependency lookup. Anywhere else (an effect's task, a test store) it is
/// the `importedFunctions` dependency.
extension ImportedFunctions {
  /// A reference to an instance's functions, for the thread-local slot.
  @usableFromInline
  final class Box {
    @usableFromInline let functions: ImportedFunctions
    @usableFromInline init(_ functions: ImportedFunctions) { self.functions = functions }
  }

  @usableFromInline
  static let slot: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
  }()

  /// Runs `body` with `box`'s functions current on this thread.
  @usableFromInline
  static func withCurrent<T>(_ box: Box, _ body: () -> T) -> T {
    let previous = pthread_getspecific(Self.slot)
    pthread_setspecific(Self.slot, Unmanaged.passUnretained(box).toOpaque())
    defer { pthread_setspecific(Self.slot, previous) }
    return body()
  }

  /// Runs `body` with `functions` current on this thread, as they are while an instance
  /// reduces (a benchmark, a tool).
  public static func withCurrent<T>(_ functions: ImportedFunctions, _ body: () -> T) -> T {
    Self.withCurrent(Box(functions), body)
  }

  /// The pointer `@Import` calls: the reducing instance's `name`, else the dependency's. It
  /// borrows the instance's functions in place (no reference counting), so a typed import costs
  /// a thread-local load and a short search more than a call through the pointer.
  @inlinable
  public static func currentPointer(_ name: String) -> UnsafeRawPointer? {
    if let raw = pthread_getspecific(Self.slot) {
      return Unmanaged<Box>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.functions.pointer(name) }
    }
    return Self.current.pointer(name)
  }

  /// The functions `@Import` calls: the reducing instance's, else the dependency's.
  public static var current: ImportedFunctions {
    if let raw = pthread_getspecific(Self.slot) {
      return Unmanaged<Box>.fromOpaque(raw).takeUnretainedValue().functions
    }
    return Dependency(\.importedFunctions).wrappedValue
  }
}
