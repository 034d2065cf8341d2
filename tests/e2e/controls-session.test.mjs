// The session as a whole from the controls: export / import round trip, the trace hash of an
// exported session, a share link, the Flink version select (footer, download, toasts under the
// help dialog), and Start over.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import fs from "node:fs";
import { execFileSync } from "node:child_process";
import { serveAndLaunch, onApp, setField, choosePreset, playUntil, clockMs, artifactsDir, openControls } from "./lib.mjs";

const env = serveAndLaunch({ before, after });
const app = (fn, options) => onApp(env, fn, options);
const shots = artifactsDir("e2e");

test("export / import round trip replays the session", async () => {
  let exported;
  await app(async (page) => {
    await choosePreset(page, "empty-partition");
    await playUntil(page, 20_000, 30);
    await openControls(page);
    await setField(page, "#f-idle", "30 s");
    await playUntil(page, 60_000, 30);
    await page.click("#tab-export");
    exported = await page.inputValue("#export-json");
    const sc = JSON.parse(exported);
    assert.ok(sc.commands.some((c) => c.command === "set_param" && c.param.name === "idle_timeout_ms" && c.param.value === 30000));
  });
  await app(async (page) => {
    await page.click("#tab-import");
    await page.fill("#import-json", '{"topic": {"partitions": 1}, "window": {"assigner": {"type": "tumbling", "size_ms": -5}}}');
    await page.click("#btn-import");
    assert.match(await page.locator("#import-error").textContent(), /window\.assigner\.size_ms/);
    // The value the message names is selected, and the box is marked invalid.
    const picked = () => page.$eval("#import-json", (a) => [a.value.slice(a.selectionStart, a.selectionEnd), a.getAttribute("aria-invalid"), document.activeElement === a]);
    assert.deepEqual(await picked(), ["-5", "true", true]);
    await page.fill("#import-json", exported.replace('"topic"', '"topic" 7, "x"'));
    await page.click("#btn-import");
    assert.match(await page.locator("#import-error").textContent(), /not valid JSON/);
    assert.deepEqual(await picked(), ["7", "true", true], "a syntax error's character");
    await page.fill("#import-json", exported);
    await page.click("#btn-import");
    assert.equal(await page.locator("#import-error").textContent(), "");
    assert.equal(await page.locator("svg.graph .node.part").count(), 4);
    // Exporting the imported scenario gives the same JSON back.
    await page.click("#tab-export");
    assert.equal(await page.inputValue("#export-json"), exported);
    // And it replays: the idle timeout switches on at its time, windows fire.
    await playUntil(page, 60_000, 30);
    assert.equal(await page.inputValue("#f-idle"), "30 s");
    assert.ok(Number((await page.locator("#emissions-count").textContent()).split(" ")[0].replace(/,/g, "")) > 0);
    await page.click("#tab-java");
    assert.match(await page.locator("#java-code").textContent(), /withIdleness\(Duration\.ofSeconds\(30\)\)/);
    await page.click("#tab-sql");
    assert.match(await page.locator("#sql-code").textContent(), /'table\.exec\.source\.idle-timeout' = '30 s'/);
    assert.match(await page.locator("#sql-code").textContent(), /WATERMARK FOR event_time AS event_time - INTERVAL '2' SECOND/);
  });
});

test("a share link reopens the preset at its speed", async () => {
  await app(async (page) => {
    await page.goto(env.baseUrl + "#preset=late-data&speed=30", { waitUntil: "load" });
    await page.locator("svg.graph .node.op").first().waitFor();
    assert.equal(await page.inputValue("#preset"), "late-data");
    assert.equal(await page.inputValue("#speed"), "30");
  });
});

test("an exported session reproduces the live trace hash (JS API and wmp run)", async () => {
  await app(async (page) => {
    await choosePreset(page, "empty-partition");
    await playUntil(page, 5_000, 10);
    // Live actions while paused and while playing: silence, a set_param, an injected record.
    await page.click("svg.graph [data-silence='1']");
    await openControls(page);
    await setField(page, "#f-idle", "20 s");
    await playUntil(page, 12_000, 10);
    await page.click("#btn-step");
    await page.click("svg.graph [data-silence='1']");
    await playUntil(page, 30_000, 30);
    await page.click("#tab-export");
    const hash = (await page.locator("#trace-hash").textContent()).trim();
    const atMs = Number(await page.locator("#trace-hash").getAttribute("data-at-ms"));
    assert.match(hash, /^[0-9a-f]{16}$/);
    assert.ok(atMs >= 30_000, `hash taken at ${atMs}`);
    const exported = await page.inputValue("#export-json");
    const sc = JSON.parse(exported);
    assert.equal(sc.duration_ms, atMs);
    assert.equal(sc.commands.filter((c) => c.command === "silence" || c.command === "resume").length, 2);
    // The JS API in the same page, from the exported JSON, run to the same time.
    const replayed = await page.evaluate(
      ([json, at]) => {
        const w = window.wasmBindings.WatermarkPlayground.fromScenario(JSON.parse(json));
        w.runUntil(at);
        return w.traceHash;
      },
      [exported, atMs],
    );
    assert.equal(replayed, hash);
    // `wmp run` on the file, when the native runner is built.
    const wmp = path.join(path.dirname(new URL(import.meta.url).pathname), "..", "..", "target", "release", "wmp");
    if (fs.existsSync(wmp)) {
      const file = path.join(shots, "exported-session.json");
      fs.writeFileSync(file, exported);
      const report = JSON.parse(execFileSync(wmp, ["run", file], { encoding: "utf8", maxBuffer: 64 << 20 }));
      assert.equal(report.trace_hash, hash);
    }
  });
});

/**
 * The Flink version select sets a release's switches together and restarts the job; a
 * scenario whose switches no release had shows "custom switches". 2.1.3 (no all-idle flush)
 * was reachable only in scenario JSON.
 */
test("the Flink version select runs the job as a release, and names a mix 'custom switches'", async () => {
  await app(async (page) => {
    const exportedFlink = async () => {
      await page.click("#tab-export");
      return JSON.parse(await page.inputValue("#export-json")).flink;
    };
    const defaults = await exportedFlink();
    await openControls(page);
    assert.equal(await page.inputValue("#f-flink-version"), "2.3.0", "the default is the newest");
    await playUntil(page, 10_000, 30);
    await page.selectOption("#f-flink-version", "2.1.3");
    await page.locator(".notice", { hasText: "Flink 2.1.3: " }).first().waitFor();
    assert.match(await page.locator(".notice", { hasText: "Flink 2.1.3: " }).first().textContent(), /\(restarted\)/);
    assert.ok((await clockMs(page)) < 10_000, "the job restarted");
    assert.equal(await page.inputValue("#f-flink-version"), "2.1.3");
    // The hint under it is its description: what the release changes, heard with the choice.
    const hint = page.locator("#" + (await page.getAttribute("#f-flink-version", "aria-describedby")));
    assert.match(await hint.textContent(), /no all-idle flush/);
    const v213 = await exportedFlink();
    assert.equal(v213.combined_all_idle_flush, false);
    assert.equal(v213.idleness_clock, undefined, "still the input-activity clock");
    await page.selectOption("#f-flink-version", "1.19.1");
    assert.equal((await exportedFlink()).idleness_clock, "wall");
    await page.selectOption("#f-flink-version", "2.3.0");
    assert.deepEqual(await exportedFlink(), defaults, "2.3.0 is the defaults again");
    assert.equal(await page.inputValue("#f-flink-version"), "2.3.0");
    // The wall clock of 1.19.1 with 2.x's idle-split skip: no release had both.
    const mixed = JSON.parse(await page.inputValue("#export-json"));
    mixed.flink = { ...mixed.flink, idleness_clock: "wall", alignment_skip_idle_splits: true };
    await page.click("#tab-import");
    await page.fill("#import-json", JSON.stringify(mixed));
    await page.click("#btn-import");
    assert.equal(await page.locator("#import-error").textContent(), "");
    assert.equal(await page.inputValue("#f-flink-version"), "custom");
    assert.equal(await page.locator("#f-flink-version option:checked").textContent(), "custom switches");
    assert.match(await hint.textContent(), /match no release/);
    await page.screenshot({ path: path.join(shots, "flink-version-custom.png") });
  });
});

// "Pick the preset again to start over" did nothing: the picker still showed it, and picking
// the option shown fires no `change`. The note has a button that does.
test("Start over in the changed job's note reloads the preset as it came", async () => {
  await app(async (page) => {
    await choosePreset(page, "late-data");
    await openControls(page);
    const par = await page.inputValue("#f-src-par");
    await page.fill("#f-src-par", String(Number(par) + 1));
    await page.click("#btn-apply-parallelism");
    await page.locator(".changed-note").waitFor({ state: "visible" });
    await page.click("[data-testid=start-over]");
    await page.locator(".changed-note").waitFor({ state: "hidden" });
    assert.equal(await page.inputValue("#f-src-par"), par, "the preset's parallelism again");
    assert.equal(await page.inputValue("#preset"), "late-data");
    // The button went away with the note: the focus is on the card's title, not on <body>.
    assert.equal(await page.evaluate(() => document.activeElement?.closest(".preset-card h2") !== null), true);
  });
});

/** The Flink version chosen in Controls (a restart). */
async function chooseFlink(page, version) {
  await openControls(page);
  await page.selectOption("#f-flink-version", version);
  await page.locator(".notice", { hasText: `Flink ${version}` }).first().waitFor();
}

// The footer said "Flink 2.3 semantics" and the download promised "the same window results"
// with 1.19.1 chosen; the job runs 2.3 and does not replay older releases' switches
// (docs/EXPORT.md).
test("the Flink version chosen reaches the footer and the download's promise", async () => {
  await app(async (page) => {
    await choosePreset(page, "empty-partition");
    const footer = () => page.locator("[data-testid=footer]").textContent();
    const promise = () => page.locator("#btn-download-job-java").getAttribute("title");
    assert.match(await footer(), /^Semantics of Flink 2\.3,/);
    assert.match(await promise(), /same window results/);
    for (const v of ["1.19.1", "2.1.3"]) {
      await chooseFlink(page, v);
      assert.match(await footer(), new RegExp(`^Semantics of Flink ${v.replace(/\./g, "\\.")},`));
      const title = await promise();
      assert.doesNotMatch(title, /same window results/);
      assert.match(title, new RegExp(`Flink 2\\.3 .*simulates Flink ${v.replace(/\./g, "\\.")}, so they can differ`));
    }
    await chooseFlink(page, "2.3.0");
    assert.match(await footer(), /^Semantics of Flink 2\.3,/);
    assert.match(await promise(), /same window results/);
  });
});

// On a phone a toast ("Flink 2.1.3: …") covered the foot of the help dialog. Hidden under the
// modal, toasts expired unseen and an error raised meanwhile sat in an inert role=alert: they
// stay live, drawn under the overlay.
test("no toast covers the help dialog on a phone, and one raised behind it is live", async () => {
  await app(
    async (page) => {
      await choosePreset(page, "empty-partition");
      await chooseFlink(page, "2.1.3");
      await page.click("#btn-controls-close");
      await page.click("#btn-help");
      const dialog = page.locator("[role=dialog]");
      await dialog.waitFor({ state: "visible" });
      // A notice raised while the dialog is open (a restart from a script; the keys go to the dialog).
      await page.evaluate(() => {
        const s = document.querySelector("#f-flink-version");
        s.value = "2.3.0";
        s.dispatchEvent(new Event("change"));
      });
      const raised = page.locator(".notice", { hasText: "Flink 2.3.0" });
      await raised.waitFor({ state: "attached" });
      const toasts = await page.locator(".notice").evaluateAll((els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          const [x, y] = [r.x + r.width / 2, r.y + r.height / 2];
          const top = document.elementFromPoint(x, y);
          return { text: e.textContent, inert: !!e.closest("[inert]"), shown: e.checkVisibility(), onTop: e.contains(top), underDialog: !!top?.closest(".overlay") };
        }),
      );
      assert.ok(toasts.length >= 2, `the toasts: ${JSON.stringify(toasts)}`);
      for (const t of toasts) {
        assert.ok(!t.inert && t.shown, `a toast hidden or inert under the dialog: ${JSON.stringify(t)}`);
        assert.ok(!t.onTop && t.underDialog, `a toast drawn over the dialog: ${JSON.stringify(t)}`);
      }
      // Live, but not reachable: focus that lands on a toast's button (the page's own Tab order,
      // after a click on the dialog's text left the focus on <body>) goes back into the dialog.
      const inDialog = () => page.evaluate(() => !!document.activeElement?.closest("[role=dialog]"));
      await page.evaluate(() => document.querySelector(".notice button").focus());
      assert.ok(await inDialog(), "the focus stayed on a toast under the dialog");
      await page.click("[role=dialog] p");
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press("Tab");
        assert.ok(await inDialog(), `Tab ${i + 1} left the dialog`);
      }
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "hidden" });
      assert.ok(await raised.isVisible());
    },
    { viewport: { width: 390, height: 844 } },
  );
});
