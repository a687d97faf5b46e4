/// Where an instance lives in the app, parsed once: the root's key (`counter`), a screen's
/// `node#instance` (`echo#1`), a child under either (`practice#1/quiz`), a collection's
/// instance by its id (`home/tallies#a`).
///
/// ```swift
/// let path = InstancePath(parsing: "practice#1/quiz")!
/// path.segments.map(\.key)  // ["practice", "quiz"]
/// path.parent               // practice#1
/// path.matches(InstancePath(parsing: "practice/quiz")!)  // true: a short form
/// ```
///
/// The short forms a person types — `echo` for the only live `echo#n`, `practice/quiz` for
/// `practice#1/quiz`, `tallies#a` for `home/tallies#a` — are resolved by ``matches(_:)`` and
/// ``InstanceTree/resolve(_:)``, nowhere else.
public struct InstancePath: Hashable, Sendable, CustomStringConvertible {
  /// One step of a path: a node key, and which instance of it (a screen's number or a
  /// collection's id), if the node has several.
  public struct Segment: Hashable, Sendable, CustomStringConvertible {
    public var key: String
    public var instance: String?

    public init(key: String, instance: String? = nil) {
      self.key = key
      self.instance = instance
    }

    public var description: String { self.instance.map { "\(self.key)#\($0)" } ?? self.key }

    /// Whether `query` names this segment: the same key, and the same instance unless the
    /// query leaves it out.
    func isNamed(by query: Segment) -> Bool {
      self.key == query.key && (query.instance == nil || query.instance == self.instance)
    }
  }

  public private(set) var segments: [Segment]

  public init(_ segments: [Segment]) {
    precondition(!segments.isEmpty, "an instance path has at least one segment")
    self.segments = segments
  }

  /// The root instance of the node `key`.
  public init(root key: String) {
    self.init([Segment(key: key)])
  }

  /// Parses `a#1/b/c#x`; nil when a segment or its key is empty.
  public init?(parsing text: String) {
    var segments: [Segment] = []
    for part in text.split(separator: "/", omittingEmptySubsequences: false) {
      let pieces = part.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
      guard let key = pieces.first, !key.isEmpty else { return nil }
      if pieces.count == 2, pieces[1].isEmpty { return nil }
      segments.append(
        Segment(key: String(key), instance: pieces.count == 2 ? String(pieces[1]) : nil))
    }
    guard !segments.isEmpty else { return nil }
    self.segments = segments
  }

  public var description: String { self.segments.map(\.description).joined(separator: "/") }

  /// The last segment: the instance's own node.
  public var last: Segment { self.segments[self.segments.count - 1] }

  /// The path of the instance this one lives under; nil for a top-level instance.
  public var parent: InstancePath? {
    self.segments.count > 1 ? InstancePath(Array(self.segments.dropLast())) : nil
  }

  /// The path of the instance `key` (with `instance`) under this one.
  public func appending(_ key: String, instance: String? = nil) -> InstancePath {
    InstancePath(self.segments + [Segment(key: key, instance: instance)])
  }

  /// Whether this path is `ancestor` or lives under it.
  public func isWithin(_ ancestor: InstancePath) -> Bool {
    self.segments.count >= ancestor.segments.count
      && Array(self.segments.prefix(ancestor.segments.count)) == ancestor.segments
  }

  /// The path with every instance left out: `practice#1/quiz` → `practice/quiz`.
  public var shortForm: String { self.segments.map(\.key).joined(separator: "/") }

  /// Whether `query` names this path in full form (every segment, instances optional).
  public func matches(_ query: InstancePath) -> Bool {
    self.segments.count == query.segments.count
      && zip(self.segments, query.segments).allSatisfy { $0.isNamed(by: $1) }
  }

  /// Whether `query` names this path's last segments (`tallies#a` for `home/tallies#a`).
  public func ends(with query: InstancePath) -> Bool {
    self.segments.count >= query.segments.count
      && zip(self.segments.suffix(query.segments.count), query.segments).allSatisfy {
        $0.isNamed(by: $1)
      }
  }
}
