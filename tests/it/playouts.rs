//! Random playouts in every variant (docs/reliability.md).
//!
//! After every ply of every game:
//! - the position's FEN read back gives the same FEN and the same key as the incremental one
//!   (`from_fen(fen()).hash() == hash()`), and where the variant has one, its from-scratch
//!   `compute_hash()` equals the incremental key too;
//! - unmaking the move restores the FEN and the key of the position before it, bit for bit
//!   (the move is then made again);
//! - the move played: its text in both dialects (UCI and XBoard) reads back as the same move;
//! - a position with no legal move has an outcome.
//!
//! Every [`Checks::all_texts_every`] plies (and at the first ply of each game), every legal
//! move's text in both dialects reads back as that move, and where the variant tells whether a
//! move gives check without making it ([`Variant::gives_check`]), it tells what making it shows. At the end of each game the whole
//! game is unmade and the start position must come back.
//!
//! `cargo test` runs the short forms; `make playouts` runs the `#[ignore]`d long forms with
//! `PLAYOUT_PLIES` plies in total (default 10,000,000) spread over the variants, in release
//! mode, and prints plies per second.

use std::time::Instant;

use cellmate::core::rng::XorShift as Rng;
use cellmate::core::{Dialect, MoveList, Variant};
use cellmate::variants::chess::Chess;
use cellmate::variants::immune::Immune;
use cellmate::variants::micro::Micro;
use cellmate::variants::recursion::Recursion;

/// A variant's key computed from scratch, where it has its own function for that.
trait Fresh: Variant {
    fn compute(&self) -> Option<u64>;
}
impl Fresh for Chess {
    fn compute(&self) -> Option<u64> {
        Some(self.compute_hash())
    }
}
impl Fresh for Recursion {
    fn compute(&self) -> Option<u64> {
        None
    }
}
impl Fresh for Micro {
    fn compute(&self) -> Option<u64> {
        Some(self.compute_hash())
    }
}
impl Fresh for Immune {
    fn compute(&self) -> Option<u64> {
        Some(self.compute_hash())
    }
}

struct Checks {
    /// Check every legal move's text round trip every this many plies.
    all_texts_every: usize,
}

/// Checks that a move's texts in both dialects read back as the move; returns the UCI text.
fn text_round_trip<V: Variant>(pos: &V, m: cellmate::core::Move) -> String {
    let mut uci = String::new();
    for d in [Dialect::UCI, Dialect::XBOARD] {
        let text = pos.move_text(m, d);
        assert_eq!(pos.parse_move(&text, d), Ok(m), "{text} in {}", pos.fen());
        if d == Dialect::UCI {
            uci = text;
        }
    }
    uci
}

/// Plays random games until `plies` plies are made (games of at most `max_plies`); returns
/// the plies made and the games played.
fn playouts<V: Fresh>(
    plies: usize,
    max_plies: usize,
    seed: u64,
    checks: &Checks,
) -> (usize, usize) {
    let mut rng = Rng(seed);
    let mut made_total = 0;
    let mut games = 0;
    let mut list = MoveList::new();
    while made_total < plies {
        games += 1;
        let mut pos = V::startpos();
        let start = pos.fen();
        let mut fen = start.clone();
        let mut made = 0;
        while made < max_plies && made_total < plies {
            list.clear();
            pos.legal_moves(&mut list);
            if list.is_empty() {
                assert!(pos.outcome().is_some(), "no move but no outcome: {fen}");
                break;
            }
            if made % checks.all_texts_every == 0 {
                for &m in &list {
                    text_round_trip(&pos, m);
                    if let Some(told) = pos.gives_check(m) {
                        pos.make_move(m);
                        let seen = pos.in_check();
                        pos.unmake_move();
                        assert_eq!(
                            told,
                            seen,
                            "{} gives check? in {fen}",
                            pos.move_text(m, Dialect::UCI)
                        );
                    }
                }
            }
            let m = list[(rng.next() % list.len() as u64) as usize];
            let text = text_round_trip(&pos, m);
            let before = fen;
            let key = pos.hash();
            pos.make_move(m);
            made += 1;
            made_total += 1;
            fen = pos.fen();
            let again = V::from_fen(&fen)
                .unwrap_or_else(|e| panic!("{fen}: {e} (after {text} from {before})"));
            assert_eq!(again.fen(), fen, "FEN round trip after {before}");
            assert_eq!(again.hash(), pos.hash(), "key of {fen} read back");
            if let Some(h) = pos.compute() {
                assert_eq!(h, pos.hash(), "key from scratch of {fen}");
            }
            pos.unmake_move();
            assert_eq!(pos.fen(), before, "unmake");
            assert_eq!(pos.hash(), key, "key after unmake to {before}");
            pos.make_move(m);
        }
        for _ in 0..made {
            pos.unmake_move();
        }
        assert_eq!(pos.fen(), start);
    }
    (made_total, games)
}

const SHORT: Checks = Checks { all_texts_every: 1 };

#[test]
fn chess_random_playouts() {
    playouts::<Chess>(12_000, 300, 0x1234_5678, &SHORT);
}

#[test]
fn recursion_random_playouts() {
    playouts::<Recursion>(24_000, 600, 0x9E37_79B9, &SHORT);
}

#[test]
fn microorganism_random_playouts() {
    playouts::<Micro>(2_400, 400, 0xC0FF_EE11, &SHORT);
}

#[test]
fn immune_random_playouts() {
    playouts::<Immune>(12_000, 300, 0xC0FF_EE11, &SHORT);
}

// ---------------------------------------------------------------------------------------------
// Long runs (make playouts)

/// The total plies of the long run, from `PLAYOUT_PLIES`.
fn total_plies() -> usize {
    std::env::var("PLAYOUT_PLIES")
        .ok()
        .and_then(|s| s.replace('_', "").parse().ok())
        .unwrap_or(10_000_000)
}

/// Every legal move's texts are checked every this many plies in the long runs (the played
/// move's every ply).
const LONG: Checks = Checks {
    all_texts_every: 16,
};

fn long<V: Fresh>(share_per_mille: usize, max_plies: usize, seed: u64) {
    let target = total_plies() * share_per_mille / 1000;
    let t = Instant::now();
    let (plies, games) = playouts::<V>(target, max_plies, seed, &LONG);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "playouts {:<14} {plies:>10} plies {games:>7} games {secs:>8.1} s {:>9.0} plies/s",
        V::NAME,
        plies as f64 / secs.max(1e-9)
    );
    assert_eq!(plies, target);
}

#[test]
#[ignore = "long: make playouts"]
fn long_chess() {
    long::<Chess>(300, 400, 0x0123_4567_89AB_CDEF);
}

#[test]
#[ignore = "long: make playouts"]
fn long_recursion() {
    long::<Recursion>(300, 800, 0x0F1E_2D3C_4B5A_6978);
}

#[test]
#[ignore = "long: make playouts"]
fn long_immune() {
    long::<Immune>(300, 400, 0x7766_5544_3322_1100);
}

#[test]
#[ignore = "long: make playouts"]
fn long_microorganism() {
    long::<Micro>(100, 500, 0xDEAD_BEEF_CAFE_F00D);
}
