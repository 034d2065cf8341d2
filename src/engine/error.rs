//! Typed errors for scenario and command input. Each names the field path that is wrong.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// Where the bad value is, e.g. `window.size_ms` or `commands[3].partition`.
    pub path: String,
    pub message: String,
}

impl InputError {
    pub fn new(path: impl Into<String>, message: impl Into<String>) -> Self {
        InputError { path: path.into(), message: message.into() }
    }

    /// The same error, one level deeper in a document (`prefix.path`).
    pub fn within(self, prefix: &str) -> Self {
        let path = if self.path.is_empty() { prefix.to_string() } else { format!("{prefix}.{}", self.path) };
        InputError { path, message: self.message }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for InputError {}
