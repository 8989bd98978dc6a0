"""`lamina preview` of a Lottie file: told apart from a scene file by content, played on its
own frame rate, and the frame under the scrubber equal to `lamina render --time` of it."""

import subprocess

from conftest import LAMINA, Preview, wait_for, write_atomically
from test_preview import compare, open_page, scrub_to, shown_png

# 64×48 at 10 fps, frames 0 … 9: an orange square moving right over a blue solid.
LOTTIE = """{"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 64, "h": 48, "nm": "moving",
 "layers": [
  {"ty": 4, "ind": 1, "nm": "square", "ip": 0, "op": 10, "st": 0, "sr": 1,
   "ks": {"p": {"a": 1, "k": [{"t": 0, "s": [12, 24, 0], "o": {"x": 0, "y": 0}, "i": {"x": 1, "y": 1}}, {"t": 9, "s": [52, 24, 0]}]},
          "a": {"a": 0, "k": [0, 0, 0]}, "o": {"a": 0, "k": 100}},
   "shapes": [{"ty": "rc", "d": 1, "p": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [16, 16]}, "r": {"a": 0, "k": 0}},
              {"ty": "fl", "c": {"a": 0, "k": [1, 0.5, 0, 1]}, "o": {"a": 0, "k": 100}, "r": 1}]},
  {"ty": 1, "ind": 2, "nm": "backdrop", "ip": 0, "op": 10, "st": 0, "sr": 1, "sc": "#2040a0", "sw": 64, "sh": 48,
   "ks": {"p": {"a": 0, "k": [0, 0, 0]}, "a": {"a": 0, "k": [0, 0, 0]}, "o": {"a": 0, "k": 100}}}
 ]}
"""


def test_a_lottie_file_previews_like_its_render(driver, shots, tmp_path):
    write_atomically(tmp_path / "scene.json", LOTTIE)
    preview = Preview(tmp_path)
    try:
        open_page(driver, preview, shots)
        info = driver.find_element("id", "scene-info").text
        assert "64×48" in info and "10 fps" in info and "10 frames" in info, info
        assert driver.find_element("id", "error").is_displayed() is False
        scrub_to(driver, 6)
        shots("frame-6")
        (tmp_path / "shown.png").write_bytes(shown_png(driver))
        subprocess.run([LAMINA, "render", str(preview.scene), "--time", str(6 / 10), "-o", str(tmp_path / "render.png")], check=True)
        assert "psnr inf dB, max difference 0," in compare(tmp_path / "shown.png", tmp_path / "render.png")
        # The square moved: frame 0 differs from frame 6.
        scrub_to(driver, 0)
        (tmp_path / "first.png").write_bytes(shown_png(driver))
        assert "psnr inf dB" not in compare(tmp_path / "first.png", tmp_path / "shown.png")
    finally:
        preview.stop()
