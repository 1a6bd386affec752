//! The FENs of `tests/data/`: every valid one loads and is written back unchanged, in process
//! and over UCI; every invalid one is refused with its error, by the rules and over UCI in one
//! `info string` line, the position left as it was (issue 22, item 4).

use crate::protocol_support::Engine;
use cellmate::variants::VariantKind;

fn data(name: &str) -> Vec<String> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

fn kind(name: &str) -> VariantKind {
    VariantKind::from_name(name).unwrap_or_else(|| panic!("variant {name}"))
}

#[test]
fn valid_fens_load_and_round_trip() {
    let lines = data("fen-valid.txt");
    assert!(lines.len() >= 14, "{lines:?}");
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    for line in lines {
        let (variant, fen) = line.split_once(' ').expect("VARIANT FEN");
        let pos = kind(variant)
            .from_fen(fen)
            .unwrap_or_else(|err| panic!("{variant} {fen}: {err}"));
        assert_eq!(pos.fen(), fen, "{variant}");
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        e.send(&format!("position fen {fen}"));
        assert_eq!(e.uci_fen(), fen, "{variant} over UCI");
    }
    e.finish();
}

#[test]
fn invalid_fens_are_refused_with_their_error() {
    let lines = data("fen-invalid.txt");
    assert!(lines.len() >= 15, "{lines:?}");
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    for line in lines {
        let parts: Vec<&str> = line.split(" | ").collect();
        let [variant, fen, error] = parts[..] else {
            panic!("not VARIANT | FEN | ERROR: {line}");
        };
        let err = kind(variant)
            .from_fen(fen)
            .map(|p| p.fen())
            .expect_err(&format!("{variant} {fen} was accepted"));
        assert!(err.to_string().contains(error), "{fen}: {err}");
        e.send(&format!("setoption name UCI_Variant value {variant}"));
        let start = e.uci_fen();
        e.send(&format!("position fen {fen}"));
        let reply = e.uci_sync();
        assert_eq!(reply.len(), 1, "{fen}: {reply:?}");
        assert!(
            reply[0].starts_with("info string Invalid FEN: ") && reply[0].contains(error),
            "{fen}: {reply:?}"
        );
        assert_eq!(e.uci_fen(), start, "{fen} changed the position");
    }
    e.finish();
}
