//! "Download runnable job" beside the Java / SQL snippets: the current scenario (with the user's
//! actions) as the Flink 2.3 project `engine::export` writes, in one `.zip` (docs/EXPORT.md).
//! A scenario the export cannot run says why, naming the field, instead of downloading.

use super::state::Pg;
use crate::engine::export::{export_job, is_sql_window};
use super::save_file::save;
use leptos::prelude::*;

/// Less than this has run: nothing worth replaying (edits before ▶ land a few ms in).
const NOTHING_RUN_MS: i64 = 1_000;

/// The button, and the status line of the last download;
/// `tab` keeps the ids unique (the Java and the SQL tab each have one).
#[component]
pub fn DownloadJob(tab: &'static str) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let status = RwSignal::new(String::new());
    let on_click = move |_| {
        // The job replays what the playground read: before ▶ that is nothing, and the project
        // printed no result (a "Fix" then a download is what a newcomer tries first). Checked
        // before the export, which runs the whole scenario again.
        if pg.now() - pg.start_time() < NOTHING_RUN_MS {
            status.set("Nothing has run yet: press ▶ and let it run, then download (the job replays what the playground read; your settings stay).".into());
        } else {
            download(pg, status);
        }
    };
    // The SQL tab's job is a DataStream one unless the window is SQL's: say so before the click.
    let datastream_here = move || tab == "sql" && !pg.cfg.with(is_sql_window);
    let title = move || {
        // A restart with another release sets `cfg`.
        pg.cfg.track();
        let datastream = if datastream_here() {
            ". This scenario's window is a DataStream window, so the job is DataStream Java; the SQL above is its equivalent"
        } else {
            ""
        };
        format!("A Maven project for Flink 2.3 that replays this run's records and {}{datastream}", prints(pg))
    };
    view! {
        <button class="btn small ghost" id=format!("btn-download-job-{tab}") on:click=on_click
            title=title>{move || if datastream_here() { "Download runnable job (DataStream Java)" } else { "Download runnable job" }}</button>
        <span class="muted small" id=format!("download-job-status-{tab}") role="status">{move || status.get()}</span>
    }
}

/// What the job prints. It runs Flink 2.3 and does not replay an older release's `flink`
/// switches (docs/EXPORT.md): with 1.19.1 chosen it promised this run's results all the same.
fn prints(pg: Pg) -> String {
    match pg.base.with_value(|b| super::format::simulated_flink(&b.flink)) {
        (_, true) => "prints the same window results".into(),
        (release, false) => format!("prints its window results; this run simulates {release}, so they can differ"),
    }
}

/// Exports the scenario so far and saves it, or says why not.
fn download(pg: Pg, status: RwSignal<String>) {
    match export_job(&pg.export_scenario()) {
        // A command's error is about what the user did: said without the scenario's field.
        Err(e) if e.path.starts_with("commands[") => {
            status.set(format!("Not downloaded: {}.", e.message.trim_start_matches("cannot be exported yet: ")))
        }
        Ok(job) => {
            save("playground-job.zip", "application/zip", &job.to_zip("playground-job"));
            status.set(format!(
                "playground-job.zip: mvn package, then flink run; it {}. Its README says what the replay does differently ({} notes).",
                prints(pg),
                job.notes.len()
            ));
            pg.info("Downloaded the runnable Flink job (playground-job.zip)");
        }
        Err(e) => status.set(format!("This scenario cannot be exported as a job: {e}.")),
    }
}
