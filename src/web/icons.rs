//! Inline SVG icons for buttons. Icon characters (❚❚, ⟲, ⚙, ⇪ …) depend on the fonts a system
//! has and render as empty boxes where none has the glyph; these paths draw the same everywhere.
//! Every icon is 16×16, drawn with `currentColor`, and hidden from screen readers (the button
//! carries the label).

use leptos::prelude::*;

/// The icons the UI uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Icon {
    Play,
    Pause,
    Reset,
    Step,
    Next,
    Gear,
    Share,
    Theme,
    External,
    Close,
}

impl Icon {
    /// The SVG body (paths within a 16×16 box); filled shapes use `class="f"`.
    pub fn body(self) -> &'static str {
        match self {
            Icon::Play => r#"<path class="f" d="M4.5 2.5v11l9-5.5z"/>"#,
            Icon::Pause => r#"<rect class="f" x="3.5" y="2.5" width="3.2" height="11" rx="0.8"/><rect class="f" x="9.3" y="2.5" width="3.2" height="11" rx="0.8"/>"#,
            Icon::Reset => r#"<path d="M3.2 8a4.8 4.8 0 1 0 1.5-3.5"/><path class="f" d="M2.2 2.2v4.3h4.3z"/>"#,
            Icon::Step => r#"<path class="f" d="M3 3v10l7-5z"/><rect class="f" x="11" y="3" width="2.2" height="10" rx="0.6"/>"#,
            Icon::Next => r#"<path class="f" d="M1.5 3v10l5.5-5z"/><path class="f" d="M7 3v10l5.5-5z"/><rect class="f" x="12.6" y="3" width="2" height="10" rx="0.6"/>"#,
            Icon::Gear => r#"<circle cx="8" cy="8" r="2.3"/><path d="M8 1.5v2.2M8 12.3v2.2M1.5 8h2.2M12.3 8h2.2M3.4 3.4l1.6 1.6M11 11l1.6 1.6M3.4 12.6 5 11M11 5l1.6-1.6"/>"#,
            Icon::Share => r#"<path d="M8 10.5V2.5M4.8 5.5 8 2.3l3.2 3.2"/><path d="M3 9v4.5h10V9"/>"#,
            Icon::Theme => r#"<circle cx="8" cy="8" r="5.8"/><path class="f" d="M8 2.2a5.8 5.8 0 0 1 0 11.6z"/>"#,
            Icon::External => r#"<path d="M9.5 2.5h4v4M13.3 2.7 7.5 8.5"/><path d="M12 9.5v4H2.5V4h4"/>"#,
            Icon::Close => r#"<path d="M3.5 3.5l9 9M12.5 3.5l-9 9"/>"#,
        }
    }
}

/// An icon as an inline SVG element.
#[component]
pub fn Svg(icon: Icon) -> impl IntoView {
    view! { <svg class="ic" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false" inner_html=icon.body()></svg> }
}

/// An icon that follows a signal (play ↔ pause).
pub fn dynamic(icon: impl Fn() -> Icon + Send + Sync + 'static) -> impl IntoView {
    view! { <svg class="ic" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false" inner_html=move || icon().body()></svg> }
}

