#!/usr/bin/env python3
"""Frames per second of Lamina's CPU and GPU backends against rlottie, on Lottie files, in one run.

    .build/pyenv/bin/python tools/bench-lottie.py [--lamina .build/release/lamina] [--seconds 2]
        [--size 512x512 --size 1080x1080] [--sequential-too] [FILE.json ...]

Without files it uses six samples of the Lottie development set (../shared/lottie/samples). For
each file and size: rlottie (the `rlottie-python` package, Samsung rlottie's C++ renderer) renders
frames ip … op − 1 in a loop into one reused ARGB buffer through its C API; Lamina's `lamina bench FILE --size WxH` renders
frames of the same animation looping over its timeline (evaluate, plan, raster, composite and read
back each frame, both backends one after the other), as an export draws them: a frame that takes
long enough to plan is planned while the one before draws. --sequential-too adds a column of the
CPU backend with that off (`lamina bench --sequential`), measured right after. The composition is scaled to fit the size,
as both do by default. Prints one row per file and size, the CPU/rlottie and GPU/rlottie ratios,
and their geometric means. Needs `pip install rlottie-python` in the Python that runs it.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DEFAULT_FILES = ["Boat_Loader.json", "MotionCorpse_Jrcanest.json", "LottieFiles/settings_slider.json",
                 "LottieFiles/growth.json", "Switch_States.json", "TypeFace/D.json"]


def rlottie_fps(path, width, height, seconds, through_wrapper=False):
    """rlottie's frames per second, each frame rendered into one reused ARGB buffer through its C API.

    rlottie clears the surface it is given, so reusing the buffer draws every frame whole. The
    package's own `lottie_animation_render` instead allocates and zero-fills a new buffer, rebuilds
    the ctypes signature and copies the pixels out on every call: at 1080x1080 that costs several
    times rlottie's own work (through_wrapper=True measures it that way, for comparison only).
    """
    import ctypes
    from rlottie_python import LottieAnimation
    from rlottie_python.rlottie_wrapper import _LottieAnimationPointer
    anim = LottieAnimation.from_file(path)
    total = max(1, anim.lottie_animation_get_totalframe())
    if through_wrapper:
        def render(frame):
            anim.lottie_animation_render(frame_num=frame, width=width, height=height)
    else:
        buffer = (ctypes.c_uint32 * (width * height))()
        c_render = anim.rlottie_lib.lottie_animation_render
        c_render.argtypes = [_LottieAnimationPointer, ctypes.c_size_t, ctypes.POINTER(ctypes.c_uint32),
                             ctypes.c_size_t, ctypes.c_size_t, ctypes.c_size_t]
        c_render.restype = None

        def render(frame):
            c_render(anim.animation_p, frame, buffer, width, height, width * 4)
    render(0)  # warm-up
    frames, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds or frames < 5:
        render((frames + 1) % total)
        frames += 1
    return frames / (time.perf_counter() - start)


def lamina_fps(lamina, path, width, height, seconds, extra=()):
    out = subprocess.run([lamina, "bench", path, "--size", f"{width}x{height}", "--seconds", str(seconds), "--json",
                          *extra], check=True, capture_output=True, text=True).stdout
    row = json.loads(out)[0]
    return row.get("cpu", {}).get("framesPerSecond"), row.get("gpu", {}).get("framesPerSecond"), row


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--lamina", default=os.path.join(REPO, ".build/release/lamina"))
    parser.add_argument("--samples", default=os.path.join(REPO, "..", "shared", "lottie", "samples"))
    parser.add_argument("--size", action="append")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--sequential-too", action="store_true")
    parser.add_argument("--rlottie-wrapper-too", action="store_true",
                        help="also time rlottie through rlottie-python's allocating render call")
    args = parser.parse_args()
    files = args.files or [os.path.join(args.samples, f) for f in DEFAULT_FILES]
    sizes = [tuple(int(v) for v in s.lower().split("x")) for s in (args.size or ["512x512", "1080x1080"])]
    print(f"{'file':<28} {'size':>9} {'rlottie':>9} {'lamina cpu':>11} {'lamina gpu':>11} {'cpu/rl':>7} {'gpu/rl':>7}"
          + (f" {'cpu seq':>9} {'seq/rl':>7}" if args.sequential_too else "")
          + (f" {'rl wrap':>9}" if args.rlottie_wrapper_too else ""))
    cpu_ratios, gpu_ratios, seq_ratios = [], [], []
    for path in files:
        for width, height in sizes:
            rl = rlottie_fps(path, width, height, args.seconds)
            cpu, gpu, _ = lamina_fps(args.lamina, path, width, height, args.seconds)
            cr = cpu / rl if cpu else float("nan")
            gr = gpu / rl if gpu else float("nan")
            if cpu: cpu_ratios.append(cr)
            if gpu: gpu_ratios.append(gr)
            name = os.path.relpath(path, args.samples) if path.startswith(args.samples) else os.path.basename(path)
            line = f"{name:<28} {width}x{height:<4} {rl:9.1f} {cpu or float('nan'):11.1f} {gpu or float('nan'):11.1f} {cr:6.2f}x {gr:6.2f}x"
            if args.sequential_too:
                seq, _, _ = lamina_fps(args.lamina, path, width, height, args.seconds, ("--backend", "cpu", "--sequential"))
                sr = seq / rl if seq else float("nan")
                if seq: seq_ratios.append(sr)
                line += f" {seq or float('nan'):9.1f} {sr:6.2f}x"
            if args.rlottie_wrapper_too:
                line += f" {rlottie_fps(path, width, height, args.seconds, through_wrapper=True):9.1f}"
            print(line, flush=True)
    geo = lambda r: math.exp(sum(math.log(x) for x in r) / len(r)) if r else float("nan")
    print(f"geometric mean: cpu/rlottie {geo(cpu_ratios):.2f}x, gpu/rlottie {geo(gpu_ratios):.2f}x"
          + (f", sequential cpu/rlottie {geo(seq_ratios):.2f}x" if args.sequential_too else "")
          + f" ({os.cpu_count()} cores; rlottie single-threaded per frame, Lamina's CPU backend one thread per core)")


if __name__ == "__main__":
    sys.exit(main())
