# Makes studio.mid: the keyboard part of `make studio` (host-config/studio.script), at 120 BPM.
#   0-8 s    a melody over the Practice screen's chords (C G Am F), channel 1
#   8-12 s   notes and a volume change, while the MIDI Monitor is open
#   12-22 s  the ten chords the Chord Trainer asks for, each in another inversion
# The trainer's questions come from a generator in its state (ChordTrainer.draw): this script
# runs the same one, from the same seed, so the song answers what will be asked.
# python3 make-studio.py  (writes studio.mid beside this file)
import os

import smf

tpq = 480               # ticks a quarter note; 120 BPM: a tick is 1/960 s
SECOND = 960
events = []             # (tick, bytes)


def note(start, length, pitch, velocity=80, channel=0):
    events.append((start, bytes([0x90 | channel, pitch, velocity])))
    events.append((start + length, bytes([0x80 | channel, pitch, 0])))


# A melody in eighths over C G Am F, twice (8 s).
melody = [72, 76, 79, 76, 74, 79, 83, 79, 72, 76, 81, 76, 72, 77, 81, 77]
for bar in range(2):
    for index, pitch in enumerate(melody):
        note(bar * 8 * SECOND // 2 + index * SECOND // 4, SECOND // 4 - 24, pitch)

# While the monitor is open: a few notes and channel 1's volume.
for index, pitch in enumerate([60, 64, 67, 72, 67, 64]):
    note(8 * SECOND + index * SECOND // 2, SECOND // 3, pitch, velocity=70 + 5 * index)
events.append((11 * SECOND, bytes([0xB0, 7, 80])))

# The trainer's ten chords: C major first (its initial question), then what draw() picks.
seed = 0x5EED
MASK = 2**64 - 1


def draw(previous):
    global seed
    target = previous
    while target == previous:
        seed = (seed * 6364136223846793005 + 1442695040888963407) & MASK
        pick = (seed >> 33) % 24
        target = (pick // 2, pick % 2 == 1)
    return target


target = (0, False)
for index in range(10):
    root, minor = target
    pitches = [60 + root, 60 + root + (3 if minor else 4), 60 + root + 7]
    for _ in range(index % 3):          # inversion 0, 1, 2, 0, …
        pitches.append(pitches.pop(0) + 12)
    for pitch in pitches:
        note(12 * SECOND + SECOND // 2 + index * SECOND, SECOND * 6 // 10, pitch, velocity=64)
    target = draw(target)



smf.write(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'studio.mid'), events)
