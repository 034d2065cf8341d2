//! `wmp export SCENARIO --out DIR [--sql]`: writes the scenario as a runnable Flink 2.3 job
//! (`engine::export`) into DIR, prints the notes (what the job does differently) to stderr and
//! the files written to stdout. Native only: it writes files.

use std::path::Path;
use wmp::engine::export::export_job;
use wmp::engine::scenario::build;

pub fn run(args: impl Iterator<Item = String>) -> Result<String, String> {
    let (mut out, mut file, mut sql) = (None, None, false);
    let mut args = args;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" => out = Some(args.next().ok_or("--out needs a directory")?),
            "--sql" => sql = true,
            _ if file.is_none() => file = Some(a),
            _ => return Err(format!("unexpected argument {a:?} (usage: wmp export SCENARIO --out DIR [--sql])")),
        }
    }
    let file = file.ok_or("usage: wmp export SCENARIO --out DIR [--sql]")?;
    let out = out.ok_or("wmp export needs --out DIR (the directory to write the project into)")?;
    let text = super::read_input(&file)?;
    let scenario = build::parse(&text).map_err(|e| format!("{file}: {e}"))?;
    let job = export_job(&scenario).map_err(|e| format!("{file}: {e}"))?;
    let root = Path::new(&out);
    let mut written = Vec::new();
    for f in &job.files {
        write(&root.join(&f.path), &f.text)?;
        written.push(f.path.clone());
    }
    if sql {
        match &job.sql {
            Some(text) => {
                write(&root.join("job.sql"), text)?;
                written.push("job.sql".into());
            }
            None => eprintln!("wmp: note: no SQL script: the scenario is not expressible as a Flink SQL job (see the notes)"),
        }
    }
    for n in &job.notes {
        eprintln!("wmp: note: {n}");
    }
    Ok(written.iter().map(|p| format!("{out}/{p}")).collect::<Vec<_>>().join("\n"))
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}
