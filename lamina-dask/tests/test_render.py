"""lamina-dask against a real scheduler and workers on loopback: killed workers survived, the
joined video equal to a single run, resume after SIGINT, a segment that always fails, and an
unreachable scheduler."""

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from distributed import Client

from lamina_dask import LaminaDaskError, render
from conftest import BIN, frame_hashes, probe

FRAME = 1 / 30


def wait_for(condition, timeout=60, step=0.02):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(step)
    return None


def check_output(out, scene):
    assert frame_hashes(out) == scene["single_frames"], "the joined video decodes to the frames of one lamina render"
    audio, video = probe(out, "a"), probe(out, "v")
    assert audio is not None, "the input's audio is in the output"
    assert abs(float(audio["start_time"])) <= FRAME
    assert abs(float(audio["duration"]) - float(video["duration"])) <= FRAME


def test_killed_workers_are_survived_and_the_output_is_the_single_run(cluster, scene, lamina, tmp_path):
    out = tmp_path / "out.mp4"
    with Client(cluster.address, timeout="20s") as client:
        result = {}

        def work():
            try:
                result["manifest"] = render(client, scene["path"], str(out), lamina=lamina, segment_seconds=2, backend="cpu",
                                            retries=2)
            except BaseException as error:  # reported by the assertions below
                result["error"] = error

        thread = threading.Thread(target=work)
        thread.start()
        # SIGKILL the first worker while it renders a segment (its nanny restarts it) ...
        first = wait_for(lambda: cluster.busy_worker(cluster.nannies[0]))
        assert first, "worker 0 never ran a segment"
        os.kill(first, signal.SIGKILL)
        # ... and later the second worker together with its nanny (gone for good).
        second = wait_for(lambda: cluster.busy_worker(cluster.nannies[1]))
        assert second, "worker 1 never ran a segment"
        os.kill(second, signal.SIGKILL)
        os.kill(cluster.nannies[1].pid, signal.SIGKILL)
        thread.join(timeout=300)
    assert "error" not in result, result.get("error")
    manifest = result["manifest"]
    assert len(manifest["segments"]) == 6
    # Every segment, re-rendered or not, is byte-identical to its first render elsewhere.
    assert {m["index"]: m["sha256"] for m in manifest["segments"]} == scene["shas"]
    assert sum(m["frame_count"] for m in manifest["segments"]) == 360
    check_output(out, scene)


def test_an_interrupted_render_resumes_with_only_the_missing_parts(cluster, scene, lamina, tmp_path):
    out, parts = tmp_path / "out.mp4", tmp_path / "parts"
    driver = subprocess.Popen([str(BIN / "lamina-dask"), "render", scene["path"], "-o", str(out), "--scheduler", cluster.address,
                               "--parts-dir", str(parts), "--segment-seconds", "2", "--backend", "cpu", "--lamina", lamina,
                               "--progress", "jsonl"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert wait_for(lambda: len(list(parts.glob("part-*.json"))) >= 2, timeout=120)
    driver.send_signal(signal.SIGINT)
    _, errors = driver.communicate(timeout=60)
    assert driver.returncode == 130, errors
    assert not out.exists()
    assert "interrupted; finished parts are kept" in errors
    finished = {p.name for p in parts.glob("part-*.mp4") if (parts / (p.name + ".json")).exists()}
    # Segments already running when the driver stopped may still finish on the cluster.
    time.sleep(1)
    resumed_at = time.time_ns()
    with Client(cluster.address, timeout="20s") as client:
        manifest = render(client, scene["path"], str(out), parts_dir=str(parts), lamina=lamina, segment_seconds=2, backend="cpu")
    names = {m["index"]: m["name"] for m in manifest["segments"]}
    skipped = {names[i] for i in manifest["skipped"]}
    assert finished <= skipped, "parts finished before the interrupt are kept"
    assert set(manifest["rendered"]) == set(range(6)) - set(manifest["skipped"])
    assert manifest["rendered"], "some parts were still missing"
    for i, name in names.items():
        written = (parts / name).stat().st_mtime_ns
        if name in skipped:
            assert written < resumed_at, f"{name} was rendered again"
        else:
            assert written >= resumed_at, f"{name} was not rendered by the resumed run"
    check_output(out, scene)


def test_a_segment_that_always_fails_stops_the_render_with_its_range(cluster, scene, lamina, tmp_path):
    # An encoder that fails for segment 2 only.
    wrapper = tmp_path / "ffmpeg"
    wrapper.write_text("#!/bin/sh\ncase \"$*\" in *-00002.mp4*) echo 'simulated encoder failure' >&2; exit 1;; esac\n"
                       "exec ffmpeg \"$@\"\n")
    wrapper.chmod(0o755)
    (tmp_path / "ffprobe").symlink_to(subprocess.run(["which", "ffprobe"], capture_output=True, text=True).stdout.strip())
    out = tmp_path / "out.mp4"
    with Client(cluster.address, timeout="20s") as client:
        with pytest.raises(LaminaDaskError) as failure:
            render(client, scene["path"], str(out), lamina=lamina, segment_seconds=2, backend="cpu", retries=1,
                   env={"LAMINA_FFMPEG": str(wrapper)})
    message = str(failure.value)
    assert message.startswith("segment 2 (frames 120..179) failed after 2 attempts:"), message
    assert "simulated encoder failure" in message or "ffmpeg failed" in message, message
    assert "\n" not in message
    assert not out.exists()


def test_an_unreachable_scheduler_fails_fast_with_its_address(scene, lamina, tmp_path):
    started = time.monotonic()
    done = subprocess.run([str(BIN / "lamina-dask"), "render", scene["path"], "-o", str(tmp_path / "o.mp4"),
                           "--scheduler", "tcp://127.0.0.1:9", "--lamina", lamina], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert "cannot reach the scheduler at tcp://127.0.0.1:9" in done.stderr
    assert time.monotonic() - started < 30
    assert not (tmp_path / "o.mp4").exists()
