// The scripted embed of idle-partitions.html: listens to the element's events and drives its
// simulation through `el.playground`. A separate file (no inline script), so the page works
// under a Content-Security-Policy without 'unsafe-inline'.
const $ = (id) => document.getElementById(id);
const counts = { window: 0, idle: 0, active: 0 };
const MAX_LOG = 30;

/** Adds a line to the event log (as text: nothing from an event is parsed as HTML). */
function log(text) {
  const li = document.createElement("li");
  li.textContent = text;
  const list = $("log");
  list.prepend(li);
  while (list.children.length > MAX_LOG) list.lastChild.remove();
}

function count(kind) {
  counts[kind] += 1;
  $(`count-${kind === "window" ? "windows" : kind}`).textContent = String(counts[kind]);
}

function describeStatus(kind, d) {
  const where = d.partition != null ? `partition ${d.partition}` : `${d.level} subtask ${d.subtask}`;
  // Words, not the app's glyphs: there "‖" means paused by split alignment, not idle.
  return `${kind}: ${where}`;
}

function wire(el) {
  for (const kind of ["idle", "active"]) {
    el.addEventListener(kind, (e) => {
      count(kind);
      if (e.detail?.level === "split") log(describeStatus(kind, e.detail));
    });
  }
  el.addEventListener("window", (e) => {
    count("window");
    if (counts.window <= 3 || counts.window % 50 === 0) log(`▮ window fired (#${counts.window}): key ${e.detail?.key}`);
  });
  const call = (f) => () => {
    try {
      f(el.playground);
      $("error").textContent = "";
    } catch (err) {
      $("error").textContent = String(err.message ?? err);
    }
  };
  // The embed's own ▶ button, its Space key and the reader scrolling it away change this too:
  // the label follows the element's state, read a few times a second.
  const label = () => {
    let playing = false;
    try {
      playing = el.playground?.playing === true;
    } catch {
      // Not started yet (it starts when scrolled into view).
    }
    const text = playing ? "Pause" : "▶ Play";
    if ($("btn-play").textContent !== text) $("btn-play").textContent = text;
  };
  setInterval(label, 250);
  $("btn-play").addEventListener("click", call((p) => {
    if (p.playing) p.pause(); else p.play();
    label();
  }));
  $("btn-silence").addEventListener("click", call((p) => p.silence(1)));
  $("btn-resume").addEventListener("click", call((p) => p.resume(1)));
}

/** "Copy" buttons: the snippet's text to the clipboard, and say so on the button. */
function copyButtons() {
  for (const b of document.querySelectorAll("button.copy")) {
    b.addEventListener("click", async () => {
      const text = $(b.dataset.copy).textContent;
      try {
        await navigator.clipboard.writeText(text);
        b.textContent = "Copied ✓";
      } catch {
        b.textContent = "Select and copy";
      }
      setTimeout(() => (b.textContent = "Copy"), 2000);
    });
  }
}

/** The iframe posts its content's height (the bridge's `resize` event, as in the snippet): the
 * frame takes it, so a taller job does not scroll inside it. docs.css's height holds until the
 * first message, and without scripts. */
function followHeight(frame) {
  const origin = new URL(frame.src).origin;
  addEventListener("message", (ev) => {
    if (ev.origin !== origin || ev.source !== frame.contentWindow || ev.data?.wmp !== 1 || ev.data.event !== "resize") return;
    frame.style.height = `${ev.data.detail.height}px`;
  });
}

copyButtons();
followHeight($("frame-empty"));
await customElements.whenDefined("watermark-playground");
wire($("scripted"));
