// "Download runnable job" in the Java / SQL tabs (docs/EXPORT.md): a preset the export runs
// downloads a .zip holding the Maven project; one it cannot run says why, naming the field,
// and downloads nothing. Screenshots (phone and laptop) go to artifacts/export-job/.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import path from "node:path";
import fs from "node:fs";
import { serveAndLaunch, openPage, gotoApp, choosePreset, openControls, playUntil, artifactsDir } from "./lib.mjs";

const env = serveAndLaunch({ before, after });

async function openJavaTab(page) {
  await page.locator("#tab-java").click();
  await page.locator("#btn-download-job-java").waitFor({ state: "visible", timeout: 5_000 });
}

test("a preset downloads as a zip of the Maven project", async () => {
  const { context, page, problems } = await openPage(env.browser, { acceptDownloads: true });
  try {
    await gotoApp(page, env.baseUrl);
    await choosePreset(page, "late-data");
    await playUntil(page, 5_000, 10);
    await openJavaTab(page);
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator("#btn-download-job-java").click()]);
    assert.equal(download.suggestedFilename(), "playground-job.zip");
    const bytes = fs.readFileSync(await download.path());
    assert.equal(bytes.subarray(0, 4).toString("latin1"), "PK\u0003\u0004", "a zip");
    const text = bytes.toString("latin1");
    for (const p of ["playground-job/pom.xml", "playground-job/src/main/java/playground/PlaygroundJob.java", "playground-job/src/main/resources/replay.tsv"]) {
      assert.ok(text.includes(p), `the zip holds ${p}`);
    }
    assert.ok(text.includes("<flink.version>2.3.0</flink.version>"), "the pom is stored uncompressed");
    assert.match(await page.locator("#download-job-status-java").textContent(), /mvn package, then flink run/);
    const dir = artifactsDir("export-job");
    await page.locator("#share").screenshot({ path: path.join(dir, "laptop.png") });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator("#share").scrollIntoViewIfNeeded();
    await page.locator("#share").screenshot({ path: path.join(dir, "phone.png") });
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

test("a scenario the export cannot run says why and downloads nothing", async () => {
  const { context, page } = await openPage(env.browser, { acceptDownloads: true });
  try {
    await gotoApp(page, env.baseUrl);
    await choosePreset(page, "late-data");
    // A changed setting is a command the replay job cannot run (it keeps the settings it starts with).
    await playUntil(page, 2_000, 10);
    await openControls(page);
    await page.fill("#f-idle", "30 s");
    await page.press("#f-idle", "Enter");
    await openJavaTab(page);
    let downloaded = false;
    page.on("download", () => (downloaded = true));
    await page.locator("#btn-download-job-java").click();
    await page.waitForFunction(() => document.querySelector("#download-job-status-java")?.textContent.includes("Not downloaded"));
    assert.match(await page.locator("#download-job-status-java").textContent(), /^Not downloaded: idle_timeout_ms changed at 00:00:0\d\.\d+, while the job ran: .*Make the change before ▶/);
    assert.equal(downloaded, false);
  } finally {
    await context.close();
  }
});

test("a setting changed before ▶ is the downloaded job's; the SQL tab says its job is DataStream", async () => {
  const { context, page, problems } = await openPage(env.browser, { acceptDownloads: true });
  try {
    await gotoApp(page, env.baseUrl);
    await choosePreset(page, "late-data");
    // The field applies at the next instant (1 ms in): the export starts the job with it. It
    // refused every changed scenario, so the fixed job could not be downloaded.
    await openControls(page);
    await page.fill("#f-idle", "30 s");
    await page.press("#f-idle", "Enter");
    await openJavaTab(page);
    // Before ▶ nothing was read: the project would print nothing.
    await page.locator("#btn-download-job-java").click();
    assert.match(await page.locator("#download-job-status-java").textContent(), /Nothing has run yet: press ▶/);
    await playUntil(page, 5_000, 10);
    const [download] = await Promise.all([page.waitForEvent("download"), page.locator("#btn-download-job-java").click()]);
    const text = fs.readFileSync(await download.path()).toString("latin1");
    assert.ok(text.includes("Duration.ofSeconds(30),  // withIdleness"), "the job idles after 30 s");
    await page.locator("#tab-sql").click();
    assert.equal((await page.locator("#btn-download-job-sql").textContent()).trim(), "Download runnable job (DataStream Java)");
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});
