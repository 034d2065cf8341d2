//! The tokenizer of the SQL reader: words, `` `quoted` `` names, `'string'` literals (with `''`
//! for a quote), numbers and punctuation, each with the line and column it starts at (1-based,
//! columns in characters). Comments (`-- …`, `/* … */`) are skipped; anything else is an error
//! at its position, so a stray character is never silently dropped.

use super::SqlError;

/// Where a token starts: line and column, both from 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A bare word: a keyword or a name (compared case-insensitively as keywords).
    Word(String),
    /// A `` `back-quoted` `` name.
    Quoted(String),
    /// A `'string'` literal, unescaped.
    Str(String),
    /// A number as written (`8`, `0.5`).
    Number(String),
    /// One punctuation character: `( ) , ; = - + * . / < > !` and the like.
    Punct(char),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    pub tok: Tok,
    pub pos: Pos,
}

impl Token {
    /// Whether this is the keyword `kw` (case-insensitive).
    pub fn is_kw(&self, kw: &str) -> bool {
        matches!(&self.tok, Tok::Word(w) if w.eq_ignore_ascii_case(kw))
    }

    pub fn is_punct(&self, c: char) -> bool {
        self.tok == Tok::Punct(c)
    }

    /// A string that runs over a line end: most often a quote missing, the string running on
    /// to the next one.
    pub fn runs_over_a_line(&self) -> bool {
        matches!(&self.tok, Tok::Str(s) if s.contains('\n'))
    }

    /// The token as the user wrote it, for messages.
    pub fn text(&self) -> String {
        match &self.tok {
            Tok::Word(w) | Tok::Number(w) => w.clone(),
            Tok::Quoted(q) => format!("`{q}`"),
            Tok::Str(s) => format!("'{s}'"),
            Tok::Punct(c) => c.to_string(),
        }
    }
}

/// A cursor over the characters that keeps the line and column.
struct Chars<'a> {
    it: std::iter::Peekable<std::str::Chars<'a>>,
    pos: Pos,
}

impl Chars<'_> {
    fn peek(&mut self) -> Option<char> {
        self.it.peek().copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.it.next()?;
        if c == '\n' {
            self.pos = Pos { line: self.pos.line + 1, column: 1 };
        } else {
            self.pos.column += 1;
        }
        Some(c)
    }

    fn take_while(&mut self, out: &mut String, keep: impl Fn(char) -> bool) {
        while let Some(c) = self.peek().filter(|&c| keep(c)) {
            out.push(c);
            self.bump();
        }
    }
}

/// The tokens of `sql`, or the first character that cannot start one.
pub fn tokenize(sql: &str) -> Result<Vec<Token>, SqlError> {
    let mut cs = Chars { it: sql.chars().peekable(), pos: Pos { line: 1, column: 1 } };
    let mut out = Vec::new();
    while let Some(c) = cs.peek() {
        let pos = cs.pos;
        if c.is_whitespace() {
            cs.bump();
            continue;
        }
        let tok = match c {
            '-' if lookahead(&cs, "--") => {
                skip_line(&mut cs);
                continue;
            }
            '/' if lookahead(&cs, "/*") => {
                skip_block(&mut cs, pos)?;
                continue;
            }
            '\'' => match delimited(&mut cs, '\'', pos, "string") {
                Ok(s) => Tok::Str(s),
                Err(e) => return Err(first_string_over_a_line(&out).unwrap_or(e)),
            },
            '`' => Tok::Quoted(delimited(&mut cs, '`', pos, "quoted name")?),
            c if c.is_ascii_digit() => {
                let mut n = String::new();
                cs.take_while(&mut n, |c| c.is_ascii_digit() || c == '.');
                Tok::Number(n)
            }
            c if c.is_alphabetic() || c == '_' => {
                let mut w = String::new();
                cs.take_while(&mut w, |c| c.is_alphanumeric() || c == '_' || c == '$');
                Tok::Word(w)
            }
            c if "(),;=-+*./<>!%|:[]{}".contains(c) => {
                cs.bump();
                Tok::Punct(c)
            }
            c => return Err(SqlError::at(pos, format!("unexpected character {c:?}"))),
        };
        out.push(Token { tok, pos });
    }
    Ok(out)
}

/// Before a string that is never closed, the first one that runs over a line end: most often
/// where the quote is missing (the never-closed one only took its closing quote).
fn first_string_over_a_line(read: &[Token]) -> Option<SqlError> {
    let t = read.iter().find(|t| t.runs_over_a_line())?;
    Some(SqlError::at(t.pos, "this string runs over a line end, and a later one is never closed: a ' missing here?"))
}

/// Whether the next characters are `s` (without consuming them).
fn lookahead(cs: &Chars, s: &str) -> bool {
    let mut it = cs.it.clone();
    s.chars().all(|c| it.next() == Some(c))
}

fn skip_line(cs: &mut Chars) {
    while let Some(c) = cs.bump() {
        if c == '\n' {
            break;
        }
    }
}

fn skip_block(cs: &mut Chars, start: Pos) -> Result<(), SqlError> {
    cs.bump();
    cs.bump();
    while cs.peek().is_some() {
        if lookahead(cs, "*/") {
            cs.bump();
            cs.bump();
            return Ok(());
        }
        cs.bump();
    }
    Err(SqlError::at(start, "this /* comment is never closed"))
}

/// A `'…'` or `` `…` `` token's content, a doubled delimiter standing for one.
fn delimited(cs: &mut Chars, q: char, start: Pos, what: &str) -> Result<String, SqlError> {
    cs.bump();
    let mut s = String::new();
    loop {
        match cs.bump() {
            None => return Err(SqlError::at(start, format!("this {what} is never closed (a {q} is missing)"))),
            Some(c) if c == q && cs.peek() == Some(q) => {
                cs.bump();
                s.push(q);
            }
            Some(c) if c == q => return Ok(s),
            Some(c) => s.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_lines_and_columns_from_one() {
        let t = tokenize("SET 'a' = 'it''s';\n  -- a comment\n  `my tbl`(3)").unwrap();
        assert_eq!(t[0].pos, Pos { line: 1, column: 1 });
        assert_eq!(t[1].tok, Tok::Str("a".into()));
        assert_eq!(t[1].pos, Pos { line: 1, column: 5 });
        assert_eq!(t[3].tok, Tok::Str("it's".into()));
        assert_eq!(t[5].tok, Tok::Quoted("my tbl".into()));
        assert_eq!(t[5].pos, Pos { line: 3, column: 3 });
        assert_eq!(t[7].tok, Tok::Number("3".into()));
    }

    #[test]
    fn unclosed_strings_comments_and_stray_characters_are_errors_where_they_start() {
        assert_eq!(tokenize("SET 'a = 1").unwrap_err().to_string(), "line 1, column 5: this string is never closed (a ' is missing)");
        assert_eq!(tokenize("x /* y").unwrap_err().to_string(), "line 1, column 3: this /* comment is never closed");
        assert_eq!(tokenize("a\n  #").unwrap_err().to_string(), "line 2, column 3: unexpected character '#'");
    }
}
