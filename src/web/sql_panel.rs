//! The SQL panel: the Flink SQL of the scenario (the snippet writer's, `snippets::sql`), in a
//! textarea the user may edit or paste a job into, and "Apply SQL" (or Ctrl/Cmd+Enter) to make
//! the scenario follow it (`sql_apply`, a restart like every structural control). Two-way:
//! while the text is not being edited, every change of the scenario (a control, a preset, a
//! scripted command) rewrites it. An edit is never overwritten: the panel says the controls
//! changed the scenario and offers to reset. An error selects its line:column in the text;
//! each clause read but not modelled is listed with its own, a click selects it.

use super::snippets;
use super::sql_apply::{apply_sql, selection_at, Applied};
use super::state::Pg;
use crate::engine::sql::{Note, SqlError};
use leptos::html::Textarea;
use leptos::prelude::*;

/// The panel's confirmations (a later error takes them away).
const APPLIED: &str = "SQL applied (restarted from time zero)";
const UNCHANGED: &str = "This SQL is the scenario's: nothing changed";

/// The panel's state. `synced` is the text as last reset or applied: the text differs from it
/// while the user edits. `shown_for` is the scenario's SQL the panel last saw, so that only a
/// change of the scenario rewrites the text (an applied script stays, its notes point into it).
#[derive(Clone, Copy)]
struct SqlEdit {
    text: RwSignal<String>,
    synced: StoredValue<String>,
    shown_for: StoredValue<String>,
    dirty: RwSignal<bool>,
    /// The scenario changed while the user was editing.
    stale: RwSignal<bool>,
    /// The text is a script the user applied (not the scenario's SQL as written).
    applied: RwSignal<bool>,
    error: RwSignal<Option<SqlError>>,
    notes: RwSignal<Vec<Note>>,
    area: NodeRef<Textarea>,
}

impl SqlEdit {
    fn new(sql: String) -> Self {
        SqlEdit {
            text: RwSignal::new(sql.clone()),
            synced: StoredValue::new(sql.clone()),
            shown_for: StoredValue::new(sql),
            dirty: RwSignal::new(false),
            stale: RwSignal::new(false),
            applied: RwSignal::new(false),
            error: RwSignal::new(None),
            notes: RwSignal::new(Vec::new()),
            area: NodeRef::new(),
        }
    }

    /// Shows `text` as the clean state (the scenario's SQL, or the script just applied), with
    /// its notes in the order of the text.
    fn sync(self, text: String, applied: bool, mut notes: Vec<Note>) {
        notes.sort_by_key(|n| (n.line, n.column));
        self.synced.set_value(text.clone());
        self.text.set(text);
        self.dirty.set(false);
        self.stale.set(false);
        self.applied.set(applied);
        self.error.set(None);
        self.notes.set(notes);
    }

    fn reset(self) {
        self.sync(self.shown_for.get_value(), false, Vec::new());
    }

    /// The scenario's SQL is now `sql`: shown at once, unless the user is editing.
    fn follow(self, sql: String) {
        if self.shown_for.with_value(|s| *s == sql) {
            return;
        }
        self.shown_for.set_value(sql.clone());
        if self.dirty.get_untracked() {
            self.stale.set(true);
        } else {
            self.sync(sql, false, Vec::new());
        }
    }

    /// An edit; once the scenario changed under it, the text stays the user's (not the
    /// scenario's) even when typed back to what it was. The message and the notes go: their
    /// positions were of the text before.
    fn edited(self, text: String) {
        self.dirty.set(self.stale.get_untracked() || self.synced.with_value(|s| *s != text));
        self.text.set(text);
        self.error.set(None);
        if self.notes.with_untracked(|n| !n.is_empty()) {
            self.notes.set(Vec::new());
        }
    }

    /// Applies the text: an error is shown and selected; a script that changes the scenario
    /// restarts it (the same path as the structural controls).
    fn apply(self, pg: Pg) {
        let sql = self.text.get_untracked();
        // A ✓ of an earlier apply beside this one's error read as a contradiction.
        pg.clear_confirmations(|t| t == APPLIED || t == UNCHANGED);
        if sql.trim().is_empty() {
            // It said "Your SQL, applied." of an empty box, then "✓ Nothing to apply".
            let message = "Nothing to apply: the box is empty (Reset shows the scenario's SQL)".to_string();
            return self.error.set(Some(SqlError { line: 0, column: 0, message }));
        }
        let log = pg.update_session(|s| s.log().to_vec());
        match apply_sql(&sql, &pg.export_scenario(), &log) {
            Err(e) => {
                self.select(e.line, e.column);
                self.error.set(Some(e));
            }
            Ok(Applied::Unchanged(notes)) => {
                self.sync(sql, self.applied.get_untracked(), notes);
                pg.info(UNCHANGED);
            }
            Ok(Applied::Changed(sc, notes)) => match pg.restart_with(|s| *s = *sc) {
                Ok(()) => {
                    self.shown_for.set_value(pg.cfg.with_untracked(snippets::sql));
                    self.sync(sql, true, notes);
                    pg.info(APPLIED);
                }
                Err(e) => pg.error(format!("The SQL gives a scenario that cannot run: {e}")),
            },
        }
    }

    /// Focuses the text with the token at `line`:`column` selected.
    fn select(self, line: u32, column: u32) {
        let Some(area) = self.area.get_untracked() else { return };
        let (start, end) = self.text.with_untracked(|t| selection_at(t, line, column));
        super::text_select::select_in(&area, start, end, line.saturating_sub(1));
    }
}

/// The status line above the text: what it shows, and what Apply and Reset would do.
fn status(e: SqlEdit) -> &'static str {
    match (e.dirty.get(), e.stale.get(), e.applied.get()) {
        (true, true, _) => "The scenario changed (a preset, the controls or a fix) while you edited: Apply SQL runs your text, Reset shows the scenario's SQL.",
        (true, false, _) => "Edited: Apply SQL (Ctrl+Enter) restarts the scenario from this SQL.",
        (false, _, true) => "Your SQL, applied. Reset shows the scenario's SQL as the playground writes it.",
        (false, _, false) => "The scenario's SQL: it follows the controls. Edit it or paste a job, then Apply SQL.",
    }
}

#[component]
pub fn SqlPanel() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let scenario_sql = Memo::new(move |_| pg.cfg.with(snippets::sql));
    let e = SqlEdit::new(scenario_sql.get_untracked());
    Effect::new(move |_| e.follow(scenario_sql.get()));
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        if ev.key() == "Enter" && (ev.ctrl_key() || ev.meta_key()) {
            ev.prevent_default();
            e.apply(pg);
        }
    };
    view! {
        <section class="card sql-card" id="sql" aria-labelledby="sql-h">
            <header class="card-head">
                <h2 id="sql-h">"Flink SQL"</h2>
                <span class="small muted">"SET · CREATE TABLE … WATERMARK FOR … WITH (…) · a window TVF query (docs/SQL.md)"</span>
            </header>
            <p class="small sql-status" id="sql-status" class:stale=move || e.stale.get() aria-live="polite">{move || status(e)}</p>
            <textarea id="sql-text" class="code sql-text" rows="14" spellcheck="false" autocomplete="off" node_ref=e.area
                aria-label="Flink SQL of the scenario" aria-describedby="sql-status sql-error"
                prop:value=move || e.text.get() on:input=move |ev| e.edited(event_target_value(&ev)) on:keydown=on_key></textarea>
            <div class="btn-row sql-actions">
                <button class="btn small" id="btn-apply-sql" aria-keyshortcuts="Control+Enter Meta+Enter" on:click=move |_| e.apply(pg)>"Apply SQL"</button>
                <button class="btn small ghost" id="btn-reset-sql" disabled=move || !(e.dirty.get() || e.applied.get() || e.stale.get())
                    on:click=move |_| e.reset()>"Reset to the scenario's SQL"</button>
                <button class="btn small ghost" id="btn-copy-sql-text" on:click=move |_| super::share::copy_text(&pg, e.text.get_untracked(), "the SQL")>"Copy"</button>
                <span class="small muted"><kbd>"Ctrl"</kbd>"/"<kbd>"⌘"</kbd>"+"<kbd>"Enter"</kbd>" applies"</span>
            </div>
            <p class="field-msg error sql-error" id="sql-error" role="alert">
                // Line 0: an error of the whole text (an empty box), with no place to select.
                {move || e.error.get().map(|err| view! {
                    {(err.line > 0).then(|| view! { <Place e=e line=err.line column=err.column />": " })}{err.message}" "
                })}
            </p>
            <SqlNotes e=e />
        </section>
    }
}

/// `line L, column C` as a button that selects it in the text.
#[component]
fn Place(e: SqlEdit, line: u32, column: u32) -> impl IntoView {
    view! {
        <button type="button" class="link sql-place" data-line=line data-column=column on:click=move |_| e.select(line, column)>
            {format!("line {line}, column {column}")}
        </button>
    }
}

/// The notes of the last apply: each clause read but not modelled, where it is written.
#[component]
fn SqlNotes(e: SqlEdit) -> impl IntoView {
    view! {
        <div class="sql-notes" class:hidden=move || e.notes.with(Vec::is_empty)>
            <h3 class="small" id="sql-notes-h">{move || format!("Read but not modelled ({})", e.notes.with(Vec::len))}</h3>
            <ul id="sql-notes" aria-labelledby="sql-notes-h">
                {move || e.notes.get().into_iter().map(|n| view! { <li><Place e=e line=n.line column=n.column />": "{n.message}</li> }).collect_view()}
            </ul>
        </div>
    }
}
