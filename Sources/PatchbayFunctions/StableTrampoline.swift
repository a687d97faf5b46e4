import CFFI
import CPatchbayFFITrampolines
import Foundation

/// A code pointer that stays the same while the function behind it changes: what a plugin
/// gets from "patchbay.functions/1" (patchbay/functions.h).
///
/// ```swift
/// let trampoline = StableTrampoline(to: noteFrequency, signature: signature)
/// let f = unsafeBitCast(trampoline.pointer, to: (@convention(c) (Int32, Double) -> Double).self)
/// trampoline.retarget(to: newGeneration.pointer)          // f now runs the new code
/// ```
///
/// Where the platform allows it (x86-64, arm64) it is a 16-byte jump stub that loads its
/// target and jumps: every argument register passes through untouched, so it works for any
/// signature and adds one indirect jump. Elsewhere, or asked for, it is a libffi closure that
/// forwards with `ffi_call`. Retargeting is one atomic store; a call already running finishes
/// in the old code. Trampolines are never freed: a caller may hold one for as long as the
/// process lives.
///
/// `@unchecked Sendable`: it holds a C trampoline, whose target is swapped with one atomic
/// store (CPatchbayFFITrampolines), and an immutable prepared cif.
public final class StableTrampoline: @unchecked Sendable {
  public enum Kind: Sendable, CaseIterable {
    /// The signature-agnostic jump stub.
    case jumpStub
    /// A libffi closure forwarding through the signature's cif (portable).
    case libffiClosure

    var raw: patchbay_trampoline_kind {
      self == .jumpStub ? PATCHBAY_TRAMPOLINE_JUMP : PATCHBAY_TRAMPOLINE_CLOSURE
    }

    /// What new trampolines are: jump stubs where the platform has them, unless
    /// `PATCHBAY_PORTABLE_TRAMPOLINES=1` asks for closures.
    public static let `default`: Kind =
      ProcessInfo.processInfo.environment["PATCHBAY_PORTABLE_TRAMPOLINES"] == "1"
        || patchbay_trampoline_jump_supported() == 0
      ? .libffiClosure : .jumpStub
  }

  let raw: OpaquePointer
  /// The signature's cif, which the closure (and a zero function) call through: kept alive.
  let prepared: PreparedFunction

  /// A trampoline to `function`, a C function of `signature`; nil when memory runs out.
  public init?(
    to function: UnsafeRawPointer, signature: FunctionSignature, kind: Kind = .default
  ) {
    self.prepared = PreparedFunction(signature: signature)
    guard
      let raw = patchbay_trampoline_create(
        kind == .jumpStub && patchbay_trampoline_jump_supported() == 0
          ? PATCHBAY_TRAMPOLINE_CLOSURE : kind.raw,
        self.prepared.cif,
        unsafeBitCast(function, to: (@convention(c) () -> Void).self))
    else { return nil }
    self.raw = raw
    _ = Unmanaged.passRetained(self)  // never freed (see above)
  }

  /// The pointer callers call.
  public var pointer: UnsafeRawPointer {
    unsafeBitCast(patchbay_trampoline_code(self.raw), to: UnsafeRawPointer.self)
  }

  /// Where it jumps now.
  public var target: UnsafeRawPointer {
    unsafeBitCast(patchbay_trampoline_target(self.raw), to: UnsafeRawPointer.self)
  }

  public var kind: Kind {
    patchbay_trampoline_kind_of(self.raw) == PATCHBAY_TRAMPOLINE_JUMP ? .jumpStub : .libffiClosure
  }

  /// Jumps to `function` from the next call on (it must have the same signature).
  public func retarget(to function: UnsafeRawPointer) {
    patchbay_trampoline_retarget(
      self.raw, unsafeBitCast(function, to: (@convention(c) () -> Void).self))
  }

  /// From now on returns zero and calls `report`: the provider has left the app.
  package func abandon(report: @escaping @Sendable () -> Void) {
    let context = Unmanaged.passRetained(ZeroReport(report)).toOpaque()
    guard
      let zero = patchbay_zero_function(
        self.prepared.cif,
        { context in
          guard let context else { return }
          Unmanaged<ZeroReport>.fromOpaque(context).takeUnretainedValue().report()
        }, context)
    else { return }
    patchbay_trampoline_retarget(self.raw, zero)
  }
}

/// What an abandoned trampoline calls. Never freed (like the trampoline).
final class ZeroReport: Sendable {
  let report: @Sendable () -> Void
  init(_ report: @escaping @Sendable () -> Void) { self.report = report }
}
