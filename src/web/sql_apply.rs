//! What "Apply SQL" does to the running session, without the DOM (unit tested natively): the
//! pasted script read onto the scenario as it runs now (`engine::sql`), and where in the text a
//! line:column the reader reported is, for the SQL panel (`sql_panel`) to select it.
//!
//! The panel shows the SQL of the settings *now*, the user's live changes included; applied,
//! a script's settings hold from time zero. So the user's own live changes of what a script
//! sets (the watermark generator and bound, the idle timeout, the auto-watermark interval) are
//! not replayed after it: replayed, an old control change would undo the script at its time.
//! The scenario's scripted commands and the user's other actions replay as in any restart.

use crate::engine::command::{Command, Param};
use crate::engine::scenario::schema::{Scenario, TimedCommand};
use crate::engine::sql::{sql_to_scenario, Note, SqlError};

/// What applying a script gives.
#[derive(Debug)]
pub enum Applied {
    /// The scenario the script describes (different from the running one), and the notes.
    Changed(Box<Scenario>, Vec<Note>),
    /// The script describes the running scenario as it is: nothing to restart.
    Unchanged(Vec<Note>),
}

/// Whether `cmd` changes a setting a SQL script sets.
fn sets_what_sql_sets(cmd: &Command) -> bool {
    matches!(
        cmd,
        Command::SetParam { param: Param::Generator(_) | Param::BoundMs(_) | Param::IdleTimeoutMs(_) | Param::AutoWatermarkIntervalMs(_) }
    )
}

/// `sql` read onto `now` (the session as a scenario: the scenario's commands and the user's
/// `log` merged), the user's live changes of what SQL sets left out (see the module doc).
pub fn apply_sql(sql: &str, now: &Scenario, log: &[TimedCommand]) -> Result<Applied, SqlError> {
    let mut base = now.clone();
    for dropped in log.iter().filter(|c| sets_what_sql_sets(&c.command)) {
        if let Some(i) = base.commands.iter().position(|c| c == dropped) {
            base.commands.remove(i);
        }
    }
    let (sc, notes) = sql_to_scenario(sql, &base)?;
    Ok(if sc == *now { Applied::Unchanged(notes) } else { Applied::Changed(Box::new(sc), notes) })
}

/// The text range (UTF-16 offsets, as `setSelectionRange` counts) of the word or literal that
/// starts at `line`:`column` (1-based, columns in characters, as the reader counts them): at
/// least one character where there is one; the end of the line when the column is past it.
pub fn selection_at(text: &str, line: u32, column: u32) -> (u32, u32) {
    let utf16 = |s: &str| s.encode_utf16().count() as u32;
    let mut start = 0u32;
    let mut lines = text.split('\n');
    for _ in 1..line.max(1) {
        match lines.next() {
            Some(l) => start += utf16(l) + 1,
            None => return (utf16(text), utf16(text)),
        }
    }
    let this = lines.next().unwrap_or("");
    let skip = column.saturating_sub(1) as usize;
    let before: String = this.chars().take(skip).collect();
    let rest: String = this.chars().skip(skip).collect();
    let start = start + utf16(&before);
    (start, start + utf16(token_at(&rest)))
}

/// The token `rest` starts with: a quoted literal or name, a word, or one character.
fn token_at(rest: &str) -> &str {
    let mut chars = rest.char_indices();
    let Some((_, first)) = chars.next() else { return rest };
    let end = match first {
        '\'' | '`' | '"' => chars.find(|&(_, c)| c == first).map_or(rest.len(), |(i, c)| i + c.len_utf8()),
        c if c.is_alphanumeric() || c == '_' => {
            chars.find(|&(_, c)| !(c.is_alphanumeric() || c == '_' || c == '.')).map_or(rest.len(), |(i, _)| i)
        }
        c => c.len_utf8(),
    };
    &rest[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::{build, catalog};
    use crate::web::snippets;

    fn preset(id: &str) -> Scenario {
        build::parse(catalog::preset(id).unwrap().json).unwrap()
    }

    fn changed(r: Result<Applied, SqlError>) -> Scenario {
        match r {
            Ok(Applied::Changed(sc, _)) => *sc,
            other => panic!("expected a change, got {other:?}"),
        }
    }

    fn at(at_ms: i64, param: Param) -> TimedCommand {
        TimedCommand { at_ms, command: Command::SetParam { param } }
    }

    #[test]
    fn the_sql_of_the_scenario_applied_again_changes_nothing() {
        for id in ["seed-001-heartbeat", "sql-idle-reactivates"] {
            let s = preset(id);
            // Once: a DataStream job becomes the SQL job its SQL describes, settings kept.
            let t = changed(apply_sql(&snippets::sql(&s.job_config()), &s, &[]));
            // Only the note on DataStream's − 1 ms goes: the SQL job has none.
            let datastream_note = |sql: String| {
                sql.lines()
                    .filter(|l| !l.contains("generator emits the max timestamp") && !l.contains("(SQL has no - 1)"))
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            assert_eq!(snippets::sql(&t.job_config()), datastream_note(snippets::sql(&s.job_config())) + "\n", "{id}");
            // Twice: nothing to restart.
            assert!(matches!(apply_sql(&snippets::sql(&t.job_config()), &t, &[]), Ok(Applied::Unchanged(_))), "{id}");
        }
    }

    #[test]
    fn the_script_wins_over_the_users_earlier_control_changes_of_what_it_sets() {
        let mut now = preset("seed-001-heartbeat");
        let log = vec![at(10_000, Param::IdleTimeoutMs(Some(5_000))), at(12_000, Param::DropHeartbeats(true))];
        now.commands.extend(log.iter().cloned());
        let t = changed(apply_sql("SET 'table.exec.source.idle-timeout' = '60 s';", &now, &log));
        assert_eq!(t.source.watermark.idle_timeout_ms, Some(60_000));
        assert_eq!(t.commands, vec![log[1].clone()], "the idle-timeout change is not replayed; the other action is");
    }

    #[test]
    fn an_error_keeps_its_line_and_column() {
        let e = apply_sql(
            "SET 'parallelism.default' = '2';\nCREATE TABLE t (\n  ts TIMESTAMP(3)\n) WITH ('connector' = 'filesystem');",
            &preset("seed-001-heartbeat"),
            &[],
        )
        .unwrap_err();
        assert_eq!((e.line, e.column), (4, 23), "{e}");
    }

    #[test]
    fn a_line_and_column_select_the_token_there() {
        let text = "SET x;\nCREATE TABLE t WITH ('connector' = 'filesystem');";
        let (a, b) = selection_at(text, 2, 36);
        assert_eq!(&text[a as usize..b as usize], "'filesystem'");
        let (a, b) = selection_at(text, 1, 1);
        assert_eq!(&text[a as usize..b as usize], "SET");
        let (a, b) = selection_at(text, 1, 6);
        assert_eq!(&text[a as usize..b as usize], ";");
        assert_eq!(selection_at(text, 9, 1), (text.len() as u32, text.len() as u32), "past the end: the end");
        assert_eq!(selection_at("ab", 1, 9), (2, 2), "past the line's end: its end");
    }

    #[test]
    fn columns_count_characters_and_offsets_utf16_units() {
        // 'é' is one character and one UTF-16 unit, '😀' one character and two units.
        let text = "-- é😀\nSET 'x' = 'y';";
        assert_eq!(selection_at(text, 2, 5), (11, 14));
        assert_eq!(selection_at("😀 abc", 1, 3), (3, 6));
    }
}
