// What the <watermark-playground> tests share (element.test.mjs, element-csp.test.mjs): the
// strict policy the server sends for `csp=1`, and helpers over www/pages/element-test.html.
import { openPage } from "./lib.mjs";

export const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
/** serveAndLaunch's header hook: the strict policy for a URL with `csp=1`. */
export const cspHeaders = (pathname, req) => (req.url.includes("csp=1") ? { "content-security-policy": CSP } : {});

/** Helpers bound to `env` (serveAndLaunch's). */
export function elementHelpers(env) {
  /** Opens the test page; `#first` (eager, seed-001-heartbeat) is drawn. */
  async function open(query = "", options = {}) {
    const o = await openPage(env.browser, { viewport: { width: 1000, height: 900 }, ...options });
    await o.page.goto(env.baseUrl + "pages/element-test.html" + query, { waitUntil: "load" });
    await o.page.waitForFunction(() => document.documentElement.dataset.ready === "1", null, { timeout: 20_000 });
    await o.page.locator("#first .node.op").first().waitFor({ timeout: 20_000 });
    return o;
  }

  /** Adds an element with `attrs` to #more. */
  async function add(page, id, attrs, style = {}) {
    await page.evaluate(([id, attrs, style]) => {
      const el = document.createElement("watermark-playground");
      el.id = id;
      Object.assign(el.style, style);
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      document.getElementById("more").append(el);
    }, [id, attrs, style]);
  }

  const running = (page, id) => page.evaluate((id) => document.getElementById(id).playground.running, id);
  const call = (page, id, m, ...args) => page.evaluate(([id, m, args]) => document.getElementById(id).playground[m](...args), [id, m, args]);
  /** Expected console errors (a bad attribute's message) are taken out of `problems`. */
  function without(problems, re) {
    return problems.filter((p) => !re.test(p));
  }
  return { open, add, running, call, without };
}
