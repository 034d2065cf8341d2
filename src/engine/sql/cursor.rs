//! A cursor over the tokens for the recursive-descent reader: look at, take and expect tokens,
//! with errors that say what was expected and point at what was found (or at the end).

use super::token::{Pos, Tok, Token};
use super::SqlError;

/// A value and where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct At<T> {
    pub v: T,
    pub pos: Pos,
}

pub struct Cursor {
    toks: Vec<Token>,
    i: usize,
    /// Just past the last character: where "the script ends" errors point.
    end: Pos,
}

impl Cursor {
    pub fn new(toks: Vec<Token>, sql: &str) -> Self {
        let line = sql.split('\n').count() as u32;
        let column = sql.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u32 + 1;
        Cursor { toks, i: 0, end: Pos { line, column } }
    }

    pub fn peek(&self) -> Option<&Token> {
        self.toks.get(self.i)
    }

    pub fn peek_at(&self, ahead: usize) -> Option<&Token> {
        self.toks.get(self.i + ahead)
    }

    /// Where the next token starts (the end of the script if there is none).
    pub fn pos(&self) -> Pos {
        self.peek().map_or(self.end, |t| t.pos)
    }

    pub fn at_end(&self) -> bool {
        self.i >= self.toks.len()
    }

    pub fn next(&mut self) -> Option<Token> {
        let t = self.toks.get(self.i).cloned();
        self.i += usize::from(t.is_some());
        t
    }

    /// An error at the next token: "expected X, found Y".
    pub fn expected(&self, what: &str) -> SqlError {
        let found = self.peek().map_or("the end of the script".to_string(), |t| format!("{:?}", t.text()));
        SqlError::at(self.pos(), format!("expected {what}, found {found}{}", self.open_string_hint()))
    }

    /// A string read so far that runs over a line end is most often a quote missing: the error
    /// comes lines later, where the next quote closed it ("line 3, column 6: expected ';'").
    fn open_string_hint(&self) -> String {
        let read = &self.toks[..self.i.min(self.toks.len())];
        match read.iter().rev().find(|t| t.runs_over_a_line()) {
            Some(t) => format!(" (the string at line {}, column {} runs over a line end: a quote missing?)", t.pos.line, t.pos.column),
            None => String::new(),
        }
    }

    pub fn is_kw(&self, kw: &str) -> bool {
        self.peek().is_some_and(|t| t.is_kw(kw))
    }

    pub fn is_punct(&self, c: char) -> bool {
        self.peek().is_some_and(|t| t.is_punct(c))
    }

    /// Takes the keyword `kw` if it is next.
    pub fn eat_kw(&mut self, kw: &str) -> bool {
        let yes = self.is_kw(kw);
        self.i += usize::from(yes);
        yes
    }

    pub fn eat_punct(&mut self, c: char) -> bool {
        let yes = self.is_punct(c);
        self.i += usize::from(yes);
        yes
    }

    pub fn expect_kw(&mut self, kw: &str) -> Result<Pos, SqlError> {
        let pos = self.pos();
        if self.eat_kw(kw) {
            Ok(pos)
        } else {
            Err(self.expected(kw))
        }
    }

    pub fn expect_punct(&mut self, c: char) -> Result<Pos, SqlError> {
        let pos = self.pos();
        if self.eat_punct(c) {
            Ok(pos)
        } else {
            Err(self.expected(&format!("'{c}'")))
        }
    }

    /// A name: a word or a `` `quoted` `` name; `a.b.c` keeps the last part (catalogs and
    /// databases do not matter here).
    pub fn name(&mut self, what: &str) -> Result<At<String>, SqlError> {
        let mut n = self.name_part(what)?;
        while self.is_punct('.') {
            self.next();
            n = self.name_part(what)?;
        }
        Ok(n)
    }

    fn name_part(&mut self, what: &str) -> Result<At<String>, SqlError> {
        match self.peek().map(|t| (&t.tok, t.pos)) {
            Some((Tok::Word(w) | Tok::Quoted(w), pos)) => {
                let v = w.clone();
                self.next();
                Ok(At { v, pos })
            }
            _ => Err(self.expected(what)),
        }
    }

    /// A `'string'` literal.
    pub fn string(&mut self, what: &str) -> Result<At<String>, SqlError> {
        match self.peek().map(|t| (&t.tok, t.pos)) {
            Some((Tok::Str(s), pos)) => {
                let v = s.clone();
                self.next();
                Ok(At { v, pos })
            }
            _ => Err(self.expected(what)),
        }
    }

    /// Takes tokens up to a `,` or `)` at this nesting depth, or a `;` (none of them taken):
    /// one item of a list, balanced in parentheses.
    pub fn item(&mut self) -> Vec<Token> {
        let mut out = Vec::new();
        let mut depth = 0usize;
        while let Some(t) = self.peek() {
            if depth == 0 && (t.is_punct(',') || t.is_punct(')') || t.is_punct(';')) {
                break;
            }
            if t.is_punct('(') {
                depth += 1;
            } else if t.is_punct(')') {
                depth -= 1;
            }
            out.push(self.next().expect("peeked"));
        }
        out
    }

    /// Skips to the end of the statement (past its `;`).
    pub fn skip_statement(&mut self) {
        while let Some(t) = self.next() {
            if t.is_punct(';') {
                break;
            }
        }
    }

    /// The end of a statement: a `;` or the end of the script.
    pub fn end_statement(&mut self) -> Result<(), SqlError> {
        if self.eat_punct(';') || self.at_end() {
            Ok(())
        } else {
            Err(self.expected("';' (the end of the statement)"))
        }
    }
}

/// The tokens as text, for naming a clause in a note.
pub fn text_of(toks: &[Token]) -> String {
    let mut s = String::new();
    for (i, t) in toks.iter().enumerate() {
        let tight =
            i == 0 || t.is_punct(',') || t.is_punct(')') || t.is_punct('.') || toks[i - 1].is_punct('(') || toks[i - 1].is_punct('.');
        let tight = tight || (t.is_punct('(') && matches!(toks[i - 1].tok, Tok::Word(_)));
        if !tight {
            s.push(' ');
        }
        s += &t.text();
    }
    s
}
