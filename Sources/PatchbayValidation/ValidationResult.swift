/// What one test found: PASS, FAIL or SKIP, what was checked (or why it was skipped, or what
/// went wrong), and for a failure the input that shows it.
package struct ValidationResult: Codable, Sendable, Equatable {
  package enum Status: String, Codable, Sendable {
    case pass = "PASS"
    case fail = "FAIL"
    case skip = "SKIP"
  }

  package var status: Status
  package var detail: String
  package var reproduction: Reproduction?

  package static func pass(_ detail: String) -> Self { Self(status: .pass, detail: detail) }
  package static func skip(_ why: String) -> Self { Self(status: .skip, detail: why) }
  package static func fail(_ detail: String, reproduction: Reproduction? = nil) -> Self {
    Self(status: .fail, detail: detail, reproduction: reproduction)
  }
}

/// The input that makes a test fail: the seed and the actions sent, shortest first, so that
/// `patchbay validate PLUGIN --only TEST --seed SEED` shows it again.
package struct Reproduction: Codable, Sendable, Equatable {
  package var seed: UInt64
  /// The action texts sent to a fresh instance, in order; the last one fails.
  package var actions: [String]
  /// The id of the feature they were sent to, when the child named it.
  package var feature: String?

  package init(seed: UInt64, actions: [String], feature: String? = nil) {
    self.seed = seed
    self.actions = actions
    self.feature = feature
  }

  /// `seed 7: increment; setStep(by: -9223372036854775808); increment`
  package var description: String {
    "seed \(self.seed)" + (self.actions.isEmpty ? "" : ": " + self.actions.joined(separator: "; "))
  }
}
