#!/usr/bin/env python3
"""Writes the hand-made seeds of each fuzz target's corpus (Corpus/<target>/seed-*).

Run from anywhere: python3 Tests/Fuzz/make-seeds.py. The rest of each corpus is what libFuzzer
found and `make fuzz-merge` kept; the seeds only give it a start in every part of the grammar.
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def write(target, name, data):
    folder = os.path.join(HERE, "Corpus", target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "seed-" + name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


# The value encoding (patchbay/value.h).
def name(text):
    raw = text.encode()
    return struct.pack("<H", len(raw)) + raw


def value(v):
    if v is None:
        return b"n"
    if isinstance(v, bool):
        return b"b" + bytes([int(v)])
    if isinstance(v, int):
        return b"i" + struct.pack("<q", v)
    if isinstance(v, float):
        return b"f" + struct.pack("<d", v)
    if isinstance(v, str):
        raw = v.encode()
        return b"s" + struct.pack("<I", len(raw)) + raw
    if isinstance(v, list):
        return b"l" + struct.pack("<I", len(v)) + b"".join(value(x) for x in v)
    if isinstance(v, dict):
        return b"r" + fields(v)
    if isinstance(v, tuple):  # (case name, {label: value})
        return b"c" + name(v[0]) + fields(v[1])
    raise TypeError(v)


def fields(d):
    return struct.pack("<I", len(d)) + b"".join(name(k) + value(x) for k, x in d.items())


values = {
    "increment": ("increment", {}),
    "set-step": ("setStep", {"by": 5}),
    "say": ("say", {"text": "hi \"there\"\n\t\x1b[2J \u00e9\U0001F600"}),
    "note-on": ("midi", {"_0": ("noteOn", {"channel": 1, "note": 60, "velocity": 100})}),
    "unlabeled": ("move", {"_0": -3, "_1": 2.5, "_2": True, "_3": None}),
    "nested": ("load", {"items": [1, [2.0, -0.0], {"a": "b"}], "ok": False}),
    "counter-state": {"count": 42, "step": 1, "history": [1, 2, 3]},
    "echo-state": {"message": "", "count": 0},
    "doubles": [1e300, -1e-300, 0.1, float("inf"), float("nan"), -0.0],
    "deep": [[[[[[[[("x", {})]]]]]]]],
}
for key, v in values.items():
    write("value", key, value(v))

texts = [
    "increment",
    "setStep(by: 5)",
    "setStep(by: -5)",
    "setTempo(bpm: 140.5)",
    'say(text: "hi \\"there\\"\\n\\t\\u{1F600}")',
    "midi(noteOn(channel: 1, note: 60, velocity: 100))",
    "move(-3, 2.5e3, true, nil)",
    "load(items: [1, [2.0, -0.0], {a: \"b\"}], ok: false)",
    "  spaced ( a : 1 , b : [ ] , c : { } )  ",
    "big(n: 9223372036854775807, m: -9223372036854775808, x: 1e308, y: 1_000)",
    "signs(a: +1, b: .5, c: 5., d: -1E-3)",
    "choose(option: none)",
    "_private(_x: 1)",
]
for i, t in enumerate(texts):
    write("action-text", "%02d" % i, t)

for config in sorted(os.listdir(os.path.join(HERE, "..", "..", "host-config"))):
    if config.endswith(".toml"):
        with open(os.path.join(HERE, "..", "..", "host-config", config), "rb") as f:
            write("toml", config, f.read())
write("toml", "values.toml", """# every kind of value
title = "a \\"quoted\\" \\u00e9 string"
literal = 'C:\\path'
count = -42
ratio = 6.02e23
on = true
list = [1, 2,
  3, ]   # trailing comma
nested = [[1, 2], ["a"]]

[table]
"quoted key" = 1

[[array]]
id = 1
[[array]]
id = 2
""")

midi = {
    "notes-running-status": bytes([0x90, 60, 100, 62, 0, 0x80, 60, 0]),
    "realtime-inside": bytes([0x90, 0xF8, 60, 0xFA, 100, 0xFE]),
    "sysex-long": bytes([0xF0] + list(range(0x00, 0x40)) + [0xF7]),
    "sysex-cut-by-status": bytes([0xF0, 1, 2, 3, 0x90, 60, 100]),
    "sysex-realtime-inside": bytes([0xF0, 1, 0xF8, 2, 0xF7]),
    "system-common": bytes([0xF1, 0x10, 0xF2, 0x01, 0x02, 0xF3, 5, 0xF6, 0xF4, 0xF5, 0x40]),
    "channel-kinds": bytes([0xB0, 7, 100, 0xC5, 3, 0xD2, 64, 0xE0, 0, 64, 0xA1, 60, 30]),
    "reset-mid-message": bytes([0x90, 60, 0xFF, 100, 0x90, 61, 90]),
    "undefined-realtime": bytes([0x90, 60, 0xF9, 100, 0xFD, 61, 0]),
    "orphan-data": bytes([1, 2, 3, 0x90, 60]),
}
for key, data in midi.items():
    write("midi", key, bytes([5]) + data)  # first byte: how the stream is cut into reads


def track(events):
    body = b"".join(events)
    return b"MTrk" + struct.pack(">I", len(body)) + body


def header(fmt, tracks, division):
    return b"MThd" + struct.pack(">IHHH", 6, fmt, tracks, division)


end = b"\x00\xff\x2f\x00"
tempo = b"\x00\xff\x51\x03\x07\xa1\x20"
write("smf", "format0", header(0, 1, 96) + track([tempo, b"\x00\x90\x3c\x64", b"\x60\x3c\x00", end]))
write("smf", "format1", header(1, 2, 480)
      + track([tempo, b"\x83\x60\xff\x51\x03\x0f\x42\x40", end])
      + track([b"\x00\xc0\x05", b"\x00\x90\x40\x50", b"\x81\x40\x80\x40\x00", end]))
write("smf", "sysex", header(0, 1, 96) + track([b"\x00\xf0\x03\x7e\x7f\xf7", b"\x00\xf7\x02\xf8\xfa", end]))
write("smf", "meta-and-unknown-chunk", header(1, 1, 96) + b"XFIH\x00\x00\x00\x02ab"
      + track([b"\x00\xff\x03\x04name", b"\x00\xff\x58\x04\x04\x02\x18\x08", end]))
write("smf", "smpte-division", header(0, 1, 0xE728) + track([b"\x00\x90\x3c\x64", end]))
with open(os.path.join(HERE, "..", "..", "host-config", "songs", "demo.mid"), "rb") as f:
    write("smf", "demo.mid", f.read())
