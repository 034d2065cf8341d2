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
   * The job input whose topic holds it (0, or 1 for the second topic), and its number there.
   */
  input: number,
  partitionInTopic: number,
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
  /**
   * Split alignment paused it: its watermark is ahead of the group's allowed maximum.
   */
  paused: boolean,
  /**
   * Read again after a restore up to where its source subtask's input had ended, it waits
   * there for its siblings: finished, its watermark does not count in the subtask's.
   */
  atItsEnd: boolean,
};

/**
 * A watermark operator chained after a source subtask.
 */
export type MidstreamView = {
  /**
   * `assignTimestampsAndWatermarks` or `SQL watermark operator`.
   */
  operator: string,
  /**
   * The last watermark it sent on.
   */
  outputWatermark: Watermark,
  idle: boolean,
};

export type BackPressureLevel = "OK" | "LOW" | "HIGH";

/**
 * A source subtask's side of watermark alignment.
 */
export type AlignmentView = {
  group: string,
  maxDriftMs: number,
  /**
   * The last announced maximum (`Long.MAX_VALUE` until the first announcement).
   */
  maxAllowed: Watermark,
  /**
   * `WAITING_FOR_ALIGNMENT`: it reads nothing until the group catches up.
   */
  waiting: boolean,
  /**
   * `watermarkAlignmentDrift`.
   */
  driftMs: number | null,
};

export type SourceView = {
  subtask: number,
  /**
   * The job input it reads for (0, or 1 for the second source), and its index there.
   */
  input: number,
  subtaskInSource: number,
  /**
   * The watermark operator chained after it, if any.
   */
  midstream: MidstreamView | null,
  partitions: Array<number>,
  combinedWatermark: Watermark,
  outputWatermark: Watermark,
  idle: boolean,
  mainOutputIdle: boolean,
  /**
   * The TaskManager it runs on (`flow.task_managers`).
   */
  taskManager: number,
  /**
   * No room in an output channel: the subtask reads nothing (`isBackPressured`).
   */
  backPressured: boolean,
  /**
   * The Web UI's colour for it (from `backPressuredTimeMsPerSecond`).
   */
  backPressureLevel: BackPressureLevel,
  /**
   * Watermark alignment, when its strategy has it.
   */
  alignment: AlignmentView | null,
};

export type ChannelView = {
  /**
   * The operator's logical input (1 only for the second input of a two-input operator).
   */
  input: number,
  channel: number,
  sourceSubtask: number,
  watermark: Watermark,
  status: WatermarkStatus,
  aligned: boolean,
  /**
   * This channel holds the operator's minimum.
   */
  isMin: boolean,
  /**
   * Records waiting in the channel (with a capacity limit or latency).
   */
  bufferedRecords: number,
};

/**
 * One logical input of a two-input operator (`currentInputNWatermark`).
 */
export type LogicalInputView = {
  input: number,
  topic: string,
  watermark: Watermark,
  idle: boolean,
  /**
   * This input holds the operator's watermark.
   */
  isMin: boolean,
};

/**
 * How a second input meets the first.
 */
export type TwoInputMode = "union" | "connect";

/**
 * The job's shape: what the graph draws.
 */
export type JobShape = {
  /**
   * Topic names, by input.
   */
  topics: Array<string>,
  /**
   * How a second input meets the first (null with one input).
   */
  twoInputMode: TwoInputMode | null,
  /**
   * `window` or `interval_join`.
   */
  keyedOperator: string,
  /**
   * An interval join's inclusive bounds (null for windows).
   */
  joinBounds: [number,
  number] | null,
  /**
   * Records per second one keyed subtask processes (null: unbounded, no back-pressure).
   */
  keyedCapacityPerS: number | null,
  /**
   * The graph draws back-pressure and busy time: a simulated job with a capacity limit
   * (nothing else can be back-pressured), or a real job whose metrics report them.
   */
  flowMarks: boolean,
  /**
   * Credits of one channel, in records.
   */
  channelBufferRecords: number,
  /**
   * One simulated record (and key) stands for this many real ones; every count the views
   * show is multiplied by it already.
   */
  recordScale: number,
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
  /**
   * A two-input operator's inputs (empty for one logical input).
   */
  inputs: Array<LogicalInputView>,
  /**
   * An interval join's buffered elements (left, right); null for windows.
   */
  joinBuffered: [number,
  number] | null,
  windowStateSize: number,
  /**
   * The earliest windows waiting for the watermark (at most `snapshot({ openWindows })`).
   */
  openWindows: Array<OpenWindow>,
  openWindowCount: number,
  /**
   * Keyed state entries: (key, window) states, or a join's buffered elements (0 while the
   * job is down).
   */
  stateEntries: number,
  /**
   * Their estimated heap bytes: entries × `flow.state_bytes_per_entry` × `flow.record_scale`.
   */
  stateBytes: number,
  /**
   * The TaskManager it runs on (`flow.task_managers`).
   */
  taskManager: number,
};

/**
 * Source subtask metrics (the source reader group).
 */
export type SourceMetrics = {
  subtask: number,
  currentOutputWatermark: Watermark,
  /**
   * `(idling ? idleStart : now) − lastEmittedWatermark`, idling as the reader is (nothing to
   * read), not the watermark status; null before the first watermark.
   */
  watermarkLag: number | null,
  numRecordsOut: number,
  numRecordsFiltered: number,
  idle: boolean,
  idleTimeMs: number,
  splits: number,
  /**
   * Back-pressure (`flow`): false / 0 without a capacity limit.
   */
  isBackPressured: boolean,
  backPressuredTimeMsPerSecond: number,
  /**
   * The fullest output channel's share of its credits (0..1).
   */
  outPoolUsage: number,
  /**
   * The Kafka connector's `pendingRecords`: records not yet read from its splits.
   */
  pendingRecords: number,
  /**
   * `watermarkAlignmentDrift` (registered at the first alignment announcement).
   */
  watermarkAlignmentDrift: number | null,
};

/**
 * Window operator subtask metrics.
 */
export type WindowMetrics = {
  subtask: number,
  /**
   * Flink's gauge: with two inputs the lower of both, idle or not (the operator's own
   * watermark, which leaves idle inputs out, is the snapshot's).
   */
  currentInputWatermark: Watermark,
  currentOutputWatermark: Watermark,
  /**
   * Processing time minus `currentInputWatermark` (the "event-time lag" people alert on).
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
  /**
   * `busyTimeMsPerSecond` (0 without a capacity limit: processing then takes no time).
   */
  busyTimeMsPerSecond: number,
  /**
   * The fullest input channel's share of its credits (0..1).
   */
  inPoolUsage: number,
  /**
   * Two-input operators: each input's watermark, named as Flink's older per-input gauges
   * (Flink 2.3 registers neither, only `currentInputWatermark`, their minimum).
   */
  currentInput1Watermark?: Watermark,
  currentInput2Watermark?: Watermark,
  /**
   * Keyed state entries and their estimated bytes (`flow`), and the TaskManager it runs on.
   */
  stateEntries: number,
  stateBytes: number,
  taskManager: number,
};

/**
 * Job metrics (Flink's job scope): restarts and checkpoints.
 */
export type JobMetrics = {
  numRestarts: number,
  numberOfCompletedCheckpoints: number,
  /**
   * Flink reports −1 before the first restore; null here.
   */
  lastCheckpointRestoreTimestamp: number | null,
};

export type Metrics = {
  now: number,
  source: Array<SourceMetrics>,
  window: Array<WindowMetrics>,
  job: JobMetrics,
};

/**
 * Flink's `JobStatus`, as far as the simulated job goes through it.
 */
export type JobStatus = "RUNNING" | "RESTARTING" | "FAILED";

/**
 * A completed checkpoint.
 */
export type CheckpointView = {
  id: number,
  /**
   * Processing time it completed at.
   */
  at: number,
};

/**
 * One TaskManager's keyed state against its memory.
 */
export type TaskManagerView = {
  index: number,
  /**
   * Estimated bytes of the keyed state of the subtasks it runs (0 while the job is down).
   */
  usedBytes: number,
  /**
   * `flow.task_manager_memory_bytes` (null: unlimited).
   */
  limitBytes: number | null,
  /**
   * Keyed subtasks it runs.
   */
  keyedSubtasks: Array<number>,
};

/**
 * The job's run across attempts (`snapshot().run`).
 */
export type JobRunView = {
  status: JobStatus,
  /**
   * 1 for the first run, one more per restart.
   */
  attempt: number,
  restarts: number,
  /**
   * `execution.checkpointing.interval` (null: off).
   */
  checkpointIntervalMs: number | null,
  checkpointsCompleted: number,
  lastCheckpoint: CheckpointView | null,
  /**
   * The last failure: when, and why.
   */
  failedAt: number | null,
  failure: string | null,
  /**
   * While RESTARTING: when the restart strategy's delay ends.
   */
  restartingUntil: number | null,
  /**
   * The last restore: when, and from which checkpoint (null: from the start offsets).
   */
  restoredAt: number | null,
  restoredFrom: number | null,
  /**
   * Records read again after restores (below a read position reached before a failure).
   */
  recordsReplayed: number,
  /**
   * Results the sink received again after restores (duplicate rows for an append sink).
   */
  resultsDuplicated: number,
  taskManagers: Array<TaskManagerView>,
};

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
  job: JobShape,
  splits: Array<SplitView>,
  sources: Array<SourceView>,
  operators: Array<OperatorView>,
  windowsFired: number,
  /**
   * Pairs an interval join emitted.
   */
  joinsEmitted: number,
  lateRecords: number,
  traceCursor: number,
  traceHash: string,
  /**
   * `append` (every firing a new row: late re-firings are duplicates) or `upsert`.
   */
  sinkMode: SinkMode,
  /**
   * Per-subtask metrics (the playground's per-frame picture leaves them out, the JS API's
   * `snapshot()` always has them).
   */
  metrics: Metrics,
  /**
   * The job's run: status, attempts, checkpoints, failures, TaskManagers' memory.
   */
  run: JobRunView,
};

/**
 * One sample: state entries per keyed subtask at `time`.
 */
export type StateSample = { time: number, entries: Array<number>, };

/**
 * The keyed state size over processing time (`stateSizeHistory()`). A failure shows as two
 * samples at the same time, the size that failed and zero; checkpoints and failures are in the
 * trace (`checkpoint_completed`, `job_failed`, `job_restarted`).
 */
export type StateSizeHistoryView = {
  /**
   * The sampling interval now (it doubles as the history fills).
   */
  intervalMs: number,
  /**
   * Bytes per state entry: a sample's entries (real ones, × `record_scale`) times this are
   * its bytes.
   */
  bytesPerEntry: number,
  limitBytes: number | null,
  /**
   * The TaskManager of each keyed subtask.
   */
  taskManagerOf: Array<number>,
  samples: Array<StateSample>,
};

/**
 * What fired a window.
 */
export type FiringKind = "on_time" | "early" | "late";

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
   * The window's firings before this one: 0 for its first row, 1, 2, … for re-firings.
   */
  firing: number,
  /**
   * `on_time`, `early` (a continuous trigger's interval) or `late` (a record after the
   * window's end, within the allowed lateness).
   */
  firingKind: FiringKind,
  /**
   * Processing time of the firing.
   */
  time: number,
};

/**
 * One pair an interval join emitted (`ProcessJoinFunction.processElement(left, right, ..)`).
 */
export type JoinEmission = {
  /**
   * Position in emission order (`joins(from)`).
   */
  index: number,
  subtask: number,
  key: string,
  /**
   * The left (first input's) element's timestamp and value.
   */
  leftTs: number,
  leftValue: number,
  /**
   * The right (second input's) element's timestamp and value.
   */
  rightTs: number,
  rightValue: number,
  /**
   * The output record's timestamp: `max(leftTs, rightTs)`.
   */
  ts: number,
  /**
   * Processing time of the emission.
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

export type RestSubtaskBackPressure = {
  subtask: number,
  "backpressure-level": string,
  /**
   * `backPressuredTimeMsPerSecond / 1000`.
   */
  ratio: number,
  idleRatio: number,
  busyRatio: number,
};

/**
 * The REST back-pressure answer for a vertex.
 */
export type RestBackPressure = {
  status: string,
  "backpressure-level": string,
  "end-timestamp": number,
  subtasks: Array<RestSubtaskBackPressure>,
};

/**
 * One reason, as data (the UI renders it; the explanation's `text` says it in a sentence);
 * `kind` names it in snake_case.
 */
export type Reason =
    { "kind": "all_inputs_idle" }
  | { "kind": "subtask_without_split", sourceSubtask: number, }
  | { "kind": "all_splits_released", sourceSubtask: number, }
  | { "kind": "split_never_received", partition: number, idleTimeoutMs: number | null, heartbeatsFiltered?: number, }
  | { "kind": "split_silent_no_idle_timeout", partition: number, silentMs: number, }
  | { "kind": "split_silent_nothing_ahead", partition: number, silentMs: number, onlyIdleAhead?: boolean, behindUnaligned?: boolean, }
  | { "kind": "kept_active_by_sparse_records", partition: number, idleTimeoutMs: number, lastRecordAgoMs: number, periodMs: number, }
  | { "kind": "slow_partition", partition: number, behindMs: number, cause: SlowCause | null, }
  | { "kind": "returned_below_watermark", partition: number, lateRecords: number, }
  | { "kind": "flapping_partition", partition: number, flips: number, idleTimeoutMs: number, }
  | { "kind": "idle_countdown", partition: number, idleAt: number, }
  | { "kind": "periodic_emission_disabled" }
  | { "kind": "input_holds", input: number, topic: string, otherWatermark: Watermark, }
  | { "kind": "input_stalls", input: number, topic: string, behindMs: number, }
  | { "kind": "midstream_holds", sourceSubtask: number, operator: string, 
/**
 * Whether the source itself announced IDLE (a status the DataStream operator swallows).
 */
sourceIdle: boolean, idleTimeoutMs: number | null, silentMs: number | null, sql: boolean, }
  | { "kind": "back_pressured_never_idle", partition: number, sourceSubtask: number, idleTimeoutMs: number, silentMs: number, }
  | { "kind": "waiting_for_alignment", sourceSubtask: number, maxAllowed: Watermark, }
  | { "kind": "split_paused_by_alignment", partition: number, maxAllowed: Watermark, }
  | { "kind": "alignment_pauses_others", partition: number, paused: Array<number>, maxDriftMs: number, updateIntervalMs: number, }
  | { "kind": "channel_not_realigned", channel: number, sourceSubtask: number, }
  | { "kind": "far_future_timestamp", partition: number, maxTimestamp: number, aheadMs: number, }
  | { "kind": "seconds_read_as_millis", watermark: Watermark, }
  | { "kind": "millis_read_as_seconds", watermark: Watermark, }
  | { "kind": "job_down", restartingUntil: number | null, }
  | { "kind": "stalled_after_restore", restoredAt: number, channel: number, sourceSubtask: number, silentPartition: number | null, idleTimeoutMs: number | null, };

/**
 * Who holds the watermark.
 */
export type Culprit = {
  /**
   * The operator's logical input (1 only for the second input of a two-input operator).
   */
  input: number,
  channel: number,
  sourceSubtask: number,
  partition: number | null,
};

export type Explanation = {
  subtask: number,
  watermark: Watermark,
  heldBy: Culprit | null,
  /**
   * Set when every input channel and every partition behind them is at the watermark alike
   * (how many of each): then `heldBy` is null, since naming the first of them would pin a
   * job-wide cause (a missing strategy, an interval of 0) on one arbitrary partition. Left
   * out when there is no tie.
   */
  tied?: { channels: number, partitions: number, },
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

export type PartitionClass = "steady"
  | "empty"
  | "idle"
  | "heartbeat"
  | "slow"
  | "returning"
  | "flapping"
  | "removed"
  | "waiting";

/**
 * Why a slow partition is behind.
 */
export type SlowCause = "event_time_delay"
  | "consumer_lag"
  | "back_pressured"
  | "few_records"
  | "too_few_to_tell";

/**
 * What the diagnosis knows about one partition, in numbers.
 */
export type PartitionFacts = {
  partition: number,
  /**
   * The source subtask that reads it.
   */
  subtask: number | null,
  class: PartitionClass,
  slowCause: SlowCause | null,
  records: number,
  heartbeats: number,
  /**
   * Records its reader took from the partition that the source's filter dropped before the
   * watermark generator (heartbeats, `drop_heartbeats`): read, but not in `records`. Re-reads
   * after a restore count again, as in `records`.
   */
  filtered: number,
  /**
   * Records per second from its first record to its last (at least a second).
   */
  ratePerS: number,
  /**
   * Processing time since its last record.
   */
  silentMs: number | null,
  /**
   * Processing time since a source subtask was given its split (none while no subtask
   * reads it): an empty partition is not judged before it has been read a while.
   */
  readMs: number | null,
  gapP50Ms: number | null,
  gapP99Ms: number | null,
  gapMaxMs: number | null,
  /**
   * Standard deviation over mean of its gaps, per mille (0: a metronome).
   */
  gapVariationPermille: number | null,
  /**
   * Quantiles and maximum of `max_ts − ts` over its records (all of the first 1,024, then
   * a deterministic sample of one instant's batch in 32).
   */
  disorderP50Ms: number | null,
  disorderP99Ms: number | null,
  disorderMaxMs: number | null,
  /**
   * How old its newest record was when it arrived (processing time − event time).
   */
  dataDelayMs: number | null,
  /**
   * The oldest its newest record was on arrival while it read history before it first
   * caught up (a backfill), as long as that history is still at least 1 % of the disorder
   * measured: the disorder is then history's order, not the live data's.
   */
  historyDelayMs: number | null,
  /**
   * How far its split watermark trails the most advanced active split.
   */
  behindMs: number | null,
  watermark: Watermark | null,
  idle: boolean,
  idleFlips: number,
  lateRecords: number,
  unread: number,
};

export type Severity = "critical" | "warning" | "info";

/**
 * What was found. The culprit and the numbers are fields of the finding.
 */
export type FindingKind = "nothing_read_yet"
  | "empty_topic"
  | "empty_partition"
  | "idle_partition"
  | "subtask_without_split"
  | "all_splits_released"
  | "heartbeat_partition"
  | "back_pressure"
  | "slow_partition"
  | "returning_partition"
  | "flapping_partition"
  | "stalled_partition_hidden"
  | "periodic_emission_disabled"
  | "idleness_never_detected"
  | "idle_timeout_below_interval"
  | "no_watermark_strategy"
  | "max_value_generator"
  | "far_future_timestamp"
  | "seconds_read_as_millis"
  | "millis_read_as_seconds"
  | "bound_too_small"
  | "late_records_dropped"
  | "append_sink_duplicates"
  | "bound_too_large"
  | "window_state_growing"
  | "alignment_pauses"
  | "job_restarts"
  | "channel_not_realigned"
  | "all_inputs_idle"
  | "event_time_lag"
  | "quiet_input_holds"
  | "two_input_stall"
  | "midstream_assigner_holds";

/**
 * One number behind a finding: `name` is stable (tests and scripts read it), `text` says it.
 */
export type Evidence = { name: string, value: number, text: string, };

export type SinkMode = "append" | "upsert";

/**
 * Where the job takes a record's event time from.
 */
export type TimestampAssigner = "event_field"
  | "broker_time"
  | "seconds_as_millis"
  | "millis_as_seconds";

/**
 * Serialized as `{ kind, value }` (`{"kind": "idle_timeout", "value": 60000}`), which
 * `applyFix` takes back.
 */
export type Action =
    { "kind": "idle_timeout", "value": number | null }
  | { "kind": "bound", "value": number }
  | { "kind": "allowed_lateness", "value": number }
  | { "kind": "side_output", "value": boolean }
  | { "kind": "sink", "value": SinkMode }
  | { "kind": "drop_heartbeats", "value": boolean }
  | { "kind": "clamp_restart" }
  | { "kind": "auto_interval", "value": number }
  | { "kind": "detach_producers", "value": number }
  | { "kind": "wake_late", "value": { partition: number, delayMs: number, } }
  | { "kind": "assigner", "value": TimestampAssigner }
  | { "kind": "source_parallelism", "value": number }
  | { "kind": "legacy_connector" }
  | { "kind": "idleness_instead_of_max" }
  | { "kind": "watermarks_in_source" }
  | { "kind": "keyed_capacity", "value": number | null }
  | { "kind": "wall_clock_idleness" }
  | { "kind": "alignment", "value": { maxDriftMs: number, } }
  | { "kind": "kill_task_manager", "value": number };

/**
 * A fix the engine can apply: `applyFix(fix.action)` in the JS API.
 */
export type Fix = {
  label: string,
  action: Action,
  /**
   * Whether applying it restarts the scenario from time zero.
   */
  restarts: boolean,
};

export type Finding = {
  kind: FindingKind,
  severity: Severity,
  partition: number | null,
  sourceSubtask: number | null,
  windowSubtask: number | null,
  /**
   * Whether it explains what holds the slowest window subtask.
   */
  holdsWatermark: boolean,
  /**
   * The finding in one sentence.
   */
  title: string,
  /**
   * Why, and what not to do.
   */
  detail: string,
  evidence: Array<Evidence>,
  /**
   * What to check on a real job to confirm it (a Flink metric, the Web UI, the REST API).
   */
  check: string,
  fixes: Array<Fix>,
};

export type Recommendation = {
  currentMs: number | null,
  /**
   * `None` when there is not enough data to recommend anything.
   */
  recommendedMs: number | null,
  /**
   * What the recommendation rests on.
   */
  basis: string,
  /**
   * What the recommended value costs (delay, drops, state).
   */
  cost: string,
  /**
   * Why "Apply advice" (`Advice::actions`) leaves this change out: it changes nothing now,
   * meets no value's constraints, or idleness cannot act in this job. `None` when the change
   * is applied, or there is none. The UI and the API read the same reason.
   */
  notApplied: string | null,
};

/**
 * One of seed 002's constraints on the idle timeout, and whether a value meets it.
 */
export type Constraint = {
  text: string,
  /**
   * Whether the current setting meets it.
   */
  currentOk: boolean,
  /**
   * Whether the recommended setting meets it.
   */
  recommendedOk: boolean,
};

export type Advice = {
  bound: Recommendation,
  idleTimeout: Recommendation,
  allowedLateness: Recommendation,
  /**
   * The idle timeout to set with the bound left as it is: what a finding's fix offers.
   * Fitted to the set bound when the advice changes it (alone, one fitted to a lower
   * advised bound broke "more than twice the bound"); the package's otherwise.
   */
  idleTimeoutAloneMs: number | null,
  /**
   * The allowed lateness to set with the bound left as it is: what the late findings offer.
   */
  allowedLatenessAloneMs: number | null,
  /**
   * The delay the idle timeout may add (set by the user, or one window).
   */
  toleratedDelayMs: number,
  constraints: Array<Constraint>,
  /**
   * The changes that apply the advice, in one click (empty when it is what is set).
   */
  actions: Array<Action>,
};

export type SubtaskLag = {
  windowSubtask: number,
  /**
   * Processing time minus `currentInputWatermark`; null before the first watermark and at
   * the end of input.
   */
  lagMs: number | null,
  /**
   * Whether it is over the alert threshold.
   */
  overThreshold: boolean,
};

/**
 * A crossing of the lag alert threshold by one window subtask.
 */
export type LagCrossing = {
  windowSubtask: number,
  /**
   * True when the lag went over the threshold, false when it came back under it.
   */
  over: boolean,
  /**
   * The processing time of the crossing (exact: between two instants the watermark stands
   * still, so the lag grows one ms per ms).
   */
  time: number,
  lagMs: number | null,
  thresholdMs: number,
};

export type Diagnosis = {
  now: number,
  elapsedMs: number,
  /**
   * Records read by every source subtask so far.
   */
  recordsRead: number,
  /**
   * The slowest window subtask (the one every result waits for).
   */
  windowSubtask: number | null,
  /**
   * What holds it: null before anything was read.
   */
  culprit: Culprit | null,
  /**
   * The kind of the finding that explains the culprit (or the most severe one).
   */
  cause: FindingKind | null,
  /**
   * The diagnosis in one sentence (the embed's WHY line).
   */
  headline: string,
  /**
   * Most important first: what holds the watermark, then by severity.
   */
  findings: Array<Finding>,
  partitions: Array<PartitionFacts>,
  advice: Advice,
  lag: Array<SubtaskLag>,
  /**
   * `explain(windowSubtask)`, from the same classes.
   */
  explanation: Explanation | null,
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
  | { "kind": "midstream_watermark", subtask: number, watermark: Watermark, }
  | { "kind": "midstream_status", subtask: number, status: WatermarkStatus, }
  | { "kind": "end_of_input_dropped", subtask: number, }
  | { "kind": "operator_watermark", subtask: number, watermark: Watermark, }
  | { "kind": "operator_status", subtask: number, status: WatermarkStatus, }
  | { "kind": "joined", subtask: number, key: string, leftTs: number, rightTs: number, }
  | { "kind": "window_fired", subtask: number, key: string, start: number, end: number, count: number, sum: number, watermark: Watermark, firing: number, firingKind: FiringKind, }
  | { "kind": "split_paused", subtask: number, partition: number, maxAllowed: Watermark, }
  | { "kind": "split_resumed", subtask: number, partition: number, }
  | { "kind": "alignment_blocked", subtask: number, maxAllowed: Watermark, }
  | { "kind": "alignment_unblocked", subtask: number, }
  | { "kind": "back_pressure", subtask: number, on: boolean, }
  | { "kind": "late_record", subtask: number, partition: number, offset: number, ts: number, key: string, watermark: Watermark, sideOutput: boolean, }
  | { "kind": "checkpoint_completed", id: number, }
  | { "kind": "task_manager_lost", taskManager: number, usedBytes: number, limitBytes: number, }
  | { "kind": "job_failed", reason: string, }
  | { "kind": "job_restarted", attempt: number, checkpoint: number | null, };

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
  | { "kind": "midstream_watermark", subtask: number, watermark: Watermark, }
  | { "kind": "midstream_status", subtask: number, status: WatermarkStatus, }
  | { "kind": "end_of_input_dropped", subtask: number, }
  | { "kind": "operator_watermark", subtask: number, watermark: Watermark, }
  | { "kind": "operator_status", subtask: number, status: WatermarkStatus, }
  | { "kind": "joined", subtask: number, key: string, leftTs: number, rightTs: number, }
  | { "kind": "window_fired", subtask: number, key: string, start: number, end: number, count: number, sum: number, watermark: Watermark, firing: number, firingKind: FiringKind, }
  | { "kind": "split_paused", subtask: number, partition: number, maxAllowed: Watermark, }
  | { "kind": "split_resumed", subtask: number, partition: number, }
  | { "kind": "alignment_blocked", subtask: number, maxAllowed: Watermark, }
  | { "kind": "alignment_unblocked", subtask: number, }
  | { "kind": "back_pressure", subtask: number, on: boolean, }
  | { "kind": "late_record", subtask: number, partition: number, offset: number, ts: number, key: string, watermark: Watermark, sideOutput: boolean, }
  | { "kind": "checkpoint_completed", id: number, }
  | { "kind": "task_manager_lost", taskManager: number, usedBytes: number, limitBytes: number, }
  | { "kind": "job_failed", reason: string, }
  | { "kind": "job_restarted", attempt: number, checkpoint: number | null, });

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
export type Level = "split" | "source" | "chained" | "operator";

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
