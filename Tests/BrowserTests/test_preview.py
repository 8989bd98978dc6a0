"""`lamina preview` in a real browser: the page, the scrubber against `lamina render --time`,
the difference view, the tree's outline, playback, live reload of an edit and of a broken scene,
and what the server refuses."""

import base64
import http.client
import re
import subprocess
import time

from conftest import LAMINA, Preview, scene_text, wait_for, write_atomically

SHOWN = "const i = document.getElementById('frame'); return i.dataset.frame !== undefined && i.complete && i.naturalWidth > 0 ? i.dataset : null;"

FETCH_SHOWN = """
const done = arguments[arguments.length - 1];
fetch(document.getElementById('frame').src).then((r) => r.arrayBuffer()).then((buffer) => {
  const bytes = new Uint8Array(buffer);
  let text = '';
  for (let i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
  done(btoa(text));
}).catch((error) => done('error: ' + error));
"""


def open_page(driver, preview, shots):
    driver.get(preview.url)
    wait_for(driver, SHOWN, message="the first frame was not shown")
    shots("loaded")


def scrub_to(driver, frame):
    driver.execute_script("const s = document.getElementById('scrubber'); s.value = String(arguments[0]);"
                          "s.dispatchEvent(new Event('input', {bubbles: true}));", frame)
    return wait_for(driver, f"const d = document.getElementById('frame').dataset; return d.frame === '{frame}' ? d : null;",
                    message=f"frame {frame} was not shown")


def shown_png(driver):
    encoded = driver.execute_async_script(FETCH_SHOWN)
    assert not encoded.startswith("error"), encoded
    return base64.b64decode(encoded)


def compare(a, b):
    """`lamina compare`'s line for two PNG files."""
    return subprocess.run([LAMINA, "compare", str(a), str(b)], capture_output=True, text=True, check=True).stdout


def test_page_loads_with_the_scene(driver, preview, shots):
    open_page(driver, preview, shots)
    assert "scene.json · 96×64 · 10 fps · 10 frames" in driver.find_element("id", "scene-info").text
    assert driver.find_element("id", "position").text == "frame 0 / 9 · 0.000 s"
    assert driver.execute_script("return document.getElementById('frame').naturalWidth") == 96
    assert driver.find_element("id", "error").is_displayed() is False
    layers = [e.text for e in driver.find_elements("css selector", "#tree .layer")]
    assert layers == ["view layer", "box layer", "card layer"]


def test_the_scrubber_shows_the_render_of_that_frame(driver, preview, shots, tmp_path):
    open_page(driver, preview, shots)
    shown = scrub_to(driver, 7)
    shots("frame-7")
    assert shown["view"] == "gpu" and shown["time"] == "0.7"
    assert driver.find_element("id", "position").text == "frame 7 / 9 · 0.700 s"
    (tmp_path / "shown.png").write_bytes(shown_png(driver))
    subprocess.run([LAMINA, "render", str(preview.scene), "--time", str(7 / 10), "-o", str(tmp_path / "render.png")], check=True)
    assert "psnr inf dB, max difference 0," in compare(tmp_path / "shown.png", tmp_path / "render.png")
    # ±1 frame from the buttons.
    driver.find_element("id", "step-forward").click()
    wait_for(driver, "return document.getElementById('frame').dataset.frame === '8'")
    driver.find_element("id", "step-back").click()
    driver.find_element("id", "step-back").click()
    wait_for(driver, "return document.getElementById('frame').dataset.frame === '6'")


def test_the_difference_view_shows_psnr(driver, preview, shots):
    open_page(driver, preview, shots)
    scrub_to(driver, 3)
    driver.find_element("css selector", "input[name=view][value=diff]").click()
    text = wait_for(driver, "const c = document.getElementById('comparison'); return /PSNR/.test(c.textContent) ? c.textContent : null;")
    shots("difference")
    assert re.match(r"PSNR (\d+\.\d\d dB|∞ \(identical\)) · max difference \d+/255 · \d+ pixels", text), text
    psnr = driver.execute_script("return document.getElementById('comparison').dataset.psnr")
    assert psnr == "inf" or float(psnr) >= 40
    wait_for(driver, "return document.getElementById('frame').dataset.view === 'diff'")
    driver.find_element("css selector", "input[name=view][value=cpu]").click()
    wait_for(driver, "return document.getElementById('frame').dataset.view === 'cpu'")


def test_clicking_a_layer_outlines_it(driver, preview, shots):
    open_page(driver, preview, shots)
    scrub_to(driver, 5)
    wait_for(driver, "return document.querySelector('#tree-time').textContent === 'at 0.500 s'")
    driver.find_element("css selector", "#tree .layer[data-path='view/box']").click()
    box = wait_for(driver, "const o = document.getElementById('outline'); return o.hidden ? null : o.dataset.box;")
    shots("outlined")
    # The box moved from x = 12 to 48 (its centre) at t = 0.5: 16 points wide at scale 1.
    assert [float(v) for v in box.split(",")] == [40, 12, 16, 16]
    assert "path: \"view/box\"" in driver.find_element("id", "layer-details").text


def test_play_advances_at_the_scene_pace_and_pauses(driver, preview, shots):
    open_page(driver, preview, shots)
    driver.find_element("id", "play").click()
    fps = wait_for(driver, "return document.getElementById('fps').dataset.fps || null", message="no achieved fps shown")
    time.sleep(1.2)   # past frame 9 the loop wraps to 0
    shots("playing")
    assert 0 < float(fps) <= 10.5, fps
    assert "(scene 10 fps)" in driver.find_element("id", "fps").text
    driver.find_element("id", "play").click()
    paused = driver.execute_script("return document.getElementById('frame').dataset.frame")
    time.sleep(0.4)
    assert driver.execute_script("return document.getElementById('frame').dataset.frame") == paused


def test_an_edit_shows_within_two_seconds_and_a_broken_scene_shows_its_error(driver, preview, shots, tmp_path):
    open_page(driver, preview, shots)
    before = shown_png(driver)
    start = time.monotonic()
    write_atomically(preview.scene, scene_text(background="#F0F0F0"))
    wait_for(driver, "return document.getElementById('frame').dataset.version === '2'", timeout=2,
             message="the edited scene did not show within 2 s")
    elapsed = time.monotonic() - start
    shots("edited")
    after = shown_png(driver)
    assert after != before and elapsed < 2
    (tmp_path / "after.png").write_bytes(after)
    subprocess.run([LAMINA, "render", str(preview.scene), "-o", str(tmp_path / "edited.png")], check=True)
    assert "max difference 0," in compare(tmp_path / "after.png", tmp_path / "edited.png")

    broken = scene_text().replace('"keyPath": "position.x"', '"keyPath": "positon.x"')
    write_atomically(preview.scene, broken)
    error = wait_for(driver, "const e = document.getElementById('error'); return e.hidden ? null : e.textContent;", timeout=2)
    shots("broken")
    line = next(i for i, text in enumerate(broken.splitlines(), 1) if "positon.x" in text)
    assert re.match(rf"scene\.json:{line}:\d+: root\.sublayers\[0\]\.animations\[0\]\.keyPath: ", error), error
    assert "positon.x" in error
    # The last good frame stays, marked as such.
    assert driver.find_element("id", "stale").is_displayed()
    assert driver.execute_script("return document.getElementById('frame').dataset.version") == "2"
    assert shown_png(driver) == after

    write_atomically(preview.scene, scene_text())
    wait_for(driver, "return document.getElementById('error').hidden && document.getElementById('frame').dataset.version === '3'", timeout=2)
    shots("fixed")


def raw_get(url, path, method="GET", host=None):
    address = re.match(r"http://([0-9.]+):(\d+)/", url)
    connection = http.client.HTTPConnection(address.group(1), int(address.group(2)), timeout=10)
    connection.putrequest(method, path, skip_host=host is not None, skip_accept_encoding=True)
    if host is not None:
        connection.putheader("Host", host)
    connection.endheaders()
    response = connection.getresponse()
    body = response.read().decode("utf-8", "replace")
    connection.close()
    return response.status, body


def test_the_server_refuses_paths_outside_its_routes(driver, preview, shots):
    for path in ["/../../../../etc/passwd", "/etc/passwd", "/%2e%2e/%2e%2e/Package.swift", "/scene.json",
                 "/Sources/Preview/Page/preview.js", "/preview.js/..%2f..%2fscene.json", "/api/../scene.json"]:
        status, body = raw_get(preview.url, path)
        assert status == 404 and "it serves no files" in body, (path, status, body)
        assert "root" not in body and "format" not in body
    assert raw_get(preview.url, "/api/status", method="POST")[0] == 405
    status, body = raw_get(preview.url, "/", host="rebound.example")
    assert status == 403 and "--host" in body
    driver.get(preview.url + "etc/passwd")
    shots("not-found")
    assert "404 Not Found" in driver.find_element("tag name", "body").text


def test_other_bind_addresses_need_host(tmp_path):
    write_atomically(tmp_path / "scene.json", scene_text())
    refused = subprocess.run([LAMINA, "preview", str(tmp_path / "scene.json"), "--port", "0.0.0.0:8000"],
                             capture_output=True, text=True, timeout=30)
    assert refused.returncode == 2
    assert "refusing to serve on 0.0.0.0: the preview serves 127.0.0.1 only; give --host 0.0.0.0" in refused.stderr
    # With --host, another address is served and any Host name answered (here still a loopback one).
    other = Preview(tmp_path, extra=["--host", "127.0.0.2"])
    try:
        assert other.url.startswith("http://127.0.0.2:")
        assert raw_get(other.url, "/api/status", host="preview.example")[0] == 200
    finally:
        other.stop()
