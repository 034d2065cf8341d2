//! The query side of the reader: `[INSERT INTO sink] SELECT … FROM TABLE(TUMBLE | HOP | CUMULATE
//! | SESSION(TABLE t [PARTITION BY k], DESCRIPTOR(ts), INTERVAL …[, …])) [WHERE …] GROUP BY
//! window_start, window_end[, key]`, and the view `CREATE VIEW v AS SELECT … FROM a UNION ALL
//! SELECT … FROM b` a union of two tables is written as.

use super::cursor::{text_of, At, Cursor};
use super::reader::{interval, other, Statement};
use super::token::{Pos, Tok, Token};
use super::SqlError;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    pub pos: Pos,
    /// `INSERT INTO sink`.
    pub sink: Option<At<String>>,
    /// `COUNT(*)`, `SUM(col)` …: the function's name in capitals.
    pub aggregates: Vec<At<String>>,
    /// `None`: the query is not a window TVF aggregation.
    pub tvf: Option<Tvf>,
    pub group_by: Vec<At<String>>,
    /// The last `GROUP BY` item is the head of an expression, not a column: `UPPER(k)`,
    /// `GROUPING SETS (…)`, `ROLLUP(k)` (the rest is among the extras).
    pub group_by_expr: bool,
    /// Clauses read but not modelled (`WHERE …`, `HAVING …`, other select items).
    pub extras: Vec<At<String>>,
}

/// `KIND(TABLE table [PARTITION BY key], DESCRIPTOR(time_column), intervals…)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tvf {
    pub kind: At<String>,
    pub table: At<String>,
    pub partition_by: Option<At<String>>,
    pub descriptor: At<String>,
    pub intervals: Vec<At<i64>>,
}

const AGGREGATES: [&str; 4] = ["COUNT", "SUM", "MIN", "MAX"];

pub fn query(c: &mut Cursor) -> Result<Query, SqlError> {
    let pos = c.pos();
    let mut q =
        Query { pos, sink: None, aggregates: Vec::new(), tvf: None, group_by: Vec::new(), group_by_expr: false, extras: Vec::new() };
    if c.eat_kw("INSERT") {
        if !c.eat_kw("INTO") {
            c.expect_kw("OVERWRITE")?;
        }
        q.sink = Some(c.name("the sink table")?);
    }
    c.expect_kw("SELECT")?;
    select_items(c, &mut q)?;
    c.expect_kw("FROM")?;
    if !(c.is_kw("TABLE") && c.peek_at(1).is_some_and(|t| t.is_punct('('))) {
        c.skip_statement();
        return Ok(q);
    }
    q.tvf = Some(tvf(c)?);
    if c.is_kw("AS") || matches!(c.peek().map(|t| &t.tok), Some(Tok::Word(w)) if !is_clause(w)) {
        c.eat_kw("AS");
        c.name("an alias")?;
    }
    clauses(c, &mut q)?;
    c.end_statement()?;
    Ok(q)
}

fn is_clause(w: &str) -> bool {
    ["WHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "WINDOW", "QUALIFY"].iter().any(|k| w.eq_ignore_ascii_case(k))
}

/// Tokens of one select item: up to a `,` or `FROM` at this depth.
fn select_item(c: &mut Cursor) -> Vec<Token> {
    let (mut out, mut depth) = (Vec::new(), 0usize);
    while let Some(t) = c.peek() {
        if depth == 0 && (t.is_punct(',') || t.is_kw("FROM") || t.is_punct(';')) {
            break;
        }
        depth = if t.is_punct('(') {
            depth + 1
        } else if t.is_punct(')') {
            depth.saturating_sub(1)
        } else {
            depth
        };
        out.push(c.next().expect("peeked"));
    }
    out
}

fn select_items(c: &mut Cursor, q: &mut Query) -> Result<(), SqlError> {
    loop {
        let pos = c.pos();
        let item = select_item(c);
        if item.is_empty() {
            return Err(c.expected("a select item"));
        }
        let func = match &item[0].tok {
            Tok::Word(w) if item.get(1).is_some_and(|t| t.is_punct('(')) => Some(w.to_ascii_uppercase()),
            _ => None,
        };
        let plain = item.iter().all(|t| matches!(t.tok, Tok::Word(_) | Tok::Quoted(_) | Tok::Punct('.')));
        match func {
            Some(f) if AGGREGATES.contains(&f.as_str()) => q.aggregates.push(At { v: f, pos }),
            Some(_) => q.extras.push(At { v: text_of(&item), pos }),
            None if plain || item.iter().any(|t| t.is_kw("AS")) && item.len() <= 5 => {}
            None => q.extras.push(At { v: text_of(&item), pos }),
        }
        if !c.eat_punct(',') {
            return Ok(());
        }
    }
}

fn tvf(c: &mut Cursor) -> Result<Tvf, SqlError> {
    c.expect_kw("TABLE")?;
    c.expect_punct('(')?;
    let kind = c.name("a window function: TUMBLE, HOP, CUMULATE or SESSION")?;
    let kind = At { v: kind.v.to_ascii_uppercase(), pos: kind.pos };
    if !["TUMBLE", "HOP", "CUMULATE", "SESSION"].contains(&kind.v.as_str()) {
        return Err(SqlError::at(kind.pos, format!("{} is not a window TVF: TUMBLE, HOP, CUMULATE or SESSION", kind.v)));
    }
    c.expect_punct('(')?;
    c.expect_kw("TABLE")?;
    let table = c.name("the table the window reads")?;
    let partition_by = if c.eat_kw("PARTITION") {
        c.expect_kw("BY")?;
        Some(c.name("the partition key")?)
    } else {
        None
    };
    c.expect_punct(',')?;
    c.expect_kw("DESCRIPTOR")?;
    c.expect_punct('(')?;
    let descriptor = c.name("the time column")?;
    c.expect_punct(')')?;
    let mut intervals = Vec::new();
    while c.eat_punct(',') {
        intervals.push(interval(c)?);
    }
    c.expect_punct(')')?;
    c.expect_punct(')')?;
    Ok(Tvf { kind, table, partition_by, descriptor, intervals })
}

/// `WHERE …` (named), `GROUP BY …`, then anything else (named).
fn clauses(c: &mut Cursor, q: &mut Query) -> Result<(), SqlError> {
    while !c.at_end() && !c.is_punct(';') {
        let pos = c.pos();
        if c.eat_kw("GROUP") {
            c.expect_kw("BY")?;
            loop {
                q.group_by.push(c.name("a GROUP BY column")?);
                if !c.eat_punct(',') {
                    break;
                }
            }
            q.group_by_expr = c.peek().is_some_and(|t| !t.is_punct(';') && !matches!(&t.tok, Tok::Word(w) if is_clause(w)));
            continue;
        }
        let mut toks = vec![c.next().expect("not at the end")];
        while c.peek().is_some_and(|t| !t.is_punct(';') && !t.is_kw("GROUP") && !matches!(&t.tok, Tok::Word(w) if is_clause(w))) {
            toks.push(c.next().expect("peeked"));
        }
        q.extras.push(At { v: text_of(&toks), pos });
    }
    Ok(())
}

/// `CREATE VIEW name AS SELECT … FROM a UNION ALL SELECT … FROM b`; another view is named
/// and not modelled.
pub fn view(c: &mut Cursor, pos: Pos) -> Result<Statement, SqlError> {
    let start = c.pos();
    let name = c.name("a view name")?;
    c.expect_kw("AS")?;
    let mut tables = Vec::new();
    loop {
        if !c.eat_kw("SELECT") {
            break;
        }
        select_item_list(c);
        if !c.eat_kw("FROM") {
            break;
        }
        tables.push(c.name("a table")?);
        if !(c.eat_kw("UNION") && c.eat_kw("ALL")) {
            break;
        }
    }
    if tables.len() >= 2 && (c.is_punct(';') || c.at_end()) {
        c.end_statement()?;
        return Ok(Statement::View { name, tables });
    }
    let mut s = other(c, start);
    if let Statement::Other(o) = &mut s {
        *o = At { v: format!("CREATE VIEW {} (not a UNION ALL of two tables)", name.v), pos };
    }
    Ok(s)
}

fn select_item_list(c: &mut Cursor) {
    while !c.is_kw("FROM") && !c.is_punct(';') && !c.at_end() {
        select_item(c);
        c.eat_punct(',');
    }
}
