#!/usr/bin/env python3
"""The Counter plugin beside the same feature written for TCA (docs/examples/CounterTCA.swift):
code lines (not blank, not a comment) of each, and of the plugin without what TCA has no
counterpart for (`migrate`, the state migration a swap to CounterAlt uses; `render`, the text
view, where TCA has a SwiftUI view elsewhere). The plugin's Package.swift lines count too.

    Benchmarks/Scripts/counter-vs-tca.py
"""
import re


def code_lines(text):
    lines = [line.strip() for line in text.splitlines()]
    return [line for line in lines if line and not line.startswith("//")]


def without(text, function):
    """`text` without the doc comment and body of `static func <function>`."""
    match = re.search(rf"\n((?:  ///.*\n)*)  public static func {function}\(.*?\n  \}}\n", text, re.S)
    return text.replace(match.group(0), "\n") if match else text


plugin = open("Plugins/Counter/Counter.swift").read()
tca = open("docs/examples/CounterTCA.swift").read()
manifest = [line for line in open("Package.swift").read().splitlines()
            if re.search(r'"Counter"|"CounterFeature"|Plugins/Counter"', line)
            and "TestReporting" not in line]
core = without(without(plugin, "migrate"), "render")
print(f"TCA Counter:                          {len(code_lines(tca)):4} code lines")
print(f"Counter plugin:                       {len(code_lines(plugin)) + len(manifest):4} "
      f"({len(code_lines(plugin))} in Counter.swift + {len(manifest)} in Package.swift)")
print(f"  without migrate and render:         {len(code_lines(core)) + len(manifest):4}")
print(f"  difference from TCA:                {len(code_lines(core)) + len(manifest) - len(code_lines(tca)):+4}")
