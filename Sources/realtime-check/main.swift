// realtime-check: proves the realtime paths allocate nothing, counting allocations per thread
// with ordo-one/malloc-interposer (linked in, so its malloc wins over libc's).
//
//   .build/debug/realtime-check        # exit 0 when every count is 0
//
// - the audio thread: 10,000 periods after 100 of warm-up, a producer thread feeding its ring,
//   writing to ALSA's null PCM through libasound;
// - the MIDI parser: 10^6 random bytes, events pushed into a ring;
// - the MIDI reader thread: 10^6 bytes read from a file, parsed, pushed into a ring;
// - the plugins' processors on the audio thread, in process and isolated;
// - JACK's process callback: 2,000 periods from a private `jackd -d dummy`.
import Foundation

do {
  exit(try RealtimeCheck.run())
} catch {
  print("realtime-check: \(error)")
  exit(2)
}
