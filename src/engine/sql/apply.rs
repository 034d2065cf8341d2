//! The statements' Flink meaning, applied onto the base scenario: `SET`s on the job, each
//! `CREATE TABLE` on an input (the first table is the first input, the second the second input),
//! the window TVF query on the window. What the script leaves out stays the base's; every
//! choice the script cannot make and every clause not modelled is a note.

use super::cursor::At;
use super::origin::Origins;
use super::query::{Query, Tvf};
use super::reader::{ColumnKind, Statement, TableDef};
use super::settings::{job_settings, table_options, JobSettings};
use super::token::Pos;
use super::{Note, SqlError};
use crate::engine::job::TwoInputMode;
use crate::engine::operator::aggregate::AggregateKind;
use crate::engine::operator::assigner::WindowSpec;
use crate::engine::operator::midstream::MidstreamSpec;
use crate::engine::operator::sql_window::WindowApi;
use crate::engine::operator::trigger::TriggerSpec;
use crate::engine::scenario::schema::{Scenario, SourceSpec, TopicSpec, WindowOperatorSpec};
use crate::engine::source::generator::GeneratorKind;
use crate::engine::source::start_offset::{CommittedOffsets, StartOffset};
use crate::engine::source::timestamp::TimestampAssigner;

/// A table read onto input `index`, for the query to find.
struct Table {
    name: String,
    index: usize,
    /// The `WATERMARK FOR` column, if any.
    rowtime: Option<String>,
    /// Its columns' names: what the query's `DESCRIPTOR` and `GROUP BY` may name.
    columns: Vec<String>,
}

/// The columns a window TVF adds to its table's.
const WINDOW_COLUMNS: [&str; 3] = ["window_start", "window_end", "window_time"];

struct Ctx<'a> {
    sc: Scenario,
    notes: Vec<Note>,
    job: JobSettings,
    tables: Vec<Table>,
    views: Vec<(String, Vec<At<String>>)>,
    base: &'a Scenario,
    origins: Origins,
}

pub fn apply(statements: &[Statement], base: &Scenario) -> Result<(Scenario, Vec<Note>), SqlError> {
    let mut c = Ctx {
        sc: base.clone(),
        notes: Vec::new(),
        job: JobSettings::default(),
        tables: Vec::new(),
        views: Vec::new(),
        base,
        origins: Origins::default(),
    };
    for s in statements {
        match s {
            Statement::Set { key, value } => {
                job_settings(key, value, &mut c.job, &mut c.notes)?;
                c.origins.set_key(&key.v, value.pos);
            }
            Statement::Other(o) => c.notes.push(Note::at(o.pos, format!("{} … is read but not modelled", o.v))),
            _ => {}
        }
    }
    let mut table_overrides = vec![None, None];
    for t in statements.iter().filter_map(|s| if let Statement::Table(t) = s { Some(t) } else { None }) {
        let i = c.tables.len();
        table_overrides[i.min(1)] = table(&mut c, t, i)?;
    }
    apply_job(&mut c, &table_overrides);
    let mut done = false;
    for s in statements {
        match s {
            Statement::View { name, tables } => c.views.push((name.v.clone(), tables.clone())),
            Statement::Query(q) if !done => done = query(&mut c, q)?,
            Statement::Query(q) => c.notes.push(Note::at(q.pos, "a second query is read but not modelled: the playground runs one")),
            _ => {}
        }
    }
    c.sc.validate().map_err(|e| c.origins.error(e))?;
    Ok((c.sc, c.notes))
}

/// The input `i`'s topic and source, mutably.
fn input(sc: &mut Scenario, i: usize) -> (&mut TopicSpec, &mut SourceSpec) {
    match (i, sc.second_input.as_mut()) {
        (1, Some(s)) => (&mut s.topic, &mut s.source),
        _ => (&mut sc.topic, &mut sc.source),
    }
}

/// One `CREATE TABLE` onto input `i`; returns its own idle timeout, if it sets one.
fn table(c: &mut Ctx, t: &TableDef, i: usize) -> Result<Option<(i64, Pos)>, SqlError> {
    if i >= 2 {
        return Err(SqlError::at(t.name.pos, "the playground models at most two source tables"));
    }
    if i == 1 && c.base.second_input.is_none() {
        return Err(SqlError::at(
            t.name.pos,
            "a second table needs a base scenario with a second input (second_input): start from a two-source preset",
        ));
    }
    for x in &t.extras {
        c.notes.push(Note::at(x.pos, format!("{} is read but not modelled", x.v)));
    }
    c.origins
        .set(if i == 0 { &["topic", "source", "producers", "commands"] } else { &["second_input", "producers", "commands"] }, t.name.pos);
    let o = table_options(&t.options, &mut c.notes, t.name.pos)?;
    let base_assigner = input(&mut c.sc, i).1.timestamp_assigner;
    let assigner = rowtime_assigner(c, t, base_assigner)?;
    let (topic, source) = input(&mut c.sc, i);
    let old_topic = topic.name.clone();
    if let Some(name) = &o.topic {
        topic.name = name.v.clone();
    }
    if let Some(p) = o.parallelism.or(c.job.parallelism) {
        source.parallelism = p;
    }
    match (o.start, o.group_offsets) {
        (Some(s), _) => source.start_offset = s,
        (None, Some(reset)) => {
            let offsets = match &source.start_offset {
                StartOffset::Committed(c) => c.offsets.clone(),
                _ => Vec::new(),
            };
            source.start_offset = StartOffset::Committed(CommittedOffsets { offsets, reset });
        }
        (None, None) => {}
    }
    if let Some(e) = o.emit {
        source.watermark.emit = e;
    }
    source.watermark.alignment = o.alignment;
    if let Some(a) = assigner {
        source.timestamp_assigner = a;
    }
    let note = watermark(source, t);
    let new_topic = topic.name.clone();
    c.notes.extend(note);
    rename_topic(&mut c.sc, &old_topic, &new_topic);
    c.tables.push(Table {
        name: t.name.v.clone(),
        index: i,
        rowtime: t.watermark.as_ref().map(|w| w.column.v.clone()),
        columns: t.columns.iter().map(|col| col.name.v.clone()).collect(),
    });
    Ok(o.idle_timeout_ms)
}

/// Producers that wrote to the renamed topic by name follow it.
fn rename_topic(sc: &mut Scenario, old: &str, new: &str) {
    for p in &mut sc.producers {
        if p.topic.as_deref() == Some(old) {
            p.topic = Some(new.to_string());
        }
    }
}

/// How the rowtime column reads the record: its kind, with the unit of the base's data.
fn rowtime_assigner(c: &mut Ctx, t: &TableDef, base: TimestampAssigner) -> Result<Option<TimestampAssigner>, SqlError> {
    let Some(w) = &t.watermark else { return Ok(None) };
    let col = t.columns.iter().find(|col| col.name.v == w.column.v).ok_or_else(|| {
        SqlError::at(w.column.pos, format!("the table has no column {} (WATERMARK FOR names a column of the table)", w.column.v))
    })?;
    let seconds_data = base == TimestampAssigner::SecondsAsMillis;
    Ok(Some(match &col.kind {
        ColumnKind::Physical(ty) if ty.to_ascii_uppercase().starts_with("TIMESTAMP") => TimestampAssigner::EventField,
        ColumnKind::Physical(ty) => {
            return Err(SqlError::at(
                col.name.pos,
                format!("the rowtime column {} is {ty}: it must be TIMESTAMP(3) or TIMESTAMP_LTZ(3)", col.name.v),
            ))
        }
        ColumnKind::Metadata(k) if k == "timestamp" || (k.is_empty() && col.name.v == "timestamp") => TimestampAssigner::BrokerTime,
        ColumnKind::Metadata(k) => {
            return Err(SqlError::at(
                col.name.pos,
                format!("metadata '{k}' is not a time the playground has: use METADATA FROM 'timestamp'"),
            ))
        }
        ColumnKind::Computed(Some(3)) if seconds_data => TimestampAssigner::SecondsAsMillis,
        ColumnKind::Computed(Some(0)) if seconds_data => TimestampAssigner::EventField,
        ColumnKind::Computed(Some(3)) => TimestampAssigner::EventField,
        ColumnKind::Computed(Some(0)) => TimestampAssigner::MillisAsSeconds,
        ColumnKind::Computed(_) => {
            c.notes.push(Note::at(col.name.pos, format!("the computed column {} is read as the record's event time in ms", col.name.v)));
            TimestampAssigner::EventField
        }
    }))
}

/// The `WATERMARK` clause: pushed into the Kafka source, unless the base runs SQL's watermark
/// operator after the source (which a script cannot say); no clause, no watermarks.
fn watermark(source: &mut SourceSpec, t: &TableDef) -> Option<Note> {
    let delay = t.watermark.as_ref().map(|w| w.delay_ms);
    match (delay, source.midstream) {
        (Some(d), Some(MidstreamSpec::SqlWatermarkAssigner { idle_timeout_ms, .. })) => {
            source.midstream = Some(MidstreamSpec::SqlWatermarkAssigner { delay_ms: d, idle_timeout_ms });
            let pos = t.watermark.as_ref().map_or(t.name.pos, |w| w.column.pos);
            return Some(Note::at(
                pos,
                "the base runs this WATERMARK as an operator after the source (SQL's WatermarkAssigner, not pushed down): kept",
            ));
        }
        (Some(d), m) => {
            source.watermark.generator = GeneratorKind::SqlBounded { delay_ms: d };
            source.midstream = None;
            if let Some(MidstreamSpec::TimestampsAndWatermarks { idle_timeout_ms, .. }) = m {
                // The base's watermarks, as SQL sees them, had the operator's idle timeout.
                source.watermark.idle_timeout_ms = idle_timeout_ms;
                return Some(Note::at(
                    t.name.pos,
                    "the base's assignTimestampsAndWatermarks after the source is gone: Kafka's table source takes the WATERMARK",
                ));
            }
        }
        (None, _) => {
            source.watermark.generator = GeneratorKind::NoWatermarks;
            source.midstream = None;
            return Some(Note::at(
                t.name.pos,
                format!("table {} has no WATERMARK clause: no watermarks, event-time windows never fire", t.name.v),
            ));
        }
    }
    None
}

/// The job-wide settings: idle timeout (a table's own first), interval, parallelism,
/// checkpoints, alignment switches.
fn apply_job(c: &mut Ctx, own_idle: &[Option<(i64, Pos)>]) {
    let inputs = 1 + usize::from(c.sc.second_input.is_some());
    for (i, own) in own_idle.iter().enumerate().take(inputs) {
        let has_table = c.tables.iter().any(|t| t.index == i);
        let (_, source) = input(&mut c.sc, i);
        match &mut source.midstream {
            // StreamExecWatermarkAssigner reads the session option only.
            Some(MidstreamSpec::SqlWatermarkAssigner { idle_timeout_ms, .. }) => {
                if let Some(t) = c.job.idle_timeout_ms {
                    *idle_timeout_ms = t;
                }
                if let Some((_, pos)) = own {
                    let why = "SQL's watermark operator after the source reads 'table.exec.source.idle-timeout' only";
                    c.notes.push(Note::at(*pos, format!("'scan.watermark.idle-timeout' is read but not modelled: {why}")));
                }
            }
            _ => {
                if let Some(t) = own.map(|o| o.0).or(c.job.idle_timeout_ms) {
                    source.watermark.idle_timeout_ms = Some(t).filter(|&t| t > 0);
                }
            }
        }
        if let Some(a) = c.job.auto_watermark_interval_ms {
            source.watermark.auto_watermark_interval_ms = a;
        }
        if let (Some(p), false) = (c.job.parallelism, has_table) {
            source.parallelism = p;
        }
    }
    if let Some(p) = c.job.parallelism {
        c.sc.set_keyed_parallelism(p);
    }
    if let Some(i) = c.job.checkpoint_interval_ms {
        c.sc.checkpointing.interval_ms = Some(i).filter(|&i| i > 0);
    }
    if let Some(b) = c.job.alignment_buffer_size {
        c.sc.flink.alignment_buffer_size = b;
    }
    if let Some(b) = c.job.allow_unaligned_source_splits {
        c.sc.flink.allow_unaligned_source_splits = b;
    }
}

/// The inputs a table or view name reads (a view of views is not read: no cycles).
fn inputs_of(c: &Ctx, name: &At<String>) -> Result<(Vec<usize>, Option<String>), SqlError> {
    let Some((_, tables)) = c.views.iter().find(|(v, _)| *v == name.v) else { return table_input(c, name).map(|(i, r)| (vec![i], r)) };
    let (mut out, mut rowtime) = (Vec::new(), None);
    for t in tables {
        let (i, r) = table_input(c, t)?;
        out.push(i);
        rowtime = rowtime.or(r);
    }
    Ok((out, rowtime))
}

/// The input a table reads: a table of the script, or the base's topic of that name.
fn table_input(c: &Ctx, name: &At<String>) -> Result<(usize, Option<String>), SqlError> {
    if let Some(t) = c.tables.iter().find(|t| t.name == name.v) {
        return Ok((t.index, t.rowtime.clone()));
    }
    let second = c.sc.second_input.as_ref().map(|s| s.topic.name.as_str());
    match (name.v == c.sc.topic.name, Some(name.v.as_str()) == second) {
        (true, _) => Ok((0, None)),
        (_, true) => Ok((1, None)),
        _ => Err(SqlError::at(name.pos, format!("no table {} (create it with CREATE TABLE, or name the base's topic)", name.v))),
    }
}

/// The window TVF query onto the window; `false` when it is not one (named, not modelled).
fn query(c: &mut Ctx, q: &Query) -> Result<bool, SqlError> {
    let Some(tvf) = &q.tvf else {
        c.notes.push(Note::at(
            q.pos,
            "this query is not a window TVF aggregation: read but not modelled, the job's operator stays the base's",
        ));
        return Ok(false);
    };
    for x in &q.extras {
        c.notes.push(Note::at(x.pos, format!("{} is read but not modelled", x.v)));
    }
    if let Some(s) = &q.sink {
        c.notes.push(Note::at(s.pos, format!("the sink table {} is not modelled: the playground's sink keeps the rows", s.v)));
    }
    c.origins.set(&["window", "interval_join", "second_input.mode"], tvf.kind.pos);
    let (inputs, rowtime) = inputs_of(c, &tvf.table)?;
    time_column(c, tvf, rowtime.as_deref())?;
    let assigner = window_spec(tvf)?;
    let connect = shape(c, tvf, &inputs);
    let mut w = c.sc.window.clone().unwrap_or(WindowOperatorSpec {
        assigner,
        parallelism: c.job.parallelism.unwrap_or(c.sc.keyed_parallelism()),
        allowed_lateness_ms: 0,
        late_side_output: false,
        aggregate: AggregateKind::Count,
        trigger: TriggerSpec::EventTime,
        api: WindowApi::Sql,
    });
    if c.sc.interval_join.take().is_some() {
        c.notes.push(Note::at(q.pos, "the base's interval join is replaced by this window"));
    }
    w.assigner = assigner;
    aggregate(c, q, &mut w);
    group_by_columns(c, tvf, q)?;
    group_by(c, q, &mut w)?;
    if connect {
        c.notes.push(Note::at(tvf.kind.pos, "a connected job has no SQL form: the window stays a DataStream window after connect"));
    } else {
        sql_window(c, &mut w, tvf.kind.pos);
    }
    w.validate().map_err(|e| SqlError::at(tvf.kind.pos, e.to_string()))?;
    c.sc.window = Some(w);
    Ok(true)
}

/// The script's table the window reads, whose columns are known; `None` for a view (its
/// `SELECT` lists are not read) or the base's topic (no schema).
fn script_table<'c>(c: &'c Ctx, tvf: &Tvf) -> Option<&'c Table> {
    c.tables.iter().find(|t| t.name == tvf.table.v)
}

/// A table's columns in a message: `t (a, b)`.
fn schema(t: &Table) -> String {
    format!("{} ({})", t.name, t.columns.join(", "))
}

/// `DESCRIPTOR(col)` names the table's time attribute, its `WATERMARK FOR` column: another
/// column, or none of the table's, is refused as Flink's validation refuses it. A table without
/// a `WATERMARK` has no time attribute: Flink rejects the window too, but that is how the
/// playground says "no watermarks" (its own scripts write it), so it is a note.
fn time_column(c: &mut Ctx, tvf: &Tvf, rowtime: Option<&str>) -> Result<(), SqlError> {
    let d = &tvf.descriptor;
    let table = script_table(c, tvf);
    if let Some(t) = table.filter(|t| !t.columns.contains(&d.v)) {
        return Err(SqlError::at(d.pos, format!("Can't find the time attribute field '{}' in the input schema {}", d.v, schema(t))));
    }
    match rowtime {
        // A view's columns are not read (`ts AS rt`): its first table's rowtime is no check.
        Some(r) if r != d.v && table.is_some() => Err(SqlError::at(
            d.pos,
            format!(
                "The window function requires the timecol is a time attribute type, but {} is not: the time attribute of {} is {r} (WATERMARK FOR {r})",
                d.v, tvf.table.v
            ),
        )),
        Some(r) if r != d.v => {
            let why = format!("{} is not the time attribute of {}'s first table ({r}): Flink rejects it unless the view renames {r}; the playground windows on {r}", d.v, tvf.table.v);
            c.notes.push(Note::at(d.pos, why));
            Ok(())
        }
        None if table.is_some() => {
            let why = format!("{} has no WATERMARK: Flink rejects a window on a column that is not a time attribute", tvf.table.v);
            c.notes.push(Note::at(d.pos, why));
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Every `GROUP BY` column, and a session's `PARTITION BY` key, is the window's or the table's,
/// as Flink's validation requires (where the table's columns are known: [`script_table`]); an
/// expression (`UPPER(k)`, `GROUPING SETS`) is not checked.
fn group_by_columns(c: &Ctx, tvf: &Tvf, q: &Query) -> Result<(), SqlError> {
    let Some(t) = script_table(c, tvf) else { return Ok(()) };
    let known = |g: &str| WINDOW_COLUMNS.iter().any(|w| g.eq_ignore_ascii_case(w)) || t.columns.iter().any(|col| col == g);
    let columns = &q.group_by[..q.group_by.len() - usize::from(q.group_by_expr)];
    let partition_by = tvf.partition_by.iter();
    match columns.iter().chain(partition_by).find(|g| !known(&g.v)) {
        Some(g) => Err(SqlError::at(
            g.pos,
            format!("Column '{}' not found in any table: the window reads {} and adds {}", g.v, schema(t), WINDOW_COLUMNS.join(", ")),
        )),
        None => Ok(()),
    }
}

/// Whether the inputs fit the base's shape; a union view sets `union`.
fn shape(c: &mut Ctx, tvf: &Tvf, inputs: &[usize]) -> bool {
    let Some(second) = c.sc.second_input.as_mut() else { return false };
    if inputs.len() >= 2 && inputs.contains(&0) && inputs.contains(&1) {
        second.mode = TwoInputMode::Union;
        return false;
    }
    if second.mode == TwoInputMode::Union {
        c.notes.push(Note::at(tvf.table.pos, format!("the window reads only {}: the base's second input stays unioned in", tvf.table.v)));
    }
    second.mode == TwoInputMode::Connect
}

fn window_spec(tvf: &Tvf) -> Result<WindowSpec, SqlError> {
    let n = |i: usize| tvf.intervals.get(i).map(|a| a.v);
    let want = |lo: usize, hi: usize, shape: &str| {
        if (lo..=hi).contains(&tvf.intervals.len()) {
            Ok(())
        } else {
            Err(SqlError::at(tvf.kind.pos, format!("{} takes {shape}", tvf.kind.v)))
        }
    };
    Ok(match tvf.kind.v.as_str() {
        "TUMBLE" => {
            want(1, 2, "a size and an optional offset: TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE)")?;
            WindowSpec::Tumbling { size_ms: n(0).unwrap_or(0), offset_ms: n(1).unwrap_or(0) }
        }
        "HOP" => {
            want(2, 3, "a slide, a size (in this order) and an optional offset")?;
            WindowSpec::Sliding { size_ms: n(1).unwrap_or(0), slide_ms: n(0).unwrap_or(0), offset_ms: n(2).unwrap_or(0) }
        }
        "CUMULATE" => {
            want(2, 3, "a step, a max size and an optional offset")?;
            WindowSpec::Cumulate { step_ms: n(0).unwrap_or(0), max_size_ms: n(1).unwrap_or(0), offset_ms: n(2).unwrap_or(0) }
        }
        _ => {
            want(1, 1, "a gap: SESSION(TABLE t PARTITION BY key, DESCRIPTOR(ts), INTERVAL '5' MINUTE)")?;
            WindowSpec::Session { gap_ms: n(0).unwrap_or(0) }
        }
    })
}

fn aggregate(c: &mut Ctx, q: &Query, w: &mut WindowOperatorSpec) {
    let Some(first) = q.aggregates.first() else {
        c.notes.push(Note::at(q.pos, "the query has no COUNT, SUM, MIN or MAX: the base's aggregate is kept"));
        return;
    };
    w.aggregate = match first.v.as_str() {
        "SUM" => AggregateKind::Sum,
        "MIN" => AggregateKind::Min,
        "MAX" => AggregateKind::Max,
        _ => AggregateKind::Count,
    };
    for a in &q.aggregates[1..] {
        c.notes.push(Note::at(a.pos, format!("{} is read but not modelled: the playground computes one aggregate ({})", a.v, first.v)));
    }
}

/// `GROUP BY window_start, window_end[, key]`: both bounds are required; without a key Flink
/// aggregates globally, with parallelism 1.
fn group_by(c: &mut Ctx, q: &Query, w: &mut WindowOperatorSpec) -> Result<(), SqlError> {
    let has = |n: &str| q.group_by.iter().any(|g| g.v.eq_ignore_ascii_case(n));
    if !has("window_start") || !has("window_end") {
        return Err(SqlError::at(
            q.pos,
            "a window aggregation groups by window_start and window_end (GROUP BY window_start, window_end[, key])",
        ));
    }
    let keyed = q.group_by.iter().any(|g| !WINDOW_COLUMNS.iter().any(|n| g.v.eq_ignore_ascii_case(n)));
    if !keyed {
        w.parallelism = 1;
        c.notes.push(Note::at(q.pos, "no key in GROUP BY: Flink aggregates globally with parallelism 1; the playground keeps one row per key (their sum is Flink's row)"));
    }
    Ok(())
}

/// A SQL window aggregation: no allowed lateness, side output or trigger (each named if the
/// base had it).
fn sql_window(c: &mut Ctx, w: &mut WindowOperatorSpec, pos: Pos) {
    if w.allowed_lateness_ms != 0 {
        c.notes.push(Note::at(
            pos,
            format!("the base's allowed lateness ({} ms) is gone: a SQL window aggregation has none", w.allowed_lateness_ms),
        ));
        w.allowed_lateness_ms = 0;
    }
    if w.late_side_output {
        c.notes.push(Note::at(pos, "the base's late side output is gone: a SQL window aggregation drops late rows"));
        w.late_side_output = false;
    }
    if w.trigger != TriggerSpec::EventTime {
        c.notes.push(Note::at(pos, "the base's trigger is gone: a SQL window aggregation fires once, at the window's end"));
        w.trigger = TriggerSpec::EventTime;
    }
    w.api = WindowApi::Sql;
}
