// patchbay-fuzz under libFuzzer: the entry points libFuzzer calls.
//
// Built by `make fuzz` with `-sanitize=fuzzer,address -DFUZZING -parse-as-library`, this is a
// libFuzzer binary; PATCHBAY_FUZZ_TARGET names the parser (value, action-text, toml, midi,
// smf) and libFuzzer's own flags follow:
//
//     PATCHBAY_FUZZ_TARGET=midi .build-fuzz/release/patchbay-fuzz -runs=1000000 corpus/midi
//
// Built plainly (`swift build`), it replays files instead (Replay.swift).
#if FUZZING
  import Foundation
  import PatchbayFuzzTargets

  nonisolated(unsafe) private var target: FuzzTarget?

  /// The program's entry point: SwiftPM links an executable's `main` to
  /// `<module>_main`, so libFuzzer's own `main` is not used; its driver is called instead.
  @_cdecl("patchbay_fuzz_main")
  public func fuzzMain(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
  ) -> CInt {
    typealias Driver =
      @convention(c) (
        UnsafeMutablePointer<CInt>,
        UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
      ) -> CInt
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "LLVMFuzzerRunDriver") else {
      complain("libFuzzer is not linked in: build with -sanitize=fuzzer (make fuzz)")
      return 2
    }
    var count = argc
    var arguments = argv
    return unsafeBitCast(symbol, to: Driver.self)(&count, &arguments, testOneInput)
  }

  @_cdecl("LLVMFuzzerInitialize")
  public func initialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
  ) -> CInt {
    let name = ProcessInfo.processInfo.environment["PATCHBAY_FUZZ_TARGET"] ?? ""
    guard let chosen = FuzzTarget(rawValue: name) else {
      let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
      complain("set PATCHBAY_FUZZ_TARGET to one of: \(names)")
      exit(2)
    }
    target = chosen
    return 0
  }

  @_cdecl("LLVMFuzzerTestOneInput")
  public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    do {
      try target!.check(input)
    } catch {
      fatalError("\(error)")
    }
    return 0
  }
#endif
