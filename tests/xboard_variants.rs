//! XBoard hosting of the engine's own variants: the exact `setup`/`piece` lines, the XBoard
//! dialect read back for every legal move of random playouts, and bad `usermove`s.

mod protocol_support;

use cellmate::core::{Dialect, RankBase};
use cellmate::protocol::game::{AnyPos, VariantKind};
use cellmate::protocol::xbvariant::{dialect, move_text, parse_move, setup_lines};
use protocol_support::Engine;

fn dots(n: usize) -> String {
    ".".repeat(n)
}

/// A 66-slot half table from `(slot, letter)` pairs.
fn half(pairs: &[(usize, char)]) -> String {
    let mut v: Vec<char> = dots(66).chars().collect();
    for &(s, c) in pairs {
        v[s] = c;
    }
    v.into_iter().collect()
}

fn expected_recursion() -> Vec<String> {
    let w = half(&[
        (0, 'P'),
        (1, 'N'),
        (2, 'B'),
        (3, 'R'),
        (4, 'Q'),
        (12, 'M'),
        (65, 'K'),
    ]);
    let b = w.to_ascii_lowercase();
    let mut v = vec![format!(
        "setup ({w}{b}) 16x8+0_lion rnbkqbnrrmbkqbnr/pppppppppppppppp/16/16/16/16/\
         PPPPPPPPPPPPPPPP/RMBKQBNRRNBKQBNR w - - 0 1"
    )];
    for l in [
        "piece P& fmWfceFifmnD",
        "piece N& N",
        "piece B& B",
        "piece R& R",
        "piece Q& Q",
        "piece M& N",
        "piece K& K",
    ] {
        v.push(l.into());
    }
    v
}

fn expected_micro() -> Vec<String> {
    let w = half(&[
        (0, 'P'),
        (1, 'B'),
        (2, 'A'),
        (4, 'W'),
        (8, 'C'),
        (17, 'R'),
        (19, 'V'),
        (25, 'T'),
        (65, 'N'),
    ]);
    let b = w.to_ascii_lowercase();
    let mut v = vec![format!(
        "setup ({w}{b}) 16x16+0_fairy wabtrvtcntvrtbaw/pppppppppppppppp/16/16/16/16/16/16/\
         16/16/16/16/16/16/PPPPPPPPPPPPPPPP/WABTRVTCNTVRTBAW w - - 0 1"
    )];
    for l in [
        "piece P& fmWfcFifmR4",
        "piece B& KN",
        "piece A& BH",
        "piece W& Q",
        "piece C& RNG",
        "piece R& cK",
        "piece V& mK",
        "piece T& K",
        "piece N& K",
    ] {
        v.push(l.into());
    }
    v
}

fn expected_immune() -> Vec<String> {
    let w = half(&[
        (4, 'C'),
        (8, 'M'),
        (3, 'H'),
        (25, 'B'),
        (11, 'T'),
        (9, 'A'),
        (6, 'E'),
        (10, 'N'),
        (7, 'S'),
        (5, 'O'),
        (30, 'D'),
        (14, 'L'),
    ]);
    let b = half(&[(26, 'i')]);
    let mut v = vec![format!(
        "setup ({w}{b}) 10x10+0_fairy iiiiiiiiii/iiiiiiiiii/iiiiiiiiii/iiiiiiiiii/iiiiiiiiii/\
         iiiiiiiiii/10/iiiiiiiiii/AENHOOHNEA/BTLMCDSLTB b - - 0 1"
    )];
    for l in [
        "piece C mQ",
        "piece M Q2",
        "piece H mR2",
        "piece B cfR",
        "piece T mfbWcfRcfB",
        "piece A W",
        "piece E W",
        "piece N W",
        "piece S Q3",
        "piece O K",
        "piece D Q2",
        "piece L R2",
        "piece i W",
    ] {
        v.push(l.into());
    }
    v
}

#[test]
fn setup_and_piece_lines_per_variant() {
    for (kind, want) in [
        (VariantKind::Recursion, expected_recursion()),
        (VariantKind::Microorganism, expected_micro()),
        (VariantKind::Immune, expected_immune()),
    ] {
        let got = setup_lines(&kind.startpos()).unwrap();
        assert_eq!(got, want, "{kind:?}");
        // Every FEN letter is in the table (a missing one truncates XBoard's position).
        let setup = &got[0];
        let table = &setup[7..setup.find(')').unwrap()];
        assert_eq!(table.len(), 132);
        let fen = setup.split(' ').nth(3).unwrap();
        for c in fen.chars().filter(|c| c.is_ascii_alphabetic()) {
            assert!(table.contains(c), "{kind:?}: {c} not in the table");
        }
    }
    assert!(setup_lines(&VariantKind::Chess.startpos()).is_none());
}

#[test]
fn engine_sends_setup_after_variant() {
    for (name, want) in [
        ("recursion", expected_recursion()),
        ("microorganism", expected_micro()),
        ("immune", expected_immune()),
    ] {
        let mut e = Engine::start();
        e.send("xboard");
        e.send("protover 2");
        e.read_until(|l| l == "feature done=1");
        e.send(&format!("variant {name}"));
        let last = want.last().unwrap().clone();
        let got = e.read_until(|l| l == last);
        assert_eq!(got, want, "{name}");
        e.finish();
    }
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Every legal move of random playouts, written in the XBoard dialect, reads back as itself;
/// texts are unique per position.
fn round_trip(kind: VariantKind, rank_offset: u8, games: usize, plies: usize, seed: u64) -> usize {
    let mut rng = Rng(seed);
    let mut checked = 0;
    for _ in 0..games {
        let mut pos: AnyPos = kind.startpos();
        for _ in 0..plies {
            if pos.outcome().is_some() {
                break;
            }
            let d = dialect(&pos, rank_offset);
            let list = pos.legal_moves();
            let mut seen = std::collections::HashSet::new();
            for &m in &list {
                let text = move_text(&pos, m, d);
                assert!(
                    seen.insert(text.clone()),
                    "{kind:?}: {text} twice in {}",
                    pos.fen()
                );
                assert_eq!(
                    parse_move(&pos, &text, d),
                    Ok(m),
                    "{kind:?}: {text} in {}",
                    pos.fen()
                );
                checked += 1;
            }
            let m = list[(rng.next() % list.len() as u64) as usize];
            pos.make_move(m);
        }
    }
    checked
}

#[test]
fn recursion_round_trip() {
    assert!(round_trip(VariantKind::Recursion, 0, 6, 160, 11) > 1000);
}

#[test]
fn immune_round_trip_zero_based() {
    let pos = VariantKind::Immune.startpos();
    assert_eq!(dialect(&pos, 0).rank_base, RankBase::ZERO);
    assert_eq!(dialect(&pos, 1).rank_base, RankBase::ZERO);
    assert!(round_trip(VariantKind::Immune, 0, 6, 200, 12) > 1000);
}

#[test]
fn micro_round_trip_rank_offset_off_and_on() {
    let pos = VariantKind::Microorganism.startpos();
    assert_eq!(dialect(&pos, 0).rank_base, RankBase::ONE);
    assert_eq!(dialect(&pos, 1).rank_base, RankBase::ZERO);
    for off in [0, 1] {
        assert!(round_trip(VariantKind::Microorganism, off, 3, 150, 13 + off as u64) > 1000);
    }
}

#[test]
fn xboard_spellings() {
    let d1 = Dialect::XBOARD;
    // Immune on 10 ranks: zero-based, a shot out and back.
    let im = VariantKind::Immune
        .from_fen("10/10/4i5/10/10/10/10/10/10/4B5 w - 0 1")
        .unwrap();
    let d0 = dialect(&im, 0);
    let shot = parse_move(&im, "e0e7,e7e0", d0).unwrap();
    assert_eq!(move_text(&im, shot, d0), "e0e7,e7e0");
    // Recursion en passant: two legs over the victim.
    let rc = VariantKind::Recursion.startpos();
    let mut rc = rc;
    for t in [
        "e2e4", "m7m6", "m2m3", "a7a6", "e4e5", "m6m5", "m3m4", "d7d5",
    ] {
        let m = parse_move(&rc, t, d1).unwrap();
        rc.make_move(m);
    }
    let ep = parse_move(&rc, "e5d5,d5d6", d1).unwrap();
    assert_eq!(rc.move_text(ep, Dialect::UCI), "e5d6");
    // A Black two-leg move relayed garbled by XBoard (`XX,ZW`) is still read.
    let mc = VariantKind::Microorganism
        .from_fen("n15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/N6tt7 b - 0 1 -")
        .unwrap();
    let bond = mc
        .legal_moves()
        .into_iter()
        .find(|m| m.kind() == cellmate::core::MoveKind::Bond)
        .unwrap();
    // Nothing moves: out and back over the first empty square beyond the partner.
    let text = move_text(&mc, bond, d1);
    assert!(
        ["g1e1,e1g1", "h1j1,j1h1"].contains(&text.as_str()),
        "{text}"
    );
    assert_eq!(parse_move(&mc, &text, d1), Ok(bond));
    // As XBoard relays it for Black: from twice, then the middle square and a neighbour.
    let garbled = format!("{0}{0},{1}x1", &text[0..2], &text[2..4]);
    assert_eq!(parse_move(&mc, &garbled.replace('x', "a"), d1), Ok(bond));
}

#[test]
fn bad_usermoves_are_illegal() {
    for (name, bad) in [
        ("recursion", ["e7e5", "i2i4", "@@@@"]),
        ("microorganism", ["a1a9", "V@g5", "h1h2"]),
        ("immune", ["e1e2", "e9e8,e8e9", "a0a5"]),
    ] {
        let mut e = Engine::start();
        e.send("xboard");
        e.send("protover 2");
        e.read_until(|l| l == "feature done=1");
        e.send(&format!("variant {name}"));
        e.send("force");
        for b in bad {
            e.send(&format!("usermove {b}"));
            let l = e.read_until(|l| l.starts_with("Illegal move"));
            assert_eq!(l.last().unwrap(), &format!("Illegal move: {b}"), "{name}");
        }
        e.finish();
    }
}
