//! A text field that refuses bad input where it is typed: the message sits under the field
//! (its space is reserved, so nothing jumps), the value is applied on Enter or when the field
//! loses focus, and an engine error comes back to the same field.

use leptos::prelude::*;

/// Checks the text; `Err` carries the message shown under the field.
pub type Validate = fn(&str) -> Result<(), String>;

/// The text being edited, its message, and whether it differs from the job's value.
#[derive(Clone, Copy)]
struct FieldDraft {
    text: RwSignal<String>,
    error: RwSignal<Option<String>>,
    /// What the field made of valid text, when that is not plain ("3" read as 3 ms), with the
    /// value it was said of: shown only while the field shows that value.
    note: RwSignal<Option<(String, String)>>,
    dirty: RwSignal<bool>,
    value: Signal<String>,
    validate: Validate,
    on_commit: Callback<String, Result<(), String>>,
}

impl FieldDraft {
    fn new(value: Signal<String>, validate: Validate, on_commit: Callback<String, Result<(), String>>) -> Self {
        let d = FieldDraft {
            text: RwSignal::new(value.get_untracked()),
            error: RwSignal::new(None),
            note: RwSignal::new(None),
            dirty: RwSignal::new(false),
            value,
            validate,
            on_commit,
        };
        // Follow the job's value unless the user is editing.
        Effect::new(move |_| {
            let v = value.get();
            if !d.dirty.get_untracked() {
                d.text.set(v);
                d.error.set(None);
            }
        });
        d
    }

    /// Takes typed text, checked at once.
    fn input(self, t: String) {
        self.dirty.set(true);
        self.note.set(None);
        self.error.set((self.validate)(&t).err());
        self.text.set(t);
    }

    /// Applies the text if it is valid; on success the field shows the job's value again.
    fn commit(self) {
        // Enter commits, and the `change` that follows it would again (with the shown text).
        if !self.dirty.get_untracked() {
            return;
        }
        let t = self.text.get_untracked();
        if let Err(e) = (self.validate)(&t) {
            self.error.set(Some(e));
            return;
        }
        match self.on_commit.run(t.clone()) {
            Ok(()) => {
                self.error.set(None);
                self.dirty.set(false);
                let shown = self.value.get_untracked();
                self.note.set(unit_note(&t, &shown).map(|n| (n, shown.clone())));
                self.text.set(shown);
            }
            Err(e) => self.error.set(Some(e)),
        }
    }

    /// Drops the edit and shows the job's value.
    fn revert(self) {
        self.dirty.set(false);
        self.error.set(None);
        self.note.set(None);
        self.text.set(self.value.get_untracked());
    }

    /// The note, while the field still shows the value it was said of (a preset loaded since
    /// shows another).
    fn note(self) -> Option<String> {
        let shown = self.value.get();
        self.note.with(|n| n.as_ref().filter(|(_, of)| *of == shown).map(|(n, _)| n.clone()))
    }

    fn invalid(self) -> bool {
        self.error.with(|e| e.is_some())
    }
}

#[component]
pub fn Field(
    label: &'static str,
    id: &'static str,
    /// The value the job has now (re-shown when it changes elsewhere).
    #[prop(into)]
    value: Signal<String>,
    validate: Validate,
    /// Applies the text; an `Err` is shown under the field.
    on_commit: Callback<String, Result<(), String>>,
    #[prop(optional)] hint: &'static str,
    #[prop(optional, into)] disabled: Signal<bool>,
) -> impl IntoView {
    let d = FieldDraft::new(value, validate, on_commit);
    let err_id = format!("{id}-err");
    view! {
        <div class="field" class:invalid=move || d.invalid()>
            <label for=id>{label}</label>
            <input id=id type="text" spellcheck="false" autocomplete="off"
                prop:value=move || d.text.get()
                disabled=move || disabled.get()
                aria-invalid=move || d.invalid().to_string()
                aria-describedby=err_id.clone()
                placeholder=hint
                on:input=move |ev| d.input(event_target_value(&ev))
                on:change=move |_| d.commit()
                on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                    if ev.key() == "Enter" { d.commit() }
                    // Escape undoes an edit and stops there (the panel closed with it, and a
                    // keyboard user lost their place); with nothing to undo it closes the panel.
                    if ev.key() == "Escape" && d.dirty.get_untracked() {
                        d.revert();
                        ev.stop_propagation();
                    }
                } />
            // The error is an alert; a note on valid text ("read as 3 ms") is plain text.
            <small class="field-msg" id=err_id><span role="alert">{move || d.error.get()}</span>{move || d.error.with(Option::is_none).then(|| d.note()).flatten()}</small>
        </div>
    }
}

/// A number typed without a unit and shown back with one ("3" → "3 ms", "3000" → "3 s"): said,
/// since a reader who meant seconds saw it change silently (seconds read as milliseconds is one
/// of the bugs this playground is about).
fn unit_note(typed: &str, shown: &str) -> Option<String> {
    let t = typed.trim();
    let bare = !t.is_empty() && t.chars().all(|c| c.is_ascii_digit()) && !t.trim_start_matches('0').is_empty();
    let with_unit = shown != t && shown.ends_with(|c: char| c.is_ascii_alphabetic());
    (bare && with_unit).then(|| format!("read as {shown}: a number without a unit is milliseconds (write {t} s for seconds)"))
}

/// Validators for the common kinds of field.
pub fn v_duration(s: &str) -> Result<(), String> {
    super::super::format::parse_duration(s).map(|_| ())
}
pub fn v_opt_duration(s: &str) -> Result<(), String> {
    super::super::format::parse_opt_duration(s).map(|_| ())
}
pub fn v_positive_duration(s: &str) -> Result<(), String> {
    match super::super::format::parse_duration(s)? {
        0 => Err("must be greater than 0".into()),
        _ => Ok(()),
    }
}
pub fn v_opt_positive_duration(s: &str) -> Result<(), String> {
    match super::super::format::parse_opt_duration(s)? {
        Some(0) => Err("must be greater than 0, or off".into()),
        _ => Ok(()),
    }
}
pub fn v_parallelism(s: &str) -> Result<(), String> {
    super::super::format::parse_int(s, 1, 256).map(|_| ())
}
pub fn v_rate(s: &str) -> Result<(), String> {
    super::super::format::parse_int(s, 0, 1_000_000).map(|_| ())
}
pub fn v_count(s: &str) -> Result<(), String> {
    super::super::format::parse_int(s, 1, 1_000_000).map(|_| ())
}
pub fn v_any(_: &str) -> Result<(), String> {
    Ok(())
}
