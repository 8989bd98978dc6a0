#!/bin/bash
# Instructions executed inside PresentationTree.evaluate by lamina-model-bench, counted by
# callgrind: repeatable on a shared machine where timings swing by a third between runs.
#
#   tools/model-bench-instructions.sh [BINARY] [animated|static] [MORE OPTIONS]
#
# BINARY defaults to .build/release/lamina-model-bench (build it with
# `swift build -c release --product lamina-model-bench`). Runs `--quick --frames 5` (10 warm-up
# frames, 5 measured; all 15 evaluations are counted) and prints the count and the checksum.
# Pass `--threads 1` to a binary that evaluates on several threads: callgrind counts the
# instructions of the thread that calls evaluate, not of the threads it wakes.
set -euo pipefail
binary=${1:-.build/release/lamina-model-bench}
tree=${2:-animated}
shift $(( $# < 2 ? $# : 2 ))
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 2; }
# The function that does the work: evaluate(_:at:maximumThreads:) where the binary has it (older
# binaries: evaluate(_:at:)), its specialised body if the compiler made one (the public symbol is
# then a thunk around it, and toggling on both would switch counting off inside).
symbols=$(nm "$binary" | awk '{print $3}' | grep -E '^\$s12Presentation0A4TreeV8evaluate_2at' || true)
candidates=$(grep -E 'evaluate_2at14maximumThreads' <<<"$symbols" || grep -E 'evaluate_2atAC6Layers' <<<"$symbols" || true)
function=$(grep -E 'tFZTf' <<<"$candidates" | head -1 || true)
[ -n "$function" ] || function=$(head -1 <<<"$candidates")
[ -n "$function" ] || { echo "no PresentationTree.evaluate symbol in $binary" >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$out" \
    --toggle-collect="$function" \
    "$binary" --quick --frames 5 --only "$tree" "$@" 2>&1 | grep -E "Collected|checksum" \
    | sed -e 's/^==[0-9]*== Collected : /instructions in evaluate (15 frames): /'
