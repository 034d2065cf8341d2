//! The page's state as a link: `#s=2.` + unpadded base64url of the raw-deflated compact JSON of
//! a [`LinkState`] — the scenario (a preset by id while unchanged), the user's commands (the
//! session's log, as the export carries them), the position in processing time, the speed,
//! whether it plays, and the view (selection and timeline zoom, as opaque short texts the page
//! writes and reads). `2.` is the version: a later format gets its own prefix, and `wmp1.`
//! share strings are read by [`super::share`] still.
//!
//! Decoding never trusts the link: its length is capped before anything is decoded, inflating
//! stops at [`MAX_INFLATED`] bytes (a deflate bomb is refused, not expanded), the JSON's nesting
//! is capped at [`MAX_DEPTH`] before it is parsed, text fields are capped, and the position is
//! bounded here by [`MAX_DURATION_MS`] and, when the page runs to it, by the session's work
//! budget (the JS API's). No DOM: tested natively.

use super::check::Strictness;
use super::{share, Session};
use crate::engine::error::InputError;
use crate::engine::limits::{MAX_DURATION_MS, MAX_WORK};
use crate::engine::observer::Observer;
use crate::engine::scenario::schema::{Scenario, TimedCommand};
use crate::engine::time::thousands;
use serde::{Deserialize, Serialize};

/// The version prefix of the link state.
pub const PREFIX: &str = "2.";
/// Characters of an encoded state read at all: far above any real link (presets with ten
/// actions stay under 2,000), far below what could slow the page.
pub const MAX_ENCODED: usize = 200_000;
/// Bytes a state may inflate to.
pub const MAX_INFLATED: usize = 1 << 20;
/// Nesting of `[` and `{` a state (or scenario JSON from a link) may have; a scenario needs
/// about eight.
pub const MAX_DEPTH: usize = 48;
/// Engine operations (the work budget's estimate, an upper bound) a link may ask the page to
/// run before it shows anything: about two hours of Seed 001's 34 partitions, seconds in the
/// page. The JS API allows 32 times more, minutes of work, which a link must not impose.
pub const MAX_LINK_WORK: u64 = MAX_WORK / 32;
/// Characters of the opaque view texts (selection, zoom).
pub const MAX_VIEW_TEXT: usize = 400;

/// The state of the page, as a link carries it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkState {
    /// The preset the scenario came from (its id), if any.
    #[serde(rename = "p", default, skip_serializing_if = "Option::is_none")]
    pub preset: Option<String>,
    /// The scenario itself, when it is not the preset unchanged.
    #[serde(rename = "sc", default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<serde_json::Value>,
    /// The user's commands (the session's log), in issue order.
    #[serde(rename = "c", default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<TimedCommand>,
    /// Processing time since the start of the last processed instant (−1: not started).
    #[serde(rename = "t", default = "not_started")]
    pub at_ms: i64,
    #[serde(rename = "v", default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<f64>,
    #[serde(rename = "g", default, skip_serializing_if = "is_false")]
    pub playing: bool,
    /// What is selected, as the page writes it.
    #[serde(rename = "k", default, skip_serializing_if = "Option::is_none")]
    pub selection: Option<String>,
    /// The timeline's zoom and pan, as the page writes it.
    #[serde(rename = "z", default, skip_serializing_if = "Option::is_none")]
    pub zoom: Option<String>,
}

fn not_started() -> i64 {
    -1
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl LinkState {
    /// The state as `2.` + base64url(deflate(compact JSON)).
    pub fn encode(&self) -> String {
        let json = serde_json::to_vec(self).unwrap_or_default();
        let packed = miniz_oxide::deflate::compress_to_vec(&json, 9);
        format!("{PREFIX}{}", share::base64url(&packed))
    }

    /// The state in `s` (the text after `#s=`), or why it cannot be read, in words.
    pub fn decode(s: &str) -> Result<LinkState, InputError> {
        let s = s.trim();
        if s.len() > MAX_ENCODED {
            return Err(InputError::new("s", format!("the link is too long ({} characters; at most {MAX_ENCODED} are read)", s.len())));
        }
        let body = match s.split_once('.') {
            Some(("2", body)) => body,
            Some((v, _)) if !v.is_empty() && v.len() < 8 && v.bytes().all(|b| b.is_ascii_digit()) => {
                return Err(InputError::new(
                    "s",
                    format!("this link is of version {v}, which this playground cannot read (it reads version 2)"),
                ))
            }
            _ => return Err(InputError::new("s", format!("the state does not start with the version “{PREFIX}”"))),
        };
        let packed = share::unbase64url(body, "s")?;
        let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_INFLATED).map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => {
                InputError::new("s", format!("the state unpacks to more than {} KB and is refused", MAX_INFLATED >> 10))
            }
            // The usual cause: a chat app or a mail cut the long address.
            _ => InputError::new("s", "it does not unpack, so it was cut off or changed on the way (chat apps and mail cut long links): copy the whole address again"),
        })?;
        let text = std::str::from_utf8(&json).map_err(|_| InputError::new("s", "the state does not unpack to UTF-8 text"))?;
        check_depth(text, "s")?;
        let refuse = |e: &dyn std::fmt::Display| InputError::new("s", format!("the state is not one this playground wrote ({e})"));
        let value = crate::engine::json_document::parse(text).map_err(|e| refuse(&e))?;
        let state: LinkState = crate::engine::error::from_value(value, "").map_err(|e| refuse(&e.message))?;
        state.check()?;
        Ok(state)
    }

    /// Bounds on what the fields may say (the scenario and commands are checked when loaded).
    fn check(&self) -> Result<(), InputError> {
        // -1 is "no position" (the start).
        if self.at_ms < -1 {
            return Err(InputError::new("t", format!("the position {} ms is before the start", self.at_ms)));
        }
        if self.at_ms > MAX_DURATION_MS {
            let d = crate::engine::time::format_duration;
            return Err(InputError::new("t", format!("the position {} is past the longest run ({})", d(self.at_ms), d(MAX_DURATION_MS))));
        }
        if self.speed.is_some_and(|v| !(v.is_finite() && v > 0.0)) {
            return Err(InputError::new("v", "the speed is not a positive number"));
        }
        for (name, text) in [("k", &self.selection), ("z", &self.zoom), ("p", &self.preset)] {
            if text.as_ref().is_some_and(|t| t.len() > MAX_VIEW_TEXT) {
                return Err(InputError::new(name, format!("the field is longer than {MAX_VIEW_TEXT} characters")));
            }
        }
        if self.preset.is_none() && self.scenario.is_none() {
            return Err(InputError::new("p", "the state names no preset and holds no scenario"));
        }
        Ok(())
    }
}

impl Session {
    /// The commands issued through this session, in issue order (a link carries them).
    pub fn log(&self) -> &[TimedCommand] {
        &self.log
    }

    /// Issues `commands` (a link's, or another session's log) at their times, checked and
    /// recorded as if issued one by one, then runs to `at_ms` after the start (−1: not at
    /// all) within the work budget. Same-time commands are issued together, in order.
    pub fn replay(&mut self, commands: &[TimedCommand], at_ms: i64, obs: &mut impl Observer) -> Result<(), InputError> {
        let start = self.start();
        let mut first = 0;
        for group in commands.chunk_by(|a, b| a.at_ms == b.at_ms) {
            let paths: Vec<String> = (first..first + group.len()).map(|i| format!("c[{i}]")).collect();
            first += group.len();
            let cmds = group.iter().map(|c| c.command.clone()).collect();
            self.schedule_checked(start + group[0].at_ms, cmds, &paths, Strictness::Replayed)?;
        }
        if at_ms >= 0 {
            self.run_to_position(at_ms, obs)?;
        }
        Ok(())
    }

    /// Runs to `at_ms` after the start, as a link's position or an embed's `start-at` asks:
    /// refused up front (nothing run) when the work estimate is over [`MAX_LINK_WORK`], so no
    /// link or attribute can keep the page busy, and the answer never depends on the machine.
    pub fn run_to_position(&mut self, at_ms: i64, obs: &mut impl Observer) -> Result<(), InputError> {
        self.check_link_work(at_ms)?;
        self.run_until(at_ms, obs).map(|_| ())
    }

    /// Refuses a position whose run would keep the page busy (see [`MAX_LINK_WORK`]).
    fn check_link_work(&self, at_ms: i64) -> Result<(), InputError> {
        check_position(self.with_log(), at_ms)
    }
}

/// Refuses running `sc` (with its commands) from its start to `at_ms` when that would keep the
/// page busy (see [`MAX_LINK_WORK`]): checked before anything is built or run.
pub fn check_position(mut sc: Scenario, at_ms: i64) -> Result<(), InputError> {
    sc.duration_ms = at_ms;
    let work = super::budget::estimate(&sc).work();
    if work > u128::from(MAX_LINK_WORK) {
        return Err(InputError::new(
            "t",
            format!(
                "running to {at_ms} ms asks for about {} engine operations, and a link may ask for at most {} (open the scenario and play to there instead)",
                thousands(work),
                thousands(u128::from(MAX_LINK_WORK))
            ),
        ));
    }
    Ok(())
}

/// Refuses JSON text nested deeper than [`MAX_DEPTH`] before any parser recurses into it.
pub fn check_depth(text: &str, arg: &str) -> Result<(), InputError> {
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    for b in text.bytes() {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(InputError::new(arg, format!("the JSON is nested more than {MAX_DEPTH} levels deep")));
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "link_state_tests.rs"]
mod tests;
