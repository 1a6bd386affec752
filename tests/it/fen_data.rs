//! The FENs of `tests/data/`: every valid one loads and is written back unchanged, in process
//! and over UCI; every invalid one is refused with its error, of its kind, by the rules and
//! over UCI in one `info string` line, the position left as it was (issue 22, item 4).

use crate::protocol_support::Engine;
use cellmate::core::FenError;
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

/// An error's kind as its variant names, outermost first: `Impossible RoyalCount` for
/// `FenError::Impossible(PositionError::RoyalCount { .. })`, `Side` for `FenError::Side(_)`.
fn kind_of(err: &FenError) -> String {
    let debug = format!("{err:?}");
    let mut names = Vec::new();
    let mut rest = debug.as_str();
    loop {
        let end = rest
            .find(|c: char| !c.is_ascii_alphanumeric())
            .unwrap_or(rest.len());
        names.push(&rest[..end]);
        match rest[end..].strip_prefix('(') {
            Some(inner) if inner.starts_with(|c: char| c.is_ascii_uppercase()) => rest = inner,
            _ => break,
        }
    }
    names.join(" ")
}

#[test]
fn error_kinds_are_named() {
    use cellmate::core::{BoardError, PositionError};
    assert_eq!(kind_of(&FenError::Side("x".into())), "Side");
    assert_eq!(
        kind_of(&FenError::Board(BoardError::UnknownPiece('X'))),
        "Board UnknownPiece"
    );
    assert_eq!(
        kind_of(&FenError::Impossible(PositionError::OnBoard {
            board: 'A',
            error: Box::new(PositionError::TooManyCheckers)
        })),
        "Impossible OnBoard"
    );
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
        let [variant, fen, error, error_kind] = parts[..] else {
            panic!("not VARIANT | FEN | ERROR | KIND: {line}");
        };
        let err = kind(variant)
            .from_fen(fen)
            .map(|p| p.fen())
            .expect_err(&format!("{variant} {fen} was accepted"));
        assert!(err.to_string().contains(error), "{fen}: {err}");
        assert_eq!(kind_of(&err), error_kind, "{fen}: {err:?}");
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
