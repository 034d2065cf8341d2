// The training page's live scenario: the seed-001 preset through the JS API, rendered with
// plain DOM. Ten simulated minutes without idleness (every window waits for partition 11),
// then the script sets the idle timeout to 60 s and the windows fire. The stall is played
// slowly (a reader has to see that nothing fires) and ends in a pause with a sentence; the
// rest runs fast. Speeds are per wall-clock second, so the pace does not depend on frame rate.
import init, { WatermarkPlayground } from "../wmp.js";

const FIX_AT_MS = 600_000; // when the script sets the idle timeout
const IDLE_TIMEOUT_MS = 60_000;
const STALL_SPEED = 40; // simulated ms per wall ms before the fix: 10 minutes in 15 s
const FAST_SPEED = 300; // after it
const PAUSE_MS = 4_000; // the pause at the fix, with its sentence
const MAX_STEP_MS = 20_000; // simulated ms per frame at most (a background tab comes back)
const SHOWN = 12; // window emissions listed

const $ = (id) => document.getElementById(id);
const utc = (ms) => new Date(ms).toISOString().slice(11, 19);
// With the day when it is not the lead split's: "23:59:54" beside "00:04:33" read as ahead.
const utcNear = (ms, lead) => {
  const iso = new Date(ms).toISOString();
  return iso.slice(0, 10) === new Date(lead).toISOString().slice(0, 10) ? iso.slice(11, 19) : `${iso.slice(5, 10)} ${iso.slice(11, 19)}`;
};
const mmss = (ms) => {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${String(Math.floor(s / 60)).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
};

let wmp = null;
let playing = true;
let fixedAt = null;
let recent = [];
let total = 0;
let endMs = 0;
let lastFrame = null; // wall time of the previous frame
let pausedUntil = 0; // wall time the pause at the fix ends

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "style") e.style.cssText = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : String(c));
  return e;
}

function restart() {
  if (wmp) wmp.free();
  wmp = WatermarkPlayground.fromPreset("seed-001-heartbeat");
  endMs = WatermarkPlayground.presetScenario("seed-001-heartbeat").duration_ms;
  fixedAt = null;
  pausedUntil = 0;
  recent = [];
  total = 0;
  wmp.on("window", (w) => {
    total += 1;
    recent.push(w);
    if (recent.length > SHOWN) recent.shift();
  });
  $("error").textContent = "";
  $("fix").disabled = false;
  setPlaying(true);
  render();
}

function applyFix() {
  if (fixedAt !== null) return;
  wmp.setParam("idle_timeout_ms", IDLE_TIMEOUT_MS);
  fixedAt = wmp.elapsedMs;
  $("fix").disabled = true;
}

function setPlaying(on) {
  playing = on;
  $("play").textContent = on ? "Pause" : "Play";
}

function story(snap) {
  const p11 = snap.splits[11];
  const t = mmss(snap.elapsedMs);
  if (performance.now() < pausedUntil) {
    return `${t} — ten minutes, and ${total === 0 ? "not one window has fired" : `only ${total} windows have fired`}: ` +
      `partition 11 holds every watermark back. Now the script sets the idle timeout to 60 s…`;
  }
  if (fixedAt === null) {
    return `${t} — no idle timeout. Partition 11 has had one heartbeat, at 00:00; its split watermark stays ` +
      `at ${p11.watermark?.ms ? utc(p11.watermark.ms) : "No Watermark"} while the others move on, so ` +
      `${total === 0 ? "not a single window has fired" : `${total} windows have fired`}. ` +
      `At ${mmss(FIX_AT_MS)} the script sets the idle timeout to 60 s.`;
  }
  if (!p11.idle && total === 0) {
    return `${t} — idle timeout set to 60 s at ${mmss(fixedAt)}. Partition 11 will be declared idle once it has ` +
      `been quiet for longer than the timeout (at a periodic watermark emission)…`;
  }
  return `${t} — partition 11 is ${p11.idle ? "idle" : "active"}: it no longer holds the watermark. ` +
    `The windows held since the start fired at once, and now one fires per key every minute (${total} so far).`;
}

function render() {
  const snap = wmp.snapshot({ openWindows: 0 });
  $("clock").textContent = `processing time +${mmss(snap.elapsedMs)} · ${snap.windowsFired} windows fired · trace ${snap.traceHash}`;
  $("story").textContent = story(snap);
  $("story").classList.toggle("pause", performance.now() < pausedUntil);

  const live = snap.splits.filter((s) => s.watermark && s.watermark.ms !== null);
  const max = Math.max(...live.map((s) => s.watermark.ms));
  const active = live.filter((s) => !s.idle);
  const min = active.length ? Math.min(...active.map((s) => s.watermark.ms)) : null;
  const maxBehind = Math.max(1, ...live.map((s) => max - s.watermark.ms));
  const rows = snap.splits.map((s) => {
    const ms = s.watermark?.ms ?? null;
    const behind = ms === null ? null : max - ms;
    const holds = !s.idle && ms !== null && ms === min && behind > 10_000;
    const cls = s.idle ? "idle" : holds ? "holds" : "";
    const label = ms === null ? WatermarkPlayground.describeWatermark(s.watermark ?? "-9223372036854775808") : utcNear(ms, max);
    const note = s.idle ? "idle" : holds ? "holds the watermark" : "";
    const width = behind === null ? 0 : Math.round((100 * behind) / maxBehind);
    return el(
      "tr",
      { class: cls },
      el("td", {}, s.partition),
      el("td", {}, s.subtask ?? "–"),
      el("td", {}, label),
      el("td", { class: "num" }, behind === null ? "–" : `${(behind / 1000).toFixed(1)} s`),
      el("td", {}, behind ? el("div", { class: "bar", style: `width:${Math.max(2, width)}px`, title: note }) : "", " ", note),
    );
  });
  $("splits").replaceChildren(...rows);

  $("fired").textContent = `(${total} so far, latest ${Math.min(total, SHOWN)} shown)`;
  const wrows = recent
    .slice()
    .reverse()
    .map((w) =>
      el(
        "tr",
        {},
        el("td", {}, `[${utc(w.start)}, ${utc(w.end)})`),
        el("td", {}, w.key),
        el("td", { class: "num" }, w.count),
        el("td", {}, `+${mmss(w.time - snap.startTime)}`),
      ),
    );
  $("windows").replaceChildren(...(wrows.length ? wrows : [el("tr", {}, el("td", { colspan: "4", class: "muted" }, "no window has fired yet"))]));
  $("explain").textContent = `explain(0): ${wmp.explain(0).text}`;
}

function frame(now) {
  const wall = lastFrame === null ? 0 : now - lastFrame;
  lastFrame = now;
  if (playing && wmp && now >= pausedUntil) {
    try {
      const t = wmp.elapsedMs;
      const step = Math.round(Math.min(MAX_STEP_MS, wall * (fixedAt === null ? STALL_SPEED : FAST_SPEED)));
      if (t >= endMs) {
        setPlaying(false);
        $("play").disabled = true;
      } else if (fixedAt === null && t + step >= FIX_AT_MS) {
        wmp.runUntil(FIX_AT_MS);
        pausedUntil = now + PAUSE_MS;
        render();
        applyFix();
      } else {
        wmp.runUntil(Math.min(endMs, Math.max(0, t) + step));
      }
      if (now >= pausedUntil) render();
    } catch (e) {
      $("error").textContent = String(e?.message ?? e);
      setPlaying(false);
    }
  }
  requestAnimationFrame(frame);
}

$("play").addEventListener("click", () => setPlaying(!playing));
$("fix").addEventListener("click", () => {
  applyFix();
  render();
});
$("restart").addEventListener("click", () => {
  $("play").disabled = false;
  restart();
});

try {
  await init();
  restart();
  requestAnimationFrame(frame);
} catch (e) {
  $("story").textContent = "";
  $("error").textContent = `Could not start the engine: ${e?.message ?? e}`;
}
