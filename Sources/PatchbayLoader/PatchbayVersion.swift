import PatchbayABI

/// The host's version, and the plugin ABI it hosts: what `patchbay --version` prints.
///
/// ```swift
/// PatchbayVersion.description   // "patchbay 0.1.0 (plugin ABI 2.2)"
/// ```
public enum PatchbayVersion {
  /// The host's release.
  public static let host = "0.1.0"

  /// The ABI the host speaks, `major.minor` (`patchbay/core.h`): it loads plugins built
  /// against the same major (structs only grow, so an older minor loads too).
  public static let abi = "\(PATCHBAY_ABI_MAJOR).\(PATCHBAY_ABI_MINOR)"

  /// One line: `patchbay 0.1.0 (plugin ABI 2.2)`.
  public static let description = "patchbay \(host) (plugin ABI \(abi))"
}
