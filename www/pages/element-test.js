// Boot of element-test.html (a file, not inline: the page is also served under a strict CSP).
import init, { defineElement } from "../wmp.js";

// The wasm exports, for the test's memory figures.
window.wmpWasm = await init();
window.wmpDefined = [defineElement(), defineElement()];
document.documentElement.dataset.ready = "1";
