//! `wmp serve` (its flags: `wmp --help`, from `args.rs`): runs a scenario paced by the wall clock
//! (`--speed` simulated ms per wall-clock ms, [`MIN_SPEED`] to [`MAX_SPEED`]) and answers Flink's
//! REST endpoints and a Prometheus `/metrics` on 127.0.0.1 from it (`wmp::engine::rest`;
//! docs/SERVE.md).
//!
//! The wall clock is read here only, at the edge, to pace the simulation: the engine never sees
//! it. One mutex guards the session; a request takes it, renders its answer from that one state
//! and lets it go before writing to the socket, so an answer is always one consistent snapshot.
//! The pacing thread advances the session at most [`CHUNK_MS`] of simulated time per hold of
//! the lock, so requests are answered between chunks even at a high `--speed`.

use std::io::Write;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use wmp::engine::failover::JobStatus;
use wmp::engine::observer::Observer;
use wmp::engine::rest::{self, graph::JobGraph, Reply};
use wmp::engine::session::Session;
use wmp::engine::sim::Simulation;

/// How often the pacing thread looks at the clock.
const TICK: Duration = Duration::from_millis(10);
/// Simulated time processed per hold of the session's lock.
const CHUNK_MS: i64 = 10_000;
/// `--speed`'s range (docs/SERVE.md): below, the clock barely moves (`1e-300` never reached the
/// first millisecond); above, a whole scenario runs within one tick, which is `wmp run`'s job.
const MIN_SPEED: f64 = 0.001;
const MAX_SPEED: f64 = 1_000_000.0;

struct Options {
    speed: f64,
    port: u16,
    until_ms: Option<i64>,
}

fn options(a: &super::Args) -> Result<Options, String> {
    let mut o = Options { speed: 1.0, port: 8081, until_ms: None };
    if let Some(v) = a.text("--speed") {
        o.speed = v
            .parse()
            .ok()
            .filter(|s: &f64| (MIN_SPEED..=MAX_SPEED).contains(s))
            .ok_or(format!("--speed must be a number from {MIN_SPEED} to {MAX_SPEED} (simulated ms per wall-clock ms), got {v:?}"))?;
    }
    if let Some(v) = a.text("--port") {
        o.port = v.parse().map_err(|_| format!("--port must be 0..65535, got {v:?}"))?;
    }
    if let Some(v) = a.text("--until") {
        o.until_ms = Some(v.parse().ok().filter(|&t: &i64| t >= 0).ok_or(format!("--until must be a time in ms >= 0, got {v:?}"))?);
    }
    Ok(o)
}

/// How the pacing ended.
enum Outcome {
    /// The clock reached the end (`--until`, or the scenario's duration).
    Reached,
    /// The job FAILED (its restart strategy allowed no more restarts): a result, as in `wmp run`.
    JobFailed,
    /// The engine refused to go on: the message.
    EngineError(String),
}

/// Runs the server; returns only with `--until` (when the simulation reaches it, or stops there
/// because the job FAILED on the way) or on an error.
pub fn run(a: &super::Args) -> Result<String, String> {
    let o = options(a)?;
    let file = a.file()?;
    let name = super::shown(file);
    let text = super::read_input(file)?;
    let session = Session::from_json(&text).map_err(|e| format!("{name}: {e}"))?;
    let end_ms = o.until_ms.unwrap_or(session.scenario().duration_ms);
    // Checked here so that a time past the budget names `--until`, not the scenario's duration_ms.
    super::run_length::check(session.scenario(), end_ms, "--until", &name)?;
    let graph = JobGraph::of(session.sim(), &session.scenario().name);
    let server = tiny_http::Server::http(("127.0.0.1", o.port)).map_err(|e| format!("cannot listen on 127.0.0.1:{}: {e}", o.port))?;
    let port = server.server_addr().to_ip().map_or(o.port, |a| a.port());
    // The first line tells a script where to connect (with `--port 0` the OS picks the port).
    println!("wmp serve: http://127.0.0.1:{port}/ job {} ({:?}) at {}x", graph.job_id, graph.job_name, o.speed);
    let _ = std::io::stdout().flush();
    let session = Arc::new(Mutex::new(session));
    let done = Arc::new(AtomicBool::new(false));
    let pacer = {
        let (session, done) = (Arc::clone(&session), Arc::clone(&done));
        std::thread::spawn(move || pace(&session, o.speed, end_ms, o.until_ms.is_some(), &done))
    };
    while !done.load(Ordering::Relaxed) {
        match server.recv_timeout(Duration::from_millis(50)) {
            Ok(Some(request)) => answer(request, &graph, &session),
            Ok(None) => {}
            Err(e) => return Err(format!("the HTTP server stopped: {e}")),
        }
    }
    let outcome = pacer.join().unwrap_or_else(|_| Outcome::EngineError("the pacing thread panicked".into()));
    let s = lock(&session);
    let at = s.elapsed().max(0);
    match outcome {
        Outcome::Reached => Ok(format!("wmp serve: the simulation reached {at} ms")),
        // `--until` exits with 0 here too (docs/SERVE.md): a FAILED job is the run's result, as
        // `wmp run` reports it with 0; exit code 2 is for bad input.
        Outcome::JobFailed => Ok(format!("wmp serve: the simulation stopped at {at} ms: {}", s.halted().unwrap_or("the job FAILED"))),
        Outcome::EngineError(why) => Err(format!("{name}: the simulation stopped at {at} ms: {why}")),
    }
}

/// The session, even if a thread panicked while holding it (its state is still the engine's).
fn lock(session: &Mutex<Session>) -> MutexGuard<'_, Session> {
    session.lock().unwrap_or_else(|p| p.into_inner())
}

/// Ends a run at the instant the job FAILED. Without it the engine goes on to the end of the
/// pacer's step, so the served clock would stop wherever the wall clock had put that step.
struct StopWhenFailed;

impl Observer for StopWhenFailed {
    fn after_instant(&mut self, sim: &Simulation) -> ControlFlow<()> {
        if sim.job_status() == JobStatus::Failed {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }
}

/// Advances the simulation to `speed ×` the wall-clock time since the start, up to `end_ms`;
/// then sets `done` if `exit_at_end`, else leaves the clock standing. A FAILED job stops the
/// clock at the instant it failed, whatever the pacing.
fn pace(session: &Mutex<Session>, speed: f64, end_ms: i64, exit_at_end: bool, done: &AtomicBool) -> Outcome {
    let wall_start = Instant::now();
    loop {
        std::thread::sleep(TICK);
        let target = ((wall_start.elapsed().as_secs_f64() * 1000.0 * speed) as i64).min(end_ms);
        if let Some(outcome) = advance(session, target) {
            if !exit_at_end {
                let s = lock(session);
                eprintln!(
                    "wmp serve: the simulation stopped at {} ms: {}; still answering from that state",
                    s.elapsed().max(0),
                    why(&outcome, &s)
                );
            }
            done.store(exit_at_end, Ordering::Relaxed);
            return outcome;
        }
        if target >= end_ms {
            if !exit_at_end {
                eprintln!("wmp serve: the simulation reached {end_ms} ms (the scenario's duration); the clock stands still");
            }
            done.store(exit_at_end, Ordering::Relaxed);
            return Outcome::Reached;
        }
    }
}

/// Runs the session to `target` ms, [`CHUNK_MS`] per hold of the lock; `Some` if it stopped
/// for good on the way (the job FAILED, or an engine error).
fn advance(session: &Mutex<Session>, target: i64) -> Option<Outcome> {
    loop {
        let mut s = lock(session);
        let at = s.elapsed().max(0);
        if at >= target {
            return None;
        }
        let to = s.start() + target.min(at + CHUNK_MS);
        let result = s.run_until_abs(to, &mut StopWhenFailed);
        // An operator's exception (a record without a timestamp) is an error, as in `wmp run`,
        // though the job is FAILED too; a restart strategy's end is a result (exit 0, as `wmp
        // run` reports a FAILED job).
        if let Err(e) = result {
            return Some(Outcome::EngineError(e.to_string()));
        }
        if s.sim().job_status() == JobStatus::Failed {
            return Some(Outcome::JobFailed);
        }
    }
}

/// Why the simulation stopped, for the note on stderr.
fn why(outcome: &Outcome, s: &Session) -> String {
    match outcome {
        Outcome::EngineError(e) => e.clone(),
        _ => s.halted().unwrap_or("the job FAILED").to_string(),
    }
}

/// Splits `/path?query` and decodes the query (`get=a%2Cb` → `("get", "a,b")`).
fn split_url(url: &str) -> (&str, Vec<(String, String)>) {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    (path, form_urlencoded::parse(query.as_bytes()).into_owned().collect())
}

/// The path with its 32-hex-digit ids in lowercase: Flink's ids print in lowercase, and
/// `JobID.fromHexString` reads either case, so an id pasted in uppercase names the same job.
fn lowercase_ids(path: &str) -> String {
    path.split('/')
        .map(|p| if p.len() == 32 && p.chars().all(|c| c.is_ascii_hexdigit()) { p.to_ascii_lowercase() } else { p.to_string() })
        .collect::<Vec<_>>()
        .join("/")
}

/// The method the routes answer: `HEAD` is a `GET` whose body tiny_http leaves out.
fn routed_method(method: &str) -> String {
    match method.to_ascii_uppercase().as_str() {
        "HEAD" => "GET".into(),
        m => m.into(),
    }
}

fn answer(request: tiny_http::Request, graph: &JobGraph, session: &Mutex<Session>) {
    let url = request.url().to_string();
    let (path, query) = split_url(&url);
    let path = lowercase_ids(path);
    let method = routed_method(request.method().as_str());
    let reply: Reply = {
        let s = lock(session);
        rest::route(graph, s.sim(), &method, &path, &query)
    };
    if let Err(e) = request.respond(response(reply)) {
        eprintln!("wmp serve: could not answer {path}: {e}");
    }
}

/// The reply with exactly its headers (`Response::from_string` would add a `text/plain` type to a
/// preflight's answer, which has no body).
fn response(reply: Reply) -> tiny_http::Response<std::io::Cursor<Vec<u8>>> {
    let headers = reply.headers().map(|(k, v)| tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()).expect("ASCII header")).collect();
    let length = reply.body.len();
    tiny_http::Response::new(reply.status.into(), headers, std::io::Cursor::new(reply.body.into_bytes()), Some(length), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(words: &[&str]) -> Result<Options, String> {
        options(&super::super::args::parse("serve", words.iter().map(std::ffi::OsString::from))?)
    }

    #[test]
    fn options_take_speed_port_until_and_refuse_nonsense() {
        let o = parsed(&["--speed", "100", "--port", "0", "--until", "5000", "x.json"]).unwrap();
        assert_eq!((o.speed, o.port, o.until_ms), (100.0, 0, Some(5000)));
        for bad in [&["--speed", "0", "x"][..], &["--speed", "NaN", "x"], &["--speed", "1e-300", "x"], &["--speed", "1e300", "x"]] {
            assert!(parsed(bad).is_err(), "{bad:?}");
        }
        assert!(parsed(&["--port", "70000", "x"]).is_err());
        assert!(parsed(&["--until", "-1", "x"]).is_err());
    }

    #[test]
    fn ids_in_any_case_and_head_route_as_get() {
        assert_eq!(lowercase_ids("/jobs/ABCDEF0123456789ABCDEF0123456789/metrics"), "/jobs/abcdef0123456789abcdef0123456789/metrics");
        assert_eq!(lowercase_ids("/jobs/OVERVIEW"), "/jobs/OVERVIEW");
        assert_eq!((routed_method("HEAD"), routed_method("post")), ("GET".to_string(), "POST".to_string()));
    }

    #[test]
    fn query_strings_are_decoded() {
        let (p, q) = split_url("/jobs/x/metrics?get=a%2Cb&agg=min");
        assert_eq!(p, "/jobs/x/metrics");
        assert_eq!(q, vec![("get".to_string(), "a,b".to_string()), ("agg".into(), "min".into())]);
    }
}
