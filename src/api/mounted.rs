//! What `mount()` returns — and what `<watermark-playground>`'s `el.playground` forwards to: the
//! mounted UI's simulation as a JS API (the player: play, pause, speed, load, run; the reads
//! of `WatermarkPlayground`, from `queries`; the page's commands, each through the UI's
//! session as its buttons issue them), `update(options)` for live option changes, `setVisible` for the host's
//! IntersectionObserver, and `unmount()`. Errors are JS errors naming the method and argument;
//! after `unmount()` every method says so instead of touching freed state.

use super::command_args::{self, commands_arg, Produce};
use super::convert::{describe, index_arg, int_arg, string_arg, to_js, to_json_text};
use super::error::{ApiError, ApiResult, IntoJs};
use super::queries;
use crate::engine::session::param::{unknown_param, RUNTIME_PARAMS, STRUCTURAL_PARAMS};
use crate::engine::session::share;
use crate::web::embed_options::{self, EmbedOptions, Layout, Source};
use crate::web::host::{theme_of, Look};
use crate::web::Pg;
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

/// The methods of the simulation a host script drives, as `el.playground` and the iframe
/// bridge name them (`playing` and `speed` are getters on the element's).
pub const METHODS: &[&str] = &[
    "play",
    "pause",
    "playing",
    "speed",
    "setSpeed",
    "loadPreset",
    "load",
    "runUntil",
    "now",
    "elapsedMs",
    "traceHash",
    "snapshot",
    "silence",
    "resume",
    "toShareString",
    "toScenario",
    "windows",
    "joins",
    "lateRecords",
    "metrics",
    "restWatermarks",
    "restBackPressure",
    "stateSizeHistory",
    "explain",
    "lagHistory",
    "diagnose",
    "apply",
    "produce",
    "addPartition",
    "setParam",
    "applyFix",
    "markIdle",
    "markActive",
    "releaseSplit",
    "detach",
    "removePartition",
];

/// The options whose change needs a new mount: they decide which views are built.
#[derive(Clone, Debug, PartialEq)]
struct RestartKey {
    layout: Layout,
    full_url: Option<String>,
}

thread_local! {
    /// The mounted UIs by number, each until its `unmount()`: not owned by the JS object, which
    /// wasm-bindgen frees when the garbage collector finds it unreferenced (the docs' snippet,
    /// `const embed = mount(...)` in a module, lost its playground ~0.1 s after it appeared).
    static MOUNTS: std::cell::RefCell<Vec<Option<Box<dyn std::any::Any>>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// A playground mounted into a page; `unmount()` removes it and stops its frame loop.
#[wasm_bindgen]
pub struct MountedPlayground {
    /// Its index in `MOUNTS`, until `unmount()`.
    handle: Option<usize>,
    pg: Pg,
    look: Look,
    /// The options as last given (merged with each update): what decides a new mount, and
    /// which `start_at` a new source runs to.
    opts: EmbedOptions,
    /// The layout without a `layout` option (the element: embed; `mount()`: full).
    default_layout: Layout,
}

impl MountedPlayground {
    pub(crate) fn new(handle: Box<dyn std::any::Any>, pg: Pg, look: Look, opts: EmbedOptions, default_layout: Layout) -> Self {
        let id = MOUNTS.with(|m| {
            let mut m = m.borrow_mut();
            m.push(Some(handle));
            m.len() - 1
        });
        MountedPlayground { handle: Some(id), pg, look, opts, default_layout }
    }

    fn live(&self, m: &str) -> Result<Pg, JsValue> {
        if self.handle.is_some() {
            Ok(self.pg)
        } else {
            Err(ApiError::invalid("", "the playground was unmounted").into_js(m))
        }
    }

    fn restart_key(&self, o: &EmbedOptions) -> RestartKey {
        RestartKey { layout: o.layout.unwrap_or(self.default_layout), full_url: o.full_url.clone() }
    }

    /// Theme (when named: it applies even when it equals the last one given, since the reader
    /// or the T key may have changed it since), controls, view and readonly.
    fn apply_look(&self, o: &EmbedOptions, theme_named: bool) {
        let theme = theme_of(o.theme);
        if theme_named && theme != self.look.theme.0.get_untracked() {
            self.look.theme.set(theme);
        }
        self.look.controls.set(o.controls);
        self.look.view.set(o.view);
        self.look.readonly.set(o.readonly);
    }

    /// What a named `preset` / `scenario` (`source`, `None` when cleared) or a changed `start_at`
    /// asks to load from time zero, if anything: the source unless it is what runs now (what
    /// `loadPreset`, `load` or the reader's picker loaded counts, not only the options), else
    /// what runs now when only `start_at` changed.
    fn to_reload(pg: Pg, source: Option<Option<&Source>>, start_at_changed: bool) -> Option<Source> {
        let running = || pg.running_source();
        let wanted = source.map(|s| s.cloned().unwrap_or_else(embed_options::first_source));
        match wanted {
            Some(s) if s != running() => Some(s),
            _ => start_at_changed.then(running),
        }
    }
}

queries::session_reads!(MountedPlayground);
command_args::partition_methods!(MountedPlayground);

fn report<T>(m: &str, r: ApiResult<T>) -> Result<T, JsValue> {
    r.map_err(|e| e.into_js(m))
}

#[wasm_bindgen]
impl MountedPlayground {
    /// Removes the playground from the page and stops it. Calling it again does nothing.
    pub fn unmount(&mut self) {
        if let Some(id) = self.handle.take() {
            // Dropped outside the borrow: unmounting runs the UI's cleanups.
            let ui = MOUNTS.with(|m| m.borrow_mut().get_mut(id).and_then(Option::take));
            drop(ui);
        }
    }

    /// Whether it is still mounted.
    #[wasm_bindgen(getter)]
    pub fn mounted(&self) -> bool {
        self.handle.is_some()
    }

    /// Applies changed options live: a new `preset`, `scenario` or `start-at` loads and runs to
    /// its start as a new mount would; speed, autoplay, theme, controls, view and readonly apply
    /// to the running simulation. An option the object does not name keeps its value; `null`
    /// puts it back to its default. Returns `false` (and changes nothing) when `layout` or
    /// `full-url` changed: the caller mounts again.
    pub fn update(&mut self, options: JsValue) -> Result<bool, JsValue> {
        let m = "update";
        let pg = self.live(m)?;
        let parsed = report(m, super::mount::parse_options(&options, ""))?;
        let (was, o) = (self.opts.clone(), self.opts.merged(parsed.opts, &parsed.given));
        if self.restart_key(&o) != self.restart_key(&was) {
            return Ok(false);
        }
        let named = |k: &str| parsed.given.iter().any(|g| g == k);
        let source = (named("preset") || named("scenario")).then_some(o.source.as_ref());
        if let Some(s) = Self::to_reload(pg, source, named("startat") && o.start_at != was.start_at) {
            // Refused (nothing changed) or done, before the rest applies.
            report(m, super::mount::prepare(pg, &EmbedOptions { source: Some(s), ..o.clone() }, ""))?;
            pg.playing.set(o.autoplay);
            self.apply_look(&o, named("theme"));
            self.opts = o;
            return Ok(true);
        }
        self.apply_look(&o, named("theme"));
        // A named speed applies even when it equals the last one given: the reader (or setSpeed)
        // may have changed it since.
        let speed = o.speed.unwrap_or_else(|| super::mount::default_speed(pg));
        if named("speed") && speed != pg.speed.get_untracked() {
            pg.speed.set(speed);
        }
        // A named autoplay plays or pauses whatever the last one given was: a `#s=` link, the
        // reader or `play()` may have changed it since.
        if named("autoplay") && o.autoplay != pg.playing.get_untracked() {
            pg.toggle_play();
        }
        self.opts = o;
        Ok(true)
    }

    /// Whether the playground is on screen: off screen, its frame loop does not advance.
    #[wasm_bindgen(js_name = setVisible)]
    pub fn set_visible(&self, visible: bool) -> Result<(), JsValue> {
        self.live("setVisible")?.set_offscreen(!visible);
        Ok(())
    }

    pub fn play(&self) -> Result<(), JsValue> {
        let pg = self.live("play")?;
        if !pg.playing.get_untracked() {
            pg.toggle_play();
        }
        Ok(())
    }

    pub fn pause(&self) -> Result<(), JsValue> {
        let pg = self.live("pause")?;
        if pg.playing.get_untracked() {
            pg.toggle_play();
        }
        Ok(())
    }

    #[wasm_bindgen(getter)]
    pub fn playing(&self) -> Result<bool, JsValue> {
        Ok(self.live("playing")?.playing.get_untracked())
    }

    /// Processing time per wall-clock time.
    #[wasm_bindgen(getter)]
    pub fn speed(&self) -> Result<f64, JsValue> {
        Ok(self.live("speed")?.speed.get_untracked())
    }

    #[wasm_bindgen(js_name = setSpeed)]
    pub fn set_speed(&self, speed: JsValue) -> Result<(), JsValue> {
        let m = "setSpeed";
        let pg = self.live(m)?;
        let Some(s) = speed.as_f64() else {
            return Err(ApiError::type_("speed", format!("expected a number, got {}", describe(&speed))).into_js(m));
        };
        let s = report(m, embed_options::parse_speed(&format!("{s}")).map_err(|e| ApiError::new("speed", e)))?;
        pg.speed.set(s);
        Ok(())
    }

    /// Loads a preset from time zero (its speed too).
    #[wasm_bindgen(js_name = loadPreset)]
    pub fn load_preset(&self, id: JsValue) -> Result<(), JsValue> {
        let m = "loadPreset";
        let pg = self.live(m)?;
        let id = report(m, string_arg(&id, "id"))?;
        let source = report(m, embed_options::preset_source(&id).map_err(|e| ApiError::new("id", e)))?;
        report(m, pg.load_preset(source.preset.unwrap_or_default()).map_err(|e| e.within("id")))
    }

    /// Loads a scenario: an object, JSON text, a share string, a preset id or a page's link
    /// state (its commands replayed up to its position).
    pub fn load(&self, scenario: JsValue) -> Result<(), JsValue> {
        let m = "load";
        let pg = self.live(m)?;
        let text = if let Some(s) = scenario.as_string() {
            s
        } else if scenario.is_object() && !js_sys::Array::is_array(&scenario) && !scenario.is_function() {
            report(m, to_json_text(&scenario, "scenario"))?
        } else {
            return Err(
                ApiError::type_("scenario", format!("expected a scenario object or string, got {}", describe(&scenario))).into_js(m)
            );
        };
        let source = report(
            m,
            embed_options::scenario_source(&text).map_err(|e| {
                let e = e.within("scenario");
                ApiError::new(e.field, e.message)
            }),
        )?;
        report(
            m,
            pg.load_source(source, None).map_err(|e| match e {
                crate::web::LoadFailure::Scenario(e) | crate::web::LoadFailure::Replay(e) => e.within("scenario"),
            }),
        )
    }

    /// Processes every instant up to `atMs` after the start.
    #[wasm_bindgen(js_name = runUntil)]
    pub fn run_until(&self, at_ms: JsValue) -> Result<(), JsValue> {
        let m = "runUntil";
        let pg = self.live(m)?;
        let at = report(m, int_arg(&at_ms, "atMs"))?;
        if at < 0 {
            return Err(ApiError::new("atMs", format!("{at} is before the start")).into_js(m));
        }
        // The page's own play loop runs without a budget; a host's target ahead is checked first
        // (one behind the clock, which a playing page has passed, does nothing, as before).
        if at > pg.now() - pg.start_time() {
            report(m, pg.check_run_until(at))?;
        }
        let target = pg.start_time().saturating_add(at);
        // The host's listeners read each instant as it passes (`host::AfterInstant`).
        let r = pg.run_until(target);
        pg.notify_advanced();
        pg.refresh();
        report(m, r.map_err(|e| e.within("atMs")))
    }

    /// Processing time now (ms since the epoch; the start time before the first instant).
    pub fn now(&self) -> Result<f64, JsValue> {
        Ok(self.live("now")?.now() as f64)
    }

    /// Processing time since the start.
    #[wasm_bindgen(js_name = elapsedMs)]
    pub fn elapsed_ms(&self) -> Result<f64, JsValue> {
        let pg = self.live("elapsedMs")?;
        Ok((pg.now() - pg.start_time()) as f64)
    }

    /// The 64-bit fingerprint of every trace event so far (16 hex digits).
    #[wasm_bindgen(js_name = traceHash)]
    pub fn trace_hash(&self) -> Result<String, JsValue> {
        Ok(self.live("traceHash")?.with_sim(|s| s.trace().hash_hex()))
    }

    /// The diagnosis the page shows: what `options` names, else the reader's tolerated delay
    /// and lag alert.
    pub fn diagnose(&self, options: JsValue) -> Result<JsValue, JsValue> {
        let defaults = self.live("diagnose")?.diag_opts.get_untracked();
        self.read("diagnose", |s| queries::diagnose(s, &options, defaults))
    }

    /// The scenario with the actions so far (what Export and Share give).
    #[wasm_bindgen(js_name = toScenario)]
    pub fn to_scenario(&self) -> Result<JsValue, JsValue> {
        let pg = self.live("toScenario")?;
        report("toScenario", to_js(&pg.export_scenario()))
    }

    /// Applies engine commands (one or an array) together at the next instant.
    pub fn apply(&self, commands: JsValue) -> Result<(), JsValue> {
        let m = "apply";
        let pg = self.live(m)?;
        let (cmds, paths) = report(m, commands_arg(&commands))?;
        report(m, pg.apply_all(cmds, &paths))
    }

    /// Appends one record or an array of records to a partition; returns how many.
    pub fn produce(&self, partition: JsValue, records: JsValue) -> Result<u32, JsValue> {
        let m = "produce";
        let pg = self.live(m)?;
        let p = report(m, Produce::parse(&partition, &records))?;
        report(m, pg.apply(p.command.clone()).map_err(|e| p.named(e)))?;
        Ok(p.count)
    }

    /// Adds a partition (its split is assigned at once); returns its index.
    #[wasm_bindgen(js_name = addPartition)]
    pub fn add_partition(&self) -> Result<u32, JsValue> {
        let m = "addPartition";
        let pg = self.live(m)?;
        let mut added = 0;
        report(m, pg.issue(|s, w| command_args::add_partition(s, w).map(|p| added = p)))?;
        Ok(added)
    }

    /// Changes a parameter the running job can change (`setParam` of the JS API; a structural
    /// one needs a changed scenario, `load()`ed).
    #[wasm_bindgen(js_name = setParam)]
    pub fn set_param(&self, name: JsValue, value: JsValue) -> Result<(), JsValue> {
        let m = "setParam";
        let pg = self.live(m)?;
        let (name, json) = report(m, command_args::param_args(&name, &value))?;
        if !RUNTIME_PARAMS.contains(&name.as_str()) && !STRUCTURAL_PARAMS.contains(&name.as_str()) {
            return Err(unknown_param(&name, &RUNTIME_PARAMS).into_js(m));
        }
        if STRUCTURAL_PARAMS.contains(&name.as_str()) {
            let why = format!("{name} shapes the job: load() a scenario with it changed (Flink needs a restart for it too)");
            return Err(ApiError::invalid("name", why).into_js(m));
        }
        report(m, pg.issue(|s, w| s.set_param_json(&name, json, w)))
    }

    /// Applies a fix from `diagnose()` (or its action), as its button in the page does.
    #[wasm_bindgen(js_name = applyFix)]
    pub fn apply_fix(&self, fix: JsValue) -> Result<(), JsValue> {
        let m = "applyFix";
        let pg = self.live(m)?;
        let super::diagnosis::Fix { action, path } = report(m, super::diagnosis::fix_arg(&fix))?;
        report(m, pg.apply_action(&action).map_err(|e| super::diagnosis::fix_error(e, path)))
    }

    /// The scenario with the actions so far, as a share string (`wmp1.…`).
    #[wasm_bindgen(js_name = toShareString)]
    pub fn to_share_string(&self) -> Result<String, JsValue> {
        let pg = self.live("toShareString")?;
        let json = serde_json::to_string(&pg.export_scenario()).unwrap_or_default();
        Ok(share::encode(&json))
    }
}

impl MountedPlayground {
    /// A read of the UI's session (its trace keeps no records and at most 2,000 events).
    fn read<T>(&self, m: &str, f: impl FnOnce(&crate::engine::session::Session) -> ApiResult<T>) -> Result<T, JsValue> {
        report(m, self.live(m)?.with_session(f))
    }

    fn partition_command(&self, m: &str, partition: JsValue) -> Result<(), JsValue> {
        let pg = self.live(m)?;
        let p = report(m, index_arg(&partition, "partition"))?;
        report(m, pg.apply(command_args::partition_command(m, p)))
    }
}
