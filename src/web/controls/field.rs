//! A text field that refuses bad input where it is typed: the message sits under the field
//! (its space is reserved, so nothing jumps), the value is applied on Enter or when the field
//! loses focus, and an engine error comes back to the same field.

use leptos::prelude::*;

/// Checks the text; `Err` carries the message shown under the field.
pub type Validate = fn(&str) -> Result<(), String>;

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
    let text = RwSignal::new(value.get_untracked());
    let error = RwSignal::new(None::<String>);
    let dirty = RwSignal::new(false);
    // Follow the job's value unless the user is editing.
    Effect::new(move |_| {
        let v = value.get();
        if !dirty.get_untracked() {
            text.set(v);
            error.set(None);
        }
    });
    let commit = move || {
        let t = text.get_untracked();
        if let Err(e) = validate(&t) {
            error.set(Some(e));
            return;
        }
        match on_commit.run(t) {
            Ok(()) => {
                error.set(None);
                dirty.set(false);
                text.set(value.get_untracked());
            }
            Err(e) => error.set(Some(e)),
        }
    };
    let err_id = format!("{id}-err");
    view! {
        <div class="field" class:invalid=move || error.with(|e| e.is_some())>
            <label for=id>{label}</label>
            <input id=id type="text" spellcheck="false" autocomplete="off"
                prop:value=move || text.get()
                disabled=move || disabled.get()
                aria-invalid=move || error.with(|e| e.is_some()).to_string()
                aria-describedby=err_id.clone()
                placeholder=hint
                on:input=move |ev| {
                    let t = event_target_value(&ev);
                    dirty.set(true);
                    error.set(validate(&t).err());
                    text.set(t);
                }
                on:change=move |_| commit()
                on:keydown=move |ev: leptos::ev::KeyboardEvent| {
                    if ev.key() == "Enter" { commit() }
                    if ev.key() == "Escape" { dirty.set(false); error.set(None); text.set(value.get_untracked()); }
                } />
            <small class="field-msg" id=err_id role="alert">{move || error.get().unwrap_or_default()}</small>
        </div>
    }
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
