import CustomDump
import PatchbayComposition
import PatchbayCore

/// Text for an alert, a dialog or a button, as plain data that tests compare by value
/// (swift-navigation's `TextState`).
///
/// ```swift
/// let title = TextState("Delete ") + TextState("3 items").bold() + TextState("?")
/// String(state: title)  // "Delete 3 items?"
/// ```
public struct TextState: Equatable, Hashable, Sendable {
  /// A run of text with its emphasis.
  struct Run: Equatable, Hashable, Sendable {
    var text: String
    var emphasis: Set<Emphasis> = []
  }

  /// How a run is drawn; a terminal shows only some of them.
  public enum Emphasis: String, Hashable, Sendable, CaseIterable {
    case bold, italic, monospaced, strikethrough, underline
  }

  var runs: [Run]

  /// Text shown as written.
  public init(_ content: some StringProtocol) {
    self.runs = [Run(text: String(content))]
  }

  /// Text shown as written (TCA's `verbatim:`; nothing here is localized).
  public init(verbatim content: String) {
    self.init(content)
  }

  /// The text, without its emphasis.
  public var string: String { self.runs.map(\.text).joined() }

  /// The two texts one after the other, each keeping its emphasis.
  public static func + (lhs: Self, rhs: Self) -> Self {
    var joined = lhs
    joined.runs += rhs.runs
    return joined
  }

  private func with(_ emphasis: Emphasis, _ isOn: Bool) -> Self {
    var copy = self
    for index in copy.runs.indices {
      if isOn {
        copy.runs[index].emphasis.insert(emphasis)
      } else {
        copy.runs[index].emphasis.remove(emphasis)
      }
    }
    return copy
  }

  public func bold(isActive: Bool = true) -> Self { self.with(.bold, isActive) }
  public func italic(isActive: Bool = true) -> Self { self.with(.italic, isActive) }
  public func monospaced(isActive: Bool = true) -> Self { self.with(.monospaced, isActive) }
  public func strikethrough(isActive: Bool = true) -> Self { self.with(.strikethrough, isActive) }
  public func underline(isActive: Bool = true) -> Self { self.with(.underline, isActive) }
}

extension TextState: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) {
    self.init(value)
  }
}

extension TextState: CustomStringConvertible, CustomDumpRepresentable {
  public var description: String { self.string }
  /// Dumped as its string, as TCA's test failures show it.
  public var customDumpValue: Any { self.string }
}

extension String {
  /// The text of `state`, without its emphasis.
  public init(state: TextState) {
    self = state.string
  }
}
