/// Code that can say why a call of one of its plugin's functions failed, where a native
/// function cannot: a WebAssembly plugin's function that traps returns zero to its caller, and
/// says why here. ``LoadedFunction/call(_:)`` watches each call it makes, and turns what it
/// hears into its error.
///
/// ```swift
/// function.faults?.watch()
/// let result = try prepared.call(pointer, values)
/// if let fault = function.faults?.endWatch() { throw … }   // "ran out of fuel: …"
/// ```
///
/// A call nobody watches (a plugin's, through a resolved pointer) is reported by the code
/// itself, as its logs are.
package protocol FunctionFaults: AnyObject, Sendable {
  /// From now on, a failed call on this thread is kept for ``endWatch()``, not reported.
  func watch()
  /// Stops watching this thread; why a call failed meanwhile, if one did.
  func endWatch() -> String?
}
