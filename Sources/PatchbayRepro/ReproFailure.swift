/// A failure as `patchbay repro` compares them: its kind, the feature and the call. Two runs
/// fail the same way when these three are the same, whatever the rest of the report says
/// (the instance, the action, how long).
///
/// ```swift
/// ReproFailure(report: "patchbay: a plugin crashed the app with SIGSEGV (invalid memory "
///   + "access) in its reduce: feature dev.patchbay.x (/p/libX.so), instance a, action go. …")
/// // kind "SIGSEGV", feature "dev.patchbay.x", call "reduce"
/// ```
package struct ReproFailure: Equatable, Sendable, CustomStringConvertible {
  /// `SIGSEGV`, `SIGABRT`, …; `hang`; `refused` (the reduce returned an error); `nan` (a
  /// processor wrote NaN or infinite samples and was muted).
  package let kind: String
  package let feature: String
  package let call: String

  package init(kind: String, feature: String, call: String) {
    self.kind = kind
    self.feature = feature
    self.call = call
  }

  /// The failure a host's report line says; nil for a line that reports none.
  package init?(report line: String) {
    if let rest = line.after("a plugin crashed the app with ") {
      guard let (feature, call) = Self.featureAndCall(rest) else { return nil }
      self.init(kind: String(rest.prefix { $0 != " " }), feature: feature, call: call)
    } else if let rest = line.after("a plugin call did not return within ") {
      guard let (feature, call) = Self.featureAndCall(rest) else { return nil }
      self.init(kind: "hang", feature: feature, call: call)
    } else if let marker = line.firstRange(of: ": reduce failed: ") {
      // "[patchbay: ][path: ]dev.patchbay.x: reduce failed: …": the word before the marker.
      let feature = line[..<marker.lowerBound].split(separator: " ").last ?? ""
      let reason = line[marker.upperBound...]
      // An isolated plugin's crash or hang fails the reduce it was in, and says so.
      let kind =
        reason.contains(" hung: ") ? "hang" : reason.contains(" crashed") ? "crash" : "refused"
      self.init(kind: kind, feature: String(feature), call: "reduce")
    } else if line.contains("its processor wrote NaN or infinite samples") {
      // "[patchbay: ]dev.patchbay.x: …": the feature first.
      let named = line.hasPrefix("patchbay: ") ? line.dropFirst("patchbay: ".count) : line[...]
      self.init(kind: "nan", feature: String(named.prefix { $0 != ":" }), call: "process")
    } else {
      return nil
    }
  }

  /// "in its reduce: feature dev.patchbay.x (…)" → (dev.patchbay.x, reduce).
  private static func featureAndCall(_ text: Substring) -> (String, String)? {
    guard let call = text.after("in its "), let feature = call.after(": feature ") else {
      return nil
    }
    return (String(feature.prefix { $0 != " " }), String(call.prefix { $0 != ":" }))
  }

  package var description: String {
    let what =
      switch self.kind {
      case "hang": "a hang"
      case "refused": "a refusal"
      case "nan": "NaN or infinite samples"
      default: self.kind
      }
    return "\(what) in \(self.feature)'s \(self.call)"
  }
}

extension StringProtocol {
  /// What follows the first `marker`; nil when it is not there.
  fileprivate func after(_ marker: String) -> SubSequence? {
    self.firstRange(of: marker).map { self[$0.upperBound...] }
  }
}
