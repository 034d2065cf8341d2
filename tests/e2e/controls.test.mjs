// Controls end to end: add a partition, inject events, silence a split and see the idle flag,
// field validation, Escape in a field, the confirmations, keyboard shortcuts, theme override.
// The generator select and the other restarts from the drawer: controls-generator.test.mjs; export,
// import, share link and Flink version: controls-session.test.mjs.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import { serveAndLaunch, onApp, setField, choosePreset, playUntil, clockMs, artifactsDir, openControls } from "./lib.mjs";

const env = serveAndLaunch({ before, after });
const app = (fn, options) => onApp(env, fn, options);
const shots = artifactsDir("e2e");

test("add a partition, inject events into it, silence a split and see it go idle", async () => {
  await app(async (page) => {
    await choosePreset(page, "late-data");
    await openControls(page);
    await page.click("#btn-add-partition");
    assert.equal(await page.locator("svg.graph .node.part").count(), 3);
    assert.equal(await page.locator("#splits-table tbody tr").count(), 3);
    // The new partition holds the watermark (never received a record) ...
    await playUntil(page, 5_000, 10);
    assert.equal(await page.locator(".why [data-culprit-partition]").first().getAttribute("data-culprit-partition"), "2");
    // ... until it gets an event: inject one, relative to now.
    await page.selectOption("#f-inj-part", "2");
    await page.fill("#f-inj-ts", "-1 s");
    await page.click("#btn-send");
    await page.click("#btn-step");
    await page.waitForFunction(() => document.querySelector("#splits-table tr[data-partition='2'] td:nth-child(4)")?.textContent.trim() === "1");
    // An absolute timestamp too. The field starts at now (it read a time a day early: the
    // time of day with "-1d", written for a clock a day ahead).
    await page.fill("#f-inj-ts", "now");
    const at = async () => (await page.locator("#f-inj-ts-msg").textContent()).match(/\((-?\d+)\)/)?.[1];
    const nowAt = await at();
    assert.ok(nowAt, await page.locator("#f-inj-ts-msg").textContent());
    await page.selectOption("#f-inj-mode", "absolute");
    assert.match(await page.inputValue("#f-inj-ts"), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
    assert.equal(await at(), nowAt, "the absolute field starts at now");
    await page.fill("#f-inj-ts", "2026-01-01 00:00:03");
    await page.click("#btn-send");
    await page.click("#btn-step");
    await page.waitForFunction(() => document.querySelector("#splits-table tr[data-partition='2'] td:nth-child(4)")?.textContent.trim() === "2");
    // Silence partition 0 with one click, set an idle timeout, and watch it go idle.
    await page.click("#splits-table tr[data-partition='0'] button");
    assert.match(await page.locator("#splits-table tr[data-partition='0'] button").textContent(), /resume/);
    await setField(page, "#f-idle", "3 s");
    assert.equal(await page.inputValue("#f-idle"), "3 s");
    const now = await clockMs(page);
    await playUntil(page, now + 6_000, 5);
    assert.match(await page.locator("#splits-table tr[data-partition='0']").textContent(), /IDLE/);
    assert.equal(await page.locator("svg.graph .node.part.idle[data-partition='0']").count(), 1);
    await page.screenshot({ path: path.join(shots, "controls-idle.png") });
  });
});

test("fields refuse bad input with a message at the field", async () => {
  await app(async (page) => {
    await openControls(page);
    await page.fill("#f-bound", "five seconds");
    assert.equal(await page.getAttribute("#f-bound", "aria-invalid"), "true");
    assert.match(await page.locator("#f-bound-err").textContent(), /not a duration/);
    await page.fill("#f-idle", "0");
    assert.match(await page.locator("#f-idle-err").textContent(), /greater than 0/);
    // The start offset's time is checked as typed and marked as the others are, by its label.
    await page.selectOption("#f-start", "timestamp");
    await page.fill("#f-start-at", "soonish");
    assert.equal(await page.getAttribute("#f-start-at", "aria-invalid"), "true");
    assert.match(await page.locator(".ctl-group", { has: page.locator("#f-start-at") }).textContent(), /records from \(UTC\): 'soonish' is not a time/);
    await page.fill("#f-start-at", "2026-01-01 00:00:10");
    assert.equal(await page.getAttribute("#f-start-at", "aria-invalid"), "false");
    // "now" (any case, spaces around) is the simulation's current time, as in a relative field.
    await page.fill("#f-start-at", " Now ");
    assert.equal(await page.getAttribute("#f-start-at", "aria-invalid"), "false", "now is a time");
    await page.selectOption("#f-start", "earliest");
    await page.fill("#f-src-par", "0");
    await page.click("#btn-apply-parallelism");
    assert.match(await page.locator(".ctl-group", { hasText: "Topology" }).textContent(), /between 1 and 256/);
    await page.fill("#f-inj-ts", "yesterday-ish");
    assert.match(await page.locator(".ctl-group", { hasText: "Inject an event" }).textContent(), /not a duration|unknown unit/);
    // Each field keeps its own message and mark: the value's was replaced by the timestamp's.
    await page.fill("#f-inj-val", "abc");
    assert.match(await page.locator("#f-inj-val-err").textContent(), /'abc' is not a whole number/);
    assert.equal(await page.getAttribute("#f-inj-val", "aria-invalid"), "true");
    assert.equal(await page.getAttribute("#f-inj-ts", "aria-invalid"), "true");
    await page.click("#btn-send");
    assert.match(await page.locator("#f-inj-val-err").textContent(), /'abc' is not a whole number/);
    await page.fill("#f-inj-val", "1");
    await page.fill("#f-inj-ts", "-2 s");
    assert.equal(await page.getAttribute("#f-inj-ts", "aria-invalid"), "false");
    await page.selectOption("#f-inj-mode", "absolute");
    assert.match(await page.locator("label[for=f-inj-ts]").textContent(), /or now/, "the hint says so");
    await page.fill("#f-inj-ts", "NOW");
    assert.equal(await page.getAttribute("#f-inj-ts", "aria-invalid"), "false", "now is a time");
    // The header's UTC clock, "HH:MM:SS.mmm UTC": the same instant.
    const utc = (await page.locator(".clock .mono.small").textContent()).replace(" UTC", "").trim();
    assert.equal((await page.locator("#f-inj-ts-msg").textContent()).replace(/ \(\d+\)$/, ""), `event time ${utc}`);
    await page.selectOption("#f-inj-mode", "relative");
    // A valid value applies; the WHY panel follows.
    await setField(page, "#f-bound", "2 s");
    assert.equal(await page.getAttribute("#f-bound", "aria-invalid"), "false");
    assert.equal((await page.locator("#f-bound-err").textContent()).trim(), "");
    // A number without a unit is milliseconds, as in Flink: said, not done silently.
    await setField(page, "#f-bound", "3");
    assert.equal(await page.inputValue("#f-bound"), "3 ms");
    assert.match(await page.locator("#f-bound-err").textContent(), /read as 3 ms: a number without a unit is milliseconds \(write 3 s for seconds\)/);
    assert.equal(await page.getAttribute("#f-bound", "aria-invalid"), "false", "a note, not an error");
    await page.fill("#f-bound", "3 s");
    assert.equal((await page.locator("#f-bound-err").textContent()).trim(), "", "typing clears it");
    await setField(page, "#f-bound", "3000");
    assert.match(await page.locator("#f-bound-err").textContent(), /read as 3 s: a number without a unit is milliseconds/);
    // A decimal comma is refused, not read as thousands ("1,5 s" was 15 s).
    await page.fill("#f-bound", "1,5 s");
    assert.match(await page.locator("#f-bound-err").textContent(), /a comma separates thousands here/);
    await page.screenshot({ path: path.join(shots, "field-validation.png") });
  });
});

test("settings changed before ▶ stay in the fields after a restart (Apply ↻)", async () => {
  await app(async (page) => {
    await choosePreset(page, "late-data");
    await openControls(page);
    await setField(page, "#f-bound", "2.5 s");
    await setField(page, "#f-idle", "20 s");
    assert.equal(await page.locator(".changed-note").isVisible(), false, "settings changed while it runs leave it the preset");
    await page.fill("#f-src-par", "2");
    await page.click("#btn-apply-parallelism");
    await page.locator(".notice", { hasText: "Parallelism: source 2" }).first().waitFor();
    // They showed the old values until ▶ reached 1 ms, and read as lost.
    assert.equal(await page.inputValue("#f-bound"), "2.5 s");
    assert.equal(await page.inputValue("#f-idle"), "20 s");
    // The preset's story is of the job as it came: the card says this one is not.
    assert.equal(await page.locator(".changed-note").isVisible(), true);
    await choosePreset(page, "empty-partition");
    assert.equal(await page.locator(".changed-note").isVisible(), false);
  });
});

test("Escape in a field undoes the edit and keeps the panel open; a second Escape closes it", async () => {
  await app(async (page) => {
    await openControls(page);
    const before = await page.inputValue("#f-bound");
    await page.fill("#f-bound", "7 s");
    await page.press("#f-bound", "Escape");
    assert.equal(await page.inputValue("#f-bound"), before);
    assert.equal(await page.getAttribute("#btn-controls", "aria-expanded"), "true", "the panel stays open");
    assert.equal(await page.evaluate(() => document.activeElement?.id), "f-bound");
    await page.press("#f-bound", "Escape");
    assert.equal(await page.getAttribute("#btn-controls", "aria-expanded"), "false");
  });
});

test("a confirmation stays while it is pointed at or focused, and goes after", async () => {
  await app(async (page) => {
    await openControls(page);
    await page.click("#btn-send");
    const notice = page.locator(".notice", { hasText: "Sent one record" });
    await notice.waitFor();
    await notice.locator("button").focus();
    // It expired after 4 s whatever the reader did, and the focus fell to the page.
    await page.waitForTimeout(5_000);
    assert.equal(await notice.count(), 1, "kept while focused");
    await page.locator("#btn-send").focus();
    await notice.waitFor({ state: "detached", timeout: 4_000 });
  });
});

test("sending again replaces the last send's confirmation", async () => {
  await app(async (page) => {
    await openControls(page);
    for (let i = 0; i < 4; i++) await page.click("#btn-send");
    const notices = page.locator(".notice", { hasText: "Sent one record" });
    await notices.first().waitFor();
    assert.equal(await notices.count(), 1, "four piled over the WHY panel");
  });
});

test("keyboard shortcuts and the ? overlay", async () => {
  await app(async (page) => {
    await page.locator("body").click({ position: { x: 5, y: 700 } });
    await page.keyboard.press("?");
    await page.locator(".overlay:not(.hidden)").waitFor();
    assert.match(await page.locator(".dialog").textContent(), /play \/ pause/);
    await page.screenshot({ path: path.join(shots, "help-overlay.png") });
    await page.keyboard.press("Escape");
    assert.equal(await page.locator(".overlay.hidden").count(), 1);
    const t0 = await clockMs(page);
    // The first step processes the start instant itself; the second moves the clock.
    await page.keyboard.press(".");
    await page.keyboard.press(".");
    await page.waitForFunction((t) => {
      const [h, m, s] = document.querySelector("#clock").textContent.trim().split(":");
      return ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000 > t;
    }, t0);
    await page.keyboard.press(" ");
    assert.equal(await page.getAttribute("#btn-play", "aria-pressed"), "true");
    await page.keyboard.press(" ");
    assert.equal(await page.getAttribute("#btn-play", "aria-pressed"), "false");
    const speed = await page.inputValue("#speed");
    await page.keyboard.press("+");
    assert.ok(Number(await page.inputValue("#speed")) > Number(speed));
    await page.keyboard.press("2");
    await page.waitForFunction(() => document.querySelector("#preset").value === "empty-partition");
    await page.keyboard.press("n");
    await page.keyboard.press("r");
    await page.waitForFunction(() => document.querySelector("#clock").textContent.trim() === "00:00:00.000");
    const theme = await page.evaluate(() => document.documentElement.dataset.theme);
    await page.keyboard.press("t");
    assert.notEqual(await page.evaluate(() => document.documentElement.dataset.theme), theme);
  });
});

test("theme override: dark even when the system is light", async () => {
  await app(async (page) => {
    while ((await page.evaluate(() => document.documentElement.dataset.theme)) !== "dark") await page.click("#btn-theme");
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.ok(bg.match(/\d+/g).slice(0, 3).map(Number).every((c) => c < 64), bg);
    await page.screenshot({ path: path.join(shots, "theme-dark-override.png") });
    await page.click("#btn-theme"); // back to system for the next visit
  }, { colorScheme: "light" });
});

test("the timeline's canvas repaints in the new colours when the theme or the system changes", async () => {
  await app(async (page) => {
    await page.click("#btn-step");
    const pixels = () => page.evaluate(() => document.querySelector("canvas.timeline").toDataURL());
    const paintedAfter = async (old) => {
      await page.waitForFunction((o) => document.querySelector("canvas.timeline").toDataURL() !== o, old);
      return pixels();
    };
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "system");
    const light = await pixels();
    // Paused, following the system: the system turns dark.
    await page.emulateMedia({ colorScheme: "dark" });
    const dark = await paintedAfter(light);
    // The override back to light.
    while ((await page.evaluate(() => document.documentElement.dataset.theme)) !== "light") await page.click("#btn-theme");
    await paintedAfter(dark);
    while ((await page.evaluate(() => document.documentElement.dataset.theme)) !== "system") await page.click("#btn-theme");
  }, { colorScheme: "light" });
});
