//! What the command line says about engines and time controls.
//!
//! An engine is `KEY=VALUE,KEY=VALUE,…` (values cannot contain commas):
//!
//! | key | meaning |
//! | --- | --- |
//! | `cmd=PATH` | the program to start (required unless `builtin=`) |
//! | `arg=A` | one command-line argument (repeatable, in order) |
//! | `dir=DIR` | working directory |
//! | `proto=uci\|xboard` | its protocol (default `uci`) |
//! | `name=N` | the name in PGN and reports (default: from the engine, else the file name) |
//! | `option.NAME=VALUE` | an option: UCI `setoption name NAME value VALUE`, XBoard `option NAME=VALUE` |
//! | `tc=…`, `depth=N`, `nodes=N`, `st=S` | this engine's own limit (else the match's) |
//! | `builtin=random` | the built-in uniformly random mover (no process) |

use std::path::PathBuf;

use crate::core::Protocol;

/// How long an engine may think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// A clock: `base_ms` for the game, `inc_ms` added after each move.
    Clock { base_ms: u64, inc_ms: u64 },
    /// Fixed search depth in plies.
    Depth(u32),
    /// Fixed node count.
    Nodes(u64),
    /// Fixed time per move.
    MoveTime { ms: u64 },
}

/// Seconds (fractional allowed) as milliseconds.
fn secs_ms(s: &str) -> Option<u64> {
    let v: f64 = s.trim().parse().ok()?;
    (v.is_finite() && (0.0..1e8).contains(&v)).then(|| (v * 1000.0).round() as u64)
}

impl Limit {
    /// Reads a clock `BASE[+INC]` in seconds (`10`, `10+0.1`, `1:30+1`).
    pub fn parse_tc(text: &str) -> Result<Limit, String> {
        let bad = || format!("bad time control {text:?} (expected BASE or BASE+INC in seconds)");
        let (base, inc) = match text.split_once('+') {
            Some((b, i)) => (b, i),
            None => (text, "0"),
        };
        let base_ms = match base.split_once(':') {
            Some((m, s)) => {
                let m: u64 = m.trim().parse().map_err(|_| bad())?;
                m * 60_000 + secs_ms(s).ok_or_else(bad)?
            }
            None => secs_ms(base).ok_or_else(bad)?,
        };
        let inc_ms = secs_ms(inc).ok_or_else(bad)?;
        if base_ms == 0 && inc_ms == 0 {
            return Err(bad());
        }
        Ok(Limit::Clock { base_ms, inc_ms })
    }

    /// Reads one `KEY=VALUE` limit (`tc`, `depth`, `nodes`, `st`); `Ok(None)` for other keys.
    pub fn parse_key(key: &str, value: &str) -> Result<Option<Limit>, String> {
        let num = |what: &str| -> Result<u64, String> {
            value
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("{what} must be a positive integer, got {value:?}"))
        };
        Ok(Some(match key {
            "tc" => Limit::parse_tc(value)?,
            "depth" => Limit::Depth(num("depth")?.min(u32::MAX as u64) as u32),
            "nodes" => Limit::Nodes(num("nodes")?),
            "st" => Limit::MoveTime {
                ms: secs_ms(value)
                    .filter(|&ms| ms > 0)
                    .ok_or_else(|| format!("st must be positive seconds, got {value:?}"))?,
            },
            _ => return Ok(None),
        }))
    }

    /// The PGN `TimeControl` tag value.
    pub fn pgn_tag(&self) -> String {
        let secs = |ms: u64| {
            if ms.is_multiple_of(1000) {
                format!("{}", ms / 1000)
            } else {
                format!("{}", ms as f64 / 1000.0)
            }
        };
        match *self {
            Limit::Clock { base_ms, inc_ms: 0 } => secs(base_ms),
            Limit::Clock { base_ms, inc_ms } => format!("{}+{}", secs(base_ms), secs(inc_ms)),
            Limit::MoveTime { ms } => format!("{}/move", secs(ms)),
            Limit::Depth(_) | Limit::Nodes(_) => "-".into(),
        }
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Limit::Clock { .. } => write!(f, "tc={}", self.pgn_tag()),
            Limit::Depth(d) => write!(f, "depth={d}"),
            Limit::Nodes(n) => write!(f, "nodes={n}"),
            Limit::MoveTime { ms } => write!(f, "st={}", ms as f64 / 1000.0),
        }
    }
}

/// A built-in player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Builtin {
    /// Plays a uniformly random legal move (seeded).
    Random,
}

/// One engine of the match.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// `None` for a built-in player.
    pub cmd: Option<PathBuf>,
    pub args: Vec<String>,
    pub dir: Option<PathBuf>,
    pub protocol: Protocol,
    pub name: Option<String>,
    pub options: Vec<(String, String)>,
    pub limit: Option<Limit>,
    pub builtin: Option<Builtin>,
}

impl EngineSpec {
    /// Reads `cmd=PATH,proto=uci,name=X,option.Hash=16,…` or `builtin=random`.
    pub fn parse(text: &str) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            cmd: None,
            args: Vec::new(),
            dir: None,
            protocol: Protocol::Uci,
            name: None,
            options: Vec::new(),
            limit: None,
            builtin: None,
        };
        for part in text.split(',').filter(|p| !p.trim().is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("engine {text:?}: expected KEY=VALUE, got {part:?}"))?;
            let key = key.trim();
            if let Some(l) = Limit::parse_key(key, value)? {
                spec.limit = Some(l);
                continue;
            }
            match key {
                "cmd" => spec.cmd = Some(PathBuf::from(value)),
                "arg" => spec.args.push(value.to_string()),
                "dir" => spec.dir = Some(PathBuf::from(value)),
                "name" => spec.name = Some(value.to_string()),
                "proto" => {
                    spec.protocol = match value.trim().to_ascii_lowercase().as_str() {
                        "uci" => Protocol::Uci,
                        "xboard" | "cecp" => Protocol::Xboard,
                        _ => return Err(format!("unknown protocol {value:?} (uci or xboard)")),
                    }
                }
                "builtin" => {
                    spec.builtin = match value.trim() {
                        "random" => Some(Builtin::Random),
                        _ => return Err(format!("unknown built-in player {value:?} (random)")),
                    }
                }
                k => match k.strip_prefix("option.") {
                    Some(name) if !name.is_empty() => {
                        spec.options.push((name.to_string(), value.to_string()))
                    }
                    _ => return Err(format!("engine {text:?}: unknown key {k:?}")),
                },
            }
        }
        match (&spec.cmd, spec.builtin) {
            (None, None) => Err(format!("engine {text:?}: needs cmd=PATH or builtin=random")),
            (Some(_), Some(_)) => Err(format!(
                "engine {text:?}: cmd and builtin exclude each other"
            )),
            _ => Ok(spec),
        }
    }

    /// The name used before the engine has told its own.
    pub fn default_name(&self) -> String {
        if let Some(n) = &self.name {
            return n.clone();
        }
        match (&self.cmd, self.builtin) {
            (_, Some(Builtin::Random)) => "random".into(),
            (Some(c), _) => c
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| c.display().to_string()),
            (None, None) => "engine".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            Limit::parse_tc("10"),
            Ok(Limit::Clock {
                base_ms: 10_000,
                inc_ms: 0
            })
        );
        assert_eq!(
            Limit::parse_tc("10+0.1"),
            Ok(Limit::Clock {
                base_ms: 10_000,
                inc_ms: 100
            })
        );
        assert_eq!(
            Limit::parse_tc("1:30+1"),
            Ok(Limit::Clock {
                base_ms: 90_000,
                inc_ms: 1000
            })
        );
        assert!(Limit::parse_tc("0").is_err());
        assert!(Limit::parse_tc("ten").is_err());
        assert!(Limit::parse_tc("10+x").is_err());
        assert_eq!(Limit::parse_key("depth", "3"), Ok(Some(Limit::Depth(3))));
        assert_eq!(
            Limit::parse_key("nodes", "200"),
            Ok(Some(Limit::Nodes(200)))
        );
        assert_eq!(
            Limit::parse_key("st", "0.5"),
            Ok(Some(Limit::MoveTime { ms: 500 }))
        );
        assert!(Limit::parse_key("depth", "0").is_err());
        assert_eq!(Limit::parse_key("name", "x"), Ok(None));
        assert_eq!(Limit::parse_tc("10+0.1").unwrap().pgn_tag(), "10+0.1");
        assert_eq!(Limit::parse_tc("60").unwrap().pgn_tag(), "60");
    }

    #[test]
    fn engine_specs() {
        let e = EngineSpec::parse(
            "cmd=/bin/eng,proto=xboard,name=X,option.Hash=16,arg=-v,arg=2,depth=4",
        )
        .unwrap();
        assert_eq!(e.cmd, Some(PathBuf::from("/bin/eng")));
        assert_eq!(e.protocol, Protocol::Xboard);
        assert_eq!(e.name.as_deref(), Some("X"));
        assert_eq!(e.options, vec![("Hash".to_string(), "16".to_string())]);
        assert_eq!(e.args, vec!["-v", "2"]);
        assert_eq!(e.limit, Some(Limit::Depth(4)));
        let r = EngineSpec::parse("builtin=random").unwrap();
        assert_eq!(r.builtin, Some(Builtin::Random));
        assert_eq!(r.default_name(), "random");
        assert_eq!(
            EngineSpec::parse("cmd=/usr/bin/stockfish")
                .unwrap()
                .default_name(),
            "stockfish"
        );
        assert!(EngineSpec::parse("proto=uci").is_err());
        assert!(EngineSpec::parse("cmd=a,builtin=random").is_err());
        assert!(EngineSpec::parse("cmd=a,proto=ucci").is_err());
        assert!(EngineSpec::parse("cmd=a,colour=red").is_err());
        assert!(EngineSpec::parse("cmd=a,option.=1").is_err());
        assert!(EngineSpec::parse("builtin=stockfish").is_err());
    }
}
