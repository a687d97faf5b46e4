#!/usr/bin/env python3
"""Lines each bundled Swift plugin costs at a git revision: its Swift files under Plugins/<name>
(features and any Entry/), plus the lines of Package.swift that declare it (its product and its
targets, tests excluded).

    Benchmarks/Scripts/plugin-lines.py b8c1c26 HEAD     # before and after, side by side
"""
import re
import subprocess
import sys

PLUGINS = ["Counter", "CounterAlt", "Home", "Practice", "Metronome", "Tuner", "MIDIMonitor",
           "ChordTrainer", "Studio", "PracticeRoom"]


def git(*args):
    return subprocess.run(["git", *args], check=True, capture_output=True, text=True).stdout


def manifest_lines(manifest, plugin):
    """The product line and the lines of each `.target(` block named <plugin>Feature/Plugin."""
    count = len(re.findall(rf'\.library\(name: "{plugin}",', manifest))
    for block in re.findall(r"\n    \.target\((?:.|\n)*?\)(?=,?\n    [.\]/])", manifest):
        if re.search(rf'name: "{plugin}(Feature|Plugin)"', block):
            count += block.strip("\n").count("\n") + 1
    return count


def lines(revision, plugin):
    files = [f for f in git("ls-tree", "-r", "--name-only", revision, f"Plugins/{plugin}/").split()
             if f.endswith(".swift")]
    source = sum(git("show", f"{revision}:{f}").count("\n") for f in files)
    return source, manifest_lines(git("show", f"{revision}:Package.swift"), plugin)


revisions = sys.argv[1:] or ["HEAD"]
print("plugin".ljust(14) + "".join(f"{r[:10]:>24}" for r in revisions))
totals = [0] * len(revisions)
for plugin in PLUGINS:
    row = plugin.ljust(14)
    for index, revision in enumerate(revisions):
        source, manifest = lines(revision, plugin)
        totals[index] += source + manifest
        row += f"{source + manifest:>10} ({source:>4}+{manifest:>2} pkg)"
    print(row)
print("total".ljust(14) + "".join(f"{t:>24}" for t in totals))
