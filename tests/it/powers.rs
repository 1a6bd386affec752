//! Pieces as data, for real: every bit of `Powers` is given to some piece and read by some
//! generator. A bit that no rule reads is dead data and must be deleted (or read).
//!
//! The check is textual: each `Powers` constant defined in `src/core/piece.rs` must be named,
//! outside comments, in the rules code of some variant (`src/variants/*/`, the piece-definition
//! files `pieces.rs` and the unit tests excluded). Deleting the last read of a bit fails it.

use std::collections::BTreeMap;
use std::path::Path;

use cellmate::core::Powers;
use cellmate::variants::recursion::MegaState;
use cellmate::variants::{chess, immune, micro};

/// The `Powers` bits defined in src/core/piece.rs, by name.
fn defined_bits() -> BTreeMap<String, u32> {
    let src = std::fs::read_to_string("src/core/piece.rs").expect("read piece.rs");
    let mut bits = BTreeMap::new();
    for line in src.lines() {
        let line = line.trim();
        let Some(rest) = line.strip_prefix("pub const ") else {
            continue;
        };
        let Some((name, value)) = rest.split_once(": Powers = Powers(1 << ") else {
            continue;
        };
        let shift: u32 = value.trim_end_matches(");").parse().expect("bit number");
        bits.insert(name.to_string(), shift);
    }
    bits
}

/// The rules code of every variant, comments removed.
fn generator_sources() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in std::fs::read_dir("src/variants").expect("src/variants") {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            let name = f.file_name().unwrap().to_string_lossy().to_string();
            if f.extension().is_some_and(|e| e == "rs") && name != "pieces.rs" && name != "tests.rs"
            {
                out.push((f.display().to_string(), strip_comments(&f)));
            }
        }
    }
    out
}

fn strip_comments(p: &Path) -> String {
    let src = std::fs::read_to_string(p).unwrap();
    src.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every power some piece of some variant is given: the variants' constant `PieceDef` lists
/// (and Microorganism's gifts, MC-7), or (Recursion's mega-knight, IR-4) the state its
/// variant marks it with.
fn given_powers() -> u32 {
    let by_type = chess::PIECES
        .iter()
        .chain(&micro::PIECES)
        .chain(&micro::GIFTS)
        .chain(&immune::PIECES)
        .fold(0, |all, d| all | d.powers.0);
    MegaState::ALL
        .iter()
        .fold(by_type, |all, s| all | s.powers().0)
}

#[test]
fn the_bits_are_distinct() {
    let bits = defined_bits();
    assert!(bits.len() >= 10, "parsed too few Powers bits: {bits:?}");
    let mut seen = 0u32;
    for (name, &b) in &bits {
        assert_eq!(seen & (1 << b), 0, "{name} reuses bit {b}");
        seen |= 1 << b;
    }
    assert_eq!(Powers::ROYAL.0, 1 << bits["ROYAL"]);
}

#[test]
fn every_power_is_given_to_some_piece() {
    let given = given_powers();
    for (name, &b) in &defined_bits() {
        assert!(
            given & (1 << b) != 0,
            "Powers::{name} is given to no piece: delete it"
        );
    }
}

#[test]
fn every_power_is_read_by_some_generator() {
    let sources = generator_sources();
    assert!(
        sources.len() >= 7,
        "found too few generator files: {}",
        sources.len()
    );
    for name in defined_bits().keys() {
        let needle = format!("Powers::{name}");
        let readers: Vec<&str> = sources
            .iter()
            .filter(|(_, text)| text.contains(&needle))
            .map(|(f, _)| f.as_str())
            .collect();
        assert!(
            !readers.is_empty(),
            "Powers::{name} is read by no generator (src/variants/*/ outside pieces.rs): \
             read it or delete it"
        );
    }
}
