#!/usr/bin/env python3
"""Lines each bundled Swift plugin costs at a git revision: its Swift files under Plugins/<name>
(features and any Entry/), plus the lines of Package.swift that declare it (its product and its
targets, tests excluded). Each cell: all lines, then code lines (not blank, not a comment).

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
    texts = [git("show", f"{revision}:{f}") for f in files]
    source = sum(text.count("\n") for text in texts)
    code = sum(1 for text in texts for line in text.splitlines()
               if line.strip() and not line.strip().startswith("//"))
    manifest = manifest_lines(git("show", f"{revision}:Package.swift"), plugin)
    return source + manifest, code + manifest


revisions = sys.argv[1:] or ["HEAD"]
print("plugin".ljust(14) + "".join(f"{r[:10]:>16}" for r in revisions) + "   (all lines / code)")
totals = [[0, 0] for _ in revisions]
for plugin in PLUGINS:
    row = plugin.ljust(14)
    for index, revision in enumerate(revisions):
        every, code = lines(revision, plugin)
        totals[index][0] += every
        totals[index][1] += code
        row += f"{every:>10} /{code:>4}"
    print(row)
print("total".ljust(14) + "".join(f"{every:>10} /{code:>4}" for every, code in totals))
