//! Values over the full advertised ranges (issue 23, item 5).
//!
//! The options are read from the engine's own words (UCI `option name … type spin default D
//! min A max B`, XBoard `feature option="Name -spin D A B"`, `variants="…"`), so an option added
//! later is probed without touching this file. Every probe belongs to a *class*: a parameter
//! and a kind of value (its minimum, its maximum, one past each end, a value inside, a number
//! too big for any integer type, a negative one, no number at all, …) and for a search
//! parameter also the variant it searches in. Probes walk the classes round-robin, so a run of
//! enough inputs covers them all; the fuzzers print what they covered.
//!
//! Nothing is clamped: `Hash 65536`, `go depth 4294967295`, `go perft 4294967295`, `st
//! 99999999999` are sent as they are. The process runs under an address-space limit
//! ([`ADDRESS_MB`]), so the table sizes the machine cannot give are refused by the system, as
//! on a machine with that much memory.

use std::collections::BTreeMap;

/// The address space the fuzzed process may take, in MB (`FUZZ_ADDRESS_MB`): a small
/// machine's (a 1 GB VPS).
pub fn address_mb() -> u64 {
    std::env::var("FUZZ_ADDRESS_MB")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1024)
}

/// `program` (with the arguments added to the command) run under the address-space limit:
/// `sh -c 'ulimit -v KB && exec "$0" "$@"'`.
pub fn limited(program: impl AsRef<std::ffi::OsStr>) -> std::process::Command {
    let mut c = std::process::Command::new("sh");
    c.arg("-c")
        .arg(format!(
            "ulimit -v {} && exec \"$0\" \"$@\"",
            address_mb() * 1024
        ))
        .arg(program);
    c
}

/// An option as the engine advertises it.
#[derive(Clone, Debug)]
pub enum Adv {
    Spin { name: String, min: i64, max: i64 },
    Check { name: String },
    Combo { name: String, vars: Vec<String> },
    Button { name: String },
    Text { name: String },
}

/// The options of a UCI `uci` reply.
pub fn uci_options(lines: &[String]) -> Vec<Adv> {
    let mut out = Vec::new();
    for l in lines {
        let Some(rest) = l.strip_prefix("option name ") else {
            continue;
        };
        let Some((name, spec)) = rest.split_once(" type ") else {
            continue;
        };
        let toks: Vec<&str> = spec.split_whitespace().collect();
        let after = |key: &str| {
            toks.iter()
                .position(|t| *t == key)
                .and_then(|i| toks.get(i + 1))
                .and_then(|v| v.parse::<i64>().ok())
        };
        let name = name.to_string();
        out.push(match toks.first().copied() {
            Some("spin") => Adv::Spin {
                name,
                min: after("min").unwrap_or(0),
                max: after("max").unwrap_or(0),
            },
            Some("check") => Adv::Check { name },
            Some("combo") => Adv::Combo {
                name,
                vars: toks
                    .windows(2)
                    .filter(|w| w[0] == "var")
                    .map(|w| w[1].to_string())
                    .collect(),
            },
            Some("button") => Adv::Button { name },
            _ => Adv::Text { name },
        });
    }
    out
}

/// The `feature option="…"` options of an XBoard `protover 2` reply, and its `variants`.
pub fn xboard_features(lines: &[String]) -> (Vec<Adv>, Vec<String>) {
    let mut opts = Vec::new();
    let mut variants = Vec::new();
    for l in lines {
        let mut rest = l.as_str();
        while let Some(i) = rest.find("option=\"") {
            rest = &rest[i + 8..];
            let Some(end) = rest.find('"') else { break };
            let spec = &rest[..end];
            rest = &rest[end..];
            let Some(dash) = spec.find(" -") else {
                continue;
            };
            let name = spec[..dash].to_string();
            let toks: Vec<&str> = spec[dash + 1..].split_whitespace().collect();
            let num = |i: usize| toks.get(i).and_then(|v| v.parse::<i64>().ok()).unwrap_or(0);
            opts.push(match toks.first().copied() {
                Some("-spin") | Some("-slider") => Adv::Spin {
                    name,
                    min: num(2),
                    max: num(3),
                },
                Some("-check") => Adv::Check { name },
                Some("-combo") => Adv::Combo {
                    name,
                    vars: spec[dash + 1..]
                        .trim_start_matches("-combo")
                        .split("///")
                        .map(|v| v.trim().trim_start_matches('*').to_string())
                        .collect(),
                },
                Some("-button") | Some("-save") | Some("-reset") => Adv::Button { name },
                _ => Adv::Text { name },
            });
        }
        if let Some(i) = l.find("variants=\"") {
            let v = &l[i + 10..];
            if let Some(end) = v.find('"') {
                variants = v[..end].split(',').map(|s| s.trim().to_string()).collect();
            }
        }
    }
    (opts, variants)
}

/// Kinds of value for a parameter with a range.
const BOUNDED: &[&str] = &[
    "min",
    "max",
    "min-1",
    "max+1",
    "inside",
    "over u64",
    "negative",
    "not a number",
];
/// Kinds of value for a count or a time with no advertised bound (its type's range).
const UNBOUNDED: &[&str] = &[
    "0",
    "1",
    "small",
    "typical",
    "2^31 edge",
    "u32 max",
    "u64 max",
    "over u64",
    "negative",
    "not a number",
];

/// A deterministic source of choices (the fuzzer's per-input RNG passes through).
pub trait Pick {
    fn below(&mut self, n: usize) -> usize;
    fn u64(&mut self) -> u64;
}

fn in_range(rng: &mut dyn Pick, lo: i64, hi: i64) -> i64 {
    if hi <= lo {
        return lo;
    }
    // Log-uniform above `lo`, so large and small values both come.
    let span = (hi - lo) as u64;
    let bits = 64 - span.leading_zeros();
    let b = 1 + rng.below(bits as usize) as u32;
    let v = rng.u64() & (u64::MAX >> (64 - b));
    lo + (v % (span + 1)) as i64
}

fn junk(rng: &mut dyn Pick) -> String {
    ["x", "1e3", "0x10", "+-3", "1.5", "∞", "9 9", ""][rng.below(8)].to_string()
}

fn bounded_value(kind: &str, lo: i64, hi: i64, rng: &mut dyn Pick) -> String {
    match kind {
        "min" => lo.to_string(),
        "max" => hi.to_string(),
        "min-1" => (lo as i128 - 1).to_string(),
        "max+1" => (hi as i128 + 1).to_string(),
        "inside" => in_range(rng, lo, hi).to_string(),
        "over u64" => format!("{}{}", u64::MAX, rng.below(10)),
        "negative" => format!("-{}", 1 + in_range(rng, 0, 1 << 40)),
        _ => junk(rng),
    }
}

fn unbounded_value(kind: &str, rng: &mut dyn Pick) -> String {
    match kind {
        "0" => "0".into(),
        "1" => "1".into(),
        "small" => (2 + rng.below(99)).to_string(),
        "typical" => (100 + rng.below(100_000)).to_string(),
        "2^31 edge" => (2_147_483_646u64 + rng.below(3) as u64).to_string(),
        "u32 max" => (4_294_967_294u64 + rng.below(3) as u64).to_string(),
        "u64 max" => (u64::MAX - rng.below(2) as u64).to_string(),
        "over u64" => format!("{}{}", u64::MAX, rng.below(10)),
        "negative" => format!("-{}", 1 + rng.below(1 << 20)),
        _ => junk(rng),
    }
}

/// One class of probe: what it sends, parameterised by the value.
#[derive(Clone, Debug)]
struct Class {
    label: String,
    /// Lines before the probed one (`{}` is not used in them).
    before: Vec<String>,
    /// The probed line, `{}` standing for the value.
    line: String,
    /// Lines after it (XBoard's `go` after a time command).
    after: Vec<String>,
    kind: &'static str,
    range: Option<(i64, i64)>,
}

/// The probe classes of a protocol, from what the engine advertised.
pub struct Ranges {
    classes: Vec<Class>,
    next: usize,
    /// Per class label: probes sent, probes refused (an error line answered the probed line).
    pub seen: BTreeMap<String, (u64, u64)>,
}

/// One probe: the lines to send (the probed one is `lines[probed]`) and its class label.
pub struct Probe {
    pub lines: Vec<String>,
    pub probed: usize,
    pub label: String,
}

impl Ranges {
    /// UCI: every advertised option (spin over its range, checks, combos, buttons) and every
    /// numeric `go` parameter in every advertised variant (the `UCI_Variant` combo).
    pub fn uci(options: &[Adv]) -> Ranges {
        let mut classes = Vec::new();
        let mut variants = vec!["chess".to_string()];
        for o in options {
            if let Adv::Combo { name, vars } = o {
                if name == "UCI_Variant" {
                    variants = vars.clone();
                }
            }
            classes.extend(option_classes(
                o,
                "setoption",
                &["stop"],
                &["true", "false", "yes"],
                |n, v| match v {
                    Some(v) => format!("setoption name {n} value {v}"),
                    None => format!("setoption name {n}"),
                },
            ));
        }
        for var in &variants {
            for param in [
                "depth",
                "nodes",
                "movetime",
                "wtime",
                "btime",
                "winc",
                "binc",
                "movestogo",
                "mate",
                "perft",
            ] {
                for &k in UNBOUNDED {
                    classes.push(Class {
                        label: format!("go {param} = {k} ({var})"),
                        before: vec![
                            "stop".into(),
                            format!("setoption name UCI_Variant value {var}"),
                            "position startpos".into(),
                        ],
                        line: format!("go {param} {{}}"),
                        after: vec![],
                        kind: k,
                        range: None,
                    });
                }
            }
        }
        Ranges::of(classes)
    }

    /// XBoard: every `feature option`, `memory` and `cores` over the UCI ranges of Hash and
    /// Threads (the same settings), and `level`, `st`, `sd`, `time`, `otim` before a `go` in
    /// every advertised variant.
    pub fn xboard(
        options: &[Adv],
        variants: &[String],
        hash: (i64, i64),
        threads: (i64, i64),
    ) -> Ranges {
        let mut classes = Vec::new();
        for (cmd, range) in [("memory", hash), ("cores", threads)] {
            classes.extend(bounded(cmd, &[], &format!("{cmd} {{}}"), range));
        }
        for o in options {
            classes.extend(option_classes(
                o,
                "option",
                &[],
                &["1", "0", "2"],
                |n, v| match v {
                    Some(v) => format!("option {n}={v}"),
                    None => format!("option {n}"),
                },
            ));
        }
        for var in variants {
            for (param, line) in [
                ("level moves", "level {} 5 0"),
                ("level minutes", "level 40 {} 0"),
                ("level m:ss", "level 0 1:{} 0"),
                ("level increment", "level 0 1 {}"),
                ("st", "st {}"),
                ("sd", "sd {}"),
                ("time", "time {}"),
                ("otim", "otim {}"),
            ] {
                for &k in UNBOUNDED {
                    classes.push(Class {
                        label: format!("{param} = {k} ({var})"),
                        before: vec!["new".into(), format!("variant {var}")],
                        line: line.to_string(),
                        after: vec!["go".into()],
                        kind: k,
                        range: None,
                    });
                }
            }
        }
        Ranges::of(classes)
    }

    fn of(classes: Vec<Class>) -> Ranges {
        Ranges {
            classes,
            next: 0,
            seen: BTreeMap::new(),
        }
    }

    /// The next class's probe, its value drawn with `rng`.
    pub fn probe(&mut self, rng: &mut dyn Pick) -> Probe {
        let c = self.classes[self.next % self.classes.len()].clone();
        self.next += 1;
        let value = match c.range {
            Some((lo, hi)) => bounded_value(c.kind, lo, hi, rng),
            None if c.kind.is_empty() => String::new(),
            None => unbounded_value(c.kind, rng),
        };
        let mut lines = c.before.clone();
        let probed = lines.len();
        lines.push(c.line.replace("{}", &value));
        lines.extend(c.after.iter().cloned());
        Probe {
            lines,
            probed,
            label: c.label,
        }
    }

    /// Counts a probe's outcome.
    pub fn record(&mut self, label: &str, refused: bool) {
        let e = self.seen.entry(label.to_string()).or_default();
        e.0 += 1;
        e.1 += refused as u64;
    }

    /// One line per parameter: its classes covered, probes and refusals; then a check that
    /// every class was probed (when enough probes ran).
    pub fn report(&self, name: &str) {
        let mut per: BTreeMap<String, (usize, u64, u64)> = BTreeMap::new();
        for (label, (n, r)) in &self.seen {
            let param = label.split(" = ").next().unwrap_or(label);
            let param = param.split(" (").next().unwrap_or(param).to_string();
            let e = per.entry(param).or_default();
            e.0 += 1;
            e.1 += n;
            e.2 += r;
        }
        println!(
            "fuzz {name}: {} of {} value classes probed (parameter × kind of value × variant)",
            self.seen.len(),
            self.classes.len()
        );
        for (param, (classes, n, r)) in &per {
            println!("  {param:<24} {classes:>3} classes {n:>6} probes {r:>6} refused");
        }
        if std::env::var_os("FUZZ_DETAIL").is_some() {
            for (label, (n, r)) in &self.seen {
                println!("    {label:<44} {n:>5} probes {r:>5} refused");
            }
        }
        if self.next >= self.classes.len() {
            assert_eq!(
                self.seen.len(),
                self.classes.len(),
                "fuzz {name}: every class probed"
            );
        }
    }
}

/// The classes of an advertised option: `set(name, value)` spells the protocol's line
/// (`None`: a button); checks get `checks`, combos each choice and one unknown.
fn option_classes(
    o: &Adv,
    word: &str,
    before: &[&str],
    checks: &[&str],
    set: impl Fn(&str, Option<&str>) -> String,
) -> Vec<Class> {
    let fixed_of = |name: &str, v: &str| fixed(format!("{word} {name} = {v}"), set(name, Some(v)));
    match o {
        Adv::Spin { name, min, max } => bounded(
            &format!("{word} {name}"),
            before,
            &set(name, Some("{}")),
            (*min, *max),
        ),
        Adv::Check { name } => checks.iter().map(|v| fixed_of(name, v)).collect(),
        Adv::Combo { name, vars } => vars
            .iter()
            .map(String::as_str)
            .chain(["no-such-var"])
            .map(|v| fixed_of(name, v))
            .collect(),
        Adv::Button { name } => vec![fixed(format!("{word} {name} (button)"), set(name, None))],
        Adv::Text { name } => vec![fixed_of(name, "some text")],
    }
}

/// The classes of a parameter with a range: `line` with `{}` for the value.
fn bounded(label: &str, before: &[&str], line: &str, range: (i64, i64)) -> Vec<Class> {
    BOUNDED
        .iter()
        .map(|&k| Class {
            label: format!("{label} = {k}"),
            before: before.iter().map(|b| b.to_string()).collect(),
            line: line.to_string(),
            after: vec![],
            kind: k,
            range: Some(range),
        })
        .collect()
}

fn fixed(label: String, line: String) -> Class {
    Class {
        label,
        before: vec![],
        line,
        after: vec![],
        kind: "",
        range: None,
    }
}
