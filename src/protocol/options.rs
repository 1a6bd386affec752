//! Engine options shared by both protocols: one table, two spellings (`option name … type …`
//! for UCI, `feature option="… -spin …"` for XBoard).

use thiserror::Error;

use crate::engine::eval::EvalParams;
use crate::engine::params::SearchParams;
use crate::engine::thread::{max_threads, MAX_THREADS};
use crate::engine::PLAY_CONTEMPT;
use crate::variants::VariantKind;

/// A numeric option's range.
#[derive(Copy, Clone, Debug)]
pub struct Spin {
    pub name: &'static str,
    pub default: i64,
    pub min: i64,
    pub max: i64,
}

pub const HASH: Spin = Spin {
    name: "Hash",
    default: 16,
    min: 1,
    max: 65536,
};
pub const THREADS: Spin = Spin {
    name: "Threads",
    default: 1,
    min: 1,
    max: MAX_THREADS as i64,
};

/// The `Threads` option as offered: at most one search thread per logical CPU of this machine
/// ([`max_threads`], issue 23).
pub fn threads() -> Spin {
    Spin {
        max: max_threads() as i64,
        ..THREADS
    }
}
pub const MULTIPV: Spin = Spin {
    name: "MultiPV",
    default: 1,
    min: 1,
    max: 64,
};
pub const MOVE_OVERHEAD: Spin = Spin {
    name: "Move Overhead",
    default: 30,
    min: 0,
    max: 5000,
};
/// Centipawns a draw costs the engine: a draw (repetition, the move-count rules, stalemate)
/// is scored −Contempt for the side to move at the root, so a positive value plays on in
/// positions somewhat worse than even rather than take a draw (against weaker opponents).
/// Default [`PLAY_CONTEMPT`] (50); 0 against a stronger opponent.
pub const CONTEMPT: Spin = Spin {
    name: "Contempt",
    default: PLAY_CONTEMPT as i64,
    min: -10_000,
    max: 10_000,
};
/// XBoard only: count ranks from 0 on 16-rank boards, for XBoard started with `-rankOffset 1`
/// (XBoard 4.9.1 misreads an engine's move from rank 16 otherwise).
pub const RANK_OFFSET: Spin = Spin {
    name: "Rank Offset",
    default: 0,
    min: 0,
    max: 1,
};
pub const PONDER: &str = "Ponder";
pub const UCI_VARIANT: &str = "UCI_Variant";
pub const CLEAR_HASH: &str = "Clear Hash";

impl Spin {
    /// Reads a value for this option; out of range is refused, never clamped.
    pub fn parse(&self, value: Option<&str>) -> Result<i64, OptionError> {
        let text = value.map(str::trim).unwrap_or("");
        let bad = || OptionError::Value {
            name: self.name.to_string(),
            value: text.to_string(),
            expected: format!("an integer from {} to {}", self.min, self.max),
        };
        let v: i64 = text.parse().map_err(|_| bad())?;
        if (self.min..=self.max).contains(&v) {
            Ok(v)
        } else {
            Err(bad())
        }
    }
    fn uci(&self) -> String {
        format!(
            "option name {} type spin default {} min {} max {}",
            self.name, self.default, self.min, self.max
        )
    }
    fn xboard(&self) -> String {
        format!(
            "feature option=\"{} -spin {} {} {}\"",
            xboard_name(self.name),
            self.default,
            self.min,
            self.max
        )
    }
}

/// An option's name in XBoard's `feature option=` lines: spaces as `_` (`Move_Overhead`), since
/// clients split the line on spaces (python-chess 1.11's `popen_xboard` read `Move Overhead`
/// as an option `Move`). XBoard's `option NAME=VALUE` is taken with either spelling.
pub fn xboard_name(name: &str) -> String {
    name.replace(' ', "_")
}

/// Why an option setting was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OptionError {
    #[error("unknown option {0:?}")]
    Unknown(String),
    #[error("invalid value {value:?} for {name}: expected {expected}")]
    Value {
        name: String,
        value: String,
        expected: String,
    },
}

/// What the session must do after an option changed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    None,
    /// Forget the transposition table.
    ClearHash,
    /// The variant changed: reset the game to its start position.
    Variant,
}

/// Every setting the protocols can change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub hash_mb: usize,
    pub threads: usize,
    pub ponder: bool,
    pub multipv: usize,
    pub move_overhead: u64,
    /// Centipawns, see [`CONTEMPT`].
    pub contempt: i32,
    pub variant: VariantKind,
    /// XBoard's `-rankOffset` (0 or 1) on boards of more than 10 ranks.
    pub rank_offset: u8,
    /// The evaluation's parameters: no protocol option, set from the command line
    /// (`--micro-values`, `--micro-gifts`, `--micro-terms`) before the session starts.
    pub eval: EvalParams,
    /// The search's constants: no protocol option either, set by `--search-params`.
    pub search: SearchParams,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            hash_mb: HASH.default as usize,
            threads: THREADS.default as usize,
            ponder: false,
            multipv: MULTIPV.default as usize,
            move_overhead: MOVE_OVERHEAD.default as u64,
            contempt: CONTEMPT.default as i32,
            variant: VariantKind::Chess,
            rank_offset: RANK_OFFSET.default as u8,
            eval: EvalParams::DEFAULT,
            search: SearchParams::DEFAULT,
        }
    }
}

fn parse_bool(name: &str, value: Option<&str>) -> Result<bool, OptionError> {
    match value.map(|v| v.trim().to_ascii_lowercase()).as_deref() {
        Some("true") | Some("1") | Some("on") => Ok(true),
        Some("false") | Some("0") | Some("off") => Ok(false),
        other => Err(OptionError::Value {
            name: name.to_string(),
            value: other.unwrap_or("").to_string(),
            expected: "true or false".into(),
        }),
    }
}

impl Settings {
    /// Sets an option by name (case-insensitive). On error nothing changes.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Effect, OptionError> {
        // Case-insensitive, `_` for a space (the XBoard spelling, `xboard_name`).
        let norm = |n: &str| n.trim().to_ascii_lowercase().replace('_', " ");
        let key = norm(name);
        let same = |n: &str| key == norm(n);
        if same(HASH.name) {
            self.hash_mb = HASH.parse(value)? as usize;
        } else if same(THREADS.name) {
            self.threads = threads().parse(value)? as usize;
        } else if same(MULTIPV.name) {
            self.multipv = MULTIPV.parse(value)? as usize;
        } else if same(MOVE_OVERHEAD.name) {
            self.move_overhead = MOVE_OVERHEAD.parse(value)? as u64;
        } else if same(CONTEMPT.name) {
            self.contempt = CONTEMPT.parse(value)? as i32;
        } else if same(RANK_OFFSET.name) {
            self.rank_offset = RANK_OFFSET.parse(value)? as u8;
        } else if same(PONDER) {
            self.ponder = parse_bool(PONDER, value)?;
        } else if same(CLEAR_HASH) {
            return Ok(Effect::ClearHash);
        } else if same(UCI_VARIANT) {
            let text = value.map(str::trim).unwrap_or("");
            let kind = VariantKind::from_name(text).ok_or_else(|| OptionError::Value {
                name: UCI_VARIANT.into(),
                value: text.to_string(),
                expected: format!("one of {}", variant_list(VariantKind::name, ", ")),
            })?;
            self.variant = kind;
            return Ok(Effect::Variant);
        } else {
            return Err(OptionError::Unknown(name.trim().to_string()));
        }
        Ok(Effect::None)
    }

    /// The `option name …` lines of the UCI handshake.
    pub fn uci_options() -> Vec<String> {
        let vars: String = VariantKind::ALL
            .iter()
            .map(|k| format!(" var {}", k.name()))
            .collect();
        vec![
            HASH.uci(),
            threads().uci(),
            format!("option name {PONDER} type check default false"),
            MULTIPV.uci(),
            MOVE_OVERHEAD.uci(),
            CONTEMPT.uci(),
            format!(
                "option name {UCI_VARIANT} type combo default {}{vars}",
                VariantKind::Chess.name()
            ),
            format!("option name {CLEAR_HASH} type button"),
        ]
    }

    /// The `feature option="…"` lines of the XBoard handshake. Hash, threads, pondering and the
    /// variant have XBoard commands of their own (`memory`, `cores`, `hard`/`easy`, `variant`).
    pub fn xboard_options() -> Vec<String> {
        vec![
            MOVE_OVERHEAD.xboard(),
            CONTEMPT.xboard(),
            MULTIPV.xboard(),
            RANK_OFFSET.xboard(),
            format!("feature option=\"{} -button\"", xboard_name(CLEAR_HASH)),
        ]
    }
}

/// The variant names joined, in one protocol's spelling.
pub fn variant_list(name: fn(VariantKind) -> &'static str, sep: &str) -> String {
    VariantKind::ALL
        .iter()
        .map(|&k| name(k))
        .collect::<Vec<_>>()
        .join(sep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spins_refuse_out_of_range_and_keep_state() {
        let mut s = Settings::default();
        assert!(s.set("Hash", Some("0")).is_err());
        assert!(s.set("hash", Some("65537")).is_err());
        assert!(s.set("Hash", Some("x")).is_err());
        assert!(s.set("Hash", None).is_err());
        assert_eq!(s, Settings::default());
        assert_eq!(s.set("hash", Some(" 64 ")), Ok(Effect::None));
        assert_eq!(s.hash_mb, 64);
        assert_eq!(s.set("move overhead", Some("0")), Ok(Effect::None));
        assert_eq!(s.move_overhead, 0);
    }

    #[test]
    fn checks_combos_buttons() {
        let mut s = Settings::default();
        assert_eq!(s.set("Ponder", Some("true")), Ok(Effect::None));
        assert!(s.ponder);
        assert!(s.set("Ponder", Some("maybe")).is_err());
        assert!(s.ponder);
        assert_eq!(s.set("UCI_Variant", Some("chess")), Ok(Effect::Variant));
        assert!(s.set("UCI_Variant", Some("shogi")).is_err());
        assert_eq!(s.set("Clear Hash", None), Ok(Effect::ClearHash));
        assert_eq!(
            s.set("Foo", Some("1")),
            Err(OptionError::Unknown("Foo".into()))
        );
    }

    #[test]
    fn handshake_lines() {
        let uci = Settings::uci_options();
        assert!(uci.contains(&"option name Hash type spin default 16 min 1 max 65536".to_string()));
        assert!(
            uci.contains(&"option name UCI_Variant type combo default chess var chess var recursion var microorganism var immune".to_string())
        );
        let xb = Settings::xboard_options();
        assert_eq!(
            xb,
            [
                "feature option=\"Move_Overhead -spin 30 0 5000\"",
                "feature option=\"Contempt -spin 50 -10000 10000\"",
                "feature option=\"MultiPV -spin 1 1 64\"",
                "feature option=\"Rank_Offset -spin 0 0 1\"",
                "feature option=\"Clear_Hash -button\"",
            ]
        );
        // Either spelling sets the option.
        let mut s = Settings::default();
        assert_eq!(s.set("Move_Overhead", Some("7")), Ok(Effect::None));
        assert_eq!(s.set("rank offset", Some("1")), Ok(Effect::None));
        assert_eq!((s.move_overhead, s.rank_offset), (7, 1));
        assert_eq!(s.set("Clear_Hash", None), Ok(Effect::ClearHash));
    }
}
