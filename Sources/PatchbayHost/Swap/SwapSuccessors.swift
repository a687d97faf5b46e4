import PatchbayLoader

/// A swap's new implementations, made before the swap holds the app's actions (docs/SWAP.md,
/// "What a swap holds"). Making one — snapshot, `migrate`, `create` — costs tens of
/// microseconds, so they are made in jobs of a few instances, between which actions reduce as
/// usual. The held job then only switches each instance to its successor; it makes again only
/// the successors of instances that reduced an action (or were swapped or restored) since.
///
/// ```swift
/// let successors = SwapSuccessors(to: alt)
/// for batch in batches { try app.perform { try successors.make(for: batch) } }  // actions go on
/// let old = try app.perform { try successors.switchAll(counters) }   // held: a few moves each
/// app.perform {                                                       // after the hold
///   old.forEach { $0.destroy() }
///   counters.forEach { $0.reapRetired() }   // replaced code kept only if it runs an effect
/// }
/// ```
///
/// On a failure nothing has switched: ``discard()`` destroys what was made. [executor]
final class SwapSuccessors {
  /// A successor and what it was made from: valid while its instance still runs `base` and
  /// has reduced nothing since (`version`).
  ///
  /// The handle is known by identity only: the caller holds the handles, and counting
  /// references to each of 10,000 is a cost the hold need not pay. `base` is held, so no
  /// other handle can be running it. Whether `base` may go on running its effects once
  /// replaced (`retires`) depends on the two implementations only, so it is asked here,
  /// before the hold, where touching `base` costs nothing that waits.
  private struct Made {
    let handle: ObjectIdentifier
    let base: Implementation
    let version: UInt64
    let next: Implementation
    let retires: Bool

    func isCurrent(for handle: FeatureHandle) -> Bool {
      self.base === handle.owned.implementation && self.version == handle.stateVersion
    }
  }

  /// How many instances one job makes successors for: about a millisecond of work, so an
  /// action sent meanwhile waits no longer than that.
  static let batch = 32

  let feature: LoadedFeature
  /// In the order made: most swaps switch the same instances in the same order.
  private var made: [Made] = []
  /// The successors switched to, with what they replaced: let go of after the hold (each
  /// release is a cache miss, 10,000 of them a millisecond).
  private var switched: [Made] = []
  /// Whether a successor's `create` asked for shared state ("patchbay.shared/1"), which the
  /// app applies once it switched to them.
  private(set) var askedForShared = false

  init(to feature: LoadedFeature) {
    self.feature = feature
  }

  /// Makes a successor for each of `handles` from its state now. Throws the first instance's
  /// refusal (the successors made so far stay, for ``discard()``). [executor]
  func make(for handles: some Sequence<FeatureHandle>) throws(FeatureCallError) {
    for handle in handles {
      self.made.append(try self.successor(of: handle))
    }
  }

  private func successor(of handle: FeatureHandle) throws(FeatureCallError) -> Made {
    let base = handle.owned.implementation
    let next = try base.successor(
      self.feature, limit: handle.limits.stateBytes, label: handle.label)
    // Its sends go to the handle from the start: none comes before the switch (its effects
    // start from a reduce, or from `resume_effects` at the switch), and a successor not
    // switched to is destroyed, which takes the handle away again.
    next.context.owned.inbox = handle
    if !next.context.owned.shared.isEmpty { self.askedForShared = true }
    return Made(
      handle: ObjectIdentifier(handle), base: base, version: handle.stateVersion, next: next,
      retires: base.canRetire(for: next))
  }

  /// Switches every one of `handles` to its successor — all of them, or on a failure none —
  /// making again those whose instance changed since. Returns the implementations to destroy
  /// once the hold ends: the replaced ones that cannot carry their effects over (the others
  /// are retired: reap each handle after), and successors no instance took. [executor]
  func switchAll(_ handles: [FeatureHandle]) throws(FeatureCallError) -> [Implementation] {
    var unused: [Implementation] = []
    do throws(FeatureCallError) {
      if !(self.made.count == handles.count
        && zip(self.made, handles).allSatisfy({ $0.handle == ObjectIdentifier($1) }))
      {
        unused = try self.align(to: handles)
      }
      // In place: most swaps make nothing again, and copy nothing.
      for index in self.stale(handles) {
        let fresh = try self.successor(of: handles[index])
        unused.append(self.made[index].next)
        self.made[index] = fresh
      }
    } catch {
      // None was switched to: every successor goes, the stale ones too.
      unused.forEach { $0.destroy() }
      self.discard()
      throw error
    }
    let made = self.made
    self.made = []
    var old = unused
    for index in handles.indices {
      if let replaced = handles[index].replace(
        with: made[index].next, keepingEffects: made[index].retires)
      {
        old.append(replaced)
      }
    }
    self.switched = made
    return old
  }

  /// The indices of the successors made from an older state than their instance's now (or
  /// from other code). Read through a local copy: the property's elements would each be
  /// retained around every call that might change it, and each retain is a cache miss.
  private func stale(_ handles: [FeatureHandle]) -> [Int] {
    let made = self.made
    return handles.indices.filter { !made[$0].isCurrent(for: handles[$0]) }
  }

  /// Puts the successors in the order of `handles` (instances came or went since they were
  /// made), making those missing. Returns the ones no handle takes. [executor]
  private func align(to handles: [FeatureHandle]) throws(FeatureCallError) -> [Implementation] {
    var byHandle = Dictionary(self.made.map { ($0.handle, $0) }, uniquingKeysWith: { $1 })
    var aligned: [Made] = []
    aligned.reserveCapacity(handles.count)
    do throws(FeatureCallError) {
      for handle in handles {
        if let made = byHandle.removeValue(forKey: ObjectIdentifier(handle)) {
          aligned.append(made)
        } else {
          aligned.append(try self.successor(of: handle))
        }
      }
    } catch {
      self.made = aligned + byHandle.values
      throw error
    }
    self.made = aligned
    return byHandle.values.map(\.next)
  }

  /// Destroys every successor made and not switched to. [executor]
  func discard() {
    self.made.forEach { $0.next.destroy() }
    self.made.removeAll()
  }
}
