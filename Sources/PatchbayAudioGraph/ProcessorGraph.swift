import CPatchbayCrash
import CPatchbaySampleChecks
import Foundation
import PatchbayABI
import PatchbayAudioDevice
import PatchbayRealtime
import Synchronization

/// The app's processors, as the audio thread renders them (docs/ARCHITECTURE.md, "Audio and MIDI").
///
/// The app queue adds, replaces and removes processors with their instances; each change
/// publishes a new immutable set that the audio thread picks up at its next period. A set or
/// processor taken out is freed on the app queue only once the ``PeriodGate`` shows the audio
/// thread has finished every period that might still use it. The audio thread never waits,
/// locks, allocates or frees.
///
/// ```swift
/// let graph = ProcessorGraph(format: AudioFormat(sampleRate: 48_000, channels: 2))
/// app.attach(graph)                              // every instance with a processor plays
/// AudioEngine(output: output, renderer: graph).start()
/// // or offline: graph.render(into: mix, frames: 128, steadyTime: 0)
/// ```
///
/// `@unchecked Sendable`: `slots` and `retired` are the app queue's (marked so below); the
/// audio thread reads only the published set (an atomic pointer to an immutable `SlotSet`),
/// the MIDI inbox (an SPSC ring) and its own period buffer; the gate is atomic.
public final class ProcessorGraph: AudioRenderer, @unchecked Sendable {
  public let format: AudioFormat
  /// Whether its periods go to a file rather than a device: processors in other processes
  /// are then waited for each period, so a render is the same every time.
  package let offline: Bool
  let gate = PeriodGate()
  /// The set the audio thread renders (a retained `SlotSet`), swapped atomically.
  private let published = Atomic<UnsafeMutableRawPointer?>(nil)
  /// MIDI for the processors. [producer: the MIDI pump or the offline renderer; consumer:
  /// the audio thread]
  let midiInbox = SPSCRing<ScheduledMIDI>(minimumCapacity: 4096)
  private let periodMIDI: UnsafeMutablePointer<pb_midi_event>
  /// What processors send to the processors after them (patchbay/process.h).
  let sentMIDI = SentMIDI()
  /// The mix's level, per channel, for a terminal's meter.
  package let meter = LevelMeter()
  /// The sound as a watcher sees it (DevTools): off until turned on.
  public let tap: SoundTap
  /// The node keys whose sound is heard (`patchbay render --solo drums`): the others' processors
  /// run as always, into a buffer no one hears. Empty: all. Set before the app is attached.
  public var solo: Set<String> = []
  private static let periodMIDICapacity = 512
  // App queue:
  private(set) var slots: [(key: ObjectIdentifier, slot: ProcessorSlot)] = []
  /// Processors taken out whose held notes the audio thread has not ended yet.
  private var releasing: [ProcessorSlot] = []
  private var retired: [(mark: UInt64, set: UnsafeMutableRawPointer?, slots: [ProcessorSlot])] =
    []

  public init(format: AudioFormat, offline: Bool = false) {
    self.format = format
    self.offline = offline
    self.tap = SoundTap(periodSamples: format.periodSamples)
    self.periodMIDI = .allocate(capacity: Self.periodMIDICapacity)
  }

  deinit {
    if let raw = self.published.exchange(nil, ordering: .acquiringAndReleasing) {
      Unmanaged<SlotSet>.fromOpaque(raw).release()
    }
    for entry in self.retired {
      entry.set.map { Unmanaged<SlotSet>.fromOpaque($0).release() }
    }
    for (_, slot) in self.slots { slot.descriptor.destroy?(slot.processor) }
    for entry in self.retired { entry.slots.forEach { $0.descriptor.destroy?($0.processor) } }
    self.periodMIDI.deallocate()
  }

  /// Events dropped so far because a processor pushed more than it declared, or the app queue
  /// fell a second behind. [thread-safe]
  public var droppedEvents: Int { self.dropped.count.load(ordering: .relaxed) }
  /// Shared with every slot, which counts what it drops here too.
  let dropped = DropCounter()

  /// Periods rendered, and processor calls made in them: equal counts with one processor
  /// playing mean it played every period (none lost to a swap). [thread-safe]
  public var periodsRendered: Int { self.periods.load(ordering: .relaxed) }
  public var processorCalls: Int { self.calls.load(ordering: .relaxed) }
  private let periods = Atomic<Int>(0)
  private let calls = Atomic<Int>(0)
  /// Samples of the mix beyond full scale, clipped to it, so far. [thread-safe]
  public var clippedSamples: Int { self.clipped.load(ordering: .relaxed) }
  /// The largest magnitude of a mixed sample so far, before clipping (1 is full scale).
  /// [thread-safe]
  public var peak: Float { Float(bitPattern: self.peakBits.load(ordering: .relaxed)) }
  private let clipped = Atomic<Int>(0)
  private let peakBits = Atomic<UInt32>(0)
  /// Whether the processors' samples are checked (NaN and infinities silenced, the processor
  /// muted) and the mix clipped: on, but where what each processor wrote must reach the mix
  /// as written (the validator's `processor.periods`), and in the benchmark that measures what
  /// the checks cost. Crash and hang reports name the processor either way. Set it before the
  /// graph renders.
  public var safetyChecks = true
  /// The steady frame + 1 of a period whose mix had NaN or infinities that no processor was
  /// found writing again (a processor that did it once). [written by the audio thread]
  let unattributedFault = Atomic<UInt64>(0)
  // Audio thread only: the per-processor checks after a bad mix.
  private var diagnosing = 0
  private var watched = false
  private var suspectFrame: UInt64 = 0
  private var culpritFound = false

  /// How many processors play now. [app queue]
  public var count: Int { self.slots.count }

  // MARK: The app side

  /// Adds, replaces (with `slot`) or removes (with nil) the processor of `key`, and publishes
  /// the new set. [app queue]
  func set(_ slot: ProcessorSlot?, for key: ObjectIdentifier) {
    var removed: [ProcessorSlot] = []
    if let index = self.slots.firstIndex(where: { $0.key == key }) {
      removed.append(self.slots[index].slot)
      if let slot { self.slots[index].slot = slot } else { self.slots.remove(at: index) }
    } else if let slot {
      self.slots.append((key, slot))
    }
    slot?.sentMIDI = self.sentMIDI
    self.publish(retiring: removed)
  }

  /// The processor of `key`, if it has one. [app queue]
  func slot(for key: ObjectIdentifier) -> ProcessorSlot? {
    self.slots.first { $0.key == key }?.slot
  }

  private func publish(retiring removed: [ProcessorSlot]) {
    // Processors that send MIDI play first: the others hear them in the same period. Those
    // taken out leave no note hanging: the audio thread sends note-offs for what they held,
    // in the first period of a set that lists them. Each set lists every one whose notes the
    // audio thread has not released yet: a set can be replaced before it ever plays.
    self.releasing += removed.filter(\.sendsMIDI)
    self.releasing.removeAll { $0.notesReleased.load(ordering: .acquiring) }
    // Effects (processors that insert) play last, on what the others made, in the app's order.
    let all = self.slots.map(\.slot)
    let set = SlotSet(
      all.filter(\.sendsMIDI) + all.filter { !$0.sendsMIDI && !$0.inserts } + all.filter(\.inserts),
      releasing: self.releasing)
    let old = self.published.exchange(
      Unmanaged.passRetained(set).toOpaque(), ordering: .sequentiallyConsistent)
    self.retired.append((self.gate.mark(), old, removed))
    self.collect()
  }

  /// Frees what the audio thread has let go of. [app queue]
  func collect() {
    self.retired.removeAll { entry in
      guard self.gate.hasPassed(entry.mark) else { return false }
      entry.set.map { Unmanaged<SlotSet>.fromOpaque($0).release() }
      for slot in entry.slots { slot.descriptor.destroy?(slot.processor) }
      return true
    }
  }

  /// Each playing instance's peak since the last call: what its processor added to the mix,
  /// while ``tap`` is on. [app queue]
  package func processorPeaks() -> [(path: String, peak: Float)] {
    self.slots.map { ($0.slot.path, $0.slot.takePeak()) }
  }

  /// How many sets and processors wait for the audio thread to let go. [app queue]
  var retiredCount: Int { self.retired.count }

  // MARK: The audio side

  /// Renders every processor into `mix` for one period, then checks the mix: NaN and
  /// infinities stay in a sum, so one pass a period sees any a processor wrote. They are set
  /// to 0, and for the next ``diagnosisPeriods`` periods each processor's output is checked
  /// right after its call, which finds and mutes the one writing them. Then the mix is
  /// clipped. [audio-thread]
  public func render(into mix: UnsafeMutablePointer<Float>, frames: Int, steadyTime: UInt64) {
    self.gate.enter()
    let checks = self.safetyChecks
    let diagnosing = checks && self.diagnosing > 0
    var caught = false
    let samples = frames * self.format.channels
    let tapping = self.tap.isOn && samples <= self.tap.capacity
    defer {
      if checks {
        self.guardMix(mix, samples: samples, at: steadyTime, caught: caught)
      }
      if tapping { self.tap.capture(mix, frames: frames, channels: self.format.channels) }
      self.gate.leave()
    }
    let midiCount = self.gatherMIDI(frames: frames, steadyTime: steadyTime)
    self.periods.add(1, ordering: .relaxed)
    if !self.watched {
      pb_watch_audio_thread(1)  // this thread renders: the watchdog watches its periods
      self.watched = true
    }
    pb_watch_period()
    guard let raw = self.published.load(ordering: .sequentiallyConsistent) else { return }
    let set = Unmanaged<SlotSet>.fromOpaque(raw).takeUnretainedValue()
    self.calls.add(set.count, ordering: .relaxed)
    self.sentMIDI.begin()
    if !set.released {
      set.released = true
      for index in 0..<set.releasingCount {
        set.releasing[index].takeUnretainedValue().releaseHeldNotes(into: self.sentMIDI)
      }
    }
    var (midi, count) = (UnsafePointer(self.periodMIDI), midiCount)
    for index in 0..<set.count {
      if index == set.senders {
        (midi, count) = self.sentMIDI.merged(with: UnsafePointer(self.periodMIDI), count: midiCount)
      }
      let slot = set.slots[index].takeUnretainedValue()
      if tapping { self.tap.before.update(from: mix, count: samples) }
      let muted = slot.render(
        into: mix, frames: frames, channels: self.format.channels,
        sampleRate: self.format.sampleRate, steadyTime: steadyTime,
        midi: midi, midiCount: count,
        checkSamples: diagnosing, faultFrame: self.suspectFrame)
      caught = caught || muted
      if tapping { slot.notePeak(pb_samples_added_peak(mix, self.tap.before, samples)) }
    }
  }

  /// `period 412 (at 1.099 s)`: the period starting at steady frame `frame`, as reports say it.
  func period(at frame: UInt64) -> String {
    let seconds = Double(frame) / Double(self.format.sampleRate)
    return
      "period \(frame / UInt64(self.format.periodFrames)) (at \(String(format: "%.3f", seconds)) s)"
  }

  /// Tells the watchdog the thread rendering has stopped (before it ends). [thread-safe]
  public func stopWatching() {
    pb_watch_audio_thread(0)
  }

  /// Periods of per-processor checks after a mix had NaN or infinities.
  public static let diagnosisPeriods = 16

  /// Sets the mix's NaN and infinities to 0 and starts (or goes on) checking each processor;
  /// when the checks end without finding one, notes the period for the app queue. Then clips.
  /// [audio-thread]
  private func guardMix(
    _ mix: UnsafeMutablePointer<Float>, samples: Int, at steadyTime: UInt64, caught: Bool
  ) {
    if caught { self.culpritFound = true }
    if pb_samples_any_nonfinite(mix, samples) {
      pb_samples_silence_nonfinite(mix, samples)
      if self.diagnosing == 0 {
        self.suspectFrame = steadyTime
        self.culpritFound = false
      }
      self.diagnosing = Self.diagnosisPeriods
    } else if self.diagnosing > 0 {
      self.diagnosing -= 1
      if self.diagnosing == 0, !self.culpritFound {
        self.unattributedFault.store(self.suspectFrame + 1, ordering: .releasing)
      }
    }
    self.clip(mix, samples: samples)
    self.meter.measure(mix, frames: samples / self.format.channels, channels: self.format.channels)
  }

  /// Clips the period's finite mix to full scale, before any output converts it, and counts
  /// what was beyond it. [audio-thread]
  private func clip(_ mix: UnsafeMutablePointer<Float>, samples: Int) {
    var peak = Float(bitPattern: self.peakBits.load(ordering: .relaxed))
    let clipped = pb_samples_clip(mix, samples, &peak)
    if clipped > 0 { self.clipped.add(clipped, ordering: .relaxed) }
    self.peakBits.store(peak.bitPattern, ordering: .relaxed)
  }

  /// Takes this period's MIDI out of the inbox, at frame offsets. An event for a later
  /// period stays. [audio-thread]
  private func gatherMIDI(frames: Int, steadyTime: UInt64) -> Int {
    var count = 0
    let end = steadyTime + UInt64(frames)
    while count < Self.periodMIDICapacity, let next = self.midiInbox.peek(), next.frame < end {
      _ = self.midiInbox.pop()
      var event = next.event
      event.frame = UInt32(next.frame > steadyTime ? next.frame - steadyTime : 0)
      self.periodMIDI[count] = event
      count += 1
    }
    return count
  }
}

/// A MIDI message for the processors, at the steady frame it plays at.
struct ScheduledMIDI: BitwiseCopyable {
  var frame: UInt64
  var event: pb_midi_event
}
