#!/usr/bin/env python3
"""Run a watermark-alignment or checkpoint/restore scenario on real Apache Flink and print what it did.

    python3 flink_oracle3.py SCENARIO.json                    # result JSON on stdout
    python3 flink_oracle3.py A.json B.json --out-dir DIR      # one JVM, DIR/<file name> each
    python3 flink_oracle3.py scenarios/*.json --check DIR     # regression check, exit 1 on mismatch
    python3 flink_oracle3.py scenarios/*.json --repeat 3      # determinism check: 3 runs, identical output

The "oracle3" format (README.md next to this file): one or two FLIP-27 sources with scripted
splits, optional withWatermarkAlignment / idleness, parallelism, the 2.3 alignment sampling buffer,
a keyed window downstream, explicit checkpoints and a scripted failure with a fixed-delay restart.
Standard library only; the Flink jars come from the pip package apache-flink-libraries
(pyflink/lib). The Flink job is FlinkOracle3.java, compiled on first use and cached under /tmp.
"""
import argparse, hashlib, json, os, re, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from flink_oracle2 import (LONG_MIN, LONG_MAX, ScenarioError, _int, _fields, _window, pyflink_dir,  # noqa: E402
                           flink_version, java_opts, dumps, differences)

JAVA_SRC = os.path.join(HERE, "FlinkOracle3.java")
REPORTER_FACTORY = "FlinkOracle3$ReporterFactory"


def build_classes(lib):
    """Compile FlinkOracle3.java once per (source, flink lib) pair; cached under /tmp. The metric
    reporter factory is found by Flink through java.util.ServiceLoader, hence the services file."""
    with open(JAVA_SRC, "rb") as f:
        h = hashlib.sha1(f.read() + "\n".join(sorted(os.listdir(lib))).encode()).hexdigest()[:12]
    out = os.path.join(tempfile.gettempdir(), "flink_oracle3_classes", h)
    if os.path.exists(os.path.join(out, "FlinkOracle3.class")):
        return out
    tmp = out + ".tmp%d" % os.getpid()
    os.makedirs(os.path.join(tmp, "META-INF", "services"), exist_ok=True)
    r = subprocess.run(["javac", "-nowarn", "-cp", os.path.join(lib, "*"), "-d", tmp, JAVA_SRC],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("javac failed:\n" + r.stderr)
    with open(os.path.join(tmp, "META-INF", "services", "org.apache.flink.metrics.reporter.MetricReporterFactory"), "w") as f:
        f.write(REPORTER_FACTORY + "\n")
    try:
        os.rename(tmp, out)
    except OSError:  # a concurrent build won
        shutil.rmtree(tmp, ignore_errors=True)
    return out


# ----------------------------------------------------------------------------- scenario -> plan
def _events(lst, what):
    lst = lst.get("events") if isinstance(lst, dict) else lst
    if not isinstance(lst, list):
        raise ScenarioError("%s: expected a list of events or {\"events\": [...]}" % what)
    out = []
    for i, e in enumerate(lst):
        if not isinstance(e, dict) or set(e) - {"ts", "key", "value"} or "ts" not in e:
            raise ScenarioError("%s event %d: need {ts, key, value}" % (what, i))
        key = e.get("key", "k")
        if not isinstance(key, str):
            raise ScenarioError("%s event %d: key must be a string" % (what, i))
        out.append({"ts": _int(e["ts"], "ts", LONG_MIN + 1, LONG_MAX - 1), "key": key,
                    "value": _int(e.get("value", 1), "value")})
    return out


def normalize_source(n, spec):
    what = "sources[%d]" % n
    _fields(spec, what, ("parallelism", "splits", "watermark", "alignment"))
    par = _int(spec.get("parallelism", 1), what + ".parallelism", 1, 4)
    splits = spec.get("splits")
    if not isinstance(splits, list) or not splits:
        raise ScenarioError("%s.splits must be a non-empty list" % what)
    wmc = spec.get("watermark", {})
    _fields(wmc, what + ".watermark", ("kind", "out_of_orderness_ms", "idleness_ms"))
    kind = wmc.get("kind", "per_event")
    if kind not in ("per_event", "punctuated"):
        raise ScenarioError("%s.watermark.kind must be per_event or punctuated" % what)
    idl = wmc.get("idleness_ms")
    if idl is not None:
        _int(idl, what + ".watermark.idleness_ms", 1)
    wm = {"kind": kind, "out_of_orderness_ms": _int(wmc.get("out_of_orderness_ms", 0), what + ".watermark.out_of_orderness_ms", 0),
          "idleness_ms": idl}
    al = spec.get("alignment")
    if al is not None:
        _fields(al, what + ".alignment", ("group", "max_drift_ms", "update_interval_ms"))
        if not isinstance(al.get("group"), str) or not al["group"]:
            raise ScenarioError("%s.alignment.group must be a non-empty string" % what)
        al = {"group": al["group"], "max_drift_ms": _int(al.get("max_drift_ms"), what + ".alignment.max_drift_ms", 0),
              "update_interval_ms": _int(al.get("update_interval_ms", 1000), what + ".alignment.update_interval_ms", 10, 10000)}
    return {"parallelism": par, "watermark": wm, "alignment": al,
            "splits": [_events(s, "%s.splits[%d]" % (what, p)) for p, s in enumerate(splits)]}


def _loc(v, what, srcs):
    if not isinstance(v, dict) or set(v) - {"src", "split", "n"} or "split" not in v:
        raise ScenarioError("schedule: %s needs {\"src\": s, \"split\": p}, got %r" % (what, v))
    s = v.get("src", 0 if len(srcs) == 1 else None)
    if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < len(srcs):
        raise ScenarioError("schedule: bad src in %r" % (v,))
    p = v["split"]
    if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < len(srcs[s]["splits"]):
        raise ScenarioError("schedule: bad split in %r" % (v,))
    return s, p


def normalize(sc):
    """Validate a scenario; return the plan (the normalized scenario plus the expanded steps)."""
    _fields(sc, "scenario", ("name", "description", "sources", "flink", "interval_ms", "window", "allowed_lateness_ms",
                             "checkpointing", "schedule", "settle_ms", "flush_at_end", "expect_engine"))
    srcs = sc.get("sources")
    if not isinstance(srcs, list) or not 1 <= len(srcs) <= 2:
        raise ScenarioError("sources must be a list of 1 or 2 sources")
    srcs = [normalize_source(n, s) for n, s in enumerate(srcs)]
    fl = sc.get("flink", {})
    _fields(fl, "flink", ("alignment_buffer_size", "allow_unaligned_source_splits"))
    buf = _int(fl.get("alignment_buffer_size", 3), "flink.alignment_buffer_size", 0, 100)
    needs_timer = any(s["watermark"]["idleness_ms"] is not None for s in srcs)
    interval = _int(sc.get("interval_ms", 200 if needs_timer else 0), "interval_ms", 0)
    if needs_timer and interval == 0:
        raise ScenarioError("idleness_ms needs interval_ms > 0")
    cp = sc.get("checkpointing")
    if cp is not None:
        _fields(cp, "checkpointing", ("restart",))
        rs = cp.get("restart", {"type": "fixed_delay"})
        _fields(rs, "checkpointing.restart", ("type", "attempts", "delay_ms"))
        if rs.get("type", "fixed_delay") != "fixed_delay":
            raise ScenarioError("checkpointing.restart.type must be fixed_delay")
        cp = {"restart": {"type": "fixed_delay", "attempts": _int(rs.get("attempts", 3), "restart.attempts", 1, 100),
                          "delay_ms": _int(rs.get("delay_ms", 200), "restart.delay_ms", 0, 60000)}}
    updates = [s["alignment"]["update_interval_ms"] for s in srcs if s["alignment"]]
    settle = sc.get("settle_ms")
    if settle is None:
        # buffer + 3 update intervals: sampled into the oldest slot, reported, announced, applied
        settle = (buf + 3) * max(updates) if updates else 0
    settle = _int(settle, "settle_ms", 0, 60000)

    steps = []
    sched = sc.get("schedule")
    if not isinstance(sched, list):
        raise ScenarioError("schedule must be a list")
    for st in sched:
        if not isinstance(st, dict) or not (len(st) == 1 or "rounds" in st and set(st) <= {"rounds", "n"}):
            raise ScenarioError("schedule entry %r: one key per entry" % (st,))
        k, v = ("rounds", st["rounds"]) if "rounds" in st else next(iter(st.items()))
        if k == "read":
            s, p = _loc(v, "read", srcs)
            steps.append({"kind": "read", "src": s, "split": p, "n": _int(v.get("n", 1), "read.n", 1, 1000)})
        elif k == "rounds":
            n = _int(st.get("n", 1), "rounds.n", 1, 1000)
            for _ in range(_int(v, "rounds", 1, 1000)):
                for s in range(len(srcs)):
                    for p in range(len(srcs[s]["splits"])):
                        steps.append({"kind": "read", "src": s, "split": p, "n": n})
        elif k in ("idle", "active", "release"):
            s, p = _loc(v, k, srcs)
            steps.append({"kind": k, "src": s, "split": p})
        elif k == "sleep_ms":
            steps.append({"kind": "sleep", "ms": _int(v, "sleep_ms", 0, 600000)})
        elif k in ("checkpoint", "fail"):
            if cp is None:
                raise ScenarioError("schedule: %s needs \"checkpointing\"" % k)
            if v not in ({}, None, True):
                raise ScenarioError("schedule: %s takes {}" % k)
            steps.append({"kind": k})
        else:
            raise ScenarioError("schedule entry %r: use read, rounds, idle, active, release, sleep_ms, checkpoint or fail" % (st,))

    win = _window(sc.get("window") or {"type": "tumbling", "size_ms": 1000}, "window")
    window = {"type": win[0]}
    window.update(dict(zip({"tumbling": ("size_ms", "offset_ms"), "sliding": ("size_ms", "slide_ms", "offset_ms"),
                            "session": ("gap_ms",)}[win[0]], win[1:])))
    return {
        "sources": srcs,
        "flink": {"pipeline.watermark-alignment.buffer-size": buf,
                  "pipeline.watermark-alignment.allow-unaligned-source-splits": bool(fl.get("allow_unaligned_source_splits", False)),
                  "pipeline.auto-watermark-interval_ms": interval},
        "window": window,
        "allowed_lateness_ms": _int(sc.get("allowed_lateness_ms", 0), "allowed_lateness_ms", 0),
        "checkpointing": cp,
        "settle_ms": settle,
        "flush_at_end": bool(sc.get("flush_at_end", True)),
        "steps": steps,
    }


# ----------------------------------------------------------------------------- run + assemble
def run_java(plans):
    pfdir = pyflink_dir()
    lib = os.path.join(pfdir, "lib")
    classes = build_classes(lib)
    jtmp = tempfile.mkdtemp(prefix="flink_oracle3_jvm_")  # Flink unpacks a 24 MB rpc jar per JVM here
    try:
        out = os.path.join(jtmp, "trace.jsonl")
        fast_start = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]
        log = ["-Dlog4j.configurationFile=" + os.environ["ORACLE3_LOG4J"]] if os.environ.get("ORACLE3_LOG4J") else []
        cmd = (["java", "-Djava.io.tmpdir=" + jtmp] + log + fast_start + java_opts(pfdir)
               + ["-cp", os.path.join(lib, "*") + os.pathsep + classes, "FlinkOracle3", out] + plans)
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("Flink JVM failed (rc=%d):\n%s" % (r.returncode, r.stderr[-4000:]))
        if os.environ.get("ORACLE3_DEBUG"):
            sys.stderr.write(r.stderr[-20000:])
        blocks, cur = {}, None
        with open(out, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if line.startswith("#begin "):
                    cur = {"trace": [], "error": None}
                    blocks[os.path.basename(line[7:])] = cur
                elif line.startswith("#end "):
                    cur["elapsed_ms"] = int(line[5:])
                elif line.startswith("#error "):
                    cur["error"] = line[7:]
                else:
                    cur["trace"].append(json.loads(line))
    finally:
        shutil.rmtree(jtmp, ignore_errors=True)
    return blocks, flink_version(lib), lib


def _pick(t, *fields):
    return {f: t[f] for f in fields}


def config_of(plan):
    """The configuration the cluster and the job ran with (as FlinkOracle3.configs sets it)."""
    f = plan["flink"]
    cluster = {"pipeline.watermark-alignment.buffer-size": f["pipeline.watermark-alignment.buffer-size"],
               "pipeline.watermark-alignment.allow-unaligned-source-splits": f["pipeline.watermark-alignment.allow-unaligned-source-splits"],
               "taskmanager.numberOfTaskSlots": 4}
    job = {"pipeline.auto-watermark-interval": "%d ms" % f["pipeline.auto-watermark-interval_ms"],
           "pipeline.watermark-alignment.buffer-size": f["pipeline.watermark-alignment.buffer-size"]}
    if plan["checkpointing"]:
        rs = plan["checkpointing"]["restart"]
        job.update({"execution.checkpointing.interval": "none (periodic checkpoints off; MiniCluster.triggerCheckpoint at the scheduled steps)",
                    "restart-strategy.type": "fixed-delay",
                    "restart-strategy.fixed-delay.attempts": rs["attempts"],
                    "restart-strategy.fixed-delay.delay": "%d ms" % rs["delay_ms"]})
    else:
        job["restart-strategy.type"] = "none"
    return {"cluster": cluster, "job": job, "parallelism": {"sources": [s["parallelism"] for s in plan["sources"]], "keyed": 1},
            "settle_ms": plan["settle_ms"], "buffer_timeout_ms": 0}


def _spread(snaps):
    """Spread (max - min) of the non-idle split watermarks per alignment group, from one round of snapshots."""
    out = {}
    for grp, members in snaps.items():
        vals = [s["latest"] for a in members for s in a["splits"] if not s["idle"] and s["latest"] != LONG_MIN]
        if len(vals) >= 2:
            out[grp] = max(vals) - min(vals)
    return out


def assemble(name, plan, block, version):
    if block["error"]:
        return {"scenario": name, "error": block["error"]}
    trace = block["trace"]
    srcs = plan["sources"]
    res = {"scenario": name, "flink_version": version, "config": config_of(plan), "settings": plan}

    def sa(t, *f):
        return dict({"step": t["step"], "attempt": t["attempt"]}, **_pick(t, *f))

    res["emitted"] = [sa(t, "src", "subtask", "split", "idx", "ts") for t in trace if t["ev"] == "emit"]
    res["reads"] = [sa(t, "src", "subtask", "split", "want", "got", "stop") for t in trace if t["ev"] == "read"]
    res["pause_resume"] = [sa(t, "src", "subtask", "pause", "resume") for t in trace if t["ev"] == "pause_resume"]

    # alignment snapshots: every one, plus per step and group the observed spread
    snaps = [t for t in trace if t["ev"] == "align"]
    res["alignment"] = [sa(t, "src", "subtask", "mode", "max_desired", "latest", "oldest", "idle", "drift_metric", "splits") for t in snaps]
    if snaps:
        groups = {n: s["alignment"]["group"] for n, s in enumerate(srcs) if s["alignment"]}
        by_step = {}
        for t in snaps:
            by_step.setdefault(t["step"], {}).setdefault(groups[t["src"]], []).append(t)
        spreads = [{"step": k, "group": g, "spread": v} for k in sorted(by_step) for g, v in sorted(_spread(by_step[k]).items())]
        res["split_spread"] = spreads
        res["max_split_spread"] = {g: max([x["spread"] for x in spreads if x["group"] == g] or [None]) for g in sorted(set(groups.values()))}
        metric = [t["drift_metric"] for t in snaps if t["drift_metric"] is not None]
        res["max_drift_metric"] = max(metric) if metric else None

    keyed = [t for t in trace if t["ev"] in ("record", "watermark", "status", "window", "late", "fail")]
    res["records"] = [sa(t, "src", "split", "idx", "ts", "key", "wm") for t in keyed if t["ev"] == "record"]
    res["watermarks"] = [sa(t, "wm") for t in keyed if t["ev"] == "watermark"]
    res["statuses"] = [sa(t, "status") for t in keyed if t["ev"] == "status"]
    windows, fired = [], {}
    for t in keyed:
        if t["ev"] == "window":
            k = (t["key"], t["window_start"], t["window_end"])
            w = sa(t, "key", "window_start", "window_end", "count", "sum", "wm")
            w["firing"] = fired.get(k, 0)
            fired[k] = w["firing"] + 1
            windows.append(w)
    res["windows"] = windows
    res["late"] = [sa(t, "src", "split", "idx", "ts", "key", "wm") for t in keyed if t["ev"] == "late"]
    res["sources"] = [{"src": s, "subtask": i,
                       "watermarks": [sa(t, "wm") for t in trace if t["ev"] == "src_watermark" and t["src"] == s and t["subtask"] == i],
                       "statuses": [sa(t, "status") for t in trace if t["ev"] == "src_status" and t["src"] == s and t["subtask"] == i]}
                      for s, src in enumerate(srcs) for i in range(src["parallelism"])]
    if plan["checkpointing"]:
        cps = []
        for t in trace:
            if t["ev"] == "checkpoint":
                cps.append({"step": t["step"], "id": t["id"], "offsets": [
                    {"src": x["src"], "subtask": x["subtask"], "splits": x["splits"]}
                    for x in trace if x["ev"] == "snapshot" and x["checkpoint"] == t["id"]]})
        res["checkpoints"] = cps
        res["failures"] = [sa(t, "wm") for t in keyed if t["ev"] == "fail"]
        res["restored"] = [sa(t, "src", "subtask", "splits") for t in trace if t["ev"] == "splits_added" and t["attempt"] > 0]
        seen, replayed = {}, []
        for t in trace:
            if t["ev"] == "emit":
                k = (t["src"], t["split"], t["idx"])
                if k in seen and seen[k] < t["attempt"]:
                    replayed.append(sa(t, "src", "split", "idx", "ts"))
                seen.setdefault(k, t["attempt"])
    last = max([t["attempt"] for t in trace] or [0])
    done = {(t["src"], t["split"], t["idx"]) for t in trace if t["ev"] == "emit" and t["attempt"] == last}
    if plan["checkpointing"]:  # records before the restored offsets count as read
        for t in trace:
            if t["ev"] == "splits_added" and t["attempt"] == last:
                for p, off in t["splits"]:
                    done.update((t["src"], p, i) for i in range(off))
        res["replayed"] = replayed
    res["unread"] = [{"src": s, "split": p, "idx": i, "ts": e["ts"]} for s, src in enumerate(srcs)
                     for p, evs in enumerate(src["splits"]) for i, e in enumerate(evs) if (s, p, i) not in done]
    res["trace"] = trace
    res["elapsed_ms"] = block["elapsed_ms"]
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenarios", nargs="+")
    ap.add_argument("--out-dir", help="write <out-dir>/<scenario file name> per scenario instead of stdout")
    ap.add_argument("--check", metavar="DIR", help="compare every output field except elapsed_ms/flink_version with "
                    "DIR/<file>; exit 1 on mismatch")
    ap.add_argument("--repeat", type=int, default=1, metavar="N", help="run every scenario N times (one JVM) and "
                    "require identical output; exit 1 if not")
    ap.add_argument("--no-trace", action="store_true", help="omit the full trace from the output")
    args = ap.parse_args()
    if args.repeat < 1:
        ap.error("--repeat must be >= 1")

    t0 = time.time()
    jobs = []
    work = tempfile.mkdtemp(prefix="flink_oracle3_plans_")
    try:
        for n, path in enumerate(args.scenarios):
            with open(path, encoding="utf-8") as f:
                sc = json.load(f)
            try:
                plan = normalize(sc)
            except ScenarioError as e:
                sys.exit("%s: invalid scenario: %s" % (path, e))
            name = sc.get("name", os.path.splitext(os.path.basename(path))[0])
            plans = []
            for r in range(args.repeat):
                pf = os.path.join(work, "%03d_%d.plan.json" % (n, r))
                with open(pf, "w", encoding="utf-8") as f:
                    json.dump(plan, f)
                plans.append(pf)
            jobs.append((path, name, plan, plans))
        order = [j[3][r] for r in range(args.repeat) for j in jobs]
        blocks, version, libdir = run_java(order)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    bad = 0
    for path, name, plan, plans in jobs:
        runs = [assemble(name, plan, blocks.get(os.path.basename(p)) or {"error": "no output from the JVM", "trace": []}, version)
                for p in plans]
        res = runs[0]
        errs = [r["error"] for r in runs if "error" in r]
        if errs:
            bad += 1
            print("%s: FLINK ERROR %s" % (path, errs[0]), file=sys.stderr)
            continue
        status, nondet = [], False
        for r, other in enumerate(runs[1:], 1):
            d = differences(res, other)
            if d:
                bad += 1
                nondet = True
                status.append("NONDETERMINISTIC (run %d differs in %s)" % (r + 1, ",".join(d)))
                keep = tempfile.mkdtemp(prefix="flink_oracle3_nondet_")
                for n, run in ((1, res), (r + 1, other)):
                    with open(os.path.join(keep, "%s.run%d.json" % (name, n)), "w", encoding="utf-8") as f:
                        f.write(dumps(run))
                status.append("both runs kept in %s" % keep)
                break
        if args.repeat > 1 and not status:
            status.append("%d identical runs" % args.repeat)
        if args.no_trace:
            for r in runs:
                r.pop("trace", None)
        elapsed = "/".join(str(r.get("elapsed_ms", -1)) for r in runs)
        if args.check:
            with open(os.path.join(args.check, os.path.basename(path)), encoding="utf-8") as f:
                exp = json.load(f)
            if args.no_trace:
                exp.pop("trace", None)
            d = sorted({k for r in runs for k in differences(exp, r)})
            bad += bool(d)
            status.insert(0, "MISMATCH in " + ",".join(d) if d else "ok")
            print("%s: %s (%s ms)" % (path, ", ".join(status), elapsed), file=sys.stderr)
        elif args.out_dir:
            if nondet:
                print("%s: NOT WRITTEN: %s" % (path, ", ".join(status)), file=sys.stderr)
                continue
            os.makedirs(args.out_dir, exist_ok=True)
            with open(os.path.join(args.out_dir, os.path.basename(path)), "w", encoding="utf-8") as f:
                f.write(dumps(res))
            print("%s: %d emitted, %d windows, %d late, %s, job %s ms" % (
                path, len(res["emitted"]), len(res["windows"]), len(res["late"]), ", ".join(status) or "1 run", elapsed),
                file=sys.stderr)
        else:
            sys.stdout.write(dumps(res))
            if status:
                print("%s: %s" % (path, ", ".join(status)), file=sys.stderr)
    print("total %.1f s for %d scenario(s) x %d, Flink %s from %s" % (time.time() - t0, len(jobs), args.repeat, version, libdir),
          file=sys.stderr)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
