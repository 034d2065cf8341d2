//! The keys of a closed `<select>` whose choice is costly (`browse_select`): which open its
//! list, so that the `change` that follows is a pick, and which move its choice, so that the
//! `change` only browses. No DOM: the browser's answers come in as arguments.

/// How long after a type-ahead key Chromium still reads Space as part of the typed search, not
/// as opening the list (its `TypeAhead` session timeout).
pub const TYPE_AHEAD_MS: f64 = 1_000.0;

/// What a key does to a closed select.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyEffect {
    /// It opens the list: the `change` that follows is a pick.
    Opens,
    /// It moves the choice: the `change` it fires only browses.
    Browses,
    /// Neither.
    Other,
}

/// The keys read so far on one select: whether its arrows open the list, and when the last
/// type-ahead key came (event time stamps, in ms).
#[derive(Clone, Copy, Debug, Default)]
pub struct SelectKeys {
    arrows_open: bool,
    last_type_ahead: Option<f64>,
}

impl SelectKeys {
    /// A select whose up and down arrows open the list (see [`arrows_open_the_list`]) or not.
    pub fn new(arrows_open: bool) -> Self {
        SelectKeys { arrows_open, last_type_ahead: None }
    }

    /// What `key` (a `KeyboardEvent.key`), pressed at `at_ms`, does.
    pub fn read(&mut self, key: &str, alt: bool, at_ms: f64) -> KeyEffect {
        let typing = self.last_type_ahead.is_some_and(|t| at_ms - t < TYPE_AHEAD_MS);
        let effect = if key == " " && typing {
            KeyEffect::Browses
        } else if opens(key, alt, self.arrows_open) {
            KeyEffect::Opens
        } else if browses(key, alt) {
            KeyEffect::Browses
        } else {
            KeyEffect::Other
        };
        if types_ahead(key) || (key == " " && typing) {
            self.last_type_ahead = Some(at_ms);
        }
        effect
    }
}

/// Whether `key` opens the select's list (Chromium: Alt+ArrowDown or Alt+ArrowUp, F4, Space;
/// with `arrows_open`, as on macOS, the plain up and down arrows too).
fn opens(key: &str, alt: bool, arrows_open: bool) -> bool {
    matches!(key, "F4" | " ") || ((alt || arrows_open) && matches!(key, "ArrowDown" | "ArrowUp"))
}

/// Whether `key` moves a closed select's choice (and so fires a `change` that only browses).
fn browses(key: &str, alt: bool) -> bool {
    match key {
        "ArrowUp" | "ArrowDown" | "ArrowLeft" | "ArrowRight" => !alt,
        "Home" | "End" | "PageUp" | "PageDown" => true,
        k => types_ahead(k),
    }
}

/// Whether `key` is type-ahead: a letter or a digit jumps to the option it starts.
fn types_ahead(key: &str) -> bool {
    key.chars().count() == 1 && key != " "
}

/// Whether the up and down arrows open a closed select's list instead of moving its choice:
/// on macOS (`navigator.platform` "Mac…"), where every keyboard pick waited for the blur, but
/// not in Firefox there (a `Gecko/` build in the user agent; WebKit and Blink say "like
/// Gecko"), whose arrows move the choice as elsewhere.
pub fn arrows_open_the_list(platform: &str, user_agent: &str) -> bool {
    platform.starts_with("Mac") && !user_agent.contains("Gecko/")
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHROME_MAC: &str =
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    const FIREFOX_MAC: &str = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0";

    #[test]
    fn space_f4_and_alt_arrows_open_the_list() {
        let mut k = SelectKeys::new(false);
        assert_eq!(k.read(" ", false, 0.0), KeyEffect::Opens);
        assert_eq!(k.read("F4", false, 10.0), KeyEffect::Opens);
        assert_eq!(k.read("ArrowDown", true, 20.0), KeyEffect::Opens);
        assert_eq!(k.read("ArrowUp", true, 30.0), KeyEffect::Opens);
    }

    #[test]
    fn arrows_home_end_and_letters_browse() {
        let mut k = SelectKeys::new(false);
        for key in ["ArrowDown", "ArrowUp", "ArrowLeft", "ArrowRight", "Home", "End", "PageUp", "PageDown", "a", "1"] {
            assert_eq!(k.read(key, false, 0.0), KeyEffect::Browses, "{key}");
        }
        assert_eq!(k.read("ArrowLeft", true, 0.0), KeyEffect::Other);
        assert_eq!(k.read("Shift", false, 0.0), KeyEffect::Other);
        assert_eq!(k.read("Tab", false, 0.0), KeyEffect::Other);
    }

    #[test]
    fn plain_arrows_open_the_list_where_they_do() {
        let mut k = SelectKeys::new(true);
        assert_eq!(k.read("ArrowDown", false, 0.0), KeyEffect::Opens);
        assert_eq!(k.read("ArrowUp", false, 0.0), KeyEffect::Opens);
        assert_eq!(k.read("ArrowLeft", false, 0.0), KeyEffect::Browses);
    }

    #[test]
    fn space_within_a_second_of_type_ahead_is_typed() {
        let mut k = SelectKeys::new(false);
        assert_eq!(k.read("1", false, 1_000.0), KeyEffect::Browses);
        assert_eq!(k.read(" ", false, 1_500.0), KeyEffect::Browses);
        // A typed Space goes on with the search: the next, a second after the digit but within
        // one of that Space, is typed too.
        assert_eq!(k.read(" ", false, 2_400.0), KeyEffect::Browses);
        assert_eq!(k.read(" ", false, 3_400.0), KeyEffect::Opens);
    }

    #[test]
    fn space_a_second_after_type_ahead_opens() {
        let mut k = SelectKeys::new(false);
        k.read("a", false, 0.0);
        assert_eq!(k.read(" ", false, TYPE_AHEAD_MS), KeyEffect::Opens);
        // Arrows are not type-ahead: Space after one opens.
        k.read("ArrowDown", false, 5_000.0);
        assert_eq!(k.read(" ", false, 5_100.0), KeyEffect::Opens);
    }

    #[test]
    fn arrows_open_on_macos_except_in_firefox() {
        assert!(arrows_open_the_list("MacIntel", CHROME_MAC));
        assert!(!arrows_open_the_list("MacIntel", FIREFOX_MAC));
        assert!(!arrows_open_the_list("Win32", "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"));
        assert!(!arrows_open_the_list(
            "Linux x86_64",
            CHROME_MAC.replace("Macintosh; Intel Mac OS X 10_15_7", "X11; Linux x86_64").as_str()
        ));
    }
}
