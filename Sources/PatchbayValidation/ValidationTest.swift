/// One check `patchbay validate` runs on a built plugin, as the host will use it: a name for
/// `--only`, the lowest strictness that runs it, what it checks in one line, and the check.
///
/// ```swift
/// ValidationTest("state.round-trip", level: 3, "snapshot → create → snapshot is byte-identical") {
///   context in
///   … return .pass("200 states round-tripped")
/// }
/// ```
///
/// A check throws ``ValidationFailure`` (or any error) to fail; a crash or hang of the plugin is
/// caught by the runner, which runs every test in a child process of its own.
package struct ValidationTest: Sendable {
  package let name: String
  package let level: Int
  package let summary: String
  /// Whether it runs in `patchbay-probe`, the child that counts allocations, locks and system
  /// calls (``RealtimeProbe``), instead of in `patchbay validate --child`.
  package let inProbe: Bool
  /// Whether it checks what only a plugin in this process shows (the calls its processor
  /// makes, the memory it touches, the functions it exports, which run in their caller's
  /// process), so an isolated run cannot be compared with it.
  package let inProcessOnly: Bool
  let check: @Sendable (ValidationContext) throws -> ValidationResult

  package init(
    _ name: String, level: Int, inProbe: Bool = false, inProcessOnly: Bool = false,
    _ summary: String, check: @escaping @Sendable (ValidationContext) throws -> ValidationResult
  ) {
    self.name = name
    self.level = level
    self.summary = summary
    self.inProbe = inProbe
    self.inProcessOnly = inProcessOnly || inProbe
    self.check = check
  }

  /// Runs the check, turning a thrown error into a failure.
  package func run(_ context: ValidationContext) -> ValidationResult {
    do {
      return try self.check(context)
    } catch let failure as ValidationFailure {
      return .fail(failure.message, reproduction: failure.reproduction)
    } catch {
      return .fail("\(error)")
    }
  }
}

/// A check that found a problem: what, and the smallest input that shows it.
package struct ValidationFailure: Error, Sendable {
  package let message: String
  package let reproduction: Reproduction?

  package init(_ message: String, reproduction: Reproduction? = nil) {
    self.message = message
    self.reproduction = reproduction
  }
}
