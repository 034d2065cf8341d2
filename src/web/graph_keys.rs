//! The job graph is one Tab stop: its `svg` takes focus, and the arrow keys move focus between
//! its nodes. Tabbing through every node to get past the graph took 48 presses in seed-001
//! (a partition and its Silence button each, then the source subtasks, the chained operators
//! and the keyed subtasks); the nodes are now focusable only by these keys and by a click.
//!
//! The keys follow the drawing: Left / Right go to the next column (Silence buttons,
//! partitions, source subtasks, chained operators, keyed subtasks), to its node nearest in
//! height (not along an edge: the enumerator spreads partitions round-robin, so the reader of a
//! partition may sit lower), Up / Down to the node above or below in the same column; Home / End
//! to the first node that is not a Silence button (the first arrow into the graph too) / the
//! last node. Stepping through one list took 40 presses from partition 0 to
//! window subtask 0 in seed-001; now two. A Silence button that the partition does not offer
//! (hidden) is skipped, and one is reached sideways only from its own row: Enter on a
//! neighbour's would silence another partition. Which node a key goes to is plain Rust (tested
//! natively); moving the focus is the DOM part.

#[cfg(all(target_arch = "wasm32", feature = "ui"))]
use leptos::prelude::*;
#[cfg(all(target_arch = "wasm32", feature = "ui"))]
use wasm_bindgen::JsCast;

/// The nodes the keys move between, in document order: every button of the graph that shows.
#[cfg(all(target_arch = "wasm32", feature = "ui"))]
const NODES: &str = "svg.graph [role=button]:not(.hidden)";

/// A node's box on the screen (any one unit for every node): its frame, not its text, which
/// may run past it. `own_row`: reached sideways only from a node level with it (a Silence
/// button).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Place {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    pub own_row: bool,
}

impl Place {
    fn mid_y(&self) -> f64 {
        self.y + self.h / 2.0
    }

    fn right(&self) -> f64 {
        self.x + self.w
    }

    fn bottom(&self) -> f64 {
        self.y + self.h
    }

    /// Whether the two share a column: their spans across overlap.
    fn beside(&self, other: &Place) -> bool {
        self.x < other.right() && other.x < self.right()
    }

    /// Whether the two are level: their spans down overlap.
    fn level(&self, other: &Place) -> bool {
        self.y < other.bottom() && other.y < self.bottom()
    }

    /// Whether it is drawn (a node not laid out yet has no box, and no column).
    fn drawn(&self) -> bool {
        self.w > 0.0 && self.h > 0.0
    }
}

/// Where a key sends focus, from `current` (the node that has it, or `None` for the graph),
/// among `places` in document order. At an edge the focus stays (the key is still used, so
/// the page does not scroll under it).
pub fn target(key: &str, current: Option<usize>, places: &[Place]) -> Option<usize> {
    let last = places.len().checked_sub(1)?;
    // Into the graph, and Home: its first node, not a Silence button (Enter there silences a
    // partition; reached first, it was pressed by a reader who meant to explain).
    let first = places.iter().position(|p| !p.own_row).unwrap_or(0);
    let Some(i) = current.filter(|&i| i <= last) else {
        return match key {
            "ArrowDown" | "ArrowRight" | "ArrowUp" | "ArrowLeft" | "Home" => Some(first),
            "End" => Some(last),
            _ => None,
        };
    };
    let here = places[i];
    let found = match key {
        "ArrowDown" => nearest_in_column(places, here, |p| p.mid_y() > here.mid_y()),
        "ArrowUp" => nearest_in_column(places, here, |p| p.mid_y() < here.mid_y()),
        "ArrowRight" => next_column(places, here, |p| p.x >= here.right()),
        "ArrowLeft" => next_column(places, here, |p| p.right() <= here.x),
        "Home" => Some(first),
        "End" => Some(last),
        _ => return None,
    };
    Some(found.unwrap_or(i))
}

/// The nearest node on one side of `here` in its column.
fn nearest_in_column(places: &[Place], here: Place, side: impl Fn(&Place) -> bool) -> Option<usize> {
    closest_by_height(places, here, |p| p.drawn() && here.beside(p) && side(p))
}

/// In the nearest column on one side of `here` (the nodes beside the nearest node there), the
/// node nearest in height; one that keeps to its own row only if level with `here`.
fn next_column(places: &[Place], here: Place, side: impl Fn(&Place) -> bool) -> Option<usize> {
    let side = |p: &Place| p.drawn() && side(p);
    let gap = |p: &Place| if p.x >= here.right() { p.x - here.right() } else { here.x - p.right() };
    let nearest = places.iter().filter(|p| side(p)).min_by(|a, b| gap(a).total_cmp(&gap(b)))?;
    closest_by_height(places, here, |p| side(p) && nearest.beside(p) && (!p.own_row || p.level(&here)))
}

/// Among the nodes that pass `keep`, the one nearest to `here` in height (the first in
/// document order on a tie).
fn closest_by_height(places: &[Place], here: Place, keep: impl Fn(&Place) -> bool) -> Option<usize> {
    let dy = |p: &Place| (p.mid_y() - here.mid_y()).abs();
    places.iter().enumerate().filter(|(_, p)| keep(p)).min_by(|(_, a), (_, b)| dy(a).total_cmp(&dy(b))).map(|(i, _)| i)
}

#[cfg(all(target_arch = "wasm32", feature = "ui"))]
/// Moves focus for a navigation key pressed inside `wrap`, the graph's wrapper; `false` when
/// the key is not one of them (the event is then left alone).
pub fn on_key(wrap: &web_sys::Element, focused: Option<web_sys::EventTarget>, key: &str) -> bool {
    let Ok(list) = wrap.query_selector_all(NODES) else { return false };
    let nodes: Vec<web_sys::Element> = (0..list.length()).filter_map(|i| list.item(i)?.dyn_into().ok()).collect();
    let focused = focused.and_then(|t| t.dyn_into::<web_sys::Element>().ok());
    let current = focused.and_then(|f| nodes.iter().position(|n| *n == f));
    let places: Vec<Place> = nodes.iter().map(place).collect();
    match target(key, current, &places) {
        Some(i) => focus(nodes.get(i).cloned()),
        None => false,
    }
}

/// A node's place: the box of its frame (its first `rect`), or of the whole node without one.
#[cfg(all(target_arch = "wasm32", feature = "ui"))]
fn place(node: &web_sys::Element) -> Place {
    let frame = node.query_selector(":scope > rect").ok().flatten();
    let r = frame.as_ref().unwrap_or(node).get_bounding_client_rect();
    Place { x: r.x(), y: r.y(), w: r.width(), h: r.height(), own_row: node.class_list().contains("silence-btn") }
}

#[cfg(all(target_arch = "wasm32", feature = "ui"))]
fn focus(el: Option<web_sys::Element>) -> bool {
    let Some(svg) = el.and_then(|e| e.dyn_into::<web_sys::SvgElement>().ok()) else { return false };
    // Focused where it is, then scrolled into view once: on a phone the graph scrolls across,
    // and the browser leaves a node half in view where it is.
    let opts = web_sys::FocusOptions::new();
    opts.set_prevent_scroll(true);
    let focused = svg.focus_with_options(&opts).is_ok();
    super::measure::scroll_into_view_smoothly(&svg);
    focused
}

/// Keeps the keyboard in the graph when the node that has the focus goes away (a preset with
/// fewer partitions, a Silence button hidden): the focus fell to the page's body and the next
/// Tab started from the top. Chrome blurs a hidden node towards nothing, and a removed one
/// only in a shadow root (in the page, no event tells). The wrapper's `focusin` / `focusout` tell
/// [`FocusKeeper::enter`] / [`FocusKeeper::leave`] which node has it; when it fell (seen by the
/// blur, or an animation frame after a redraw: [`FocusKeeper::after_redraw`]), the graph's
/// `svg` takes it back. Every read is a `try_`: a frame may come after the playground was
/// unmounted, and a panic would stop every playground of the page.
#[cfg(all(target_arch = "wasm32", feature = "ui"))]
#[derive(Clone, Copy)]
pub struct FocusKeeper {
    wrap: NodeRef<leptos::html::Div>,
    node: StoredValue<Option<web_sys::Element>, LocalStorage>,
}

#[cfg(all(target_arch = "wasm32", feature = "ui"))]
impl FocusKeeper {
    pub(crate) fn new(wrap: NodeRef<leptos::html::Div>) -> Self {
        Self { wrap, node: StoredValue::new_local(None) }
    }

    pub fn enter(self, target: Option<web_sys::EventTarget>) {
        self.node.try_set_value(target.and_then(|t| t.dyn_into().ok()));
    }

    /// The focus left for `to`: forgotten when `to` is outside the graph. Towards nothing, it
    /// is decided a frame later: the node may have gone (Chrome blurs a hidden node, and in a
    /// shadow root a removed one) or the reader clicked the page's blank space.
    pub fn leave(self, to: Option<web_sys::EventTarget>) {
        let Some(to) = to.and_then(|t| t.dyn_into::<web_sys::Node>().ok()) else {
            request_animation_frame(move || self.take_back());
            return;
        };
        if !self.wrap.try_get_untracked().flatten().is_some_and(|w| w.contains(Some(&to))) {
            self.node.try_set_value(None);
        }
    }

    /// Called after each redraw: a removed node fires no blur.
    pub fn after_redraw(self) {
        request_animation_frame(move || self.take_back());
    }

    /// If the focus fell to the body from the node that had it, and that node is gone, the
    /// `svg` takes it; fallen from a node still there, it is forgotten. The cheap test first:
    /// this runs after every redraw.
    fn take_back(self) {
        if self.node.try_with_value(Option::is_none).unwrap_or(true) || !focus_fell() {
            return;
        }
        let node = self.node.try_update_value(Option::take).flatten();
        let svg = self.wrap.try_get_untracked().flatten().and_then(|w| w.query_selector("svg.graph").ok().flatten());
        if let (Some(svg), true) = (svg.and_then(|e| e.dyn_into::<web_sys::SvgElement>().ok()), node.is_some_and(|n| gone(&n))) {
            let opts = web_sys::FocusOptions::new();
            opts.set_prevent_scroll(true);
            let _ = svg.focus_with_options(&opts);
        }
    }
}

/// Whether nothing has the focus (the document's body has it).
#[cfg(all(target_arch = "wasm32", feature = "ui"))]
fn focus_fell() -> bool {
    let doc = web_sys::window().and_then(|w| w.document());
    let active = doc.as_ref().and_then(web_sys::Document::active_element);
    active.is_none_or(|a| doc.and_then(|d| d.body()).is_some_and(|b| *b == a))
}

/// Whether a node is removed or hidden (`display: none`: no box).
#[cfg(all(target_arch = "wasm32", feature = "ui"))]
fn gone(node: &web_sys::Element) -> bool {
    let rect = node.get_bounding_client_rect();
    !node.is_connected() || rect.width() == 0.0 && rect.height() == 0.0
}

#[cfg(test)]
mod tests {
    use super::{target, Place};

    fn at(x: f64, y: f64, w: f64) -> Place {
        Place { x, y, w, h: 20.0, own_row: false }
    }

    fn button(x: f64, y: f64) -> Place {
        Place { own_row: true, ..at(x, y, 40.0) }
    }

    /// Two partitions with Silence buttons (the second hidden, so absent), two source subtasks
    /// a little lower, two keyed subtasks one under the other: document order as the graph
    /// draws them.
    fn graph() -> Vec<Place> {
        vec![
            button(0.0, 0.0),       // 0: Silence p0
            at(50.0, 0.0, 140.0),   // 1: p0
            at(50.0, 40.0, 140.0),  // 2: p1 (its Silence button hidden)
            at(50.0, 80.0, 140.0),  // 3: p2
            at(250.0, 10.0, 150.0), // 4: source 0
            at(250.0, 70.0, 150.0), // 5: source 1
            at(450.0, 30.0, 100.0), // 6: keyed 0
            at(450.0, 90.0, 100.0), // 7: keyed 1
        ]
    }

    #[test]
    fn left_and_right_go_to_the_next_column_at_the_nearest_height() {
        let g = graph();
        assert_eq!(target("ArrowRight", Some(0), &g), Some(1), "a Silence button, then its partition");
        assert_eq!(target("ArrowRight", Some(3), &g), Some(5), "partition 2: source subtask 1, nearest in height");
        assert_eq!(target("ArrowRight", Some(4), &g), Some(6));
        assert_eq!(target("ArrowLeft", Some(6), &g), Some(4), "back from the keyed subtask: the nearer source subtask");
        assert_eq!(target("ArrowLeft", Some(2), &g), Some(2), "partition 1 has no button: not partition 0's, it stays");
        assert_eq!(target("ArrowLeft", Some(1), &g), Some(0), "partition 0's own");
        assert_eq!(target("ArrowRight", Some(6), &g), Some(6), "nothing right of the last column: stays");
        assert_eq!(target("ArrowLeft", Some(0), &g), Some(0));
    }

    #[test]
    fn up_and_down_stay_in_the_column() {
        let g = graph();
        assert_eq!(target("ArrowDown", Some(1), &g), Some(2));
        assert_eq!(target("ArrowDown", Some(2), &g), Some(3));
        assert_eq!(target("ArrowDown", Some(3), &g), Some(3), "the column's last node stays");
        assert_eq!(target("ArrowUp", Some(5), &g), Some(4));
        assert_eq!(target("ArrowDown", Some(6), &g), Some(7));
        assert_eq!(target("ArrowDown", Some(0), &g), Some(0), "the only Silence button shown");
    }

    #[test]
    fn a_node_not_drawn_is_no_column() {
        let mut g = graph();
        g[4] = Place::default();
        assert_eq!(target("ArrowRight", Some(1), &g), Some(5), "source 0 has no box: source 1");
        assert_eq!(target("ArrowDown", Some(4), &g), Some(4), "from it, nowhere: it stays");
        let none = vec![Place::default(); 3];
        assert_eq!(target("ArrowRight", Some(0), &none), Some(0), "a graph not laid out yet");
    }

    /// Two bands (two inputs), one over the other: a column runs through both.
    #[test]
    fn two_bands_share_their_columns() {
        let g = vec![
            at(50.0, 0.0, 140.0),    // 0: orders-0
            at(50.0, 30.0, 140.0),   // 1: orders-1
            at(50.0, 120.0, 140.0),  // 2: payments-0
            at(250.0, 10.0, 150.0),  // 3: orders source 0
            at(250.0, 120.0, 150.0), // 4: payments source 0
            at(450.0, 60.0, 100.0),  // 5: join 0
        ];
        assert_eq!(target("ArrowDown", Some(1), &g), Some(2), "down from one band's last partition to the next band's first");
        assert_eq!(target("ArrowRight", Some(2), &g), Some(4), "its own band's source subtask, level with it");
        assert_eq!(target("ArrowLeft", Some(5), &g), Some(3), "back from the join: the nearer source subtask");
    }

    #[test]
    fn from_the_graph_itself_and_home_end() {
        let g = graph();
        for key in ["ArrowDown", "ArrowRight", "ArrowUp", "ArrowLeft", "Home"] {
            assert_eq!(target(key, None, &g), Some(1), "{key} from the graph: the first node that is not a Silence button");
        }
        assert_eq!(target("End", None, &g), Some(7));
        assert_eq!(target("Home", Some(5), &g), Some(1));
        let buttons = vec![button(0.0, 0.0), button(0.0, 40.0)];
        assert_eq!(target("Home", None, &buttons), Some(0), "only Silence buttons: the first");
        assert_eq!(target("End", Some(1), &g), Some(7));
        assert_eq!(target("Enter", Some(3), &g), None, "not a navigation key");
        assert_eq!(target("Enter", None, &g), None);
        assert_eq!(target("ArrowDown", None, &[]), None, "nothing to go to");
    }
}
