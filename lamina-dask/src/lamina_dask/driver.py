"""The driver: plan with ``lamina plan``, render segments as Dask tasks, check, join.

Everything Lamina does happens in ``lamina`` processes; this module only schedules them. A
segment is a pure function of (scene, settings, Lamina version, frame range), so a retried or
resumed segment writes the same bytes, and a part already on disk whose manifest matches is not
rendered again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Callable, Iterable, Optional

#: Render options passed to ``lamina plan`` (they decide the bytes, so they live in the plan).
PLAN_OPTIONS = ("fps", "size", "scale", "codec", "crf", "backend", "encoder_threads")

_PROGRESS = re.compile(r"frame (\d+)/(\d+)")


class LaminaDaskError(RuntimeError):
    """A render that could not complete: the message names the segment and its last error line."""


def _run(args: list[str], env: Optional[dict] = None, timeout: Optional[float] = None) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, env=env, timeout=timeout)


def _die_with_parent() -> None:
    """Runs in the child before exec: the kernel kills it when the worker that started it dies,
    so a killed worker leaves no orphan render behind (Linux; elsewhere a no-op)."""
    try:
        import ctypes
        import signal as _signal

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, int(_signal.SIGKILL))  # PR_SET_PDEATHSIG
    except Exception:
        pass


def _last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "(no output)"


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _write_atomically(path: Path, text: str) -> None:
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix="." + path.name + ".")
    with os.fdopen(fd, "w") as handle:
        handle.write(text)
    os.replace(temporary, path)


def plan(scene: str, out: str, *, lamina: str = "lamina", segment_seconds: float = 10, env: Optional[dict] = None,
         **options) -> dict:
    """The segment plan of rendering ``scene`` to ``out`` (``lamina plan --json``)."""
    args = [lamina, "plan", str(scene), "-o", str(out), "--segment-seconds", str(segment_seconds), "--json"]
    for name in PLAN_OPTIONS:
        value = options.get(name)
        if value is not None:
            args += ["--" + name.replace("_", "-"), str(value)]
    done = _run(args, env=env)
    if done.returncode != 0:
        raise LaminaDaskError(f"plan: {_last_line(done.stderr)}")
    return json.loads(done.stdout)


def segment_timeout(segment: dict, seconds_per_frame: float) -> float:
    """How long one segment may take before its task is failed (and retried): a minute plus a
    budget per frame."""
    a, b = segment["frames"]
    return 60 + (b - a + 1) * seconds_per_frame


def render_segment(lamina: str, plan_path: str, index: int, parts_dir: str, timeout: float, scene: Optional[str] = None,
                   env: Optional[dict] = None, progress_topic: Optional[str] = None) -> dict:
    """Runs ``lamina render --plan PLAN --segment INDEX -o PARTS`` (a Dask task): returns the
    segment's manifest and writes it beside the part as ``NAME.json``; raises with the last error
    line when lamina fails or runs past ``timeout`` seconds."""
    worker = None
    if progress_topic:
        try:
            from distributed import get_worker  # only inside a worker
            worker = get_worker()
        except Exception:
            worker = None
    args = [lamina, "render", "--plan", plan_path, "--segment", str(index), "-o", parts_dir, "--progress"]
    if scene:
        args.append(scene)
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, **(env or {})}, preexec_fn=_die_with_parent)
    errors: list[str] = []
    deadline = time.monotonic() + timeout
    assert process.stderr is not None and process.stdout is not None
    try:
        for line in process.stderr:
            errors.append(line.rstrip())
            match = _PROGRESS.search(line)
            if match and worker is not None:
                worker.log_event(progress_topic, {"index": index, "done": int(match.group(1))})
            if time.monotonic() > deadline:
                process.kill()
                raise LaminaDaskError(f"timed out after {timeout:.0f} s")
        output = process.stdout.read()
        status = process.wait(timeout=max(1, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        process.kill()
        raise LaminaDaskError(f"timed out after {timeout:.0f} s")
    if status != 0:
        raise LaminaDaskError(_last_line("\n".join(errors)) + f" (exit status {status})")
    manifest = json.loads(output.strip().splitlines()[-1])
    _write_atomically(Path(parts_dir) / (manifest["name"] + ".json"), json.dumps(manifest, sort_keys=True))
    return manifest


def finished_part(parts_dir: Path, render_id: str, segment: dict) -> Optional[dict]:
    """The manifest of a part already rendered for this plan, when the file is there and its
    SHA-256 is the manifest's; else None (it is rendered again)."""
    part = parts_dir / segment["name"]
    record = parts_dir / (segment["name"] + ".json")
    if not part.is_file() or not record.is_file():
        return None
    try:
        manifest = json.loads(record.read_text())
    except (OSError, ValueError):
        return None
    if manifest.get("render_id") != render_id or manifest.get("frames") != segment["frames"]:
        return None
    return manifest if _sha256(part) == manifest.get("sha256") else None


def render(client, scene: str, out: str, *, parts_dir: Optional[str] = None, lamina: str = "lamina",
           segment_seconds: float = 10, retries: int = 2, seconds_per_frame: float = 2.0, resources: Optional[dict] = None,
           overwrite: bool = False, env: Optional[dict] = None, on_progress: Optional[Callable[[dict], None]] = None,
           **options) -> dict:
    """Renders ``scene`` to ``out`` on the Dask cluster of ``client``.

    Parts go to ``parts_dir`` (default ``OUT.parts`` beside the output), which every worker must
    see (shared storage); finished parts whose manifest matches are kept, so a render that was
    interrupted resumes. Each segment is a task with key ``lamina-<render_id>-<index>``, retried
    ``retries`` times on failure (a killed worker's tasks are re-run by Dask), failed past a
    timeout derived from its frame count, and run where ``resources`` (``{"GPU": 1}``) allow.
    The video is joined under a temporary name and renamed: nothing is left under ``out`` unless
    the render completed. Returns the render's manifest.
    """
    started = time.monotonic()
    out_path = Path(out).resolve()
    report = on_progress or (lambda event: None)
    report({"stage": "plan"})
    the_plan = plan(scene, str(out_path), lamina=lamina, segment_seconds=segment_seconds, env=env, **options)
    render_id = the_plan["render_id"]
    parts = Path(parts_dir).resolve() if parts_dir else out_path.with_name(out_path.name + ".parts")
    parts.mkdir(parents=True, exist_ok=True)
    plan_path = parts / f"plan-{render_id}.json"
    _write_atomically(plan_path, json.dumps(the_plan, sort_keys=True))
    if out_path.exists() and not overwrite:
        raise LaminaDaskError(f"{out_path}: already exists (use overwrite to replace it)")

    segments = the_plan["segments"]
    manifests: dict[int, dict] = {}
    skipped = []
    for segment in segments:
        manifest = finished_part(parts, render_id, segment)
        if manifest is not None:
            manifests[segment["index"]] = manifest
            skipped.append(segment["index"])
    todo = [s for s in segments if s["index"] not in manifests]
    total_frames = the_plan["frame_count"]
    done_frames = sum(m["frame_count"] for m in manifests.values())
    report({"stage": "render", "done": len(manifests), "total": len(segments), "frames": done_frames, "frame_count": total_frames})

    from distributed import as_completed  # imported here so that planning works without a cluster

    topic = f"lamina-progress-{render_id}"
    live: dict[int, int] = {}

    def on_event(event):
        message = event[1]
        live[message["index"]] = message["done"]

    client.subscribe_topic(topic, on_event)
    futures = {}
    for segment in todo:
        future = client.submit(render_segment, lamina, str(plan_path), segment["index"], str(parts),
                               segment_timeout(segment, seconds_per_frame), None, env, topic,
                               key=f"lamina-{render_id}-{segment['index']}", retries=retries, resources=resources, pure=False)
        futures[future] = segment
    render_start = time.monotonic()
    try:
        pending = as_completed(list(futures), with_results=False)
        for future in pending:
            segment = futures[future]
            if future.status == "error":
                error = future.exception()
                a, b = segment["frames"]
                raise LaminaDaskError(f"segment {segment['index']} (frames {a}..{b}) failed after {retries + 1} attempts: {error}")
            manifest = future.result()
            manifests[segment["index"]] = manifest
            done_frames += manifest["frame_count"]
            live.pop(segment["index"], None)
            in_flight = sum(v for k, v in live.items() if k not in manifests)
            elapsed = max(time.monotonic() - render_start, 1e-6)
            rendered_now = done_frames - sum(manifests[i]["frame_count"] for i in skipped) + in_flight
            report({"stage": "render", "done": len(manifests), "total": len(segments), "frames": done_frames + in_flight,
                    "frame_count": total_frames, "fps": rendered_now / elapsed})
    except BaseException:
        for future in futures:
            future.cancel()
        raise
    finally:
        client.unsubscribe_topic(topic)

    # Every index present, frame counts summing to the plan's.
    missing = [s["index"] for s in segments if s["index"] not in manifests]
    if missing:
        raise LaminaDaskError(f"segments {missing} are missing")
    counted = sum(m["frame_count"] for m in manifests.values())
    if counted != total_frames:
        raise LaminaDaskError(f"the parts hold {counted} frames, the plan {total_frames}")

    report({"stage": "join"})
    join = [lamina, "join"] + [str(parts / s["name"]) for s in segments] + ["-o", str(out_path)]
    if overwrite:
        join.append("--overwrite")
    if the_plan.get("audio"):
        join += ["--audio-from", the_plan["audio"]]
    done = _run(join, env={**os.environ, **(env or {})})
    if done.returncode != 0:
        raise LaminaDaskError(f"join: {_last_line(done.stderr)}")
    if the_plan.get("audio"):
        report({"stage": "audio"})
    result = {
        "render_id": render_id,
        "output": str(out_path),
        "frame_count": total_frames,
        "fps": the_plan["fps"],
        "sha256": _sha256(out_path),
        "segments": [manifests[s["index"]] for s in segments],
        "rendered": sorted(s["index"] for s in todo),
        "skipped": sorted(skipped),
        "seconds": time.monotonic() - started,
    }
    report({"stage": "done", **{k: result[k] for k in ("render_id", "output", "frame_count", "seconds")}})
    return result


def segment_names(the_plan: dict) -> Iterable[str]:
    return (s["name"] for s in the_plan["segments"])
