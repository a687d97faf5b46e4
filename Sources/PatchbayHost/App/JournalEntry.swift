import Patchbay
import PatchbayAppQueue
import PatchbayConfig
import PatchbayEncoding

/// One change of an app as its queue took it down for DevTools, raw: an action an instance
/// reduced (its bytes, not yet its text, and not its state), or any other change. Taking one
/// costs the queue two reads of the tick counter and an append under the lock it takes anyway
/// (``Journal``); the entry, its text, the state and the diff are made later, a batch at a
/// time, off the queue.
///
/// ```swift
/// app.journaling = true
/// try app.send("counter", "increment")
/// try app.perform { app.takeJournal() }.entries  // [.reduced(counter, increment, 5310 ticks…)]
/// ```
package enum JournalEntry: Sendable {
  case reduced(ReducedAction)
  /// Any other change, and when (``ReduceTiming/now``).
  case change(AppChange, at: UInt64)
}

/// An action an instance reduced, as its reduce left it: enough to say later, on the app
/// queue, what it was and what it changed.
///
/// `@unchecked Sendable`: `implementation` (the generation that reduced it: the text is its
/// own even after a swap) is only called by ``text()``, on its app queue; the rest is Sendable.
package struct ReducedAction: @unchecked Sendable {
  package let path: InstancePath
  let implementation: Implementation
  package let action: [UInt8]
  package let source: AppChange.Source
  package let timing: ReduceTiming

  /// The plugin generation that reduced it, as a key for texts already formatted (held, so
  /// that no later generation can have its identity). [any thread]
  package var generation: AnyObject { self.implementation }

  /// The action's text, as the generation that reduced it formats it. [app queue]
  package func text() -> String {
    (try? self.implementation.feature.formatAction(
      self.action, context: self.implementation.context)) ?? "\(self.action.count) bytes"
  }
}
