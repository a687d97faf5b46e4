import Foundation
import PatchbayRealtime
import Synchronization
import Testing

/// Fills the first `count` floats with the sequence numbers `first`, `first + 1`, … in their bits.
private func stamp(_ buffer: UnsafeMutableBufferPointer<Float>, from first: Int, count: Int) {
  for index in 0..<count {
    buffer[index] = Float(bitPattern: UInt32(truncatingIfNeeded: first + index))
  }
}

/// How many of the first `count` floats do not carry the sequence numbers from `first` on.
private func countMismatches(in buffer: UnsafeBufferPointer<Float>, from first: Int, count: Int)
  -> Int
{
  var bad = 0
  for index in 0..<count where buffer[index].bitPattern != UInt32(truncatingIfNeeded: first + index)
  { bad += 1 }
  return bad
}

/// When a two-thread test gives up: a ring that loses or withholds an element must fail the
/// test, never hang it. Far beyond the seconds the tests take with every core busy (about 10):
/// it stops a hang, and asserts nothing about speed (Benchmarks/ measures the ring's).
private struct Deadline: Sendable {
  let end = ContinuousClock.now.advanced(by: .seconds(600))
  var isPast: Bool { ContinuousClock.now >= self.end }
}

/// The two-thread tests yield whenever the ring is full (or empty), so the other side — and the
/// rest of the test run, on a 2-core machine — gets the core instead of a spinning thread.
/// Moves `total` sequence-numbered floats from a producer thread to a consumer thread: the
/// producer stamps blocks of 1, 2, … `producerBlock` floats (then 1 again) and hands each to
/// `put`; the consumer calls `take` with a buffer of `consumerBlock` floats and the size of its
/// next block (1, 2, … `consumerBlock`, capped at what is left), which returns how many it
/// filled. Both give up (`put` returns false, `take` nil) once the deadline passes. Returns how
/// many floats arrived, how many of them were out of sequence, and whether the deadline passed.
private func moveSequence(
  total: Int, producerBlock: Int, consumerBlock: Int,
  put: @escaping @Sendable (UnsafeBufferPointer<Float>, Deadline) -> Bool,
  take: @escaping @Sendable (UnsafeMutableBufferPointer<Float>, Int, Deadline) -> Int?
) async -> (received: Int, mismatches: Int, timedOut: Bool) {
  let deadline = Deadline()
  let mismatches = Atomic<Int>(0)
  let received = Atomic<Int>(0)
  let consumerDone = Atomic<Bool>(false)
  let producer = Thread {
    var block = [Float](repeating: 0, count: producerBlock)
    var sequence = 0
    var size = 1
    while sequence < total {
      let count = min(size, total - sequence)
      block.withUnsafeMutableBufferPointer { stamp($0, from: sequence, count: count) }
      let accepted = block.withUnsafeBufferPointer {
        put(UnsafeBufferPointer(rebasing: $0[0..<count]), deadline)
      }
      guard accepted else { return }
      sequence += count
      size = size % producerBlock + 1
    }
  }
  let consumer = Thread {
    var block = [Float](repeating: 0, count: consumerBlock)
    var expected = 0
    var bad = 0
    var size = 1
    while expected < total {
      guard
        let count = block.withUnsafeMutableBufferPointer({
          take($0, min(size, total - expected), deadline)
        })
      else { break }
      bad += block.withUnsafeBufferPointer { countMismatches(in: $0, from: expected, count: count) }
      expected += count
      size = size % consumerBlock + 1
    }
    mismatches.store(bad, ordering: .relaxed)
    received.store(expected, ordering: .relaxed)
    consumerDone.store(true, ordering: .releasing)
  }
  producer.start()
  consumer.start()
  while !consumerDone.load(ordering: .acquiring) { try? await Task.sleep(for: .milliseconds(20)) }
  return (
    received.load(ordering: .relaxed), mismatches.load(ordering: .relaxed), deadline.isPast
  )
}

/// One at a time: each two-thread test keeps two threads spinning, and three at once would hold
/// both cores of a small machine from the rest of the run.
@Suite(.serialized) struct SPSCRingTests {
  @Test func capacityIsAPowerOfTwo() {
    #expect(SPSCRing<Float>(minimumCapacity: 1).capacity == 1)
    #expect(SPSCRing<Float>(minimumCapacity: 5).capacity == 8)
    #expect(SPSCRing<Float>(minimumCapacity: 4096).capacity == 4096)
  }

  @Test func fullAndEmptyEdges() {
    let ring = SPSCRing<Float>(minimumCapacity: 8)
    #expect(ring.availableToRead == 0)
    #expect(ring.availableToWrite == 8)
    #expect(ring.pop() == nil)
    var out = [Float](repeating: -1, count: 4)
    #expect(out.withUnsafeMutableBufferPointer { ring.read(into: $0) } == 0)

    let ten: [Float] = (0..<10).map(Float.init)
    #expect(ten.withUnsafeBufferPointer { ring.write($0) } == 8)  // only what fits
    #expect(ring.availableToWrite == 0)
    #expect(ring.push(99) == false)
    #expect(ring.availableToRead == 8)

    #expect(out.withUnsafeMutableBufferPointer { ring.read(into: $0) } == 4)
    #expect(out == [0, 1, 2, 3])
    // Wraps: 4 free at the start of the storage.
    #expect([Float](repeating: 7, count: 4).withUnsafeBufferPointer { ring.write($0) } == 4)
    var all = [Float](repeating: -1, count: 9)
    #expect(all.withUnsafeMutableBufferPointer { ring.read(into: $0) } == 8)
    #expect(Array(all.prefix(8)) == [4, 5, 6, 7, 7, 7, 7, 7])
    #expect(ring.availableToRead == 0)
    #expect(ring.push(1) && ring.push(2))
    #expect(ring.pop() == 1)
    #expect(ring.pop() == 2)
    #expect(ring.pop() == nil)
  }

  @Test func wholeBlocksAllOrNothing() {
    let ring = SPSCRing<Float>(minimumCapacity: 8)
    let five: [Float] = [1, 2, 3, 4, 5]
    #expect(five.withUnsafeBufferPointer { ring.writeAll($0) })
    // 3 free: a 4-element block does not go in, and nothing of it does.
    #expect(![Float](repeating: 9, count: 4).withUnsafeBufferPointer { ring.writeAll($0) })
    #expect(ring.availableToRead == 5)
    var six = [Float](repeating: -1, count: 6)
    #expect(!six.withUnsafeMutableBufferPointer { ring.readAll(into: $0) })
    #expect(six == [Float](repeating: -1, count: 6))  // untouched
    #expect(ring.availableToRead == 5)
    var two = [Float](repeating: -1, count: 2)
    #expect(two.withUnsafeMutableBufferPointer { ring.readAll(into: $0) })
    #expect(two == [1, 2])
    // 5 free, split at the wrap (indices 5…7, then 0…1).
    #expect([Float](arrayLiteral: 6, 7, 8, 9, 10).withUnsafeBufferPointer { ring.writeAll($0) })
    var eight = [Float](repeating: -1, count: 8)
    #expect(eight.withUnsafeMutableBufferPointer { ring.readAll(into: $0) })
    #expect(eight == [3, 4, 5, 6, 7, 8, 9, 10])
    #expect(ring.availableToRead == 0)
    // Empty blocks always succeed.
    #expect([Float]().withUnsafeBufferPointer { ring.writeAll($0) })
  }

  /// 2 × 10^6 floats in whole blocks, the producer's of 1…500 floats and the consumer's of
  /// 1…333, so blocks straddle each other and the wrap: every float arrives once, in order.
  @Test func twoThreadsMoveWholeBlocksInOrder() async {
    let ring = SPSCRing<Float>(minimumCapacity: 1024)
    let (received, mismatches, timedOut) = await moveSequence(
      total: 2_000_000, producerBlock: 500, consumerBlock: 333,
      put: { block, deadline in
        while !ring.writeAll(block) {
          if deadline.isPast { return false }
          sched_yield()
        }
        return true
      },
      take: { buffer, wanted, deadline in
        while !ring.readAll(into: UnsafeMutableBufferPointer(rebasing: buffer[0..<wanted])) {
          if deadline.isPast { return nil }
          sched_yield()
        }
        return wanted
      })
    #expect(!timedOut)
    #expect(received == 2_000_000)
    #expect(mismatches == 0)
    #expect(ring.availableToRead == 0)
  }

  @Test func zeroCopyRegionsSplitAtTheWrap() {
    let ring = SPSCRing<Int>(minimumCapacity: 8)
    for value in 0..<6 { ring.push(value) }
    for _ in 0..<6 { _ = ring.pop() }
    let (first, second) = ring.writableRegions()  // indices 6, 7 then 0…5
    #expect(first.count == 2)
    #expect(second.count == 6)
    for index in 0..<2 { first[index] = 100 + index }
    for index in 0..<3 { second[index] = 102 + index }
    ring.commitWrite(5)
    let (readFirst, readSecond) = ring.readableRegions()
    #expect(Array(readFirst) == [100, 101])
    #expect(Array(readSecond) == [102, 103, 104])
    ring.commitRead(3)
    #expect(ring.pop() == 103)
    #expect(ring.availableToRead == 1)
  }

  /// 10^7 floats through a 4096-float ring in blocks of 1…777, each float carrying its
  /// sequence number in its bits: every one arrives, once, in order, across ~2,400 wraps.
  @Test func twoThreadsMoveTenMillionFloatsInOrder() async {
    let ring = SPSCRing<Float>(minimumCapacity: 4096)
    let (received, mismatches, timedOut) = await moveSequence(
      total: 10_000_000, producerBlock: 777, consumerBlock: 500,
      put: { block, deadline in
        var written = 0
        while written < block.count {
          let now = ring.write(UnsafeBufferPointer(rebasing: block[written...]))
          if now == 0 {
            if deadline.isPast { return false }
            sched_yield()
          }
          written += now
        }
        return true
      },
      take: { buffer, _, deadline in
        let count = ring.read(into: buffer)
        if count == 0 {
          if deadline.isPast { return nil }
          sched_yield()
        }
        return count
      })
    #expect(!timedOut)
    #expect(received == 10_000_000)
    #expect(mismatches == 0)
    #expect(ring.availableToRead == 0)
  }

  /// The same for 32-byte events pushed and popped one at a time.
  @Test func twoThreadsMoveTwoMillionEventsInOrder() async {
    struct Event: BitwiseCopyable {
      var sequence: UInt64; var check: UInt64; var padding: (UInt64, UInt64)
    }
    let total: UInt64 = 2_000_000
    let ring = SPSCRing<Event>(minimumCapacity: 1024)
    let deadline = Deadline()
    let mismatches = Atomic<Int>(0)
    let received = Atomic<UInt64>(0)
    let done = Atomic<Bool>(false)
    let producer = Thread {
      var sequence: UInt64 = 0
      while sequence < total, !deadline.isPast {
        if ring.push(Event(sequence: sequence, check: ~sequence, padding: (sequence, 0))) {
          sequence += 1
        } else {
          sched_yield()
        }
      }
    }
    let consumer = Thread {
      var expected: UInt64 = 0
      var bad = 0
      while expected < total {
        guard let event = ring.pop() else {
          if deadline.isPast { break }
          sched_yield()
          continue
        }
        if event.sequence != expected || event.check != ~expected || event.padding.0 != expected {
          bad += 1
        }
        expected += 1
      }
      mismatches.store(bad, ordering: .relaxed)
      received.store(expected, ordering: .relaxed)
      done.store(true, ordering: .releasing)
    }
    producer.start()
    consumer.start()
    while !done.load(ordering: .acquiring) { try? await Task.sleep(for: .milliseconds(20)) }
    #expect(!deadline.isPast)
    #expect(received.load(ordering: .relaxed) == total)
    #expect(mismatches.load(ordering: .relaxed) == 0)
    #expect(ring.availableToRead == 0)
  }
}
