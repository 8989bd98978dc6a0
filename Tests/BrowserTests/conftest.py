"""Fixtures for the browser tests: Debian's headless Chromium driven by Selenium, and
`lamina preview` started on a free loopback port (by PID, stopped by PID).

A test that fails leaves a screenshot of the page in each state it passed through, and the
preview's standard error, under .build/browser-artifacts/<test>/.
"""

import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
LAMINA = os.environ.get("LAMINA") or str(ROOT / ".build" / "debug" / "lamina")
ARTIFACTS = ROOT / ".build" / "browser-artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"

# A 96×64 scene at 10 fps, 1 s: a square moving right and a turned card, on `background`.
SCENE = """{{
  "format": 1, "size": [96, 64], "fps": 10, "duration": 1, "background": "{background}",
  "root": {{
    "name": "view",
    "sublayers": [
      {{"name": "box", "bounds": [0, 0, 16, 16], "position": [12, 20], "backgroundColor": "#FF3030",
        "animations": [{{"type": "basic", "keyPath": "position.x", "fromValue": 12, "toValue": 84, "duration": 1}}]}},
      {{"name": "card", "bounds": [0, 0, 30, 12], "position": [48, 46], "backgroundColor": "#30A0FF",
        "cornerRadius": 4, "transform": [{{"rotate": [0.3, 0, 0, 1]}}]}}
    ]
  }}
}}
"""


def scene_text(background="#101018"):
    return SCENE.format(background=background)


def write_atomically(path, text):
    """Writes `text` to `path` through a rename, as editors save."""
    temporary = path.with_suffix(".tmp")
    temporary.write_text(text)
    os.replace(temporary, path)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    setattr(item, "report_" + report.when, report)


@pytest.fixture(scope="session")
def driver():
    assert os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER), \
        "chromium and chromium-driver are needed (tools/install.sh installs them)"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1280,900", "--disable-extensions", "--no-first-run"]:
        options.add_argument(argument)
    browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    browser.set_script_timeout(20)
    yield browser
    browser.quit()


class Shots:
    """Screenshots of the page in each state a test passes through, written only on failure."""

    def __init__(self, driver):
        self.driver = driver
        self.taken = []

    def __call__(self, state):
        try:
            self.taken.append((state, self.driver.get_screenshot_as_png()))
        except Exception:  # a dead browser must not hide the test's own failure
            pass

    def write(self, folder):
        folder.mkdir(parents=True, exist_ok=True)
        for index, (state, png) in enumerate(self.taken):
            (folder / f"{index:02d}-{state}.png").write_bytes(png)


@pytest.fixture
def shots(request, driver):
    taken = Shots(driver)
    yield taken
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        taken("at-failure")
        taken.write(ARTIFACTS / request.node.name)


class Preview:
    """A running `lamina preview` of a scene in a temporary folder."""

    def __init__(self, folder, extra=()):
        self.folder = folder
        self.scene = folder / "scene.json"
        self.stdout = folder / "preview.stdout"
        self.stderr = folder / "preview.stderr"
        with open(self.stdout, "w") as out, open(self.stderr, "w") as err:
            self.process = subprocess.Popen([LAMINA, "preview", str(self.scene), "--port", "0", *extra],
                                            stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        self.url = None
        while time.monotonic() < deadline and self.url is None:
            match = re.search(r"(http://[0-9.]+:\d+/)", self.stdout.read_text())
            if match:
                self.url = match.group(1)
            elif self.process.poll() is not None:
                break
            else:
                time.sleep(0.05)
        assert self.url, f"lamina preview did not print its URL: {self.stderr.read_text()}"

    def stop(self):
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.kill(self.process.pid, signal.SIGKILL)
                self.process.wait()


@pytest.fixture
def preview(request, tmp_path):
    write_atomically(tmp_path / "scene.json", scene_text())
    running = Preview(tmp_path)
    yield running
    running.stop()
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        folder = ARTIFACTS / request.node.name
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(running.stderr, folder / "preview.stderr")


def wait_for(driver, script, timeout=10, message=""):
    """Waits until `script` (JavaScript returning a value) gives something truthy; returns it."""
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: d.execute_script(script), message)
