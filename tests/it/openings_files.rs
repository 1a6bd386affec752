//! The balanced openings of `tests/data/openings/` (docs/strength.md, "Openings"): each file
//! reads for its variant with the number of distinct positions the docs give, none of them a
//! finished game; and the engine-made files name the documented command in their header.
//! Also the Immune endings file of `tests/data/endings/` (docs/strength.md, "Immune Chess
//! endings").

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::Command;

use cellmate::referee::openings::read_openings;
use cellmate::variants::VariantKind;

const BIN: &str = env!("CARGO_BIN_EXE_cellmate");

fn file(variant: &str) -> String {
    data(&format!("openings/{variant}.epd"))
}

/// A file of `tests/data/`.
fn data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn each_variant_has_its_openings() {
    for (variant, count) in [
        ("chess", 200),
        ("recursion", 200),
        ("microorganism", 100),
        ("immune", 200),
    ] {
        let kind = VariantKind::from_name(variant).unwrap();
        let fens = read_openings(kind, &file(variant)).unwrap_or_else(|e| panic!("{variant}: {e}"));
        assert_eq!(fens.len(), count, "{variant}");
        let distinct: HashSet<_> = fens.iter().collect();
        assert_eq!(distinct.len(), count, "{variant}: an opening twice");
    }
}

/// The engine-made files begin with the header `cellmate openings` writes for the command
/// docs/strength.md gives (`--count 0` writes only the header). Their positions are not searched
/// again here: they depend on the search and evaluation of the commit that made them, and a
/// match compares builds on fixed openings.
#[test]
fn engine_made_openings_name_their_command() {
    for (variant, extra) in [
        ("recursion", &[][..]),
        ("microorganism", &[][..]),
        ("immune", &["--margin", "700", "--pick-margin", "100"][..]),
    ] {
        let out = Command::new(BIN)
            .args([
                "openings",
                "--variant",
                variant,
                "--seed",
                "1",
                "--count",
                "0",
            ])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{variant}");
        let header = String::from_utf8(out.stdout).unwrap();
        let expected = file(variant);
        assert_eq!(
            header.lines().collect::<Vec<_>>(),
            expected.lines().take(1).collect::<Vec<_>>(),
            "{variant}"
        );
    }
}

/// The endings file (`scripts/ending_positions.py`, docs/strength.md "Immune Chess endings"):
/// 53 distinct Immune positions, none a finished game, each with the draw rule's count at 0.
#[test]
fn immune_endings_read() {
    let fens = read_openings(
        VariantKind::from_name("immune").unwrap(),
        &data("endings/immune.epd"),
    )
    .unwrap();
    assert_eq!(fens.len(), 53);
    assert_eq!(fens.iter().collect::<HashSet<_>>().len(), 53);
    for fen in &fens {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        assert_eq!(fields[fields.len() - 2], "0", "{fen}");
    }
}
