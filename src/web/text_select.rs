//! Selecting what an error names in a text box (the SQL panel's bad token, the Import box's
//! bad value), and bringing its line into view: the reader should not hunt for it.

/// Focuses `area` with UTF-16 offsets `start..end` selected, on (0-based) line `line`.
pub fn select_in(area: &web_sys::HtmlTextAreaElement, start: u32, end: u32, line: u32) {
    let _ = area.focus();
    let _ = area.set_selection_range(start, end);
    // Bring the selected line into view (Chromium keeps a focused selection in view, others may
    // not): lines above it times the line height.
    if let Some(lh) = web_sys::window()
        .and_then(|w| w.get_computed_style(area).ok().flatten())
        .and_then(|s| s.get_property_value("line-height").ok())
        .and_then(|v| v.trim_end_matches("px").parse::<f64>().ok())
    {
        let top = (line.saturating_sub(2) as f64) * lh;
        area.set_scroll_top(top as i32);
    }
    scroll_to_column(area, start);
}

/// An unwrapped line wider than the box (a phone's SQL panel) keeps the selection off to the
/// right: scroll it to the middle. The box is monospace, so a column's width is its scrollable
/// width over its widest line's columns.
fn scroll_to_column(area: &web_sys::HtmlTextAreaElement, start: u32) {
    if area.scroll_width() <= area.client_width() {
        return;
    }
    let at = super::text_columns::columns(&area.value(), start);
    if at.widest == 0 {
        return;
    }
    let column_px = f64::from(area.scroll_width()) / at.widest as f64;
    let left = at.column as f64 * column_px - f64::from(area.client_width()) / 2.0;
    area.set_scroll_left(left.max(0.0) as i32);
}
