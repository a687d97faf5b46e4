/// Every test `patchbay validate` runs, in the order it runs them; each with a level from 1
/// (fast, always) to 10 (everything, most iterations).
///
/// ```swift
/// ValidationSuite.tests(strictness: 5, only: nil).map(\.name)   // load.descriptor, load.again, …
/// ```
public enum ValidationSuite {
  public static let all: [ValidationTest] =
    load + lifecycle + schema + state + fuzz + determinism + render + processor + realtime
    + parameters + threads + functions + isolation

  /// The tests a run at `strictness` runs, or the one named `only` whatever its level.
  public static func tests(strictness: Int, only: String?) -> [ValidationTest] {
    if let only { return Self.all.filter { $0.name == only } }
    return Self.all.filter { $0.level <= strictness }
  }

  public static func test(named name: String) -> ValidationTest? {
    Self.all.first { $0.name == name }
  }
}
