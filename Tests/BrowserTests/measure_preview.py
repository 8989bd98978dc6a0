"""Measures the frame rate `lamina preview` reaches in headless Chromium while playing a scene
(the README quotes it for Examples/demo.json at 1280×720), and saves a screenshot of the page.

    swift build -c release --product lamina
    .build/python/bin/python Tests/BrowserTests/measure_preview.py [SCENE] [--seconds S] [--screenshot OUT.png]
    .build/python/bin/python Tests/BrowserTests/measure_preview.py [SCENE] --no-browser   # the server alone

Not a test (no test_ prefix): speed is measured, never asserted.
"""

import argparse
import http.client
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scene", nargs="?", default=str(ROOT / "Examples" / "demo.json"))
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--backend", default="gpu")
    parser.add_argument("--screenshot")
    parser.add_argument("--select", default="", help="path of a layer to outline in the screenshot")
    parser.add_argument("--frame", type=int, default=None, help="frame to show in the screenshot")
    parser.add_argument("--no-browser", action="store_true",
                        help="fetch every frame in order over one connection, twice (drawn, then cached)")
    args = parser.parse_args()
    lamina = os.environ.get("LAMINA") or str(ROOT / ".build" / "release" / "lamina")
    logs = Path(tempfile.mkdtemp(prefix="lamina-preview-measure-"))
    with open(logs / "stdout", "w") as out, open(logs / "stderr", "w") as err:
        process = subprocess.Popen([lamina, "preview", args.scene, "--port", "0", "--backend", args.backend],
                                   stdout=out, stderr=err, stdin=subprocess.DEVNULL)
    try:
        url = None
        for _ in range(600):
            match = re.search(r"(http://[0-9.]+:\d+/)", (logs / "stdout").read_text())
            if match:
                url = match.group(1)
                break
            time.sleep(0.05)
        if url is None:
            sys.exit("lamina preview did not start: " + (logs / "stderr").read_text())
        if args.no_browser:
            measure_server(url, args.backend)
            return
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1680,1050"]:
            options.add_argument(argument)
        driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        wait = WebDriverWait(driver, 120, poll_frequency=0.05)
        try:
            driver.get(url)
            wait.until(lambda d: d.execute_script("return document.getElementById('frame').dataset.frame !== undefined"))
            size = driver.execute_script("return [state.scene.width, state.scene.height, state.scene.fps]")
            sample = "return [performance.now(), state.shownCount, state.frame, state.scene.frameCount]"
            driver.find_element("id", "play").click()
            time.sleep(2)  # warm up: contents rasterized, textures uploaded
            start = driver.execute_script(sample)
            time.sleep(args.seconds)
            end = driver.execute_script(sample)
            fps = (end[1] - start[1]) * 1000 / (end[0] - start[0])
            wrapped = " (the loop wrapped: some frames came from the cache)" if end[2] < start[2] else ""
            print(f"{Path(args.scene).name} at {size[0]}x{size[1]} ({args.backend} view), frames drawn on demand: "
                  f"{fps:.1f} frames/s shown over {args.seconds:.0f} s of playback{wrapped} (scene {size[2]} fps); "
                  f"{os.cpu_count()} CPU cores shared by the server and the browser")
            # The second time round every frame is in the server's cache.
            wait.until(lambda d: d.execute_script("return state.frame < 5"))
            start = driver.execute_script(sample)
            time.sleep(min(args.seconds, 5))
            end = driver.execute_script(sample)
            driver.find_element("id", "play").click()
            print(f"  second loop, frames from the cache: {(end[1] - start[1]) * 1000 / (end[0] - start[0]):.1f} frames/s")
            if args.screenshot:
                if args.frame is not None:
                    driver.execute_script("const s = document.getElementById('scrubber'); s.value = String(arguments[0]);"
                                          "s.dispatchEvent(new Event('input'));", args.frame)
                    wait.until(lambda d: d.execute_script(f"return document.getElementById('frame').dataset.frame === '{args.frame}'"))
                time.sleep(1)
                if args.select:
                    driver.execute_script("document.querySelector(`#tree .layer[data-path='${arguments[0]}']`).click()", args.select)
                    time.sleep(0.3)
                driver.save_screenshot(args.screenshot)
                print(f"screenshot: {args.screenshot}")
        finally:
            driver.quit()
    finally:
        os.kill(process.pid, signal.SIGTERM)
        process.wait(timeout=10)


def measure_server(url, view):
    """Frames/s of the server alone: every frame fetched in order, drawn and encoded, then again from the cache."""
    address = re.match(r"http://([0-9.]+):(\d+)/", url)
    connection = http.client.HTTPConnection(address.group(1), int(address.group(2)), timeout=120)

    def get(path):
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            sys.exit(f"{path}: {response.status} {body[:200]!r}")
        return body

    status = json.loads(get("/api/status"))
    scene = status["scene"]
    for label in ["drawn and PNG-encoded", "from the cache"]:
        start = time.monotonic()
        for frame in range(scene["frameCount"]):
            get(f"/api/frame?v={scene['version']}&frame={frame}&view={view}")
        elapsed = time.monotonic() - start
        print(f"{scene['frameCount']} frames at {scene['width']}x{scene['height']} ({view}), {label}: "
              f"{scene['frameCount'] / elapsed:.1f} frames/s")
    connection.close()


if __name__ == "__main__":
    main()
