//! Every limit on input, named once. The scenario checks, the command checks, the JS API and
//! the UI's fields read these constants; `docs/SCENARIO.md` lists them for users.
//!
//! They keep the engine's arithmetic in range and a run's work and memory bounded; none of
//! them is a Flink limit unless its doc says so.

/// `Number.MAX_SAFE_INTEGER`: times and values that cross into JavaScript stay exact within it.
pub const MAX_SAFE: i64 = (1 << 53) - 1;
/// Partitions a topic may have.
pub const MAX_PARTITIONS: u32 = 100_000;
/// Source or window parallelism.
pub const MAX_PARALLELISM: u32 = 4096;
/// Intervals and latencies: one day.
pub const MAX_INTERVAL_MS: i64 = 86_400_000;
/// How long a scenario may run: ten years of processing time.
pub const MAX_DURATION_MS: i64 = 10 * 365 * 86_400_000;
/// Records per second one steady producer writes to one partition.
pub const MAX_RATE_PER_S: u64 = 10_000_000;
/// Records in one burst.
pub const MAX_BURST_COUNT: u64 = 10_000_000;
/// Records one backlog producer writes to one partition.
pub const MAX_BACKLOG_COUNT: u64 = 20_000_000;
/// Keys one producer draws from (`keys.count`).
pub const MAX_KEYS: u32 = 10_000_000;
/// Bytes of a producer's key prefix (`keys.prefix`): each of its up to `MAX_KEYS` names repeats it.
pub const MAX_KEY_PREFIX_BYTES: usize = 64;
/// Trace events kept in the ring.
pub const MAX_TRACE_CAPACITY: usize = 10_000_000;
/// Windows one record may be assigned to (sliding `size_ms / slide_ms`): each is a window
/// state entry per key, so this bounds the state one record can create.
pub const MAX_WINDOWS_PER_RECORD: i64 = 100_000;
/// Early firings a continuous trigger may make per window (window size, cumulative max size or
/// session gap, over `interval_ms`): a watermark that jumps far makes them all at once.
pub const MAX_EARLY_FIRINGS_PER_WINDOW: i64 = 100_000;
/// Bytes of scenario text read from a file or stdin.
pub const MAX_INPUT_BYTES: u64 = 64 << 20;
/// Engine operations one scenario may ask for (`session::budget`): the 3-hour seed-001 bench
/// (486 M records) needs about 0.9 × 10^9; this allows about ten times that, minutes of work.
pub const MAX_WORK: u64 = 10_000_000_000;
/// Records that may arrive at one instant, over all producers and a `produce` command (a
/// burst's or backlog's `count` × partitions, a steady rate's millisecond × partitions): one
/// instant is never cut, so this bounds how long a page waits for one (some 80 ms in wasm
/// here; ten bursts of 10^7 on eight partitions stalled a host page for 6.6 s).
pub const MAX_RECORDS_AT_ONCE: u64 = 1_000_000;
/// Key ids all producers may hold together (`keys.count` × partitions, summed).
pub const MAX_KEY_SLOTS: u64 = 20_000_000;
/// Restarts one run may make: a restart loop (a TaskManager that is lost again right after
/// each restore) ends the job FAILED after this many, as the simulator's own limit.
pub const MAX_RESTARTS: u32 = 1000;
/// Records restores may read again over a run (each restore re-reads everything since the
/// checkpoint); a failure that would go past it ends the job FAILED, as the simulator's limit.
pub const MAX_REPLAYED_RECORDS: u64 = 100_000_000;

/// Records an exported job's replay may hold when it is written in memory (the JS API and the
/// UI's download): ~40 bytes a line, so at most ~80 MB.
pub const MAX_EXPORT_RECORDS: usize = 2_000_000;
/// Records `wmp export`'s replay may hold: it is streamed to a gzipped file (gzip's fast level,
/// ~10 bytes a record: ~200 MB and ~20 s at most), and the exported job reads it line by line.
pub const MAX_EXPORT_FILE_RECORDS: usize = 20_000_000;
