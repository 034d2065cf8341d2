//! The controls drawer: topology, watermark strategy, windows and sink, flow control and the
//! Flink version, and injecting events.
//! Live changes apply at once (as engine commands, recorded for export); structural ones
//! (parallelism, window shape, timestamp assigner) restart the scenario, marked ↻.

pub mod field;
pub mod flow;
pub mod inject;
pub mod params;
pub mod topology;

use leptos::prelude::*;

#[component]
pub fn ControlsPanel() -> impl IntoView {
    view! {
        <div class="controls" id="controls">
            <params::StrategyControls />
            <params::WindowControls />
            <topology::TopologyControls />
            <flow::FlowControls />
            <inject::InjectControls />
            <inject::GeneratorControls />
        </div>
    }
}
