//! The diagnosis as plain text (`wmp diagnose --text`): the headline, each finding with its
//! evidence, what to check and the fixes, each partition that is not steady, and the advice.

use super::diagnose::Diagnosis;
use super::finding::Severity;
use crate::engine::explain_text::holder_words;
use crate::engine::time::format_opt_duration_exact;
use std::fmt::Write;

pub fn render(d: &Diagnosis) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", d.headline);
    let (_, holds) = holder_words(d.explanation.as_ref().is_some_and(|e| e.ahead_of(d.now)));
    for f in &d.findings {
        let sev = match f.severity {
            Severity::Critical => "CRITICAL",
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        let _ = writeln!(
            out,
            "\n[{sev}] {}{}: {}",
            f.kind.name(),
            if f.holds_watermark { format!(" ({holds})") } else { String::new() },
            f.title
        );
        for e in &f.evidence {
            let _ = writeln!(out, "  - {}", e.text);
        }
        if !f.check.is_empty() {
            let _ = writeln!(out, "  check: {}", f.check);
        }
        for x in &f.fixes {
            let _ = writeln!(out, "  fix: {}{}", x.label, if x.restarts { " (restarts)" } else { "" });
        }
    }
    let odd: Vec<String> = d
        .partitions
        .iter()
        .filter(|p| p.class != super::classify::PartitionClass::Steady)
        .map(|p| format!("{} {}", p.partition, p.class.label()))
        .collect();
    if !odd.is_empty() {
        let _ = writeln!(out, "\npartitions: {}", odd.join(", "));
    }
    let a = &d.advice;
    let rec = |r: &super::advisor::Recommendation| {
        let cost = if r.cost.is_empty() { String::new() } else { format!("; {}", r.cost) };
        match r.recommended_ms {
            Some(v) if Some(v) == r.current_ms => format!("{} (keep: {}{cost})", format_opt_duration_exact(r.current_ms), r.basis),
            Some(v) => format!("{} → {} ({}{cost})", format_opt_duration_exact(r.current_ms), format_opt_duration_exact(Some(v)), r.basis),
            None => format!("{} (no advice: {})", format_opt_duration_exact(r.current_ms), r.basis),
        }
    };
    let _ = writeln!(
        out,
        "\nadvice:\n  bound {}\n  idle timeout {}\n  allowed lateness {}",
        rec(&a.bound),
        rec(&a.idle_timeout),
        rec(&a.allowed_lateness)
    );
    for c in &a.constraints {
        let _ = writeln!(out, "  {} {}", if c.recommended_ok { "✓" } else { "✗" }, c.text);
    }
    out
}
