// Java side of the project's Flink oracle for watermark alignment and checkpoint/restore
// (see README.md, "oracle3"). Driven by flink_oracle3.py, which validates the scenario and
// writes one normalized JSON "plan" per run.
//
// Usage: java -cp <flink lib/*>:<classes> FlinkOracle3 OUT_FILE PLAN_FILE [PLAN_FILE ...]
// For each plan it starts a MiniCluster, runs one job and appends the ordered trace (one JSON
// object per line) to OUT_FILE, framed by "#begin <plan>" / "#end <elapsed_ms>".
//
// Topology:
//   source s (parallelism P_s, split p on subtask p % P_s; FLIP-27, per-split watermarks,
//             optional withWatermarkAlignment / idleness)  -> SrcProbe (chained)
//   union of all sources -> keyBy -> KeyedProbe -> WindowOperator (parallelism 1, one task)
//                                                 \-> late side output -> LateProbe
//
// Determinism. Alignment decisions are taken by Flink on wall-clock timers (the subtasks'
// report/sample tick and the coordinator's announcement, both every updateInterval), so the
// outcome cannot be made independent of time by ordering alone. The driver (main thread)
// therefore runs the schedule one step at a time and lets the system SETTLE between steps:
//   1. with alignment, it first asks every source subtask for a snapshot of its alignment state
//      (read in the subtask's own mailbox thread through a processing-time timer, so it is a
//      consistent view even while the subtask is blocked);
//   2. it hands the step to the subtask that owns it (none for sleep/checkpoint); a subtask
//      blocked by alignment cannot be polled, so its read step is skipped and reported;
//   3. the owner performs it inside one pollNext call (a burst of records is atomic with respect
//      to timers and operator events, which only run between mailbox actions) and then emits a
//      MARKER; the keyed task acknowledges the step when the marker arrives (FIFO behind the
//      records, watermarks and statuses of that channel);
//   4. if the step changed any watermark state it sleeps settle_ms (>= (buffer + 3) x
//      updateInterval): every subtask has sampled, reported and received the coordinator's new
//      announcement several times, so the next snapshot and step see a quiescent state.
// Inside a burst the reader stops as soon as Flink pauses the split (pauseOrResumeSplits is
// called synchronously from the watermark update) or blocks the subtask (the operating mode
// switches to WAITING_FOR_ALIGNMENT synchronously), exactly where Flink's own emit loop would
// stop polling. Checkpoints are triggered explicitly (MiniCluster.triggerCheckpoint) at their
// steps, failures are thrown by the keyed task when a FAIL marker reaches it (after everything
// before it was processed), and the driver waits until every subtask of the restarted attempt
// has its splits and the keyed task has seen a READY marker from each of them.
// Every object carries the run (job) and attempt it was built for; the trace ignores objects of
// other runs and of attempts before the current one (tasks being cancelled).

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.eventtime.WatermarksWithIdleness;
import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.CheckpointType;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamUtils;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.source.WatermarkSampler;
import org.apache.flink.streaming.api.windowing.assigners.EventTimeSessionWindows;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.WindowAssigner;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Serializable;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

public class FlinkOracle3 {

    static final long MIN = Long.MIN_VALUE, MAX = Long.MAX_VALUE;
    /** Trace roles: source subtasks are 0..total-1 (source-major), then the keyed task, then the driver. */
    static final int OP = 100, DRIVER = 200;

    // ------------------------------------------------------------------ trace
    static final class Entry {
        final int step, role, attempt; final long seq; final String json;
        Entry(int step, int role, int attempt, long seq, String json) {
            this.step = step; this.role = role; this.attempt = attempt; this.seq = seq; this.json = json;
        }
    }
    static final List<Entry> TRACE = new ArrayList<>();
    static long seqNo = 0;
    /** Incremented per job on the client side; every job object keeps the value it was built with. */
    static volatile int BUILD_RUN = 0;

    /** Records an entry for the current step, unless it comes from another run or an older attempt. */
    static void trace(int run, int attempt, int role, String json) {
        synchronized (Seq.LOCK) {
            if (run != Seq.run || attempt != Seq.attempt || Seq.k >= Seq.cut) return;
            TRACE.add(new Entry(Seq.k, role, attempt, seqNo++, json));
        }
    }

    static String q(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    static String st(WatermarkStatus s) { return s.isIdle() ? "idle" : "active"; }

    static String evJson(String kind, Ev e, long wm) {
        return "{\"ev\":\"" + kind + "\",\"src\":" + e.src + ",\"split\":" + e.split + ",\"idx\":" + e.idx + ",\"ts\":" + e.ts
                + ",\"key\":" + q(e.key) + ",\"value\":" + e.value + ",\"wm\":" + wm + "}";
    }

    // ------------------------------------------------------------------ data
    /** One event, or a sequencer marker (marker != NONE). POJO for Flink's serializer. */
    public static class Ev {
        public static final int NONE = 0, STEP = 1, READY = 2, FAIL = 3, END = 4;
        public int src, split, idx, sub;
        public long ts, value;
        public String key = "";
        public int marker = NONE;
        public int step = -1;
        public int attempt;
        public Ev() {}
    }

    public static class Acc {
        public long count, sum;
        public Acc() {}
    }

    static final class EvSpec implements Serializable { long ts, value; String key; }

    static final class SourceCfg implements Serializable {
        int index, parallelism, base; String wm; long bound; long idlenessMs = -1;
        String group; long drift = -1, updateMs = 1000;
        List<List<EvSpec>> splits = new ArrayList<>();
        boolean aligned() { return group != null; }
        int owner(int split) { return base + split % parallelism; }
        int splitsOf(int sub) { int n = 0; for (int p = 0; p < splits.size(); p++) if (p % parallelism == sub) n++; return n; }
    }

    /** kind: read (src, split, n) | idle | active | release | sleep (ms) | checkpoint | fail */
    static final class Step implements Serializable { String kind; int src, split, n = 1; long ms; }

    static final class Plan {
        List<SourceCfg> sources = new ArrayList<>(); List<Step> steps = new ArrayList<>();
        int bufferSize = 3; boolean allowUnaligned; long intervalMs; long settleMs;
        String window; long size, slide, offset, gap, latenessMs;
        boolean checkpointing; int restartAttempts; long restartDelayMs; boolean flush = true;
        int total; int run;
    }

    static Plan readPlan(String file) throws IOException {
        JsonNode j = new ObjectMapper().readTree(new File(file));
        Plan pl = new Plan();
        int base = 0;
        for (JsonNode s : j.get("sources")) {
            SourceCfg c = new SourceCfg();
            c.index = pl.sources.size(); c.parallelism = s.get("parallelism").asInt(); c.base = base;
            base += c.parallelism;
            JsonNode w = s.get("watermark");
            c.wm = w.get("kind").asText(); c.bound = w.get("out_of_orderness_ms").asLong();
            if (!w.get("idleness_ms").isNull()) c.idlenessMs = w.get("idleness_ms").asLong();
            JsonNode a = s.get("alignment");
            if (a != null && !a.isNull()) {
                c.group = a.get("group").asText(); c.drift = a.get("max_drift_ms").asLong(); c.updateMs = a.get("update_interval_ms").asLong();
            }
            for (JsonNode sp : s.get("splits")) {
                List<EvSpec> l = new ArrayList<>();
                for (JsonNode e : sp) {
                    EvSpec x = new EvSpec(); x.ts = e.get("ts").asLong(); x.value = e.get("value").asLong(); x.key = e.get("key").asText();
                    l.add(x);
                }
                c.splits.add(l);
            }
            pl.sources.add(c);
        }
        pl.total = base;
        JsonNode f = j.get("flink");
        pl.bufferSize = f.get("pipeline.watermark-alignment.buffer-size").asInt();
        pl.allowUnaligned = f.get("pipeline.watermark-alignment.allow-unaligned-source-splits").asBoolean();
        pl.intervalMs = f.get("pipeline.auto-watermark-interval_ms").asLong();
        JsonNode w = j.get("window");
        pl.window = w.get("type").asText();
        pl.size = w.path("size_ms").asLong(); pl.slide = w.path("slide_ms").asLong();
        pl.offset = w.path("offset_ms").asLong(); pl.gap = w.path("gap_ms").asLong();
        pl.latenessMs = j.get("allowed_lateness_ms").asLong();
        JsonNode cp = j.get("checkpointing");
        if (cp != null && !cp.isNull()) {
            pl.checkpointing = true;
            pl.restartAttempts = cp.get("restart").get("attempts").asInt();
            pl.restartDelayMs = cp.get("restart").get("delay_ms").asLong();
        }
        pl.settleMs = j.get("settle_ms").asLong();
        pl.flush = j.get("flush_at_end").asBoolean();
        for (JsonNode s : j.get("steps")) {
            Step st = new Step(); st.kind = s.get("kind").asText();
            st.src = s.path("src").asInt(); st.split = s.path("split").asInt(); st.n = s.path("n").asInt(1); st.ms = s.path("ms").asLong();
            pl.steps.add(st);
        }
        return pl;
    }

    // ------------------------------------------------------------------ sequencer
    /**
     * Shared state between the driver (main thread) and the tasks of the current job. A step is
     * "given" to its owner subtask by completing the future its reader waits on; the keyed task
     * acknowledges it when the owner's marker arrives.
     */
    static final class Seq {
        static final Object LOCK = new Object();
        static volatile int run = -1, attempt, k, cut = Integer.MAX_VALUE;
        static Plan plan;
        static Reader[] readers;                 // current attempt's reader per role
        static Step[] given;                     // step handed to a role, null when none
        static CompletableFuture<Void>[] wake;   // what an idle reader waits on
        static boolean acked; static int got;    // step acknowledged by the keyed task; records the owner emitted
        static int ready;                        // READY markers of the current attempt seen by the keyed task
        static boolean[] ended;                  // END markers seen (end of input per role)
        static Map<Integer, Long> notified = new HashMap<>();   // role -> last checkpoint completion seen
        static Map<Integer, String> snaps = new HashMap<>();    // role -> alignment snapshot (JSON)
        static String error;

        @SuppressWarnings("unchecked")
        static void reset(Plan pl) {
            synchronized (LOCK) {
                plan = pl; run = pl.run; attempt = 0; k = 0; cut = Integer.MAX_VALUE;
                readers = new Reader[pl.total]; given = new Step[pl.total]; wake = new CompletableFuture[pl.total];
                acked = false; got = 0; ready = 0; ended = new boolean[pl.total];
                notified.clear(); snaps.clear(); error = null;
            }
        }

        static void fail(String msg) { synchronized (LOCK) { if (error == null) error = msg; LOCK.notifyAll(); } }

        interface Cond { boolean ok(); }

        /** Waits (driver thread) until cond holds; throws on a recorded error or after timeoutMs. */
        static void await(Cond cond, long timeoutMs, String what) throws InterruptedException {
            long end = System.currentTimeMillis() + timeoutMs;
            synchronized (LOCK) {
                while (!cond.ok()) {
                    if (error != null) throw new IllegalStateException(error);
                    long left = end - System.currentTimeMillis();
                    if (left <= 0) throw new IllegalStateException("timeout at step " + k + ": " + what);
                    LOCK.wait(Math.min(left, 100));
                }
                if (error != null) throw new IllegalStateException(error);
            }
        }

        static void give(int role, Step s) {
            synchronized (LOCK) {
                acked = false; got = 0;
                given[role] = s;
                if (wake[role] != null) wake[role].complete(null);
            }
        }

        /** Keyed task thread: a marker arrived. */
        static void marker(int r, int att, Ev m) {
            synchronized (LOCK) {
                if (r != run || att != attempt || m.attempt != attempt) return;
                switch (m.marker) {
                    case Ev.STEP: if (m.step == k) { acked = true; LOCK.notifyAll(); } break;
                    case Ev.READY: ready++; LOCK.notifyAll(); break;
                    case Ev.END: ended[plan.sources.get(m.src).base + m.sub] = true; LOCK.notifyAll(); break;
                    default:
                }
            }
        }
    }

    // ------------------------------------------------------------------ source
    /** A split with the reader's position in it (checkpointed). */
    public static class PSplit implements SourceSplit, Serializable {
        final int p; final int offset;
        PSplit(int p, int offset) { this.p = p; this.offset = offset; }
        @Override public String splitId() { return "split-" + p; }
    }

    static class PSplitSer implements SimpleVersionedSerializer<PSplit> {
        public int getVersion() { return 1; }
        public byte[] serialize(PSplit s) throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream(); DataOutputStream o = new DataOutputStream(b);
            o.writeInt(s.p); o.writeInt(s.offset); return b.toByteArray();
        }
        public PSplit deserialize(int v, byte[] b) throws IOException {
            DataInputStream i = new DataInputStream(new ByteArrayInputStream(b)); return new PSplit(i.readInt(), i.readInt());
        }
    }

    /** Enumerator state: splits not yet assigned, per subtask. */
    static class EnumState { final Map<Integer, List<Integer>> pending = new TreeMap<>(); }

    static class EnumStateSer implements SimpleVersionedSerializer<EnumState> {
        public int getVersion() { return 1; }
        public byte[] serialize(EnumState s) throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream(); DataOutputStream o = new DataOutputStream(b);
            o.writeInt(s.pending.size());
            for (Map.Entry<Integer, List<Integer>> e : s.pending.entrySet()) {
                o.writeInt(e.getKey()); o.writeInt(e.getValue().size());
                for (int p : e.getValue()) o.writeInt(p);
            }
            return b.toByteArray();
        }
        public EnumState deserialize(int v, byte[] b) throws IOException {
            DataInputStream i = new DataInputStream(new ByteArrayInputStream(b)); EnumState s = new EnumState();
            int n = i.readInt();
            for (int x = 0; x < n; x++) { int sub = i.readInt(), m = i.readInt(); List<Integer> l = new ArrayList<>(); for (int y = 0; y < m; y++) l.add(i.readInt()); s.pending.put(sub, l); }
            return s;
        }
    }

    /**
     * Static assignment like a Kafka enumerator: split p belongs to subtask p % parallelism. Splits
     * handed back after a failure (assigned after the last checkpoint) are assigned again when the
     * reader re-registers; splits assigned before it come back through the reader's own state.
     */
    static class Enum implements SplitEnumerator<PSplit, EnumState> {
        final SplitEnumeratorContext<PSplit> ctx; final EnumState state;
        Enum(SplitEnumeratorContext<PSplit> ctx, EnumState state) { this.ctx = ctx; this.state = state; }
        public void start() {}
        public void handleSplitRequest(int subtask, String host) {}
        public void addSplitsBack(List<PSplit> splits, int subtask) {
            for (PSplit s : splits) state.pending.computeIfAbsent(subtask, x -> new ArrayList<>()).add(s.p);
        }
        public void addReader(int subtask) {
            List<Integer> l = state.pending.remove(subtask);
            List<PSplit> splits = new ArrayList<>();
            if (l != null) for (int p : l) splits.add(new PSplit(p, 0));
            if (!splits.isEmpty()) ctx.assignSplits(new SplitsAssignment<>(Collections.singletonMap(subtask, splits)));
            ctx.signalNoMoreSplits(subtask);
        }
        public EnumState snapshotState(long id) {
            EnumState c = new EnumState();
            for (Map.Entry<Integer, List<Integer>> e : state.pending.entrySet()) c.pending.put(e.getKey(), new ArrayList<>(e.getValue()));
            return c;
        }
        public void close() {}
    }

    static class PlanSource implements Source<Ev, PSplit, EnumState> {
        final int run = BUILD_RUN; final SourceCfg cfg;
        PlanSource(SourceCfg cfg) { this.cfg = cfg; }
        public Boundedness getBoundedness() { return Boundedness.BOUNDED; }
        public SplitEnumerator<PSplit, EnumState> createEnumerator(SplitEnumeratorContext<PSplit> c) {
            EnumState s = new EnumState();
            for (int p = 0; p < cfg.splits.size(); p++) s.pending.computeIfAbsent(p % cfg.parallelism, x -> new ArrayList<>()).add(p);
            return new Enum(c, s);
        }
        public SplitEnumerator<PSplit, EnumState> restoreEnumerator(SplitEnumeratorContext<PSplit> c, EnumState s) { return new Enum(c, s); }
        public SimpleVersionedSerializer<PSplit> getSplitSerializer() { return new PSplitSer(); }
        public SimpleVersionedSerializer<EnumState> getEnumeratorCheckpointSerializer() { return new EnumStateSer(); }
        public SourceReader<Ev, PSplit> createReader(SourceReaderContext c) { return new Reader(run, cfg, c); }
    }

    /**
     * Performs the steps the driver hands to its subtask. It honours pauseOrResumeSplits (split
     * alignment) and stops a burst when Flink blocks the subtask. The SourceOperator is reached
     * through the reader context (an inner class of it) only to observe it: its operating mode
     * between records and, in snapshots, its alignment fields.
     */
    static class Reader implements SourceReader<Ev, PSplit> {
        final int run, attempt, sub, role; final SourceCfg cfg; final Object op;
        final TreeMap<Integer, Integer> pos = new TreeMap<>();
        final Set<Integer> paused = new TreeSet<>();
        final int expected;
        boolean readySent;
        CompletableFuture<Void> avail = new CompletableFuture<>();

        Reader(int run, SourceCfg cfg, SourceReaderContext ctx) {
            this.run = run; this.cfg = cfg; this.attempt = Seq.attempt;
            this.sub = ctx.getIndexOfSubtask(); this.role = cfg.base + sub;
            this.expected = cfg.splitsOf(sub);
            this.op = OpView.operatorOf(ctx);
            if (expected == 0) avail.complete(null);
        }

        void tr(String json) { trace(run, attempt, role, json); }
        String who() { return "\"src\":" + cfg.index + ",\"subtask\":" + sub; }

        public void start() {
            synchronized (Seq.LOCK) { if (run == Seq.run && attempt == Seq.attempt) Seq.readers[role] = this; }
        }

        public void addSplits(List<PSplit> l) {
            StringBuilder b = new StringBuilder();
            for (PSplit s : l) {
                pos.put(s.p, s.offset);
                b.append(b.length() == 0 ? "" : ",").append("[").append(s.p).append(",").append(s.offset).append("]");
            }
            tr("{\"ev\":\"splits_added\"," + who() + ",\"splits\":[" + b + "]}");
            if (pos.size() == expected) avail.complete(null);
        }

        private void marker(ReaderOutput<Ev> out, int kind, int step) {
            Ev m = new Ev(); m.src = cfg.index; m.sub = sub; m.marker = kind; m.step = step; m.attempt = attempt;
            out.collect(m, 0);
        }

        public InputStatus pollNext(ReaderOutput<Ev> out) {
            if (pos.size() < expected) { if (avail.isDone()) avail = new CompletableFuture<>(); return InputStatus.NOTHING_AVAILABLE; }
            if (!readySent) {   // this attempt's pipeline is up: tell the keyed task
                readySent = true;
                marker(out, Ev.READY, -1);
            }
            Step s; int k;
            synchronized (Seq.LOCK) {
                if (run != Seq.run || attempt != Seq.attempt) { avail = new CompletableFuture<>(); return InputStatus.NOTHING_AVAILABLE; }
                s = Seq.given[role]; k = Seq.k;
                if (s == null) {
                    avail = new CompletableFuture<>();
                    Seq.wake[role] = avail;
                    return InputStatus.NOTHING_AVAILABLE;
                }
                Seq.given[role] = null;
            }
            int got = 0;
            switch (s.kind) {
                case "end":
                    tr("{\"ev\":\"end_of_input\"," + who() + "}");
                    return InputStatus.END_OF_INPUT;
                case "fail":
                    marker(out, Ev.FAIL, k);
                    break;
                case "read": got = read(out, s); break;
                case "idle": tr("{\"ev\":\"split_idle\"," + who() + ",\"split\":" + s.split + "}"); out.createOutputForSplit(sid(s.split)).markIdle(); break;
                case "active": tr("{\"ev\":\"split_active\"," + who() + ",\"split\":" + s.split + "}"); out.createOutputForSplit(sid(s.split)).markActive(); break;
                case "release": tr("{\"ev\":\"split_released\"," + who() + ",\"split\":" + s.split + "}"); out.releaseOutputForSplit(sid(s.split)); break;
                default: Seq.fail("unknown step " + s.kind);
            }
            synchronized (Seq.LOCK) { Seq.got = got; }
            if (!s.kind.equals("fail")) marker(out, Ev.STEP, k);
            synchronized (Seq.LOCK) {
                if (run != Seq.run || attempt != Seq.attempt) { avail = new CompletableFuture<>(); return InputStatus.NOTHING_AVAILABLE; }
                // Once the marker is out the step may be acknowledged and the next one handed over
                // before this point (the future that woke us is already complete): take it now.
                if (Seq.given[role] != null) return InputStatus.MORE_AVAILABLE;
                avail = new CompletableFuture<>();
                Seq.wake[role] = avail;
            }
            return InputStatus.NOTHING_AVAILABLE;
        }

        static String sid(int p) { return "split-" + p; }

        /** Up to n next records of the split, one after the other, as long as Flink lets this split/subtask run. */
        private int read(ReaderOutput<Ev> out, Step s) {
            List<EvSpec> evs = cfg.splits.get(s.split);
            int got = 0; String stop = "done";
            while (got < s.n) {
                if (paused.contains(s.split)) { stop = "paused"; break; }
                if (OpView.blocked(op)) { stop = "blocked"; break; }
                int i = pos.get(s.split);
                if (i >= evs.size()) { stop = "exhausted"; break; }
                EvSpec x = evs.get(i);
                Ev e = new Ev(); e.src = cfg.index; e.split = s.split; e.idx = i; e.ts = x.ts; e.key = x.key; e.value = x.value; e.sub = sub; e.attempt = attempt;
                pos.put(s.split, i + 1);
                tr("{\"ev\":\"emit\"," + who() + ",\"split\":" + s.split + ",\"idx\":" + i + ",\"ts\":" + x.ts + "}");
                out.createOutputForSplit(sid(s.split)).collect(e, x.ts);
                got++;
            }
            tr("{\"ev\":\"read\"," + who() + ",\"split\":" + s.split + ",\"want\":" + s.n + ",\"got\":" + got + ",\"stop\":\"" + stop + "\"}");
            return got;
        }

        @Override public void pauseOrResumeSplits(Collection<String> pause, Collection<String> resume) {
            List<Integer> ps = new ArrayList<>(), rs = new ArrayList<>();
            for (String x : pause) { int p = Integer.parseInt(x.substring(6)); paused.add(p); ps.add(p); }
            for (String x : resume) { int p = Integer.parseInt(x.substring(6)); paused.remove(p); rs.add(p); }
            Collections.sort(ps); Collections.sort(rs);
            tr("{\"ev\":\"pause_resume\"," + who() + ",\"pause\":" + ps + ",\"resume\":" + rs + "}");
        }

        public CompletableFuture<Void> isAvailable() { return avail; }

        public List<PSplit> snapshotState(long id) {
            List<PSplit> l = new ArrayList<>();
            StringBuilder b = new StringBuilder();
            for (Map.Entry<Integer, Integer> e : pos.entrySet()) {
                l.add(new PSplit(e.getKey(), e.getValue()));
                b.append(b.length() == 0 ? "" : ",").append("[").append(e.getKey()).append(",").append(e.getValue()).append("]");
            }
            tr("{\"ev\":\"snapshot\"," + who() + ",\"checkpoint\":" + id + ",\"splits\":[" + b + "]}");
            return l;
        }

        @Override public void notifyCheckpointComplete(long id) {
            synchronized (Seq.LOCK) {
                if (run != Seq.run || attempt != Seq.attempt) return;
                Seq.notified.put(role, id); Seq.LOCK.notifyAll();
            }
        }

        public void notifyNoMoreSplits() {}
        public void close() {}

        /** Driver: snapshot the SourceOperator's alignment state in this subtask's mailbox thread. */
        void requestSnapshot(int step) {
            ProcessingTimeService pts = ((AbstractStreamOperator<?>) op).getProcessingTimeService();
            pts.registerTimer(pts.getCurrentProcessingTime(), t -> {
                String j = "{\"ev\":\"align\"," + who() + "," + OpView.describe(op, cfg, sub) + "}";
                tr(j);
                synchronized (Seq.LOCK) {
                    if (run == Seq.run && attempt == Seq.attempt && Seq.k == step) { Seq.snaps.put(role, j); Seq.LOCK.notifyAll(); }
                }
            });
        }
    }

    /**
     * Read-only view of SourceOperator internals (2.3.0 field names). Only for observation: the
     * reader stops a burst when the operator switched to WAITING_FOR_ALIGNMENT, and snapshots
     * report the alignment state (max desired watermark, samplers, paused and idle splits).
     */
    static final class OpView {
        static Field f(Class<?> c, String n) {
            for (Class<?> x = c; x != null; x = x.getSuperclass()) {
                try { Field fl = x.getDeclaredField(n); fl.setAccessible(true); return fl; } catch (NoSuchFieldException ignored) {}
            }
            throw new IllegalStateException("no field " + n + " in " + c);
        }
        static Object get(Object o, String n) {
            try { return f(o.getClass(), n).get(o); } catch (IllegalAccessException e) { throw new IllegalStateException(e); }
        }
        static Object operatorOf(SourceReaderContext ctx) { return get(ctx, "this$0"); }
        static boolean blocked(Object op) { return String.valueOf(get(op, "operatingMode")).equals("WAITING_FOR_ALIGNMENT"); }

        @SuppressWarnings("unchecked")
        static String describe(Object op, SourceCfg cfg, int sub) {
            long maxDesired = (Long) get(op, "currentMaxDesiredWatermark");
            WatermarkSampler latest = (WatermarkSampler) get(op, "sampledLatestWatermark");
            Map<String, WatermarkSampler> splits = (Map<String, WatermarkSampler>) get(op, "sampledSplitWatermarks");
            Set<String> paused = (Set<String>) get(op, "currentlyPausedSplits");
            Set<String> idleSplits = (Set<String>) get(op, "currentlyIdleSplits");
            StringBuilder b = new StringBuilder();
            b.append("\"mode\":\"").append(get(op, "operatingMode")).append("\"");
            b.append(",\"max_desired\":").append(maxDesired);
            b.append(",\"latest\":").append(latest.getLatest()).append(",\"oldest\":").append(latest.getOldestSample());
            b.append(",\"idle\":").append(get(op, "idle"));
            Long drift = Reporter.drift("oracle3-src-" + cfg.index, sub);
            b.append(",\"drift_metric\":").append(drift == null ? "null" : drift.toString());
            b.append(",\"splits\":[");
            TreeMap<Integer, WatermarkSampler> sorted = new TreeMap<>();
            for (Map.Entry<String, WatermarkSampler> e : splits.entrySet()) sorted.put(Integer.parseInt(e.getKey().substring(6)), e.getValue());
            boolean first = true;
            for (Map.Entry<Integer, WatermarkSampler> e : sorted.entrySet()) {
                String id = Reader.sid(e.getKey());
                b.append(first ? "" : ",").append("{\"split\":").append(e.getKey())
                        .append(",\"latest\":").append(e.getValue().getLatest()).append(",\"oldest\":").append(e.getValue().getOldestSample())
                        .append(",\"paused\":").append(paused.contains(id)).append(",\"idle\":").append(idleSplits.contains(id)).append("}");
                first = false;
            }
            return b.append("]").toString();
        }
    }

    /**
     * Metric reporter (registered on the MiniCluster): keeps the `watermarkAlignmentDrift` gauges
     * so that snapshots can read the metric as a reporter would, in the subtask's thread.
     */
    public static class Reporter implements MetricReporter {
        static final Map<String, Gauge<?>> GAUGES = new HashMap<>();
        static String key(String op, String sub) { return op + "#" + sub; }
        static Long drift(String op, int sub) {
            Gauge<?> g;
            synchronized (GAUGES) { g = GAUGES.get(key(op, String.valueOf(sub))); }
            return g == null ? null : ((Number) g.getValue()).longValue();
        }
        public void open(MetricConfig c) {}
        public void close() {}
        public void notifyOfAddedMetric(Metric m, String name, MetricGroup g) {
            if (!name.equals("watermarkAlignmentDrift")) return;
            Map<String, String> v = g.getAllVariables();
            String op = v.getOrDefault("<operator_name>", "");
            int at = op.indexOf("oracle3-src-");
            if (at >= 0) op = op.substring(at);
            synchronized (GAUGES) { GAUGES.put(key(op, v.get("<subtask_index>")), (Gauge<?>) m); }
        }
        public void notifyOfRemovedMetric(Metric m, String name, MetricGroup g) {
            synchronized (GAUGES) { GAUGES.values().removeIf(x -> x == m); }
        }
    }

    public static class ReporterFactory implements MetricReporterFactory {
        public MetricReporter createMetricReporter(Properties p) { return new Reporter(); }
    }

    // ------------------------------------------------------------------ watermark generators
    /**
     * per_event: BoundedOutOfOrdernessWatermarks' value (max_ts - bound - 1) emitted on every event
     * (deterministic, as in oracle2). punctuated: the event's own timestamp (as the punctuated
     * generator of Flink's alignment unit tests); Flink drops values that do not advance.
     */
    static class PerEvent implements WatermarkGenerator<Ev>, Serializable {
        final boolean punctuated; final long bound; long maxTs;
        PerEvent(boolean punctuated, long bound) { this.punctuated = punctuated; this.bound = bound; this.maxTs = MIN + bound + 1; }
        public void onEvent(Ev e, long ts, WatermarkOutput out) {
            if (punctuated) { out.emitWatermark(new Watermark(ts)); return; }
            if (ts > maxTs) maxTs = ts;
            out.emitWatermark(new Watermark(maxTs - bound - 1));
        }
        public void onPeriodicEmit(WatermarkOutput out) {}
    }

    /** Outermost layer: markers never reach the generator or its idleness timer. */
    static class SkipMarkers implements WatermarkGenerator<Ev> {
        final WatermarkGenerator<Ev> inner;
        SkipMarkers(WatermarkGenerator<Ev> inner) { this.inner = inner; }
        public void onEvent(Ev e, long ts, WatermarkOutput out) { if (e.marker == Ev.NONE) inner.onEvent(e, ts, out); }
        public void onPeriodicEmit(WatermarkOutput out) { inner.onPeriodicEmit(out); }
    }

    static class GenSupplier implements WatermarkGeneratorSupplier<Ev> {
        final String kind; final long bound, idlenessMs;
        GenSupplier(String kind, long bound, long idlenessMs) { this.kind = kind; this.bound = bound; this.idlenessMs = idlenessMs; }
        public WatermarkGenerator<Ev> createWatermarkGenerator(WatermarkGeneratorSupplier.Context ctx) {
            WatermarkGenerator<Ev> g = new PerEvent(kind.equals("punctuated"), bound);
            // as WatermarkStrategy.withIdleness: on the input-activity clock (paused while blocked/paused)
            if (idlenessMs >= 0) g = new WatermarksWithIdleness<>(g, Duration.ofMillis(idlenessMs), ctx.getInputActivityClock());
            return new SkipMarkers(g);
        }
    }

    static class TsAssigner implements SerializableTimestampAssigner<Ev> {
        public long extractTimestamp(Ev e, long recordTs) { return e.ts; }
    }

    static class KeyOf implements KeySelector<Ev, String> {
        public String getKey(Ev e) { return e.key; }
    }

    // ------------------------------------------------------------------ probes
    /** Chained after each source subtask: what it emitted; the END marker after its final watermark. */
    static class SrcProbe extends AbstractStreamOperator<Ev> implements OneInputStreamOperator<Ev, Ev> {
        final int run = BUILD_RUN; final int src, base;
        transient int attempt, sub;
        SrcProbe(int src, int base) { this.src = src; this.base = base; }
        @Override public void open() throws Exception {
            super.open();
            attempt = Seq.attempt; sub = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        }
        @Override public void finish() throws Exception {
            super.finish();
            Ev m = new Ev(); m.src = src; m.sub = sub; m.marker = Ev.END; m.attempt = attempt;
            output.collect(new StreamRecord<>(m, 0));
        }
        @Override public void processElement(StreamRecord<Ev> r) { output.collect(r); }
        @Override public void processWatermark(org.apache.flink.streaming.api.watermark.Watermark mark) throws Exception {
            trace(run, attempt, base + sub, "{\"ev\":\"src_watermark\",\"src\":" + src + ",\"subtask\":" + sub + ",\"wm\":" + mark.getTimestamp() + "}");
            super.processWatermark(mark);
        }
        @Override public void processWatermarkStatus(WatermarkStatus s) throws Exception {
            trace(run, attempt, base + sub, "{\"ev\":\"src_status\",\"src\":" + src + ",\"subtask\":" + sub + ",\"status\":\"" + st(s) + "\"}");
            super.processWatermarkStatus(s);
        }
    }

    /**
     * In front of the window operator (same task): sees exactly its input; consumes the markers;
     * throws the scripted failure when the FAIL marker arrives (everything sent before it has been
     * processed by then).
     */
    static class KeyedProbe extends AbstractStreamOperator<Ev> implements OneInputStreamOperator<Ev, Ev> {
        final int run = BUILD_RUN;
        transient int attempt; transient long wm;
        @Override public void open() throws Exception { super.open(); attempt = Seq.attempt; wm = MIN; }
        @Override public void processElement(StreamRecord<Ev> r) {
            Ev e = r.getValue();
            if (e.marker == Ev.FAIL) {
                synchronized (Seq.LOCK) {
                    if (run != Seq.run || attempt != Seq.attempt) return;
                    trace(run, attempt, OP, "{\"ev\":\"fail\",\"wm\":" + wm + "}");
                    Seq.attempt++; Seq.ready = 0;
                    Arrays.fill(Seq.readers, null); Arrays.fill(Seq.given, null); Arrays.fill(Seq.wake, null);
                    Seq.LOCK.notifyAll();
                }
                throw new RuntimeException("oracle3: scripted failure");
            }
            if (e.marker != Ev.NONE) { Seq.marker(run, attempt, e); return; }
            trace(run, attempt, OP, evJson("record", e, wm));
            output.collect(r);
        }
        @Override public void processWatermark(org.apache.flink.streaming.api.watermark.Watermark mark) throws Exception {
            wm = mark.getTimestamp();
            trace(run, attempt, OP, "{\"ev\":\"watermark\",\"wm\":" + wm + "}");
            super.processWatermark(mark);
        }
        @Override public void processWatermarkStatus(WatermarkStatus s) throws Exception {
            trace(run, attempt, OP, "{\"ev\":\"status\",\"status\":\"" + st(s) + "\"}");
            super.processWatermarkStatus(s);
        }
    }

    static class LateProbe extends ProcessFunction<Ev, String> {
        final int run = BUILD_RUN; transient int attempt;
        @Override public void open(OpenContext c) { attempt = Seq.attempt; }
        public void processElement(Ev e, Context ctx, Collector<String> out) {
            trace(run, attempt, OP, evJson("late", e, ctx.timerService().currentWatermark()));
        }
    }

    static class CountSum implements AggregateFunction<Ev, Acc, Acc> {
        public Acc createAccumulator() { return new Acc(); }
        public Acc add(Ev e, Acc a) { a.count++; a.sum += e.value; return a; }
        public Acc getResult(Acc a) { return a; }
        public Acc merge(Acc a, Acc b) { Acc r = new Acc(); r.count = a.count + b.count; r.sum = a.sum + b.sum; return r; }
    }

    /** The "print sink": every firing, so duplicates after a restore are visible. */
    static class Emit extends ProcessWindowFunction<Acc, String, String, TimeWindow> {
        final int run = BUILD_RUN; transient int attempt;
        @Override public void open(OpenContext c) { attempt = Seq.attempt; }
        public void process(String key, Context ctx, Iterable<Acc> in, Collector<String> out) {
            Acc a = in.iterator().next();
            trace(run, attempt, OP, "{\"ev\":\"window\",\"key\":" + q(key) + ",\"window_start\":" + ctx.window().getStart()
                    + ",\"window_end\":" + ctx.window().getEnd() + ",\"count\":" + a.count + ",\"sum\":" + a.sum + ",\"wm\":" + ctx.currentWatermark() + "}");
        }
    }

    // ------------------------------------------------------------------ job
    static StreamGraph build(Plan pl, Configuration jobConf) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(jobConf);
        env.setBufferTimeout(0);
        TypeInformation<Ev> t = TypeInformation.of(Ev.class);
        TypeInformation<String> ts = TypeInformation.of(String.class);
        DataStream<Ev> all = null;
        for (SourceCfg c : pl.sources) {
            WatermarkStrategy<Ev> ws = WatermarkStrategy.<Ev>forGenerator(new GenSupplier(c.wm, c.bound, c.idlenessMs))
                    .withTimestampAssigner(new TsAssigner());
            if (c.aligned()) ws = ws.withWatermarkAlignment(c.group, Duration.ofMillis(c.drift), Duration.ofMillis(c.updateMs));
            DataStream<Ev> s = env.fromSource(new PlanSource(c), ws, "oracle3-src-" + c.index, t).setParallelism(c.parallelism)
                    .transform("src-probe-" + c.index, t, new SrcProbe(c.index, c.base)).setParallelism(c.parallelism);
            all = all == null ? s : all.union(s);
        }
        DataStream<Ev> probed = all.keyBy(new KeyOf()).transform("keyed-probe", t, new KeyedProbe()).setParallelism(1);
        KeyedStream<Ev, String> keyed = DataStreamUtils.reinterpretAsKeyedStream(probed, new KeyOf(), ts);
        WindowAssigner<Object, TimeWindow> assigner;
        switch (pl.window) {
            case "tumbling": assigner = TumblingEventTimeWindows.of(Duration.ofMillis(pl.size), Duration.ofMillis(pl.offset)); break;
            case "sliding": assigner = SlidingEventTimeWindows.of(Duration.ofMillis(pl.size), Duration.ofMillis(pl.slide), Duration.ofMillis(pl.offset)); break;
            default: assigner = EventTimeSessionWindows.withGap(Duration.ofMillis(pl.gap));
        }
        final OutputTag<Ev> lateTag = new OutputTag<>("late", t);
        SingleOutputStreamOperator<String> res = keyed.window(assigner).allowedLateness(Duration.ofMillis(pl.latenessMs))
                .sideOutputLateData(lateTag)
                .aggregate(new CountSum(), new Emit(), TypeInformation.of(Acc.class), TypeInformation.of(Acc.class), ts)
                .setParallelism(1);
        res.sinkTo(new DiscardingSink<>()).setParallelism(1);
        res.getSideOutput(lateTag).process(new LateProbe()).setParallelism(1).sinkTo(new DiscardingSink<>()).setParallelism(1);
        return env.getStreamGraph();
    }

    /** The configuration, printed into the output: what the cluster and the job ran with. */
    static Configuration[] configs(Plan pl) {
        Configuration cluster = new Configuration();
        // Read by SourceOperatorFactory from the TaskManager configuration, not the job's.
        cluster.set(PipelineOptions.WATERMARK_ALIGNMENT_BUFFER_SIZE, pl.bufferSize);
        cluster.set(PipelineOptions.ALLOW_UNALIGNED_SOURCE_SPLITS, pl.allowUnaligned);
        cluster.setString("metrics.reporter.oracle3.factory.class", ReporterFactory.class.getName());
        cluster.set(TaskManagerOptions.NUM_TASK_SLOTS, 4);
        Configuration job = new Configuration();
        job.set(PipelineOptions.AUTO_WATERMARK_INTERVAL, Duration.ofMillis(pl.intervalMs));
        job.set(PipelineOptions.WATERMARK_ALIGNMENT_BUFFER_SIZE, pl.bufferSize);
        job.set(PipelineOptions.ALLOW_UNALIGNED_SOURCE_SPLITS, pl.allowUnaligned);
        if (pl.checkpointing) {
            // Checkpoints are triggered at their scheduled steps only (MiniCluster.triggerCheckpoint
            // works without periodic checkpointing). A periodic interval is not set: even with an
            // interval of one day, 2.3.0 triggered checkpoint 1 as soon as all tasks were running,
            // at a random point of the schedule.
            job.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            job.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, pl.restartAttempts);
            job.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(pl.restartDelayMs));
        } else {
            job.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        }
        return new Configuration[] {cluster, job};
    }

    static void settle(Plan pl) throws InterruptedException { if (pl.settleMs > 0) Thread.sleep(pl.settleMs); }

    static boolean anyAligned(Plan pl) { for (SourceCfg c : pl.sources) if (c.aligned()) return true; return false; }

    /** Snapshots of every aligned subtask still running; returns role -> blocked. */
    static boolean[] snapshot(Plan pl, boolean[] skip) throws InterruptedException {
        boolean[] blocked = new boolean[pl.total];
        if (!anyAligned(pl)) return blocked;
        final List<Integer> want = new ArrayList<>();
        synchronized (Seq.LOCK) {
            Seq.snaps.clear();
            for (SourceCfg c : pl.sources)
                for (int s = 0; s < c.parallelism; s++)
                    if (c.aligned() && (skip == null || !skip[c.base + s])) want.add(c.base + s);
            for (int r : want) Seq.readers[r].requestSnapshot(Seq.k);
        }
        Seq.await(() -> Seq.snaps.keySet().containsAll(want), 30_000, "alignment snapshots");
        synchronized (Seq.LOCK) { for (int r : want) blocked[r] = Seq.snaps.get(r).contains("\"mode\":\"WAITING_FOR_ALIGNMENT\""); }
        return blocked;
    }

    static void runJob(Plan pl) throws Exception {
        Configuration[] cf = configs(pl);
        pl.run = ++BUILD_RUN;
        Seq.reset(pl);
        StreamGraph graph = build(pl, cf[1]);
        MiniCluster mc = new MiniCluster(new MiniClusterConfiguration.Builder().setConfiguration(cf[0])
                .setNumTaskManagers(1).setNumSlotsPerTaskManager(4).build());
        mc.start();
        JobID id = null;
        try {
            id = new JobID();
            mc.submitJob(graph.getJobGraph(FlinkOracle3.class.getClassLoader(), id)).get(60, TimeUnit.SECONDS);
            drive(pl, mc, id);
        } finally {
            if (id != null) {
                try { mc.cancelJob(id).get(30, TimeUnit.SECONDS); } catch (Exception ignored) {}
            }
            mc.closeAsync().get(60, TimeUnit.SECONDS);
        }
    }

    static void drive(Plan pl, MiniCluster mc, JobID id) throws Exception {
        Seq.await(() -> Seq.ready == pl.total && allReaders(), 120_000, "job start");
        boolean aligned = anyAligned(pl);
        for (int k = 0; k < pl.steps.size(); k++) {
            synchronized (Seq.LOCK) { Seq.k = k; }
            Step s = pl.steps.get(k);
            boolean changed = false;
            switch (s.kind) {
                case "sleep": Thread.sleep(s.ms); break;
                case "checkpoint": {
                    long cid = mc.triggerCheckpoint(id, CheckpointType.FULL).get(60, TimeUnit.SECONDS);
                    trace(pl.run, Seq.attempt, DRIVER, "{\"ev\":\"checkpoint\",\"id\":" + cid + "}");
                    Seq.await(() -> { for (Reader r : Seq.readers) if (r == null || !Long.valueOf(cid).equals(Seq.notified.get(r.role))) return false; return true; },
                            60_000, "checkpoint " + cid + " completion");
                    break;
                }
                case "fail": {
                    int att = Seq.attempt;
                    Seq.give(0, s);
                    Seq.await(() -> Seq.attempt > att && Seq.ready == pl.total && allReaders(), 120_000 + pl.restartDelayMs, "restart");
                    changed = true;
                    break;
                }
                default: {
                    SourceCfg c = pl.sources.get(s.src);
                    int owner = c.owner(s.split);
                    boolean[] blocked = aligned ? snapshot(pl, null) : new boolean[pl.total];
                    if (s.kind.equals("read") && blocked[owner]) {
                        trace(pl.run, Seq.attempt, DRIVER, "{\"ev\":\"read\",\"src\":" + s.src + ",\"subtask\":" + (owner - c.base)
                                + ",\"split\":" + s.split + ",\"want\":" + s.n + ",\"got\":0,\"stop\":\"blocked\"}");
                        break;
                    }
                    Seq.give(owner, s);
                    Seq.await(() -> Seq.acked, 60_000, "step acknowledgement");
                    changed = !s.kind.equals("read") || Seq.got > 0;
                }
            }
            if (changed) settle(pl);
        }
        int k = pl.steps.size();
        synchronized (Seq.LOCK) { Seq.k = k; }
        if (aligned) snapshot(pl, null);   // the state after the last step
        if (!pl.flush) {   // the job is cancelled; nothing after the final snapshot counts
            synchronized (Seq.LOCK) { Seq.k = k + 1; Seq.cut = k + 1; }
            return;
        }
        // End of input, one subtask at a time (source-major), always one that alignment does not
        // block (the group's minimum never is): the valve's intermediate minima stay deterministic.
        boolean[] done = new boolean[pl.total];
        for (int n = 0; n < pl.total; n++) {
            k++;
            synchronized (Seq.LOCK) { Seq.k = k; }
            boolean[] blocked = aligned ? snapshot(pl, done) : new boolean[pl.total];
            int r = -1;
            for (int x = 0; x < pl.total && r < 0; x++) if (!done[x] && !blocked[x]) r = x;
            if (r < 0) throw new IllegalStateException("every remaining source subtask is blocked by alignment");
            Step e = new Step(); e.kind = "end";
            final int role = r;
            Seq.give(role, e);
            Seq.await(() -> Seq.ended[role], 60_000, "end of input of subtask role " + role);
            done[role] = true;
            settle(pl);
        }
        JobResult res = mc.requestJobResult(id).get(120, TimeUnit.SECONDS);
        if (!res.isSuccess()) throw new IllegalStateException("job failed: " + res.getSerializedThrowable().map(Throwable::toString).orElse("?"));
    }

    static boolean allReaders() { for (Reader r : Seq.readers) if (r == null) return false; return true; }

    public static void main(String[] args) throws Exception {
        String outFile = args[0];
        Files.write(Paths.get(outFile), new byte[0]);
        for (int a = 1; a < args.length; a++) {
            synchronized (Seq.LOCK) { TRACE.clear(); seqNo = 0; }
            long t0 = System.nanoTime();
            String err = null;
            try {
                runJob(readPlan(args[a]));
            } catch (Exception ex) {
                Throwable c = ex; while (c.getCause() != null) c = c.getCause();
                err = ex + " / root cause: " + c;
                ex.printStackTrace();
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            List<Entry> sorted;
            synchronized (Seq.LOCK) { sorted = new ArrayList<>(TRACE); Seq.run = -1; }
            // Deterministic order: by step, then role (source subtasks, keyed task, driver), each
            // role's entries in their real order. Not a causal order across tasks.
            sorted.sort(Comparator.<Entry>comparingInt(e -> e.step).thenComparingInt(e -> e.role).thenComparingLong(e -> e.seq));
            try (PrintWriter pw = new PrintWriter(Files.newBufferedWriter(Paths.get(outFile), StandardCharsets.UTF_8, StandardOpenOption.APPEND))) {
                pw.println("#begin " + args[a]);
                for (Entry e : sorted) pw.println("{\"step\":" + e.step + ",\"attempt\":" + e.attempt + "," + e.json.substring(1));
                if (err != null) pw.println("#error " + err.replace('\n', ' '));
                pw.println("#end " + ms);
            }
        }
        System.exit(0);
    }
}
