//! Flink's metric ids as the REST metrics endpoints name them: `<subtask>.<name>` (task scope),
//! `<subtask>.<operator>.<name>` (operator scope) and
//! `<subtask>.<operator>.split.<split id>.watermark.<name>` (a source's per-split watermark
//! group, Flink 2.1+). Operator names are the ones in the vertex name with `:` and spaces
//! replaced by `_` (`Source: events` → `Source__events`).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope<'a> {
    Task,
    Operator(&'a str),
    Split { operator: &'a str, split: &'a str },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetricId<'a> {
    pub subtask: u32,
    pub scope: Scope<'a>,
    pub name: &'a str,
}

/// Reads `id`; `None` when it does not start with a subtask index.
pub fn parse(id: &str) -> Option<MetricId<'_>> {
    let (subtask, rest) = id.split_once('.')?;
    let subtask = subtask.parse().ok()?;
    let Some((middle, name)) = rest.rsplit_once('.') else {
        return Some(MetricId { subtask, scope: Scope::Task, name: rest });
    };
    let scope = match middle.strip_suffix(".watermark").and_then(|m| m.split_once(".split.")) {
        Some((operator, split)) => Scope::Split { operator, split },
        None => Scope::Operator(middle),
    };
    Some(MetricId { subtask, scope, name })
}

/// The operator names of a vertex name (`A -> B`) as metric ids spell them, head first.
pub fn chain_operators(vertex_name: &str) -> Vec<String> {
    vertex_name.split(" -> ").map(|op| op.replace([':', ' '], "_")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_are_told_apart() {
        assert_eq!(parse("0.numRecordsIn"), Some(MetricId { subtask: 0, scope: Scope::Task, name: "numRecordsIn" }));
        assert_eq!(
            parse("1.Window(TumblingEventTimeWindows(10000)).currentInputWatermark").unwrap().scope,
            Scope::Operator("Window(TumblingEventTimeWindows(10000))")
        );
        let split = parse("1.Source__events.split.split-1.watermark.currentWatermark").unwrap();
        assert_eq!(split.scope, Scope::Split { operator: "Source__events", split: "split-1" });
        assert_eq!(split.name, "currentWatermark");
        assert_eq!(parse("x.numRecordsIn"), None);
        assert_eq!(chain_operators("Window(X) -> Results: Writer"), ["Window(X)", "Results__Writer"]);
    }
}
