// The host side of the iframe bridge (src/api/bridge.rs), as a docs page on another origin would
// write it: `call(method, ...args)` posts a command and resolves with the answer (rejects with
// the error); every message from the embed is kept in `window.received`.
const frame = document.getElementById("embed");
const params = new URLSearchParams(location.search);
frame.src = params.get("frame") ?? "../index.html?embed=1&preset=seed-001-heartbeat";
const target = new URL(frame.src, location.href).origin;

window.received = [];
const pending = new Map();
let nextId = 1;

window.addEventListener("message", (ev) => {
  if (ev.source !== frame.contentWindow || ev.data?.wmp !== 1) return;
  window.received.push({ origin: ev.origin, ...ev.data });
  const waiting = pending.get(ev.data.id);
  if (waiting && "ok" in ev.data) {
    pending.delete(ev.data.id);
    if (ev.data.ok) waiting.resolve(ev.data.result);
    else waiting.reject(Object.assign(new Error(ev.data.error.message), { name: ev.data.error.name }));
  }
});

/** Rejects after 10 s without an answer: a test must fail, not hang. */
window.call = (method, ...args) =>
  new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    frame.contentWindow.postMessage({ wmp: 1, id, method, args }, target);
    setTimeout(() => pending.delete(id) && reject(new Error(`no answer to ${method} within 10 s`)), 10_000);
  });

/** Resolves once the embed said it is ready (rejects after 20 s). */
window.ready = new Promise((resolve, reject) => {
  const started = Date.now();
  const check = () => {
    if (window.received.some((m) => m.event === "ready")) resolve();
    else if (Date.now() - started > 20_000) reject(new Error("the embed never said it is ready"));
    else setTimeout(check, 20);
  };
  check();
});
