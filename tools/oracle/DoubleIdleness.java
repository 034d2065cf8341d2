import java.time.Duration;
import java.util.*;
import org.apache.flink.api.common.eventtime.*;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.util.clock.ManualClock;
import org.apache.flink.util.clock.RelativeClock;
import org.apache.flink.streaming.api.operators.source.WatermarkToDataOutput;
import org.apache.flink.streaming.runtime.io.PushingAsyncDataInput;
import org.apache.flink.streaming.runtime.streamrecord.*;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.runtime.event.WatermarkEvent;

/** withIdleness(T1).withIdleness(T2): who marks idle, when, how often (Flink 2.3.0 jars). */
public class DoubleIdleness {
    static final long ORIGIN_MS = 10_000; // non-zero clock origin (0 is the timer's "not started" sentinel)
    static long now; // probe time relative to origin, ms

    public static void main(String[] a) throws Exception {
        run(300, 700);  // inner shorter
        run(700, 300);  // outer shorter
    }

    static void run(long t1, long t2) throws Exception {
        ManualClock clock = new ManualClock(ORIGIN_MS * 1_000_000L);
        WatermarkGeneratorSupplier.Context ctx = new WatermarkGeneratorSupplier.Context() {
            public MetricGroup getMetricGroup() { return new UnregisteredMetricsGroup(); }
            public RelativeClock getInputActivityClock() { return clock; }
        };
        WatermarkStrategy<Long> s = WatermarkStrategy.<Long>forMonotonousTimestamps()
                .withIdleness(Duration.ofMillis(t1)).withIdleness(Duration.ofMillis(t2));
        WatermarkGenerator<Long> g = s.createWatermarkGenerator(ctx);
        System.out.println("=== withIdleness(" + t1 + ").withIdleness(" + t2 + "), probes every 100 ms ===");
        System.out.println("strategy=" + s.getClass().getSimpleName() + " generator=" + describe(g));

        // downstream: real WatermarkToDataOutput over a recording DataOutput
        List<String> down = new ArrayList<>();
        PushingAsyncDataInput.DataOutput<Object> dataOut = new PushingAsyncDataInput.DataOutput<Object>() {
            public void emitRecord(StreamRecord<Object> r) {}
            public void emitWatermark(org.apache.flink.streaming.api.watermark.Watermark w) { down.add("t=" + now + " WM " + w.getTimestamp()); }
            public void emitWatermarkStatus(WatermarkStatus st) { down.add("t=" + now + " STATUS " + (st.isIdle() ? "IDLE" : "ACTIVE")); }
            public void emitLatencyMarker(LatencyMarker m) {}
            public void emitRecordAttributes(RecordAttributes r) {}
            public void emitWatermark(WatermarkEvent e) {}
        };
        WatermarkToDataOutput w2d = new WatermarkToDataOutput(dataOut);
        int[] idleCalls = {0};
        WatermarkOutput tee = new WatermarkOutput() {
            public void emitWatermark(Watermark w) { w2d.emitWatermark(w); }
            public void markIdle() {
                idleCalls[0]++;
                long depth = Arrays.stream(new Throwable().getStackTrace())
                        .filter(f -> f.getClassName().equals(WatermarksWithIdleness.class.getName())
                                && f.getMethodName().equals("onPeriodicEmit")).count();
                System.out.println("  t=" + now + " markIdle() #" + idleCalls[0] + " from "
                        + (depth == 2 ? "INNER (timeout " + t1 + ")" : "OUTER (timeout " + t2 + ")"));
                w2d.markIdle();
            }
            public void markActive() { System.out.println("  t=" + now + " markActive()"); w2d.markActive(); }
        };
        long[] events = {50, 1550};
        int ei = 0;
        for (now = 0; now <= 3000; now += 10) {
            clock.advanceTime(Duration.ofMillis(now == 0 ? 0 : 10));
            if (ei < events.length && now == events[ei]) {
                System.out.println("  t=" + now + " onEvent(ts=" + (now + 1000) + ")");
                g.onEvent(now, now + 1000, tee); ei++;
            }
            if (now > 0 && now % 100 == 0) g.onPeriodicEmit(tee);
        }
        System.out.println("  markIdle() calls total: " + idleCalls[0]);
        System.out.println("  downstream (WatermarkToDataOutput -> DataOutput): " + down);
    }

    static String describe(Object g) throws Exception {
        StringBuilder sb = new StringBuilder();
        while (g instanceof WatermarksWithIdleness) {
            java.lang.reflect.Field f = WatermarksWithIdleness.class.getDeclaredField("watermarks");
            f.setAccessible(true);
            java.lang.reflect.Field tf = WatermarksWithIdleness.class.getDeclaredField("idlenessTimer");
            tf.setAccessible(true);
            Object timer = tf.get(g);
            java.lang.reflect.Field mf = timer.getClass().getDeclaredField("maxIdleTimeNanos");
            mf.setAccessible(true);
            sb.append("WatermarksWithIdleness(").append((long) mf.get(timer) / 1_000_000).append("ms)[");
            g = f.get(g);
        }
        sb.append(g.getClass().getSimpleName());
        return sb.toString() + "]".repeat((int) sb.chars().filter(c -> c == '[').count());
    }
}
