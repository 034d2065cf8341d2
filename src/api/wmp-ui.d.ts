// Type declarations for the UI's part of the JS API (dist/wmp.js only; wmp.d.ts re-exports
// them): `mount` and the `MountedPlayground` it returns, the `<watermark-playground>` element
// with its DOM events, and `mountPlayground`, which the served page calls. The engine-only
// module (wmp-engine.d.ts) keeps them as types only. Reference: docs/API.md ("Embedding").

import type {
  Action,
  Diagnosis,
  Explanation,
  Fix,
  JoinEmission,
  LateRecord,
  Metrics,
  RestBackPressure,
  RestWatermark,
  Snapshot,
  StateSizeHistoryView,
  StatusEvent,
  WatermarkEvent,
  WindowEmission,
} from "./types.gen";
import type {
  Command,
  DiagnosisOptions,
  LagPoint,
  ParamValue,
  RecordSpec,
  RuntimeParams,
  Scenario,
  ScenarioInput,
  SnapshotOptions,
} from "./wmp";

/** Mounts the full playground UI into document.body (the served page calls it). */
export function mountPlayground(): void;

/**
 * Options of `mount` (and, kebab-cased, the attributes of `<watermark-playground>` and the
 * iframe's `?embed=1` parameters: one parser). Unknown fields are errors.
 */
export interface MountOptions {
  /** "full" (the default of `mount`): the whole playground; "embed" (the element's default): the ~720×420 compact view. */
  layout?: "full" | "embed";
  /** A preset id (default: the first preset). Not together with `scenario`. */
  preset?: string;
  /** A scenario object, scenario JSON text, a share string (`wmp1.…`) or a preset id. */
  scenario?: ScenarioInput | string;
  /** Processing time per wall-clock time, > 0 and ≤ 100,000 (default: the preset's). */
  speed?: number;
  /** Start playing at once (default false). */
  autoplay?: boolean;
  /** "auto" (default: the system's), "light" or "dark": this playground only, not remembered. */
  theme?: "auto" | "light" | "dark";
  /** "full" (default), "minimal" (play and the title) or "none". */
  controls?: "full" | "minimal" | "none";
  /** "split" (default): graph and timeline; "graph" or "timeline" alone. */
  view?: "split" | "graph" | "timeline";
  /** Processing time since the start to run to before the first render: ms, "00:12:30", "12:30", "90s", "15m", "2h". */
  startAt?: number | string;
  /** No buttons that change the job (fixes, controls, kill and silence buttons); scripts and the bridge still may. */
  readonly?: boolean;
  /** The element's start: "lazy" (default: when scrolled into view), "eager", "click" (a ▶ poster). */
  loading?: "lazy" | "eager" | "click";
  /** The full playground's address (http(s) or relative) for the embed's "open full ↗" link (default: this page's). */
  fullUrl?: string;
  /** Where the simulation's events are dispatched as bubbling, composed `CustomEvent`s (`detail`: the `on()` payload). */
  eventTarget?: EventTarget;
}

/** The simulation of a mounted playground (`mount()`'s result; `<watermark-playground>`'s `playground`). */
export interface PlaygroundControl {
  play(): void;
  pause(): void;
  readonly playing: boolean;
  /** Processing time per wall-clock time. */
  readonly speed: number;
  setSpeed(speed: number): void;
  /** Loads a preset from time zero (with its speed). */
  loadPreset(id: string): void;
  /** Loads a scenario object, JSON text, a share string or a preset id, from time zero. */
  load(scenario: ScenarioInput | string): void;
  /** Processes every instant up to `atMs` after the start. */
  runUntil(atMs: number): void;
  /** Processing time now, ms since the epoch. */
  now(): number;
  /** Processing time since the start. */
  elapsedMs(): number;
  traceHash(): string;
  snapshot(options?: SnapshotOptions): Snapshot;
  silence(partition: number): void;
  resume(partition: number): void;
  /** The scenario with the actions so far, as a share string. */
  toShareString(): string;
  /** The scenario with the actions so far (what the page's Export gives). */
  toScenario(): Scenario;

  /** The reads of `WatermarkPlayground`, over this simulation. */
  windows(from?: number): WindowEmission[];
  joins(from?: number): JoinEmission[];
  lateRecords(): LateRecord[];
  metrics(): Metrics;
  restWatermarks(vertex: "source" | "window"): RestWatermark[];
  restBackPressure(vertex: "source" | "window"): RestBackPressure;
  stateSizeHistory(): StateSizeHistoryView;
  explain(subtask: number): Explanation;
  lagHistory(subtask: number): LagPoint[];
  /** The diagnosis the page shows (without options: the reader's tolerated delay and lag alert). */
  diagnose(options?: DiagnosisOptions): Diagnosis;

  /** Commands, each at the next millisecond, as the page's buttons issue them. */
  apply(commands: Command | Command[]): void;
  /** Appends records to a partition; returns how many. */
  produce(partition: number, records: RecordSpec | RecordSpec[]): number;
  /** Adds a partition; returns its index. */
  addPartition(): number;
  /** A parameter the running job can change (a structural one: `load()` a changed scenario). */
  setParam<K extends keyof RuntimeParams>(name: K, value: ParamValue<K>): void;
  /** Applies a fix from `diagnose()` (or its action), as its button does. */
  applyFix(fix: Fix | Action): void;
  markIdle(partition: number): void;
  markActive(partition: number): void;
  releaseSplit(partition: number): void;
  detach(partition: number): void;
  removePartition(partition: number): void;
}

/** A playground placed into a page by `mount` (which makes it: it has no constructor). */
export interface MountedPlayground extends PlaygroundControl {
  /** Removes it from the page and stops its frame loop; again: no-op. */
  unmount(): void;
  /** Whether it is still mounted. */
  readonly mounted: boolean;
  /** Applies the options it names live (a new preset, scenario or startAt loads and runs to its start); `null`: back to the default; `false`: layout or fullUrl changed, mount again. */
  update(options: { [K in keyof MountOptions]?: MountOptions[K] | null }): boolean;
  /** Off screen, the frame loop does not advance. */
  setVisible(visible: boolean): void;
  free(): void;
}
/** The class wasm-bindgen exports (for `instanceof`); its members are the interface's above. */
export declare class MountedPlayground {
  private constructor();
}

/**
 * Places the playground into `element` (the page links the playground's `style.css`, or uses
 * `<watermark-playground>`). Throws a TypeError/RangeError/Error naming the bad option
 * (`mount: options.speed: …`, `error.path`).
 */
export function mount(element: HTMLElement, options?: MountOptions): MountedPlayground;

/** Defines `<watermark-playground>` (after `init()`); `false` when it already was. */
export function defineElement(): boolean;

/** `<watermark-playground>`: attributes as `MountOptions` (kebab-case), events as `WatermarkPlaygroundEventMap`. */
export interface WatermarkPlaygroundElement extends HTMLElement {
  /** The element's simulation; its methods throw while it is not running (`running`). */
  readonly playground: PlaygroundControl & { readonly running: boolean };
  addEventListener<K extends keyof WatermarkPlaygroundEventMap>(
    type: K,
    listener: (this: WatermarkPlaygroundElement, ev: WatermarkPlaygroundEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof WatermarkPlaygroundEventMap>(
    type: K,
    listener: (this: WatermarkPlaygroundElement, ev: WatermarkPlaygroundEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

/** The DOM events of `<watermark-playground>` (and `mount`'s `eventTarget`). */
export interface WatermarkPlaygroundEventMap {
  window: CustomEvent<WindowEmission>;
  join: CustomEvent<JoinEmission>;
  late: CustomEvent<LateRecord>;
  watermark: CustomEvent<WatermarkEvent>;
  idle: CustomEvent<StatusEvent>;
  active: CustomEvent<StatusEvent>;
  /** The element's playground is running (again, after a mount that `layout` or `full-url` asked for). */
  ready: CustomEvent<null>;
}

declare global {
  interface HTMLElementTagNameMap {
    "watermark-playground": WatermarkPlaygroundElement;
  }
}
