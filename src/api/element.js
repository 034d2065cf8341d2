// <watermark-playground>: the custom element (docs/API.md, "The element"), defined by the wasm
// module's defineElement() (src/api/element.rs), which hands over `mount(container, options)`.
// A module file, not inline script: it works under `script-src 'self' 'wasm-unsafe-eval'`.
//
// Each element has an open shadow root holding our stylesheet (a <link>: no inline <style>, so
// `style-src 'self'` suffices) and the mounted UI. Attributes are parsed by the wasm side (the
// one options parser of mount() and the iframe); a bad one shows its message in the element and
// on the console. Lifecycle: connected → mount (at once, when scrolled into view, or on a click
// of the poster, per `loading`); attribute changes apply live (a layout or full-url change remounts); disconnected →
// unmount (frame loop stopped, simulation freed) at the next microtask checkpoint, unless it
// was inserted again meanwhile (a move). Off-screen elements do not advance.

const TAG = "watermark-playground";
const ATTRS = ["preset", "scenario", "layout", "speed", "autoplay", "theme", "controls", "view", "start-at", "readonly", "loading", "full-url"];
/// How far outside the viewport an element counts as visible (it starts just before it shows).
const ROOT_MARGIN = "200px";
/// What the keyboard can reach in the playground, for the focus a placeholder hands on.
const FOCUSABLE = "button:not([disabled]), a[href], select, input, textarea, [tabindex]:not([tabindex^='-'])";

let mountFn = null;
/// What `el.playground` forwards: `MountedPlayground`'s methods for scripts (`mounted.rs`).
let methods = [];

/// A file of the bundle, next to wmp.js: this file is wasm-bindgen's copy in `snippets/…/`.
function bundleUrl(name) {
  const here = import.meta.url;
  const i = here.lastIndexOf("/snippets/");
  return new URL(name, i >= 0 ? here.slice(0, i + 1) : here).href;
}

/// The stylesheet beside wmp.js. A bundle's build writes its content-hashed name here
/// (wmp-style-<hash>.css, scripts/trunk-wasm-lib.sh); "style.css" is the same sheet's fixed name.
const STYLESHEET = "style.css";

function stylesheetUrl() {
  return bundleUrl(STYLESHEET);
}

export function defineWatermarkPlayground(mount, names) {
  if (typeof customElements === "undefined") throw new Error("defineElement: no custom elements here (a browser is needed)");
  if (customElements.get(TAG)) return false;
  mountFn = mount;
  methods = names;
  customElements.define(TAG, elementClass());
  return true;
}

/// `el.playground`: forwards to the current simulation (a remount makes a new one).
function facade(current) {
  const live = (m) => {
    const p = current();
    if (!p) throw Object.assign(new Error(`${m}: the playground is not running (not in the page, not started yet, or its attributes are wrong)`), { path: "" });
    return p;
  };
  const api = {
    get running() { return current() !== null; },
    get playing() { return live("playing").playing; },
    get speed() { return live("speed").speed; },
  };
  for (const m of methods.filter((m) => !(m in api))) {
    api[m] = (...args) => live(m)[m](...args);
  }
  return Object.freeze(api);
}

/// The class, made on first use: this module also loads in Node.js (the JS API), which has no
/// HTMLElement.
function elementClass() {
  return class WatermarkPlaygroundElement extends HTMLElement {
    static get observedAttributes() {
      return ATTRS;
    }

    #box;
    #mounted = null;
    #api;
    #io = null;
    #visible = false;
    /// Disconnected, and freed at the end of the task unless connected again first.
    #leaving = false;
    /// idle | waiting (lazy, off screen) | poster | running | error
    #state = "idle";
    /// The attributes changed since the last refresh: what an update names.
    #changed = new Set();
    /// Attributes whose live change was refused: retried with every later change, so that the
    /// element does not run one value while its attribute says another.
    #pending = new Set();

    constructor() {
      super();
      const root = this.attachShadow({ mode: "open" });
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = WatermarkPlaygroundElement.stylesheet || stylesheetUrl();
      this.#box = document.createElement("div");
      this.#box.className = "wmp-box";
      // Hidden until the <link> loads: unstyled, the UI shows what its options hide.
      this.#box.style.visibility = "hidden";
      const show = () => this.#box.style.removeProperty("visibility");
      link.addEventListener("load", show, { once: true });
      link.addEventListener("error", show, { once: true });
      root.append(link, this.#box);
      this.#api = facade(() => this.#mounted);
    }

    get playground() {
      return this.#api;
    }

    connectedCallback() {
      this.#io = new IntersectionObserver((entries) => this.#onVisibility(entries[entries.length - 1].isIntersecting), { rootMargin: ROOT_MARGIN });
      this.#io.observe(this);
      // Moved (removed and inserted in one task, as a docs framework re-parenting it does):
      // the reader's run goes on.
      if (!this.#leaving) return this.#begin();
      this.#leaving = false;
      if (this.#changed.size > 0) queueMicrotask(() => this.#refresh());
    }

    /// Per `loading`: the ▶ poster, a placeholder until scrolled into view, or the playground.
    #begin() {
      const loading = (this.getAttribute("loading") || "lazy").trim().toLowerCase();
      if (loading === "click") this.#poster();
      else if (loading === "lazy" && !this.#visible) this.#placeholder();
      else this.#start(false); // eager, lazy in view, or a bad value: the parser says what is wrong
    }

    disconnectedCallback() {
      this.#io?.disconnect();
      this.#io = null;
      this.#leaving = true;
      queueMicrotask(() => {
        if (!this.#leaving) return;
        this.#leaving = false;
        this.#changed.clear();
        this.#visible = false;
        this.#unmount();
        this.#box.replaceChildren();
        this.#state = "idle";
      });
    }

    attributeChangedCallback(name, old, value) {
      if (old === value || this.#state === "idle") return;
      // Changed while being moved (a framework detaching, patching, re-attaching): applied once
      // it is in the page again.
      if (!this.isConnected) {
        if (this.#leaving) this.#changed.add(name);
        return;
      }
      // Several attributes set in a row apply together.
      if (this.#changed.size === 0) queueMicrotask(() => this.#refresh());
      this.#changed.add(name);
    }

    /// The attributes `names` (default: all), `null` where absent: an update puts a removed
    /// attribute's option back to its default. An update names only the changed ones, so a
    /// new theme does not load the `preset` attribute over one the reader or a script loaded.
    #options(names = ATTRS) {
      const opts = {};
      for (const a of names) opts[a] = this.getAttribute(a);
      // Links out of the element ("open full ↗", Share) go to the full playground beside
      // wmp.js, not to the docs page, which does not read their `#s=` state.
      if (names.includes("full-url") && opts["full-url"] === null) opts["full-url"] = bundleUrl("index.html");
      if (names === ATTRS) opts.eventTarget = this;
      return opts;
    }

    /// A placeholder or poster shows the new attributes (its caption, its theme; `loading`
    /// decides again); a running playground applies them live or starts again.
    #refresh() {
      // Both source attributes, so that one beside the other is an error, as at a mount.
      if (this.#changed.has("preset") || this.#changed.has("scenario")) ["preset", "scenario"].forEach((a) => this.#changed.add(a));
      const changed = [...new Set([...this.#changed, ...this.#pending])];
      this.#changed.clear();
      if (!this.isConnected) return;
      if (this.#state === "waiting" || this.#state === "poster") return this.#begin();
      if (this.#state === "running") {
        let applied;
        try {
          applied = this.#mounted.update(this.#options(changed));
        } catch (e) {
          // The run goes on as it was (update changes nothing when it throws): a typo in one
          // attribute lost the reader's session, and fixing it started again from zero.
          changed.forEach((a) => this.#pending.add(a));
          return this.#warn(e);
        }
        this.#pending.clear();
        this.#warn(null);
        if (applied) return;
      }
      this.#start(false);
    }

    /// A bad attribute on a running playground, said under it (`null`: none any more).
    #warn(e) {
      this.#box.querySelector(":scope > .wmp-attr-error")?.remove();
      if (e === null) return;
      const message = (e instanceof Error ? e.message : String(e)).replace(/^update: /, "");
      console.error(`<${TAG}>: ${message}`);
      const line = this.#themedRoot();
      // The theme the running UI shows (the reader's T, or the bad attribute may be `theme`).
      const ui = this.#box.querySelector(":scope > .wmp-root");
      if (ui?.dataset.theme) line.dataset.theme = ui.dataset.theme;
      line.classList.add("wmp-attr-error");
      line.setAttribute("part", "error");
      line.setAttribute("role", "alert");
      line.textContent = `${message} (the playground runs on with the attribute as it was)`; // text, never markup
      this.#box.append(line);
    }

    #onVisibility(visible) {
      this.#visible = visible;
      if (this.#state === "waiting" && visible) this.#start(false);
      else if (this.#state === "running") this.#mounted.setVisible(visible);
    }

    #start(play) {
      this.#pending.clear(); // a mount reads every attribute
      this.#unmount();
      this.#box.replaceChildren();
      let r;
      try {
        r = mountFn(this.#box, this.#options());
      } catch (e) {
        r = e;
      }
      if (!(r && typeof r.unmount === "function")) return this.#fail(r);
      this.#mounted = r;
      this.#state = "running";
      r.setVisible(this.#visible);
      if (play) r.play();
      // `el.playground` works from here: a script waits for this (the element may start later
      // than the page's script runs, when scrolled into view or clicked).
      this.dispatchEvent(new CustomEvent("ready", { bubbles: true, composed: true }));
    }

    #unmount() {
      const m = this.#mounted;
      this.#mounted = null;
      if (m) {
        m.unmount();
        m.free();
      }
    }

    /// A poster or message in a themed root of its own (the UI brings its own).
    #show(child) {
      const root = this.#themedRoot();
      root.append(child);
      this.#box.replaceChildren(root);
    }

    #themedRoot() {
      const root = document.createElement("div");
      root.className = "wmp-root";
      const theme = (this.getAttribute("theme") || "").trim().toLowerCase();
      root.dataset.theme = theme === "light" || theme === "dark" ? theme : "system";
      return root;
    }

    #fail(e) {
      this.#unmount();
      // An attribute's error names the attribute, not the internal call that applied it.
      const message = (e instanceof Error ? e.message : String(e)).replace(/^update: /, "");
      console.error(`<${TAG}>: ${message}`);
      const box = document.createElement("div");
      box.className = "wmp-error";
      box.setAttribute("part", "error");
      box.setAttribute("role", "alert");
      const title = document.createElement("b");
      title.textContent = "The Watermark Playground cannot start";
      const text = document.createElement("span");
      text.textContent = message; // text, never markup
      box.append(title, text);
      this.#show(box);
      this.#state = "error";
    }

    /// `loading=lazy` off screen: the element's size and name, so the page does not jump and a
    /// reader sees what will be there. It is a Tab stop: the keyboard, which moves faster than
    /// the scrolling it causes, found nothing to stop at in it and went past; focused, it starts
    /// and gives the focus to the playground's first control.
    #placeholder() {
      const box = document.createElement("div");
      box.className = "wmp-poster wmp-waiting";
      box.setAttribute("part", "poster");
      box.tabIndex = 0;
      box.append(this.#caption());
      const note = document.createElement("span");
      note.className = "wmp-poster-note";
      note.textContent = "starts when scrolled into view or focused";
      box.append(note);
      box.addEventListener("focus", () => {
        this.#start(false);
        this.#box.querySelector(FOCUSABLE)?.focus();
      });
      this.#show(box);
      this.#state = "waiting";
    }

    #caption() {
      const caption = document.createElement("span");
      const preset = this.getAttribute("preset");
      caption.textContent = "Watermark Playground" + (preset ? ` — ${preset}` : ""); // text, never markup
      return caption;
    }

    #poster() {
      // Rebuilt on an attribute change: its ▶ keeps the focus it had.
      const focused = this.#state === "poster" && this.shadowRoot.activeElement?.localName === "button";
      const box = document.createElement("div");
      box.className = "wmp-poster";
      box.setAttribute("part", "poster");
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = "▶";
      button.setAttribute("aria-label", "Start the Watermark Playground");
      button.addEventListener("click", () => this.#start(true));
      box.append(button, this.#caption());
      this.#show(box);
      this.#state = "poster";
      if (focused) button.focus();
    }
  };
}
