/// Every test `patchbay validate` runs, in the order it runs them; each with a level from 1
/// (fast, always) to 10 (everything, most iterations).
///
/// ```swift
/// ValidationSuite.tests(strictness: 5, only: nil).map(\.name)   // load.descriptor, load.again, …
/// ```
package enum ValidationSuite {
  package static let all: [ValidationTest] =
    load + lifecycle + schema + state + changedFields + fuzz + determinism + render + processor
    + realtime
    + parameters + threads + functions + isolation

  /// The tests a run at `strictness` runs, or the one named `only` whatever its level.
  package static func tests(strictness: Int, only: String?) -> [ValidationTest] {
    if let only { return Self.all.filter { $0.name == only } }
    return Self.all.filter { $0.level <= strictness }
  }

  package static func test(named name: String) -> ValidationTest? {
    Self.all.first { $0.name == name }
  }
}
