//! The page address's query string (`?k=v&…`), split in one way for everyone who reads it:
//! lessons (`lesson`, `step`), the address the page writes (`url_state`: which parameters it
//! keeps, whether it may write at all) and links (`share`). Read in three ways, `?embed` without
//! a value made an embed for the link reader and not for the address writer.
//!
//! Values stay raw (percent-encoded): the callers that need them decoded decode them. No DOM but
//! [`current`], so the rules are tested natively.

/// The parts of `search` (with or without its `?`) as `(key, raw value)`; a bare `k` is `(k, "")`.
pub fn pairs(search: &str) -> impl Iterator<Item = (&str, &str)> {
    search.trim_start_matches('?').split('&').filter(|p| !p.is_empty()).map(|p| p.split_once('=').unwrap_or((p, "")))
}

/// The raw value of the first `key`.
pub fn value<'a>(search: &'a str, key: &str) -> Option<&'a str> {
    pairs(search).find(|(k, _)| *k == key).map(|(_, v)| v)
}

/// Whether a switch's raw value turns it on: given bare, `1` or `true` (`?embed`, `?embed=1`).
pub fn is_on(value: &str) -> bool {
    matches!(value, "" | "1" | "true")
}

/// Whether the switch `key` is given and on (see [`is_on`]).
pub fn flag(search: &str, key: &str) -> bool {
    value(search, key).is_some_and(is_on)
}

/// The parts whose key is not in `drop`, then `add`, as a query (`?a=1&c=3`), or `""` if none.
pub fn rewritten(search: &str, drop: &[&str], add: Option<(&str, &str)>) -> String {
    let kept = search.trim_start_matches('?').split('&').filter(|p| !p.is_empty() && !drop.contains(&p.split('=').next().unwrap_or("")));
    let parts: Vec<String> = kept.map(str::to_string).chain(add.map(|(k, v)| format!("{k}={v}"))).collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!("?{}", parts.join("&"))
    }
}

/// This page's query string, `""` without one (or outside a browser).
#[cfg(all(target_arch = "wasm32", feature = "ui"))]
pub fn current() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_split_keys_from_raw_values() {
        let got: Vec<_> = pairs("?lesson=idle&step=2&embed&s=a%3Db").collect();
        assert_eq!(got, [("lesson", "idle"), ("step", "2"), ("embed", ""), ("s", "a%3Db")]);
        assert_eq!(pairs("").count(), 0);
        assert_eq!(pairs("?&&").count(), 0);
    }

    #[test]
    fn a_key_is_matched_whole() {
        assert_eq!(value("?xstep=9&step=2", "step"), Some("2"));
        assert_eq!(value("?steps=9", "step"), None);
        assert_eq!(value("?embed", "embed"), Some(""), "a bare key is given");
        assert_eq!(value("embed=1", "embed"), Some("1"), "the `?` is optional");
        assert_eq!(value("?embedded=1", "embed"), None);
    }

    #[test]
    fn a_switch_is_on_bare_or_one_or_true() {
        assert!(flag("?embed", "embed") && flag("?embed=1", "embed") && flag("?embed=true", "embed"));
        assert!(!flag("?embed=0", "embed") && !flag("?embed=no", "embed") && !flag("?preset=a", "embed"));
    }

    #[test]
    fn rewritten_drops_keys_and_adds_one() {
        assert_eq!(rewritten("?lesson=idle&step=2&x", &["step"], Some(("step", "3"))), "?lesson=idle&x&step=3");
        assert_eq!(rewritten("?preset=a&speed=2&theme=dark", &["preset", "speed"], None), "?theme=dark");
        assert_eq!(rewritten("?preset=a", &["preset"], None), "");
        assert_eq!(rewritten("", &[], None), "");
    }
}
