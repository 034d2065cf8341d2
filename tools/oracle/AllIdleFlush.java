import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.*;
import org.apache.flink.api.common.eventtime.*;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.*;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.runtime.event.WatermarkEvent;
import org.apache.flink.util.OutputTag;

/**
 * The all-idle flush of FLINK-38454 (Flink 2.2.0) on Flink's own classes, no cluster:
 * (a) a two-input operator (AbstractStreamOperator.processWatermark1/2, processWatermarkStatus1/2
 * over IndexedCombinedWatermarkStatus.forInputsCount(2)) and (b) a source subtask's split
 * combination (WatermarkOutputMultiplexer over CombinedWatermarkStatus), immediate and deferred.
 * Same source for 2.1.x and 2.3.0 jars; reflection only to read private state.
 */
public class AllIdleFlush {
    static final List<String> got = new ArrayList<>(); // calls received downstream during one step

    public static void main(String[] a) throws Exception {
        System.out.println("flink " + EnvironmentInformation.getVersion());
        twoInput();
        multiplexer(true);
        multiplexer(false);
    }

    // ---------------------------------------------------------------- (a) two-input operator

    /** A bare two-input operator: setup() is never called, only the fields the watermark path uses. */
    static final class Op extends AbstractStreamOperator<Object> implements TwoInputStreamOperator<Object, Object, Object> {
        Op() {
            combinedWatermark = IndexedCombinedWatermarkStatus.forInputsCount(2); // what setup() does
            output = new Output<StreamRecord<Object>>() {
                public void emitWatermark(org.apache.flink.streaming.api.watermark.Watermark w) { got.add("WM " + fmt(w.getTimestamp())); }
                public void emitWatermarkStatus(WatermarkStatus s) { got.add(s.isIdle() ? "IDLE" : "ACTIVE"); }
                public <X> void collect(OutputTag<X> t, StreamRecord<X> r) {}
                public void emitLatencyMarker(LatencyMarker m) {}
                public void emitRecordAttributes(RecordAttributes r) {}
                public void emitWatermark(WatermarkEvent e) {}
                public void collect(StreamRecord<Object> r) {}
                public void close() {}
            };
        }
        public void processElement1(StreamRecord<Object> r) {}
        public void processElement2(StreamRecord<Object> r) {}
        IndexedCombinedWatermarkStatus combined() { return combinedWatermark; }
    }

    interface Step { void run() throws Exception; }

    static void twoInput() throws Exception {
        System.out.println("=== (a) two-input operator: AbstractStreamOperator.processWatermark1/2 + processWatermarkStatus1/2,"
                + " IndexedCombinedWatermarkStatus.forInputsCount(2) ===");
        System.out.println("  (input 0 = processWatermark1/processWatermarkStatus1, input 1 = ...2; forwarded = what reaches Output)");
        Op op = new Op();
        WatermarkStatus idle = WatermarkStatus.IDLE, active = WatermarkStatus.ACTIVE;
        Object[][] steps = {
            {"input 1 WM 12000", (Step) () -> op.processWatermark2(wm(12000))},
            {"input 1 IDLE", (Step) () -> op.processWatermarkStatus2(idle)},
            {"input 0 WM 8000", (Step) () -> op.processWatermark1(wm(8000))},
            {"input 0 IDLE (all idle)", (Step) () -> op.processWatermarkStatus1(idle)},
            {"input 0 ACTIVE", (Step) () -> op.processWatermarkStatus1(active)},
            {"input 0 WM 10000", (Step) () -> op.processWatermark1(wm(10000))},
        };
        int n = 0;
        for (Object[] s : steps) {
            got.clear();
            ((Step) s[1]).run();
            IndexedCombinedWatermarkStatus c = op.combined();
            System.out.printf("  %d. %-24s forwarded %-18s combined=%s idle=%s  inputs %s%n", ++n, s[0], got,
                    fmt(c.getCombinedWatermark()), c.isIdle(), partials(readField(c, "partialWatermarks")));
        }
    }

    static org.apache.flink.streaming.api.watermark.Watermark wm(long t) {
        return new org.apache.flink.streaming.api.watermark.Watermark(t);
    }

    // ---------------------------------------------------------------- (b) split multiplexer

    static void multiplexer(boolean immediate) throws Exception {
        System.out.println("=== (b) WatermarkOutputMultiplexer, splits A and B, " + (immediate
                ? "immediate outputs (onEvent path) ==="
                : "deferred outputs (onPeriodicEmit path), multiplexer.onPeriodicEmit() after each step ==="));
        WatermarkOutput underlying = new WatermarkOutput() {
            public void emitWatermark(Watermark w) { got.add("emitWatermark(" + fmt(w.getTimestamp()) + ")"); }
            public void markIdle() { got.add("markIdle()"); }
            public void markActive() { got.add("markActive()"); }
        };
        WatermarkOutputMultiplexer m = new WatermarkOutputMultiplexer(underlying);
        m.registerNewOutput("A");
        m.registerNewOutput("B");
        WatermarkOutput A = immediate ? m.getImmediateOutput("A") : m.getDeferredOutput("A");
        WatermarkOutput B = immediate ? m.getImmediateOutput("B") : m.getDeferredOutput("B");
        List<Object[]> steps = new ArrayList<>(List.of(
            new Object[] {"B WM 12000", (Step) () -> B.emitWatermark(new Watermark(12000))},
            new Object[] {"B markIdle", (Step) B::markIdle},
            new Object[] {"A WM 8000", (Step) () -> A.emitWatermark(new Watermark(8000))},
            new Object[] {"A markIdle (all idle)", (Step) A::markIdle},
            new Object[] {"A WM 9000", (Step) () -> A.emitWatermark(new Watermark(9000))}));
        if (!immediate) steps.add(4, new Object[] {"(tick, no call)", (Step) () -> {}}); // still all idle
        Object status = readField(m, "combinedWatermarkStatus");
        Map<?, ?> perId = (Map<?, ?>) readField(m, "watermarkPerOutputId");
        int n = 0;
        for (Object[] s : steps) {
            got.clear();
            ((Step) s[1]).run();
            if (!immediate) m.onPeriodicEmit();
            System.out.printf("  %d. %-22s underlying got %-37s combined=%s idle=%s  splits %s%n", ++n, s[0], got,
                    fmt((long) call(status, "getCombinedWatermark")), call(status, "isIdle"),
                    partials(new Object[] {perId.get("A"), perId.get("B")}).replace("0=", "A=").replace("1=", "B="));
        }
    }

    // ---------------------------------------------------------------- helpers

    static String fmt(long t) {
        return t == Long.MIN_VALUE ? "MIN" : t == Long.MAX_VALUE ? "MAX" : Long.toString(t);
    }

    /** PartialWatermark's private fields (its getWatermark() asserts non-idle on 2.1). */
    static String partials(Object arr) throws Exception {
        Object[] ps = (Object[]) arr;
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < ps.length; i++) {
            if (i > 0) sb.append(", ");
            sb.append(i).append('=').append(fmt((long) readField(ps[i], "watermark")))
                    .append((boolean) readField(ps[i], "idle") ? " idle" : " active");
        }
        return sb.append(']').toString();
    }

    static Object readField(Object o, String name) throws Exception {
        Field f = o.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
    }

    static Object call(Object o, String name) throws Exception {
        Method mth = o.getClass().getDeclaredMethod(name);
        mth.setAccessible(true);
        return mth.invoke(o);
    }
}
