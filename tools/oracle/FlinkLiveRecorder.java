// Dev-only recorder of a real Flink 2.3 JobManager's REST answers for the playground's live link
// (docs/LIVE.md). Run by tools/oracle/live-record.sh; CI never runs it, it reads the fixtures it
// wrote (tests/fixtures/live/).
//
// Usage: java -cp <flink lib/*>:<classes> FlinkLiveRecorder OUT_DIR [connect|pressure|three]
//   connect: instead, the events connected with a silent "rates" source into a two-input
//   operator, recorded as OUT_DIR/connect.json (running only).
//   pressure: split-0 emits as fast as it can into a keyed operator that takes 2 ms a record,
//   split-1 one record per 100 ms: subtask 0 is back-pressured, subtask 1 hardly; pressure.json.
//   three: the events unioned with a "clicks" source (one split, one record per 100 ms) and a
//   silent "rates" source into the keyed windows: three source vertices; three.json.
//
// It starts a MiniCluster WITH its REST endpoint (rest.port), runs a seed-001-like job and, once
// the job has run a few seconds, records what a client of the REST API reads, as "bundles": one
// JSON object keyed by endpoint path (query string dropped), the format the playground's offline
// paste takes. Then it cancels the job and records the cancelled job's answers, and a 404.
//
// The job: a FLIP-27 source "events" with parallelism 2 and two splits, split-N on subtask N, with
// per-split watermarks (forBoundedOutOfOrderness(1 s), no idleness). split-0 emits one record every
// 100 ms of wall time with event time advancing 1 s per record; split-1 emits 3 records and then
// nothing, like seed 001's quiet partition. So subtask 1's watermark stands still and holds back
// the keyed window's input watermark: no window ever fires.

import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MetricOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.io.InputStatus;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.util.Collector;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

public class FlinkLiveRecorder {
    static final long BASE_MS = 1767225600000L; // 2026-01-01T00:00:00Z
    static final int PORT = Integer.getInteger("rest.port", 18081);

    public static class Split implements SourceSplit, java.io.Serializable {
        final int index;
        Split(int index) { this.index = index; }
        public String splitId() { return "split-" + index; }
    }

    static class SplitSer implements SimpleVersionedSerializer<Split> {
        public int getVersion() { return 1; }
        public byte[] serialize(Split s) { return new byte[] { (byte) s.index }; }
        public Split deserialize(int v, byte[] b) { return new Split(b[0]); }
    }

    static class NoStateSer implements SimpleVersionedSerializer<Void> {
        public int getVersion() { return 1; }
        public byte[] serialize(Void v) { return new byte[0]; }
        public Void deserialize(int v, byte[] b) { return null; }
    }

    /** Hands split-N to subtask N when it registers. */
    static class Enum implements SplitEnumerator<Split, Void> {
        final SplitEnumeratorContext<Split> ctx;
        Enum(SplitEnumeratorContext<Split> ctx) { this.ctx = ctx; }
        public void start() {}
        public void handleSplitRequest(int subtask, String host) {}
        public void addSplitsBack(List<Split> splits, int subtask) {}
        public void addReader(int subtask) { ctx.assignSplit(new Split(subtask), subtask); }
        public Void snapshotState(long id) { return null; }
        public void close() {}
    }

    /** How a reader emits: NORMAL (split-0 forever, split-1 three records and then nothing),
     *  SILENT (nothing at all), FAST (split-0 a batch per poll, without pause; split-1 forever), STEADY (every split forever). */
    enum Pace { NORMAL, SILENT, FAST, STEADY }

    /** One record per 100 ms per split, as its {@link Pace} says. */
    static class Reader implements SourceReader<Long, Split> {
        final Pace pace;
        Reader(Pace pace) { this.pace = pace; }
        final List<Split> splits = new ArrayList<>();
        final Map<String, Long> emitted = new LinkedHashMap<>();
        public void start() {}
        public InputStatus pollNext(ReaderOutput<Long> out) {
            boolean more = false;
            for (Split s : splits) {
                long n = emitted.get(s.splitId());
                if (pace == Pace.SILENT || (pace == Pace.NORMAL && s.index == 1 && n >= 3)) continue;
                int batch = pace == Pace.FAST && s.index == 0 ? 100 : 1;
                more |= batch > 1;
                SourceOutput<Long> o = out.createOutputForSplit(s.splitId());
                for (int i = 0; i < batch; i++) o.collect(n + i, BASE_MS + (n + i) * 1000);
                emitted.put(s.splitId(), n + batch);
            }
            return more ? InputStatus.MORE_AVAILABLE : InputStatus.NOTHING_AVAILABLE;
        }
        public List<Split> snapshotState(long id) { return new ArrayList<>(splits); }
        public CompletableFuture<Void> isAvailable() {
            return CompletableFuture.runAsync(() -> {}, CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS));
        }
        public void addSplits(List<Split> add) {
            for (Split s : add) { splits.add(s); emitted.put(s.splitId(), 0L); }
        }
        public void notifyNoMoreSplits() {}
        public void close() {}
    }

    static class TwoSplits implements Source<Long, Split, Void> {
        final Pace pace;
        TwoSplits(Pace pace) { this.pace = pace; }
        public Boundedness getBoundedness() { return Boundedness.CONTINUOUS_UNBOUNDED; }
        public SplitEnumerator<Split, Void> createEnumerator(SplitEnumeratorContext<Split> c) { return new Enum(c); }
        public SplitEnumerator<Split, Void> restoreEnumerator(SplitEnumeratorContext<Split> c, Void s) { return new Enum(c); }
        public SimpleVersionedSerializer<Split> getSplitSerializer() { return new SplitSer(); }
        public SimpleVersionedSerializer<Void> getEnumeratorCheckpointSerializer() { return new NoStateSer(); }
        public SourceReader<Long, Split> createReader(SourceReaderContext c) { return new Reader(pace); }
    }

    /** The two-input operator of the connect job: passes the records on. */
    static class Forward extends KeyedCoProcessFunction<Long, Long, Long, Long> {
        public void processElement1(Long e, Context ctx, Collector<Long> out) { out.collect(e); }
        public void processElement2(Long e, Context ctx, Collector<Long> out) { out.collect(e); }
    }

    /** The keyed operator of the pressure job: 2 ms a record, so a fast source fills its buffers. */
    static class Slow extends KeyedProcessFunction<Long, Long, Long> {
        public void processElement(Long e, Context ctx, Collector<Long> out) throws Exception {
            Thread.sleep(2);
            out.collect(e);
        }
    }

    static final HttpClient HTTP = HttpClient.newHttpClient();
    static String base;

    static HttpResponse<String> get(String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    static String body(String path) throws Exception {
        HttpResponse<String> r = get(path);
        if (r.statusCode() != 200) throw new IllegalStateException(path + " -> " + r.statusCode() + " " + r.body());
        return r.body();
    }

    static List<String> matches(String json, String regex) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile(regex).matcher(json);
        while (m.find()) out.add(m.group(1));
        return out;
    }

    /** The metric names the live link reads (docs/LIVE.md; src/engine/live/bundle.rs WANTED_METRICS, the same list). */
    static final Pattern WANTED = Pattern.compile("(^|\\.)(currentInputWatermark|currentInput1Watermark|currentInput2Watermark"
            + "|currentOutputWatermark|currentWatermark|watermarkLag|idleTimeMsPerSecond|busyTimeMsPerSecond"
            + "|backPressuredTimeMsPerSecond|numRecordsIn|numRecordsOut|sourceIdleTime|pendingRecords|watermarkAlignmentDrift|numLateRecordsDropped)$");

    /** `?get=` for `names`, a few at a time (the REST endpoint refuses long request lines), joined into one answer. */
    static String getInChunks(String path, List<String> names) throws Exception {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < names.size(); i += 20) {
            String b = body(path + "?get=" + String.join(",", names.subList(i, Math.min(names.size(), i + 20)))).trim();
            if (b.length() > 2) parts.add(b.substring(1, b.length() - 1));
        }
        return "[" + String.join(",", parts) + "]";
    }

    /** One bundle: the answers keyed by path, in the order they were read. */
    static void writeBundle(Path file, Map<String, String> answers) throws Exception {
        StringBuilder b = new StringBuilder("{\n");
        int i = 0;
        for (Map.Entry<String, String> e : answers.entrySet()) {
            b.append("  \"").append(e.getKey()).append("\": ").append(e.getValue());
            b.append(++i < answers.size() ? ",\n" : "\n");
        }
        Files.writeString(file, b.append("}\n").toString());
    }

    /** The answers a live poll reads for job `jid`: details, then per vertex watermarks, metrics, back-pressure. */
    static Map<String, String> record(String jid) throws Exception {
        Map<String, String> a = new LinkedHashMap<>();
        a.put("/jobs/overview", body("/jobs/overview"));
        String details = body("/jobs/" + jid);
        a.put("/jobs/" + jid, details);
        String verticesPart = details.substring(details.indexOf("\"vertices\""), details.indexOf("\"status-counts\""));
        for (String vid : matches(verticesPart, "\\{\"id\":\"([0-9a-f]{32})\"")) {
            String v = "/jobs/" + jid + "/vertices/" + vid;
            a.put(v + "/watermarks", body(v + "/watermarks"));
            List<String> names = new ArrayList<>();
            for (String n : matches(body(v + "/metrics"), "\"id\":\"([^\"]+)\"")) if (WANTED.matcher(n).find()) names.add(n);
            Collections.sort(names);
            a.put(v + "/metrics", getInChunks(v + "/metrics", names));
            a.put(v + "/backpressure", body(v + "/backpressure"));
        }
        return a;
    }

    /** The seed-001-like keyed windows and their sink. */
    static void windows(DataStream<Long> in) {
        in.keyBy(e -> e % 4).window(TumblingEventTimeWindows.of(Duration.ofSeconds(10)))
                .reduce(Long::sum).name("Window(TumblingEventTimeWindows(10000))")
                .sinkTo(new DiscardingSink<>()).name("Results");
    }

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1); // the MiniCluster's threads would keep the JVM alive
        }
        System.exit(0);
    }

    static void run(String[] args) throws Exception {
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        Configuration conf = new Configuration();
        conf.set(RestOptions.PORT, PORT);
        conf.set(RestOptions.BIND_PORT, String.valueOf(PORT));
        conf.set(MetricOptions.METRIC_FETCHER_UPDATE_INTERVAL, Duration.ofMillis(300));
        MiniCluster mc = new MiniCluster(new MiniClusterConfiguration.Builder().setConfiguration(conf)
                .setNumTaskManagers(1).setNumSlotsPerTaskManager(2).build());
        mc.start();
        base = mc.getRestAddress().get().toString().replaceAll("/$", "");
        System.err.println("REST endpoint " + base);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        WatermarkStrategy<Long> ws = WatermarkStrategy.<Long>forBoundedOutOfOrderness(Duration.ofSeconds(1))
                .withTimestampAssigner((e, t) -> BASE_MS + e * 1000);
        String mode = args.length > 1 ? args[1] : "running";
        if (!List.of("running", "connect", "pressure", "three").contains(mode)) throw new IllegalArgumentException("unknown mode " + mode + ": connect, pressure or three");
        DataStream<Long> events = env.fromSource(new TwoSplits(mode.equals("pressure") ? Pace.FAST : Pace.NORMAL), ws, "events").returns(Types.LONG);
        String name;
        switch (mode) {
            case "connect":
                // The events connected with a "rates" source (one split, never a record): a two-input
                // operator whose second input has no watermark.
                DataStream<Long> rates = env.fromSource(new TwoSplits(Pace.SILENT), ws, "rates").returns(Types.LONG).setParallelism(1);
                events.connect(rates).keyBy(e -> e % 4, r -> r % 4, Types.LONG)
                        .process(new Forward()).name("Connect")
                        .sinkTo(new DiscardingSink<>()).name("Results");
                name = "live-fixture: a quiet connected input";
                break;
            case "pressure":
                events.keyBy(e -> e % 4).process(new Slow()).name("Slow")
                        .sinkTo(new DiscardingSink<>()).name("Results");
                name = "live-fixture: a back-pressured source";
                break;
            case "three":
                DataStream<Long> clicks = env.fromSource(new TwoSplits(Pace.STEADY), ws, "clicks").returns(Types.LONG).setParallelism(1);
                DataStream<Long> silent = env.fromSource(new TwoSplits(Pace.SILENT), ws, "rates").returns(Types.LONG).setParallelism(1);
                windows(events.union(clicks, silent));
                name = "live-fixture: three sources, one silent";
                break;
            case "running":
                windows(events);
                name = "live-fixture: one quiet split";
                break;
            default:
                throw new IllegalStateException(mode);
        }
        org.apache.flink.streaming.api.graph.StreamGraph graph = env.getStreamGraph();
        graph.setJobName(name);
        JobID id = mc.submitJob(graph.getJobGraph(FlinkLiveRecorder.class.getClassLoader(), null)).get().getJobID();
        String jid = id.toHexString();
        // Let split-0 run ahead (~8 s, 80 records) and the metric fetcher catch up.
        Thread.sleep(8000);
        record(jid); // first read warms the fetcher's cache of every metric
        Thread.sleep(1500);
        if (!mode.equals("running")) {
            writeBundle(out.resolve(mode + ".json"), record(jid));
            mc.close();
            System.err.println("wrote " + out.resolve(mode + ".json"));
            return;
        }
        writeBundle(out.resolve("running.json"), record(jid));
        String missing = "/jobs/00000000000000000000000000000000";
        HttpResponse<String> nf = get(missing);
        Files.writeString(out.resolve("not_found.json"),
                "{\"status\": " + nf.statusCode() + ", \"path\": \"" + missing + "\", \"body\": " + nf.body() + "}\n");
        mc.cancelJob(id).get();
        for (int i = 0; i < 50 && !body("/jobs/" + jid).contains("\"state\":\"CANCELED\""); i++) Thread.sleep(100);
        Map<String, String> c = new LinkedHashMap<>();
        c.put("/jobs/overview", body("/jobs/overview"));
        c.put("/jobs/" + jid, body("/jobs/" + jid));
        writeBundle(out.resolve("cancelled.json"), c);
        mc.close();
        System.err.println("wrote " + out);
    }
}
