//! Preset scenarios from the seed documents, shared by the UI and the JS API. Each preset is a
//! scenario file under `presets/` plus a short text: what to look at and what to try.

/// One preset.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    pub id: &'static str,
    pub title: &'static str,
    /// What the scenario shows.
    pub summary: &'static str,
    /// What to look at in the playground.
    pub look_at: &'static str,
    /// What to try (the fix), as a sentence.
    pub try_this: &'static str,
    /// The Flink documentation, issue or seed it mirrors.
    pub source: &'static str,
    /// The scenario JSON.
    pub json: &'static str,
}

static PRESETS: &[Preset] = &[Preset {
    id: "seed-001-heartbeat",
    title: "Seed 001: one heartbeat partition freezes every window",
    summary: "16 partitions, parallelism 8; partition 11 gets one heartbeat every 90 minutes. Windows stall, then fire in a burst.",
    look_at: "Partition 11's split watermark holds source subtask's output, and through it every window subtask's channel.",
    try_this: "Set the idle timeout to 60 s: windows fire every minute. Then retire the heartbeat producer with idleness off: nothing ever fires.",
    source: "seeds/001 (Confluent Cloud clickstream, table.exec.source.idle-timeout)",
    json: include_str!("../../../presets/seed_001_heartbeat.json"),
}];

/// All presets, in menu order.
pub fn presets() -> &'static [Preset] {
    PRESETS
}

/// A preset by id.
pub fn preset(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_and_builds() {
        for p in presets() {
            let sc = super::super::build::parse(p.json).unwrap_or_else(|e| panic!("{}: {e}", p.id));
            sc.build().unwrap_or_else(|e| panic!("{}: {e}", p.id));
        }
    }
}
