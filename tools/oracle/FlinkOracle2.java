// Java side of the project's Flink oracle for one- and two-input jobs (see README.md).
// Driven by flink_oracle2.py, which validates the scenario JSON and writes a tab-separated
// "plan" file per scenario.
//
// Usage: java -cp <flink lib/*>:<classes> FlinkOracle2 OUT_FILE PLAN_FILE [PLAN_FILE ...]
// For each plan it runs one job on a local MiniCluster and appends the ordered trace (one JSON
// object per line) to OUT_FILE, framed by "#begin <plan>" / "#end <elapsed_ms>".
//
// Topology, parallelism 1 everywhere:
//   input i:  PlanSource_i (FLIP-27, one split per partition, per-split watermarks)
//             -> SrcProbe(src, i) [-> mid-stream assigner -> SrcProbe(mid, i)]   (one chained task per input)
//   keyed:    window:        input0.keyBy -> KeyedProbe -> WindowOperator          (network keyBy, one task)
//             union:         input0.union(input1).keyBy -> KeyedProbe -> WindowOperator
//             connect:       input0.connect(input1).keyBy(k, k) -> ObservedCoProcess(KeyedCoProcessOperator) -> OutProbe
//             interval_join: input0.connect(input1).keyBy(k, k) -> ObservedIntervalJoin(IntervalJoinOperator) -> OutProbe
//   late side outputs -> LateProbe (chained).
//
// Determinism: the sources are separate tasks whose records race over network channels. A static
// sequencer (Seq; the MiniCluster runs in this JVM) lets step k of the schedule run only after
// step k-1 was acknowledged: the input that owns step k performs it (record, idle, active,
// release, sleep) and then emits a MARKER record through its reader's main output; then every
// other input emits a marker too. Markers are invisible to all watermark logic (generators are
// wrapped in SkipMarkers, the mid-stream operators pass them straight through, the keyed
// operator drops them) and are FIFO with the watermarks/statuses of their channel, so when the
// keyed operator has seen the markers of all inputs, every effect of step k has been processed.
// At the end (flush_at_end) the inputs end one after the other: the last operator of an ended
// input's chain emits an end marker in finish(), after the task's Long.MAX_VALUE watermark
// (two-input operators acknowledge with endInput instead). Every object carries the id of the run
// (job) it was built for, so leftovers of a cancelled job cannot act on the next one.

import org.apache.flink.api.common.eventtime.BoundedOutOfOrdernessWatermarks;
import org.apache.flink.api.common.eventtime.NoWatermarksGenerator;
import org.apache.flink.api.common.eventtime.SerializableTimestampAssigner;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkGeneratorSupplier;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.eventtime.WatermarksWithIdleness;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamUtils;
import org.apache.flink.streaming.api.datastream.KeyedStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.datastream.WindowedStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.streaming.api.functions.co.ProcessJoinFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.BoundedMultiInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;
import org.apache.flink.streaming.api.operators.co.IntervalJoinOperator;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.api.windowing.assigners.EventTimeSessionWindows;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.WindowAssigner;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.streaming.runtime.operators.TimestampsAndWatermarksOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.operators.wmassigners.WatermarkAssignerOperator;
import org.apache.flink.types.RowKind;
import org.apache.flink.types.variant.Variant;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

public class FlinkOracle2 {

    static final long MIN = Long.MIN_VALUE, MAX = Long.MAX_VALUE;
    /** Role of the keyed (downstream) task in the trace; inputs use their index 0, 1. */
    static final int OP = 100;

    // ------------------------------------------------------------------ trace
    static final class Entry {
        final int step, role; final long seq; final String json;
        Entry(int step, int role, long seq, String json) { this.step = step; this.role = role; this.seq = seq; this.json = json; }
    }
    static final List<Entry> TRACE = new ArrayList<>();
    static long seqNo = 0;

    /**
     * Jobs run one after the other in this JVM. Every object of a job carries the id of the run it
     * was built for (BUILD_RUN at construction on the client side, kept through serialization), and
     * the sequencer and the trace ignore objects of any other run: tasks of a cancelled job can
     * outlive it for a moment and must not act on the next job's schedule.
     */
    static volatile int BUILD_RUN = 0;

    /** role: input index (source-side task of that input) or OP (keyed task). */
    static void trace(int run, int role, String json) {
        synchronized (TRACE) {
            if (run != Seq.run) return;
            int k = Seq.k;
            if (k >= Seq.cut) return; // flush_at_end=false: nothing after the last step counts
            TRACE.add(new Entry(k, role, seqNo++, json));
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

    static String evJson(String kind, Ev e, long wm) {
        return "{\"ev\":\"" + kind + "\",\"in\":" + e.in + ",\"partition\":" + e.p + ",\"idx\":" + e.i + ",\"ts\":" + e.ts
                + ",\"key\":" + q(e.key) + ",\"value\":" + e.value + ",\"wm\":" + wm + "}";
    }

    static String st(WatermarkStatus s) { return s.isIdle() ? "idle" : "active"; }

    // ------------------------------------------------------------------ data types
    /**
     * One event. Implements RowData only so that the SQL WatermarkAssignerOperator (which casts its
     * input to RowData and checks isNullAt(rowtime index)) can process it unchanged.
     * marker >= 0: sequencer marker for step `marker` (not an event).
     */
    public static class Ev implements RowData {
        public int in;     // input
        public int p;      // partition
        public int i;      // index of the event within its partition
        public long ts;
        public String key = "";
        public long value;
        public int marker = -1;
        public Ev() {}

        public int getArity() { return 7; }
        public RowKind getRowKind() { return RowKind.INSERT; }
        public void setRowKind(RowKind k) {}
        public boolean isNullAt(int pos) { return false; }
        public boolean getBoolean(int pos) { throw new UnsupportedOperationException(); }
        public byte getByte(int pos) { throw new UnsupportedOperationException(); }
        public short getShort(int pos) { throw new UnsupportedOperationException(); }
        public int getInt(int pos) { throw new UnsupportedOperationException(); }
        public long getLong(int pos) { return ts; }
        public float getFloat(int pos) { throw new UnsupportedOperationException(); }
        public double getDouble(int pos) { throw new UnsupportedOperationException(); }
        public StringData getString(int pos) { throw new UnsupportedOperationException(); }
        public DecimalData getDecimal(int pos, int p, int s) { throw new UnsupportedOperationException(); }
        public TimestampData getTimestamp(int pos, int p) { return TimestampData.fromEpochMillis(ts); }
        public <T> RawValueData<T> getRawValue(int pos) { throw new UnsupportedOperationException(); }
        public byte[] getBinary(int pos) { throw new UnsupportedOperationException(); }
        public ArrayData getArray(int pos) { throw new UnsupportedOperationException(); }
        public MapData getMap(int pos) { throw new UnsupportedOperationException(); }
        public RowData getRow(int pos, int n) { throw new UnsupportedOperationException(); }
        public Variant getVariant(int pos) { throw new UnsupportedOperationException(); }
    }

    public static class Acc {
        public long count;
        public long sum;
        public Acc() {}
    }

    /** One step: 'e' event, 'i' idle, 'a' active, 'r' release, 's' sleep. owner = input that performs it. */
    static final class Step implements Serializable {
        char kind; int in; int p; int i; long ts; long value; String key; long ms;
    }

    static final class InputCfg implements Serializable {
        int in; int partitions; String wm = "per_event"; long bound; long idlenessMs = -1;
        String mid = "none"; long midBound; String midEmit = "per_event"; long midIdlenessMs = -1;
        long sqlDelay; long sqlIdleTimeout;
    }

    static final class Plan implements Serializable {
        String op; long intervalMs = 0; String window; long size, slide, offset, gap; long latenessMs = 0;
        boolean lateSideOutput = true; boolean flush = true;
        long lower, upper; boolean lowerExcl, upperExcl;
        List<InputCfg> inputs = new ArrayList<>(); List<Step> steps = new ArrayList<>();
        long totalSleep = 0;
        int run;
    }

    static Plan readPlan(String file) throws IOException {
        Plan pl = new Plan();
        for (String line : Files.readAllLines(Paths.get(file), StandardCharsets.UTF_8)) {
            if (line.isEmpty() || line.startsWith("#")) continue;
            String[] f = line.split("\t", -1);
            switch (f[0]) {
                case "cfg": {
                    String k = f[1], v = f[2];
                    switch (k) {
                        case "op": pl.op = v; break;
                        case "interval_ms": pl.intervalMs = Long.parseLong(v); break;
                        case "window":
                            pl.window = v;
                            if (v.equals("tumbling")) { pl.size = Long.parseLong(f[3]); pl.offset = Long.parseLong(f[4]); }
                            else if (v.equals("sliding")) { pl.size = Long.parseLong(f[3]); pl.slide = Long.parseLong(f[4]); pl.offset = Long.parseLong(f[5]); }
                            else if (v.equals("session")) { pl.gap = Long.parseLong(f[3]); }
                            else throw new IllegalArgumentException("window " + v);
                            break;
                        case "lateness_ms": pl.latenessMs = Long.parseLong(v); break;
                        case "late_side_output": pl.lateSideOutput = v.equals("1"); break;
                        case "flush_at_end": pl.flush = v.equals("1"); break;
                        case "join":
                            pl.lower = Long.parseLong(f[2]); pl.upper = Long.parseLong(f[3]);
                            pl.lowerExcl = f[4].equals("1"); pl.upperExcl = f[5].equals("1");
                            break;
                        default: throw new IllegalArgumentException("cfg " + k);
                    }
                    break;
                }
                case "input": {
                    // input IN PARTITIONS WM BOUND IDLENESS MID MIDBOUND MIDEMIT MIDIDLENESS SQLDELAY SQLIDLE
                    InputCfg c = new InputCfg();
                    c.in = Integer.parseInt(f[1]); c.partitions = Integer.parseInt(f[2]); c.wm = f[3];
                    c.bound = Long.parseLong(f[4]); c.idlenessMs = Long.parseLong(f[5]); c.mid = f[6];
                    c.midBound = Long.parseLong(f[7]); c.midEmit = f[8]; c.midIdlenessMs = Long.parseLong(f[9]);
                    c.sqlDelay = Long.parseLong(f[10]); c.sqlIdleTimeout = Long.parseLong(f[11]);
                    pl.inputs.add(c);
                    break;
                }
                case "ev": {
                    Step s = new Step(); s.kind = 'e'; s.in = Integer.parseInt(f[1]); s.p = Integer.parseInt(f[2]);
                    s.i = Integer.parseInt(f[3]); s.ts = Long.parseLong(f[4]); s.value = Long.parseLong(f[5]); s.key = f[6];
                    pl.steps.add(s);
                    break;
                }
                case "idle": case "active": case "release": {
                    Step s = new Step(); s.kind = f[0].charAt(0); s.in = Integer.parseInt(f[1]); s.p = Integer.parseInt(f[2]);
                    pl.steps.add(s);
                    break;
                }
                case "sleep": {
                    Step s = new Step(); s.kind = 's'; s.in = 0; s.ms = Long.parseLong(f[1]);
                    pl.totalSleep += s.ms;
                    pl.steps.add(s);
                    break;
                }
                default: throw new IllegalArgumentException("plan line " + line);
            }
        }
        return pl;
    }

    // ------------------------------------------------------------------ sequencer
    /**
     * Global step order across the source tasks. Step k (k < steps.size()) is performed by its
     * owner input, which then emits marker k; then every other input emits marker k; when the keyed
     * operator has received all markers of step k, step k+1 may start. With flush_at_end, steps
     * steps.size()+j end input j (END_OF_INPUT), acknowledged by the keyed operator's endInput(j)
     * (two-input operators) or by the end marker that the last operator of input j's chain emits
     * in finish(), after the Long.MAX_VALUE watermark (one logical input: union, window).
     */
    static final class Seq {
        static final Object LOCK = new Object();
        static List<Step> steps = new ArrayList<>();
        static int nIn;
        static boolean flush;
        static boolean endAckByOperator;
        static volatile int run = -1;          // the run whose objects may act
        static volatile int k;                 // current step
        static volatile int cut = Integer.MAX_VALUE; // trace entries from this step on are dropped
        static boolean acted;
        static boolean[] marked;
        static int acks;
        static long sleepUntil = -1;
        static final List<CompletableFuture<Void>> waiters = new ArrayList<>();
        static volatile boolean scheduleDone;
        static volatile String error;

        static void reset(Plan pl) {
            synchronized (LOCK) {
                run = pl.run;
                steps = pl.steps; nIn = pl.inputs.size(); flush = pl.flush;
                endAckByOperator = pl.op.equals("connect") || pl.op.equals("interval_join");
                k = 0; cut = pl.flush ? Integer.MAX_VALUE : pl.steps.size();
                acted = false; marked = new boolean[nIn]; acks = 0; sleepUntil = -1;
                waiters.clear(); scheduleDone = pl.steps.isEmpty(); error = null;
            }
        }

        /** Caller holds LOCK. */
        static CompletableFuture<Void> waitFuture() {
            CompletableFuture<Void> f = new CompletableFuture<>();
            waiters.add(f);
            return f;
        }

        /** Caller holds LOCK. */
        static void advance() {
            k++;
            acted = false; Arrays.fill(marked, false); acks = 0; sleepUntil = -1;
            if (k >= steps.size()) { scheduleDone = true; LOCK.notifyAll(); }
            List<CompletableFuture<Void>> w = new ArrayList<>(waiters);
            waiters.clear();
            for (CompletableFuture<Void> f : w) f.complete(null);
        }

        /** A marker reached the keyed operator (its task thread). */
        static void ack(int r, Ev m) {
            synchronized (LOCK) {
                if (r != run) return;
                if (k >= steps.size()) { // end of input: one marker, from the input that ended
                    if (!endAckByOperator && m.marker == k && m.in == k - steps.size()) advance();
                    return;
                }
                if (m.marker != k) { error = "marker " + m.marker + " from input " + m.in + " during step " + k; return; }
                if (++acks == nIn) advance();
            }
        }

        /** End of input `in` was observed by the keyed operator (or the quiescence delay passed). */
        static void endAck(int r, int in) {
            synchronized (LOCK) {
                if (r != run) return;
                if (k == steps.size() + in) advance();
            }
        }

        static void markActed(int r, int step) {
            synchronized (LOCK) {
                if (r != run || step != k) return;
                acted = true;
                List<CompletableFuture<Void>> w = new ArrayList<>(waiters);
                waiters.clear();
                for (CompletableFuture<Void> f : w) f.complete(null);
            }
        }
    }

    // ------------------------------------------------------------------ source
    public static class PSplit implements SourceSplit, Serializable {
        final int p;
        PSplit(int p) { this.p = p; }
        @Override public String splitId() { return splitId(p); }
        static String splitId(int p) { return "partition-" + p; }
    }

    static class PSplitSer implements SimpleVersionedSerializer<PSplit> {
        public int getVersion() { return 1; }
        public byte[] serialize(PSplit s) { return ByteBuffer.allocate(4).putInt(s.p).array(); }
        public PSplit deserialize(int v, byte[] b) { return new PSplit(ByteBuffer.wrap(b).getInt()); }
    }

    static class VoidSer implements SimpleVersionedSerializer<Void> {
        public int getVersion() { return 1; }
        public byte[] serialize(Void v) { return new byte[0]; }
        public Void deserialize(int v, byte[] b) { return null; }
    }

    /** Like a Kafka enumerator after partition discovery: every partition is a split, all go to subtask 0. */
    static class Enum implements SplitEnumerator<PSplit, Void> {
        final SplitEnumeratorContext<PSplit> ctx; final int n; boolean assigned;
        Enum(SplitEnumeratorContext<PSplit> ctx, int n) { this.ctx = ctx; this.n = n; }
        public void start() {}
        public void handleSplitRequest(int subtask, String host) {}
        public void addSplitsBack(List<PSplit> splits, int subtask) {}
        public void addReader(int subtask) {
            if (assigned) return;
            List<PSplit> l = new ArrayList<>();
            for (int p = 0; p < n; p++) l.add(new PSplit(p));
            ctx.assignSplits(new SplitsAssignment<>(Collections.singletonMap(subtask, l)));
            ctx.signalNoMoreSplits(subtask);
            assigned = true;
        }
        public Void snapshotState(long id) { return null; }
        public void close() {}
    }

    static class PlanSource implements Source<Ev, PSplit, Void> {
        final int run = BUILD_RUN; final int in; final int partitions;
        PlanSource(int in, int partitions) { this.in = in; this.partitions = partitions; }
        public Boundedness getBoundedness() { return Boundedness.BOUNDED; }
        public SplitEnumerator<PSplit, Void> createEnumerator(SplitEnumeratorContext<PSplit> c) { return new Enum(c, partitions); }
        public SplitEnumerator<PSplit, Void> restoreEnumerator(SplitEnumeratorContext<PSplit> c, Void v) { return new Enum(c, partitions); }
        public SimpleVersionedSerializer<PSplit> getSplitSerializer() { return new PSplitSer(); }
        public SimpleVersionedSerializer<Void> getEnumeratorCheckpointSerializer() { return new VoidSer(); }
        public SourceReader<Ev, PSplit> createReader(SourceReaderContext c) { return new Reader(run, in, partitions); }
    }

    /** Performs the steps owned by its input, in the sequencer's order. */
    static class Reader implements SourceReader<Ev, PSplit> {
        final int run, in, partitions; final Set<Integer> splits = new HashSet<>();
        CompletableFuture<Void> avail = new CompletableFuture<>();
        Reader(int run, int in, int partitions) { this.run = run; this.in = in; this.partitions = partitions; }
        public void start() {}
        public void addSplits(List<PSplit> l) {
            for (PSplit s : l) splits.add(s.p);
            if (splits.size() == partitions) avail.complete(null);
        }

        private void emitMarker(ReaderOutput<Ev> out, int k) {
            Ev m = new Ev(); m.in = in; m.marker = k; m.ts = 0;
            out.collect(m, 0);
        }

        public InputStatus pollNext(ReaderOutput<Ev> out) {
            if (splits.size() < partitions) return InputStatus.NOTHING_AVAILABLE;
            Step act = null; boolean mark = false, owner = false, end = false; long sleep = -1; int k;
            synchronized (Seq.LOCK) {
                if (run != Seq.run) { avail = new CompletableFuture<>(); return InputStatus.NOTHING_AVAILABLE; }
                k = Seq.k;
                if (k < Seq.steps.size()) {
                    Step s = Seq.steps.get(k);
                    if (!Seq.acted && s.in == in) {
                        if (s.kind == 's') {
                            long now = System.currentTimeMillis();
                            if (Seq.sleepUntil < 0) Seq.sleepUntil = now + s.ms;
                            if (now < Seq.sleepUntil) sleep = Seq.sleepUntil - now;
                            else { mark = true; owner = true; }
                        } else { act = s; mark = true; owner = true; }
                    } else if (Seq.acted && !Seq.marked[in]) {
                        mark = true;
                    }
                    if (mark) Seq.marked[in] = true;
                } else if (Seq.flush && k - Seq.steps.size() == in) {
                    end = true;
                }
                if (!mark && !end && sleep < 0) {
                    avail = Seq.waitFuture();
                    return InputStatus.NOTHING_AVAILABLE;
                }
            }
            if (sleep >= 0) {
                avail = new CompletableFuture<>();
                final CompletableFuture<Void> f = avail;
                CompletableFuture.delayedExecutor(sleep, TimeUnit.MILLISECONDS).execute(() -> f.complete(null));
                return InputStatus.NOTHING_AVAILABLE;
            }
            if (end) {
                trace(run, in, "{\"ev\":\"end_of_input\",\"in\":" + in + "}");
                return InputStatus.END_OF_INPUT;
            }
            if (act != null) perform(act, out);
            // Before the marker: once the marker is out, the keyed operator may acknowledge the
            // step (at once with a single input) and the sequencer moves on.
            if (owner) Seq.markActed(run, k);
            emitMarker(out, k);
            synchronized (Seq.LOCK) {
                if (Seq.k == k) { avail = Seq.waitFuture(); return InputStatus.NOTHING_AVAILABLE; }
            }
            return InputStatus.MORE_AVAILABLE;
        }

        private void perform(Step a, ReaderOutput<Ev> out) {
            String sid = PSplit.splitId(a.p);
            switch (a.kind) {
                case 'e':
                    Ev e = new Ev(); e.in = a.in; e.p = a.p; e.i = a.i; e.ts = a.ts; e.key = a.key; e.value = a.value;
                    out.createOutputForSplit(sid).collect(e, a.ts);
                    break;
                case 'i': trace(run, in, "{\"ev\":\"partition_idle\",\"in\":" + in + ",\"partition\":" + a.p + "}"); out.createOutputForSplit(sid).markIdle(); break;
                case 'a': trace(run, in, "{\"ev\":\"partition_active\",\"in\":" + in + ",\"partition\":" + a.p + "}"); out.createOutputForSplit(sid).markActive(); break;
                case 'r': trace(run, in, "{\"ev\":\"partition_released\",\"in\":" + in + ",\"partition\":" + a.p + "}"); out.releaseOutputForSplit(sid); break;
                default: throw new IllegalStateException("step " + a.kind);
            }
        }

        public CompletableFuture<Void> isAvailable() { return avail; }
        public List<PSplit> snapshotState(long id) { return new ArrayList<>(); }
        public void notifyNoMoreSplits() {}
        public void close() {}
    }

    // ------------------------------------------------------------------ watermark generators
    /**
     * BoundedOutOfOrdernessWatermarks (max_ts - bound - 1), but emitted on every event instead of
     * on the periodic timer (as in the shared oracle), so the result does not depend on wall-clock
     * timing. traceIn >= 0: trace partition watermark advances (source side).
     */
    static class PerEventBounded implements WatermarkGenerator<Ev>, Serializable {
        final int run; final long bound; final int traceIn; long maxTs;
        PerEventBounded(int run, long bound, int traceIn) { this.run = run; this.bound = bound; this.traceIn = traceIn; this.maxTs = MIN + bound + 1; }
        public void onEvent(Ev e, long ts, WatermarkOutput out) {
            if (ts > maxTs) {
                maxTs = ts;
                if (traceIn >= 0)
                    trace(run, traceIn, "{\"ev\":\"partition_wm\",\"in\":" + e.in + ",\"partition\":" + e.p + ",\"wm\":" + (maxTs - bound - 1) + "}");
            }
            out.emitWatermark(new Watermark(maxTs - bound - 1)); // also re-activates an idle split
        }
        public void onPeriodicEmit(WatermarkOutput out) {}
    }

    /** Outermost generator layer: markers never reach the real generator (nor its idleness timer). */
    static class SkipMarkers implements WatermarkGenerator<Ev> {
        final WatermarkGenerator<Ev> inner;
        SkipMarkers(WatermarkGenerator<Ev> inner) { this.inner = inner; }
        public void onEvent(Ev e, long ts, WatermarkOutput out) { if (e.marker < 0) inner.onEvent(e, ts, out); }
        public void onPeriodicEmit(WatermarkOutput out) { inner.onPeriodicEmit(out); }
    }

    /** kind: none | per_event | periodic; idlenessMs >= 0 wraps it like WatermarkStrategy.withIdleness. */
    static class GenSupplier implements WatermarkGeneratorSupplier<Ev> {
        final int run = BUILD_RUN; final String kind; final long bound; final long idlenessMs; final int traceIn;
        GenSupplier(String kind, long bound, long idlenessMs, int traceIn) {
            this.kind = kind; this.bound = bound; this.idlenessMs = idlenessMs; this.traceIn = traceIn;
        }
        public WatermarkGenerator<Ev> createWatermarkGenerator(WatermarkGeneratorSupplier.Context ctx) {
            WatermarkGenerator<Ev> g;
            switch (kind) {
                case "none": g = new NoWatermarksGenerator<>(); break;
                case "periodic": g = new BoundedOutOfOrdernessWatermarks<>(Duration.ofMillis(bound)); break;
                default: g = new PerEventBounded(run, bound, traceIn);
            }
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

    // ------------------------------------------------------------------ mid-stream assigners
    /** DataStream.assignTimestampsAndWatermarks: Flink's operator; markers bypass it. */
    static class ObservedTAW extends TimestampsAndWatermarksOperator<Ev> {
        ObservedTAW(StreamOperatorParameters<Ev> p, WatermarkStrategy<Ev> s) { super(p, s, true); }
        @Override public void processElement(StreamRecord<Ev> r) throws Exception {
            if (r.getValue().marker >= 0) output.collect(r); else super.processElement(r);
        }
    }

    static class TAWFactory extends AbstractStreamOperatorFactory<Ev> implements OneInputStreamOperatorFactory<Ev, Ev> {
        final WatermarkStrategy<Ev> strategy;
        TAWFactory(WatermarkStrategy<Ev> strategy) { this.strategy = strategy; }
        @SuppressWarnings("unchecked")
        public <T extends StreamOperator<Ev>> T createStreamOperator(StreamOperatorParameters<Ev> p) { return (T) new ObservedTAW(p, strategy); }
        public Class<? extends StreamOperator> getStreamOperatorClass(ClassLoader cl) { return ObservedTAW.class; }
    }

    /** The code-generated generator of `WATERMARK FOR ts AS ts - INTERVAL 'delay' MILLISECOND`. */
    static class SqlWatermarkExpr extends org.apache.flink.table.runtime.generated.WatermarkGenerator {
        final long delay;
        SqlWatermarkExpr(long delay) { this.delay = delay; }
        public long extractTimestamp(RowData row) { return ((Ev) row).ts; }
        public Long currentWatermark(RowData row) { return ((Ev) row).ts - delay; }
    }

    /** flink-table-runtime's WatermarkAssignerOperator (rowtime field 0); markers bypass it. */
    static class ObservedSqlAssigner extends WatermarkAssignerOperator {
        ObservedSqlAssigner(StreamOperatorParameters<RowData> p, long delay, long idleTimeout) {
            super(p, 0, new SqlWatermarkExpr(delay), idleTimeout, p.getProcessingTimeService());
        }
        @Override public void processElement(StreamRecord<RowData> r) throws Exception {
            if (((Ev) r.getValue()).marker >= 0) output.collect(r); else super.processElement(r);
        }
    }

    static class SqlFactory extends AbstractStreamOperatorFactory<Ev> implements OneInputStreamOperatorFactory<Ev, Ev> {
        final long delay, idleTimeout;
        SqlFactory(long delay, long idleTimeout) { this.delay = delay; this.idleTimeout = idleTimeout; }
        @SuppressWarnings({"unchecked", "rawtypes"})
        public <T extends StreamOperator<Ev>> T createStreamOperator(StreamOperatorParameters<Ev> p) {
            return (T) (StreamOperator) new ObservedSqlAssigner((StreamOperatorParameters) p, delay, idleTimeout);
        }
        public Class<? extends StreamOperator> getStreamOperatorClass(ClassLoader cl) { return ObservedSqlAssigner.class; }
    }

    // ------------------------------------------------------------------ probes
    /** Chained in an input's task: what the source (kind "src") or the mid-stream operator ("mid") emitted. */
    static class SrcProbe extends AbstractStreamOperator<Ev> implements OneInputStreamOperator<Ev, Ev> {
        final int run = BUILD_RUN;
        final int in; final String kind; final boolean last;
        /** last: the last operator of the input's chain; emits the end marker. */
        SrcProbe(int in, String kind, boolean last) { this.in = in; this.kind = kind; this.last = last; }
        /** End of input: called after the task emitted Long.MAX_VALUE and the operators before finished. */
        @Override public void finish() throws Exception {
            super.finish();
            if (last) {
                Ev m = new Ev(); m.in = in; m.marker = Seq.steps.size() + in;
                output.collect(new StreamRecord<>(m, 0));
            }
        }
        @Override public void processElement(StreamRecord<Ev> r) { output.collect(r); }
        @Override public void processWatermark(org.apache.flink.streaming.api.watermark.Watermark mark) throws Exception {
            trace(run, in, "{\"ev\":\"" + kind + "_watermark\",\"in\":" + in + ",\"wm\":" + mark.getTimestamp() + "}");
            super.processWatermark(mark);
        }
        @Override public void processWatermarkStatus(WatermarkStatus s) throws Exception {
            trace(run, in, "{\"ev\":\"" + kind + "_status\",\"in\":" + in + ",\"status\":\"" + st(s) + "\"}");
            super.processWatermarkStatus(s);
        }
    }

    /** In front of the window operator (same task): sees exactly its input sequence; drops markers. */
    static class KeyedProbe extends AbstractStreamOperator<Ev> implements OneInputStreamOperator<Ev, Ev> {
        final int run = BUILD_RUN;
        long wm = MIN;
        @Override public void processElement(StreamRecord<Ev> r) {
            Ev e = r.getValue();
            if (e.marker >= 0) { Seq.ack(run, e); return; }
            trace(run, OP, evJson("record", e, wm));
            output.collect(r);
        }
        @Override public void processWatermark(org.apache.flink.streaming.api.watermark.Watermark mark) throws Exception {
            wm = mark.getTimestamp();
            trace(run, OP, "{\"ev\":\"watermark\",\"wm\":" + wm + "}");
            super.processWatermark(mark);
        }
        @Override public void processWatermarkStatus(WatermarkStatus s) throws Exception {
            trace(run, OP, "{\"ev\":\"status\",\"status\":\"" + st(s) + "\"}");
            super.processWatermarkStatus(s);
        }
    }

    /** After a two-input operator (same task): the statuses it forwarded. */
    static class OutProbe extends AbstractStreamOperator<String> implements OneInputStreamOperator<String, String> {
        final int run = BUILD_RUN;
        @Override public void processElement(StreamRecord<String> r) { output.collect(r); }
        @Override public void processWatermarkStatus(WatermarkStatus s) throws Exception {
            trace(run, OP, "{\"ev\":\"out_status\",\"status\":\"" + st(s) + "\"}");
            super.processWatermarkStatus(s);
        }
    }

    static class LateProbe extends ProcessFunction<Ev, String> {
        final int run = BUILD_RUN;
        public void processElement(Ev e, Context ctx, Collector<String> out) {
            String j = evJson("late", e, ctx.timerService().currentWatermark());
            trace(run, OP, j);
            out.collect(j);
        }
    }

    // ------------------------------------------------------------------ window (one logical input)
    static class CountSum implements AggregateFunction<Ev, Acc, Acc> {
        public Acc createAccumulator() { return new Acc(); }
        public Acc add(Ev e, Acc a) { a.count++; a.sum += e.value; return a; }
        public Acc getResult(Acc a) { return a; }
        public Acc merge(Acc a, Acc b) { Acc r = new Acc(); r.count = a.count + b.count; r.sum = a.sum + b.sum; return r; }
    }

    static String windowJson(String key, long start, long end, long count, long sum, long wm) {
        return "{\"ev\":\"window\",\"key\":" + q(key) + ",\"window_start\":" + start + ",\"window_end\":" + end
                + ",\"count\":" + count + ",\"sum\":" + sum + ",\"wm\":" + wm + "}";
    }

    static class Emit extends ProcessWindowFunction<Acc, String, String, TimeWindow> {
        final int run = BUILD_RUN;
        public void process(String key, Context ctx, Iterable<Acc> in, Collector<String> out) {
            Acc a = in.iterator().next();
            String j = windowJson(key, ctx.window().getStart(), ctx.window().getEnd(), a.count, a.sum, ctx.currentWatermark());
            trace(run, OP, j);
            out.collect(j);
        }
    }

    // ------------------------------------------------------------------ two-input operators
    /** Traces what a two-input operator receives: per-input valve outputs, statuses, combined watermark. */
    static final class TwoInputTrace implements Serializable {
        final int run = BUILD_RUN;
        long wm = MIN;
        void record(Ev e) { trace(run, OP, evJson("record", e, wm)); }
        void inputWatermark(int in, long w) { trace(run, OP, "{\"ev\":\"input_watermark\",\"in\":" + in + ",\"wm\":" + w + "}"); }
        void combined(long w) { wm = w; trace(run, OP, "{\"ev\":\"watermark\",\"wm\":" + w + "}"); }
        void status(int in, WatermarkStatus s) { trace(run, OP, "{\"ev\":\"status\",\"in\":" + in + ",\"status\":\"" + st(s) + "\"}"); }
        void endInput(int in) { trace(run, OP, "{\"ev\":\"end_input\",\"in\":" + in + "}"); Seq.endAck(run, in); }
    }

    /** Flink's KeyedCoProcessOperator, observed. */
    static class ObservedCoProcess extends KeyedCoProcessOperator<String, Ev, Ev, String> implements BoundedMultiInput {
        final int run = BUILD_RUN;
        final TwoInputTrace t = new TwoInputTrace();
        ObservedCoProcess(KeyedCoProcessFunction<String, Ev, Ev, String> f) { super(f); }
        @Override public void processElement1(StreamRecord<Ev> r) throws Exception {
            if (r.getValue().marker >= 0) { Seq.ack(run, r.getValue()); return; }
            t.record(r.getValue()); super.processElement1(r);
        }
        @Override public void processElement2(StreamRecord<Ev> r) throws Exception {
            if (r.getValue().marker >= 0) { Seq.ack(run, r.getValue()); return; }
            t.record(r.getValue()); super.processElement2(r);
        }
        @Override public void processWatermark1(org.apache.flink.streaming.api.watermark.Watermark m) throws Exception {
            t.inputWatermark(0, m.getTimestamp()); super.processWatermark1(m);
        }
        @Override public void processWatermark2(org.apache.flink.streaming.api.watermark.Watermark m) throws Exception {
            t.inputWatermark(1, m.getTimestamp()); super.processWatermark2(m);
        }
        @Override public void processWatermark(org.apache.flink.streaming.api.watermark.Watermark m) throws Exception {
            t.combined(m.getTimestamp()); super.processWatermark(m);
        }
        @Override protected void processWatermarkStatus(WatermarkStatus s, int index) throws Exception {
            t.status(index, s); super.processWatermarkStatus(s, index);
        }
        @Override public void endInput(int inputId) { t.endInput(inputId - 1); }
    }

    /**
     * The connect job's function: per key and tumbling window a count/sum with an event-time timer
     * at end-1 (= WindowOperator + EventTimeTrigger + lateness 0 on the two-input watermark).
     */
    static class CountPerWindow extends KeyedCoProcessFunction<String, Ev, Ev, String> {
        final int run = BUILD_RUN;
        final long size, offset;
        transient MapState<Long, Acc> state;
        CountPerWindow(long size, long offset) { this.size = size; this.offset = offset; }
        @Override public void open(OpenContext c) {
            state = getRuntimeContext().getMapState(new MapStateDescriptor<>("windows", Long.class, Acc.class));
        }
        private void handle(Ev e, Context ctx) throws Exception {
            long start = TimeWindow.getWindowStartWithOffset(e.ts, offset, size), end = start + size;
            long wm = ctx.timerService().currentWatermark();
            if (end - 1 <= wm) { trace(run, OP, evJson("late", e, wm)); return; }
            Acc a = state.get(end);
            if (a == null) a = new Acc();
            a.count++; a.sum += e.value;
            state.put(end, a);
            ctx.timerService().registerEventTimeTimer(end - 1);
        }
        @Override public void processElement1(Ev e, Context ctx, Collector<String> out) throws Exception { handle(e, ctx); }
        @Override public void processElement2(Ev e, Context ctx, Collector<String> out) throws Exception { handle(e, ctx); }
        @Override public void onTimer(long t, OnTimerContext ctx, Collector<String> out) throws Exception {
            long end = t + 1;
            Acc a = state.get(end);
            if (a == null) return;
            String j = windowJson(ctx.getCurrentKey(), end - size, end, a.count, a.sum, ctx.timerService().currentWatermark());
            trace(run, OP, j);
            state.remove(end);
            out.collect(j);
        }
    }

    /** Flink's IntervalJoinOperator, observed; late elements without a side output are reported as dropped. */
    static class ObservedIntervalJoin extends IntervalJoinOperator<String, Ev, Ev, String> implements BoundedMultiInput {
        final int run = BUILD_RUN;
        final TwoInputTrace t = new TwoInputTrace();
        final boolean sideOutput;
        ObservedIntervalJoin(long lb, long ub, boolean lbIncl, boolean ubIncl, OutputTag<Ev> l, OutputTag<Ev> r,
                             TypeSerializer<Ev> ser, ProcessJoinFunction<Ev, Ev, String> f) {
            super(lb, ub, lbIncl, ubIncl, l, r, ser, ser.duplicate(), f);
            sideOutput = l != null;
        }
        @Override public void processElement1(StreamRecord<Ev> r) throws Exception {
            if (r.getValue().marker >= 0) { Seq.ack(run, r.getValue()); return; }
            t.record(r.getValue()); super.processElement1(r);
        }
        @Override public void processElement2(StreamRecord<Ev> r) throws Exception {
            if (r.getValue().marker >= 0) { Seq.ack(run, r.getValue()); return; }
            t.record(r.getValue()); super.processElement2(r);
        }
        @Override protected <T> void sideOutput(T value, long timestamp, boolean isLeft) {
            if (!sideOutput) trace(run, OP, evJson("dropped", (Ev) value, t.wm));
            super.sideOutput(value, timestamp, isLeft);
        }
        @Override public void processWatermark1(org.apache.flink.streaming.api.watermark.Watermark m) throws Exception {
            t.inputWatermark(0, m.getTimestamp()); super.processWatermark1(m);
        }
        @Override public void processWatermark2(org.apache.flink.streaming.api.watermark.Watermark m) throws Exception {
            t.inputWatermark(1, m.getTimestamp()); super.processWatermark2(m);
        }
        @Override public void processWatermark(org.apache.flink.streaming.api.watermark.Watermark m) throws Exception {
            t.combined(m.getTimestamp()); super.processWatermark(m);
        }
        @Override protected void processWatermarkStatus(WatermarkStatus s, int index) throws Exception {
            t.status(index, s); super.processWatermarkStatus(s, index);
        }
        @Override public void endInput(int inputId) { t.endInput(inputId - 1); }
    }

    static class JoinEmit extends ProcessJoinFunction<Ev, Ev, String> {
        final int run = BUILD_RUN;
        public void processElement(Ev l, Ev r, Context ctx, Collector<String> out) {
            String j = "{\"ev\":\"join\",\"key\":" + q(l.key) + ",\"left_ts\":" + l.ts + ",\"right_ts\":" + r.ts
                    + ",\"left_value\":" + l.value + ",\"right_value\":" + r.value + ",\"ts\":" + ctx.getTimestamp() + "}";
            trace(run, OP, j);
            out.collect(j);
        }
    }

    // ------------------------------------------------------------------ job
    static DataStream<Ev> buildInput(StreamExecutionEnvironment env, InputCfg c) {
        TypeInformation<Ev> t = TypeInformation.of(Ev.class);
        WatermarkStrategy<Ev> ws = WatermarkStrategy.<Ev>forGenerator(new GenSupplier(c.wm, c.bound, c.idlenessMs, c.in))
                .withTimestampAssigner(new TsAssigner());
        DataStream<Ev> s = env.fromSource(new PlanSource(c.in, c.partitions), ws, "input-" + c.in, t)
                .transform("src-probe-" + c.in, t, new SrcProbe(c.in, "src", c.mid.equals("none")));
        switch (c.mid) {
            case "taw": {
                WatermarkStrategy<Ev> mws = WatermarkStrategy.<Ev>forGenerator(new GenSupplier(c.midEmit, c.midBound, c.midIdlenessMs, -1))
                        .withTimestampAssigner(new TsAssigner());
                s = s.transform("timestamps-and-watermarks-" + c.in, t, new TAWFactory(mws))
                        .transform("mid-probe-" + c.in, t, new SrcProbe(c.in, "mid", true));
                break;
            }
            case "sql":
                s = s.transform("sql-watermark-assigner-" + c.in, t, new SqlFactory(c.sqlDelay, c.sqlIdleTimeout))
                        .transform("mid-probe-" + c.in, t, new SrcProbe(c.in, "mid", true));
                break;
            default:
        }
        return s;
    }

    static void runJob(Plan pl) throws Exception {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.AUTO_WATERMARK_INTERVAL, Duration.ofMillis(pl.intervalMs));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.setBufferTimeout(0);
        TypeInformation<Ev> t = TypeInformation.of(Ev.class);
        TypeInformation<String> ts = TypeInformation.of(String.class);
        pl.run = ++BUILD_RUN;
        Seq.reset(pl);

        List<DataStream<Ev>> ins = new ArrayList<>();
        for (InputCfg c : pl.inputs) ins.add(buildInput(env, c));

        switch (pl.op) {
            case "window": case "union": {
                DataStream<Ev> u = pl.op.equals("union") ? ins.get(0).union(ins.get(1)) : ins.get(0);
                DataStream<Ev> probed = u.keyBy(new KeyOf()).transform("keyed-probe", t, new KeyedProbe());
                KeyedStream<Ev, String> keyed = DataStreamUtils.reinterpretAsKeyedStream(probed, new KeyOf(), ts);
                WindowAssigner<Object, TimeWindow> assigner;
                switch (pl.window) {
                    case "tumbling": assigner = TumblingEventTimeWindows.of(Duration.ofMillis(pl.size), Duration.ofMillis(pl.offset)); break;
                    case "sliding": assigner = SlidingEventTimeWindows.of(Duration.ofMillis(pl.size), Duration.ofMillis(pl.slide), Duration.ofMillis(pl.offset)); break;
                    default: assigner = EventTimeSessionWindows.withGap(Duration.ofMillis(pl.gap));
                }
                final OutputTag<Ev> lateTag = new OutputTag<>("late", t);
                WindowedStream<Ev, String, TimeWindow> w = keyed.window(assigner)
                        .allowedLateness(Duration.ofMillis(pl.latenessMs))
                        .sideOutputLateData(lateTag); // always attached; reported as "dropped" if not requested
                SingleOutputStreamOperator<String> res = w.aggregate(new CountSum(), new Emit(),
                        TypeInformation.of(Acc.class), TypeInformation.of(Acc.class), ts);
                res.sinkTo(new DiscardingSink<>());
                res.getSideOutput(lateTag).process(new LateProbe()).sinkTo(new DiscardingSink<>());
                break;
            }
            case "connect": {
                SingleOutputStreamOperator<String> res = ins.get(0).connect(ins.get(1)).keyBy(new KeyOf(), new KeyOf())
                        .transform("co-process", ts, new ObservedCoProcess(new CountPerWindow(pl.size, pl.offset)));
                res.transform("out-probe", ts, new OutProbe()).sinkTo(new DiscardingSink<>());
                break;
            }
            case "interval_join": {
                OutputTag<Ev> lt = pl.lateSideOutput ? new OutputTag<>("left-late", t) : null;
                OutputTag<Ev> rt = pl.lateSideOutput ? new OutputTag<>("right-late", t) : null;
                TypeSerializer<Ev> ser = t.createSerializer(env.getConfig().getSerializerConfig());
                SingleOutputStreamOperator<String> res = ins.get(0).connect(ins.get(1)).keyBy(new KeyOf(), new KeyOf())
                        .transform("interval-join", ts, new ObservedIntervalJoin(pl.lower, pl.upper, !pl.lowerExcl, !pl.upperExcl,
                                lt, rt, ser, new JoinEmit()));
                res.transform("out-probe", ts, new OutProbe()).sinkTo(new DiscardingSink<>());
                if (pl.lateSideOutput) {
                    res.getSideOutput(lt).process(new LateProbe()).sinkTo(new DiscardingSink<>());
                    res.getSideOutput(rt).process(new LateProbe()).sinkTo(new DiscardingSink<>());
                }
                break;
            }
            default: throw new IllegalArgumentException("op " + pl.op);
        }

        JobClient client = env.executeAsync("flink-watermark-oracle2");
        long limitMs = 60_000 + pl.totalSleep + 2 * pl.steps.size() * 1000L;
        long deadline = System.currentTimeMillis() + limitMs;
        if (!pl.flush) {
            synchronized (Seq.LOCK) {
                while (!Seq.scheduleDone && System.currentTimeMillis() < deadline && Seq.error == null)
                    Seq.LOCK.wait(100);
            }
            boolean done = Seq.scheduleDone;
            try { client.cancel().get(30, TimeUnit.SECONDS); } catch (Exception ignored) {}
            try { client.getJobExecutionResult().get(30, TimeUnit.SECONDS); } catch (Exception ignored) {}
            if (Seq.error != null) throw new IllegalStateException(Seq.error);
            if (!done) throw new IllegalStateException("timeout: stuck at step " + Seq.k + " of " + pl.steps.size());
        } else {
            try {
                client.getJobExecutionResult().get(Math.max(1, deadline - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException te) {
                try { client.cancel().get(30, TimeUnit.SECONDS); } catch (Exception ignored) {}
                throw new IllegalStateException("timeout: stuck at step " + Seq.k + " of " + pl.steps.size()
                        + " (+" + pl.inputs.size() + " end steps)");
            }
            if (Seq.error != null) throw new IllegalStateException(Seq.error);
        }
    }

    public static void main(String[] args) throws Exception {
        String outFile = args[0];
        Files.write(Paths.get(outFile), new byte[0]);
        for (int a = 1; a < args.length; a++) {
            synchronized (TRACE) { TRACE.clear(); seqNo = 0; }
            long t0 = System.nanoTime();
            String err = null;
            try {
                runJob(readPlan(args[a]));
            } catch (Exception ex) {
                Throwable c = ex; while (c.getCause() != null) c = c.getCause();
                err = ex + " / root cause: " + c;
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            List<Entry> sorted;
            synchronized (TRACE) { sorted = new ArrayList<>(TRACE); }
            // Deterministic order: by step, then the inputs' tasks (in input order), then the keyed
            // task; each role's entries keep their real order.
            sorted.sort(Comparator.<Entry>comparingInt(e -> e.step).thenComparingInt(e -> e.role).thenComparingLong(e -> e.seq));
            try (PrintWriter pw = new PrintWriter(Files.newBufferedWriter(Paths.get(outFile), StandardCharsets.UTF_8, StandardOpenOption.APPEND))) {
                pw.println("#begin " + args[a]);
                for (Entry e : sorted) pw.println("{\"step\":" + e.step + "," + e.json.substring(1));
                if (err != null) pw.println("#error " + err.replace('\n', ' '));
                pw.println("#end " + ms);
            }
        }
        System.exit(0);
    }
}
