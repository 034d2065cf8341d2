//! The "Live job" card: a JobManager URL, Connect (lists its jobs), pick one and the page polls
//! it every 2 s (visible status, Stop) and draws the real job with the simulated job's graph and
//! tables (`live_graph`), then the engine's explanation of who holds the watermark and
//! the metrics per subtask; "Turn into a scenario" loads a scenario with
//! its shape. Offline: paste the answers as one bundle (docs/LIVE.md). Fetching and timing
//! live here and in `live_fetch`; reading and explaining is the engine's (`engine::live`).

use super::live_fetch::{self, FetchError};
use super::state::Pg;
use crate::engine::live::job::parse_overview;
use crate::engine::live::to_scenario::to_scenario;
use crate::engine::live::to_snapshot::to_snapshot;
use crate::engine::live::{Bundle, JobSummary, LiveJob};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Wall time between two polls: a poll is a dozen requests per vertex on the JobManager.
pub const POLL_MS: i32 = 2_000;

#[derive(Clone, Copy)]
struct Live {
    url: RwSignal<String>,
    jobs: RwSignal<Vec<JobSummary>>,
    job: RwSignal<Option<LiveJob>>,
    status: RwSignal<String>,
    error: RwSignal<Option<String>>,
    polling: RwSignal<bool>,
    /// Bumped by every start and stop: a poll loop ends when it no longer has the current one.
    generation: StoredValue<u64>,
}

fn clock_now() -> String {
    let utc = crate::engine::time::format_utc(js_sys::Date::now() as i64);
    let time = utc.split(' ').nth(1).unwrap_or_default();
    format!("{} UTC", time.split('.').next().unwrap_or_default())
}

impl Live {
    fn fail(&self, e: &FetchError) {
        self.error.set(Some(e.message()));
    }

    fn connect(self) {
        self.stop();
        self.error.set(None);
        self.job.set(None);
        self.jobs.set(Vec::new());
        let typed = self.url.get_untracked();
        if typed.trim().is_empty() {
            self.status.set(String::new());
            return self.error.set(Some("Type the JobManager's URL first (http://jobmanager:8081).".into()));
        }
        self.status.set("connecting…".into());
        let base = live_fetch::normalize_base(&typed);
        leptos::task::spawn_local(async move {
            let result = live_fetch::overview(&base).await.and_then(|v| parse_overview(&v).map_err(FetchError::Live));
            match result {
                Ok(jobs) => {
                    let running = jobs.iter().filter(|j| j.state == "RUNNING").count();
                    self.status.set(format!("{} jobs, {running} running", jobs.len()));
                    self.jobs.set(jobs);
                }
                Err(e) => {
                    self.status.set(String::new());
                    self.fail(&e);
                }
            }
        });
    }

    fn start(self, job_id: String) {
        self.generation.update_value(|g| *g += 1);
        let mine = self.generation.get_value();
        self.polling.set(true);
        self.error.set(None);
        let base = live_fetch::normalize_base(&self.url.get_untracked());
        leptos::task::spawn_local(async move {
            while self.generation.try_get_value() == Some(mine) {
                let result = live_fetch::poll(&base, &job_id).await;
                if self.generation.try_get_value() != Some(mine) {
                    break;
                }
                match result {
                    Ok((_, job)) => {
                        self.job.set(Some(job));
                        self.error.set(None);
                        self.status.set(format!("polling · last update {}", clock_now()));
                    }
                    Err(e) => {
                        self.fail(&e);
                        if matches!(e, FetchError::Live(_) | FetchError::Status { .. }) {
                            self.stop();
                            self.status.set(format!("stopped at {}", clock_now()));
                            break;
                        }
                    }
                }
                live_fetch::sleep(POLL_MS).await;
            }
        });
    }

    fn stop(self) {
        self.generation.update_value(|g| *g += 1);
        if self.polling.get_untracked() {
            self.status.set(format!("stopped at {}", clock_now()));
        }
        self.polling.set(false);
    }

    fn read_offline(self, text: &str) {
        self.stop();
        // A failed paste shows no drawing: the one below would be the previous job's.
        self.job.set(None);
        self.status.set(String::new());
        if text.trim().is_empty() {
            return self.error.set(Some("Paste a bundle first: what flink-bundle.sh printed (linked above the box).".into()));
        }
        let read = Bundle::parse(text).and_then(|b| LiveJob::from_bundle(&b, &LiveJob::only_job_id(&b)?));
        match read {
            Ok(job) => {
                self.status.set(format!("offline bundle: {}", job.name));
                self.error.set(None);
                self.job.set(Some(job));
            }
            Err(e) => self.error.set(Some(live_fetch::offline_message(&e))),
        }
    }
}

/// The scenario just loaded is at the top of the page, far above the card: its graph comes into
/// view with the focus (the page stayed at the card, with the focus on its button).
fn show_graph(pg: Pg) {
    set_timeout(
        move || {
            let Some(svg) = pg.query(".graph-row svg.graph").and_then(|e| e.dyn_into::<web_sys::SvgElement>().ok()) else { return };
            let opts = web_sys::FocusOptions::new();
            opts.set_prevent_scroll(true);
            let _ = svg.focus_with_options(&opts);
            // Its card from the top: "nearest", from far below, left the graph's head cut off.
            if let Some(card) = svg.closest(".card").ok().flatten() {
                card.scroll_into_view();
            }
        },
        std::time::Duration::from_millis(60),
    );
}

#[component]
pub fn LiveCard() -> impl IntoView {
    let pg = expect_context::<Pg>();
    let live = Live {
        url: RwSignal::new("http://localhost:8081".into()),
        jobs: RwSignal::new(Vec::new()),
        job: RwSignal::new(None),
        status: RwSignal::new(String::new()),
        error: RwSignal::new(None),
        polling: RwSignal::new(false),
        generation: StoredValue::new(0),
    };
    on_cleanup(move || live.generation.update_value(|g| *g += 1));
    let offline = RwSignal::new(String::new());
    // The job as the simulated job's snapshot, for the graph and tables (recomputed per poll).
    let graph = Memo::new(move |_| live.job.with(|j| j.as_ref().map(to_snapshot)));
    let to_scenario_click = move |_| {
        let Some(job) = live.job.get_untracked() else { return };
        live.stop();
        let sc = to_scenario(&job);
        match super::share::import_json(&pg, &sc.to_string()) {
            Ok(()) => {
                pg.info(format!("Loaded a scenario with the shape of {}: its description says what it keeps and what it assumes.", job.name));
                show_graph(pg);
            }
            Err(e) => pg.error(e),
        }
    };
    // `#live` (docs/LIVE.md) opens the card: the browser's own jump to the anchor came before
    // the page was drawn, and the address is rewritten to the page's state a moment later.
    // Only the page's own address: a host page's `#live` anchor is the host's.
    let is_page = use_context::<super::host::Look>().is_none();
    let opened = is_page && window().location().hash().is_ok_and(|h| h == "#live");
    let section = NodeRef::<leptos::html::Section>::new();
    if opened {
        let jump = move || {
            if let Some(s) = section.try_get_untracked().flatten() {
                s.scroll_into_view();
            }
        };
        set_timeout(jump, std::time::Duration::from_millis(100));
    }
    view! {
        <section class="card live-card" id="live" aria-labelledby="live-h" node_ref=section>
            <details open=opened>
                <summary><h2 id="live-h" class="inline-h">"Live job"</h2><span class="muted small">" · read a real Flink job's watermarks (REST API)"</span></summary>
                <form class="live-connect" on:submit=move |e| { e.prevent_default(); live.connect(); }>
                    <label for="live-url">"JobManager URL"</label>
                    <input id="live-url" type="url" inputmode="url" spellcheck="false" prop:value=move || live.url.get()
                        on:input=move |e| live.url.set(event_target_value(&e)) />
                    <button class="btn" id="live-connect" type="submit">"Connect"</button>
                </form>
                <JobList live=live />
                <p class="small live-status" id="live-status" role="status">
                    {move || live.status.get()}
                    <Show when=move || live.polling.get()>" · "<button class="btn small" id="live-stop" on:click=move |_| live.stop()>"Stop"</button></Show>
                </p>
                <Show when=move || live.error.get().is_some()>
                    <p class="live-error" id="live-error" role="alert">{move || live.error.get().unwrap_or_default()}</p>
                </Show>
                <Show when=move || live.job.with(Option::is_some)>
                    <super::live_graph::LiveGraphView graph=graph />
                    <super::live_table::LiveJobView job=live.job.into() />
                    <button class="btn" id="live-scenario" on:click=to_scenario_click title="A simulation with this job's shape and current watermarks">"Turn into a scenario"</button>
                </Show>
                <details class="live-offline">
                    <summary>"Offline: paste the REST answers (a bundle)"</summary>
                    <p class="small">"For a job behind a firewall: run "<a href=bundle_script_href() download="flink-bundle.sh">"flink-bundle.sh"</a>
                        " (bash, curl, jq) where the JobManager answers, "<code>"bash flink-bundle.sh http://jobmanager:8081 > bundle.json"</code>
                        ", and paste the file here."</p>
                    <label for="live-bundle" class="sr-only">"Bundle JSON"</label>
                    <textarea id="live-bundle" rows="6" spellcheck="false" placeholder="{\"/jobs/overview\": {…}, \"/jobs/<jid>\": {…}, …}"
                        prop:value=move || offline.get() on:input=move |e| offline.set(event_target_value(&e))></textarea>
                    <button class="btn" id="live-read" on:click=move |_| live.read_offline(&offline.get_untracked())>"Read bundle"</button>
                </details>
            </details>
        </section>
    }
}

/// The offline bundle's script (`www/pages/flink-bundle.sh`, which docs/LIVE.md prints) as a
/// link that downloads it. A data URL works wherever the card is: mounted in a docs page, the
/// relative `pages/flink-bundle.sh` was the host page's folder.
fn bundle_script_href() -> String {
    let script = include_str!("../../www/pages/flink-bundle.sh");
    format!("data:text/x-shellscript;charset=utf-8,{}", String::from(js_sys::encode_uri_component(script)))
}

#[component]
fn JobList(live: Live) -> impl IntoView {
    view! {
        <Show when=move || live.jobs.with(|j| !j.is_empty())>
            <ul class="live-jobs" aria-label="Jobs on this JobManager">
                <For each=move || live.jobs.get() key=|j| (j.id.clone(), j.state.clone()) let:j>
                    {
                        let id = j.id.clone();
                        let running = j.state == "RUNNING";
                        view! {
                            <li>
                                <button class="btn small live-job" disabled=!running data-job=j.id.clone() on:click=move |_| live.start(id.clone())>
                                    {if running { "Poll" } else { "Ended" }}
                                </button>
                                " "<span>{j.name.clone()}</span>" "<span class="muted small mono">{format!("{} · {}", j.state, &j.id[..8.min(j.id.len())])}</span>
                            </li>
                        }
                    }
                </For>
            </ul>
        </Show>
    }
}
