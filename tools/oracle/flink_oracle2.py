#!/usr/bin/env python3
"""Run a one- or two-input event-time scenario on real Apache Flink and print what it did.

    python3 flink_oracle2.py SCENARIO.json                    # result JSON on stdout
    python3 flink_oracle2.py A.json B.json --out-dir DIR      # one JVM, DIR/<file name> each
    python3 flink_oracle2.py scenarios/*.json --check DIR     # regression check, exit 1 on mismatch
    python3 flink_oracle2.py scenarios/*.json --repeat 3      # determinism check: 3 runs, identical output

Extension of the shared oracle (/work/shared/oracle) for union / connect / interval join and the
mid-stream watermark operators (DataStream assignTimestampsAndWatermarks, SQL
WatermarkAssignerOperator). Scenario format and output: README.md next to this file. Standard
library only; the Flink jars come from the pip package apache-flink-libraries (pyflink/lib). The
Flink job is FlinkOracle2.java, compiled on first use and cached under /tmp.
"""
import argparse, glob, hashlib, importlib.util, json, os, re, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
JAVA_SRC = os.path.join(HERE, "FlinkOracle2.java")
LONG_MIN, LONG_MAX = -(2 ** 63), 2 ** 63 - 1
JAVA_OPTS_FALLBACK = (
    "--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.net=ALL-UNNAMED "
    "--add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED "
    "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED "
    "--add-opens=java.base/java.text=ALL-UNNAMED --add-opens=java.base/java.time=ALL-UNNAMED "
    "--add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.util.concurrent=ALL-UNNAMED "
    "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED "
    "--add-opens=java.base/java.util.concurrent.locks=ALL-UNNAMED")
OPS = ("window", "union", "connect", "interval_join")
TWO_INPUT = ("connect", "interval_join")


class ScenarioError(ValueError):
    pass


# ----------------------------------------------------------------------------- Flink location
def pyflink_dir():
    if os.environ.get("PYFLINK_DIR"):
        return os.environ["PYFLINK_DIR"]
    spec = importlib.util.find_spec("pyflink")  # apache-flink or apache-flink-libraries (namespace pkg)
    for d in (spec.submodule_search_locations or []) if spec else []:
        if os.path.isdir(os.path.join(d, "lib")):
            return d
    hits = sorted(glob.glob("/tmp/flinkvenv/lib/python3*/site-packages/pyflink"))
    if hits:
        return hits[-1]
    sys.exit("pyflink not found: pip install apache-flink-libraries==2.3.0 (see README.md) or set PYFLINK_DIR")


def flink_version(lib):
    for j in os.listdir(lib):
        m = re.match(r"flink-dist[-_].*?(\d+\.\d+\.\d+.*)\.jar$", j)
        if m:
            return m.group(1)
    return "unknown"


def java_opts(pfdir):
    try:
        with open(os.path.join(pfdir, "conf", "config.yaml")) as f:
            for line in f:
                s = line.strip()
                if s.startswith("all:") and "--add-opens" in s:
                    return s[4:].split()
    except OSError:
        pass
    return JAVA_OPTS_FALLBACK.split()


def build_classes(lib):
    """Compile FlinkOracle2.java once per (source, flink lib) pair; cached under /tmp."""
    with open(JAVA_SRC, "rb") as f:
        h = hashlib.sha1(f.read() + "\n".join(sorted(os.listdir(lib))).encode()).hexdigest()[:12]
    out = os.path.join(tempfile.gettempdir(), "flink_oracle2_classes", h)
    if os.path.exists(os.path.join(out, "FlinkOracle2.class")):
        return out
    tmp = out + ".tmp%d" % os.getpid()
    os.makedirs(tmp, exist_ok=True)
    r = subprocess.run(["javac", "-nowarn", "-cp", os.path.join(lib, "*"), "-d", tmp, JAVA_SRC],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("javac failed:\n" + r.stderr)
    try:
        os.rename(tmp, out)
    except OSError:  # a concurrent build won
        shutil.rmtree(tmp, ignore_errors=True)
    return out


# ----------------------------------------------------------------------------- scenario -> plan
def _int(v, what, lo=LONG_MIN, hi=LONG_MAX):
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ScenarioError("%s must be an integer in [%d, %d], got %r" % (what, lo, hi, v))
    return v


def _fields(d, what, allowed):
    if not isinstance(d, dict):
        raise ScenarioError("%s must be an object" % what)
    extra = set(d) - set(allowed)
    if extra:
        raise ScenarioError("unknown %s fields: %s" % (what, sorted(extra)))


def _window(win, what="operator.window"):
    win = dict(win or {})
    wt = win.pop("type", None)
    try:
        if wt == "tumbling":
            w = ["tumbling", _int(win.pop("size_ms"), what + ".size_ms", 1), _int(win.pop("offset_ms", 0), what + ".offset_ms")]
        elif wt == "sliding":
            w = ["sliding", _int(win.pop("size_ms"), what + ".size_ms", 1), _int(win.pop("slide_ms"), what + ".slide_ms", 1),
                 _int(win.pop("offset_ms", 0), what + ".offset_ms")]
        elif wt == "session":
            w = ["session", _int(win.pop("gap_ms"), what + ".gap_ms", 1)]
        else:
            raise ScenarioError("%s.type must be tumbling, sliding or session" % what)
    except KeyError as e:
        raise ScenarioError("%s: missing field %s" % (what, e))
    if win:
        raise ScenarioError("unknown %s fields: %s" % (what, sorted(win)))
    return w


def normalize_input(n, spec):
    what = "inputs[%d]" % n
    _fields(spec, what, ("partitions", "watermark", "on_partition_end", "midstream"))
    parts = spec.get("partitions")
    if not isinstance(parts, list) or not parts:
        raise ScenarioError("%s.partitions must be a non-empty list" % what)
    wmc = spec.get("watermark", {})
    if wmc == "none":
        wm = {"kind": "none", "out_of_orderness_ms": 0, "idleness_ms": None}
    else:
        _fields(wmc, what + ".watermark", ("out_of_orderness_ms", "emit", "idleness_ms"))
        emit = wmc.get("emit", "per_event")
        if emit not in ("per_event", "periodic"):
            raise ScenarioError("%s.watermark.emit must be per_event or periodic" % what)
        idl = wmc.get("idleness_ms")
        if idl is not None:
            _int(idl, what + ".watermark.idleness_ms", 1)
        wm = {"kind": emit, "out_of_orderness_ms": _int(wmc.get("out_of_orderness_ms", 0), what + ".watermark.out_of_orderness_ms", 0),
              "idleness_ms": idl}
    end = spec.get("on_partition_end", "hold")
    if end not in ("hold", "idle", "release"):
        raise ScenarioError("%s.on_partition_end must be hold, idle or release" % what)
    mid = spec.get("midstream")
    if mid is not None:
        _fields(mid, what + ".midstream", ("kind", "out_of_orderness_ms", "emit", "idleness_ms", "delay_ms", "idle_timeout_ms"))
        kind = mid.get("kind")
        if kind == "timestamps_and_watermarks":
            _fields(mid, what + ".midstream", ("kind", "out_of_orderness_ms", "emit", "idleness_ms"))
            emit = mid.get("emit", "per_event")
            if emit not in ("per_event", "periodic"):
                raise ScenarioError("%s.midstream.emit must be per_event or periodic" % what)
            idl = mid.get("idleness_ms")
            if idl is not None:
                _int(idl, what + ".midstream.idleness_ms", 1)
            mid = {"kind": kind, "out_of_orderness_ms": _int(mid.get("out_of_orderness_ms", 0), what + ".midstream.out_of_orderness_ms", 0),
                   "emit": emit, "idleness_ms": idl}
        elif kind == "sql":
            _fields(mid, what + ".midstream", ("kind", "delay_ms", "idle_timeout_ms"))
            mid = {"kind": kind, "delay_ms": _int(mid.get("delay_ms", 0), what + ".midstream.delay_ms", 0),
                   "idle_timeout_ms": _int(mid.get("idle_timeout_ms", 0), what + ".midstream.idle_timeout_ms", 0)}
        else:
            raise ScenarioError("%s.midstream.kind must be timestamps_and_watermarks or sql" % what)
    evs = []
    for p, part in enumerate(parts):
        lst = part.get("events") if isinstance(part, dict) else part
        if not isinstance(lst, list):
            raise ScenarioError("%s partition %d: expected a list of events or {\"events\": [...]}" % (what, p))
        out = []
        for i, e in enumerate(lst):
            if not isinstance(e, dict) or set(e) - {"ts", "key", "value"} or "ts" not in e:
                raise ScenarioError("%s partition %d event %d: need {ts, key, value}" % (what, p, i))
            ts = _int(e["ts"], "ts", LONG_MIN + wm["out_of_orderness_ms"] + 2, LONG_MAX - 1)
            key = e.get("key", "")
            if not isinstance(key, str) or re.search(r"[\t\r\n]", key):
                raise ScenarioError("%s partition %d event %d: key must be a string without tabs/newlines" % (what, p, i))
            out.append((n, p, i, ts, _int(e.get("value", 1), "value"), key))
        evs.append(out)
    settings = {"partitions": len(evs), "watermark": wm, "on_partition_end": end, "midstream": mid}
    return settings, evs


def _loc(v, what, evs):
    """{"in": i, "p": p} -> (i, p); "in" may be left out when there is one input."""
    if not isinstance(v, dict) or set(v) - {"in", "p"} or "p" not in v:
        raise ScenarioError("schedule: %s needs {\"in\": i, \"p\": p}, got %r" % (what, v))
    i = v.get("in", 0 if len(evs) == 1 else None)
    if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(evs):
        raise ScenarioError("schedule: bad input in %r" % (v,))
    p = v["p"]
    if not isinstance(p, int) or isinstance(p, bool) or not 0 <= p < len(evs[i]):
        raise ScenarioError("schedule: bad partition in %r" % (v,))
    return i, p


def from_shared(sc):
    """A scenario in the shared oracle's one-input format (top-level "partitions") -> this format."""
    _fields(sc, "scenario", ("name", "description", "partitions", "interleave", "schedule", "watermark", "window",
                             "allowed_lateness_ms", "late_side_output", "on_partition_end", "flush_at_end"))
    wm = dict(sc.get("watermark") or {})
    if wm.pop("record_delay_ms", 0):
        raise ScenarioError("watermark.record_delay_ms is not supported (use sleep_ms steps)")
    interval = wm.pop("interval_ms", None)
    out = {k: sc[k] for k in ("name", "description", "flush_at_end") if k in sc}
    out["inputs"] = [{"partitions": sc.get("partitions"), "watermark": wm,
                      "on_partition_end": sc.get("on_partition_end", "hold")}]
    sched = sc.get("schedule")
    if sched is None and sc.get("interleave", "round_robin") == "sequential":
        sched = [p for p, part in enumerate(sc.get("partitions") or [])
                 for _ in (part.get("events", []) if isinstance(part, dict) else part)]
    elif sched is None and sc.get("interleave", "round_robin") != "round_robin":
        raise ScenarioError("interleave must be round_robin or sequential (or give a schedule)")
    if sched is not None:
        conv = []
        for st in sched if isinstance(sched, list) else []:
            if isinstance(st, int) and not isinstance(st, bool):
                conv.append({"in": 0, "p": st})
            elif isinstance(st, dict) and len(st) == 1 and next(iter(st)) in ("idle", "active", "release"):
                k, v = next(iter(st.items()))
                conv.append({k: {"in": 0, "p": v}})
            else:
                conv.append(st)
        out["schedule"] = conv
    out["operator"] = {"type": "window", "window": sc.get("window"),
                       "allowed_lateness_ms": sc.get("allowed_lateness_ms", 0),
                       "late_side_output": sc.get("late_side_output", True)}
    if interval is not None:
        out["interval_ms"] = interval
    return out


def normalize(sc):
    """Validate a scenario and return (settings dict, list of plan actions)."""
    if isinstance(sc, dict) and "partitions" in sc and "inputs" not in sc:
        sc = from_shared(sc)
    _fields(sc, "scenario", ("name", "description", "inputs", "schedule", "operator", "flush_at_end", "interval_ms"))
    inputs = sc.get("inputs")
    if not isinstance(inputs, list) or not 1 <= len(inputs) <= 2:
        raise ScenarioError("inputs must be a list of 1 or 2 inputs")
    ins, evs = [], []
    for n, spec in enumerate(inputs):
        s, e = normalize_input(n, spec)
        ins.append(s)
        evs.append(e)

    op = sc.get("operator")
    if not isinstance(op, dict) or op.get("type") not in OPS:
        raise ScenarioError("operator.type must be one of %s" % (OPS,))
    ot = op["type"]
    need = 1 if ot == "window" else 2
    if len(ins) != need:
        raise ScenarioError("operator %s needs %d input(s), got %d" % (ot, need, len(ins)))
    if ot in ("window", "union"):
        _fields(op, "operator", ("type", "window", "allowed_lateness_ms", "late_side_output"))
        opn = {"type": ot, "window": _window(op.get("window")),
               "allowed_lateness_ms": _int(op.get("allowed_lateness_ms", 0), "operator.allowed_lateness_ms", 0),
               "late_side_output": bool(op.get("late_side_output", True))}
    elif ot == "connect":
        _fields(op, "operator", ("type", "window"))
        w = _window(op.get("window"))
        if w[0] != "tumbling":
            raise ScenarioError("operator connect: window.type must be tumbling")
        opn = {"type": ot, "window": w}
    else:
        _fields(op, "operator", ("type", "lower_ms", "upper_ms", "lower_exclusive", "upper_exclusive", "late_side_output"))
        try:
            lo, up = _int(op["lower_ms"], "operator.lower_ms"), _int(op["upper_ms"], "operator.upper_ms")
        except KeyError as e:
            raise ScenarioError("operator interval_join: missing field %s" % e)
        if lo > up:
            raise ScenarioError("operator interval_join: lower_ms > upper_ms")
        opn = {"type": ot, "lower_ms": lo, "upper_ms": up,
               "lower_exclusive": bool(op.get("lower_exclusive", False)),
               "upper_exclusive": bool(op.get("upper_exclusive", False)),
               "late_side_output": bool(op.get("late_side_output", True))}

    needs_timer = any(s["watermark"]["kind"] == "periodic" or s["watermark"]["idleness_ms"] is not None
                      or (s["midstream"] or {}).get("emit") == "periodic" or (s["midstream"] or {}).get("idleness_ms") is not None
                      for s in ins)
    interval = _int(sc.get("interval_ms", 200 if needs_timer else 0), "interval_ms", 0)
    if needs_timer and interval == 0:
        raise ScenarioError("periodic emission / idleness_ms need interval_ms > 0")

    # order of steps
    sched = sc.get("schedule")
    if sched is None:  # round robin: per round, each input in order, each of its partitions in order
        sched, idx = [], [[0] * len(e) for e in evs]
        while any(idx[i][p] < len(evs[i][p]) for i in range(len(evs)) for p in range(len(evs[i]))):
            for i in range(len(evs)):
                for p in range(len(evs[i])):
                    if idx[i][p] < len(evs[i][p]):
                        sched.append({"in": i, "p": p})
                        idx[i][p] += 1
    elif not isinstance(sched, list):
        raise ScenarioError("schedule must be a list")

    actions, idx, released = [], [[0] * len(e) for e in evs], set()

    def part_end(i, p):
        end = ins[i]["on_partition_end"]
        if end != "hold" and (i, p) not in released:
            actions.append((end, i, p))
            if end == "release":
                released.add((i, p))

    for i in range(len(evs)):  # partitions that never get an event
        for p in range(len(evs[i])):
            if not evs[i][p]:
                part_end(i, p)
    for s in sched:
        if isinstance(s, dict) and "p" in s and set(s) <= {"in", "p"}:
            i, p = _loc(s, "event", evs)
            if idx[i][p] >= len(evs[i][p]):
                raise ScenarioError("schedule: input %d partition %d has no more events" % (i, p))
            if (i, p) in released:
                raise ScenarioError("schedule: event for released input %d partition %d" % (i, p))
            actions.append(("ev",) + evs[i][p][idx[i][p]])
            idx[i][p] += 1
            if idx[i][p] == len(evs[i][p]):
                part_end(i, p)
        elif isinstance(s, dict) and len(s) == 1 and next(iter(s)) in ("idle", "active", "release"):
            k, v = next(iter(s.items()))
            i, p = _loc(v, k, evs)
            if (i, p) in released:
                raise ScenarioError("schedule: input %d partition %d already released" % (i, p))
            actions.append((k, i, p))
            if k == "release":
                released.add((i, p))
        elif isinstance(s, dict) and set(s) == {"sleep_ms"}:
            actions.append(("sleep", _int(s["sleep_ms"], "sleep_ms", 0, 600000)))
        else:
            raise ScenarioError("schedule entry %r: use {in, p}, {idle|active|release: {in, p}} or {sleep_ms: n}" % (s,))
    left = [(i, p) for i in range(len(evs)) for p in range(len(evs[i])) if idx[i][p] < len(evs[i][p])]
    if left:
        raise ScenarioError("schedule leaves events of (input, partition) %s unconsumed" % left)

    settings = {"inputs": ins, "operator": opn, "interval_ms": interval, "flush_at_end": bool(sc.get("flush_at_end", True))}
    return settings, actions


def write_plan(settings, actions, path):
    s, op = settings, settings["operator"]
    lines = ["cfg\top\t%s" % op["type"], "cfg\tinterval_ms\t%d" % s["interval_ms"], "cfg\tflush_at_end\t%d" % s["flush_at_end"]]
    if "window" in op:
        lines.append("cfg\twindow\t" + "\t".join(str(x) for x in op["window"]))
    if "allowed_lateness_ms" in op:
        lines.append("cfg\tlateness_ms\t%d" % op["allowed_lateness_ms"])
    if "late_side_output" in op:
        lines.append("cfg\tlate_side_output\t%d" % op["late_side_output"])
    if op["type"] == "interval_join":
        lines.append("cfg\tjoin\t%d\t%d\t%d\t%d" % (op["lower_ms"], op["upper_ms"], op["lower_exclusive"], op["upper_exclusive"]))
    for n, inp in enumerate(s["inputs"]):
        wm, mid = inp["watermark"], inp["midstream"] or {"kind": "none"}
        lines.append("\t".join(str(x) for x in (
            "input", n, inp["partitions"], wm["kind"], wm["out_of_orderness_ms"],
            -1 if wm["idleness_ms"] is None else wm["idleness_ms"],
            {"none": "none", "timestamps_and_watermarks": "taw", "sql": "sql"}[mid["kind"]],
            mid.get("out_of_orderness_ms", 0), mid.get("emit", "per_event"),
            -1 if mid.get("idleness_ms") is None else mid["idleness_ms"],
            mid.get("delay_ms", 0), mid.get("idle_timeout_ms", 0))))
    for a in actions:
        if a[0] == "ev":
            _, i, p, idx, ts, v, k = a
            lines.append("ev\t%d\t%d\t%d\t%d\t%d\t%s" % (i, p, idx, ts, v, k))
        elif a[0] == "sleep":
            lines.append("sleep\t%d" % a[1])
        else:
            lines.append("%s\t%d\t%d" % a)
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


# ----------------------------------------------------------------------------- run + assemble
def run_java(plans):
    pfdir = pyflink_dir()
    lib = os.path.join(pfdir, "lib")
    classes = build_classes(lib)
    jtmp = tempfile.mkdtemp(prefix="flink_oracle2_jvm_")  # Flink unpacks a 24 MB rpc jar per JVM here
    try:
        out = os.path.join(jtmp, "trace.jsonl")
        fast_start = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]  # tiny jobs: JIT warm-up dominates
        cmd = (["java", "-Djava.io.tmpdir=" + jtmp] + fast_start + java_opts(pfdir)
               + ["-cp", os.path.join(lib, "*") + os.pathsep + classes, "FlinkOracle2", out] + plans)
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            sys.exit("Flink JVM failed (rc=%d):\n%s" % (r.returncode, r.stderr[-4000:]))
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


LATE_FIELDS = ("in", "partition", "idx", "ts", "key", "value", "wm")


def assemble(name, settings, block, version):
    if block["error"]:
        return {"scenario": name, "error": block["error"]}
    trace = block["trace"]
    op = settings["operator"]
    ot = op["type"]
    two = ot in TWO_INPUT
    keyed = [t for t in trace if t["ev"] in ("record", "watermark", "input_watermark", "status", "out_status",
                                             "window", "join", "late", "dropped", "end_input")]
    res = {"scenario": name, "flink_version": version, "settings": settings}
    if ot == "interval_join":
        res["joins"] = [{x: t[x] for x in ("key", "left_ts", "right_ts", "left_value", "right_value", "ts")}
                        for t in keyed if t["ev"] == "join"]
    else:
        windows, fired = [], {}
        for t in keyed:
            if t["ev"] == "window":
                k = (t["key"], t["window_start"], t["window_end"])
                w = {x: t[x] for x in ("key", "window_start", "window_end", "count", "sum", "wm")}
                w["firing"] = fired.get(k, 0)
                fired[k] = w["firing"] + 1
                windows.append(w)
        res["windows"] = windows
    late = [{x: t[x] for x in LATE_FIELDS} for t in keyed if t["ev"] in ("late", "dropped")]
    late_name = "late" if (ot == "connect" or op.get("late_side_output", True)) else "dropped"
    res[late_name] = late
    res["watermarks"] = [t["wm"] for t in keyed if t["ev"] == "watermark"]
    if two:
        res["input_watermarks"] = [[t["in"], t["wm"]] for t in keyed if t["ev"] == "input_watermark"]
        res["statuses"] = [[t["in"], t["status"]] for t in keyed if t["ev"] == "status"]
        res["output_statuses"] = [t["status"] for t in keyed if t["ev"] == "out_status"]
    else:
        res["statuses"] = [t["status"] for t in keyed if t["ev"] == "status"]
    res["sources"] = [{"in": n,
                       "watermarks": [t["wm"] for t in trace if t["ev"] == "src_watermark" and t["in"] == n],
                       "statuses": [t["status"] for t in trace if t["ev"] == "src_status" and t["in"] == n]}
                      for n in range(len(settings["inputs"]))]
    res["midstream"] = [{"in": n, "kind": inp["midstream"]["kind"],
                         "watermarks": [t["wm"] for t in trace if t["ev"] == "mid_watermark" and t["in"] == n],
                         "statuses": [t["status"] for t in trace if t["ev"] == "mid_status" and t["in"] == n]}
                        for n, inp in enumerate(settings["inputs"]) if inp["midstream"]]
    res["trace"] = trace
    res["elapsed_ms"] = block["elapsed_ms"]
    return res


def dumps(res):
    """JSON with one list element per line (diff-friendly, still valid JSON)."""
    out = ["{"]
    items = list(res.items())
    for n, (k, v) in enumerate(items):
        comma = "," if n < len(items) - 1 else ""
        if isinstance(v, list) and v and any(isinstance(x, (dict, list)) for x in v):
            out.append("  %s: [" % json.dumps(k))
            out += ["    " + json.dumps(x, separators=(",", ":")) + ("," if i < len(v) - 1 else "") for i, x in enumerate(v)]
            out.append("  ]" + comma)
        else:
            out.append("  %s: %s%s" % (json.dumps(k), json.dumps(v, separators=(",", ":")), comma))
    return "\n".join(out + ["}"]) + "\n"


NOT_COMPARED = ("elapsed_ms", "flink_version")


def differences(a, b):
    keys = [k for k in list(a) + [k for k in b if k not in a] if k not in NOT_COMPARED]
    return [k for k in keys if a.get(k) != b.get(k)]


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
    work = tempfile.mkdtemp(prefix="flink_oracle2_plans_")
    try:
        for n, path in enumerate(args.scenarios):
            with open(path, encoding="utf-8") as f:
                sc = json.load(f)
            try:
                settings, actions = normalize(sc)
            except ScenarioError as e:
                sys.exit("%s: invalid scenario: %s" % (path, e))
            name = sc.get("name", os.path.splitext(os.path.basename(path))[0])
            plans = []
            for r in range(args.repeat):
                plan = os.path.join(work, "%03d_%d.plan" % (n, r))
                write_plan(settings, actions, plan)
                plans.append(plan)
            jobs.append((path, name, settings, plans))
        # runs of one scenario are not adjacent: repeat r of all scenarios, then r + 1
        order = [j[3][r] for r in range(args.repeat) for j in jobs]
        blocks, version, libdir = run_java(order)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    bad = 0
    for path, name, settings, plans in jobs:
        runs = [assemble(name, settings, blocks.get(os.path.basename(p)) or {"error": "no output from the JVM", "trace": []},
                         version) for p in plans]
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
                keep = tempfile.mkdtemp(prefix="flink_oracle2_nondet_")
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
        if args.check:
            with open(os.path.join(args.check, os.path.basename(path)), encoding="utf-8") as f:
                exp = json.load(f)
            if args.no_trace:
                exp.pop("trace", None)
            d = sorted({k for r in runs for k in differences(exp, r)})
            bad += bool(d)
            status.insert(0, "MISMATCH in " + ",".join(d) if d else "ok")
            print("%s: %s (%s ms)" % (path, ", ".join(status), "/".join(str(r.get("elapsed_ms", -1)) for r in runs)),
                  file=sys.stderr)
        elif args.out_dir:
            if nondet:  # do not write a golden
                print("%s: NOT WRITTEN: %s" % (path, ", ".join(status)), file=sys.stderr)
                continue
            os.makedirs(args.out_dir, exist_ok=True)
            with open(os.path.join(args.out_dir, os.path.basename(path)), "w", encoding="utf-8") as f:
                f.write(dumps(res))
            n_out = len(res.get("windows", res.get("joins", [])))
            print("%s: %d %s, %d late/dropped, %s, job %s ms" % (
                path, n_out, "joins" if "joins" in res else "windows", len(res.get("late", res.get("dropped", []))),
                ", ".join(status) or "1 run", "/".join(str(r.get("elapsed_ms", -1)) for r in runs)), file=sys.stderr)
        else:
            sys.stdout.write(dumps(res))
            if status:
                print("%s: %s" % (path, ", ".join(status)), file=sys.stderr)
    print("total %.1f s for %d scenario(s) x %d, Flink %s from %s" % (time.time() - t0, len(jobs), args.repeat, version, libdir),
          file=sys.stderr)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
