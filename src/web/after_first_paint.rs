//! Cards below the fold render once the page has painted: the first paint (the header, the job
//! graph and its explanation) does not wait for building the timeline, the tables, the panels,
//! the WHY panel's hidden tabs, the controls drawer and the dialogs, which was most of the
//! playground's first mount (issue 15's time to first render; README "Size and load").

use leptos::prelude::*;
use std::time::Duration;

/// Given by a playground whose caller reads the page in the same task (component tests, with
/// `no_loop`): every [`AfterFirstPaint`] under it renders at once.
#[derive(Clone, Copy)]
pub struct RenderAtOnce;

/// Renders `children` after the next animation frame and one task more (so after that frame's
/// paint), or at once under [`RenderAtOnce`].
#[component]
pub fn AfterFirstPaint(children: ChildrenFn) -> impl IntoView {
    let now = use_context::<RenderAtOnce>().is_some();
    let ready = RwSignal::new(now);
    if !now {
        // `try_`: the playground may be unmounted before the frame (`mount()` then `unmount()`).
        request_animation_frame(move || {
            set_timeout(
                move || {
                    ready.try_set(true);
                },
                Duration::ZERO,
            )
        });
    }
    move || ready.get().then(|| children())
}
