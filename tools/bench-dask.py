#!/usr/bin/env python3
"""Benchmark: one `lamina render` against `lamina-dask` with 1 and 2 workers on this machine.

    tools/python-env.sh && .build/python/bin/python tools/bench-dask.py [--lamina .build/release/lamina] [--seconds 30]

Renders a `--seconds` (default 30) 1280x720 scene over a generated clip with a tone, prints wall
and CPU time of each run (CPU: the children's user+system time, lamina and ffmpeg included), the
Dask overhead per segment (the Dask run's wall time above the sum of its segments' own render
times, per segment, on one worker), the join time, and the speedup projected for N workers from
the measured per-segment time, join time and overhead (Amdahl: the join and audio mux are the
serial part).
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(args, **kwargs):
    cpu, wall = children_cpu(), time.monotonic()
    done = subprocess.run(args, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        sys.exit(f"{' '.join(args[:3])}… failed: {done.stderr.strip()[-500:]}")
    return time.monotonic() - wall, children_cpu() - cpu, done


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lamina", default=str(ROOT / ".build" / "release" / "lamina"))
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--segment-seconds", type=float, default=2)
    parser.add_argument("--backend", default="cpu")
    args = parser.parse_args()
    dask_cli = str(Path(sys.executable).parent / "lamina-dask")
    folder = Path(tempfile.mkdtemp(prefix="lamina-bench-dask-"))
    subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", f"testsrc2=s=1280x720:r=30:d={args.seconds}",
                    "-f", "lavfi", "-i", f"sine=frequency=440:sample_rate=48000:duration={args.seconds}", "-c:v", "libx264",
                    "-preset", "ultrafast", "-qp", "18", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", str(folder / "in.mp4")],
                   check=True)
    cards = [{"bounds": [0, 0, 200, 120], "position": [120 + 260 * (i % 5), 120 + 240 * (i // 5)], "backgroundColor": "#3070d0",
              "cornerRadius": 18, "borderWidth": 4, "borderColor": "#ffffff",
              "animations": [{"type": "basic", "keyPath": "transform.rotation.z", "toValue": 6.28318, "duration": 4 + i % 3,
                              "repeatCount": "infinity"}]} for i in range(15)]
    (folder / "scene.json").write_text(json.dumps({
        "format": 1, "size": [1280, 720], "fps": 30, "duration": args.seconds, "background": "#000000",
        "assets": {"clip": "in.mp4"}, "video": {"asset": "clip", "layer": "video"},
        "root": {"sublayers": [{"name": "video", "type": "video", "frame": [0, 0, 1280, 720]}] + cards}}))
    scene = str(folder / "scene.json")

    rows = []
    wall, cpu, _ = timed([args.lamina, "render", scene, "-o", str(folder / "single.mp4"), "--backend", args.backend])
    rows.append(("lamina render (one process)", wall, cpu))
    results = {}
    for workers in (1, 2):
        out = folder / f"dask{workers}.mp4"
        wall, cpu, done = timed([dask_cli, "render", scene, "-o", str(out), "--workers", str(workers), "--lamina", args.lamina,
                                 "--segment-seconds", str(args.segment_seconds), "--backend", args.backend, "--progress", "jsonl",
                                 "--parts-dir", str(folder / f"parts{workers}")])
        rows.append((f"lamina-dask, {workers} worker{'s' if workers > 1 else ''}", wall, cpu))
        results[workers] = wall
    plan = json.loads(subprocess.run([args.lamina, "plan", scene, "--segment-seconds", str(args.segment_seconds), "--backend",
                                      args.backend, "--json"], capture_output=True, text=True, check=True).stdout)
    segments = plan["segments"]
    # One segment alone, and the join with the audio, timed directly.
    (folder / "plan.json").write_text(json.dumps(plan))
    (folder / "one").mkdir()
    segment_wall, _, _ = timed([args.lamina, "render", "--plan", str(folder / "plan.json"), "--segment", "0", "-o", str(folder / "one")])
    parts = [str(folder / "parts1" / s["name"]) for s in segments]
    join_wall, _, _ = timed([args.lamina, "join", *parts, "-o", str(folder / "joined.mp4"), "--audio-from", str(folder / "in.mp4")])

    print(f"{args.seconds} s at 1280x720, {plan['frame_count']} frames, {len(segments)} segments of {args.segment_seconds:g} s, "
          f"{args.backend} backend, {os.cpu_count()} cores")
    print(f"{'run':34} {'wall s':>8} {'CPU s':>8} {'vs one':>8}")
    for name, wall, cpu in rows:
        print(f"{name:34} {wall:8.1f} {cpu:8.1f} {rows[0][1] / wall:7.2f}x")
    overhead = (results[1] - join_wall - len(segments) * segment_wall) / len(segments)
    print(f"one segment alone: {segment_wall:.2f} s; join + audio mux: {join_wall:.2f} s; "
          f"Dask overhead per segment (1 worker, above the segments' own time): {overhead:.2f} s")
    serial = join_wall
    parallel = len(segments) * (segment_wall + max(overhead, 0))
    print("projected wall time for N workers = join + segments × (segment + overhead) / N:")
    for n in (1, 2, 4, 8, 16, 32):
        projected = serial + parallel / n
        print(f"  N = {n:2d}: {projected:7.1f} s  ({rows[0][1] / projected:5.2f}x one process)")
    minutes20 = 20 * 60 / args.seconds
    print(f"a 20-minute video: join + mux ≈ {join_wall * minutes20:.0f} s of serial work "
          f"(the join copies streams, so it grows with the length only), "
          f"{100 * serial / (serial + parallel):.1f}% of the 1-worker time here")


if __name__ == "__main__":
    main()
