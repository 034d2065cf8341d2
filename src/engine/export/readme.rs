//! `README.md` of the exported project: how to build and run it, the output format, and what
//! the replay reproduces and what it does not (the scenario's notes).

use super::job_java::is_sql_window;
use super::replay::Recorded;
use super::{EXPECTED_PATH, SQL_PATH};
use crate::engine::scenario::schema::Scenario;

pub fn readme(s: &Scenario, run: &Recorded, notes: &[String], replay_path: &str) -> String {
    let replay = replay_path.rsplit('/').next().unwrap_or(replay_path);
    let title = if s.name.is_empty() { "Watermark Playground scenario" } else { s.name.as_str() };
    let mut out = format!(
        "# {title}\n\n\
         A Flink 2.3 DataStream job exported by Watermark Playground (`wmp export`). It replays the {} records\n\
         the playground's sources emitted through the scenario's `WatermarkStrategy` and keyed event-time\n\
         window, and prints one line per window result: the same lines as `{EXPECTED_PATH}`, the playground's\n\
         results.\n\n",
        run.records
    );
    out += "## Build and run\n\n```sh\nmvn package                                    # Java 17, Maven 3\n\
            flink run target/playground-job-1.0.jar        # on your cluster: lines go to the TaskManager's stdout (*.out)\n\
            mvn exec:java -Dexec.mainClass=playground.PlaygroundJob -Dexec.classpathScope=compile   # or locally, in one JVM\n```\n\n\
            `--replay FILE` reads another replay file (gzip if its name ends in `.gz`) instead of the jar's\n";
    out += &format!("`{replay}`{}.\n\n", if replay.ends_with(".gz") { " (gzip: `zcat` it to read the lines)" } else { "" });
    out += "## Output\n\n```text\nwindow key=K start=S end=E count=C sum=S min=M max=X firing=F[ end_of_input]\n```\n\n\
            One line per firing: `start`/`end` in ms since the epoch (end exclusive), `count`, `sum`, `min`, `max`\n\
            of the records' values, `firing` the window's firings before this one (allowed lateness and continuous\n\
            triggers fire a window again). `end_of_input` marks a firing caused by the final `Long.MAX_VALUE`\n\
            watermark when the replay ends. With a late side output, `late key=K ts=T value=V` lines follow the\n\
            late records. Compare: `grep '^window' out.txt | grep -v end_of_input | sort | diff - expected-output.txt`\n\
            (on a cluster, strip the `N> ` prefix `print()` may add).\n\n";
    if is_sql_window(&s.job_config()) {
        out += &format!(
            "## The SQL window\n\n\
             The window is Flink SQL's window TVF aggregation in `{SQL_PATH}`, which the job runs over a view of the\n\
             replayed stream (its watermark is the replay source's own: `SOURCE_WATERMARK()`). The same file holds,\n\
             commented, the playground's SQL for your Kafka table (`CREATE TABLE … WITH ('connector' = 'kafka', …)`):\n\
             uncomment it in the SQL client to run the same window on your cluster.\n\n"
        );
    }
    out += "## What differs from the playground\n\n";
    for n in notes {
        out += &format!("- {n}\n");
    }
    out += "\nNot replayed at all: wall-clock timing (the job runs as fast as it can), back-pressure itself (only its\n\
            effect on the order of reads and on the idleness clocks), what made the job fail (only where it failed), and Kafka itself. To run the same strategy on your Kafka job, take the `WatermarkStrategy`\n\
            lines of `PlaygroundJob.java` without the `ReplayWatermarks` wrapper, with `.withIdleness(..)` on it.\n";
    out
}
