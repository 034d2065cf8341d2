
    // ------------------------------------------------------------------ the SQL window

    /**
     * Runs job.sql: lines starting with `--` are comments, statements end with `;`, `SET 'key' =
     * 'value'` sets the table config (as the SQL client does; executeSql does not take SET), other
     * statements but the last run as they are, and the last, the window query, gives the result.
     */
    static final class SqlScript {
        static final Pattern SET = Pattern.compile("(?is)SET\\s+'([^']*)'\\s*=\\s*'([^']*)'");

        static Table run(StreamTableEnvironment tEnv) throws IOException {
            InputStream s = PlaygroundJob.class.getResourceAsStream("/job.sql");
            if (s == null) throw new IOException("job.sql is not on the classpath (build the jar with mvn package)");
            StringBuilder text = new StringBuilder();
            try (BufferedReader in = new BufferedReader(new InputStreamReader(s, StandardCharsets.UTF_8))) {
                for (String l = in.readLine(); l != null; l = in.readLine()) {
                    if (!l.trim().startsWith("--")) text.append(l).append('\n');
                }
            }
            List<String> statements = new ArrayList<>();
            for (String st : text.toString().split(";")) if (!st.trim().isEmpty()) statements.add(st.trim());
            for (String st : statements.subList(0, statements.size() - 1)) {
                Matcher set = SET.matcher(st);
                if (set.matches()) tEnv.getConfig().set(set.group(1), set.group(2));
                else tEnv.executeSql(st);
            }
            return tEnv.sqlQuery(statements.get(statements.size() - 1));
        }
    }

    /**
     * The query's rows (`key, window_start, window_end, cnt, total, lo, hi`) as the job's result
     * lines. A SQL window fires once (`firing=0`). The window operator emits a firing's rows
     * before it forwards the watermark that fired them, so the rows wait for that watermark:
     * `end_of_input` when it is above END_OF_INPUT_ABOVE.
     */
    static final class SqlResultLine extends AbstractStreamOperator<String> implements OneInputStreamOperator<Row, String> {
        final List<String> pending = new ArrayList<>();

        @Override
        public void processElement(StreamRecord<Row> r) {
            Row row = r.getValue();
            pending.add("window key=" + row.getField(0) + " start=" + utcMillis(row.getField(1)) + " end=" + utcMillis(row.getField(2))
                + " count=" + row.getField(3) + " sum=" + row.getField(4) + " min=" + row.getField(5) + " max=" + row.getField(6)
                + " firing=0");
        }

        @Override
        public void processWatermark(org.apache.flink.streaming.api.watermark.Watermark mark) throws Exception {
            flush(mark.getTimestamp() > END_OF_INPUT_ABOVE ? " end_of_input" : "");
            super.processWatermark(mark);
        }

        @Override
        public void finish() throws Exception {
            flush("");
            super.finish();
        }

        void flush(String suffix) {
            for (String l : pending) output.collect(new StreamRecord<>(l + suffix));
            pending.clear();
        }

        /** window_start/window_end are TIMESTAMP(3) in the session time zone, UTC (job.sql sets it). */
        static long utcMillis(Object t) {
            return ((LocalDateTime) t).toInstant(ZoneOffset.UTC).toEpochMilli();
        }
    }
