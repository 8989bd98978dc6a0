"""Fixtures: a 12 s scene over a clip with a tone, its single-run reference, and a Dask cluster
(a scheduler and two workers with nannies) on loopback, started and stopped by PID."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAMINA = os.environ.get("LAMINA") or str(ROOT / ".build" / "debug" / "lamina")
BIN = Path(sys.executable).parent


def run(args, **kwargs):
    return subprocess.run(args, capture_output=True, text=True, check=True, **kwargs)


def frame_hashes(path):
    out = run(["ffmpeg", "-v", "error", "-nostdin", "-i", str(path), "-map", "0:v", "-f", "framemd5", "-"]).stdout
    return [line.split(",")[-1].strip() for line in out.splitlines() if line and not line.startswith("#")]


def probe(path, stream):
    out = run(["ffprobe", "-v", "error", "-select_streams", f"{stream}:0", "-show_streams", "-print_format", "json", str(path)]).stdout
    streams = json.loads(out).get("streams", [])
    return streams[0] if streams else None


def children(pid):
    """PIDs whose parent is `pid` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    found.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return found


def command_line(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read().replace(b"\0", b" ").decode()
    except OSError:
        return ""


@pytest.fixture(scope="session")
def lamina():
    if not os.access(LAMINA, os.X_OK):
        pytest.fail(f"no lamina executable at {LAMINA}; build it first (swift build)")
    return LAMINA


@pytest.fixture(scope="session")
def scene(tmp_path_factory, lamina):
    """12 s at 192x108 over a generated clip with a 440 Hz tone; with its single-run render and
    the SHA-256 of every segment rendered once through the array-job contract."""
    folder = tmp_path_factory.mktemp("scene")
    run(["ffmpeg", "-v", "error", "-nostdin", "-y", "-f", "lavfi", "-i", "testsrc2=s=192x108:r=30:d=12", "-f", "lavfi", "-i",
         "sine=frequency=440:sample_rate=48000:duration=12", "-c:v", "libx264", "-preset", "ultrafast", "-qp", "10",
         "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", str(folder / "in.mp4")])
    (folder / "scene.json").write_text(json.dumps({
        "format": 1, "size": [192, 108], "fps": 30, "duration": 12, "background": "#000000",
        "assets": {"clip": "in.mp4"}, "video": {"asset": "clip", "layer": "video"},
        "root": {"sublayers": [
            {"name": "video", "type": "video", "frame": [0, 0, 192, 108]},
            {"bounds": [0, 0, 40, 40], "position": [96, 54], "backgroundColor": "#ff8800", "cornerRadius": 12,
             "animations": [{"type": "basic", "keyPath": "transform.rotation.z", "toValue": 6.28318, "duration": 3,
                             "repeatCount": "infinity"}]}]}}))
    run([lamina, "render", str(folder / "scene.json"), "-o", str(folder / "single.mp4"), "--backend", "cpu"])
    plan = json.loads(run([lamina, "plan", str(folder / "scene.json"), "-o", "x.mp4", "--segment-seconds", "2", "--backend", "cpu",
                           "--json"]).stdout)
    (folder / "plan.json").write_text(json.dumps(plan))
    (folder / "array").mkdir()
    shas = {}
    for segment in plan["segments"]:
        manifest = json.loads(run([lamina, "render", "--plan", str(folder / "plan.json"), "--segment", str(segment["index"]),
                                   "-o", str(folder / "array")]).stdout)
        shas[segment["index"]] = manifest["sha256"]
    return {"folder": folder, "path": str(folder / "scene.json"), "plan": plan, "shas": shas,
            "single_frames": frame_hashes(folder / "single.mp4")}


class Cluster:
    """`dask scheduler` and `dask worker` processes on 127.0.0.1, stopped by PID."""

    def __init__(self, folder: Path, workers: int = 2):
        self.folder = folder
        self.scheduler_file = folder / "scheduler.json"
        self.processes = []
        self.scheduler = self._start(["scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                      "--scheduler-file", str(self.scheduler_file)])
        deadline = time.monotonic() + 30
        while not self.scheduler_file.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        self.address = json.loads(self.scheduler_file.read_text())["address"]
        self.nannies = [self._start(["worker", "--scheduler-file", str(self.scheduler_file), "--host", "127.0.0.1",
                                     "--nthreads", "1", "--nworkers", "1", "--no-dashboard", "--name", f"w{i}",
                                     "--death-timeout", "60"]) for i in range(workers)]

    def _start(self, args):
        process = subprocess.Popen([str(BIN / "dask")] + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                   cwd=self.folder)
        self.processes.append(process)
        return process

    def worker_pid(self, nanny):
        """The worker process a nanny runs (its child running Python), or None."""
        for pid in children(nanny.pid):
            if "spawn_main" in command_line(pid):  # not the resource tracker
                return pid
        return None

    def busy_worker(self, nanny):
        """The nanny's worker PID while it runs a lamina render, else None."""
        worker = self.worker_pid(nanny)
        if worker and any("lamina" in command_line(c) and "--plan" in command_line(c) for c in children(worker)):
            return worker
        return None

    def stop(self):
        for process in reversed(self.processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture
def cluster(tmp_path):
    running = Cluster(tmp_path)
    from distributed import Client

    with Client(running.address, timeout="20s") as client:
        client.wait_for_workers(2, timeout=60)
    yield running
    running.stop()
