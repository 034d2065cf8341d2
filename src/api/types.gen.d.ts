// GENERATED from the engine's view types (src/engine/view/typescript.rs): do not edit.
// `cargo test --lib engine::view::typescript` checks it; wmp.d.ts re-exports it.
// Every number is a JS number (64-bit integers are serialized as numbers); watermarks are
// `Watermark` objects because a number cannot hold every 64-bit value.

import type { Command } from "./wmp";

/**
 * A 64-bit watermark. `raw` is exact (a decimal string, as Flink's REST API sends it); `ms` is
 * the same value as a number, or null for Long.MIN_VALUE ("No Watermark"), Long.MAX_VALUE (end
 * of input) and values beyond ±2^53 − 1.
 */
export type Watermark = { ms: number | null, raw: string, };

/**
 * Flink's `WatermarkStatus`: an IDLE stream will not advance the watermark (it may still
 * carry records, FLIP-180).
 */
export type WatermarkStatus = "ACTIVE" | "IDLE";

export type SplitView = {
  partition: number,
  /**
   * The source subtask that owns the split (null if unassigned).
   */
  subtask: number | null,
  produced: number,
  read: number,
  unread: number,
  maxTimestamp: number | null,
  /**
   * The split's own watermark (its partial in the multiplexer); null if unassigned.
   */
  watermark: Watermark | null,
  idle: boolean,
  /**
   * When the idleness timer will declare it idle if nothing arrives (processing time).
   */
  idleDeadline: number | null,
  lastRecordAt: number | null,
  released: boolean,
  /**
   * Every producer of the partition is silenced (or it has none).
   */
  silent: boolean,
};

export type SourceView = {
  subtask: number,
  partitions: Array<number>,
  combinedWatermark: Watermark,
  outputWatermark: Watermark,
  idle: boolean,
  mainOutputIdle: boolean,
};

export type ChannelView = {
  channel: number,
  sourceSubtask: number,
  watermark: Watermark,
  status: WatermarkStatus,
  aligned: boolean,
  /**
   * This channel holds the operator's minimum.
   */
  isMin: boolean,
};

/**
 * A window waiting for the watermark: its key, bounds and the records it holds.
 */
export type OpenWindow = { key: string, start: number, end: number, count: number, };

export type OperatorView = {
  subtask: number,
  inputWatermark: Watermark,
  outputWatermark: Watermark,
  idle: boolean,
  channels: Array<ChannelView>,
  windowStateSize: number,
  /**
   * The earliest windows waiting for the watermark (at most `snapshot({ openWindows })`).
   */
  openWindows: Array<OpenWindow>,
  openWindowCount: number,
};

/**
 * Source subtask metrics (the source reader group).
 */
export type SourceMetrics = {
  subtask: number,
  currentOutputWatermark: Watermark,
  /**
   * `(idling ? idleStart : now) − lastEmittedWatermark`; null before the first watermark.
   */
  watermarkLag: number | null,
  numRecordsOut: number,
  numRecordsFiltered: number,
  idle: boolean,
  idleTimeMs: number,
  splits: number,
};

/**
 * Window operator subtask metrics.
 */
export type WindowMetrics = {
  subtask: number,
  currentInputWatermark: Watermark,
  currentOutputWatermark: Watermark,
  /**
   * Processing time minus the watermark (the "event-time lag" people alert on).
   */
  watermarkLag: number | null,
  numRecordsIn: number,
  numRecordsOut: number,
  numLateRecordsDropped: number,
  numLateRecordsSideOutput: number,
  idle: boolean,
  idleTimeMs: number,
  /**
   * Keys × open windows.
   */
  windowStateSize: number,
  recordsInWindowState: number,
};

export type Metrics = { now: number, source: Array<SourceMetrics>, window: Array<WindowMetrics>, };

export type Snapshot = {
  /**
   * Processing time (ms since the epoch).
   */
  now: number,
  /**
   * Processing time since the start (−1 before the first instant).
   */
  elapsedMs: number,
  startTime: number,
  /**
   * Whether the first instant has run.
   */
  started: boolean,
  /**
   * Whether `runToEnd()` applied the end of input (no more commands or time then).
   */
  finished: boolean,
  splits: Array<SplitView>,
  sources: Array<SourceView>,
  operators: Array<OperatorView>,
  windowsFired: number,
  lateRecords: number,
  traceCursor: number,
  traceHash: string,
  /**
   * Per-subtask metrics (the playground's per-frame picture leaves them out, the JS API's
   * `snapshot()` always has them).
   */
  metrics: Metrics,
};

/**
 * One window result as the sink received it.
 */
export type WindowEmission = {
  /**
   * Position in emission order (`windows(from)`).
   */
  index: number,
  subtask: number,
  key: string,
  start: number,
  end: number,
  /**
   * The aggregate the scenario emits (`window.aggregate`).
   */
  value: number,
  count: number,
  sum: number,
  min: number,
  max: number,
  /**
   * The operator's watermark when it fired.
   */
  watermark: Watermark,
  /**
   * 0 on time, 1, 2, … for late re-firings.
   */
  firing: number,
  /**
   * Processing time of the firing.
   */
  time: number,
};

/**
 * A record that arrived after the watermark had passed all its windows.
 */
export type LateRecord = {
  subtask: number,
  partition: number,
  offset: number,
  ts: number,
  key: string,
  value: number,
  /**
   * The operator's watermark that made it late.
   */
  watermark: Watermark,
  sideOutput: boolean,
  time: number,
};

/**
 * One entry of the REST watermarks answer; values are strings, as Flink sends them.
 */
export type RestWatermark = { id: string, value: string, };

/**
 * One reason, as data (the UI renders it; the explanation's `text` says it in a sentence);
 * `kind` names it in snake_case.
 */
export type Reason =
    { "kind": "all_inputs_idle" }
  | { "kind": "subtask_without_split", sourceSubtask: number, }
  | { "kind": "split_never_received", partition: number, idleTimeoutMs: number | null, }
  | { "kind": "split_silent_no_idle_timeout", partition: number, silentMs: number, }
  | { "kind": "kept_active_by_sparse_records", partition: number, idleTimeoutMs: number, lastRecordAgoMs: number, }
  | { "kind": "idle_countdown", partition: number, idleAt: number, }
  | { "kind": "periodic_emission_disabled" }
  | { "kind": "channel_not_realigned", channel: number, sourceSubtask: number, }
  | { "kind": "far_future_timestamp", partition: number, maxTimestamp: number, aheadMs: number, }
  | { "kind": "seconds_read_as_millis", watermark: Watermark, }
  | { "kind": "millis_read_as_seconds", watermark: Watermark, };

/**
 * Who holds the watermark.
 */
export type Culprit = { channel: number, sourceSubtask: number, partition: number | null, };

export type Explanation = {
  subtask: number,
  watermark: Watermark,
  heldBy: Culprit | null,
  reasons: Array<Reason>,
  /**
   * The earliest windows waiting for this operator's watermark (at most 5).
   */
  waitingWindows: Array<OpenWindow>,
  waitingTotal: number,
  /**
   * The explanation in one or two sentences.
   */
  text: string,
};

/**
 * What happened; `kind` is the snake_case name.
 */
export type TraceKind =
    { "kind": "command", command: Command | string, }
  | { "kind": "record_read", subtask: number, partition: number, offset: number, ts: number, key: string, }
  | { "kind": "record_filtered", subtask: number, partition: number, offset: number, }
  | { "kind": "split_watermark", subtask: number, partition: number, watermark: Watermark, }
  | { "kind": "split_idle", subtask: number, partition: number, }
  | { "kind": "split_active", subtask: number, partition: number, }
  | { "kind": "split_added", subtask: number, partition: number, }
  | { "kind": "split_released", subtask: number, partition: number, }
  | { "kind": "source_watermark", subtask: number, watermark: Watermark, }
  | { "kind": "source_status", subtask: number, status: WatermarkStatus, }
  | { "kind": "end_of_input_dropped", subtask: number, }
  | { "kind": "operator_watermark", subtask: number, watermark: Watermark, }
  | { "kind": "operator_status", subtask: number, status: WatermarkStatus, }
  | { "kind": "window_fired", subtask: number, key: string, start: number, end: number, count: number, sum: number, watermark: Watermark, firing: number, }
  | { "kind": "late_record", subtask: number, partition: number, offset: number, ts: number, key: string, watermark: Watermark, sideOutput: boolean, };

/**
 * One trace entry.
 */
export type TraceEvent = {
  seq: number,
  /**
   * Processing time of the event.
   */
  time: number,
} & ({ "kind": "command", command: Command | string, }
  | { "kind": "record_read", subtask: number, partition: number, offset: number, ts: number, key: string, }
  | { "kind": "record_filtered", subtask: number, partition: number, offset: number, }
  | { "kind": "split_watermark", subtask: number, partition: number, watermark: Watermark, }
  | { "kind": "split_idle", subtask: number, partition: number, }
  | { "kind": "split_active", subtask: number, partition: number, }
  | { "kind": "split_added", subtask: number, partition: number, }
  | { "kind": "split_released", subtask: number, partition: number, }
  | { "kind": "source_watermark", subtask: number, watermark: Watermark, }
  | { "kind": "source_status", subtask: number, status: WatermarkStatus, }
  | { "kind": "end_of_input_dropped", subtask: number, }
  | { "kind": "operator_watermark", subtask: number, watermark: Watermark, }
  | { "kind": "operator_status", subtask: number, status: WatermarkStatus, }
  | { "kind": "window_fired", subtask: number, key: string, start: number, end: number, count: number, sum: number, watermark: Watermark, firing: number, }
  | { "kind": "late_record", subtask: number, partition: number, offset: number, ts: number, key: string, watermark: Watermark, sideOutput: boolean, });

/**
 * The retained events from `cursor` on, how many of the requested ones the bounded trace had
 * already dropped, and the cursor to pass next time.
 */
export type EventBatch = {
  events: Array<TraceEvent>,
  /**
   * Requested events the bounded trace had already dropped.
   */
  lost: number,
  /**
   * Pass this to the next `eventsSince`.
   */
  cursor: number,
};

/**
 * One preset of the catalog; the JS API lists them without their scenario.
 */
export type PresetInfo = {
  id: string,
  title: string,
  /**
   * What the scenario shows.
   */
  summary: string,
  /**
   * What to look at in the playground.
   */
  lookAt: string,
  /**
   * What to try (the fix), as a sentence.
   */
  tryThis: string,
  /**
   * The Flink documentation, issue or seed it mirrors.
   */
  source: string,
};

/**
 * Where a watermark or a status changed.
 */
export type Level = "split" | "source" | "operator";

/**
 * A `watermark` event.
 */
export type WatermarkEvent = {
  seq: number,
  time: number,
  level: Level,
  subtask: number,
  /**
   * Set for split events.
   */
  partition: number | null,
  watermark: Watermark,
};

/**
 * An `idle` or `active` event.
 */
export type StatusEvent = {
  seq: number,
  time: number,
  level: Level,
  subtask: number,
  /**
   * Set for split events.
   */
  partition: number | null,
};

/**
 * A `step` event: where the clock is after the call.
 */
export type StepEvent = { now: number, elapsedMs: number, };
