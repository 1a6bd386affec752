//! The balanced openings of `tests/data/openings/` (docs/strength.md, "Openings"): each file
//! reads for its variant with the number of distinct positions the docs give, none of them a
//! finished game; and the engine-made files name the documented command in their header.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::Command;

use cellmate::referee::openings::read_openings;
use cellmate::variants::VariantKind;

const BIN: &str = env!("CARGO_BIN_EXE_cellmate");

fn file(variant: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/openings")
        .join(format!("{variant}.epd"));
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
