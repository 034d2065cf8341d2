//! How a host page configures an embedded playground: one options type, parsed once from
//! string key/values, shared by `mount(element, options)` (JS object entries), the
//! `<watermark-playground>` element (its attributes) and the iframe's `?embed=1` query
//! parameters. Keys are matched without case, `-` or `_` (`start-at`, `startAt`, `start_at`);
//! a bad value is an [`OptionError`] naming the key as the caller wrote it. No DOM: tested
//! natively.

use super::scenario_text;
use crate::engine::scenario::catalog;
use crate::engine::scenario::schema::{Scenario, TimedCommand};
use crate::engine::session::link_state::LinkState;

/// The fastest speed a link, attribute or `mount()` may ask for (processing time per wall-clock
/// time).
pub const MAX_SPEED: f64 = 100_000.0;

/// Longest scenario text accepted from an attribute or option (a share string of the largest
/// preset is ~10 KB): a huge attribute is refused before it is parsed.
pub const MAX_SCENARIO_CHARS: usize = 1_000_000;

/// Latest `start-at`: a week of processing time.
pub const MAX_START_AT_MS: i64 = 7 * 24 * 3_600_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    Embed,
    Full,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ThemeChoice {
    #[default]
    Auto,
    Light,
    Dark,
}

/// Which of the layout's controls show: all, play and the title only, or none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Controls {
    #[default]
    Full,
    Minimal,
    None,
}

/// Which views show: the job graph, the timeline, or both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum View {
    Graph,
    Timeline,
    #[default]
    Split,
}

/// When an element starts: at once, when scrolled into view, or when its ▶ poster is clicked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Loading {
    Eager,
    #[default]
    Lazy,
    Click,
}

/// The scenario to run, resolved and parsed.
#[derive(Clone, Debug, PartialEq)]
pub struct Source {
    pub scenario: Scenario,
    /// The preset it is (or matches), if any.
    pub preset: Option<&'static str>,
    /// A page's link state (`#s=2.…`) carries the reader's commands and position too: they
    /// are replayed up to it (a `start-at` option names another position).
    pub commands: Vec<TimedCommand>,
    pub at_ms: Option<i64>,
}

impl Source {
    /// A scenario alone, from its start.
    pub fn of(scenario: Scenario, preset: Option<&'static str>) -> Self {
        Source { scenario, preset, commands: Vec::new(), at_ms: None }
    }
}

/// Every option, parsed and checked. `None` / defaults where the key was absent: the caller
/// picks its own default layout (the element: embed; `mount()`: full).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EmbedOptions {
    pub layout: Option<Layout>,
    pub source: Option<Source>,
    pub speed: Option<f64>,
    pub autoplay: bool,
    pub theme: ThemeChoice,
    pub controls: Controls,
    pub view: View,
    /// Processing time since the job's start to run to before the first render.
    pub start_at: Option<i64>,
    pub readonly: bool,
    pub loading: Loading,
    pub full_url: Option<String>,
}

/// A bad option: the key as the caller wrote it, and what is wrong in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    pub field: String,
    pub message: String,
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

/// The keys, normalized (lower case, no `-` or `_`), as the docs spell them.
pub const KEYS: &[&str] =
    &["preset", "scenario", "layout", "speed", "autoplay", "theme", "controls", "view", "start-at", "readonly", "loading", "full-url"];

/// A key as every options reader compares it (the element, mount(), the iframe's parameters):
/// lower case, without `-` or `_`.
pub fn normalize(key: &str) -> String {
    key.chars().filter(|c| *c != '-' && *c != '_').flat_map(char::to_lowercase).collect()
}

impl EmbedOptions {
    /// Parses `pairs` (key, value); the first bad one is the error. Unknown keys are errors too
    /// (a typo must not be ignored silently).
    /// A slice, not an iterator: one copy of this function in the wasm, not one per caller.
    pub fn parse(pairs: &[(&str, &str)]) -> Result<Self, OptionError> {
        let mut o = EmbedOptions::default();
        let mut preset: Option<(&str, &str)> = None;
        let mut scenario: Option<(&str, &str)> = None;
        for &(key, value) in pairs {
            let err = |message: String| OptionError { field: key.to_string(), message };
            match normalize(key).as_str() {
                "preset" => preset = Some((key, value)),
                "scenario" => scenario = Some((key, value)),
                "layout" => o.layout = Some(choice(value, &[("embed", Layout::Embed), ("full", Layout::Full)]).map_err(err)?),
                "speed" => o.speed = Some(parse_speed(value).map_err(err)?),
                "autoplay" => o.autoplay = flag(value).map_err(err)?,
                "readonly" => o.readonly = flag(value).map_err(err)?,
                "theme" => {
                    o.theme = choice(value, &[("auto", ThemeChoice::Auto), ("light", ThemeChoice::Light), ("dark", ThemeChoice::Dark)])
                        .map_err(err)?
                }
                "controls" => {
                    o.controls =
                        choice(value, &[("full", Controls::Full), ("minimal", Controls::Minimal), ("none", Controls::None)]).map_err(err)?
                }
                "view" => {
                    o.view = choice(value, &[("graph", View::Graph), ("timeline", View::Timeline), ("split", View::Split)]).map_err(err)?
                }
                "loading" => {
                    o.loading =
                        choice(value, &[("lazy", Loading::Lazy), ("eager", Loading::Eager), ("click", Loading::Click)]).map_err(err)?
                }
                "startat" => o.start_at = Some(start_at(value).map_err(err)?),
                "fullurl" => o.full_url = Some(full_url(value).map_err(err)?),
                // Both spellings of the two-word ones: attributes and parameters write them
                // kebab-case, mount()'s options camelCase.
                _ => return Err(err(format!("unknown option (the options are {}; startAt, fullUrl in mount())", KEYS.join(", ")))),
            }
        }
        o.source = match (preset, scenario) {
            (Some(_), Some((key, _))) => {
                return Err(OptionError { field: key.to_string(), message: "give either preset or scenario, not both".to_string() })
            }
            (Some((key, id)), None) => Some(preset_source(id).map_err(|message| OptionError { field: key.to_string(), message })?),
            (None, Some((key, text))) => Some(scenario_source(text).map_err(|e| e.within(key))?),
            (None, None) => None,
        };
        Ok(o)
    }
}

impl EmbedOptions {
    /// These options after an update that parsed to `patch` and named the (normalized) keys
    /// `given`: a named option takes the patch's value (its default when the update cleared it
    /// with `null`, as the element does for a removed attribute), the others keep theirs.
    pub fn merged(&self, patch: EmbedOptions, given: &[String]) -> EmbedOptions {
        let named = |k: &str| given.iter().any(|g| g == k);
        let mut o = self.clone();
        if named("preset") || named("scenario") {
            o.source = patch.source;
        }
        macro_rules! take {
            ($($key:literal => $field:ident),*) => { $( if named($key) { o.$field = patch.$field; } )* };
        }
        take!("layout" => layout, "speed" => speed, "autoplay" => autoplay, "theme" => theme, "controls" => controls, "view" => view,
              "startat" => start_at, "readonly" => readonly, "loading" => loading, "fullurl" => full_url);
        o
    }
}

/// At most this many characters of a value are quoted back in an error.
const QUOTE: usize = 40;

fn quoted(v: &str) -> String {
    let short: String = v.chars().take(QUOTE).collect();
    if short.len() < v.len() {
        format!("{short:?}…")
    } else {
        format!("{short:?}")
    }
}

fn choice<T: Copy>(value: &str, options: &[(&str, T)]) -> Result<T, String> {
    let v = value.trim().to_ascii_lowercase();
    options.iter().find(|(name, _)| *name == v).map(|(_, t)| *t).ok_or_else(|| {
        let names: Vec<String> = options.iter().map(|(n, _)| format!("\"{n}\"")).collect();
        format!("{} is not one of {}", quoted(value), names.join(", "))
    })
}

/// A boolean attribute: present (empty), `true` or `false`.
fn flag(value: &str) -> Result<bool, String> {
    match value.trim().to_ascii_lowercase().as_str() {
        // "1" / "0": the iframe's `&autoplay=1` (and the older links' `play=1`).
        "" | "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(format!("{} is not a boolean (\"true\", \"false\", \"1\", \"0\", or the attribute without a value)", quoted(value))),
    }
}

/// The full playground's address: http(s) or relative (never `javascript:` or `data:`: it
/// becomes a link's `href`).
fn full_url(value: &str) -> Result<String, String> {
    let v = value.trim();
    let scheme_end = v.find([':', '/', '?', '#']);
    match scheme_end {
        Some(i) if v[i..].starts_with(':') && !matches!(v[..i].to_ascii_lowercase().as_str(), "http" | "https") => {
            Err(format!("{} is not an http(s) or relative address", quoted(value)))
        }
        _ => Ok(v.to_string()),
    }
}

/// A speed: a number > 0 and ≤ [`MAX_SPEED`].
pub fn parse_speed(value: &str) -> Result<f64, String> {
    let s: f64 = value.trim().parse().map_err(|_| format!("{} is not a number", quoted(value)))?;
    if s.is_finite() && s > 0.0 && s <= MAX_SPEED {
        Ok(s)
    } else {
        Err(format!("{s} is not a speed (processing time per wall-clock time, > 0 and ≤ 100000)"))
    }
}

/// `00:12:30` (h:mm:ss, optionally `.mmm`), `12:30` (m:ss), `750000` (ms), or `90s`, `15m`, `2h`.
pub fn start_at(value: &str) -> Result<i64, String> {
    let v = value.trim();
    let bad = || format!("{} is not a processing time (\"00:12:30\", \"12:30\", \"750000\" ms, \"90s\", \"15m\" or \"2h\")", quoted(value));
    let ms = if v.contains(':') {
        let parts: Vec<&str> = v.split(':').collect();
        if parts.len() > 3 || parts.iter().any(|p| p.is_empty()) {
            return Err(bad());
        }
        let (secs, mins) = (parts[parts.len() - 1], &parts[..parts.len() - 1]);
        let secs: f64 = secs.parse().ok().filter(|s: &f64| s.is_finite() && (0.0..60.0).contains(s)).ok_or_else(bad)?;
        let mut total = 0i64;
        for (i, p) in mins.iter().enumerate() {
            let n: i64 = p.parse().map_err(|_| bad())?;
            let limit = if i + 1 == mins.len() && mins.len() == 2 { 60 } else { i64::MAX };
            if n < 0 || n >= limit {
                return Err(bad());
            }
            total = total.saturating_mul(60).saturating_add(n);
        }
        total.saturating_mul(60_000).saturating_add((secs * 1000.0).round() as i64)
    } else if let Some((n, unit)) = v
        .strip_suffix("ms")
        .map(|n| (n, 1))
        .or_else(|| [('s', 1_000i64), ('m', 60_000), ('h', 3_600_000)].iter().find_map(|&(c, u)| v.strip_suffix(c).map(|n| (n, u))))
    {
        let n: f64 = n.trim().parse().ok().filter(|n: &f64| n.is_finite() && *n >= 0.0).ok_or_else(bad)?;
        (n * unit as f64).round().min(i64::MAX as f64) as i64
    } else {
        v.parse::<i64>().ok().filter(|n| *n >= 0).ok_or_else(bad)?
    };
    if ms > MAX_START_AT_MS {
        return Err(format!("{} is more than a week of processing time", quoted(value)));
    }
    Ok(ms)
}

/// The iframe's `origins` parameter: the pages whose `postMessage` commands the embed answers
/// and whose window receives its events. Origins as `location.origin` spells them
/// (`https://docs.example.com`, `http://127.0.0.1:8080`), separated by commas or spaces.
/// `*` is refused: any page could then drive the embed and read what it shows.
pub fn parse_origins(value: &str) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for o in value.split([',', ' ']).filter(|o| !o.is_empty()) {
        if o == "*" {
            return Err("\"*\" is not allowed: name the origins of the pages that may drive this embed".to_string());
        }
        let bad = || format!("{} is not an origin (\"https://docs.example.com\", \"http://127.0.0.1:8080\")", quoted(o));
        let (scheme, rest) = o.split_once("://").ok_or_else(bad)?;
        let host_ok = !rest.is_empty() && rest.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'));
        if !matches!(scheme, "http" | "https") || !host_ok {
            return Err(bad());
        }
        let o = o.to_ascii_lowercase();
        if !out.contains(&o) {
            out.push(o);
        }
    }
    if out.is_empty() {
        return Err("no origin given".to_string());
    }
    Ok(out)
}

/// What a playground runs without a `preset` or `scenario` option: the catalog's first preset.
pub fn first_source() -> Source {
    preset_source(catalog::presets()[0].id).expect("presets parse (tested in catalog.rs)")
}

/// A preset by id.
pub fn preset_source(id: &str) -> Result<Source, String> {
    let p = catalog::preset(id.trim()).ok_or_else(|| scenario_text::no_preset(id))?;
    let scenario = crate::engine::scenario::build::parse(p.json).map_err(|e| e.to_string())?;
    Ok(Source::of(scenario, Some(p.id)))
}

impl OptionError {
    /// The error of a part of the option `key` (`field` is the path inside it, or empty).
    pub fn within(self, key: &str) -> OptionError {
        let field = if self.field.is_empty() { key.to_string() } else { format!("{key}.{}", self.field) };
        OptionError { field, message: self.message }
    }
}

/// Inline scenario JSON, a share string, a preset id, or a page's link state (`2.…`, `#s=2.…`
/// or the whole address). The error's field is the path inside the scenario JSON
/// (`window.assigner.size_ms`) when the engine names one.
pub fn scenario_source(text: &str) -> Result<Source, OptionError> {
    let whole = |message: String| OptionError { field: String::new(), message };
    if text.len() > MAX_SCENARIO_CHARS {
        return Err(whole(format!("the scenario is {} characters long; at most {MAX_SCENARIO_CHARS} are accepted", text.len())));
    }
    if catalog::preset(text.trim()).is_some() {
        return preset_source(text).map_err(whole);
    }
    if let Some(state) = link_state_in(text) {
        return decode_link(state).and_then(|st| link_source(&st)).map_err(whole);
    }
    if text.trim_start().starts_with('{') {
        // The engine's own error names the field; a JSON syntax error gets the reader's words.
        if let Err(e) = crate::engine::scenario::build::parse(text) {
            if e.path.starts_with(|c: char| c.is_ascii_alphabetic()) {
                return Err(OptionError { field: e.path, message: e.message });
            }
        }
    }
    let scenario = scenario_text::read_scenario(text).map_err(whole)?;
    let preset = catalog::preset_matching(&scenario).map(|p| p.id);
    Ok(Source::of(scenario, preset))
}

/// The link state in `text` (after `#s=`), or why not in words.
pub fn decode_link(text: &str) -> Result<LinkState, String> {
    LinkState::decode(text).map_err(|e| format!("This link is damaged: {}.", e.message))
}

/// What the link state `st` runs: its scenario (or preset), its commands and its position (its
/// view, speed, selection and zoom, is a page's: `url_state::open` restores those).
pub fn link_source(st: &LinkState) -> Result<Source, String> {
    let preset = st.preset.as_deref().and_then(catalog::preset).map(|p| p.id);
    let scenario = match (&st.scenario, &st.preset) {
        (Some(v), _) => scenario_text::read_scenario(&v.to_string())?,
        (None, Some(id)) => crate::engine::scenario::build::parse(catalog::preset(id).ok_or_else(|| scenario_text::no_preset(id))?.json)
            .map_err(|e| format!("This preset cannot run: {e}."))?,
        (None, None) => unreachable!("LinkState::decode refuses a state without a scenario"),
    };
    Ok(Source { scenario, preset, commands: st.commands.clone(), at_ms: (st.at_ms >= 0).then_some(st.at_ms) })
}

/// The link state in `text`, if it is one: after `#s=` (a copied address), or the state alone.
pub fn link_state_in(text: &str) -> Option<&str> {
    let t = text.trim();
    // Scenario JSON may say `#s=` in a description.
    if t.starts_with('{') {
        return None;
    }
    match t.split_once("#s=") {
        Some((_, state)) => Some(state.split('&').next().unwrap_or(state)),
        None => t.starts_with(crate::engine::session::link_state::PREFIX).then_some(t),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(pairs: &[(&str, &str)]) -> Result<EmbedOptions, OptionError> {
        EmbedOptions::parse(pairs)
    }

    #[test]
    fn every_option_parses() {
        let o = parse(&[
            ("preset", "empty-partition"),
            ("layout", "full"),
            ("speed", "30"),
            ("autoplay", ""),
            ("theme", "dark"),
            ("controls", "minimal"),
            ("view", "timeline"),
            ("start-at", "00:12:30"),
            ("readonly", "true"),
            ("loading", "click"),
            ("full-url", "https://example.org/p/"),
        ]);
        let o = o.unwrap();
        assert_eq!(o.source.as_ref().and_then(|s| s.preset), Some("empty-partition"));
        assert_eq!(o.layout, Some(Layout::Full));
        assert_eq!(o.speed, Some(30.0));
        assert!(o.autoplay && o.readonly);
        assert_eq!((o.theme, o.controls, o.view, o.loading), (ThemeChoice::Dark, Controls::Minimal, View::Timeline, Loading::Click));
        assert_eq!(o.start_at, Some(750_000));
        assert_eq!(o.full_url.as_deref(), Some("https://example.org/p/"));
    }

    #[test]
    fn defaults_and_key_spellings() {
        let o = parse(&[]).unwrap();
        assert_eq!(o, EmbedOptions::default());
        assert_eq!(o.loading, Loading::Lazy);
        assert_eq!(parse(&[("startAt", "90s")]).unwrap().start_at, Some(90_000));
        assert_eq!(parse(&[("start_at", "1500")]).unwrap().start_at, Some(1_500));
        assert_eq!(parse(&[("fullUrl", "x")]).unwrap().full_url.as_deref(), Some("x"));
        assert_eq!(parse(&[("full-url", "../index.html")]).unwrap().full_url.as_deref(), Some("../index.html"));
        for bad in ["javascript:alert(1)", " JavaScript:x", "data:text/html,x", "vbscript:x"] {
            assert_eq!(parse(&[("full-url", bad)]).unwrap_err().field, "full-url", "{bad}");
        }
    }

    #[test]
    fn origins_are_exact_and_never_a_wildcard() {
        assert_eq!(
            parse_origins("https://Docs.Example.com, http://127.0.0.1:8080").unwrap(),
            ["https://docs.example.com", "http://127.0.0.1:8080"]
        );
        assert_eq!(parse_origins("http://a.b http://a.b").unwrap(), ["http://a.b"]);
        assert!(parse_origins("*").unwrap_err().contains("not allowed"));
        for bad in ["", "docs.example.com", "https://a.b/path", "javascript://x", "https://", "https://a.b?x"] {
            assert!(parse_origins(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn start_at_forms() {
        assert_eq!(start_at("00:12:30"), Ok(750_000));
        assert_eq!(start_at("12:30"), Ok(750_000));
        assert_eq!(start_at("1:00:00.250"), Ok(3_600_250));
        assert_eq!(start_at("15m"), Ok(900_000));
        assert_eq!(start_at("2h"), Ok(7_200_000));
        assert_eq!(start_at("250ms"), Ok(250));
        for bad in ["", "x", "-5", "1:2:3:4", "00:61:00", "00:00:75", "::", "1e400s", "999h"] {
            assert!(start_at(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn errors_name_the_key_as_written() {
        let e = parse(&[("speed", "fast")]).unwrap_err();
        assert_eq!(e.field, "speed");
        assert!(e.message.contains("\"fast\" is not a number"), "{}", e.message);
        assert_eq!(parse(&[("speed", "0")]).unwrap_err().field, "speed");
        assert_eq!(parse(&[("speed", "1e9")]).unwrap_err().field, "speed");
        let e = parse(&[("Theme", "purple")]).unwrap_err();
        assert_eq!(e.field, "Theme");
        assert!(e.message.contains("\"light\""), "{}", e.message);
        assert_eq!(parse(&[("autoplay", "yes")]).unwrap_err().field, "autoplay");
        assert!(parse(&[("colour", "red")]).unwrap_err().message.contains("unknown option"));
        assert_eq!(parse(&[("preset", "nope")]).unwrap_err().field, "preset");
        let first = catalog::presets()[0].id;
        assert!(parse(&[("preset", first), ("scenario", first)]).unwrap_err().message.contains("not both"));
    }

    #[test]
    fn scenarios_resolve_from_preset_ids_json_and_share_strings() {
        let p = &catalog::presets()[0];
        let by_id = parse(&[("scenario", p.id)]).unwrap().source.unwrap();
        assert_eq!(by_id.preset, Some(p.id));
        let by_json = parse(&[("scenario", p.json)]).unwrap().source.unwrap();
        assert_eq!(by_json.scenario, by_id.scenario);
        let bad = r#"{"topic":{"partitions":1},"window":{"assigner":{"type":"tumbling","size_ms":-5}}}"#;
        let e = parse(&[("scenario", bad)]).unwrap_err();
        assert!(e.field.starts_with("scenario."), "{e}");
        let share = crate::engine::session::share::encode(p.json);
        let by_share = parse(&[("scenario", &share)]).unwrap().source.unwrap();
        assert_eq!(by_share.scenario, by_id.scenario);
    }

    #[test]
    fn hostile_scenarios_are_refused_with_a_message() {
        let huge = "x".repeat(MAX_SCENARIO_CHARS + 1);
        let nested = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let script = r#"{"name":"<script>window.__xss=1</script>","partitions":"<img src=x onerror=alert(1)>"}"#;
        for bad in [huge.as_str(), nested.as_str(), script, "{", "wmp1.!!!!"] {
            let e = parse(&[("scenario", bad)]).unwrap_err();
            assert!(e.field.starts_with("scenario"), "{}", e.field);
            assert!(!e.message.is_empty());
            assert!(e.message.len() < 2_000, "{}", e.message.len());
        }
    }

    #[test]
    fn an_update_changes_what_it_names_and_null_puts_back_the_default() {
        let was = parse(&[("layout", "full"), ("speed", "3"), ("theme", "dark"), ("start-at", "30s"), ("autoplay", "")]).unwrap();
        let named = |keys: &[&str]| keys.iter().map(|k| normalize(k)).collect::<Vec<_>>();
        let o = was.merged(parse(&[("view", "graph")]).unwrap(), &named(&["view"]));
        assert_eq!(
            (o.view, o.theme, o.speed, o.start_at, o.autoplay, o.layout),
            (View::Graph, ThemeChoice::Dark, Some(3.0), Some(30_000), true, Some(Layout::Full))
        );
        // The element names every attribute, `null` for an absent one: its default.
        let o = was.merged(parse(&[("theme", "light")]).unwrap(), &named(&["theme", "layout", "speed", "start-at", "autoplay"]));
        assert_eq!((o.theme, o.speed, o.start_at, o.autoplay, o.layout), (ThemeChoice::Light, None, None, false, None));
        // Either key of the source replaces it.
        let o = was.merged(parse(&[("preset", "late-data")]).unwrap(), &named(&["preset"]));
        assert_eq!(o.source.and_then(|s| s.preset), Some("late-data"));
    }

    #[test]
    fn a_scenario_option_reads_a_pages_link_state_with_its_commands_and_position() {
        use crate::engine::command::Command;
        let state = LinkState {
            preset: Some("late-data".into()),
            commands: vec![TimedCommand { at_ms: 5_000, command: Command::Silence { partition: 0 } }],
            at_ms: 30_000,
            speed: Some(3.0),
            ..LinkState::default()
        }
        .encode();
        // The state alone, after `#s=`, or the whole address copied from the page.
        for text in [state.clone(), format!("#s={state}"), format!(" https://docs.example/pg/index.html?embed=1#s={state}&x=1 ")] {
            let s = scenario_source(&text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            assert_eq!(s.preset, Some("late-data"));
            assert_eq!(s.commands.len(), 1);
            assert_eq!(s.at_ms, Some(30_000));
        }
        let damaged = scenario_source("2.AAAA").unwrap_err();
        assert!(damaged.message.starts_with("This link is damaged"), "{damaged:?}");
        // A scenario's own text is not mistaken for one, nor JSON that says `#s=`.
        assert!(scenario_source("late-data").unwrap().commands.is_empty());
        let json = r##"{"description": "see #s=2.abc", "topic": {"partitions": 1}, "window": {"assigner": {"type": "tumbling", "size_ms": 1000}}}"##;
        assert_eq!(scenario_source(json).unwrap().scenario.description, "see #s=2.abc");
    }
}
