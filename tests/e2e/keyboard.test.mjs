// Keyboard only (issue 14): the seed-001 story walked with page.keyboard and no click — load
// the preset with its shortcut, play, Tab to the finding that names the culprit partition,
// apply its fix with Enter, and see the burst; Space on a focused button presses that button
// and does not toggle play; the help dialog is modal (focus in, Tab trapped, Escape closes,
// focus back to what opened it). Run after `trunk build --release`:
//   node --test tests/e2e/keyboard.test.mjs
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { serveAndLaunch, openPage, gotoApp, recordAnnouncements, announced, openControls, clockMs } from "./lib.mjs";

const env = serveAndLaunch({ before, after });

async function withApp(fn, hash = "") {
  const { context, page, problems } = await openPage(env.browser, { viewport: { width: 1440, height: 900 }, colorScheme: "light" });
  try {
    await gotoApp(page, env.baseUrl, hash);
    await recordAnnouncements(page);
    await fn(page);
    assert.deepEqual(problems, [], problems.join("\n"));
  } finally {
    await context.close();
  }
}

/** What has focus: its id, classes, text, and where it is. */
const focused = (page) =>
  page.evaluate(() => {
    const a = document.activeElement;
    return {
      tag: a?.tagName.toLowerCase(),
      id: a?.id ?? "",
      cls: a?.getAttribute("class") ?? "",
      text: a?.textContent?.trim().slice(0, 80) ?? "",
      inDialog: !!a?.closest("[role=dialog]"),
      finding: a?.closest(".why .finding")?.getAttribute("data-partition") ?? null,
    };
  });

/** Presses Tab (or Shift+Tab) until `pred(focused)` holds; fails after `max` presses. */
async function tabTo(page, pred, what, max = 250, key = "Tab") {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    const f = await focused(page);
    if (pred(f)) return f;
  }
  assert.fail(`${what}: not reached with ${max} × ${key}`);
}

const playing = async (page) => (await page.getAttribute("#btn-play", "aria-pressed")) === "true";
const minutes = (page) =>
  page.evaluate(() => {
    const [h, m, s] = document.querySelector("#clock").textContent.trim().split(":").map(Number);
    return h * 60 + m + s / 60;
  });
const results = async (page) => Number((await page.locator("#emissions-count").textContent()).split(" ")[0].replace(/,/g, ""));

test("keyboard only: load seed 001, play, find the culprit, fix it, see the burst", async () => {
  // Another preset first, so that the shortcut visibly loads seed 001.
  await withApp(async (page) => {
    assert.match(await page.locator(".preset-card").textContent(), /empty/i);
    await page.keyboard.press("1");
    await page.waitForFunction(() => document.querySelector("#preset")?.value === "seed-001-heartbeat");
    // Faster with +, until 1000×.
    for (let i = 0; i < 14 && (await page.inputValue("#speed")) !== "1000"; i++) await page.keyboard.press("+");
    assert.equal(await page.inputValue("#speed"), "1000");
    await page.keyboard.press("Space");
    assert.ok(await playing(page), "Space with nothing focused plays");
    await page.waitForFunction(() => /^00:(2\d|[3-5]\d):/.test(document.querySelector("#clock").textContent), null, { timeout: 60_000, polling: 50 });
    await page.keyboard.press("Space");
    assert.ok(!(await playing(page)), "Space pauses");
    assert.equal(await results(page), 0, "nothing fired while partition 11 holds the watermark");
    assert.match(await announced(page), /Partition 11 /, "announced");
    // Tab to the fix of the finding that names partition 11 (the first finding is open).
    const fix = await tabTo(page, (f) => f.finding === "11" && f.cls.includes("fix"), "the fix of partition 11's finding");
    assert.match(fix.text, /idle|heartbeat/i, `the fix: ${fix.text}`);
    const before = await minutes(page);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.querySelector("#splits-table")?.textContent.length > 0);
    // K plays (a letter shortcut still works on a focused button; Space would press it again).
    await page.keyboard.press("k");
    assert.ok(await playing(page), "K plays");
    await page.waitForFunction(
      () => Number(document.querySelector("#emissions-count").textContent.split(" ")[0].replace(/,/g, "")) > 100,
      null,
      { timeout: 60_000, polling: 100 },
    );
    await page.keyboard.press("k");
    assert.ok((await minutes(page)) > before, "time went on after the fix");
    assert.ok((await results(page)) > 100, "the burst: windows fired at once");
    assert.ok((await page.locator("#splits-table tr[data-partition='11']").textContent()).includes("IDLE"));
  }, "preset=empty-partition");
});

test("Space on a focused button presses it and does not toggle play", async () => {
  await withApp(async (page) => {
    const f = await tabTo(page, (x) => x.id === "btn-controls", "the Controls button");
    assert.equal(f.tag, "button");
    const expanded = await page.getAttribute("#btn-controls", "aria-expanded");
    await page.keyboard.press("Space");
    assert.notEqual(await page.getAttribute("#btn-controls", "aria-expanded"), expanded, "Space pressed the Controls button");
    assert.ok(!(await playing(page)), "and did not play");
    // Enter presses it too; the step button steps and plays nothing.
    await page.keyboard.press("Enter");
    assert.equal(await page.getAttribute("#btn-controls", "aria-expanded"), expanded);
    await tabTo(page, (x) => x.id === "btn-step", "the Step button", 40, "Shift+Tab");
    await page.keyboard.press("Space");
    await page.keyboard.press("Space");
    assert.ok(!(await playing(page)), "Space on Step does not play");
    assert.notEqual((await page.locator("#clock").textContent()).trim(), "00:00:00.000", "Space on Step stepped");
    // Nothing focused (body): Space plays.
    await page.evaluate(() => document.activeElement?.blur());
    await page.keyboard.press("Space");
    assert.ok(await playing(page), "Space with nothing focused plays");
    await page.keyboard.press("Space");
  });
});

test("Space plays after a click in the WHY panel or a table, and scrolls them when reached with Tab", async () => {
  await withApp(async (page) => {
    const why = page.locator(".card.why");
    const whyHas = () => why.evaluate((w) => ({ focused: document.activeElement === w, top: w.scrollTop, more: w.scrollHeight > w.clientHeight + 20 }));
    // A click on its text focuses the panel (a Tab stop, so that the arrows scroll it): Space
    // scrolled it instead of playing, as it did before the panel took focus.
    await page.locator(".why .sentence").click();
    assert.ok((await whyHas()).focused, "the click focused the panel");
    await page.keyboard.press("Space");
    assert.ok(await playing(page), "Space after a click in the panel plays");
    await page.keyboard.press("Space");
    assert.ok(!(await playing(page)), "and pauses");
    assert.equal((await whyHas()).top, 0, "the panel did not scroll");
    // So does a click in a table's box (the channels table's rows have no control).
    const channels = page.locator("#channels-table").locator("xpath=..");
    await page.locator("#channels-table tbody td").first().click();
    assert.ok(await channels.evaluate((r) => document.activeElement === r), "the click focused the table's box");
    await page.keyboard.press("Space");
    assert.ok(await playing(page), "Space after a click in a table plays");
    await page.keyboard.press("Space");
    // Reached with Tab, the panel keeps Space: the reader chose it to scroll it.
    await page.evaluate(() => document.activeElement?.blur());
    await page.evaluate(() => window.scrollTo(0, 0));
    await tabTo(page, (x) => /\bwhy\b/.test(x.cls) && x.tag === "section", "the WHY panel");
    const before = await whyHas();
    await page.keyboard.press("Space");
    assert.ok(!(await playing(page)), "Space on the panel reached with Tab does not play");
    assert.ok(before.more, "the panel has more than it shows");
    await page.waitForFunction((t) => document.querySelector(".card.why").scrollTop > t, before.top, { timeout: 3_000 });
  }, "preset=seed-001-heartbeat&start-at=600s");
});

test("the help dialog is modal: focus in, Tab trapped, Escape closes, focus goes back", async () => {
  await withApp(async (page) => {
    const dialog = page.locator("[role=dialog]");
    // Opened with Enter on the ? button.
    await tabTo(page, (x) => x.id === "btn-help", "the help button");
    await page.keyboard.press("Enter");
    await dialog.waitFor({ state: "visible" });
    assert.equal(await dialog.getAttribute("aria-modal"), "true");
    assert.equal(await page.locator(`#${await dialog.getAttribute("aria-labelledby")}`).textContent(), "Keyboard shortcuts");
    assert.ok((await focused(page)).inDialog, "focus moved into the dialog");
    // The shifted digits name the last preset there is (checked past it below).
    const [, lastKey, last] = (await dialog.textContent()).match(/⇧0 … ⇧(\d)load preset 10 … (\d+) /);
    assert.equal(Number(last), 10 + Number(lastKey));
    assert.equal(await page.locator("main").getAttribute("inert"), "", "the page behind is inert");
    for (const key of ["Tab", "Tab", "Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab", "Shift+Tab"]) {
      await page.keyboard.press(key);
      assert.ok((await focused(page)).inDialog, `focus stays in the dialog after ${key}`);
    }
    // Shortcuts do not act behind it.
    await page.keyboard.press("n");
    assert.equal((await page.locator("#clock").textContent()).trim(), "00:00:00.000");
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });
    assert.equal((await focused(page)).id, "btn-help", "focus went back to the help button");
    assert.equal(await page.locator("main").getAttribute("inert"), null, "the page is live again");
    // Opened with ? from wherever focus is; ? again closes it.
    await page.keyboard.press("?");
    await dialog.waitFor({ state: "visible" });
    assert.ok((await focused(page)).inDialog);
    await page.keyboard.press("?");
    await dialog.waitFor({ state: "hidden" });
    assert.equal((await focused(page)).id, "btn-help");
    // Past the last preset, a shifted digit says so.
    if (Number(lastKey) < 9) {
      await page.keyboard.press(`Shift+Digit${Number(lastKey) + 1}`);
      await page.locator(".notices .notice", { hasText: `There is no preset ${Number(last) + 1} (there are ${last})` }).waitFor();
    }
  });
});

test("the keyboard stays in the graph when the node it was on goes away", async () => {
  // Partition 0's split is released at 1 s: its Silence button hides under the focus.
  const sc = {
    name: "released at 1 s",
    topic: { partitions: 2 },
    producers: [{ partitions: "all", kind: "steady", rate_per_s: 10 }],
    window: { assigner: { type: "tumbling", size_ms: 1000 } },
    commands: [{ at_ms: 1000, command: "release_split", partition: 0 }],
  };
  await withApp(async (page) => {
    await page.focus("svg.graph [data-silence='0']");
    // Played by a script (a click would move the focus), until the release.
    await page.evaluate(() => document.querySelector("#btn-play").click());
    await page.waitForFunction(() => document.querySelector("svg.graph [data-silence='0']").classList.contains("hidden"));
    await page.evaluate(() => document.querySelector("#btn-play").click());
    await page.waitForFunction(() => document.activeElement?.matches("svg.graph"), null, { timeout: 2_000 });
    await page.keyboard.press("ArrowDown");
    assert.ok(await page.evaluate(() => !!document.activeElement?.closest("svg.graph [role=button]")), "the arrows go on from the graph");
  }, "scenario=" + encodeURIComponent(JSON.stringify(sc)));
});

test("the arrows follow the graph's drawing: across columns with Left / Right, within one with Up / Down", async () => {
  await withApp(async (page) => {
    /** The focused node: which attribute names it, and its value ("partition 0"). */
    const at = () =>
      page.evaluate(() => {
        const a = document.activeElement;
        for (const k of ["silence", "partition", "source", "chained", "operator"]) if (a?.hasAttribute(`data-${k}`)) return `${k} ${a.getAttribute(`data-${k}`)}`;
        return a?.tagName.toLowerCase();
      });
    await page.focus("svg.graph [data-partition='0']");
    await page.keyboard.press("ArrowRight");
    assert.match(await at(), /^source \d+$/, "Right from a partition: the source subtask column");
    await page.keyboard.press("ArrowRight");
    assert.match(await at(), /^operator \d+$/, "Right again: a window subtask (in seed 001, two presses; the list took 40)");
    await page.keyboard.press("ArrowRight");
    assert.match(await at(), /^operator \d+$/, "nothing right of it that takes focus: it stays");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    assert.match(await at(), /^partition \d+$/, "and back");
    await page.keyboard.press("ArrowLeft");
    assert.match(await at(), /^silence \d+$/, "the Silence buttons are a column of their own");
    await page.focus("svg.graph [data-partition='0']");
    await page.keyboard.press("ArrowUp");
    assert.equal(await at(), "partition 0", "the top of the column: it stays");
    await page.keyboard.press("ArrowDown");
    assert.match(await at(), /^partition [1-9]\d*$/, "Down: the next partition");
    await page.focus("svg.graph [data-operator='0']");
    await page.keyboard.press("ArrowDown");
    assert.equal(await at(), "operator 1", "Down from window subtask 0");
    // Into the graph: its first partition, not a Silence button (Enter there would silence it).
    await page.focus("svg.graph");
    await page.keyboard.press("ArrowRight");
    assert.equal(await at(), "partition 0");
    // "?" on a node opens the help (the nodes owned every key), and Escape gives the focus back.
    await page.keyboard.press("?");
    await page.locator("[role=dialog]").waitFor();
    await page.keyboard.press("Escape");
    await page.locator("[role=dialog]").waitFor({ state: "hidden" });
    assert.equal(await at(), "partition 0", "the focus is back on the node");
  }, "preset=seed-001-heartbeat");
});

test("a tab list is one Tab stop: the arrows, Home and End open the other tabs", async () => {
  await withApp(async (page) => {
    const why = await tabTo(page, (f) => f.id.startsWith("why-tab-"), "the WHY panel's tabs");
    assert.equal(why.id, "why-tab-why", "the selected tab is the one in the Tab order");
    const next = await tabTo(page, () => true, "what follows", 1);
    assert.ok(!next.id.startsWith("why-tab-"), `one Tab leaves the tab list (${next.id || next.cls})`);
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("ArrowRight");
    assert.equal((await focused(page)).id, "why-tab-advisor");
    assert.equal(await page.getAttribute("#why-tab-advisor", "aria-selected"), "true", "the arrow opens the tab");
    assert.ok(await page.locator("#why-pane-advisor").isVisible());
    await page.keyboard.press("End");
    assert.equal((await focused(page)).id, "why-tab-lag");
    await page.keyboard.press("ArrowRight");
    assert.equal((await focused(page)).id, "why-tab-why", "Right from the last goes round to the first");
    await page.keyboard.press("ArrowLeft");
    assert.equal((await focused(page)).id, "why-tab-lag");
    await page.keyboard.press("Home");
    assert.equal((await focused(page)).id, "why-tab-why");
    assert.deepEqual(await page.$$eval(".why-tabs [role=tab]", (ts) => ts.map((t) => t.tabIndex)), [0, -1, -1]);
    // The share card's tabs: Link makes the link when opened by the keyboard too.
    await page.focus("#tab-export");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    assert.equal((await focused(page)).id, "tab-link");
    assert.ok(await page.locator("#pane-link").isVisible());
    assert.match(await page.locator("#pane-link input").inputValue(), /#s=/, "the link was made");
  });
});

test("dismissing a notice with the keyboard gives the focus back to where it came from", async () => {
  await withApp(async (page) => {
    const step = page.locator(".preset-actions button:not([disabled])").first();
    await step.focus();
    await page.keyboard.press("Enter");
    const dismiss = page.locator(".notice button[aria-label=Dismiss]").last();
    await dismiss.waitFor({ state: "visible" });
    await dismiss.focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => !document.querySelector(".notice"));
    const back = await page.evaluate(() => document.activeElement?.closest(".preset-actions") !== null && document.activeElement?.tagName);
    assert.equal(back, "BUTTON", `focus went to ${JSON.stringify(await focused(page))}`);
  }, "preset=seed-001-heartbeat");
});

// A review: ArrowDown on the focused picker loaded a preset at every press (the run thrown
// away), and End opened a lesson with the focus lost to <body>. The keys browse; Enter loads.
test("the arrow keys browse the preset picker without loading; Enter loads and the focus stays", async () => {
  await withApp(async (page) => {
    const title = () => page.locator(".preset-card h2").first().textContent();
    const before = await title();
    await page.click("#btn-play");
    await page.waitForFunction(() => !document.querySelector("#clock").textContent.startsWith("00:00:00"), null, { timeout: 20_000 });
    await page.click("#btn-play");
    const clock = await page.locator("#clock").textContent();
    await page.focus("#preset");
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
    await page.keyboard.press("End");
    await page.waitForTimeout(400);
    assert.equal(await title(), before, "browsing loaded nothing");
    assert.equal(await page.locator("#clock").textContent(), clock, "the run is still there");
    assert.ok(!page.url().includes("lesson"), `End opened a lesson: ${page.url()}`);
    assert.equal((await focused(page)).id, "preset");
    // Escape puts back what runs.
    await page.keyboard.press("Escape");
    assert.equal(await page.inputValue("#preset"), "empty-partition");
    await page.keyboard.press("ArrowDown");
    const shown = await page.inputValue("#preset");
    assert.notEqual(shown, "empty-partition");
    await page.keyboard.press("Enter");
    await page.waitForFunction((b) => document.querySelector(".preset-card h2")?.textContent !== b, before);
    assert.equal(await page.inputValue("#preset"), shown);
    await page.waitForTimeout(100);
    assert.equal((await focused(page)).id, "preset", "the focus stays on the picker after a load");
    // A pick from the list (one `change`, no browsing key before it) still loads at once.
    await page.selectOption("#preset", "late-data");
    await page.waitForFunction(() => /late/i.test(document.querySelector(".preset-card h2")?.textContent));
  }, "preset=empty-partition");
});

// A review: the preset card's "Fix: withIdleness(5 s)" pressed with Enter scrolled the page to
// the timeline, and the focused button (y = −169) and its ring were off the screen. A finding's
// fix in the WHY panel is re-rendered by the restart: the focus fell to <body>.
test("a fix applied from the keyboard leaves the focus, and its ring, on the screen", async () => {
  const cases = [
    [(f) => f.tag === "button" && /withIdleness/.test(f.text), "BUTTON"],
    [(f) => /\bfix\b/.test(f.cls) && f.finding !== null, "SECTION"],
  ];
  for (const [fix, lands] of cases) {
    await withApp(async (page) => {
      await page.keyboard.press("Space");
      await page.waitForFunction(() => /^00:00:(1\d|[2-5]\d)/.test(document.querySelector("#clock").textContent), null, { timeout: 60_000, polling: 20 });
      await page.keyboard.press("Space");
      await tabTo(page, fix, `the fix (${lands})`);
      await page.keyboard.press("Enter");
      await page.locator(".notice", { hasText: "Applied" }).first().waitFor();
      await page.waitForTimeout(900);
      const box = await page.evaluate(() => {
        const a = document.activeElement;
        const r = a.getBoundingClientRect();
        return { tag: a.tagName, cls: a.className, top: r.top, bottom: r.bottom, h: innerHeight, visible: a.matches(":focus-visible") };
      });
      assert.equal(box.tag, lands, JSON.stringify(box));
      if (lands === "BUTTON") assert.ok(box.top >= 0 && box.bottom <= box.h, `the focused button is at y ${box.top}..${box.bottom} of ${box.h}`);
      else assert.ok(box.top < box.h && box.bottom > 0, `the WHY panel is at y ${box.top}..${box.bottom} of ${box.h}`);
      assert.ok(box.visible, "its focus ring shows");
    }, "preset=empty-partition");
  }
});

// A review: the Controls' "Flink version" restarted the job at every ArrowDown (Chromium fires
// `change` at each key on a closed select); the timestamp assigner did too. The keys browse,
// Enter restarts with the version shown, Escape puts back the running one.
test("the arrow keys browse the Flink version and the timestamp assigner without restarting; Enter applies", async () => {
  await withApp(async (page) => {
    await openControls(page);
    await page.click("#btn-play");
    await page.waitForFunction(() => !document.querySelector("#clock").textContent.startsWith("00:00:00"), null, { timeout: 20_000 });
    const restarted = page.locator(".notice", { hasText: "(restarted)" });
    for (const id of ["f-flink-version", "f-assigner"]) {
      const running = await page.inputValue(`#${id}`);
      await page.focus(`#${id}`);
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      const shown = await page.inputValue(`#${id}`);
      assert.notEqual(shown, running, `${id}: ArrowDown moved the choice`);
      const clock = await clockMs(page);
      await page.waitForTimeout(1_200);
      assert.equal(await restarted.count(), 0, `${id}: browsing restarted the job`);
      assert.ok((await clockMs(page)) > clock, `${id}: the clock keeps running`);
      await page.keyboard.press("Escape");
      assert.equal(await page.inputValue(`#${id}`), running, `${id}: Escape puts back the running value`);
      assert.ok(await page.locator("#controls").isVisible(), `${id}: the Escape that put back left the drawer open`);
    }
    // Enter applies the version shown (the line under it says what that release changes), and
    // the focus stays on the select.
    const msg = () => page.locator("#f-flink-version-msg").textContent();
    const before = await page.inputValue("#f-flink-version");
    const beforeMsg = await msg();
    await page.focus("#f-flink-version");
    await page.keyboard.press("ArrowDown");
    const shown = await page.inputValue("#f-flink-version");
    assert.notEqual(shown, before);
    assert.equal(await restarted.count(), 0, "browsing applied nothing");
    await page.keyboard.press("Enter");
    await restarted.first().waitFor();
    assert.ok((await restarted.first().textContent()).includes(`Flink ${shown}`), await restarted.first().textContent());
    await page.waitForFunction((m) => document.querySelector("#f-flink-version-msg").textContent !== m, beforeMsg);
    const shownMsg = await msg();
    assert.equal(await page.inputValue("#f-flink-version"), shown);
    assert.equal((await focused(page)).id, "f-flink-version");
    // Leaving after a browse applies what it shows, as the preset picker does.
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("Tab");
    await page.waitForFunction((m) => document.querySelector("#f-flink-version-msg").textContent === m, beforeMsg);
    assert.equal(await page.inputValue("#f-flink-version"), before);
    // A pick from the list (one `change`, no key before it) applies at once.
    await page.selectOption("#f-flink-version", shown);
    await page.waitForFunction((m) => document.querySelector("#f-flink-version-msg").textContent === m, shownMsg);
  }, "preset=seed-001-heartbeat");
});

// The line under the Flink version (its accessible description) described the running release
// while the arrows browsed another: it says what the one shown changes, and that Enter restarts
// the job as it; Escape and Enter bring back the running release's line.
test("browsing the Flink version with the arrows, the line under it describes the release shown", async () => {
  await withApp(async (page) => {
    await openControls(page);
    const msg = () => page.locator("#f-flink-version-msg").textContent();
    const lineIs = (want) => page.waitForFunction((m) => document.querySelector("#f-flink-version-msg").textContent === m, want, { timeout: 3_000 });
    assert.equal(await page.getAttribute("#f-flink-version", "aria-describedby"), "f-flink-version-msg");
    const running = await page.inputValue("#f-flink-version");
    const runningMsg = await msg();
    assert.doesNotMatch(runningMsg, /Enter restarts/);
    await page.focus("#f-flink-version");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    const shown = await page.inputValue("#f-flink-version");
    assert.equal(shown, "1.19.1", `two ArrowDowns from ${running}`);
    await page.waitForFunction(() => document.querySelector("#f-flink-version-msg").textContent.startsWith("1.19.1: "), null, { timeout: 3_000 });
    assert.match(await msg(), /^1\.19\.1: idleness on the wall clock.* — Enter restarts the job as 1\.19\.1$/);
    assert.equal(await page.locator(".notice", { hasText: "(restarted)" }).count(), 0, "the browse restarted nothing");
    await page.keyboard.press("Escape");
    await lineIs(runningMsg);
    await page.keyboard.press("ArrowDown");
    await page.waitForFunction(() => document.querySelector("#f-flink-version-msg").textContent.startsWith("2.1.3: "), null, { timeout: 3_000 });
    await page.keyboard.press("Enter");
    await page.locator(".notice", { hasText: "Flink 2.1.3" }).first().waitFor();
    await page.waitForFunction(() => /^no all-idle flush/.test(document.querySelector("#f-flink-version-msg").textContent), null, { timeout: 3_000 });
    assert.doesNotMatch(await msg(), /Enter restarts/, "the running release is described again");
  }, "preset=seed-001-heartbeat");
});

// The generator and the sink applied a live command at each arrow key (Chromium fires `change`
// at each on a closed select): every generator passed on the way ran and was a command in the
// exported session. They browse as the restarting selects do: one command, at Enter.
test("the arrow keys browse the generator and the sink; Enter applies one command", async () => {
  await withApp(async (page) => {
    await openControls(page);
    const commands = async (name) => {
      await page.click("#tab-export");
      return JSON.parse(await page.inputValue("#export-json")).commands.filter((c) => c.command === "set_param" && c.param.name === name);
    };
    for (const [id, name, keys, want] of [
      ["f-generator", "generator", ["ArrowDown", "ArrowDown"], "none"],
      ["f-sink", "sink_mode", ["ArrowDown", "ArrowUp", "ArrowDown"], "upsert"],
    ]) {
      await page.focus(`#${id}`);
      for (const k of keys) await page.keyboard.press(k);
      assert.equal(await page.inputValue(`#${id}`), want, `${id}: the arrows moved the choice`);
      await page.waitForTimeout(300);
      await page.keyboard.press("Enter");
      await page.waitForTimeout(300);
      assert.equal(await page.inputValue(`#${id}`), want, `${id}: Enter kept what it showed`);
      const applied = await commands(name);
      assert.equal(applied.length, 1, `${id}: ${JSON.stringify(applied)}`);
    }
  }, "preset=seed-001-heartbeat");
});

// A review of the browse-select: a live command (any change of the job's settings) put the
// running value back under a browse, and Enter then applied nothing; a click on the select
// after a browse forgot it, and leaving showed B while A ran; a window blur (Alt-Tab) applied
// a half-finished browse; a pick in a list opened from the keyboard after a browse waited for
// the select to lose focus.
test("a browse of the Flink version survives a live change, a click, a window blur; leaving or a pick from the opened list applies", async () => {
  await withApp(async (page) => {
    await openControls(page);
    const restarted = page.locator(".notice", { hasText: "(restarted)" });
    const restarts = () => restarted.count();
    const running = await page.inputValue("#f-flink-version");
    await page.focus("#f-flink-version");
    await page.keyboard.press("ArrowDown");
    const shown = await page.inputValue("#f-flink-version");
    assert.notEqual(shown, running);
    // A live change (the focus stays on the select).
    await page.evaluate(() => document.querySelector("#f-drop-hb").click());
    await page.waitForTimeout(300);
    assert.equal(await page.inputValue("#f-flink-version"), shown, "a live change put the running value back under the browse");
    // Alt-Tab: the select loses the window's focus, not the page's.
    await page.evaluate(() => document.querySelector("#f-flink-version").dispatchEvent(new FocusEvent("blur")));
    await page.waitForTimeout(300);
    assert.equal(await restarts(), 0, "a window blur applied the browse");
    await page.keyboard.press("Enter");
    await page.waitForFunction((s) => [...document.querySelectorAll(".notice")].some((n) => n.textContent.includes(`Flink ${s}`)), shown);
    await page.waitForTimeout(200);
    // Browse, click the select (its list opens), close the list, leave: what it shows applies.
    await page.keyboard.press("ArrowUp");
    const back = await page.inputValue("#f-flink-version");
    assert.notEqual(back, shown);
    await page.click("#f-flink-version");
    await page.keyboard.press("Escape");
    await page.waitForTimeout(100);
    await page.evaluate(() => document.querySelector("#f-flink-version").focus());
    await page.keyboard.press("Tab");
    await page.waitForFunction((s) => [...document.querySelectorAll(".notice")].some((n) => n.textContent.includes(`Flink ${s}`)), back, { timeout: 3_000 });
    assert.equal(await page.inputValue("#f-flink-version"), back);
  }, "preset=seed-001-heartbeat");
});

test("a pick in the list opened from the keyboard after a browse applies at once", async () => {
  await withApp(async (page) => {
    await openControls(page);
    const running = await page.inputValue("#f-assigner");
    await page.focus("#f-assigner");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Alt+ArrowDown");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await page.locator(".notice", { hasText: "Timestamp assigner" }).first().waitFor({ timeout: 3_000 });
    assert.notEqual(await page.inputValue("#f-assigner"), running);
    assert.equal((await focused(page)).id, "f-assigner", "applied without leaving the select");
  }, "preset=seed-001-heartbeat");
});
