//! API errors: a kind (`Error`, `RangeError`, `TypeError`), the argument or field path, and a
//! message. They become real JS errors whose message reads `method: path: message` and which
//! carry the path as `err.path`.

use crate::engine::error::InputError;
use wasm_bindgen::JsValue;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// `Error`: a malformed document, an unknown field, a state that forbids the call.
    Error,
    /// `RangeError`: a value out of its allowed range (unknown partition, negative interval, NaN).
    Range,
    /// `TypeError`: a value of the wrong type.
    Type,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    pub kind: ErrorKind,
    /// The argument or field, e.g. `partition`, `records[2].ts`, `scenario.window.assigner.size_ms`.
    pub path: String,
    pub message: String,
}

pub type ApiResult<T> = Result<T, ApiError>;

/// For the playground UI, which shows errors as `path: message` text.
impl From<ApiError> for InputError {
    fn from(e: ApiError) -> Self {
        InputError::new(e.path, e.message)
    }
}

impl ApiError {
    pub fn new(kind: ErrorKind, path: impl Into<String>, message: impl Into<String>) -> Self {
        ApiError { kind, path: path.into(), message: message.into() }
    }
    pub fn error(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Error, path, message)
    }
    pub fn range(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Range, path, message)
    }
    pub fn type_(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Type, path, message)
    }

    /// An engine validation error (a value outside what Flink or the engine accepts).
    pub fn input(e: InputError) -> Self {
        Self::range(e.path, e.message)
    }

    /// A deserialization error from serde: wrong types are `TypeError`s, the rest (unknown
    /// fields, unknown variants, missing fields) plain `Error`s.
    pub fn serde(path: impl Into<String>, message: impl Into<String>) -> Self {
        let message = message.into();
        let kind = if message.starts_with("invalid type") {
            ErrorKind::Type
        } else if message.starts_with("invalid value") || message.starts_with("invalid length") {
            ErrorKind::Range
        } else {
            ErrorKind::Error
        };
        Self::new(kind, path, message)
    }

    /// The same error one level deeper (`prefix.path`, or `prefix[0]` for an index path).
    pub fn within(mut self, prefix: &str) -> Self {
        self.path = join_path(prefix, &self.path);
        self
    }

    /// `method: path: message`.
    pub fn text(&self, method: &str) -> String {
        match (method.is_empty(), self.path.is_empty()) {
            (true, true) => self.message.clone(),
            (true, false) => format!("{}: {}", self.path, self.message),
            (false, true) => format!("{method}: {}", self.message),
            (false, false) => format!("{method}: {}: {}", self.path, self.message),
        }
    }

    /// The JS error object to throw: `Error`, `RangeError` or `TypeError`, with `path` set.
    pub fn into_js(self, method: &str) -> JsValue {
        let text = self.text(method);
        let err: JsValue = match self.kind {
            ErrorKind::Error => js_sys::Error::new(&text).into(),
            ErrorKind::Range => js_sys::RangeError::new(&text).into(),
            ErrorKind::Type => js_sys::TypeError::new(&text).into(),
        };
        let _ = js_sys::Reflect::set(&err, &JsValue::from_str("path"), &JsValue::from_str(&self.path));
        err
    }
}

impl From<InputError> for ApiError {
    fn from(e: InputError) -> Self {
        ApiError::input(e)
    }
}

/// Joins a prefix and a sub-path: `a` + `b.c` = `a.b.c`, `a` + `[0].b` = `a[0].b`, `a` + `` = `a`.
pub fn join_path(prefix: &str, path: &str) -> String {
    if prefix.is_empty() {
        path.to_string()
    } else if path.is_empty() || path == "." {
        prefix.to_string()
    } else if path.starts_with('[') {
        format!("{prefix}{path}")
    } else {
        format!("{prefix}.{path}")
    }
}
