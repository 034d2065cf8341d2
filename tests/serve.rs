//! `wmp serve` against the real clients a monitoring setup uses:
//! * seed 000's triage loop, verbatim, with real `curl` and `jq`, lists every vertex and the
//!   window subtasks' `currentInputWatermark`s;
//! * the metric, aggregated-metric and back-pressure endpoints answer Flink's shapes, and unknown
//!   jobs and vertices Flink's `{"errors":[…]}` with 404 (400 for a malformed id);
//! * `promtool check metrics` parses the `/metrics` exposition (its only complaints are the
//!   camelCase of Flink's own metric names);
//! * `--until MS` ends the server there; bad arguments (a `--speed` out of its range, an `--until`
//!   past the work budget) exit with 2 and one line naming the flag;
//! * a job that FAILS stops the served clock at the instant it failed, whatever `--speed`, and
//!   `--until` still exits with 0;
//! * `HEAD` is answered wherever `GET` is, without a body; ids are read in either case;
//! * a browser's CORS preflight (`OPTIONS`) gets 204 with the CORS headers;
//! * a real Prometheus scrapes it and evaluates an event-time-lag alert that fires while seed
//!   001's heartbeat partition pins the watermark and clears after the idle-timeout fix.
//!
//! Tools missing: with `CI` set (scripts/test.sh) a test fails; otherwise it says so loudly and
//! passes without checking (`scripts/setup.sh` installs them).

// It runs the `wmp` binary or the SQL reader / export: the `tools` feature's (on by default).
#![cfg(feature = "tools")]

use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const WMP: &str = env!("CARGO_BIN_EXE_wmp");
const SEED_001: &str = "presets/seed_001_heartbeat.json";
const SEED_001_FIX: &str = "tests/serve/seed_001_idle_fix.json";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Whether every tool is on the PATH; in CI a missing one fails the test.
fn tools(names: &[&str]) -> bool {
    let missing: Vec<&str> = names
        .iter()
        .copied()
        .filter(|t| Command::new("sh").args(["-c", &format!("command -v {t}")]).output().map_or(true, |o| !o.status.success()))
        .collect();
    if missing.is_empty() {
        return true;
    }
    let msg = format!("{} missing: run scripts/setup.sh", missing.join(", "));
    assert!(std::env::var_os("CI").is_none(), "{msg}");
    // Straight to stderr: the test harness captures eprintln! of passing tests.
    let _ = writeln!(std::io::stderr().lock(), "\n!!!!!!!! SKIPPED, NOT CHECKED: {msg} !!!!!!!!\n");
    false
}

/// A child process killed (by its own handle) when the test ends, also on a failed assertion.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `wmp serve` on a free port; its base URL, read from its first line.
fn serve(scenario: &str, speed: &str) -> (Running, String) {
    let mut child = Command::new(WMP)
        .args(["serve", "--port", "0", "--speed", speed, scenario])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn wmp serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.split_whitespace().nth(2).unwrap_or_else(|| panic!("no URL in {line:?}")).trim_end_matches('/').to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{line}");
    (Running(child), url)
}

fn sh(script: &str, env: &[(&str, &str)]) -> (i32, String, String) {
    let out = Command::new("bash").args(["-c", script]).envs(env.iter().copied()).output().expect("bash");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// `curl -s URL` parsed as JSON, with the HTTP status.
fn curl_json(url: &str) -> (u16, Value) {
    let (code, out, err) = sh("curl -s -w '\\n%{http_code}' \"$U\"", &[("U", url)]);
    assert_eq!(code, 0, "curl {url}: {err}");
    let (body, status) = out.rsplit_once('\n').unwrap();
    (status.parse().unwrap(), serde_json::from_str(body).unwrap_or_else(|e| panic!("{url}: {e}: {body}")))
}

fn is_hex32(s: &str) -> bool {
    s.len() == 32 && s.chars().all(|c| c.is_ascii_hexdigit())
}

/// Seed 000, lines 12–17, as printed there (with `JM` pointing at the simulation).
const SEED_000_LOOP: &str = r#"JOB=$(curl -s $JM/jobs | jq -r '.jobs[] | select(.status=="RUNNING") | .id' | head -1)
for V in $(curl -s $JM/jobs/$JOB | jq -r '.vertices[].id'); do
echo "== $V"
curl -s $JM/jobs/$JOB/vertices/$V/watermarks | jq -r '.[] | "\(.id) \(.value)"'
done"#;

#[test]
fn seed_000_loop_runs_verbatim_with_curl_and_jq() {
    if !tools(&["curl", "jq"]) {
        return;
    }
    let (_server, jm) = serve(SEED_001, "100");
    let (code, out, err) = sh(SEED_000_LOOP, &[("JM", &jm)]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    // Two vertices: the source (no task-level input watermark: nothing listed) and the windows.
    assert_eq!(lines.iter().filter(|l| l.starts_with("== ")).count(), 2, "{out}");
    assert!(lines[0].starts_with("== ") && is_hex32(&lines[0][3..]), "{out}");
    assert!(lines[1].starts_with("== ") && is_hex32(&lines[1][3..]), "{out}");
    let watermarks: Vec<(String, i64)> = lines[2..]
        .iter()
        .map(|l| {
            let (id, v) = l.split_once(' ').unwrap_or_else(|| panic!("{l:?}"));
            (id.to_string(), v.parse().unwrap_or_else(|_| panic!("{l:?}")))
        })
        .collect();
    let ids: Vec<String> = (0..8).map(|i| format!("{i}.currentInputWatermark")).collect();
    assert_eq!(watermarks.iter().map(|w| w.0.clone()).collect::<Vec<_>>(), ids, "{out}");
}

fn job_and_vertices(jm: &str) -> (String, Vec<Value>) {
    let (_, jobs) = curl_json(&format!("{jm}/jobs"));
    let job = jobs["jobs"][0]["id"].as_str().unwrap().to_string();
    let (status, details) = curl_json(&format!("{jm}/jobs/{job}"));
    assert_eq!(status, 200);
    assert_eq!(details["jid"], job.as_str());
    assert_eq!(details["state"], "RUNNING");
    for k in ["name", "start-time", "now", "duration", "timestamps", "plan", "status-counts"] {
        assert!(!details[k].is_null(), "no {k} in {details}");
    }
    (job, details["vertices"].as_array().unwrap().clone())
}

#[test]
fn metric_endpoints_answer_flinks_shapes_and_errors() {
    if !tools(&["curl"]) {
        return;
    }
    let (_server, jm) = serve(SEED_001, "100");
    let (job, vertices) = job_and_vertices(&jm);
    assert_eq!(vertices.len(), 2);
    assert_eq!((vertices[0]["name"].as_str(), vertices[0]["parallelism"].as_u64()), (Some("Source: clickstream"), Some(8)));
    let win = vertices[1]["id"].as_str().unwrap();
    let base = format!("{jm}/jobs/{job}/vertices/{win}");
    let (_, agg) = curl_json(&format!("{base}/subtasks/metrics?get=currentInputWatermark,numRecordsIn&agg=min,max"));
    let keys: Vec<&String> = agg[0].as_object().unwrap().keys().collect();
    assert_eq!(keys, ["id", "max", "min"], "{agg}");
    assert_eq!(agg[1]["id"], "numRecordsIn");
    let (_, all) = curl_json(&format!("{base}/subtasks/metrics?get=numRecordsIn"));
    assert_eq!(all[0].as_object().unwrap().len(), 6, "min, max, sum, avg, skew: {all}");
    let (_, names) = curl_json(&format!("{base}/metrics"));
    let names: Vec<&str> = names.as_array().unwrap().iter().map(|n| n["id"].as_str().unwrap()).collect();
    assert!(
        names.contains(&"0.currentInputWatermark") && names.contains(&"7.Window(TumblingEventTimeWindows(60000)).currentOutputWatermark"),
        "{names:?}"
    );
    let (_, one) = curl_json(&format!("{base}/metrics?get=3.numRecordsIn,nope"));
    assert_eq!(one.as_array().unwrap().len(), 1);
    assert!(one[0]["value"].as_str().unwrap().parse::<u64>().is_ok(), "{one}");
    let (_, bp) = curl_json(&format!("{base}/backpressure"));
    assert_eq!((bp["status"].as_str(), bp["subtasks"].as_array().map(Vec::len)), (Some("ok"), Some(8)), "{bp}");
    let (status, err) = curl_json(&format!("{jm}/jobs/{}", "0".repeat(32)));
    assert_eq!(status, 404);
    assert!(err["errors"][0].as_str().unwrap().contains("not found"), "{err}");
    assert_eq!(curl_json(&format!("{jm}/jobs/{job}/vertices/{}/watermarks", "a".repeat(32))).0, 404);
    assert_eq!(curl_json(&format!("{jm}/jobs/not-an-id")).0, 400);
}

#[test]
fn exposition_passes_promtool() {
    if !tools(&["curl", "promtool"]) {
        return;
    }
    let (_server, jm) = serve(SEED_001, "100");
    std::thread::sleep(Duration::from_millis(300));
    let (code, out, err) = sh("curl -s \"$JM/metrics\" > \"$F\" && promtool check metrics < \"$F\"; echo \"rc=$?\"; grep -c '^flink_taskmanager_job_task_operator_currentInputWatermark{' \"$F\"; rm -f \"$F\"",
        &[("JM", &jm), ("F", &std::env::temp_dir().join(format!("wmp-serve-{}.prom", std::process::id())).to_string_lossy())]);
    assert_eq!(code, 0, "{err}");
    // promtool 2.x exits 3 for lint findings, 1 for a parse error; Flink's names are camelCase.
    let complaints: Vec<&str> = err.lines().chain(out.lines()).filter(|l| !l.starts_with("rc=") && l.parse::<u32>().is_err()).collect();
    assert!(complaints.iter().all(|l| l.contains("should be written in 'snake_case' not 'camelCase'")), "{complaints:#?}");
    assert!(out.lines().any(|l| l == "rc=0" || l == "rc=3"), "{out}\n{err}");
    assert_eq!(out.lines().last(), Some("8"), "one operator-scope watermark per window subtask: {out}");
}

#[test]
fn until_exits_when_the_simulation_gets_there_and_bad_input_exits_2() {
    let out = Command::new(WMP)
        .args(["serve", "--port", "0", "--speed", "1000", "--until", "3000", SEED_001])
        .current_dir(root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).ends_with("wmp serve: the simulation reached 3000 ms\n"), "{out:?}");
    for args in [&["serve", "--speed", "0", SEED_001][..], &["serve", "--port", "0", "no-such-file.json"], &["serve"]] {
        let out = Command::new(WMP).args(args).current_dir(root()).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1, "{args:?}: {out:?}");
    }
}

/// A free TCP port on 127.0.0.1 (bound, then released for Prometheus to take).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

const RULES: &str = r#"groups:
  - name: flink
    rules:
      - alert: EventTimeLag
        # Against real Flink: time() instead of scalar(max(wmp_processing_time_seconds)).
        expr: scalar(max(wmp_processing_time_seconds)) * 1000 - min by (job_name) (flink_taskmanager_job_task_operator_currentInputWatermark) > 300000
        for: 0s
"#;

fn prometheus(target: &str, dir: &Path) -> (Running, String) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(dir.join("rules.yml"), RULES).unwrap();
    let config = format!(
        "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files: [rules.yml]\nscrape_configs:\n  - job_name: wmp\n    static_configs:\n      - targets: ['{target}']\n"
    );
    std::fs::write(dir.join("prometheus.yml"), config).unwrap();
    let listen = format!("127.0.0.1:{}", free_port());
    let child = Command::new("prometheus")
        .arg(format!("--config.file={}", dir.join("prometheus.yml").display()))
        .arg(format!("--storage.tsdb.path={}", dir.join("data").display()))
        .arg(format!("--web.listen-address={listen}"))
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn prometheus");
    (Running(child), format!("http://{listen}"))
}

/// The alert's state (`firing`, `pending`) or `None`; `None` too while Prometheus is starting.
fn alert_state(prom: &str) -> Option<String> {
    let (code, out, _) = sh("curl -s \"$P/api/v1/alerts\"", &[("P", prom)]);
    let v: Value = serde_json::from_str(&out).ok().filter(|_| code == 0)?;
    v["data"]["alerts"]
        .as_array()?
        .iter()
        .find(|a| a["labels"]["alertname"] == "EventTimeLag")
        .map(|a| a["state"].as_str().unwrap_or("").to_string())
}

/// `min(currentInputWatermark)` over the window subtasks, as Prometheus scraped it.
fn scraped_min_watermark(prom: &str) -> Option<f64> {
    let (_, out, _) = sh(
        "curl -s -G \"$P/api/v1/query\" --data-urlencode 'query=min(flink_taskmanager_job_task_operator_currentInputWatermark)'",
        &[("P", prom)],
    );
    let v: Value = serde_json::from_str(&out).ok()?;
    v["data"]["result"][0]["value"][1].as_str()?.parse().ok()
}

/// The simulation's processing time since the start, from `/jobs/:id` (`duration`).
fn sim_elapsed(jm: &str, job: &str) -> i64 {
    curl_json(&format!("{jm}/jobs/{job}")).1["duration"].as_i64().unwrap()
}

/// Polls until `done` or the deadline; fails naming `what`.
fn wait_for(what: &str, deadline: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(250));
    }
}

#[test]
fn prometheus_alert_fires_for_seed_001_and_clears_after_the_idle_timeout_fix() {
    if !tools(&["curl", "prometheus"]) {
        return;
    }
    // 60×: the fix lands at 20 simulated minutes, 20 s in; the alert needs 5 minutes of lag.
    let (_server, jm) = serve(SEED_001_FIX, "60");
    let job = curl_json(&format!("{jm}/jobs")).1["jobs"][0]["id"].as_str().unwrap().to_string();
    let dir: PathBuf = std::env::temp_dir().join(format!("wmp-serve-prometheus-{}", std::process::id()));
    let (_prom, prom) = prometheus(jm.trim_start_matches("http://"), &dir);
    let fix_ms = 1_200_000;
    // Firing on a real watermark that stands still, not on "no watermark yet" (Long.MIN_VALUE).
    wait_for("the alert to fire on the pinned watermark", Duration::from_secs(60), || {
        alert_state(&prom).as_deref() == Some("firing") && scraped_min_watermark(&prom).is_some_and(|w| w > 0.0)
    });
    let fired_at = sim_elapsed(&jm, &job);
    assert!(fired_at < fix_ms, "fired only at {fired_at} ms, after the fix");
    let mut cleared_at = 0;
    wait_for("the alert to clear after the fix", Duration::from_secs(90), || {
        cleared_at = sim_elapsed(&jm, &job);
        cleared_at > fix_ms && alert_state(&prom).is_none()
    });
    // Soon after the fix (the idle timeout is a minute), not at the next heartbeat (90 minutes).
    assert!(cleared_at < fix_ms + 600_000, "cleared only at {cleared_at} ms");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The offline-bundle script (bash, curl, jq) the page links (`pages/flink-bundle.sh`), as
/// docs/LIVE.md prints it, run against `wmp serve` standing in for a JobManager: the live link
/// reads its output and names seed 001's heartbeat subtask (partition 11 on source subtask 3).
#[test]
fn the_docs_offline_bundle_script_writes_a_bundle_the_live_link_reads() {
    use wmp::engine::live::{explain::explain, Bundle, LiveJob};
    let script = std::fs::read_to_string(root().join("www/pages/flink-bundle.sh")).unwrap();
    let page = std::fs::read_to_string(root().join("docs/LIVE.md")).unwrap();
    let section = &page[page.find("## Offline bundle format").expect("the section")..];
    let start = section.find("```sh\n").expect("a sh block") + 6;
    assert_eq!(&section[start..start + section[start..].find("```").unwrap()], script, "docs/LIVE.md prints the script the page links");
    if !tools(&["curl", "jq"]) {
        return;
    }
    let (_server, jm) = serve(SEED_001, "600");
    std::thread::sleep(Duration::from_millis(1500));
    let (code, out, err) = sh(&format!("set -- \"$JM\"\n{script}"), &[("JM", &jm)]);
    assert_eq!(code, 0, "{err}");
    let b = Bundle::parse(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let job = LiveJob::from_bundle(&b, &LiveJob::only_job_id(&b).unwrap()).unwrap();
    assert_eq!(job.vertices.len(), 2);
    let e = explain(&job);
    assert_eq!(e.holder.map(|h| h.subtask), Some(3), "{:?}", e.lines);
}

/// `wmp serve ARGS` to its end, killed after `limit` (a hang fails the test instead of stalling it).
fn serve_output(args: &[&str], limit: Duration) -> std::process::Output {
    let mut child =
        Command::new(WMP).args(args).current_dir(root()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn wmp serve");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("wmp {args:?} still running after {limit:?}: {:?}", child.wait_with_output().unwrap());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn a_speed_out_of_range_or_an_until_past_the_budget_is_named() {
    for speed in ["1e-300", "1e300", "0.0001", "2000000"] {
        let out = serve_output(&["serve", "--port", "0", "--speed", speed, "--until", "1000", SEED_001], Duration::from_secs(10));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--speed {speed}: {out:?}");
        assert!(err.lines().count() == 1 && err.contains("--speed must be a number from 0.001 to 1000000"), "{err}");
    }
    let out =
        serve_output(&["serve", "--port", "0", "--until", "9007199254740991", "presets/empty_partition.json"], Duration::from_secs(10));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(err.starts_with("wmp: --until 9007199254740991: running that far") && !err.contains("duration_ms: the scenario"), "{err}");
}

/// A 3 s job on two partitions with a steady producer and one `command` at 1000 ms, in a file
/// named after `name`.
fn job_with(name: &str, command: serde_json::Value) -> PathBuf {
    let mut command = command;
    command["at_ms"] = 1000.into();
    let sc = serde_json::json!({
        "name": name,
        "duration_ms": 3000,
        "topic": {"partitions": 2},
        "source": {"parallelism": 1, "watermark": {"generator": {"kind": "bounded_out_of_orderness", "bound_ms": 100}}},
        "window": {"assigner": {"type": "tumbling", "size_ms": 500}},
        "producers": [{"partitions": "all", "kind": "steady", "rate_per_s": 50, "keys": {"count": 3}}],
        "commands": [command]
    });
    let path = std::env::temp_dir().join(format!("wmp-{name}-{}.json", std::process::id()));
    std::fs::write(&path, sc.to_string()).unwrap();
    path
}

/// The scenario of tests/cli.rs's failed job: TaskManager 0 is killed at 1000 ms, no restart.
fn failing_job() -> PathBuf {
    job_with("serve-failing", serde_json::json!({"command": "fail", "target": {"task_manager": 0}}))
}

#[test]
fn a_failed_job_stops_the_clock_where_it_failed_whatever_the_speed() {
    let file = failing_job();
    for speed in ["1", "7", "100"] {
        let out =
            serve_output(&["serve", "--port", "0", "--speed", speed, "--until", "3000", file.to_str().unwrap()], Duration::from_secs(30));
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "--speed {speed}: a FAILED job is a result, as in `wmp run`: {out:?}");
        let last = stdout.lines().last().unwrap_or_default();
        assert!(last.starts_with("wmp serve: the simulation stopped at 1000 ms: the job FAILED"), "--speed {speed}: {stdout}");
    }
    let _ = std::fs::remove_file(file);
}

/// An operator's exception (a record without a timestamp) is an error, exit 2 as in `wmp run`,
/// though the job is FAILED too (it exited 0 once the exception set FAILED).
#[test]
fn an_operators_exception_exits_2() {
    let path =
        job_with("serve-exception", serde_json::json!({"command": "produce", "partition": 0, "records": [{"ts": i64::MIN, "key": "k"}]}));
    let out = serve_output(&["serve", "--port", "0", "--speed", "100", "--until", "3000", path.to_str().unwrap()], Duration::from_secs(30));
    let _ = std::fs::remove_file(&path);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("Long.MIN_VALUE timestamp"), "{out:?}");
}

/// A raw HTTP/1.1 exchange with `headers` sent: the status code, the headers (names in lowercase)
/// and what follows them.
fn exchange(base: &str, method: &str, path: &str, headers: &str) -> (u16, Vec<(String, String)>, String) {
    use std::io::Read;
    let mut stream = std::net::TcpStream::connect(base.trim_start_matches("http://")).unwrap();
    write!(stream, "{method} {path} HTTP/1.1\r\nHost: localhost\r\n{headers}Connection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("{answer}"));
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let fields = head.lines().skip(1).filter_map(|l| l.split_once(':')).map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()));
    (status, fields.collect(), body.to_string())
}

/// [`exchange`] with no header of ours: the status code and what follows the headers.
fn http(base: &str, method: &str, path: &str) -> (u16, String) {
    let (status, _, body) = exchange(base, method, path, "");
    (status, body)
}

#[test]
fn head_is_answered_like_get_without_a_body_and_ids_in_any_case() {
    let (_server, jm) = serve(SEED_001, "100");
    let (status, body) = http(&jm, "GET", "/jobs");
    assert_eq!(status, 200);
    let job = serde_json::from_str::<Value>(&body).unwrap()["jobs"][0]["id"].as_str().unwrap().to_string();
    for path in ["/jobs".to_string(), format!("/jobs/{job}"), "/metrics".into()] {
        assert_eq!(http(&jm, "HEAD", &path), (200, String::new()), "HEAD {path}");
    }
    assert_eq!(http(&jm, "HEAD", "/nope").0, 404);
    assert_eq!(http(&jm, "POST", "/jobs").0, 405);
    let (status, body) = http(&jm, "GET", &format!("/jobs/{}", job.to_ascii_uppercase()));
    assert_eq!(status, 200, "{body}");
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["jid"], job.as_str(), "{body}");
}

/// A dashboard on another origin (a browser page pointed at `wmp serve`) sends a CORS preflight
/// before a request with its own headers: 204 with the methods and headers it may use, and the
/// same `Access-Control-Allow-Origin` as a `GET`'s.
#[test]
fn a_cors_preflight_gets_204_and_the_allowed_methods_and_headers() {
    let (_server, jm) = serve(SEED_001, "100");
    let asks =
        "Origin: http://dashboard.example\r\nAccess-Control-Request-Method: GET\r\nAccess-Control-Request-Headers: x-requested-with\r\n";
    let (status, headers, body) = exchange(&jm, "OPTIONS", "/jobs/overview", asks);
    assert_eq!((status, body.as_str()), (204, ""), "{headers:?}");
    let header = |name: &str| headers.iter().find(|h| h.0 == name).map(|h| h.1.clone());
    assert_eq!(header("access-control-allow-origin").as_deref(), Some("*"), "{headers:?}");
    assert!(header("access-control-allow-methods").is_some_and(|m| m.contains("GET")), "{headers:?}");
    assert_eq!(header("access-control-allow-headers").as_deref(), Some("*"), "{headers:?}");
    let (status, get_headers, _) = exchange(&jm, "GET", "/jobs/overview", "Origin: http://dashboard.example\r\n");
    assert_eq!(status, 200);
    assert!(get_headers.contains(&("access-control-allow-origin".into(), "*".into())), "{get_headers:?}");
    assert!(get_headers.iter().any(|h| h.0 == "content-type" && h.1.starts_with("application/json")), "{get_headers:?}");
}
