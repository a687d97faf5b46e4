import Foundation
import Testing

/// The host stays a shape a successor can take over: small targets and files, and one kind of
/// lock, each lock named with its owner and its reason in docs/ARCHITECTURE.md.
@Suite struct HostShapeTests {
  /// The targets of the host product (Package.swift's `host`), and the threads' shared parts.
  static let hostTargets = [
    "PatchbayAppQueue", "PatchbayLoader", "PatchbayFunctions", "PatchbayConfig",
    "PatchbayIsolation", "PatchbayStateDiff", "PatchbayPersistence", "PatchbayHost",
    "PatchbayWatch", "PatchbayAudioGraph", "PatchbayScript", "PatchbayAudioDevice", "PatchbayMIDI",
    "PatchbayRealtime", "PatchbayDevTools", "PatchbayPlot", "PatchbaySharedBoard",
    "PatchbayRouting", "PatchbayFlight", "PatchbayInstanceTree", "PatchbayAppError",
    "PatchbayFunctionTable", "PatchbayDigest",
  ]

  /// Every Swift file of the host's targets: its target, its path in the target, its text.
  static func hostFiles() throws -> [(target: String, file: String, text: String)] {
    try self.hostTargets.flatMap { target in
      let folder = "\(CheckTests.root)/Sources/\(target)"
      let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String }
      return try (files ?? []).filter { $0.hasSuffix(".swift") }.sorted().map {
        (target, $0, try String(contentsOfFile: "\(folder)/\($0)", encoding: .utf8))
      }
    }
  }

  /// Every host target is at most 3,000 lines, and every file at most 300.
  @Test func everyTargetAndFileOfTheHostIsSmall() throws {
    let files = try Self.hostFiles()
    #expect(Set(files.map(\.target)).count == Self.hostTargets.count)
    var lines: [String: Int] = [:]
    for (target, file, text) in files {
      let count = text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
      lines[target, default: 0] += count
      #expect(count <= 300, "Sources/\(target)/\(file) is \(count) lines; split it by concept")
    }
    for (target, count) in lines.sorted(by: { $0.key < $1.key }) {
      #expect(count <= 3000, "Sources/\(target) is \(count) lines; give a concept a target")
    }
  }

  /// Every target of the project (the core and the SDK too, C included) is at most 3,000 lines.
  @Test func everyTargetIsSmall() throws {
    let sources = "\(CheckTests.root)/Sources"
    let targets = try FileManager.default.contentsOfDirectory(atPath: sources)
      .filter { $0 != "PatchbaySDK" }  // the SDK package's folders link to the targets
    #expect(targets.contains("PatchbayCore") && targets.count > 30)
    for target in targets {
      let folder = "\(sources)/\(target)"
      let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String }
      let code = (files ?? []).filter { file in
        [".swift", ".c", ".h"].contains { file.hasSuffix($0) }
      }
      let lines = try code.reduce(0) { total, file in
        let text = try String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8)
        return total + text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
      }
      #expect(lines <= 3000, "Sources/\(target) is \(lines) lines; give a concept a target")
    }
  }

  /// docs/ARCHITECTURE.md's table of the host's locks is every lock the host declares (a
  /// `LockedValue` in a host target; no other kind), so a new one comes with its owner and its
  /// reason.
  @Test func everyLockOfTheHostIsInTheTable() throws {
    let root = CheckTests.root
    let architecture = try String(contentsOfFile: "\(root)/docs/ARCHITECTURE.md", encoding: .utf8)
    let start = try #require(architecture.range(of: "<!-- host-locks -->\n"))
    let end = try #require(architecture.range(of: "\n<!-- /host-locks -->"))
    let listed = Set(
      architecture[start.upperBound..<end.lowerBound].split(separator: "\n").dropFirst(2)
        .compactMap { $0.firstMatch(of: /^\| `([^`]+)`/).map { String($0.1) } })
    var declared: Set<String> = []
    var otherKinds: [String] = []
    for (target, file, text) in try Self.hostFiles() {
      let type = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
      for line in text.split(separator: "\n") where !line.contains("///") {
        if let match = line.firstMatch(of: /let (\w+)(: [^=]+)? = LockedValue\b/) {
          declared.insert("\(type).\(match.1)")
        }
        if line.contains(/\b(Mutex|NSLock|NSCondition|NSRecursiveLock|pthread_mutex_t)\b/) {
          otherKinds.append("\(target)/\(file): \(line.trimmingCharacters(in: .whitespaces))")
        }
      }
    }
    #expect(declared.count > 3)
    #expect(
      declared == listed,
      "docs/ARCHITECTURE.md's lock table is \(listed.sorted()); the host declares \(declared.sorted())"
    )
    #expect(otherKinds.isEmpty, "one kind of lock (LockedValue): \(otherKinds)")
    #expect(declared.count <= 8, "at most 8 locks in the host: \(declared.sorted())")
  }
}
