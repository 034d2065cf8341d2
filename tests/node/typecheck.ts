// Type-checked (never run) by `tsc --noEmit -p tests/node` in scripts/test.sh: an example script
// that uses every method and every returned object of the JS API against src/api/wmp.d.ts.
// The `@ts-expect-error` lines prove that wrong uses are rejected.
import init, {
  initSync,
  mount,
  MountedPlayground,
  WatermarkPlayground,
  type Command,
  type Diagnosis,
  type SqlScenario,
  type ExportedJob,
  type EventBatch,
  type LagCrossing,
  type LagPoint,
  type Explanation,
  type JoinEmission,
  type LateRecord,
  type Metrics,
  type PresetInfo,
  type RestWatermark,
  type Scenario,
  type ScenarioInput,
  type Snapshot,
  type StepEvent,
  type Subscription,
  type TraceEvent,
  type Watermark,
  type WindowEmission,
} from "wmp";
import * as engine from "wmp-engine";

declare const bytes: Uint8Array;
declare const host: HTMLElement;

export async function example(): Promise<string> {
  await init({ module_or_path: bytes });
  initSync({ module: bytes });

  const presets: PresetInfo[] = WatermarkPlayground.presets();
  const scenario: Scenario = WatermarkPlayground.presetScenario(presets[0].id);
  scenario.producers[0] = { ...scenario.producers[0], jitter_ms: 1000 };
  const fromSql: SqlScenario = WatermarkPlayground.sqlScenario("SET 'table.exec.source.idle-timeout' = '60 s';", scenario);
  const sqlNote: string = `${fromSql.notes[0]?.line}:${fromSql.notes[0]?.column} ${fromSql.notes[0]?.message}`;
  const sqlScenario: Scenario = WatermarkPlayground.sqlScenario(sqlNote, "seed-001-heartbeat").scenario;
  sqlScenario.duration_ms = fromSql.scenario.duration_ms;
  // @ts-expect-error the script is text
  WatermarkPlayground.sqlScenario(42);
  const exported: ExportedJob = WatermarkPlayground.exportJob("late-data");
  const exportedText: string = exported.files[0].path + exported.files[0].text + exported.notes.join("\n") + (exported.sql ?? "");
  console.log(exportedText.length);
  const input: ScenarioInput = {
    topic: { partitions: 2 },
    window: { assigner: { type: "tumbling", size_ms: 10_000 }, allowed_lateness_ms: 5_000 },
    producers: [{ partitions: "all", kind: "steady", rate_per_s: 20, keys: { count: 3, prefix: "k" } }],
    commands: [{ at_ms: 5_000, command: "silence", partition: 1 }],
    seed: 7n,
  };
  const sql: ScenarioInput = {
    topic: { partitions: 1 },
    source: { watermark: { generator: { kind: "sql_bounded", delay_ms: 5_000 } } },
    window: { assigner: { type: "cumulate", step_ms: 1_000, max_size_ms: 3_000 }, api: "sql" },
  };
  // `window` is optional in the type (a join job has `interval_join` instead): `input` has one.
  const continuous: ScenarioInput = { ...input, window: { ...input.window!, trigger: { type: "continuous", interval_ms: 1_000, purging: true } } };
  // @ts-expect-error: a trigger type Flink does not have here
  const bad: ScenarioInput = { ...input, window: { ...input.window!, trigger: { type: "count", max_count: 3 } } };
  const p = new WatermarkPlayground(input);
  const q = WatermarkPlayground.fromPreset("seed-001-heartbeat");
  const r = WatermarkPlayground.fromScenario(JSON.stringify(input));
  const s = WatermarkPlayground.fromShareString(p.toShareString());
  const t = new WatermarkPlayground("seed-001-heartbeat");

  const windows: WindowEmission[] = [];
  const sub: Subscription = p.on("window", (w) => windows.push(w));
  p.on("late", (l: LateRecord) => l.sideOutput);
  p.on("watermark", (e) => (e.level === "split" ? e.partition : e.watermark.raw));
  p.on("idle", (e) => e.subtask);
  p.on("active", (e) => e.time);
  p.on("step", (e: StepEvent) => e.elapsedMs);
  // @ts-expect-error: no such event
  p.on("windows", () => {});
  // @ts-expect-error: a window event is not a step event
  p.on("window", (e: StepEvent) => e);

  const first: number | null = p.step();
  p.runUntil(10_000);
  p.runFor(5_000n);
  const interesting: boolean = p.stepToNextInteresting() && p.stepToNextInteresting(60_000);
  const np: number = p.addPartition();
  const attached: number[] = p.attach({ partitions: np, kind: "heartbeat", every_ms: 30_000, keys: ["hb"] });
  p.attach({ partitions: { all_except: [0] }, kind: "burst", every_ms: 1_000, count: 5 });
  p.attach({ partitions: [0], kind: "outlier", future_ms: 86_400_000 });
  const n: number = p.produce(0, { ts: 1767225600000, key: "a", value: 1 }) + p.produce(1, [{ ts_offset_ms: -2_000 }, { key: "b", heartbeat: true }]);
  p.silence(0);
  p.resume(0);
  p.markIdle(1);
  p.markActive(1);
  p.detach(np);
  p.releaseSplit(np);
  p.removePartition(np);
  p.setParam("idle_timeout_ms", 60_000);
  p.setParam("idle_timeout_ms", null);
  p.setParam("generator", { kind: "max_on_silence", bound_ms: 0, silence_ms: 60_000 });
  p.setParam("sink_mode", "upsert");
  q.setParam("window", { type: "session", gap_ms: 30_000 });
  q.setParam("source_parallelism", 4);
  // @ts-expect-error: the bound is a number
  p.setParam("bound_ms", "5s");
  // @ts-expect-error: no such parameter
  p.setParam("bound", 5);
  const cmds: Command[] = [{ command: "add_partition" }, { command: "set_param", param: { name: "late_side_output", value: true } }];
  p.apply(cmds);
  p.apply({ command: "end_of_input" });
  p.schedule(120_000, { command: "resume", partition: 1 });
  p.endOfInput();
  r.runToEnd();

  const snap: Snapshot = p.snapshot({ openWindows: 3 });
  const wm: Watermark | null = snap.splits[0].watermark;
  const held: string = snap.operators[0].channels.filter((c) => c.isMin && c.status === "ACTIVE").map((c) => c.watermark.raw).join();
  const batch: EventBatch = p.eventsSince(snap.traceCursor - 10);
  const kinds: string[] = batch.events.map((e: TraceEvent) => (e.kind === "split_watermark" ? `${e.partition}:${e.watermark.ms}` : e.kind));
  const emitted: WindowEmission[] = p.windows(windows.length);
  const early: number = emitted.filter((w) => w.firingKind === "early").length;
  const onTime: string[] = batch.events.map((e: TraceEvent) => (e.kind === "window_fired" ? e.firingKind : ""));
  const late: LateRecord[] = p.lateRecords();
  const m: Metrics = p.metrics();
  const rest: RestWatermark[] = p.restWatermarks("window");
  // @ts-expect-error: only "source" and "window"
  p.restWatermarks("sink");
  const ex: Explanation = p.explain(0);
  const d: Diagnosis = p.diagnose({ toleratedDelayMs: 30_000 });
  const top = d.findings[0];
  if (top && top.fixes[0]) p.applyFix(top.fixes[0]);
  p.applyFix({ kind: "idle_timeout", value: 5_000 });
  // @ts-expect-error an action needs a known kind
  p.applyFix({ kind: "reboot" });
  p.setLagAlert(60_000);
  const lagSub = p.on("lag", (c: LagCrossing) => console.log(c.windowSubtask, c.over, c.lagMs));
  lagSub.remove();
  p.setLagAlert(null);
  const lag: LagPoint[] = p.lagHistory(0);
  const cls: string = d.partitions.map((x) => `${x.partition} ${x.class}`).join(", ") + d.advice.actions.length + lag.length + (d.cause ?? "");
  const why: string[] = ex.reasons.map((x) => (x.kind === "split_never_received" ? `p${x.partition}` : x.kind));
  const text = WatermarkPlayground.describeWatermark(m.window[0].currentInputWatermark) + WatermarkPlayground.describeWatermark(-1n);
  const back: Scenario = p.toScenario();
  const share: string = p.toShareString();
  sub.remove();
  for (const x of [p, q, r, s, t]) x.free();

  // Two inputs: an interval join of orders with payments, and the views of a two-input job.
  const joined = new WatermarkPlayground({
    topic: { name: "orders", partitions: 2 },
    second_input: { topic: { name: "payments", partitions: 1 }, mode: "connect", source: { parallelism: 1, midstream: null } },
    interval_join: { lower_ms: -2_000, upper_ms: 5_000, upper_exclusive: true },
    producers: [{ topic: "payments", partitions: "all", kind: "steady", rate_per_s: 3 }],
  });
  const joinSub = joined.on("join", (j: JoinEmission) => console.log(j.key, j.leftTs, j.rightTs, j.ts));
  joined.apply({ command: "add_partition", topic: "payments" });
  joined.runFor(10_000);
  joinSub.remove();
  const pairs: JoinEmission[] = joined.joins(0);
  const js = joined.snapshot();
  const shape: string = `${js.job.topics.join("+")} ${js.job.twoInputMode ?? "one input"} ${js.job.keyedOperator} ${js.job.joinBounds?.[0]} ${js.joinsEmitted}`;
  const inputs: string[] = js.operators[0].inputs.map((i) => `${i.input} ${i.topic} ${i.watermark.raw} ${i.idle} ${i.isMin}`);
  const buffered: number = (js.operators[0].joinBuffered?.[0] ?? 0) + js.splits[0].partitionInTopic + js.sources[0].subtaskInSource;
  const chained: boolean | undefined = js.sources[0].midstream?.idle;
  const perInput: Watermark | undefined = joined.metrics().window[0].currentInput2Watermark;
  const mid: ScenarioInput = {
    topic: { partitions: 1 },
    source: { midstream: { operator: "sql_watermark_assigner", delay_ms: 2_000, idle_timeout_ms: 5_000 } },
    window: { assigner: { type: "tumbling", size_ms: 10_000 } },
  };
  // @ts-expect-error: a midstream operator is one of the two kinds
  const badMid: ScenarioInput = { topic: { partitions: 1 }, source: { midstream: { operator: "map" } } };
  joined.free();
  console.log(pairs.length, shape, inputs, buffered, chained, perInput, mid, badMid);

  // Flow control, checkpoints and restore (issue 13).
  const flowJob: ScenarioInput = {
    topic: { partitions: 2 },
    source: {
      start_offset: { timestamp_ms: 1_767_139_200_000 },
      fetch: { max_partition_fetch_bytes: 1_048_576 },
      watermark: { alignment: { group: "orders", max_drift_ms: 300_000 } },
    },
    window: { assigner: { type: "tumbling", size_ms: 60_000 } },
    flow: { keyed_capacity_per_s: 1_500, channel_buffer_records: 2_000, record_scale: 1_000, task_manager_memory_bytes: 4 << 30 },
    checkpointing: { interval_ms: 30_000, restart: { type: "fixed_delay", delay_ms: 10_000, attempts: 10 } },
    flink: { idleness_clock: "wall", alignment_buffer_size: 0 },
    commands: [
      { at_ms: 45_000, command: "checkpoint" },
      { at_ms: 60_000, command: "fail", target: { task_manager: 0 } },
    ],
  };
  // @ts-expect-error: a start offset is earliest, latest, a timestamp or committed offsets
  const badStart: ScenarioInput = { topic: { partitions: 1 }, source: { start_offset: "yesterday" } };
  const fj = WatermarkPlayground.fromScenario(flowJob);
  fj.runUntil(90_000);
  const fs = fj.snapshot();
  const level: "OK" | "LOW" | "HIGH" = fs.sources[0].backPressureLevel;
  const paused: boolean = fs.splits[0].paused || fs.splits[0].atItsEnd || (fs.sources[0].alignment?.waiting ?? false);
  const restarts: number = fs.run.restarts + fs.job.recordScale + fs.operators[0].channels[0].bufferedRecords;
  const bp = fj.restBackPressure("source");
  const history = fj.stateSizeHistory();
  const stateBytes: number = (history.samples.at(-1)?.entries[0] ?? 0) * history.bytesPerEntry;
  const drift: number | null = fj.metrics().source[0].watermarkAlignmentDrift;
  fj.free();
  console.log(badStart, level, paused, restarts, bp["backpressure-level"], stateBytes, drift);

  const embed: MountedPlayground = mount(host, { layout: "embed", preset: "seed-001-heartbeat", speed: 300, autoplay: true, fullUrl: "/index.html" });
  const full = mount(host, { scenario: back, layout: "full" });
  // @ts-expect-error: no such layout
  mount(host, { layout: "tiny" });
  const applied: boolean = embed.update({ theme: "dark", preset: null, startAt: undefined });
  // @ts-expect-error: an update's values are typed as the options'
  embed.update({ speed: "fast" });
  // The JS API's reads and commands on a mounted simulation (also el.playground's).
  const embedWhy: Diagnosis = embed.diagnose();
  const embedWindows: WindowEmission[] = embed.windows(0);
  embed.setParam("idle_timeout_ms", 5000);
  // @ts-expect-error: a structural parameter needs a changed scenario, load()ed
  embed.setParam("window_parallelism", 2);
  embed.apply([{ command: "mark_split_idle", partition: 0 }]);
  const produced: number = embed.produce(0, [{ key: "a", ts: 1000 }]);
  if (embedWhy.findings[0]?.fixes[0]) embed.applyFix(embedWhy.findings[0].fixes[0]);
  console.log(embedWindows.length, produced, embed.explain(0).reasons.length, embed.toScenario().commands.length);
  if (applied && embed.mounted) embed.unmount();
  const something: unknown = embed;
  if (something instanceof MountedPlayground) something.setVisible(false);
  // @ts-expect-error: mount() makes it
  new MountedPlayground();
  full.unmount();

  // The engine-only module: the same API less the `tools` statics, and no UI to mount.
  const headless: engine.WatermarkPlayground = engine.WatermarkPlayground.fromPreset("late-data");
  const headlessSnap: engine.Snapshot = headless.snapshot();
  headless.free();
  // @ts-expect-error: wmp-engine.js has no UI (mount is a type only there)
  engine.mount(host);
  const built: engine.WatermarkPlayground = new engine.WatermarkPlayground("late-data");
  built.free();
  // @ts-expect-error: wmp-engine.js has no job export (wmp.js has; feature `tools`)
  engine.WatermarkPlayground.exportJob("late-data");
  // @ts-expect-error: nor the SQL reader
  engine.WatermarkPlayground.sqlScenario("SELECT 1");
  console.log(headlessSnap.splits.length, typeof engine.initSync);

  return [cls, early, onTime, sql.window?.api, continuous.window?.trigger?.type, bad.topic.partitions, first, interesting, attached, n, wm?.ms, held, kinds, emitted, late, rest, why, text, back.commands.length, share, p.now, p.elapsedMs, p.startTime, p.started, p.finished, p.cursor, p.traceHash, p.name].join();
}
