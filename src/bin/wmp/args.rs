//! The command line's words: the subcommands, the flags each one takes, and the parser that reads
//! `--flag value`, `--flag=value`, `--` (what follows is a file even if it looks like a flag) and
//! the one FILE. Arguments are `OsString`s: a file name is bytes on Unix, and `std::env::args`
//! panics on one that is not UTF-8. Every mistake is one line naming the flag and the subcommand.

use std::ffi::{OsStr, OsString};

/// The subcommands and their usage lines, in the order `wmp --help` lists them.
pub const COMMANDS: &[(&str, &str)] = &[
    ("run", "wmp run [--format native|oracle|oracle2|oracle3] [--trace] FILE|-"),
    ("validate", "wmp validate [--format native|oracle|oracle2|oracle3] FILE|-"),
    ("diagnose", "wmp diagnose [--at MS] [--text] FILE|-"),
    ("serve", "wmp serve [--speed N] [--port P] [--until MS] FILE|-"),
    ("sql", "wmp sql [--base SCENARIO | --preset ID] SQLFILE|-"),
    ("export", "wmp export SCENARIO|- --out DIR [--sql] [--force]"),
];

/// The usage on one line (for an error: it must stay one stderr line).
pub fn usage_line() -> String {
    let lines: Vec<&str> = COMMANDS.iter().map(|c| c.1).collect();
    format!("usage: {} · wmp --help · wmp --version", lines.join(" · "))
}

/// The usage, one subcommand a line (`wmp --help`, on stdout).
pub fn help() -> String {
    let lines: Vec<String> = COMMANDS.iter().map(|c| format!("  {}", c.1)).collect();
    format!(
        "usage:\n{}\n  wmp help | --help | -h\n  wmp --version | -V\nFILE - reads stdin. docs: README.md (The command-line runner), docs/SERVE.md, docs/EXPORT.md, docs/SQL.md",
        lines.join("\n")
    )
}

/// One subcommand's usage line.
pub fn usage_of(cmd: &str) -> &'static str {
    COMMANDS.iter().find(|c| c.0 == cmd).map_or("", |c| c.1)
}

/// A flag: its name, what its value is (`None`: a switch) and the subcommands that take it.
struct Flag {
    name: &'static str,
    value: Option<&'static str>,
    commands: &'static [&'static str],
}

const FLAGS: &[Flag] = &[
    Flag { name: "--format", value: Some("native, oracle, oracle2 or oracle3"), commands: &["run", "validate"] },
    Flag { name: "--trace", value: None, commands: &["run"] },
    Flag { name: "--at", value: Some("a time in ms >= 0"), commands: &["diagnose"] },
    Flag { name: "--text", value: None, commands: &["diagnose"] },
    Flag { name: "--speed", value: Some("a number of simulated ms per wall-clock ms"), commands: &["serve"] },
    Flag { name: "--port", value: Some("a port number"), commands: &["serve"] },
    Flag { name: "--until", value: Some("a time in ms >= 0"), commands: &["serve"] },
    Flag { name: "--base", value: Some("a scenario file"), commands: &["sql"] },
    Flag { name: "--preset", value: Some("a preset id"), commands: &["sql"] },
    Flag { name: "--out", value: Some("a directory"), commands: &["export"] },
    Flag { name: "--sql", value: None, commands: &["export"] },
    Flag { name: "--force", value: None, commands: &["export"] },
];

/// A subcommand's arguments, read and checked against its flags.
#[derive(Debug, Default)]
pub struct Args {
    pub cmd: String,
    values: Vec<(&'static str, OsString)>,
    switches: Vec<&'static str>,
    file: Option<OsString>,
    /// `--help` or `-h` was among them (before `--`): nothing else is read then.
    pub help: bool,
}

impl Args {
    /// A flag's value, as given (a path need not be UTF-8).
    pub fn os(&self, flag: &str) -> Option<&OsStr> {
        self.values.iter().find(|v| v.0 == flag).map(|v| v.1.as_os_str())
    }

    /// A flag's value as text (bytes that are not UTF-8 become U+FFFD, and fail the value's check).
    pub fn text(&self, flag: &str) -> Option<String> {
        self.os(flag).map(|v| v.to_string_lossy().into_owned())
    }

    pub fn switch(&self, flag: &str) -> bool {
        self.switches.contains(&flag)
    }

    /// The FILE (or `-`), required: without it, the subcommand's usage.
    pub fn file(&self) -> Result<&OsStr, String> {
        self.file.as_deref().ok_or_else(|| format!("{} needs a FILE (or - for stdin): usage: {}", self.cmd, usage_of(&self.cmd)))
    }

    /// An error for this subcommand, with its usage line.
    fn error(&self, what: String) -> String {
        format!("{}: {what} (usage: {})", self.cmd, usage_of(&self.cmd))
    }
}

/// Reads `cmd`'s arguments: its flags (`--flag value` or `--flag=value`, each at most once), one
/// FILE, `--help`. A flag of another subcommand is named as such; an unknown one as unknown.
pub fn parse(cmd: &str, args: impl IntoIterator<Item = OsString>) -> Result<Args, String> {
    let args: Vec<OsString> = args.into_iter().collect();
    if asks_help(&args) {
        return Ok(Args { cmd: cmd.to_string(), help: true, ..Args::default() });
    }
    let mut out = Args { cmd: cmd.to_string(), ..Args::default() };
    let mut args = args.into_iter();
    let mut only_files = false;
    while let Some(arg) = args.next() {
        if !only_files && arg == "--" {
            only_files = true;
            continue;
        }
        let word = if only_files { None } else { flag_word(&arg) };
        let Some((name, inline)) = word else {
            if out.file.is_some() {
                return Err(out.error(format!("unexpected argument {:?}: give one FILE", arg.to_string_lossy())));
            }
            out.file = Some(arg);
            continue;
        };
        let flag = flag_of(cmd, &name).map_err(|e| out.error(e))?;
        if out.switches.contains(&flag.name) || out.values.iter().any(|v| v.0 == flag.name) {
            return Err(out.error(format!("{} is given twice", flag.name)));
        }
        match (flag.value, inline) {
            (None, None) => out.switches.push(flag.name),
            (None, Some(_)) => return Err(out.error(format!("{} takes no value", flag.name))),
            (Some(_), Some(value)) => out.values.push((flag.name, value)),
            (Some(what), None) => {
                let value = args.next().ok_or_else(|| out.error(format!("{} needs {what}", flag.name)))?;
                // `--out --force` made a directory named "--force": a flag is no value.
                if FLAGS.iter().any(|f| value == f.name) {
                    let v = value.to_string_lossy();
                    return Err(out.error(format!("{} needs {what}, got the flag {v} (write {}={v} if you mean it)", flag.name, flag.name)));
                }
                out.values.push((flag.name, value));
            }
        }
    }
    Ok(out)
}

/// Whether `--help` or `-h` is among the words before `--`. Asked for anywhere, help wins over
/// every mistake in the other words (`wmp run --bogus --help`), as in common CLIs: whoever asks
/// for help may not know the flags yet.
fn asks_help(args: &[OsString]) -> bool {
    args.iter().take_while(|a| *a != "--").filter_map(|a| flag_word(a)).any(|(name, _)| name == "--help" || name == "-h")
}

/// The flag `name` as `cmd` takes it, or why not: another subcommand's, or unknown.
fn flag_of(cmd: &str, name: &str) -> Result<&'static Flag, String> {
    let flag = FLAGS.iter().find(|f| f.name == name).ok_or_else(|| format!("unknown flag {name}"))?;
    if flag.commands.contains(&cmd) {
        return Ok(flag);
    }
    Err(format!("{name} is a flag of {}, not of {cmd}", flag.commands.join(" and ")))
}

/// A word that is a flag: its name and, for `--flag=value`, the value. `-` alone is stdin, a
/// FILE; any other word starting with `-` is a flag (a file named so goes after `--`).
fn flag_word(arg: &OsStr) -> Option<(String, Option<OsString>)> {
    let bytes = arg.as_encoded_bytes();
    if bytes.len() < 2 || bytes[0] != b'-' {
        return None;
    }
    match bytes.iter().position(|&b| b == b'=').filter(|_| bytes.starts_with(b"--")) {
        Some(eq) => Some((String::from_utf8_lossy(&bytes[..eq]).into_owned(), Some(after_equals(arg, eq)))),
        None => Some((arg.to_string_lossy().into_owned(), None)),
    }
}

/// The bytes after `=` at `eq` (`--out=DIR`): exactly, where a path is bytes (Unix).
#[cfg(unix)]
fn after_equals(arg: &OsStr, eq: usize) -> OsString {
    use std::os::unix::ffi::OsStrExt;
    OsStr::from_bytes(&arg.as_bytes()[eq + 1..]).to_os_string()
}

/// Elsewhere (wasm32 builds the binary for the tests; Windows), as text.
#[cfg(not(unix))]
fn after_equals(arg: &OsStr, eq: usize) -> OsString {
    OsString::from(String::from_utf8_lossy(&arg.as_encoded_bytes()[eq + 1..]).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[&str]) -> Vec<OsString> {
        w.iter().map(OsString::from).collect()
    }

    #[test]
    fn flags_take_values_both_ways_once_and_only_on_their_subcommand() {
        let a = parse("diagnose", words(&["--at=5", "--text", "f.json"])).unwrap();
        assert_eq!((a.text("--at").as_deref(), a.switch("--text"), a.file().unwrap()), (Some("5"), true, OsStr::new("f.json")));
        assert!(parse("run", words(&["--at", "5", "f"])).unwrap_err().contains("--at is a flag of diagnose, not of run"));
        assert!(parse("run", words(&["--bogus", "f"])).unwrap_err().contains("unknown flag --bogus"));
        assert!(parse("export", words(&["--out", "a", "--out=b", "f"])).unwrap_err().contains("--out is given twice"));
        assert!(parse("run", words(&["--trace=1", "f"])).unwrap_err().contains("--trace takes no value"));
        assert!(parse("run", words(&["--format"])).unwrap_err().contains("--format needs"));
        assert_eq!(parse("run", words(&["--", "--trace"])).unwrap().file().unwrap(), "--trace");
        assert_eq!(parse("run", words(&["-"])).unwrap().file().unwrap(), "-");
        assert!(parse("run", words(&["-h"])).unwrap().help);
        assert!(parse("export", words(&["--bogus", "--out", "--help"])).unwrap().help, "help wins over the mistakes around it");
        assert_eq!(parse("run", words(&["--", "--help"])).unwrap().file().unwrap(), "--help", "after --, a file");
    }
}
