// Type declarations for the Watermark Playground JS API (dist/wmp.js). The objects the reads
// return (snapshot, metrics, explanation, window results, late records, trace events, …) are
// declared in ./types.gen.d.ts, generated from the engine's view types (src/engine/view/
// typescript.rs) and re-exported below; this file is written by hand for the rest: the class
// (src/api/playground.rs), the scenario input types, the map of `on()` events and the loading
// functions; ./wmp-ui.d.ts the UI's part (`mount`, `<watermark-playground>`, their DOM events),
// re-exported below. scripts/trunk-wasm-lib.sh copies the three files to dist/; tests/node/typecheck.ts is
// type-checked against them by `tsc --noEmit` in scripts/test.sh. Reference: docs/API.md.

import type {
  Action,
  Diagnosis,
  EventBatch,
  Explanation,
  Fix,
  JoinEmission,
  LagCrossing,
  LateRecord,
  Metrics,
  PresetInfo,
  RestBackPressure,
  StateSizeHistoryView,
  RestWatermark,
  Snapshot,
  StatusEvent,
  StepEvent,
  Watermark,
  WatermarkEvent,
  WindowEmission,
} from "./types.gen";

export type * from "./types.gen";

// ---- loading -------------------------------------------------------------------------------

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

/** Instantiates the module (in a browser: fetches wmp_bg.wasm next to wmp.js). */
export default function init(
  module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>,
): Promise<unknown>;

/** Instantiates the module synchronously from its bytes or a compiled module (Node.js). */
export function initSync(module: { module: BufferSource | WebAssembly.Module } | BufferSource | WebAssembly.Module): unknown;

// ---- the UI (mount, the element, their DOM events): ./wmp-ui.d.ts --------------------------

export * from "./wmp-ui";

// ---- values --------------------------------------------------------------------------------

/** Milliseconds as a safe integer number, or a BigInt within ±(2^53 − 1). */
export type Millis = number | bigint;

// ---- the scenario format (docs/SCENARIO.md), snake_case as in scenario files -----------------

export type GeneratorKind =
  | { kind: "bounded_out_of_orderness"; bound_ms: number }
  | { kind: "monotonous" }
  | { kind: "no_watermarks" }
  | { kind: "max_on_silence"; bound_ms: number; silence_ms: number }
  /** Flink SQL's `WATERMARK FOR ts AS ts - INTERVAL …` pushed into the source: max_ts - delay_ms (no - 1). */
  | { kind: "sql_bounded"; delay_ms: number };

export type WindowSpec =
  | { type: "tumbling"; size_ms: number; offset_ms?: number }
  | { type: "sliding"; size_ms: number; slide_ms: number; offset_ms?: number }
  | { type: "session"; gap_ms: number }
  /** Flink SQL's CUMULATE (`"api": "sql"` only); max_size_ms a multiple of step_ms. */
  | { type: "cumulate"; step_ms: number; max_size_ms: number; offset_ms?: number };

/** `.trigger(...)`: EventTimeTrigger (default), PurgingTrigger.of(EventTimeTrigger), ContinuousEventTimeTrigger.of(interval) [purging]. */
export type TriggerSpec =
  | { type: "event_time" }
  | { type: "purging" }
  | { type: "continuous"; interval_ms: number; purging?: boolean };

/** `datastream` (WindowOperator) or `sql` (a window TVF aggregation: no lateness, side output or trigger). */
export type WindowApi = "datastream" | "sql";

export type AggregateKind = "count" | "sum" | "min" | "max";
export type SinkMode = "append" | "upsert";
export type Exchange = "hash" | "rebalance" | "forward";
export type TimestampAssigner = "event_field" | "broker_time" | "seconds_as_millis" | "millis_as_seconds";

/** Which partitions: one index, a list, "all", or all but some. */
export type PartitionSelector = number | number[] | "all" | { all_except: number[] };

/** The keys a producer draws from: a list of names, or `count` names `prefix0..`. */
export type KeysSpec = string[] | { count: number; prefix?: string };

export type ProducerKind =
  | { kind: "steady"; rate_per_s: number }
  | { kind: "burst"; every_ms: number; count: number }
  | { kind: "heartbeat"; every_ms: number }
  | { kind: "outlier"; future_ms: number }
  | { kind: "backlog"; count: number; span_ms: number };

/** A producer (generator) attached to partitions; times are relative to the job start. */
export type ProducerSpec = ProducerKind & {
  /** The topic written to (default: the first input's); `partitions` count within it. */
  topic?: string;
  partitions: PartitionSelector;
  keys?: KeysSpec;
  event_delay_ms?: number;
  jitter_ms?: number;
  value?: number;
  start_ms?: number;
  stop_ms?: number | null;
};

/** A literal record for `produce`: absolute `ts`, or `ts_offset_ms` from now, or now. */
export interface RecordSpec {
  ts?: Millis | null;
  ts_offset_ms?: Millis | null;
  key?: string | null;
  value?: Millis | null;
  heartbeat?: boolean;
}

/** The value each parameter takes (the engine's `set_param` names). */
export interface RuntimeParams {
  bound_ms: number;
  generator: GeneratorKind;
  /** null turns idleness off. */
  idle_timeout_ms: number | null;
  auto_watermark_interval_ms: number;
  allowed_lateness_ms: number;
  late_side_output: boolean;
  sink_mode: SinkMode;
  channel_latency_ms: number;
  read_rate_per_s: number | null;
  /** Records per second one keyed subtask processes; null: unbounded (no back-pressure). */
  keyed_capacity_per_s: number | null;
  max_future_skew_ms: number | null;
  drop_heartbeats: boolean;
}

/** Parameters that shape the job: `setParam` takes them only before the start. */
export interface StructuralParams {
  source_parallelism: number;
  window_parallelism: number;
  window: WindowSpec;
  aggregate: AggregateKind;
}

export type ParamName = keyof RuntimeParams | keyof StructuralParams;
export type ParamValue<K extends ParamName> = K extends keyof RuntimeParams
  ? RuntimeParams[K]
  : K extends keyof StructuralParams
    ? StructuralParams[K]
    : never;

export type Param = { [K in keyof RuntimeParams]: { name: K; value: RuntimeParams[K] } }[keyof RuntimeParams];

/** An engine command (the scenario's `commands[]` without `at_ms`). */
export type Command =
  | { command: "add_partition"; topic?: string }
  | { command: "remove_partition"; partition: number }
  | { command: "produce"; partition: number; records: RecordSpec[] }
  | { command: "silence"; partition: number }
  | { command: "resume"; partition: number }
  | { command: "attach_producer"; producer: ProducerSpec }
  | { command: "detach_producers"; partition: number }
  | { command: "set_param"; param: Param }
  | { command: "mark_split_idle"; partition: number }
  | { command: "mark_split_active"; partition: number }
  | { command: "release_split"; partition: number }
  | { command: "end_of_input" }
  | { command: "fail"; target: { task_manager: number } | { keyed_subtask: number } | { source_subtask: number } }
  /** A checkpoint now (Flink's REST `POST /jobs/:jobid/checkpoints`). */
  | { command: "checkpoint" };

/** `checkpointing.restart`: Flink's restart strategies (docs/FLOW.md). */
export type RestartStrategy =
  | { type: "fixed_delay"; delay_ms?: number; attempts?: number }
  | { type: "exponential_delay"; initial_ms?: number; max_ms?: number; multiplier?: number; jitter?: number; reset_threshold_ms?: number }
  | { type: "none" };

export type TimedCommand = Command & { at_ms: number };

/** A source's settings (the first input's `source`, or `second_input.source`). */
export interface SourceInput {
  parallelism?: number;
  watermark?: {
    generator?: GeneratorKind;
    emit?: "periodic" | "per_event";
    idle_timeout_ms?: number | null;
    auto_watermark_interval_ms?: number;
    /** `withWatermarkAlignment(group, maxDrift, updateInterval)`. */
    alignment?: { group: string; max_drift_ms: number; update_interval_ms?: number } | null;
  };
  timestamp_assigner?: TimestampAssigner;
  transform?: { max_future_skew_ms?: number | null; drop_heartbeats?: boolean };
  read_rate_per_s?: number | null;
  /** Kafka's `OffsetsInitializer`. */
  start_offset?: StartOffset;
  /** The Kafka fetch size: a reader moves through its partitions one fetch batch each. */
  fetch?: { max_partition_fetch_bytes?: number; record_bytes?: number };
  /** Whether the reader can pause single splits (split-level alignment); Kafka's can. */
  reader_pauses_splits?: boolean;
  /** A watermark operator chained after the source (its watermarks replace the source's). */
  midstream?: MidstreamSpec | null;
}

export type StartOffset =
  | "earliest"
  | "latest"
  | { timestamp_ms: number }
  | { committed: { offsets: number[]; reset?: "earliest" | "latest" | "none" } };

/**
 * The operator after the source: DataStream's mid-stream `assignTimestampsAndWatermarks(...)`, or
 * the operator a SQL `WATERMARK FOR ts AS ts - INTERVAL ...` becomes when not pushed into the source.
 */
export type MidstreamSpec =
  | { operator: "timestamps_and_watermarks"; generator: GeneratorKind; emit?: "periodic" | "per_event"; idle_timeout_ms?: number | null }
  | { operator: "sql_watermark_assigner"; delay_ms: number; idle_timeout_ms?: number };

/** A second source, unioned with (`union`) or connected to (`connect`) the first. */
export interface SecondInputSpec {
  topic: { name?: string; partitions: number };
  source?: SourceInput;
  exchange?: Exchange;
  mode?: "union" | "connect";
}

/** `first.keyBy(..).intervalJoin(second.keyBy(..)).between(lower, upper)`, instead of `window`. */
export interface IntervalJoinSpec {
  lower_ms: number;
  upper_ms: number;
  lower_exclusive?: boolean;
  upper_exclusive?: boolean;
  parallelism?: number;
  late_side_output?: boolean;
}

/** A scenario as you may write it: everything but `topic.partitions` and `window` (or `interval_join`) has a default. */
export interface ScenarioInput {
  name?: string;
  description?: string;
  seed?: number | bigint;
  start_time_ms?: number;
  duration_ms?: number;
  end_of_input?: boolean;
  topic: { name?: string; partitions: number };
  source?: SourceInput;
  exchange?: { type?: Exchange; latency_ms?: number };
  second_input?: SecondInputSpec;
  /** The keyed windows; a job has them or an `interval_join` (of the two inputs). */
  window?: {
    assigner: WindowSpec;
    parallelism?: number;
    allowed_lateness_ms?: number;
    late_side_output?: boolean;
    aggregate?: AggregateKind;
    trigger?: TriggerSpec;
    api?: WindowApi;
  };
  interval_join?: IntervalJoinSpec;
  sink?: { mode?: SinkMode };
  producers?: ProducerSpec[];
  commands?: TimedCommand[];
  flink?: {
    combined_all_idle_flush?: boolean;
    valve_unconditional_flush?: boolean;
    valve_rederive_on_reactivate?: boolean;
    kafka_connector?: "flip27" | "legacy";
    midstream_forwards_status?: boolean;
    /** `input_activity` (≥ 1.19.2 / 1.20.1 / 2.0) or `wall` (≤ 1.19.1 / 1.20.0). */
    idleness_clock?: "input_activity" | "wall";
    alignment_buffer_size?: number;
    alignment_skip_idle_splits?: boolean;
    allow_unaligned_source_splits?: boolean;
  };
  trace?: { capacity?: number; records?: boolean; late_records_retained?: number; window_results_retained?: number | null };
  /** Capacities (back-pressure), TaskManagers, their memory and the keyed-state estimate (docs/FLOW.md). */
  flow?: {
    /** Records/s one keyed subtask processes; null: unbounded. */
    keyed_capacity_per_s?: number | null;
    /** A channel's credits, in records. */
    channel_buffer_records?: number;
    /** One simulated record (and key) stands for N real ones. */
    record_scale?: number;
    state_bytes_per_entry?: number;
    task_managers?: number;
    task_manager_memory_bytes?: number | null;
  };
  /** Checkpoints and the restart strategy (docs/FLOW.md); no `restart`: Flink's default. */
  checkpointing?: { interval_ms?: number | null; restart?: RestartStrategy };
}

/** A scenario as the API returns it (`toScenario()`, `presetScenario()`): every field present. */
export interface Scenario extends ScenarioInput {
  name: string;
  description: string;
  seed: number;
  start_time_ms: number;
  duration_ms: number;
  end_of_input: boolean;
  producers: ProducerSpec[];
  commands: TimedCommand[];
}

// ---- what the reads return (the objects themselves: ./types.gen.d.ts) -----------------------

export interface SnapshotOptions {
  /** Open windows listed per operator (default 10). */
  openWindows?: number;
}

export interface DiagnosisOptions {
  /** The delay an idle timeout may add (default: one window). */
  toleratedDelayMs?: Millis | null;
  /** Flag event-time lag above this (default: `setLagAlert`'s threshold). */
  lagAlertMs?: Millis | null;
}

/** A point of `lagHistory()`: event-time lag (processing time − watermark) at `time`. */
export interface LagPoint {
  time: number;
  lagMs: number | null;
}

// ---- events (the payloads: ./types.gen.d.ts) -------------------------------------------------

export interface EventMap {
  window: WindowEmission;
  /** A pair an interval join emitted. */
  join: JoinEmission;
  late: LateRecord;
  watermark: WatermarkEvent;
  idle: StatusEvent;
  active: StatusEvent;
  step: StepEvent;
  lag: LagCrossing;
}

export type EventName = keyof EventMap;

/** Returned by `on()`. */
export class Subscription {
  private constructor();
  /** Removes the listener; calling it again does nothing. */
  remove(): void;
  free(): void;
}

/** What `sqlScenario` returns. */
export interface SqlScenario {
  scenario: Scenario;
  /** Each clause read but not modelled, where it stands (lines and columns from 1). */
  notes: { line: number; column: number; message: string }[];
}

/** What `exportJob` returns: a Maven project to build with `mvn package` and run with `flink run`. */
export interface ExportedJob {
  /** pom.xml, README.md, the Java program, its replay.tsv and expected-output.txt (paths from the project root). */
  files: { path: string; text: string }[];
  /** For a SQL window (`window.api: "sql"`): job.sql, the script the job runs (also among `files`), with the Kafka table commented. */
  sql?: string;
  /** What the exported job does differently from the playground (also in its README). */
  notes: string[];
}

// ---- the class -------------------------------------------------------------------------------

/**
 * A simulated Flink job (Kafka source(s) → keyed event-time windows or an interval join → sink),
 * driven from JS.
 */
export class WatermarkPlayground {
  /** From a scenario object, a preset id, a share string or scenario JSON text. */
  constructor(source: ScenarioInput | string);
  static fromScenario(scenario: ScenarioInput | string): WatermarkPlayground;
  static fromPreset(id: string): WatermarkPlayground;
  static fromShareString(share: string): WatermarkPlayground;
  static presets(): PresetInfo[];
  static presetScenario(id: string): Scenario;
  /**
   * The scenario a Flink SQL script gives on `base` (a scenario, preset id or share string;
   * default: the first preset), with notes on what it read but does not model. A bad script
   * throws an `Error` whose `path` is `sql:LINE:COLUMN` (docs/SQL.md).
   */
  static sqlScenario(sql: string, base?: ScenarioInput | string): SqlScenario;
  /**
   * The scenario as a self-contained Flink 2.3 DataStream job that replays the records the
   * playground's sources emitted and prints the same window results (docs/EXPORT.md). Runs the
   * scenario to its end. A shape the job cannot reproduce (an interval join; a watermark operator,
   * alignment or a SQL window on a job with two inputs; commands that change a setting while it
   * runs; …) throws a `RangeError` whose `path` names the field.
   */
  static exportJob(scenario: ScenarioInput | string): ExportedJob;
  /** "No Watermark", "end of input (Long.MAX_VALUE)" or a UTC time. */
  static describeWatermark(watermark: Watermark | string | Millis): string;

  /** Frees the wasm memory now (otherwise the garbage collector does it). */
  free(): void;

  /** Processing time now (ms since the epoch). */
  readonly now: number;
  /** Processing time since the start (−1 before the first instant). */
  readonly elapsedMs: number;
  readonly startTime: number;
  readonly started: boolean;
  readonly finished: boolean;
  readonly name: string;
  /** The sequence number the next trace event will get. */
  readonly cursor: number;
  /** The fingerprint of the whole trace (16 hex digits), as `wmp run` prints it. */
  readonly traceHash: string;

  /** Processes the next instant at which anything happens; its time since the start, or null. */
  step(): number | null;
  /** Processes every instant up to `atMs` after the start. */
  runUntil(atMs: Millis): void;
  /** Processes the next `ms` milliseconds. */
  runFor(ms: Millis): void;
  /** Steps until something interesting happens or `limitMs` passes (default 3,600,000). */
  stepToNextInteresting(limitMs?: Millis): boolean;
  /** What `wmp run` does: run to `duration_ms`, then the end of input if the scenario asks. */
  runToEnd(): void;

  /** Adds a partition; returns its index. Commands run at the next millisecond. */
  addPartition(): number;
  removePartition(partition: number): void;
  /** Appends records to a partition; returns how many. */
  produce(partition: number, records: RecordSpec | RecordSpec[]): number;
  /** Attaches a producer; returns the partitions it writes to, in engine numbers (a second
   * topic's partitions follow the first topic's, as `snapshot().splits` numbers them). */
  attach(producer: ProducerSpec): number[];
  detach(partition: number): void;
  silence(partition: number): void;
  resume(partition: number): void;
  markIdle(partition: number): void;
  markActive(partition: number): void;
  releaseSplit(partition: number): void;
  endOfInput(): void;
  setParam<K extends ParamName>(name: K, value: ParamValue<K>): void;
  /** Applies engine commands together at the next millisecond. */
  apply(commands: Command | Command[]): void;
  /** Schedules engine commands at `atMs` after the start (in the future). */
  schedule(atMs: Millis, commands: Command | Command[]): void;

  snapshot(options?: SnapshotOptions): Snapshot;
  eventsSince(cursor?: Millis): EventBatch;
  windows(from?: number): WindowEmission[];
  /** Pairs an interval join emitted, in emission order, from index `from` (default 0). */
  joins(from?: number): JoinEmission[];
  lateRecords(): LateRecord[];
  metrics(): Metrics;
  restWatermarks(vertex: "source" | "window"): RestWatermark[];
  /** Window state per keyed subtask over time, with bytes per entry and the memory limit. */
  stateSizeHistory(): StateSizeHistoryView;
  /** Flink's REST `GET /jobs/:jobid/vertices/:vertexid/backpressure` answer for the vertex. */
  restBackPressure(vertex: "source" | "window"): RestBackPressure;
  explain(subtask: number): Explanation;
  /** The job-level diagnosis: culprit, cause, findings with evidence and fixes, partition classes, advice, lag. */
  diagnose(options?: DiagnosisOptions): Diagnosis;
  /** Applies a fix from `diagnose()` (or its action); `restarts` fixes restart from time zero. */
  applyFix(fix: Fix | Action): void;
  /** Alert (`on("lag")`) when a window subtask's event-time lag exceeds `ms`; null turns it off. */
  setLagAlert(ms: Millis | null): void;
  /** Event-time lag of a window subtask over time. */
  lagHistory(subtask: number): LagPoint[];
  on<E extends EventName>(event: E, callback: (event: EventMap[E]) => void): Subscription;

  /** The scenario that reproduces this session (original + every command with its at_ms). */
  toScenario(): Scenario;
  /** `toScenario()` as a URL-safe string: "wmp1." + base64url(JSON). */
  toShareString(): string;
}
