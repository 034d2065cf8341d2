//! The guided lessons, without the DOM: each [`Lesson`] is a few [`Step`]s, one idea each, for
//! people who know Flink a little. A step has one sentence, a small job ([`Stage`]), the
//! things the user may grab on the stage ([`Grab`]), the panels it reveals, a "try this"
//! naming a direct manipulation, and a check over what the job then shows ([`Outcome`]) that
//! decides the step was done. The tests below do each manipulation through the engine and
//! check that it passes the check, and that the step as loaded does not.

use super::lesson_setup::{Outcome, Setup};

/// What the user can drag on a step's stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grab {
    /// An event's timestamp.
    Events,
    /// The `forBoundedOutOfOrderness` bound.
    Bound,
    /// The `withIdleness` timeout.
    IdleTimeout,
    /// `allowedLateness`.
    AllowedLateness,
}

/// A panel of the playground a step shows (the others are hidden while it is on).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    /// The lesson's own event-time stage (the grab handles).
    Stage,
    Graph,
    Why,
    Timeline,
    Emissions,
    Late,
    Preset,
}

impl Panel {
    /// The class the page's root gets while the panel is shown (`www/style.css` reads them).
    pub fn class(self) -> &'static str {
        match self {
            Panel::Stage => "show-stage",
            Panel::Graph => "show-graph",
            Panel::Why => "show-why",
            Panel::Timeline => "show-timeline",
            Panel::Emissions => "show-emissions",
            Panel::Late => "show-late",
            Panel::Preset => "show-preset",
        }
    }

    pub const ALL: [Panel; 7] = [Panel::Stage, Panel::Graph, Panel::Why, Panel::Timeline, Panel::Emissions, Panel::Late, Panel::Preset];
}

/// The job a step runs.
#[derive(Clone, Copy, Debug)]
pub enum Stage {
    /// A small job of a few records, rebuilt after every drag.
    Events(fn() -> Setup),
    /// A preset of the catalog, run to `run_ms` and then played by the user.
    Preset { id: &'static str, run_ms: i64 },
}

impl Stage {
    /// What the header leaves to the reader during a step of this kind.
    pub fn mode(&self) -> LessonMode {
        match self {
            Stage::Events(_) => LessonMode::Stage,
            Stage::Preset { .. } => LessonMode::Preset,
        }
    }
}

/// What a lesson in progress leaves to the header. The page around a lesson drifted from it: a
/// preset picked mid-lesson replaced the stage's job under a card still on its step; Reset
/// emptied the stage; the controls changed a bound the stage did not show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LessonMode {
    /// No lesson: everything is the reader's.
    #[default]
    Off,
    /// A preset step: play, speed and the controls belong to the step; a preset picked from the
    /// menu leaves the lesson, and the preset shortcut keys do nothing.
    Preset,
    /// A stage step: the stage is the whole job at one instant; the transport, the speed, the
    /// controls, the fixes and the Silence buttons are hidden (`data-lesson-stage` in
    /// `www/style.css`), and their keys do nothing.
    Stage,
}

impl LessonMode {
    /// Whether key `k` (as `keyboard` names it) does nothing in this mode.
    pub fn ignores_key(self, k: &str) -> bool {
        let preset_key = k.starts_with("preset:") || k.len() == 1 && k.as_bytes()[0].is_ascii_digit();
        match self {
            LessonMode::Off => false,
            LessonMode::Preset => preset_key,
            LessonMode::Stage => !matches!(k, "?" | "t" | "T"),
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Step {
    pub title: &'static str,
    /// The one idea of the step.
    pub sentence: &'static str,
    /// The direct manipulation that shows it.
    pub try_this: &'static str,
    /// What the ✓ says once the check passes.
    pub done: &'static str,
    pub stage: Stage,
    pub grab: &'static [Grab],
    pub reveals: &'static [Panel],
    pub check: fn(&Outcome) -> bool,
}

#[derive(Clone, Copy, Debug)]
pub struct Lesson {
    pub id: &'static str,
    pub title: &'static str,
    pub steps: &'static [Step],
}

/// Every lesson, in the preset menu's order.
pub fn lessons() -> &'static [Lesson] {
    LESSONS
}

/// The lesson with this id.
pub fn lesson(id: &str) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.id == id)
}

const STAGE: &[Panel] = &[Panel::Stage, Panel::Why];
const STAGE_LATE: &[Panel] = &[Panel::Stage, Panel::Emissions, Panel::Late];

static LESSONS: &[Lesson] = &[
    Lesson { id: "idle-partitions", title: "Lesson: why windows wait for idle partitions", steps: IDLE_STEPS },
    Lesson { id: "lateness", title: "Lesson: late records, the bound and allowedLateness", steps: LATE_STEPS },
];

static IDLE_STEPS: &[Step] = &[
    Step {
        title: "One partition, one window",
        sentence: "With forBoundedOutOfOrderness(bound) a split's watermark is the largest timestamp seen − bound − 1 ms, and the window [0 s, 10 s) fires once the watermark reaches 9.999 s.",
        try_this: "Drag the bound handle to 1 s or less, or drag the last event to 13 s or later, until the window fires.",
        done: "The watermark reached 9.999 s, the window's last millisecond: the window [0 s, 10 s) fired.",
        stage: Stage::Events(one_partition),
        grab: &[Grab::Events, Grab::Bound],
        reveals: STAGE,
        check: |o| o.window_fired(0),
    },
    Step {
        title: "A second partition: the minimum",
        sentence: "A source subtask reading two partitions emits the minimum of their watermarks: the slower partition holds the window.",
        try_this: "Drag partition 1's last event to 11 s or later: the minimum reaches 9.999 s.",
        done: "Both partitions reached 9.999 s: the minimum did, and the window fired.",
        stage: Stage::Events(two_partitions),
        grab: &[Grab::Events],
        reveals: STAGE,
        check: |o| o.window_fired(0),
    },
    Step {
        title: "Silence and withIdleness",
        sentence: "Partition 1 went silent at 6 s: its watermark stays put, so it holds the watermark for ever, until withIdleness(timeout) marks it idle and the minimum skips it.",
        try_this: "Drag the idle-timeout handle on partition 1 shorter (about 13 s or less) until partition 1 goes idle.",
        done: "Partition 1 is idle: the minimum is partition 0's, and the window fired.",
        stage: Stage::Events(silent_partition),
        grab: &[Grab::IdleTimeout],
        reveals: STAGE,
        check: |o| o.splits.get(1).is_some_and(|s| s.idle) && o.window_fired(0),
    },
    Step {
        title: "keyBy and channels",
        sentence: "keyBy sends each key to one window subtask, but every source subtask sends its watermark on every channel: each window subtask takes the minimum over its channels.",
        try_this: "Drag partition 1's last event to 11 s or later: both window subtasks reach 9.999 s, also the one that never gets a key of partition 1.",
        done: "Both window subtasks reached 9.999 s.",
        stage: Stage::Events(key_by),
        grab: &[Grab::Events],
        reveals: &[Panel::Stage, Panel::Graph, Panel::Why],
        check: |o| o.all_operators_past(9_999),
    },
    Step {
        title: "Seed 001 itself",
        sentence: "16 partitions, parallelism 8: partition 11 gets one heartbeat every 90 minutes, so every window subtask waits for it.",
        try_this: "Press the Fix button just below, then ▶ at the top: windows fire every minute, long before the next heartbeat.",
        done: "Partition 11 is idle and the windows fire: seed 001 is fixed.",
        stage: Stage::Preset { id: "seed-001-heartbeat", run_ms: 5 * 60_000 },
        grab: &[],
        reveals: &[Panel::Preset, Panel::Graph, Panel::Why, Panel::Timeline, Panel::Emissions],
        check: |o| o.idle_timeout_ms.is_some() && o.fired_total > 0 && o.elapsed_ms < 90 * 60_000,
    },
];

static LATE_STEPS: &[Step] = &[
    Step {
        title: "Behind the watermark: dropped",
        sentence: "A record whose window already fired (window end − 1 ms ≤ watermark) is late: the window operator drops it and counts it in numLateRecordsDropped.",
        try_this: "Drag the event at 11 s (it arrives last, at 14 s) before 10 s, behind the watermark.",
        done: "Dropped: the late count is 1.",
        stage: Stage::Events(late_candidate),
        grab: &[Grab::Events],
        reveals: STAGE_LATE,
        check: |o| o.dropped >= 1,
    },
    Step {
        title: "The bound against the disorder",
        sentence: "The record at 8 s comes 5 s behind the largest timestamp before it (13 s): a bound of 1 s is too small for that disorder.",
        try_this: "Raise the bound (drag its handle left, or ↑ on it) until the record at 8 s is not late (more than 3 s).",
        done: "On time: the window [0 s, 10 s) counted all 3 records.",
        stage: Stage::Events(too_small_bound),
        grab: &[Grab::Bound],
        reveals: STAGE_LATE,
        check: |o| o.dropped == 0 && o.window_count(0) == 3,
    },
    Step {
        title: "allowedLateness re-fires",
        sentence: "allowedLateness(t) keeps a fired window t longer: a late record then fires it again (a late firing), an append sink sees a second row.",
        try_this: "Drag the allowedLateness handle right of the window end until the record at 8 s re-fires the window (more than 2 s).",
        done: "The window fired again with the late record.",
        stage: Stage::Events(too_small_bound),
        grab: &[Grab::AllowedLateness],
        reveals: STAGE_LATE,
        check: |o| o.dropped == 0 && o.fired.iter().any(|f| f.late_firing),
    },
    Step {
        title: "sideOutputLateData",
        sentence: "sideOutputLateData(tag) keeps what is still too late: the record goes to a side output instead of being dropped.",
        try_this: "Drag the event at 11 s (it arrives last) before 10 s, behind the watermark: it lands in the side output (○).",
        done: "Caught in the side output, not dropped.",
        stage: Stage::Events(side_output),
        grab: &[Grab::Events],
        reveals: STAGE_LATE,
        check: |o| o.side >= 1 && o.dropped == 0,
    },
];

fn one_partition() -> Setup {
    let mut s = Setup::new(1, 14_000).events(0, "a", &[(1.0, 1.0), (4.0, 4.0), (11.0, 11.0)]);
    s.bound_ms = 3_000;
    s
}

fn two_partitions() -> Setup {
    let mut s = Setup::new(2, 15_000).events(0, "a", &[(1.0, 1.0), (4.0, 4.0), (13.0, 13.0)]).events(1, "b", &[(2.0, 2.0), (6.0, 6.0)]);
    s.bound_ms = 1_000;
    s
}

fn silent_partition() -> Setup {
    let p0 = [(1.0, 1.0), (4.0, 4.0), (8.0, 8.0), (12.0, 12.0), (15.0, 15.0), (18.0, 18.0)];
    let mut s = Setup::new(2, 20_000).events(0, "a", &p0).events(1, "b", &[(2.0, 2.0), (6.0, 6.0)]);
    s.bound_ms = 2_000;
    s.idle_timeout_ms = Some(20_000);
    s
}

fn key_by() -> Setup {
    let mut s = Setup::new(2, 15_000)
        .events(0, KEY_ON_0, &[(1.0, 1.0), (7.0, 7.0)])
        .events(0, KEY_ON_1, &[(4.0, 4.0), (13.0, 13.0)])
        .events(1, KEY_ON_1, &[(2.0, 2.0), (6.0, 6.0)]);
    s.source_parallelism = 2;
    s.window_parallelism = 2;
    s.bound_ms = 1_000;
    s
}

/// Keys that go to window subtask 0 and 1 of 2 (the tests check it).
const KEY_ON_0: &str = "c";
const KEY_ON_1: &str = "a";

fn late_candidate() -> Setup {
    let mut s = Setup::new(1, 16_000).events(0, "a", &[(1.0, 1.0), (4.0, 4.0), (12.0, 12.0), (13.0, 13.0), (14.0, 11.0)]);
    s.bound_ms = 1_000;
    s
}

fn too_small_bound() -> Setup {
    let mut s = Setup::new(1, 22_000).events(0, "a", &[(1.0, 1.0), (4.0, 4.0), (12.0, 12.0), (13.0, 13.0), (14.0, 8.0), (20.0, 20.0)]);
    s.bound_ms = 1_000;
    s
}

fn side_output() -> Setup {
    let mut s = late_candidate();
    s.side_output = true;
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(step: &Step) -> Setup {
        match step.stage {
            Stage::Events(f) => f(),
            Stage::Preset { .. } => unreachable!(),
        }
    }

    fn outcome(s: &Setup) -> Outcome {
        Outcome::of(s.run().unwrap().sim())
    }

    fn last_event_of(s: &mut Setup, partition: u32) -> &mut super::super::lesson_setup::Event {
        s.events.iter_mut().filter(|e| e.partition == partition).max_by_key(|e| e.at_ms).unwrap()
    }

    /// Each step as loaded fails its check; the manipulation its "try this" names passes it.
    fn walk(step: &Step, manipulate: impl Fn(&mut Setup)) {
        let s = setup(step);
        assert!(!(step.check)(&outcome(&s)), "{}: passes without the manipulation", step.title);
        let mut done = s.clone();
        manipulate(&mut done);
        assert!((step.check)(&outcome(&done)), "{}: the manipulation does not pass", step.title);
    }

    #[test]
    fn one_partition_fires_by_the_bound_or_by_a_later_event() {
        let step = &IDLE_STEPS[0];
        walk(step, |s| s.bound_ms = 1_000);
        walk(step, |s| last_event_of(s, 0).ts_ms = 13_000);
        // Half way is not enough: the check follows the watermark.
        let mut s = setup(step);
        s.bound_ms = 2_000;
        assert!(!(step.check)(&outcome(&s)));
    }

    #[test]
    fn the_minimum_follows_the_slower_partition() {
        let step = &IDLE_STEPS[1];
        walk(step, |s| last_event_of(s, 1).ts_ms = 11_000);
        let mut s = setup(step);
        last_event_of(&mut s, 0).ts_ms = 19_000;
        assert!(!(step.check)(&outcome(&s)), "the faster partition cannot release the window");
    }

    #[test]
    fn idleness_releases_a_silent_partition() {
        let step = &IDLE_STEPS[2];
        walk(step, |s| s.idle_timeout_ms = Some(12_000));
        let mut s = setup(step);
        last_event_of(&mut s, 1).ts_ms = 12_000;
        assert!(!(step.check)(&outcome(&s)), "an event releases the window but the split is not idle");
    }

    #[test]
    fn every_window_subtask_waits_for_every_channel() {
        let step = &IDLE_STEPS[3];
        let o = outcome(&setup(step));
        let subtasks: Vec<(String, u32)> = o.fired.iter().map(|f| (f.key.clone(), f.subtask)).collect();
        assert!(subtasks.is_empty());
        assert_ne!(o.splits[0].subtask, o.splits[1].subtask, "one partition per source subtask");
        walk(step, |s| last_event_of(s, 1).ts_ms = 11_000);
        let mut s = setup(step);
        last_event_of(&mut s, 1).ts_ms = 11_000;
        let o = outcome(&s);
        assert!(o.fired.iter().any(|f| f.key == KEY_ON_0 && f.subtask == 0), "{:?}", o.fired);
        assert!(o.fired.iter().any(|f| f.key == KEY_ON_1 && f.subtask == 1), "{:?}", o.fired);
    }

    #[test]
    fn seed_001_is_fixed_by_its_idle_timeout() {
        use crate::engine::command::{Command, Param};
        use crate::engine::scenario::catalog;
        let step = &IDLE_STEPS[4];
        let Stage::Preset { id, run_ms } = step.stage else { panic!() };
        let sc = crate::engine::scenario::build::parse(catalog::preset(id).unwrap().json).unwrap();
        let mut s = crate::engine::session::Session::new(sc).unwrap();
        s.run_until(run_ms, &mut ()).unwrap();
        assert!(!(step.check)(&Outcome::summary(s.sim())));
        let mut plain = crate::engine::session::Session::new(s.scenario().clone()).unwrap();
        plain.run_until(run_ms + 120_000, &mut ()).unwrap();
        assert!(!(step.check)(&Outcome::summary(plain.sim())), "playing on without the fix");
        s.apply(Command::SetParam { param: Param::IdleTimeoutMs(Some(5_000)) }).unwrap();
        s.run_until(run_ms + 120_000, &mut ()).unwrap();
        assert!((step.check)(&Outcome::summary(s.sim())));
    }

    #[test]
    fn an_event_behind_the_watermark_is_dropped() {
        walk(&LATE_STEPS[0], |s| last_event_of(s, 0).ts_ms = 8_000);
    }

    #[test]
    fn a_larger_bound_takes_the_disorder() {
        let step = &LATE_STEPS[1];
        walk(step, |s| s.bound_ms = 3_500);
        let mut s = setup(step);
        last_event_of(&mut s, 0).ts_ms = 20_500;
        s.events.iter_mut().find(|e| e.ts_ms == 8_000).unwrap().ts_ms = 12_500;
        assert!(!(step.check)(&outcome(&s)), "moving the record out of the window is not the lesson");
    }

    #[test]
    fn allowed_lateness_refires_the_window() {
        let step = &LATE_STEPS[2];
        walk(step, |s| s.allowed_lateness_ms = 3_500);
        let mut s = setup(step);
        s.allowed_lateness_ms = 1_500;
        assert!(!(step.check)(&outcome(&s)));
    }

    #[test]
    fn the_side_output_catches_what_is_too_late() {
        walk(&LATE_STEPS[3], |s| last_event_of(s, 0).ts_ms = 8_000);
    }

    #[test]
    fn lessons_have_short_sentences_and_unique_ids() {
        for l in lessons() {
            assert_eq!(lesson(l.id).map(|x| x.title), Some(l.title));
            for s in l.steps {
                assert!(s.sentence.len() < 220 && s.try_this.len() < 160, "{}", s.title);
                assert!(s.reveals.contains(&Panel::Stage) != s.grab.is_empty() || matches!(s.stage, Stage::Preset { .. }));
            }
        }
    }

    /// The WHY panel beside a stage does not contradict the lesson: partition 1 has 2 records
    /// in steps 2 and 4, and step 3 silences it; "gets a record every 4 s … an idle timeout does
    /// not fix it" said otherwise.
    #[test]
    fn the_diagnosis_does_not_judge_two_records_a_rhythm() {
        for step in [&IDLE_STEPS[1], &IDLE_STEPS[3]] {
            let session = setup(step).run().unwrap();
            let d = session.sim().diagnose(&Default::default());
            let p1 = &d.partitions[1];
            assert_eq!(p1.slow_cause, Some(crate::engine::diagnosis::classify::SlowCause::TooFewToTell), "{}", step.title);
            assert!(d.headline.contains("too few to tell") && !d.headline.contains("does not fix"), "{}: {}", step.title, d.headline);
        }
    }

    /// What a lesson leaves to the keys: nothing of the transport on a stage, no preset keys.
    #[test]
    fn a_lesson_ignores_the_keys_of_what_it_hides() {
        for k in [" ", "k", ".", "ArrowRight", "n", "+", "-", "r", "c", "7", "preset:12"] {
            assert!(LessonMode::Stage.ignores_key(k), "{k:?} on a stage");
            assert!(!LessonMode::Off.ignores_key(k), "{k:?} without a lesson");
        }
        for k in ["?", "t", "T"] {
            assert!(!LessonMode::Stage.ignores_key(k), "{k:?} stays");
        }
        for k in [" ", "k", "r", "c", "+"] {
            assert!(!LessonMode::Preset.ignores_key(k), "{k:?} is the preset step's");
        }
        assert!(LessonMode::Preset.ignores_key("3") && LessonMode::Preset.ignores_key("preset:10"));
    }
}
