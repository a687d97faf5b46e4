import Foundation
import Testing

/// Runs the `patchbay` executable (or another, such as `realtime-check`) that `swift build`
/// put beside this test binary.
struct CLI {
  struct Result {
    let exitCode: Int32
    let stdout: String
    let stderr: String
  }

  static let directory: String = {
    let executable =
      (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
      ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: executable).deletingLastPathComponent().path
  }()

  /// Runs `patchbay` on a Dispatch thread, so waiting for it never blocks the test pool; in
  /// `folder` when one is given, else in the test's own.
  static func run(
    executable: String = "patchbay", _ arguments: String..., environment: [String: String] = [:],
    in folder: String? = nil
  ) async throws -> Result {
    try await self.run(
      executable: executable, arguments: arguments, environment: environment, in: folder)
  }

  /// Runs `executable` with `arguments` given as an array.
  static func run(
    executable: String = "patchbay", arguments: [String], environment: [String: String] = [:],
    in folder: String? = nil
  ) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(
          with: Swift.Result {
            try self.runBlocking(executable, arguments, environment: environment, in: folder)
          })
      }
    }
  }

  /// The WebAssembly build of the host tests' fixture `Tests/PatchbayHostTests/Wasm/Fixtures/
  /// <name>.c`, made by wasm-cc into `folder` as `<Name>.wasm`; its path.
  static func wasmFixture(_ name: String, in folder: String) async throws -> String {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().path
    let output = "\(folder)/\(name.prefix(1).uppercased() + name.dropFirst()).wasm"
    let built = try await self.run(
      executable: "../../../Sources/PatchbayWasmGuest/wasm-cc", "-o", output,
      "\(root)/Tests/PatchbayHostTests/Wasm/Fixtures/\(name).c")
    try #require(built.exitCode == 0, "\(built.stderr)")
    return output
  }

  /// Where the commands' flight files go: the runs that crash or hang on purpose leave theirs,
  /// and this folder goes when the tests end.
  static let flights: String = {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("patchbay-cli-tests-\(getpid())").path
    atexit { try? FileManager.default.removeItem(atPath: CLI.flights) }
    return folder
  }()

  private static func runBlocking(
    _ executable: String, _ arguments: [String], environment: [String: String], in folder: String?
  ) throws
    -> CLI.Result
  {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "\(self.directory)/\(executable)")
    process.currentDirectoryURL = folder.map { URL(fileURLWithPath: $0) }
    process.arguments = arguments
    var env = ProcessInfo.processInfo.environment
    env["PATCHBAY_FLIGHT_DIR"] = Self.flights
    env.merge(environment) { $1 }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Both pipes are read at once: a child that fills one while the test reads the other to
    // its end would wait forever.
    let stderrRead = DispatchGroup()
    nonisolated(unsafe) var stderr = Data()
    DispatchQueue.global().async(group: stderrRead) {
      stderr = err.fileHandleForReading.readDataToEndOfFile()
    }
    let stdout = out.fileHandleForReading.readDataToEndOfFile()
    stderrRead.wait()
    process.waitUntilExit()
    return CLI.Result(
      exitCode: process.terminationStatus,
      stdout: String(decoding: stdout, as: UTF8.self),
      stderr: String(decoding: stderr, as: UTF8.self)
    )
  }
}
