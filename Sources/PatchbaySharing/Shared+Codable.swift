import Dependencies
import Foundation
import PatchbayCore

/// Which key keeps a shared value, as a plugin's state keeps it: the key's kind, and its name
/// or file.
enum SharedKeyID: Sendable, Equatable {
  case inMemory(String)
  case fileStorage(URL)
}

/// A plugin's state is `Codable`: it is snapshotted, swapped and recorded. A `@Shared` in it
/// keeps its key beside its value, so the state read back holds the same shared value, not a
/// copy of it:
///
/// ```
/// tally: {inMemory: "tally", value: 3}
/// settings: {fileStorage: "/home/me/settings.json", value: {volume: 0.5}}
/// ```
///
/// Read back, the value the key keeps wins over the one in the bytes (a holder that is still
/// there, or the app's value, which the host hands the new instance). A value no key keeps
/// (`Shared(value:)`), or a part of one (`Shared($settings.volume)`), is kept as its value
/// alone, and read back as a value of its own: keep the whole keyed value in a plugin's state
/// to keep it shared across a swap.
extension Shared: Codable where Value: Codable {
  private enum CodingKeys: String, CodingKey {
    case inMemory, fileStorage, value
  }

  public func encode(to encoder: any Encoder) throws {
    switch self.reference.keyID {
    case .inMemory(let name)?:
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(name, forKey: .inMemory)
      try container.encode(self.wrappedValue, forKey: .value)
    case .fileStorage(let url)?:
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(url.path, forKey: .fileStorage)
      try container.encode(self.wrappedValue, forKey: .value)
    case nil:
      try self.wrappedValue.encode(to: encoder)
    }
  }

  public init(from decoder: any Decoder) throws {
    if let container = try? decoder.container(keyedBy: CodingKeys.self) {
      if let name = try container.decodeIfPresent(String.self, forKey: .inMemory) {
        let value = try container.decode(Value.self, forKey: .value)
        self.init(reference: InMemoryStorage.forKeys.decodedBox(named: name, value: value))
        return
      }
      if let path = try container.decodeIfPresent(String.self, forKey: .fileStorage) {
        let value = try container.decode(Value.self, forKey: .value)
        self.init(wrappedValue: value, .fileStorage(URL(fileURLWithPath: path)))
        return
      }
    }
    self.init(value: try Value(from: decoder))
  }
}

extension SharedReader: Codable where Value: Codable {
  public func encode(to encoder: any Encoder) throws {
    try self.shared.encode(to: encoder)
  }

  public init(from decoder: any Decoder) throws {
    self.init(try Shared(from: decoder))
  }
}
