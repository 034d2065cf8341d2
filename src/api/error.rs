//! API errors are the engine's [`InputError`]s: a kind, the argument or field path, and a
//! message. Here they become real JS errors — `Error`, `RangeError` or `TypeError` by kind —
//! whose message reads `method: path: message` and which carry the path as `err.path`.

pub use crate::engine::error::{join_path, ErrorKind, InputError as ApiError};
use wasm_bindgen::JsValue;

pub type ApiResult<T> = Result<T, ApiError>;

/// `method: path: message`, on one line.
pub fn text(e: &ApiError, method: &str) -> String {
    if method.is_empty() {
        e.to_string()
    } else {
        format!("{method}: {e}")
    }
}

/// The JS error object to throw for `e`, raised by `method`.
pub trait IntoJs {
    fn into_js(self, method: &str) -> JsValue;
}

impl IntoJs for ApiError {
    fn into_js(self, method: &str) -> JsValue {
        let text = text(&self, method);
        let err: JsValue = match self.kind {
            ErrorKind::Invalid => js_sys::Error::new(&text).into(),
            ErrorKind::Range => js_sys::RangeError::new(&text).into(),
            ErrorKind::Type => js_sys::TypeError::new(&text).into(),
        };
        let _ = js_sys::Reflect::set(&err, &JsValue::from_str("path"), &JsValue::from_str(&self.path));
        err
    }
}
