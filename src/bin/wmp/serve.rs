//! `wmp serve SCENARIO [--speed N] [--port P] [--until MS]`: runs a scenario paced by the wall
//! clock (`N` simulated ms per wall-clock ms) and answers Flink's REST endpoints and a
//! Prometheus `/metrics` on 127.0.0.1 from it (`wmp::engine::rest`; docs/SERVE.md).
//!
//! The wall clock is read here only, at the edge, to pace the simulation: the engine never sees
//! it. One mutex guards the session; a request takes it, renders its answer from that one state
//! and lets it go before writing to the socket, so an answer is always one consistent snapshot.
//! The pacing thread advances the session at most [`CHUNK_MS`] of simulated time per hold of
//! the lock, so requests are answered between chunks even at a high `--speed`.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use wmp::engine::rest::{self, graph::JobGraph, Reply};
use wmp::engine::session::{budget, Session};

/// How often the pacing thread looks at the clock.
const TICK: Duration = Duration::from_millis(10);
/// Simulated time processed per hold of the session's lock.
const CHUNK_MS: i64 = 10_000;

pub const USAGE: &str = "wmp serve [--speed N] [--port P] [--until MS] FILE|-";

struct Options {
    speed: f64,
    port: u16,
    until_ms: Option<i64>,
    file: String,
}

fn options(args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut o = Options { speed: 1.0, port: 8081, until_ms: None, file: String::new() };
    let mut args = args;
    while let Some(a) = args.next() {
        let mut value = |what: &str| args.next().ok_or(format!("{a} needs {what}"));
        match a.as_str() {
            "--speed" => {
                let v = value("a number > 0")?;
                o.speed =
                    v.parse().ok().filter(|s: &f64| s.is_finite() && *s > 0.0).ok_or(format!("--speed must be a number > 0, got {v:?}"))?
            }
            "--port" => {
                let v = value("a port number")?;
                o.port = v.parse().map_err(|_| format!("--port must be 0..65535, got {v:?}"))?
            }
            "--until" => {
                let v = value("a time in ms >= 0")?;
                o.until_ms = Some(v.parse().ok().filter(|&t: &i64| t >= 0).ok_or(format!("--until must be a time in ms >= 0, got {v:?}"))?)
            }
            _ if o.file.is_empty() => o.file = a,
            _ => return Err(format!("unexpected argument {a:?} ({USAGE})")),
        }
    }
    if o.file.is_empty() {
        return Err(USAGE.to_string());
    }
    Ok(o)
}

/// Runs the server; returns only with `--until` (when the simulation reaches it, or an error if
/// the job failed on the way) or on an error.
pub fn run(args: impl Iterator<Item = String>) -> Result<String, String> {
    let o = options(args)?;
    let text = super::read_input(&o.file)?;
    let at = |e: wmp::engine::error::InputError| format!("{}: {e}", o.file);
    let session = Session::from_json(&text).map_err(at)?;
    let end_ms = o.until_ms.unwrap_or(session.scenario().duration_ms);
    budget::check_until(session.scenario(), end_ms).map_err(at)?;
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
    let _ = pacer.join();
    let s = lock(&session);
    match s.halted() {
        Some(why) => Err(format!("{}: the simulation stopped at {} ms: {why}", o.file, s.elapsed().max(0))),
        None => Ok(format!("wmp serve: the simulation reached {} ms", s.elapsed().max(0))),
    }
}

/// The session, even if a thread panicked while holding it (its state is still the engine's).
fn lock(session: &Mutex<Session>) -> MutexGuard<'_, Session> {
    session.lock().unwrap_or_else(|p| p.into_inner())
}

/// Advances the simulation to `speed ×` the wall-clock time since the start, up to `end_ms`;
/// then sets `done` if `exit_at_end`, else leaves the clock standing.
fn pace(session: &Mutex<Session>, speed: f64, end_ms: i64, exit_at_end: bool, done: &AtomicBool) {
    let wall_start = Instant::now();
    loop {
        std::thread::sleep(TICK);
        let target = ((wall_start.elapsed().as_secs_f64() * 1000.0 * speed) as i64).min(end_ms);
        loop {
            let mut s = lock(session);
            let at = s.elapsed().max(0);
            if at >= target {
                break;
            }
            let to = s.start() + target.min(at + CHUNK_MS);
            if let Err(e) = s.run_until_abs(to, &mut ()) {
                eprintln!("wmp serve: the simulation stopped at {at} ms: {e}; still answering from that state");
                done.store(exit_at_end, Ordering::Relaxed);
                return;
            }
        }
        if target >= end_ms {
            if !exit_at_end {
                eprintln!("wmp serve: the simulation reached {end_ms} ms (the scenario's duration); the clock stands still");
            }
            done.store(exit_at_end, Ordering::Relaxed);
            return;
        }
    }
}

/// Splits `/path?query` and decodes the query (`get=a%2Cb` → `("get", "a,b")`).
fn split_url(url: &str) -> (&str, Vec<(String, String)>) {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    (path, form_urlencoded::parse(query.as_bytes()).into_owned().collect())
}

fn answer(request: tiny_http::Request, graph: &JobGraph, session: &Mutex<Session>) {
    let url = request.url().to_string();
    let (path, query) = split_url(&url);
    let method = request.method().as_str().to_ascii_uppercase();
    let reply: Reply = {
        let s = lock(session);
        rest::route(graph, s.sim(), &method, path, &query)
    };
    let header = |k: &str, v: &str| tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()).expect("ASCII header");
    let response = tiny_http::Response::from_string(reply.body)
        .with_status_code(reply.status)
        .with_header(header("Content-Type", reply.content_type))
        // Flink's `web.access-control-allow-origin` default: any page may read the REST API.
        .with_header(header("Access-Control-Allow-Origin", "*"));
    if let Err(e) = request.respond(response) {
        eprintln!("wmp serve: could not answer {path}: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_take_speed_port_until_and_refuse_nonsense() {
        let o = options(["--speed", "100", "--port", "0", "--until", "5000", "x.json"].map(String::from).into_iter()).unwrap();
        assert_eq!((o.speed, o.port, o.until_ms, o.file.as_str()), (100.0, 0, Some(5000), "x.json"));
        assert!(options(["--speed", "0", "x"].map(String::from).into_iter()).is_err());
        assert!(options(["--speed", "NaN", "x"].map(String::from).into_iter()).is_err());
        assert!(options(["--port", "70000", "x"].map(String::from).into_iter()).is_err());
        assert!(options(["--until", "-1", "x"].map(String::from).into_iter()).is_err());
        assert!(options(std::iter::empty()).is_err());
    }

    #[test]
    fn query_strings_are_decoded() {
        let (p, q) = split_url("/jobs/x/metrics?get=a%2Cb&agg=min");
        assert_eq!(p, "/jobs/x/metrics");
        assert_eq!(q, vec![("get".to_string(), "a,b".to_string()), ("agg".into(), "min".into())]);
    }
}
