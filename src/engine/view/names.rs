//! How every view names a source subtask and a partition: the job graph, the channels table,
//! the embed's SVG, the WHY panel, the timeline and the engine's explanation and diagnosis all
//! call [`source_subtask_name`] and [`partition_name`], so that one has one name on the page.

/// A source's name longer than this is cut (`…`): the graph's source node has room for it.
const NAME_MAX: usize = 12;

/// Source subtask `global` (the engine's number over every source subtask), which is subtask
/// `in_source` of source `source` (one of `sources` sources), as every view names it. One source: its number
/// (`3`), as always. Several: its source's name and its index in that source (`rates·0`), as
/// Flink numbers a vertex's subtasks (`Source: rates (1/2)` is `rates·0`): the live vertex
/// tables count within a vertex, so a global number would name another subtask there. The
/// name is the topic (a simulated job) or the source vertex's name without Flink's `Source: `
/// (a real one), cut in the middle to 12 characters. Texts write `src rates·0` or `source subtask rates·0`.
pub fn source_subtask_name(sources: usize, source: &str, in_source: u32, global: u32) -> String {
    if sources <= 1 {
        return global.to_string();
    }
    let name = source.trim_start_matches("Source: ");
    let chars: Vec<char> = name.chars().collect();
    // Cut in the middle: names of one job tend to share a prefix (`KafkaSource-…`) or a stem
    // (`readings-a`, `readings-b`), and keeping both ends keeps them apart.
    let name = if chars.len() <= NAME_MAX {
        name.to_string()
    } else {
        let head = (NAME_MAX - 1) / 2;
        let tail = NAME_MAX - 1 - head;
        format!("{}…{}", chars[..head].iter().collect::<String>(), chars[chars.len() - tail..].iter().collect::<String>())
    };
    format!("{name}·{in_source}")
}

/// Partition `global` (the engine's number over every topic), which is partition `in_topic`
/// of topic `topic` (one of `topics` topics), as sentences name it: its number with one topic
/// (`11`), Kafka's `topic-N` (TopicPartition) with several (`rates-0`).
pub fn partition_name(topics: usize, topic: &str, in_topic: u32, global: u32) -> String {
    if topics <= 1 {
        return global.to_string();
    }
    format!("{topic}-{in_topic}")
}

#[cfg(test)]
mod tests {
    use super::{partition_name, source_subtask_name};

    #[test]
    fn a_partition_is_named_by_its_topic_when_there_are_several() {
        assert_eq!(partition_name(1, "orders", 11, 11), "11");
        assert_eq!(partition_name(2, "rates", 0, 4), "rates-0");
    }

    /// One source keeps its global number; with two, subtask 2 over both sources (the second
    /// source's first) is named by its source and its index there, as the live tables count.
    #[test]
    fn a_source_subtask_is_named_by_its_source_when_there_are_several() {
        assert_eq!(source_subtask_name(1, "orders", 3, 3), "3");
        assert_eq!(source_subtask_name(2, "orders", 1, 1), "orders·1");
        assert_eq!(source_subtask_name(2, "rates", 0, 2), "rates·0");
        // A real job's source vertices: Flink's `Source: ` left out, a long name cut.
        assert_eq!(source_subtask_name(3, "Source: events", 1, 1), "events·1");
        assert_eq!(source_subtask_name(2, "Source: KafkaSource-payments", 0, 2), "Kafka…yments·0");
        assert_eq!(source_subtask_name(2, "Source: KafkaSource-orders", 0, 2), "Kafka…orders·0");
        assert_eq!(source_subtask_name(2, "sensor-readings-a", 1, 3), "senso…ings-a·1");
    }
}
