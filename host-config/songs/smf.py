# Writes a Standard MIDI File (format 0, one track) for the song scripts beside it.
import struct


def vlq(value):
    """A MIDI variable-length quantity."""
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.insert(0, (value & 0x7F) | 0x80)
        value >>= 7
    return bytes(out)


def write(path, events, tpq=480, microseconds_a_quarter=500_000):
    """events: (tick, message bytes), in any order; note-offs go first at a tick."""
    events = sorted(events, key=lambda e: (e[0], e[1][0] & 0xF0 != 0x80))
    track = b'\x00\xFF\x51\x03' + microseconds_a_quarter.to_bytes(3, 'big')
    now = 0
    for tick, data in events:
        track += vlq(tick - now) + data
        now = tick
    track += b'\x00\xFF\x2F\x00'
    header = b'MThd' + struct.pack('>IHHH', 6, 0, 1, tpq)
    with open(path, 'wb') as f:
        f.write(header + b'MTrk' + struct.pack('>I', len(track)) + track)
