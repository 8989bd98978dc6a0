#!/bin/bash
# Instructions executed inside PresentationTree.evaluate by lamina-model-bench, counted by
# callgrind: repeatable on a shared machine where timings swing by a third between runs.
#
#   tools/model-bench-instructions.sh [BINARY] [animated|static]
#
# BINARY defaults to .build/release/lamina-model-bench (build it with
# `swift build -c release --product lamina-model-bench`). Runs `--quick --frames 5` (10 warm-up
# frames, 5 measured; all 15 evaluations are counted) and prints the count and the checksum.
set -euo pipefail
binary=${1:-.build/release/lamina-model-bench}
tree=${2:-animated}
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$out" \
    --toggle-collect='$s12Presentation0A4TreeV8evaluate_2atAC6Layers7CALayerC_SdtFZ' \
    "$binary" --quick --frames 5 --only "$tree" 2>&1 | grep -E "Collected|checksum" \
    | sed -e 's/^==[0-9]*== Collected : /instructions in evaluate (15 frames): /'
