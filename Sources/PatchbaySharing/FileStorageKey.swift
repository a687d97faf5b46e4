import Dependencies
import Foundation
import PatchbayCore

/// A key that keeps its value in a file as JSON, written atomically (a new file renamed over
/// the old) after each change, and read back when the app starts again.
///
/// ```swift
/// @Shared(.fileStorage(URL(fileURLWithPath: "settings.json"))) var settings = Settings()
/// ```
///
/// A file that does not decode is reported, with its path and the decoder's reason, and the
/// default value is used; the next change writes a good file over it.
public struct FileStorageKey<Value: Codable>: SharedKey {
  public let url: URL
  let storage: FileStorage

  public func box(default defaultValue: () -> Value) -> _SharedReference<Value> {
    self.storage.box(at: self.url, default: defaultValue)
  }
}

extension SharedKey {
  /// In the file at `url`, as JSON: `@Shared(.fileStorage(url)) var settings = Settings()`.
  public static func fileStorage<Value>(_ url: URL) -> Self where Self == FileStorageKey<Value> {
    @Dependency(\.defaultFileStorage) var storage
    return FileStorageKey(url: url, storage: storage)
  }
}

/// The file-backed values of an app, by file: every `@Shared` of one file shares one value.
/// Each test gets its own (the files are real: give a test its own folder).
public final class FileStorage: Sendable {
  private let boxes = SharedBoxes<URL>()

  public init() {}

  func box<Value: Codable>(at url: URL, default defaultValue: () -> Value)
    -> _SharedReference<Value>
  {
    let url = url.standardizedFileURL
    return self.boxes.box(url, named: ".fileStorage(\(url.path))") {
      SharedBox(Self.read(Value.self, from: url) ?? defaultValue(), keyID: .fileStorage(url)) {
        value in Self.write(value, to: url)
      }
    }.box
  }

  static func read<Value: Decodable>(_: Value.Type, from url: URL) -> Value? {
    guard let data = try? Data(contentsOf: url) else { return nil }
    do {
      return try JSONDecoder().decode(Value.self, from: data)
    } catch {
      runtimeWarn(
        """
        @Shared(.fileStorage): \(url.path) does not hold a \(Value.self): \(error). The default \
        value is used, and the next change writes over the file. Fix or delete the file to \
        keep what it holds.
        """, fileID: #fileID, filePath: #filePath, line: #line, column: #column)
      return nil
    }
  }

  static func write<Value: Encodable>(_ value: Value, to url: URL) {
    do {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try encoder.encode(value).write(to: url, options: .atomic)
    } catch {
      runtimeWarn(
        """
        @Shared(.fileStorage): could not write \(url.path): \(error). The value stays in memory; \
        make the folder writable to keep it.
        """, fileID: #fileID, filePath: #filePath, line: #line, column: #column)
    }
  }
}

private enum FileStorageKeyDependency: DependencyKey {
  static let liveValue = FileStorage()
  static var testValue: FileStorage { FileStorage() }
}

extension DependencyValues {
  /// Where `.fileStorage` keys keep their values in memory while the app runs: one for the
  /// app, a new one per test.
  public var defaultFileStorage: FileStorage {
    get { self[FileStorageKeyDependency.self] }
    set { self[FileStorageKeyDependency.self] = newValue }
  }
}
