"""`lamina bench --html` opened in the browser: the chart's bars and the frames are there."""

import json
import subprocess

from conftest import LAMINA


def test_bench_html_shows_the_chart_and_the_frames(driver, shots, tmp_path):
    page = tmp_path / "bench.html"
    subprocess.run([LAMINA, "bench", "--html", str(page), "--seconds", "0.05", "--size", "160x90", "--only", "10 textured, opaque"],
                   check=True, capture_output=True, timeout=120)
    rows = json.loads((tmp_path / "bench.json").read_text())
    assert [row["scene"] for row in rows] == ["10 textured, opaque"]
    driver.get(page.as_uri())
    shots("bench")
    bars = driver.execute_script(
        "return [...document.querySelectorAll('#fps-chart rect.bar')].map((r) => [r.dataset.series, Number(r.dataset.fps), r.getBBox().width]);")
    assert [series for series, _, _ in bars] == ["gpu", "cpu", "floor"]
    assert all(fps > 0 and width >= 1 for _, fps, width in bars), bars
    assert abs(bars[0][1] - rows[0]["gpu"]["framesPerSecond"]) < 0.06
    images = driver.execute_script(
        "return [...document.querySelectorAll('img.frame')].map((i) => [i.className, i.complete, i.naturalWidth, i.naturalHeight]);")
    assert images == [["frame gpu", True, 160, 90], ["frame cpu", True, 160, 90], ["frame difference", True, 160, 90]]
    assert len(driver.find_elements("css selector", "#stages tr")) == 3      # header, GPU, CPU
    agreement = driver.find_element("css selector", "#agreement tr:nth-child(2)").text
    assert agreement.startswith("10 textured, opaque 160x90") and "/255" in agreement
