// lamina preview: the page's logic. Frames, comparisons and trees come from the server by
// (scene version, frame number); frame numbers are the only time the page keeps — the server
// turns them into times (FrameClock) and says which time each picture shows.
"use strict";

const $ = (id) => document.getElementById(id);
const img = $("frame");
const scrubber = $("scrubber");

const state = {
  attempt: -1,      // the server's load counter last seen
  scene: null,      // the loaded version's description (from /api/status)
  frame: 0,         // the frame asked for
  view: "gpu",
  playing: false,
  selected: null,   // path of the outlined layer
  tree: null,       // the last tree shown
  collapsed: new Set(),
  shownTimes: [],   // when frames were put on screen while playing (achieved fps)
  shownCount: 0,    // frames put on screen while playing, ever
};

// ---------------------------------------------------------------- status and live reload

async function poll() {
  try {
    const response = await fetch("/api/status", { cache: "no-store" });
    applyStatus(await response.json());
    $("status").textContent = "live";
  } catch (error) {
    $("status").textContent = "server unreachable";
  }
  setTimeout(poll, 250);
}

function applyStatus(status) {
  if (status.attempt === state.attempt) return;
  const first = state.attempt < 0;
  state.attempt = status.attempt;
  if (first && status.view) setView(status.view);
  $("status").title = "watching " + status.files.join(", ");
  const error = $("error");
  error.textContent = status.error || "";
  error.hidden = !status.error;
  document.body.classList.toggle("broken", !!status.error);
  $("stale").hidden = !(status.error && status.scene);
  const scene = status.scene;
  if (!scene || (state.scene && scene.version === state.scene.version)) return;
  state.scene = scene;
  forgetFrames();
  scrubber.max = String(scene.frameCount - 1);
  if (state.frame > scene.frameCount - 1) state.frame = scene.frameCount - 1;
  $("scene-info").textContent = `${scene.file} · ${scene.width}×${scene.height} · ${scene.fps} fps · ` +
    `${scene.frameCount} frames · version ${scene.version}`;
  const notes = $("notes");
  notes.replaceChildren(...scene.notes.map((text) => Object.assign(document.createElement("li"), { textContent: text })));
  show(state.frame);
}

// ---------------------------------------------------------------- frames

const frames = new Map();   // "version/view/frame" → Promise of {url, time, frame, version, view}
const maximumKeptFrames = 48;

function frameKey(version, view, frame) { return `${version}/${view}/${frame}`; }

function fetchFrame(version, view, frame) {
  const key = frameKey(version, view, frame);
  let pending = frames.get(key);
  if (pending) {
    frames.delete(key);       // re-inserted: most recently used last
    frames.set(key, pending);
    return pending;
  }
  pending = fetch(`/api/frame?v=${version}&frame=${frame}&view=${view}`, { cache: "no-store" }).then(async (response) => {
    if (!response.ok) throw new Error((await response.text()).trim());
    const blob = await response.blob();
    return { url: URL.createObjectURL(blob), time: response.headers.get("X-Lamina-Time"), frame, version, view };
  });
  pending.catch(() => frames.delete(key));
  frames.set(key, pending);
  while (frames.size > maximumKeptFrames) {
    const [oldest, old] = frames.entries().next().value;
    frames.delete(oldest);
    old.then((f) => { if (img.dataset.url !== f.url) URL.revokeObjectURL(f.url); }, () => {});
  }
  return pending;
}

function forgetFrames() {
  for (const pending of frames.values()) pending.then((f) => { if (img.dataset.url !== f.url) URL.revokeObjectURL(f.url); }, () => {});
  frames.clear();
}

/// Decodes a fetched frame off screen, so that putting it on screen does not flicker.
async function decoded(frame) {
  const loader = new Image();
  loader.src = frame.url;
  await loader.decode();
  return frame;
}

function display(frame) {
  img.src = frame.url;
  img.dataset.url = frame.url;
  img.dataset.frame = String(frame.frame);
  img.dataset.version = String(frame.version);
  img.dataset.view = frame.view;
  img.dataset.time = frame.time;
  $("frame-error").hidden = true;
  setPosition(frame.frame, frame.time);
  drawOutline();
}

function setPosition(frame, time) {
  const count = state.scene ? state.scene.frameCount : 0;
  const seconds = time === undefined ? "…" : `${Number(time).toFixed(3)} s`;
  $("position").textContent = `frame ${frame} / ${count - 1} · ${seconds}`;
}

let showing = false;

/// Shows frame `frame` of the current version in the current view. While one frame is on its
/// way, later calls only move the target: dragging the scrubber asks for the frame under it when
/// the last one has come, not for every frame passed over.
async function show(frame) {
  if (!state.scene) return;
  state.frame = frame;
  scrubber.value = String(frame);
  setPosition(frame);
  if (showing) return;
  showing = true;
  let want, version, view;
  try {
    do {
      want = state.frame; version = state.scene.version; view = state.view;
      try {
        const fetched = await decoded(await fetchFrame(version, view, want));
        if (!state.playing && want === state.frame && version === state.scene.version && view === state.view) display(fetched);
      } catch (error) {
        $("frame-error").textContent = String(error.message || error);
        $("frame-error").hidden = false;
      }
    } while (!state.playing && (want !== state.frame || version !== state.scene.version || view !== state.view));
  } finally {
    showing = false;
  }
  if (state.playing) return;
  if (view === "diff") compare(version, want);
  loadTree(version, want);
}

// ---------------------------------------------------------------- playback

function sleep(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

function setPlaying(playing) {
  state.playing = playing;
  $("play").textContent = playing ? "Pause" : "\u25B6 Play";
  if (playing) { state.shownTimes = []; play(); } else { show(state.frame); }
}

/// The frame after `frame`, wrapping when looping; null at the end otherwise.
function nextFrame(frame) {
  if (frame + 1 < state.scene.frameCount) return frame + 1;
  return $("loop").checked ? 0 : null;
}

/// Plays at the scene's pace (one frame per frame duration) or as fast as frames arrive when
/// that is slower, keeping a few frames in flight ahead of the playhead.
async function play() {
  const prefetch = 4;
  let last = performance.now();
  while (state.playing && state.scene) {
    const version = state.scene.version, view = state.view;
    const next = nextFrame(state.frame);
    if (next === null) { setPlaying(false); return; }
    for (let ahead = next, i = 0; i < prefetch && ahead !== null; i++, ahead = nextFrame(ahead)) fetchFrame(version, view, ahead);
    let fetched;
    try {
      fetched = await decoded(await fetchFrame(version, view, next));
    } catch (error) {
      if (state.scene.version !== version || state.view !== view) continue;   // reloaded meanwhile
      $("frame-error").textContent = String(error.message || error);
      $("frame-error").hidden = false;
      setPlaying(false);
      return;
    }
    const wait = state.scene.frameDuration * 1000 - (performance.now() - last);
    if (wait > 0) await sleep(wait);
    if (!state.playing || state.scene.version !== version || state.view !== view) continue;
    state.frame = next;
    scrubber.value = String(next);
    display(fetched);
    last = performance.now();
    countShown(last);
    if (view === "diff") compare(version, next);
    loadTreeThrottled(version, next);
  }
}

function countShown(now) {
  state.shownCount++;
  const times = state.shownTimes;
  times.push(now);
  while (times.length > 2 && now - times[0] > 2000) times.shift();
  if (times.length >= 2) {
    const fps = (times.length - 1) * 1000 / (now - times[0]);
    $("fps").textContent = `${fps.toFixed(1)} fps (scene ${state.scene.fps} fps)`;
    $("fps").dataset.fps = fps.toFixed(2);
  }
}

// ---------------------------------------------------------------- comparison

async function compare(version, frame) {
  const box = $("comparison");
  try {
    const response = await fetch(`/api/compare?v=${version}&frame=${frame}`, { cache: "no-store" });
    if (!response.ok) throw new Error((await response.text()).trim());
    const c = await response.json();
    if (state.view !== "diff" || c.frame !== state.frame) return;
    const psnr = c.psnr === "inf" ? "∞ (identical)" : `${c.psnr.toFixed(2)} dB`;
    const share = (100 * c.pixelsOverTolerance / c.pixelCount).toFixed(3);
    box.textContent = `PSNR ${psnr} · max difference ${c.maxDifference}/255 · ${c.pixelsOverTolerance} pixels (${share} %) over ${c.tolerance}/255`;
    box.dataset.psnr = String(c.psnr);
  } catch (error) {
    box.textContent = String(error.message || error);
  }
}

function setView(view) {
  state.view = view;
  for (const radio of document.querySelectorAll('input[name="view"]')) radio.checked = radio.value === view;
  $("comparison").hidden = view !== "diff";
  if (view !== "diff") { $("comparison").textContent = ""; delete $("comparison").dataset.psnr; }
  if (!state.playing) show(state.frame);
}

// ---------------------------------------------------------------- presentation tree

let treeToken = 0, lastTreeLoad = 0;

function loadTreeThrottled(version, frame) {
  const now = performance.now();
  if (now - lastTreeLoad < 500) return;
  loadTree(version, frame);
}

async function loadTree(version, frame) {
  lastTreeLoad = performance.now();
  const token = ++treeToken;
  try {
    const response = await fetch(`/api/tree?v=${version}&frame=${frame}`, { cache: "no-store" });
    if (!response.ok) return;
    const tree = await response.json();
    if (token !== treeToken) return;
    state.tree = tree;
    renderTree(tree);
  } catch (error) { /* the next frame tries again */ }
}

function layerLabel(layer) {
  const parts = layer.path.split("/");
  return parts[parts.length - 1];
}

function renderTree(tree) {
  $("tree-time").textContent = `at ${Number(tree.time).toFixed(3)} s`;
  const layers = tree.inspect.layers;
  const children = layers.map(() => []);
  tree.parents.forEach((parent, index) => { if (parent !== null) children[parent].push(index); });
  const build = (index) => {
    const layer = layers[index];
    const label = document.createElement("span");
    label.className = "layer";
    if (layer.hidden) label.classList.add("hidden-layer");
    if (layer.path === state.selected) label.classList.add("selected");
    label.dataset.index = String(index);
    label.dataset.path = layer.path;
    label.append(layerLabel(layer) + " ");
    label.append(Object.assign(document.createElement("span"), { className: "type", textContent: layer.type }));
    label.addEventListener("click", (event) => { event.preventDefault(); select(layer.path); });
    if (children[index].length === 0) {
      const leaf = document.createElement("div");
      leaf.className = "leaf";
      leaf.append(label);
      return leaf;
    }
    const details = document.createElement("details");
    details.open = !state.collapsed.has(layer.path);
    details.addEventListener("toggle", () => {
      if (details.open) state.collapsed.delete(layer.path); else state.collapsed.add(layer.path);
    });
    const summary = document.createElement("summary");
    summary.append(label);
    details.append(summary, ...children[index].map(build));
    return details;
  };
  $("tree").replaceChildren(...(layers.length ? [build(0)] : []));
  showDetails();
  drawOutline();
}

function select(path) {
  state.selected = state.selected === path ? null : path;
  for (const label of document.querySelectorAll("#tree .layer")) label.classList.toggle("selected", label.dataset.path === state.selected);
  showDetails();
  drawOutline();
}

function selectedIndex() {
  if (!state.tree || state.selected === null) return -1;
  return state.tree.inspect.layers.findIndex((layer) => layer.path === state.selected);
}

function showDetails() {
  const index = selectedIndex();
  const layer = index < 0 ? null : state.tree.inspect.layers[index];
  $("layer-details").textContent = layer === null ? "" :
    Object.entries(layer).map(([key, value]) => `${key}: ${JSON.stringify(value)}`).join("\n");
}

/// Outlines the selected layer's box (output pixels) over the picture, scaled as it is shown.
function drawOutline() {
  const outline = $("outline");
  const index = selectedIndex();
  const box = index < 0 ? null : state.tree.boxes[index];
  if (!box || !img.naturalWidth) { outline.hidden = true; return; }
  const sx = img.clientWidth / img.naturalWidth, sy = img.clientHeight / img.naturalHeight;
  Object.assign(outline.style, { left: `${box[0] * sx - 2}px`, top: `${box[1] * sy - 2}px`, width: `${box[2] * sx}px`, height: `${box[3] * sy}px` });
  outline.dataset.box = box.join(",");
  outline.hidden = false;
}

// ---------------------------------------------------------------- controls

function step(delta) {
  if (!state.scene) return;
  if (state.playing) setPlaying(false);
  const count = state.scene.frameCount;
  let frame = state.frame + delta;
  if (frame < 0) frame = $("loop").checked ? count - 1 : 0;
  if (frame >= count) frame = $("loop").checked ? 0 : count - 1;
  show(frame);
}

$("play").addEventListener("click", () => setPlaying(!state.playing));
$("step-back").addEventListener("click", () => step(-1));
$("step-forward").addEventListener("click", () => step(1));
scrubber.addEventListener("input", () => {
  if (state.playing) setPlaying(false);
  show(Number(scrubber.value));
});
for (const radio of document.querySelectorAll('input[name="view"]')) radio.addEventListener("change", () => setView(radio.value));
document.addEventListener("keydown", (event) => {
  if (event.target.tagName === "INPUT" && event.target.type !== "checkbox" && event.target.type !== "radio") return;
  if (event.key === " ") { event.preventDefault(); setPlaying(!state.playing); }
  if (event.key === "ArrowLeft") { event.preventDefault(); step(-1); }
  if (event.key === "ArrowRight") { event.preventDefault(); step(1); }
});
img.addEventListener("load", drawOutline);
window.addEventListener("resize", drawOutline);

poll();
