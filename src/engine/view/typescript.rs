//! The TypeScript declarations of every view, generated from the Rust types (ts-rs) into
//! `src/api/types.gen.d.ts`, which ships as `dist/types.gen.d.ts` next to the hand-written
//! `wmp.d.ts` (the class, the scenario input types, the loading functions) that re-exports it.
//!
//! The test fails when the committed file differs from what the types say, and writes the new
//! text next to it, so a field added to a view cannot leave the declarations behind.

use crate::engine::diagnosis::advisor::{Advice, Constraint, Recommendation};
use crate::engine::diagnosis::classify::{PartitionClass, PartitionFacts, SlowCause};
use crate::engine::diagnosis::finding::{Evidence, Finding, FindingKind, Fix, Severity};
use crate::engine::diagnosis::lag::{LagCrossing, SubtaskLag};
use crate::engine::diagnosis::Diagnosis;
use crate::engine::explain::{Culprit, Explanation, Reason};
use crate::engine::failover::JobStatus;
use crate::engine::flow::back_pressure::BackPressureLevel;
use crate::engine::job::TwoInputMode;
use crate::engine::job_run::{CheckpointView, JobRunView, StateSizeHistoryView, TaskManagerView};
use crate::engine::metrics::{JobMetrics, Metrics, RestBackPressure, RestSubtaskBackPressure, RestWatermark, SourceMetrics, WindowMetrics};
use crate::engine::operator::sink::SinkMode;
use crate::engine::operator::trigger::FiringKind;
use crate::engine::scenario::catalog::Preset;
use crate::engine::session::action::Action;
use crate::engine::snapshot::AlignmentView;
use crate::engine::snapshot::{
    ChannelView, JobShape, LogicalInputView, MidstreamView, OpenWindow, OperatorView, Snapshot, SourceView, SplitView,
};
use crate::engine::source::timestamp::TimestampAssigner;
use crate::engine::state_size::StateSample;
use crate::engine::status::WatermarkStatus;
use crate::engine::trace::{TraceEvent, TraceKind};
use crate::engine::view::events::EventBatch;
use crate::engine::view::notify::{Level, StatusEvent, StepEvent, WatermarkEvent};
use crate::engine::view::results::{JoinEmission, LateRecordView, WindowEmission};
use crate::engine::view::Watermark;
use ts_rs::{Config, TS};

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/api/types.gen.d.ts");

const HEADER: &str = "\
// GENERATED from the engine's view types (src/engine/view/typescript.rs): do not edit.
// `cargo test --lib engine::view::typescript` checks it; wmp.d.ts re-exports it.
// Every number is a JS number (64-bit integers are serialized as numbers); watermarks are
// `Watermark` objects because a number cannot hold every 64-bit value.

import type { Command } from \"./wmp\";
";

fn decl<T: TS + ?Sized>(cfg: &Config, out: &mut String) {
    out.push('\n');
    if let Some(docs) = T::docs() {
        out.push_str(&docs);
    }
    out.push_str(&layout(&format!("export {}", T::decl(cfg))));
    out.push('\n');
}

/// ts-rs writes each declaration on one line, with the fields' doc comments in the middle of
/// it. A long one gets one field of the declared object per line and one member of a declared
/// union per line, so the file reads like the hand-written declarations it replaced and a
/// change shows up in a diff as the field it is.
fn layout(decl: &str) -> String {
    if decl.len() <= 100 && !decl.contains('\n') {
        return decl.to_string();
    }
    let mut out = String::new();
    let (mut braces, mut parens, mut in_str, mut in_doc, mut object) = (0usize, 0usize, false, false, false);
    let mut chars = decl.chars().peekable();
    let skip_spaces = |chars: &mut std::iter::Peekable<std::str::Chars>| {
        while chars.peek() == Some(&' ') {
            chars.next();
        }
    };
    while let Some(c) = chars.next() {
        if in_str {
            in_str = c != '"';
            out.push(c);
            continue;
        }
        if in_doc {
            in_doc = !(c == '/' && out.ends_with('*'));
            match c {
                '\n' if object && braces == 1 => out.push_str("\n  "),
                _ => out.push(c),
            }
            continue;
        }
        match c {
            '/' if chars.peek() == Some(&'*') => {
                in_doc = true;
                out.push(c);
            }
            '"' => {
                in_str = true;
                out.push(c);
            }
            // The declared object (`type X = {`): its fields go one per line.
            '{' if braces == 0 && out.ends_with("= ") => {
                braces += 1;
                object = true;
                out.push('{');
                skip_spaces(&mut chars);
                if chars.peek() != Some(&'\n') {
                    out.push_str("\n  ");
                }
            }
            '{' => {
                braces += 1;
                out.push(c);
            }
            '}' => {
                braces -= 1;
                object &= braces > 0;
                out.push(c);
            }
            '(' => {
                parens += 1;
                out.push(c);
            }
            ')' => {
                parens -= 1;
                out.push(c);
            }
            ',' if object && braces == 1 => {
                out.push(',');
                skip_spaces(&mut chars);
                match chars.peek() {
                    Some('\n') => {}
                    Some('}') => out.push('\n'),
                    _ => out.push_str("\n  "),
                }
            }
            '\n' if object && braces == 1 => out.push_str("\n  "),
            // A member of the declared union (also inside `A & (B | C)`).
            ' ' if braces == 0 && parens <= 1 && chars.peek() == Some(&'|') => out.push_str("\n  "),
            // A union of objects (`type X = { "kind": … } | …`): its first member on a line of
            // its own too, lined up with the others.
            '=' if braces == 0 && parens == 0 && decl.contains(" = { \"") && decl.contains("} | {") => {
                out.push_str("=\n    ");
                skip_spaces(&mut chars);
            }
            _ => out.push(c),
        }
    }
    out
}

/// The declarations, in the order a reader meets them.
pub fn declarations() -> String {
    // serde_json writes u64/i64/usize as JSON numbers, and so does the API.
    let cfg = Config::new().with_large_int("number");
    let mut out = String::from(HEADER);
    let c = &cfg;
    let o = &mut out;
    decl::<Watermark>(c, o);
    decl::<WatermarkStatus>(c, o);
    decl::<SplitView>(c, o);
    decl::<MidstreamView>(c, o);
    decl::<BackPressureLevel>(c, o);
    decl::<AlignmentView>(c, o);
    decl::<SourceView>(c, o);
    decl::<ChannelView>(c, o);
    decl::<LogicalInputView>(c, o);
    decl::<TwoInputMode>(c, o);
    decl::<JobShape>(c, o);
    decl::<OpenWindow>(c, o);
    decl::<OperatorView>(c, o);
    decl::<SourceMetrics>(c, o);
    decl::<WindowMetrics>(c, o);
    decl::<JobMetrics>(c, o);
    decl::<Metrics>(c, o);
    decl::<JobStatus>(c, o);
    decl::<CheckpointView>(c, o);
    decl::<TaskManagerView>(c, o);
    decl::<JobRunView>(c, o);
    decl::<Snapshot>(c, o);
    decl::<StateSample>(c, o);
    decl::<StateSizeHistoryView>(c, o);
    decl::<FiringKind>(c, o);
    decl::<WindowEmission>(c, o);
    decl::<JoinEmission>(c, o);
    decl::<LateRecordView>(c, o);
    decl::<RestWatermark>(c, o);
    decl::<RestSubtaskBackPressure>(c, o);
    decl::<RestBackPressure>(c, o);
    decl::<Reason>(c, o);
    decl::<Culprit>(c, o);
    decl::<Explanation>(c, o);
    decl::<PartitionClass>(c, o);
    decl::<SlowCause>(c, o);
    decl::<PartitionFacts>(c, o);
    decl::<Severity>(c, o);
    decl::<FindingKind>(c, o);
    decl::<Evidence>(c, o);
    decl::<SinkMode>(c, o);
    decl::<TimestampAssigner>(c, o);
    decl::<Action>(c, o);
    decl::<Fix>(c, o);
    decl::<Finding>(c, o);
    decl::<Recommendation>(c, o);
    decl::<Constraint>(c, o);
    decl::<Advice>(c, o);
    decl::<SubtaskLag>(c, o);
    decl::<LagCrossing>(c, o);
    decl::<Diagnosis>(c, o);
    decl::<TraceKind<String>>(c, o);
    decl::<TraceEvent<String>>(c, o);
    decl::<EventBatch>(c, o);
    decl::<Preset>(c, o);
    decl::<Level>(c, o);
    decl::<WatermarkEvent>(c, o);
    decl::<StatusEvent>(c, o);
    decl::<StepEvent>(c, o);
    out
}

#[test]
fn the_committed_declarations_match_the_view_types() {
    let want = declarations();
    let have = std::fs::read_to_string(FILE).unwrap_or_default();
    let new = format!("{FILE}.new");
    if have != want {
        std::fs::write(&new, &want).expect("write types.gen.d.ts.new");
        panic!("{FILE} is out of date with the view types; the new text is in {new}: review it, then `mv {new} {FILE}`");
    }
    let _ = std::fs::remove_file(new);
}
