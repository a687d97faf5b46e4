import Foundation

/// Where a Swift feature's source is: the file that declares its `@Feature` type, the type's
/// name, and the module it is built into. `patchbay repro` writes a `TestStore` test when it
/// finds one, and a test through the built plugin when it does not.
///
/// ```swift
/// let source = FeatureSource.find(
///   "dev.patchbay.fixture.lock", plugin: "/tmp/app/libLock.so", from: "/work/patchbay")
/// source?.type     // "Lock"
/// source?.module   // "NumberedFixture"
/// source?.file     // "/work/patchbay/Plugins/Fixtures/Numbered/Lock.swift"
/// ```
///
/// SwiftPM lists each target's sources in its build folder (`<Target>.build/sources`). The
/// build folders looked in: the plugin's own folder, when it is one, then those of the package
/// around `folder` (`.build/debug`, `.build/release`). A file there declares the feature when it
/// says `static let id = "<the id>"` below an `@Feature` attribute and its `struct`.
package struct FeatureSource: Equatable, Sendable {
  package var file: String
  package var type: String
  package var module: String
  /// Whether the type is `public` (the test imports the module plainly, else `@testable`).
  package var isPublic: Bool

  /// What a search for a feature's source came to.
  package enum Search: Sendable {
    case found(FeatureSource)
    case notFound
    /// The test is to go through the built plugin whatever the source.
    case notLookedFor
  }

  package static func find(_ feature: String, plugin: String?, from folder: String)
    -> FeatureSource?
  {
    var buildFolders: [String] = []
    if let plugin {
      buildFolders.append(URL(fileURLWithPath: plugin).deletingLastPathComponent().path)
    }
    if let package = Self.package(around: folder) {
      buildFolders += ["debug", "release"].map { "\(package)/.build/\($0)" }
    }
    for buildFolder in buildFolders {
      for (module, sources) in Self.targets(in: buildFolder) {
        for file in sources where file.hasSuffix(".swift") {
          guard let text = try? String(contentsOfFile: file, encoding: .utf8),
            let found = Self.declaration(of: feature, in: text)
          else { continue }
          return FeatureSource(
            file: file, type: found.type, module: module, isPublic: found.isPublic)
        }
      }
    }
    return nil
  }

  /// The nearest folder at or above `folder` with a `Package.swift`.
  static func package(around folder: String) -> String? {
    var url = URL(fileURLWithPath: folder).standardizedFileURL
    while true {
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
        return url.path
      }
      let parent = url.deletingLastPathComponent()
      if parent.path == url.path { return nil }
      url = parent
    }
  }

  /// Each target built in `buildFolder`, with the source files SwiftPM lists for it.
  static func targets(in buildFolder: String) -> [(module: String, sources: [String])] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: buildFolder)) ?? []
    return names.sorted().compactMap { name in
      guard name.hasSuffix(".build"),
        let list = try? String(contentsOfFile: "\(buildFolder)/\(name)/sources", encoding: .utf8)
      else { return nil }
      let sources = list.split(separator: "\n").map {
        // SwiftPM escapes spaces in the list.
        $0.replacingOccurrences(of: "\\ ", with: " ")
      }
      return (String(name.dropLast(".build".count)), sources)
    }
  }

  /// The `@Feature` type in `text` whose `id` is `feature`, and whether it is public: the
  /// type whose braces hold the `static let id = "<feature>"`.
  static func declaration(of feature: String, in text: String) -> (type: String, isPublic: Bool)? {
    guard text.contains("\"\(feature)\""), text.contains("@Feature") else { return nil }
    let id = try! Regex(#"static\s+let\s+id(\s*:\s*String)?\s*=\s*"([^"]*)""#)
    let declared = try! Regex(#"@Feature\b[\s\S]*?\b(public\s+)?(final\s+)?struct\s+(\w+)[^{]*$"#)
    for match in text.matches(of: id) where match.output[2].substring.map(String.init) == feature {
      guard let header = Self.header(enclosing: match.range.lowerBound, in: text),
        let type = text[header].firstMatch(of: declared), let name = type.output[3].substring
      else { continue }
      return (String(name), type.output[1].substring != nil)
    }
    return nil
  }

  /// What comes before the `{` of the declaration whose braces hold `position`, back to the
  /// brace before it: its attributes, modifiers and name. Braces in comments and strings do
  /// not count.
  static func header(enclosing position: String.Index, in text: String) -> Range<String.Index>? {
    var open: [String.Index] = []
    var boundaries: [String.Index] = [text.startIndex]
    var index = text.startIndex
    while index < position {
      let rest = text[index...]
      if rest.hasPrefix("//") {
        index = rest.firstIndex(of: "\n") ?? position
        continue
      }
      switch text[index] {
      case "\"":
        // To the closing quote, past escaped ones; a multi-line string's quotes pair up too.
        var end = text.index(after: index)
        while end < position, text[end] != "\"" {
          end =
            text.index(end, offsetBy: text[end] == "\\" ? 2 : 1, limitedBy: position) ?? position
        }
        index = end
      case "{":
        open.append(index)
        boundaries.append(index)
      case "}":
        if !open.isEmpty { open.removeLast() }
        boundaries.append(index)
      default: break
      }
      index = text.index(index, offsetBy: 1, limitedBy: position) ?? position
    }
    guard let brace = open.last,
      let start = boundaries.last(where: { $0 < brace })
    else { return nil }
    return start..<brace
  }
}
