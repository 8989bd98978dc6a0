"""``lamina-dask render SCENE -o OUT [--scheduler tcp://HOST:PORT] [--parts-dir DIR] [options]``."""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys

from .driver import LaminaDaskError, render

USAGE = """Renders SCENE to OUT across a Dask cluster: `lamina plan` splits it into keyframe-aligned
segments, each is rendered by `lamina render --plan P --segment I` on a worker (retried when it
fails or its worker dies), and the parts are joined with the audio muxed once. Without
--scheduler a local cluster sized to this machine is started (loopback only). Dask has no
authentication by default: bind schedulers to 127.0.0.1 or a private network, or use TLS."""


def _parse(argv):
    parser = argparse.ArgumentParser(prog="lamina-dask", description=USAGE)
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("render", help="render a scene to a video on a Dask cluster")
    r.add_argument("scene")
    r.add_argument("-o", "--output", required=True)
    r.add_argument("--scheduler", help="tcp://HOST:PORT of a running scheduler (default: start a local cluster)")
    r.add_argument("--parts-dir", help="where segments go (shared by every worker; default OUT.parts beside the output)")
    r.add_argument("--segment-seconds", type=float, default=10)
    r.add_argument("--workers", type=int, help="local cluster: worker processes (default: one per core)")
    r.add_argument("--retries", type=int, default=2, help="re-runs of a segment whose lamina fails (default 2)")
    r.add_argument("--seconds-per-frame", type=float, default=2.0,
                   help="a segment fails after 60 s plus this per frame (default 2)")
    r.add_argument("--resources", action="append", default=[],
                   help="worker resources a segment needs, e.g. GPU=1 (start GPU workers with --resources GPU=1)")
    r.add_argument("--lamina", default=os.environ.get("LAMINA", "lamina"), help="the lamina executable (default: lamina, or $LAMINA)")
    r.add_argument("--progress", choices=["auto", "line", "jsonl", "none"], default="auto")
    r.add_argument("--overwrite", action="store_true")
    for name in ("fps", "size", "scale", "codec", "crf", "backend", "encoder-threads"):
        r.add_argument("--" + name)
    return parser.parse_args(argv)


def _reporter(mode: str):
    if mode == "none":
        return lambda event: None
    if mode == "auto":
        mode = "line" if sys.stderr.isatty() else "jsonl"
    if mode == "jsonl":
        return lambda event: print(json.dumps(event, sort_keys=True), file=sys.stderr, flush=True)

    def line(event):
        stage = event["stage"]
        if stage == "render":
            fps = f"  {event['fps']:.1f} fps" if "fps" in event else ""
            text = f"render {event['done']}/{event['total']} segments, {event['frames']}/{event['frame_count']} frames{fps}"
        elif stage == "done":
            text = f"wrote {event['output']} ({event['frame_count']} frames) in {event['seconds']:.1f} s\n"
        else:
            text = stage
        print("\r\033[K" + text, end="" if stage != "done" else "", file=sys.stderr, flush=True)

    return line


def main(argv=None) -> int:
    args = _parse(sys.argv[1:] if argv is None else argv)
    options = {name.replace("-", "_"): getattr(args, name.replace("-", "_"))
               for name in ("fps", "size", "scale", "codec", "crf", "backend", "encoder-threads")}
    resources = {}
    for item in args.resources:
        name, _, amount = item.partition("=")
        try:
            resources[name] = float(amount or 1)
        except ValueError:
            print(f"lamina-dask: --resources {item} is not NAME=AMOUNT", file=sys.stderr)
            return 2

    from distributed import Client, LocalCluster

    cluster = None
    try:
        if args.scheduler:
            try:
                client = Client(args.scheduler, timeout="5s")
            except (OSError, TimeoutError) as error:
                print(f"lamina-dask: cannot reach the scheduler at {args.scheduler}: {error}", file=sys.stderr)
                return 1
        else:
            workers = args.workers or os.cpu_count() or 1
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                   dashboard_address=None, resources=resources or None)
            client = Client(cluster)
    except Exception as error:  # a cluster that cannot start
        print(f"lamina-dask: cannot start the cluster: {error}", file=sys.stderr)
        return 1

    interrupted = []

    def on_signal(number, frame):
        interrupted.append(number)
        raise KeyboardInterrupt

    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, on_signal)
    status = 0
    try:
        render(client, args.scene, args.output, parts_dir=args.parts_dir, lamina=args.lamina,
               segment_seconds=args.segment_seconds, retries=args.retries, seconds_per_frame=args.seconds_per_frame,
               resources=resources or None, overwrite=args.overwrite, on_progress=_reporter(args.progress), **options)
    except LaminaDaskError as error:
        print(f"\nlamina-dask: {error}", file=sys.stderr)
        status = 1
    except KeyboardInterrupt:
        print("\nlamina-dask: interrupted; finished parts are kept, run again to resume", file=sys.stderr)
        number = interrupted[0] if interrupted else signal.SIGINT
        status = 128 + int(number)
    finally:
        try:
            client.close(timeout=5)
            if cluster is not None:
                cluster.close(timeout=5)
        except Exception:
            pass
    return status


if __name__ == "__main__":
    sys.exit(main())
