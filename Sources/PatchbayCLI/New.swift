import ArgumentParser
import Foundation
import PatchbayRebuild
import PatchbayTemplates

/// `patchbay new NAME [--path DIR] [--wasm swift|c]`: an out-of-tree plugin package.
struct New: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Create a plugin package that builds a loadable lib<Name>.so.",
    discussion: """
      The package depends on the Patchbay SDK by path (<checkout>/Sources/PatchbaySDK; --patchbay \
      names the checkout, default: the one this executable was built from). Then:
        cd DIR/Name && swift build
        patchbay inspect .build/debug/libName.so
      With --wasm swift (Embedded Swift) or --wasm c, a WebAssembly plugin instead: its source, \
      a Makefile that builds Name.wasm with the checkout's wasm-swiftc or wasm-cc, an app of \
      it, and a test script:
        cd DIR/Name && make test
      """
  )

  @Argument(help: "The plugin's name, a Swift identifier starting with a capital: Metronome.")
  var name: String

  @Option(help: "The folder to create the package in.")
  var path: String = "."

  @Option(help: "The Patchbay checkout to depend on.")
  var patchbay: String?

  @Option(
    help: """
      The feature's reverse-DNS id (default: com.example.<name>); the plugin's is it plus \
      -plugin. Use a domain of yours: ids are unique among the plugins an app loads.
      """)
  var id: String?

  @Option(
    help: """
      Write a WebAssembly plugin, in swift (Embedded Swift) or c, built by make into Name.wasm \
      (docs/WASM.md).
      """)
  var wasm: WasmPluginTemplate.Language?

  /// The feature id: --id, or one derived from the name.
  var featureID: String { self.id ?? "com.example.\(self.name.lowercased())" }

  func validate() throws {
    guard let first = self.name.unicodeScalars.first, CharacterSet.uppercaseLetters.contains(first),
      self.name.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) })
    else {
      throw ValidationError(
        "'\(self.name)' is not a plugin name: use letters and digits, starting with a capital (Metronome)."
      )
    }
    let parts = self.featureID.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count >= 2,
      parts.allSatisfy({ part in
        !part.isEmpty && part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
      })
    else {
      throw ValidationError(
        "--id '\(self.featureID)' is not a reverse-DNS id: write words joined by dots, as com.example.metronome."
      )
    }
  }

  func run() throws {
    guard
      let root = self.patchbay.map({ URL(fileURLWithPath: $0).standardizedFileURL })
        ?? findPatchbayCheckout()
    else {
      throw CommandFailure(
        "cannot find the Patchbay checkout this executable came from; pass --patchbay DIR."
      )
    }
    guard FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path)
    else {
      throw CommandFailure(
        "\(root.path) has no Package.swift; pass --patchbay DIR (a Patchbay checkout).")
    }
    let package = URL(fileURLWithPath: self.path).appendingPathComponent(self.name)
    if FileManager.default.fileExists(atPath: package.path) {
      throw CommandFailure("\(package.path) already exists; choose another --path or name.")
    }
    let files =
      self.wasm.map {
        WasmPluginTemplate(
          name: self.name, language: $0, patchbayRoot: root.path, featureID: self.featureID
        ).files
      } ?? PluginTemplate(name: self.name, patchbayRoot: root.path, featureID: self.featureID).files
    for (relative, contents) in files {
      let file = package.appendingPathComponent(relative)
      try FileManager.default.createDirectory(
        at: file.deletingLastPathComponent(), withIntermediateDirectories: true
      )
      try contents.write(to: file, atomically: true, encoding: .utf8)
    }
    Terminal.out("Created \(package.path)")
    Terminal.out("Next:")
    if self.wasm != nil {
      Terminal.out(
        "  cd \(package.path) && make test   # builds \(self.name).wasm, runs test.script")
      return
    }
    Terminal.out("  cd \(package.path) && make inspect   # builds in \(root.path)/.build: seconds")
    Terminal.out("  (or swift build, in .build here: over a minute the first time)")
  }
}

/// The Patchbay checkout above this executable (it lives in <checkout>/.build/…).
func findPatchbayCheckout() -> URL? {
  var folder = URL(fileURLWithPath: executableDirectory())
  while folder.path != "/" {
    if isPatchbayCheckout(folder) { return folder }
    folder.deleteLastPathComponent()
  }
  return nil
}

extension WasmPluginTemplate.Language: ExpressibleByArgument {}
