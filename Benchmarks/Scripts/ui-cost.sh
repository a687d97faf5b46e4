#!/usr/bin/env bash
# What the terminal UI costs: the studio playing (Metronome, Drums, Practice's chords through
# the Synth) for SECONDS on the paced null device, once on a terminal (tmux, the UI redrawing
# with the beat and the level meter) and once headless (a script that waits), in the same
# sitting. Prints each run's CPU seconds (user + system, every thread) and the difference as a
# share of one core: the UI's cost.
#   Benchmarks/Scripts/ui-cost.sh [SECONDS] [BIN]     (BIN: .build/debug or .build/release)
set -euo pipefail
seconds=${1:-20}
bin=${2:-.build/debug}
cd "$(dirname "$0")/../.."
state=$(mktemp -d)
trap 'rm -rf "$state"; tmux -L uicost kill-server 2>/dev/null || true' EXIT

cpu() { # user+system seconds of a process, from /proc
  awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$1/stat"
}

# On a terminal: start the metronome (space), open Practice (1), chords on (p).
tmux -L uicost new-session -d -x 120 -y 40 \
  "XDG_STATE_HOME=$state $bin/patchbay run host-config/studio.toml --audio null --plugin-path $bin"
sleep 2
pid=$(pgrep -n -f "$bin/patchbay run host-config/studio.toml --audio null")
tmux -L uicost send-keys " " && sleep 0.2 && tmux -L uicost send-keys 1 && sleep 0.2 &&
  tmux -L uicost send-keys p
sleep 1
start=$(cpu "$pid")
sleep "$seconds"
ui=$(awk -v a="$start" -v b="$(cpu "$pid")" 'BEGIN { print b - a }')
tmux -L uicost send-keys q
sleep 1

# Headless: the same app playing, no terminal.
printf 'send studio/metronome start\nsend studio go(0)\nsend practice play\nwait %d\n' \
  $(((seconds + 2) * 1000)) > "$state/play.script"
XDG_STATE_HOME=$state "$bin/patchbay" run host-config/studio.toml --audio null \
  --plugin-path "$bin" --script "$state/play.script" > /dev/null &
pid=$!
sleep 2
start=$(cpu "$pid")
sleep "$seconds"
headless=$(awk -v a="$start" -v b="$(cpu "$pid")" 'BEGIN { print b - a }')
wait "$pid"
awk -v ui="$ui" -v h="$headless" -v s="$seconds" 'BEGIN {
  printf "terminal UI: %.3f s CPU in %d s; headless: %.3f s; the UI: %.2f %% of one core\n",
    ui, s, h, (ui - h) / s * 100 }'
