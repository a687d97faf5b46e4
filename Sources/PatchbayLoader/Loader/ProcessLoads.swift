import Patchbay

/// What this process has loaded, across loaders and apps: the one lock of the loader.
///
/// ```swift
/// let generation = ProcessLoads.nextGeneration(of: "/…/libCounter.so")   // 1, then 2, …
/// let handle = try ProcessLoads.whileLoading { libraries in
///   // check the plugin's sibling libraries against `libraries`, copy, dlopen, record
/// }
/// ```
///
/// Its lock is held for the whole of a load (linking a plugin's sibling libraries, `dlopen`,
/// recording them), so two plugins loading at once cannot both claim a library's name; a
/// plugin's constructors, which run inside `dlopen`, never load another plugin.
enum ProcessLoads {
  struct Records {
    /// The sibling libraries loaded for plugins, by name (the first of each name stays).
    var libraries: [String: SiblingLibraries.Library] = [:]
    /// Loads per file, for generation numbers.
    var loads: [String: Int] = [:]
  }

  private static let records = LockedValue(Records())

  /// The generation number of the next load of `file`: 1 for its first.
  static func nextGeneration(of file: String) -> Int {
    self.records.withValue { records in
      records.loads[file, default: 0] += 1
      return records.loads[file]!
    }
  }

  /// Runs `load` with the libraries loaded so far, one load at a time.
  static func whileLoading<T, E: Error>(
    _ load: (inout [String: SiblingLibraries.Library]) throws(E) -> T
  ) throws(E) -> T {
    try self.records.withValue { records throws(E) in try load(&records.libraries) }
  }
}
