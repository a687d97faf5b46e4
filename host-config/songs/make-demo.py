# Makes demo.mid: 8 bars at 120 BPM, a melody on channel 1 and a bass line on channel 2.
# python3 make-demo.py  (writes demo.mid beside this file)
import os

import smf

tpq = 480
melody = [  # (start in eighths, length in eighths, note)
    (0, 2, 72), (2, 2, 76), (4, 2, 79), (6, 2, 76), (8, 2, 74), (10, 2, 77), (12, 4, 81),
    (16, 2, 79), (18, 2, 76), (20, 2, 72), (22, 2, 76), (24, 2, 74), (26, 2, 71), (28, 4, 72),
    (32, 2, 72), (34, 2, 76), (36, 2, 79), (38, 2, 84), (40, 2, 83), (42, 2, 79), (44, 4, 77),
    (48, 2, 76), (50, 2, 74), (52, 2, 72), (54, 2, 71), (56, 8, 72)]
bass = [(bar * 8, 7, note) for bar, note in enumerate([48, 50, 53, 48, 48, 55, 53, 48])]
events = []
for start, length, note in melody:
    events.append((start * tpq // 2, bytes([0x90, note, 96])))
    events.append(((start + length) * tpq // 2 - 24, bytes([0x80, note, 0])))
for start, length, note in bass:
    events.append((start * tpq // 2, bytes([0x91, note, 80])))
    events.append(((start + length) * tpq // 2, bytes([0x81, note, 0])))


smf.write(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'demo.mid'), events)
