#!/usr/bin/env bash
# Fuzzes the scene loader and the Lottie importer (LottieImporter.loadScene(bytes:fileName:baseDirectory:),
# which tells Lottie JSON and .lottie archives from scene files by content) with libFuzzer + ASan, and
# what a loaded scene costs once expanded: its budget (ModelFigures), then, within budget, the
# presentation and the render plan of a frame with a rasterizer that draws nothing, whose offscreen
# passes and rasters must stay within what the output can show (tools/fuzz/SceneFuzzer.swift).
#
# Usage:
#   tools/fuzz-scene-loader.sh [SECONDS] [libFuzzer flags...]   build, then fuzz (default 600 s)
#   tools/fuzz-scene-loader.sh build                             build only
#   tools/fuzz-scene-loader.sh minimize CRASH_FILE [SECONDS]     minimise a crash (-minimize_crash=1)
#   tools/fuzz-scene-loader.sh run FILE...                       run inputs once (reproduce a finding)
#
# Each target in Sources/{Geometry,Drawing,Timing,Filters,Animation,Layers,Presentation,SceneFormat,LottieImport,Rendering,ContentRaster} is compiled as
# its own Swift module (whole-module, -emit-module, in dependency order), so `import Geometry`
# etc. work unchanged; tools/fuzz/SceneFuzzer.swift (LLVMFuzzerTestOneInput) links against them.
# Everything is built with -sanitize=fuzzer,address -O -g.
#
# Seed corpus: every .json under Examples/ and Tests/SceneFormatTests/ (as they are when the script
# runs), tools/fuzz/seeds/, generated deep-nesting scenes, and Lottie files: the Lottie reftests,
# the development set's files under 40 KB (../shared/lottie/samples, when it is there; override
# with LOTTIE_SAMPLES) and a .lottie archive made from one of them. Work folder (override with
# SCENE_FUZZ_WORK): .build/fuzz-scene-loader/ — corpus/ grows across runs, crashes/ holds findings.
# Environment: SWIFTC (compiler), SCENE_FUZZ_JOBS (parallel fuzzing processes, default 1).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${SCENE_FUZZ_WORK:-$ROOT/.build/fuzz-scene-loader}"
BUILD="$WORK/build"
BIN="$BUILD/scene-fuzzer"
SWIFTC="${SWIFTC:-$(command -v swiftc || echo /opt/swift/usr/bin/swiftc)}"
MODULES=(Geometry Drawing Timing Filters Animation Layers Presentation SceneFormat LottieImport Rendering ContentRaster)   # dependency order (Package.swift)
FLAGS=(-O -g -parse-as-library -swift-version 6 -sanitize=fuzzer,address -package-name Lamina)
# ContentRaster's C libraries (cairo, Pango) and LottieImport's zlib through the package's own module maps.
C_FLAGS=(-I "$ROOT/Sources/CCairo" -I "$ROOT/Sources/CPangoCairo" -I "$ROOT/Sources/CZlib")
for flag in $(pkg-config --cflags cairo pangocairo); do C_FLAGS+=(-Xcc "$flag"); done
LINK_FLAGS=(-lz)
for flag in $(pkg-config --libs cairo pangocairo); do LINK_FLAGS+=("$flag"); done

mkdir -p "$BUILD" "$WORK/corpus" "$WORK/crashes"

build() {
    # A module is rebuilt when its object is missing or older than one of its sources (or this
    # script), or when a module before it was rebuilt; the binary is relinked when anything changed.
    local objects=() dirty=0
    for module in "${MODULES[@]}"; do
        local object="$BUILD/$module.o" sources=()
        while IFS= read -r -d '' f; do sources+=("$f"); done < <(find "$ROOT/Sources/$module" -name '*.swift' -print0 | sort -z)
        objects+=("$object")
        if (( dirty == 0 )) && [[ -f "$object" && -f "$BUILD/$module.swiftmodule" ]] \
            && [[ -z "$(find "${sources[@]}" "${BASH_SOURCE[0]}" -newer "$object" | head -1)" ]]; then
            continue
        fi
        dirty=1
        echo "== compiling $module (${#sources[@]} files)"
        "$SWIFTC" "${FLAGS[@]}" "${C_FLAGS[@]}" -wmo -module-name "$module" -I "$BUILD" \
            -emit-module -emit-module-path "$BUILD/$module.swiftmodule" \
            -c "${sources[@]}" -o "$object"
        touch "$object" "$BUILD/$module.swiftmodule"   # swiftc keeps the old mtime when the output is unchanged
    done
    if (( dirty == 0 )) && [[ -x "$BIN" && ! "$ROOT/tools/fuzz/SceneFuzzer.swift" -nt "$BIN" ]]; then return 0; fi
    echo "== linking $BIN"
    "$SWIFTC" "${FLAGS[@]}" "${C_FLAGS[@]}" -use-ld=lld -module-name SceneFuzz -I "$BUILD" \
        "$ROOT/tools/fuzz/SceneFuzzer.swift" "${objects[@]}" "${LINK_FLAGS[@]}" -o "$BIN"
    touch "$BIN"
}

# Dictionary: hand-written tokens plus every quoted identifier the decoder and LayerKey use, every
# "key.field" key path, and every `name` in the scene-format spec (generated, so it follows them).
make_dictionary() {
    local dict="$WORK/scene.dict"
    {
        cat "$ROOT/tools/fuzz/scene-extra.dict"
        echo "# generated from Sources/SceneFormat/*.swift, Sources/LottieImport/*.swift, LayerKey.swift and LayerOptions.swift"
        {
            grep -ohE '"[A-Za-z][A-Za-z0-9.]*"' "$ROOT/Sources/SceneFormat/"*.swift "$ROOT/Sources/LottieImport/"*.swift \
                "$ROOT/Sources/Layers/LayerOptions.swift" | tr -d '"'
            # LayerKey cases: `case a, b, c` lines inside the enum.
            sed -n '/^public enum LayerKey/,/^    \/\/\/ The value type/p' "$ROOT/Sources/Layers/LayerKey.swift" \
                | grep -E '^\s*case ' | sed -E 's/^\s*case //' | tr ',' '\n' | tr -d ' '
            for k in position anchorPoint startPoint endPoint emitterPosition; do echo "$k.x"; echo "$k.y"; done
            for k in shadowOffset emitterSize; do echo "$k.width"; echo "$k.height"; done
            for k in bounds contentsRect contentsCenter; do
                for f in origin origin.x origin.y size size.width size.height; do echo "$k.$f"; done
            done
            for k in transform sublayerTransform instanceTransform; do
                for f in rotation rotation.x rotation.y rotation.z scale scale.x scale.y scale.z translation translation.x translation.y translation.z; do
                    echo "$k.$f"
                done
            done
            # Every `name` the spec mentions (shared/spec/scene-format.md, next to or inside the checkout).
            for spec in "$ROOT/shared/spec/scene-format.md" "$ROOT/../shared/spec/scene-format.md"; do
                if [[ -f "$spec" ]]; then grep -ohE '`[A-Za-z][A-Za-z0-9.]*`' "$spec" | tr -d '`' || true; fi
            done
        } | grep -v '^$' | sort -u | sed -E 's/.*/"\\"&\\""/'
    } > "$dict"
    echo "$dict"
}

# Seeds: repository scenes, hand-written seeds and generated nesting stress scenes.
make_seeds() {
    local seeds="$WORK/seeds"
    rm -rf "$seeds"; mkdir -p "$seeds"
    local n=0
    for dir in "$ROOT/Examples" "$ROOT/Tests/SceneFormatTests" "$ROOT/tools/fuzz/seeds" "$ROOT/Tests/ReftestTests/Reftests/lottie"; do
        [[ -d "$dir" ]] || continue
        while IFS= read -r -d '' f; do
            n=$((n + 1))
            cp "$f" "$seeds/$(printf '%04d' "$n")-$(basename "$f")"
        done < <(find "$dir" -name '*.json' -print0 | sort -z)
    done
    # Deep layer nesting: at the 256 limit, just over it, and masks-of-masks; groups 31 and 33 deep;
    # raw JSON arrays nested past the parser's limit.
    nest_layers() {  # $1 depth, $2 key ("sublayers" or "mask")
        local depth=$1 key=$2 open close
        if [[ $key == sublayers ]]; then open='{"sublayers": ['; close=']}'; else open='{"mask": '; close='}'; fi
        printf '{"format": 1, "size": [32, 32], "root": '
        for ((i = 0; i < depth; i++)); do printf '%s' "$open"; done
        printf '{"backgroundColor": "#FF0000", "animations": [{"type": "basic", "keyPath": "opacity", "toValue": 0, "duration": 1}]}'
        for ((i = 0; i < depth; i++)); do printf '%s' "$close"; done
        printf '}\n'
    }
    nest_groups() {
        local depth=$1
        printf '{"format": 1, "size": [32, 32], "root": {"animations": ['
        for ((i = 0; i < depth; i++)); do printf '{"type": "group", "duration": 1, "animations": ['; done
        printf '{"type": "basic", "keyPath": "position.x", "toValue": 5}'
        for ((i = 0; i < depth; i++)); do printf ']}'; done
        printf ']}}\n'
    }
    # Lottie: development-set files small enough for -max_len, and one as a .lottie archive.
    local samples="${LOTTIE_SAMPLES:-$ROOT/../shared/lottie/samples}"
    if [[ -d "$samples" ]]; then
        while IFS= read -r -d '' f; do
            n=$((n + 1))
            cp "$f" "$seeds/$(printf '%04d' "$n")-lottie-$(basename "$f")"
        done < <(find "$samples" -name '*.json' -size -40k -print0 | sort -z)
        if [[ -f "$samples/Switch.json" ]] && command -v zip > /dev/null; then
            local pack="$WORK/pack"
            rm -rf "$pack"; mkdir -p "$pack/animations"
            cp "$samples/Switch.json" "$pack/animations/switch.json"
            printf '{"version": "1", "animations": [{"id": "switch"}]}' > "$pack/manifest.json"
            (cd "$pack" && zip -qX -9 "$seeds/switch.lottie" manifest.json animations/switch.json)
        fi
    fi
    nest_layers 256 sublayers > "$seeds/deep-sublayers-256.json"
    nest_layers 257 sublayers > "$seeds/deep-sublayers-257.json"
    nest_layers 256 mask > "$seeds/deep-mask-256.json"
    nest_layers 300 mask > "$seeds/deep-mask-300.json"
    nest_groups 31 > "$seeds/deep-groups-31.json"
    nest_groups 33 > "$seeds/deep-groups-33.json"
    { printf '{"format": 1, "size": [8, 8], "root": {"name": '; for ((i = 0; i < 600; i++)); do printf '['; done
      for ((i = 0; i < 600; i++)); do printf ']'; done; printf '}}\n'; } > "$seeds/deep-json-600.json"
    echo "$seeds"
}

# Asset paths in scenes resolve against a private copy of Examples/ (assets/*.png).
prepare_base() {
    local base="$WORK/base"
    mkdir -p "$base"
    [[ -d "$ROOT/Examples/assets" ]] && cp -R "$ROOT/Examples/assets" "$base/" 2>/dev/null || true
    mkdir -p "$base/assets" && : > "$base/assets/clip.mp4"   # a readable "video" so video scenes load
    echo "$base"
}

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1:handle_abort=1:symbolize=1}"
# Swift runtime backtraces are slow under ASan and add nothing to ASan's own report.
export SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}"

case "${1:-}" in
    build)
        build; echo "built $BIN"; exit 0 ;;
    minimize)
        shift; build
        crash="$1"; secs="${2:-120}"
        export SCENE_FUZZ_BASE="$(prepare_base)"
        out="$WORK/crashes/minimized-$(basename "$crash")"
        "$BIN" -minimize_crash=1 -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
            -exact_artifact_path="$out" "$crash" < /dev/null || true
        echo "minimised input: $out"; exit 0 ;;
    run)
        shift; build
        export SCENE_FUZZ_BASE="$(prepare_base)"
        exec "$BIN" -timeout=10 -rss_limit_mb=2048 "$@" < /dev/null ;;
esac

SECONDS_TO_RUN=600
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then SECONDS_TO_RUN="$1"; shift; fi

build
DICT="$(make_dictionary)"
SEEDS="$(make_seeds)"
export SCENE_FUZZ_BASE="$(prepare_base)"
JOBS="${SCENE_FUZZ_JOBS:-1}"
PARALLEL=()
if (( JOBS > 1 )); then PARALLEL=(-fork="$JOBS" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1); fi

echo "== fuzzing for ${SECONDS_TO_RUN}s"
echo "   binary:  $BIN"
echo "   seeds:   $SEEDS ($(ls "$SEEDS" | wc -l) files)"
echo "   corpus:  $WORK/corpus"
echo "   dict:    $DICT"
echo "   crashes: $WORK/crashes/ (crash-*, timeout-*, oom-*, leak-*)"
status=0
"$BIN" -max_total_time="$SECONDS_TO_RUN" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
    -dict="$DICT" -artifact_prefix="$WORK/crashes/" -print_final_stats=1 "${PARALLEL[@]}" "$@" \
    "$WORK/corpus" "$SEEDS" < /dev/null || status=$?

echo "== done (libFuzzer exit status $status)"
echo "   crashes, timeouts and OOMs are saved in: $WORK/crashes/"
ls -la "$WORK/crashes/" | sed 1d | grep -v ' \.\.\?$' || true
echo "   reproduce: tools/fuzz-scene-loader.sh run FILE    minimise: tools/fuzz-scene-loader.sh minimize FILE"
exit "$status"
