//! The recursive-descent reader: statements (`SET`, `CREATE TABLE`, `CREATE VIEW … UNION ALL`,
//! a window TVF query, with or without `INSERT INTO`) into a small syntax tree. It checks the
//! shape, not the meaning (`apply` does); a statement it does not model is kept as
//! [`Statement::Other`] so that it can be named, never dropped.

use super::cursor::{text_of, At, Cursor};
use super::duration::{interval_ms, interval_unit_ms};
use super::query::{query, view, Query};
use super::token::{tokenize, Pos, Tok, Token};
use super::SqlError;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement {
    Set {
        key: At<String>,
        value: At<String>,
    },
    Table(TableDef),
    /// `CREATE VIEW v AS SELECT … FROM a UNION ALL SELECT … FROM b`: the tables it unions.
    View {
        name: At<String>,
        tables: Vec<At<String>>,
    },
    Query(Query),
    /// A statement read but not modelled, named by its opening words.
    Other(At<String>),
}

/// One `'key' = 'value'` of a `WITH` clause.
pub type Opt = (At<String>, At<String>);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableDef {
    pub name: At<String>,
    pub columns: Vec<Column>,
    pub watermark: Option<WatermarkDef>,
    pub options: Vec<Opt>,
    /// Clauses read but not modelled (a primary key, `PARTITIONED BY`, `LIKE`, …).
    pub extras: Vec<At<String>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Column {
    pub name: At<String>,
    pub kind: ColumnKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ColumnKind {
    /// A physical column of a type (`TIMESTAMP_LTZ(3)`, `BIGINT`).
    Physical(String),
    /// `METADATA [FROM 'key']`.
    Metadata(String),
    /// `AS TO_TIMESTAMP_LTZ(col, precision)`: the precision; `None` for another expression.
    Computed(Option<u32>),
}

/// `WATERMARK FOR column AS column [- INTERVAL 'n' UNIT]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WatermarkDef {
    pub column: At<String>,
    pub delay_ms: i64,
}

/// The statements of a script.
pub fn read(sql: &str) -> Result<Vec<Statement>, SqlError> {
    let mut c = Cursor::new(tokenize(sql)?, sql);
    let mut out = Vec::new();
    while !c.at_end() {
        if c.eat_punct(';') {
            continue;
        }
        out.push(statement(&mut c)?);
    }
    Ok(out)
}

/// Statements Flink knows that the playground names and skips.
const OTHER_STATEMENTS: [&str; 14] =
    ["RESET", "USE", "DROP", "ALTER", "SHOW", "EXPLAIN", "DESCRIBE", "DESC", "LOAD", "UNLOAD", "ADD", "BEGIN", "END", "EXECUTE"];

fn statement(c: &mut Cursor) -> Result<Statement, SqlError> {
    let pos = c.pos();
    if c.eat_kw("SET") {
        let key = c.string("a quoted key: SET 'key' = 'value'")?;
        c.expect_punct('=')?;
        let value = c.string("a quoted value: SET 'key' = 'value'")?;
        c.end_statement()?;
        return Ok(Statement::Set { key, value });
    }
    if c.is_kw("CREATE") {
        return create(c);
    }
    if c.is_kw("SELECT") || c.is_kw("INSERT") {
        return query(c).map(Statement::Query);
    }
    if OTHER_STATEMENTS.iter().any(|k| c.is_kw(k)) {
        return Ok(other(c, pos));
    }
    Err(c.expected("a statement (SET, CREATE TABLE, CREATE VIEW, SELECT or INSERT INTO)"))
}

/// A statement not modelled: its first words, then skipped to its `;`.
pub fn other(c: &mut Cursor, pos: Pos) -> Statement {
    let words: Vec<String> = (0..3).filter_map(|i| c.peek_at(i)).take_while(|t| !t.is_punct(';')).map(Token::text).collect();
    c.skip_statement();
    Statement::Other(At { v: words.join(" "), pos })
}

fn create(c: &mut Cursor) -> Result<Statement, SqlError> {
    let pos = c.expect_kw("CREATE")?;
    c.eat_kw("TEMPORARY");
    if c.eat_kw("TABLE") {
        return table(c).map(Statement::Table);
    }
    if c.eat_kw("VIEW") {
        return view(c, pos);
    }
    // CREATE FUNCTION, CATALOG, DATABASE …: named, not modelled.
    c.eat_kw("TEMPORARY");
    let mut s = other(c, pos);
    if let Statement::Other(o) = &mut s {
        o.v = format!("CREATE {}", o.v);
    }
    Ok(s)
}

fn table(c: &mut Cursor) -> Result<TableDef, SqlError> {
    if c.eat_kw("IF") {
        c.expect_kw("NOT")?;
        c.expect_kw("EXISTS")?;
    }
    let name = c.name("a table name")?;
    let mut t = TableDef { name, columns: Vec::new(), watermark: None, options: Vec::new(), extras: Vec::new() };
    c.expect_punct('(')?;
    loop {
        table_element(c, &mut t)?;
        if !c.eat_punct(',') {
            break;
        }
    }
    c.expect_punct(')')?;
    while !c.is_kw("WITH") && !c.is_punct(';') && !c.at_end() {
        // COMMENT '…', PARTITIONED BY (…), DISTRIBUTED BY …: named.
        let pos = c.pos();
        let toks = clause_before(c, "WITH");
        t.extras.push(At { v: text_of(&toks), pos });
    }
    if c.eat_kw("WITH") {
        t.options = options(c)?;
    }
    if c.is_kw("LIKE") {
        let pos = c.pos();
        let toks = clause_before(c, ";");
        t.extras.push(At { v: text_of(&toks), pos });
    }
    c.end_statement()?;
    Ok(t)
}

/// Tokens up to the keyword `stop`, a `;` or the end (balanced in parentheses).
fn clause_before(c: &mut Cursor, stop: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    while let Some(t) = c.peek() {
        if depth == 0 && (t.is_kw(stop) || t.is_punct(';')) {
            break;
        }
        if t.is_punct('(') {
            depth += 1;
        } else if t.is_punct(')') {
            depth = depth.saturating_sub(1);
        }
        out.push(c.next().expect("peeked"));
    }
    out
}

/// A column, the `WATERMARK` clause or a constraint.
fn table_element(c: &mut Cursor, t: &mut TableDef) -> Result<(), SqlError> {
    let pos = c.pos();
    if c.is_kw("WATERMARK") && c.peek_at(1).is_some_and(|n| n.is_kw("FOR")) {
        if t.watermark.is_some() {
            return Err(SqlError::at(pos, "a table has one WATERMARK clause"));
        }
        t.watermark = Some(watermark(c, &t.columns)?);
        return Ok(());
    }
    if c.is_kw("PRIMARY") || c.is_kw("CONSTRAINT") {
        let toks = c.item();
        t.extras.push(At { v: text_of(&toks), pos });
        return Ok(());
    }
    let name = c.name("a column name, WATERMARK FOR or PRIMARY KEY")?;
    let mut rest = c.item();
    // A type's commas inside `<…>` (`MAP<STRING, INT>`) do not end the column; a computed
    // column's `<` is a comparison.
    let typed = !rest.first().is_some_and(|t| t.is_kw("AS"));
    while typed && angle_depth(&rest) > 0 && c.is_punct(',') {
        rest.extend(c.next());
        rest.extend(c.item());
    }
    if typed && angle_depth(&rest) > 0 {
        let open = rest.iter().find(|t| t.is_punct('<')).map_or(name.pos, |t| t.pos);
        return Err(SqlError::at(open, format!("column {}'s type opens a < that is never closed", name.v)));
    }
    if rest.is_empty() {
        return Err(SqlError::at(c.pos(), format!("column {} needs a type (e.g. TIMESTAMP_LTZ(3)) or AS an expression", name.v)));
    }
    let kind = column_kind(&rest);
    if let ColumnKind::Physical(_) = kind {
        physical_type(&rest, &name.v)?;
    }
    t.columns.push(Column { name, kind });
    Ok(())
}

/// How many `<` of a type are still open.
fn angle_depth(toks: &[Token]) -> i32 {
    toks.iter().map(|t| i32::from(t.is_punct('<')) - i32::from(t.is_punct('>'))).sum()
}

/// Words that may follow a column's type name (and its `(…)` or `<…>`): the rest of a
/// two-word type (`DOUBLE PRECISION`, `INTERVAL DAY TO SECOND`, `INT ARRAY`), a time zone, a
/// constraint or a comment.
const AFTER_TYPE: &[&str] = &[
    "WITH",
    "WITHOUT",
    "NOT",
    "NULL",
    "COMMENT",
    "PRIMARY",
    "CONSTRAINT",
    "VIRTUAL",
    "ARRAY",
    "MULTISET",
    "PRECISION",
    "VARYING",
    "TO",
    "YEAR",
    "MONTH",
    "DAY",
    "HOUR",
    "MINUTE",
    "SECOND",
];

/// A physical column's type is one type name, then its arguments and the words above: the
/// playground reads no type further, but a word after a type name is a slip Flink's parser
/// rejects (`WATERMARK FRO ts AS …` read as a column `WATERMARK` of type `FRO`, and the job
/// lost its watermarks without a word).
fn physical_type(rest: &[Token], column: &str) -> Result<(), SqlError> {
    let mut i = 1;
    while let Some(first) = rest.get(i).filter(|t| t.is_punct('(') || t.is_punct('<')) {
        let (open, close) = if first.is_punct('(') { ('(', ')') } else { ('<', '>') };
        let mut depth = 0;
        while let Some(t) = rest.get(i) {
            depth += i32::from(t.is_punct(open)) - i32::from(t.is_punct(close));
            i += 1;
            if depth == 0 {
                break;
            }
        }
    }
    match rest.get(i) {
        Some(t) if !AFTER_TYPE.iter().any(|k| t.is_kw(k)) => {
            let hint = if column.eq_ignore_ascii_case("WATERMARK") { " (WATERMARK FOR column AS …?)" } else { "" };
            Err(SqlError::at(t.pos, format!("column {column} has type {}: {} cannot follow it{hint}", rest[0].text(), t.text())))
        }
        _ => Ok(()),
    }
}

fn column_kind(rest: &[Token]) -> ColumnKind {
    if rest[0].is_kw("AS") {
        let ltz = rest.len() == 7 && rest[1].is_kw("TO_TIMESTAMP_LTZ") && rest[2].is_punct('(') && rest[4].is_punct(',');
        let precision = match (&rest.get(5).map(|t| &t.tok), ltz) {
            (Some(Tok::Number(n)), true) => n.parse().ok(),
            _ => None,
        };
        return ColumnKind::Computed(precision);
    }
    if let Some(i) = rest.iter().position(|t| t.is_kw("METADATA")) {
        let key = match (rest.get(i + 1), rest.get(i + 2).map(|t| &t.tok)) {
            (Some(f), Some(Tok::Str(k))) if f.is_kw("FROM") => k.clone(),
            _ => String::new(),
        };
        return ColumnKind::Metadata(key);
    }
    ColumnKind::Physical(text_of(rest))
}

/// `columns`: the table's, declared before the clause.
fn watermark(c: &mut Cursor, columns: &[Column]) -> Result<WatermarkDef, SqlError> {
    c.expect_kw("WATERMARK")?;
    c.expect_kw("FOR")?;
    let column = c.name("the rowtime column")?;
    c.expect_kw("AS")?;
    let of = c.name("the watermark expression: column or column - INTERVAL '…' SECOND")?;
    let known = |n: &str| columns.iter().any(|k| k.name.v.eq_ignore_ascii_case(n));
    if of.v != column.v && !known(&column.v) && known(&of.v) {
        // A typo in the FOR column: "the expression must use tss" steered toward the typo.
        return Err(SqlError::at(
            column.pos,
            format!("the table has no column {} (WATERMARK FOR names a column of the table: {}?)", column.v, of.v),
        ));
    }
    if of.v != column.v {
        return Err(SqlError::at(
            of.pos,
            format!("the playground reads WATERMARK FOR {0} AS {0} [- INTERVAL …]: the expression must use {0}", column.v),
        ));
    }
    let delay_ms = if c.eat_punct('-') { interval(c)?.v } else { 0 };
    if !c.is_punct(',') && !c.is_punct(')') {
        return Err(SqlError::at(
            c.pos(),
            format!("the playground reads only {0} or {0} - INTERVAL '…' UNIT as a watermark expression", column.v),
        ));
    }
    Ok(WatermarkDef { column, delay_ms })
}

/// `INTERVAL 'n' UNIT` in ms.
pub fn interval(c: &mut Cursor) -> Result<At<i64>, SqlError> {
    let pos = c.expect_kw("INTERVAL")?;
    let value = c.string("the interval's value in quotes: INTERVAL '5' SECOND")?;
    let unit = c.name("an interval unit (SECOND, MINUTE, HOUR, DAY)")?;
    let precision = interval_precision(c)?;
    if c.is_kw("TO") {
        return Err(SqlError::at(c.pos(), "a compound interval (… TO …) is not read: write one unit, e.g. INTERVAL '90' SECOND"));
    }
    let per = interval_unit_ms(&unit.v).map_err(|m| SqlError::at(unit.pos, m))?;
    let ms = interval_ms(&value.v, per).map_err(|m| SqlError::at(value.pos, m))?;
    // Flink's validation: the digits before the point fit the leading precision (2 by default).
    let digits = value.v.trim().split('.').next().map_or(0, str::len);
    if digits > precision.v {
        let fix = if digits <= MAX_INTERVAL_PRECISION { format!(": write {}({digits})", unit.v) } else { String::new() };
        return Err(SqlError::at(
            precision.pos,
            format!("'{}' has {digits} digits, more than the interval's precision {} allows (Flink rejects it){fix}", value.v, precision.v),
        ));
    }
    Ok(At { v: ms, pos })
}

/// Flink's largest leading precision of an interval.
const MAX_INTERVAL_PRECISION: usize = 6;

/// The leading precision after an interval's unit (`SECOND(3)`), 2 (Flink's default) without one.
fn interval_precision(c: &mut Cursor) -> Result<At<usize>, SqlError> {
    let pos = c.pos();
    if !c.eat_punct('(') {
        return Ok(At { v: 2, pos });
    }
    let n = match c.peek().map(|t| &t.tok) {
        Some(Tok::Number(n)) => n.parse::<usize>().ok().filter(|n| (1..=MAX_INTERVAL_PRECISION).contains(n)),
        _ => None,
    };
    let Some(n) = n else {
        return Err(c.expected("the interval's precision, 1 to 6, e.g. SECOND(3)"));
    };
    let pos = c.pos();
    c.next();
    c.expect_punct(')')?;
    Ok(At { v: n, pos })
}

/// `( 'key' = 'value', … )`.
fn options(c: &mut Cursor) -> Result<Vec<Opt>, SqlError> {
    c.expect_punct('(')?;
    let mut out = Vec::new();
    if c.eat_punct(')') {
        return Ok(out);
    }
    loop {
        let k = c.string("an option key in quotes: 'connector' = 'kafka'")?;
        c.expect_punct('=')?;
        let v = c.string("an option value in quotes")?;
        out.push((k, v));
        if !c.eat_punct(',') {
            break;
        }
    }
    c.expect_punct(')')?;
    Ok(out)
}
