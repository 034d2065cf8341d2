//! Values across the boundary.
//!
//! In: a JS value is walked into a `serde_json::Value` (numbers must be finite; integers must be
//! safe integers, |n| ≤ 2^53 − 1, or BigInts that fit 64 bits; functions and symbols are
//! rejected), then deserialized with `engine::value_path` (`error::from_value`), so every error
//! names its field.
//! Out: a `Serialize` value goes through `serde_json` and one `JSON.parse`, which is fast for
//! large answers and guarantees plain, JSON-compatible objects.

use super::error::{join_path, ApiError, ApiResult, ErrorKind};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};

pub use crate::engine::limits::MAX_SAFE;
const MAX_DEPTH: u32 = 64;

/// What a JS value is, in words, for error messages.
pub fn describe(v: &JsValue) -> String {
    if v.is_undefined() {
        "undefined".into()
    } else if v.is_null() {
        "null".into()
    } else if let Some(b) = v.as_bool() {
        format!("{b}")
    } else if let Some(n) = v.as_f64() {
        format!("the number {}", fmt_f64(n))
    } else if let Some(s) = v.as_string() {
        let short: String = s.chars().take(40).collect();
        format!("the string {short:?}")
    } else if v.is_bigint() {
        "a BigInt".into()
    } else if v.is_function() {
        "a function".into()
    } else if v.is_symbol() {
        "a symbol".into()
    } else if js_sys::Array::is_array(v) {
        "an array".into()
    } else {
        "an object".into()
    }
}

fn fmt_f64(n: f64) -> String {
    if n.is_nan() {
        "NaN".into()
    } else if n.is_infinite() {
        if n > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        }
    } else {
        format!("{n}")
    }
}

/// Walks a JS value into JSON. `undefined` gives `None` (an omitted field).
pub fn to_json(v: &JsValue, path: &str) -> ApiResult<Option<Value>> {
    walk(v, path, 0)
}

fn walk(v: &JsValue, path: &str, depth: u32) -> ApiResult<Option<Value>> {
    if depth > MAX_DEPTH {
        return Err(ApiError::new(path, "nested too deeply (a cycle?)"));
    }
    if v.is_undefined() {
        return Ok(None);
    }
    if v.is_null() {
        return Ok(Some(Value::Null));
    }
    if let Some(b) = v.as_bool() {
        return Ok(Some(Value::Bool(b)));
    }
    if let Some(n) = v.as_f64() {
        return number(n, path).map(Some);
    }
    if let Some(s) = v.as_string() {
        return Ok(Some(Value::String(s)));
    }
    if v.is_bigint() {
        return bigint(v, path).map(Some);
    }
    if v.is_function() || v.is_symbol() {
        return Err(ApiError::type_(path, format!("expected a JSON value, got {}", describe(v))));
    }
    if js_sys::Array::is_array(v) {
        let arr: &js_sys::Array = v.unchecked_ref();
        let n = arr.length();
        let mut out = Vec::with_capacity(n.min(1 << 16) as usize);
        for i in 0..n {
            let item = arr.get(i);
            out.push(walk(&item, &format!("{path}[{i}]"), depth + 1)?.unwrap_or(Value::Null));
        }
        return Ok(Some(Value::Array(out)));
    }
    if v.is_object() {
        let obj: &js_sys::Object = v.unchecked_ref();
        let keys = js_sys::Object::keys(obj);
        let mut map = serde_json::Map::new();
        for i in 0..keys.length() {
            let k = keys.get(i);
            let name = k.as_string().unwrap_or_default();
            let item = js_sys::Reflect::get(v, &k).map_err(|_| ApiError::type_(join_path(path, &name), "could not be read"))?;
            if let Some(val) = walk(&item, &join_path(path, &name), depth + 1)? {
                map.insert(name, val);
            }
        }
        return Ok(Some(Value::Object(map)));
    }
    Err(ApiError::type_(path, format!("expected a JSON value, got {}", describe(v))))
}

fn number(n: f64, path: &str) -> ApiResult<Value> {
    if !n.is_finite() {
        return Err(ApiError::new(path, format!("{} is not a finite number", fmt_f64(n))));
    }
    if n.fract() == 0.0 {
        if n.abs() > MAX_SAFE as f64 {
            return Err(ApiError::new(
                path,
                format!("{} is beyond ±2^53 − 1 (Number.MAX_SAFE_INTEGER) and not exact (a field that takes 64 bits, such as a seed, takes a BigInt)", fmt_f64(n)),
            ));
        }
        return Ok(Value::from(n as i64));
    }
    // A fraction: serde reports it with the field's expected type.
    Ok(serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number))
}

fn bigint(v: &JsValue, path: &str) -> ApiResult<Value> {
    if let Ok(i) = i64::try_from(v.clone()) {
        return Ok(Value::from(i));
    }
    if let Ok(u) = u64::try_from(v.clone()) {
        return Ok(Value::from(u));
    }
    Err(ApiError::new(path, "the BigInt does not fit in 64 bits"))
}

/// Deserializes an already-walked JSON value; errors name `arg` + the field path.
pub fn from_json<T: DeserializeOwned>(json: Value, arg: &str) -> ApiResult<T> {
    crate::engine::error::from_value(json, arg)
}

/// A JS value as `T` (a scenario piece, a command, a record …).
pub fn from_js<T: DeserializeOwned>(v: &JsValue, arg: &str) -> ApiResult<T> {
    let json = to_json(v, arg)?.ok_or_else(|| ApiError::type_(arg, "is required"))?;
    from_json(json, arg)
}

/// A JS value → JSON text (for scenario objects, which the engine parses from text).
pub fn to_json_text(v: &JsValue, arg: &str) -> ApiResult<String> {
    let json = to_json(v, arg)?.ok_or_else(|| ApiError::type_(arg, "is required"))?;
    Ok(json.to_string())
}

/// An integer argument: a safe-integer number or a BigInt in ±(2^53 − 1).
pub fn int_arg(v: &JsValue, name: &str) -> ApiResult<i64> {
    if let Some(n) = v.as_f64() {
        if !n.is_finite() {
            return Err(ApiError::new(name, format!("{} is not a finite number", fmt_f64(n))));
        }
        if n.fract() != 0.0 {
            return Err(ApiError::new(name, format!("{} is not an integer (milliseconds and indexes are integers)", fmt_f64(n))));
        }
        if n.abs() > MAX_SAFE as f64 {
            return Err(ApiError::new(name, format!("{} is beyond ±2^53 − 1", fmt_f64(n))));
        }
        return Ok(n as i64);
    }
    if v.is_bigint() {
        return match i64::try_from(v.clone()) {
            Ok(i) if i.unsigned_abs() <= MAX_SAFE as u64 => Ok(i),
            _ => Err(ApiError::new(name, "the BigInt is beyond ±2^53 − 1")),
        };
    }
    Err(ApiError::type_(name, format!("expected an integer number or BigInt, got {}", describe(v))))
}

/// An optional integer argument (`undefined` or `null` gives `default`).
pub fn opt_int_arg(v: &JsValue, name: &str, default: i64) -> ApiResult<i64> {
    if v.is_undefined() || v.is_null() {
        Ok(default)
    } else {
        int_arg(v, name)
    }
}

/// A non-negative integer argument.
pub fn non_negative(v: &JsValue, name: &str) -> ApiResult<i64> {
    let n = int_arg(v, name)?;
    if n < 0 {
        return Err(ApiError::new(name, format!("must be >= 0, got {n}")));
    }
    Ok(n)
}

/// A partition or subtask index (range against the job is checked by the caller).
pub fn index_arg(v: &JsValue, name: &str) -> ApiResult<u32> {
    let n = int_arg(v, name).map_err(|e| {
        if e.kind == ErrorKind::Type {
            ApiError::type_(name, format!("expected an index (a non-negative integer), got {}", describe(v)))
        } else {
            e
        }
    })?;
    u32::try_from(n).map_err(|_| ApiError::new(name, format!("must be a non-negative integer below 2^32, got {n}")))
}

/// A string argument.
pub fn string_arg(v: &JsValue, name: &str) -> ApiResult<String> {
    v.as_string().ok_or_else(|| ApiError::type_(name, format!("expected a string, got {}", describe(v))))
}

/// Any `Serialize` value as a plain JS value (via one `JSON.parse`).
pub fn to_js<T: Serialize + ?Sized>(v: &T) -> ApiResult<JsValue> {
    let text = serde_json::to_string(v).map_err(|e| ApiError::invalid("", format!("could not serialize the answer: {e}")))?;
    js_sys::JSON::parse(&text).map_err(|_| ApiError::invalid("", "could not parse the answer"))
}
