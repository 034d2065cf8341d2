//! Paints a timeline `Plot` on a 2D canvas, sharp on high-DPI screens, in the page's theme
//! colours (read from the CSS custom properties each time, so a theme switch shows on the next
//! paint). The shapes are those of the rest of the page: ▮ fired, ◇ late re-firing, ✕ dropped,
//! ○ side output, hatched idle spans, a dashed processing-time diagonal.

use super::timeline_plot::{Item, LineKind, Plot, LEFT, LANE_H, RIGHT, TOP};
use wasm_bindgen::JsCast;
use std::cell::RefCell;
use std::rc::Rc;
use web_sys::{CanvasRenderingContext2d as Ctx, CssStyleDeclaration, HtmlCanvasElement};

/// The theme colours and fonts the plot uses.
struct Palette {
    band: String,
    accent: String,
    accent_soft: String,
    grid: String,
    muted: String,
    split: String,
    hold: String,
    ok: String,
    card: String,
    refire: String,
    late: String,
    side: String,
    lane: String,
    idle_bg: String,
    idle_line: String,
    mono: String,
    sans: String,
}

/// A custom property's value, or `fallback` when it is not set.
fn var(style: Option<&CssStyleDeclaration>, name: &str, fallback: &str) -> String {
    let v = style.and_then(|s| s.get_property_value(name).ok()).unwrap_or_default();
    let v = v.trim();
    if v.is_empty() { fallback.to_string() } else { v.to_string() }
}

impl Palette {
    fn key(style: Option<&CssStyleDeclaration>) -> String {
        // --hold too: it turns neutral while the page is calm (`.calm` in style.css).
        format!("{}|{}|{}", var(style, "--accent", ""), var(style, "--card", ""), var(style, "--hold", ""))
    }

    fn of(style: Option<&CssStyleDeclaration>) -> Palette {
        let var = |name: &str, fallback: &str| var(style, name, fallback);
        Palette {
            band: var("--band", "rgba(11,98,196,0.045)"),
            accent: var("--accent", "#0b62c4"),
            accent_soft: var("--accent-soft", "#e3eefb"),
            grid: var("--grid", "#eceff3"),
            muted: var("--muted", "#5b6470"),
            split: var("--split-line", "#7d8897"),
            hold: var("--hold", "#c2410c"),
            ok: var("--ok", "#1a7f37"),
            card: var("--card", "#ffffff"),
            refire: var("--refire", "#b45309"),
            late: var("--late", "#c62828"),
            side: var("--side", "#7c3aed"),
            lane: var("--border-soft", "#eceff3"),
            idle_bg: var("--idle-bg", "#e9ecf0"),
            idle_line: var("--idle-line", "#aeb7c2"),
            mono: var("--mono", "monospace"),
            sans: var("--sans", "sans-serif"),
        }
    }
}

/// The theme's palette, for the colours in `key`.
struct Style {
    key: String,
    palette: Rc<Palette>,
}

thread_local! {
    /// The palette of the last paint, keyed by two of its colours: reading every custom
    /// property on each paint cost more than the drawing.
    static STYLE: RefCell<Option<Style>> = const { RefCell::new(None) };
}

/// The current theme's palette (cached while the theme stays).
fn palette_of(canvas: &HtmlCanvasElement) -> Rc<Palette> {
    let style = web_sys::window().and_then(|w| w.get_computed_style(canvas).ok().flatten());
    let key = Palette::key(style.as_ref());
    STYLE.with_borrow_mut(|cache| {
        if let Some(c) = cache.as_ref().filter(|c| c.key == key) {
            return c.palette.clone();
        }
        let palette = Rc::new(Palette::of(style.as_ref()));
        *cache = Some(Style { key, palette: palette.clone() });
        palette
    })
}

/// Sizes the canvas for `plot` (CSS pixels × device pixel ratio) and paints it, one kind of
/// item at a time (one path per kind), in the order the SVG version layered them.
pub fn paint(canvas: &HtmlCanvasElement, plot: &Plot) {
    let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
    let (w, h) = ((plot.width * dpr).round() as u32, (plot.height * dpr).round() as u32);
    if canvas.width() != w || canvas.height() != h {
        canvas.set_width(w);
        canvas.set_height(h);
    }
    let style = canvas.style();
    for (prop, px) in [("width", plot.width), ("height", plot.height)] {
        let v = format!("{px}px");
        if style.get_property_value(prop).ok().as_deref() != Some(v.as_str()) {
            let _ = style.set_property(prop, &v);
        }
    }
    let Some(ctx) = canvas.get_context("2d").ok().flatten().and_then(|c| c.dyn_into::<Ctx>().ok()) else { return };
    let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
    ctx.clear_rect(0.0, 0.0, plot.width, plot.height);
    let p = palette_of(canvas);
    ctx.set_line_join("round");
    bands(&ctx, &p, plot);
    job_marks(&ctx, &p, plot);
    grid(&ctx, &p, plot);
    for item in &plot.items {
        match item {
            Item::Diagonal { from, to } => {
                ctx.set_global_alpha(0.7);
                dashed(&ctx, &[4.0, 4.0]);
                stroke_line(&ctx, &p.muted, 1.0, *from, *to);
                ctx.set_global_alpha(1.0);
                dashed(&ctx, &[]);
            }
            Item::Line { kind, points, .. } => line(&ctx, &p, *kind, points),
            Item::OffScale { y, text: t } => text(&ctx, &format!("700 11.5px {}", p.sans), &p.hold, "end", t, plot.width - RIGHT - 4.0, *y),
            _ => {}
        }
    }
    ctx.set_global_alpha(1.0);
    marks(&ctx, &p, plot);
    lanes(&ctx, &p, plot);
}

/// Starts a path with every item `shape` accepts; false if there was none.
fn path_of(ctx: &Ctx, plot: &Plot, mut shape: impl FnMut(&Ctx, &Item) -> bool) -> bool {
    ctx.begin_path();
    let mut any = false;
    for it in &plot.items {
        any |= shape(ctx, it);
    }
    any
}

fn bands(ctx: &Ctx, p: &Palette, plot: &Plot) {
    let plot_w = plot.width - LEFT - RIGHT;
    if path_of(ctx, plot, |c, it| matches!(it, Item::Band { y, h, picked: false } if { c.rect(LEFT, *y, plot_w, *h); true })) {
        ctx.set_fill_style_str(&p.band);
        ctx.fill();
    }
    for it in &plot.items {
        if let Item::Band { y, h, picked: true } = it {
            ctx.set_global_alpha(0.7);
            fill_rect(ctx, &p.accent_soft, LEFT, *y, plot_w, *h);
            ctx.set_global_alpha(1.0);
            dashed(ctx, &[4.0, 3.0]);
            stroke_style(ctx, &p.accent, 1.0);
            ctx.stroke_rect(LEFT + 0.5, *y + 0.5, plot_w - 1.0, (*h - 1.0).max(0.0));
            dashed(ctx, &[]);
        }
    }
}

fn grid(ctx: &Ctx, p: &Palette, plot: &Plot) {
    let bottom = TOP + plot.plot_h;
    let right = plot.width - RIGHT;
    let any = path_of(ctx, plot, |c, it| match it {
        Item::GridX { x, .. } => {
            c.move_to(*x, TOP);
            c.line_to(*x, bottom);
            true
        }
        Item::GridY { y, .. } => {
            c.move_to(LEFT, *y);
            c.line_to(right, *y);
            true
        }
        _ => false,
    });
    if any {
        stroke_style(ctx, &p.grid, 1.0);
        ctx.stroke();
    }
    ctx.set_font(&format!("10.5px {}", p.mono));
    ctx.set_fill_style_str(&p.muted);
    for it in &plot.items {
        match it {
            Item::GridX { x, label } => {
                // A label centred on a tick near the edge ran past the canvas ("0:30:0").
                // 10.5 px monospace: about 6.4 px a character.
                let half = label.chars().count() as f64 * 3.2;
                let (align, at) = if *x + half > plot.width { ("end", plot.width - 1.0) } else { ("center", *x) };
                ctx.set_text_align(align);
                let _ = ctx.fill_text(label, at, bottom + 14.0);
            }
            Item::GridY { y, label } => {
                ctx.set_text_align("end");
                let _ = ctx.fill_text(label, LEFT - 6.0, y + 3.5);
            }
            // A line over the label, as a date is written over a time; ticks are at least
            // 25 px apart, so it stays clear of the next label up.
            Item::TickDate { y, date } => {
                ctx.set_text_align("end");
                let _ = ctx.fill_text(date, LEFT - 6.0, y - 8.5);
            }
            Item::AxisTitle { x, y, text, vertical } => axis_title(ctx, p, *x, *y, text, *vertical),
            _ => {}
        }
    }
}

/// An axis title in the sans font, turned a quarter left along the event-time axis.
fn axis_title(ctx: &Ctx, p: &Palette, x: f64, y: f64, text: &str, vertical: bool) {
    ctx.save();
    ctx.set_font(&format!("11px {}", p.sans));
    ctx.set_text_align("center");
    if vertical {
        let _ = ctx.translate(x, y);
        let _ = ctx.rotate(-std::f64::consts::FRAC_PI_2);
        let _ = ctx.fill_text(text, 0.0, 4.0);
    } else {
        let _ = ctx.fill_text(text, x, y);
    }
    ctx.restore();
}

/// Firings and late records, one path per shape.
fn marks(ctx: &Ctx, p: &Palette, plot: &Plot) {
    if path_of(ctx, plot, |c, it| matches!(it, Item::Fired { x, y } if { c.rect(x - 1.5, y - 4.0, 3.0, 8.0); true })) {
        ctx.set_fill_style_str(&p.ok);
        ctx.fill();
    }
    let diamond = |c: &Ctx, it: &Item| {
        let Item::LateRefire { x, y } = *it else { return false };
        c.move_to(x, y - 4.0);
        c.line_to(x + 4.0, y);
        c.line_to(x, y + 4.0);
        c.line_to(x - 4.0, y);
        c.close_path();
        true
    };
    if path_of(ctx, plot, diamond) {
        ctx.set_fill_style_str(&p.card);
        ctx.fill();
        stroke_style(ctx, &p.refire, 1.6);
        ctx.stroke();
    }
    let cross = |c: &Ctx, it: &Item| {
        let Item::Dropped { x, y } = *it else { return false };
        c.move_to(x - 3.5, y - 3.5);
        c.line_to(x + 3.5, y + 3.5);
        c.move_to(x + 3.5, y - 3.5);
        c.line_to(x - 3.5, y + 3.5);
        true
    };
    if path_of(ctx, plot, cross) {
        stroke_style(ctx, &p.late, 1.8);
        ctx.stroke();
    }
    let circle = |c: &Ctx, it: &Item| {
        let Item::SideOutput { x, y } = *it else { return false };
        c.move_to(x + 3.5, y);
        let _ = c.arc(x, y, 3.5, 0.0, std::f64::consts::TAU);
        true
    };
    if path_of(ctx, plot, circle) {
        stroke_style(ctx, &p.side, 1.7);
        ctx.stroke();
    }
}

/// Idle lanes: label, lane background, and the idle spans on it, hatched like the job graph's
/// idle nodes (stripes drawn through a clip, so they stay sharp at any pixel ratio).
fn lanes(ctx: &Ctx, p: &Palette, plot: &Plot) {
    let plot_w = plot.width - LEFT - RIGHT;
    let lane_h = LANE_H - 2.0;
    if path_of(ctx, plot, |c, it| matches!(it, Item::Lane { y, .. } if { c.rect(LEFT, *y, plot_w, lane_h); true })) {
        ctx.set_fill_style_str(&p.lane);
        ctx.fill();
    }
    ctx.set_font(&format!("10px {}", p.sans));
    ctx.set_fill_style_str(&p.muted);
    ctx.set_text_align("end");
    for it in &plot.items {
        if let Item::Lane { y, label } = it {
            let _ = ctx.fill_text(label, LEFT - 6.0, y + 7.0);
        }
    }
    let spans = |c: &Ctx, it: &Item| matches!(it, Item::IdleSpan { x, y, w } if { c.rect(*x, *y, *w, lane_h); true });
    if !path_of(ctx, plot, spans) {
        return;
    }
    ctx.set_fill_style_str(&p.idle_bg);
    ctx.fill();
    ctx.save();
    ctx.clip();
    let (top, bottom) = (TOP + plot.plot_h, plot.height);
    ctx.begin_path();
    let mut x = LEFT - (bottom - top);
    while x < plot.width {
        ctx.move_to(x, bottom);
        ctx.line_to(x + (bottom - top), top);
        x += 6.0;
    }
    stroke_style(ctx, &p.idle_line, 1.5);
    ctx.stroke();
    ctx.restore();
    path_of(ctx, plot, spans);
    stroke_style(ctx, &p.idle_line, 0.5);
    ctx.stroke();
}

/// A watermark line: splits thin and faint, the culprit split thick in the "holds" colour,
/// window subtasks bold (the focused one bolder).
fn line(ctx: &Ctx, p: &Palette, kind: LineKind, points: &[(f64, f64)]) {
    let (colour, width, alpha) = match kind {
        LineKind::Split => (&p.split, 1.0, 0.55),
        LineKind::Culprit => (&p.hold, 2.2, 1.0),
        LineKind::Operator => (&p.accent, 2.0, 0.75),
        LineKind::OperatorFocus => (&p.accent, 3.0, 1.0),
        LineKind::Input(_) => (&p.accent, 1.6, 0.9),
    };
    // A two-input operator's inputs are dashed (input 1 long dashes, input 2 short ones): they
    // run under the operator's own line, which is their minimum.
    let dash: &[f64] = match kind {
        LineKind::Input(0) => &[7.0, 4.0],
        LineKind::Input(_) => &[2.0, 3.0],
        _ => &[],
    };
    let _ = ctx.set_line_dash(&js_sys::Array::from_iter(dash.iter().map(|&d| wasm_bindgen::JsValue::from_f64(d))));
    let Some((&(x0, y0), rest)) = points.split_first() else { return };
    ctx.begin_path();
    ctx.move_to(x0, y0);
    for &(x, y) in rest {
        ctx.line_to(x, y);
    }
    ctx.set_global_alpha(alpha);
    stroke_style(ctx, colour, width);
    ctx.stroke();
    ctx.set_global_alpha(1.0);
    let _ = ctx.set_line_dash(&js_sys::Array::new());
}

fn fill_rect(ctx: &Ctx, colour: &str, x: f64, y: f64, w: f64, h: f64) {
    ctx.set_fill_style_str(colour);
    ctx.fill_rect(x, y, w, h);
}

fn stroke_style(ctx: &Ctx, colour: &str, width: f64) {
    ctx.set_stroke_style_str(colour);
    ctx.set_line_width(width);
}

fn stroke_line(ctx: &Ctx, colour: &str, width: f64, a: (f64, f64), b: (f64, f64)) {
    ctx.begin_path();
    ctx.move_to(a.0, a.1);
    ctx.line_to(b.0, b.1);
    stroke_style(ctx, colour, width);
    ctx.stroke();
}

fn dashed(ctx: &Ctx, pattern: &[f64]) {
    let arr = js_sys::Array::new();
    for &d in pattern {
        arr.push(&d.into());
    }
    let _ = ctx.set_line_dash(&arr);
}

fn text(ctx: &Ctx, font: &str, colour: &str, align: &str, s: &str, x: f64, y: f64) {
    ctx.set_font(font);
    ctx.set_text_align(align);
    ctx.set_fill_style_str(colour);
    let _ = ctx.fill_text(s, x, y);
}

/// The job's run (`timeline_job`): the periods it was down shaded, a dashed line at each
/// failure and restart, and a tick at each checkpoint over the plot's top edge (firings off the
/// scale sit on the bottom edge). The ✕ and ↻
/// glyphs are elements over the canvas (`timeline_marks`), with their reasons as titles.
fn job_marks(ctx: &Ctx, p: &Palette, plot: &Plot) {
    let (h, bottom) = (plot.plot_h, TOP + plot.plot_h);
    if path_of(ctx, plot, |c, it| matches!(it, Item::JobDown { x, w } if { c.rect(*x, TOP, *w, h); true })) {
        ctx.set_global_alpha(0.13);
        ctx.set_fill_style_str(&p.refire);
        ctx.fill();
        ctx.set_global_alpha(1.0);
    }
    for (restart, colour) in [(false, &p.late), (true, &p.ok)] {
        let at = |c: &Ctx, it: &Item| matches!(it, Item::JobEvent { x, restart: r, .. } if *r == restart && { c.move_to(*x, TOP); c.line_to(*x, bottom); true });
        if path_of(ctx, plot, at) {
            dashed(ctx, &[3.0, 3.0]);
            stroke_style(ctx, colour, 1.0);
            ctx.stroke();
            dashed(ctx, &[]);
        }
    }
    if path_of(ctx, plot, |c, it| matches!(it, Item::Checkpoint { x } if { c.move_to(*x, TOP - 8.0); c.line_to(*x, TOP - 1.0); true })) {
        stroke_style(ctx, &p.ok, 1.5);
        ctx.stroke();
    }
}
