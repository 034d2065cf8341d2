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
}
