//! SQL in: a Flink SQL script (`SET`, `CREATE TABLE … WATERMARK FOR … WITH (…)`, a window TVF
//! query) applied onto a scenario (`docs/SQL.md`). The reader is hand-written for exactly this
//! subset (`token` → `cursor` → `reader`/`query`, no SQL crate reads Flink's `WATERMARK FOR`);
//! `settings` and `apply` give the statements their Flink meaning on the scenario's fields.
//!
//! What the script does not say stays the base scenario's (partitions, producers, commands, and
//! any setting it leaves out); every clause read but not modelled becomes a [`Note`] with its
//! line and column, and what is wrong an [`SqlError`] with its line and column. The snippet
//! `web::snippets::sql` (`engine::export::sql_script`) writes a scenario's settings in this subset: reading it back onto the
//! same scenario gives those settings again (`tests/sql_round_trip.rs`).

mod apply;
mod cursor;
mod duration;
mod origin;
mod query;
mod reader;
mod settings;
mod token;

#[cfg(test)]
mod tests;

pub use token::Pos;

use crate::engine::error::InputError;
use crate::engine::scenario::schema::Scenario;
use serde::Serialize;
use std::fmt;

/// A clause read but not modelled (or a choice the script could not make), where it was written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Note {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl Note {
    pub fn at(pos: Pos, message: impl Into<String>) -> Self {
        Note { line: pos.line, column: pos.column, message: message.into() }
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, self.message)
    }
}

/// What is wrong with the script, where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SqlError {
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl SqlError {
    pub fn at(pos: Pos, message: impl Into<String>) -> Self {
        SqlError { line: pos.line, column: pos.column, message: message.into() }
    }

    /// As an input error whose path is `sql:LINE:COLUMN` (the JS API's `err.path`).
    pub fn into_input_error(self) -> InputError {
        InputError::invalid(format!("sql:{}:{}", self.line, self.column), self.message)
    }
}

impl fmt::Display for SqlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: {}", self.line, self.column, crate::engine::error::one_line(&self.message))
    }
}

/// The scenario `sql` describes, built on `base`, and the notes on what was read but not
/// modelled. The result passes the scenario's validation.
pub fn sql_to_scenario(sql: &str, base: &Scenario) -> Result<(Scenario, Vec<Note>), SqlError> {
    let statements = reader::read(sql)?;
    // Else the base came back unchanged, which reads as "applied" (the CLI, the API, the page).
    if statements.is_empty() {
        return Err(SqlError::at(Pos { line: 1, column: 1 }, "the SQL script is empty"));
    }
    apply::apply(&statements, base)
}
