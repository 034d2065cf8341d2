//! "Download runnable job" beside the Java / SQL snippets: the current scenario (with the user's
//! actions) as the Flink 2.3 project `engine::export` writes, in one `.zip` (docs/EXPORT.md).
//! A scenario the export cannot run says why, naming the field, instead of downloading.

use super::state::Pg;
use crate::engine::export::export_job;
use super::save_file::save;
use leptos::prelude::*;

/// The button, and the status line of the last download;
/// `tab` keeps the ids unique (the Java and the SQL tab each have one).
#[component]
pub fn DownloadJob(tab: &'static str) -> impl IntoView {
    let pg = expect_context::<Pg>();
    let status = RwSignal::new(String::new());
    let on_click = move |_| match export_job(&pg.export_scenario()) {
        Ok(job) => {
            save("playground-job.zip", "application/zip", &job.to_zip("playground-job"));
            status.set(format!(
                "playground-job.zip: mvn package, then flink run; it prints the same window results. Its README says what the replay does differently ({} notes).",
                job.notes.len()
            ));
            pg.info("Downloaded the runnable Flink job (playground-job.zip)");
        }
        Err(e) => status.set(format!("This scenario cannot be exported as a job: {e}.")),
    };
    view! {
        <button class="btn small ghost" id=format!("btn-download-job-{tab}") on:click=on_click
            title="A Maven project for Flink 2.3 that replays this run's records and prints the same window results">"Download runnable job"</button>
        <span class="muted small" id=format!("download-job-status-{tab}") role="status">{move || status.get()}</span>
    }
}
