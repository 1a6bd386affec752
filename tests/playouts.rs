//! Random playouts in every variant: after each ply, FEN out → in → out is identical, the
//! key of the position read back equals the incrementally kept one, every legal move is read
//! back by the move parser in both protocols, and unmaking the whole game restores the start.

use cellmate::core::{Dialect, MoveList, Variant};
use cellmate::variants::chess::Chess;
use cellmate::variants::immune::Immune;
use cellmate::variants::micro::Micro;
use cellmate::variants::recursion::Recursion;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn playouts<V: Variant>(games: usize, max_plies: usize, seed: u64) -> usize {
    let mut rng = Rng(seed);
    let mut plies = 0;
    for _ in 0..games {
        let mut pos = V::startpos();
        let start = pos.fen();
        let mut made = 0;
        for _ in 0..max_plies {
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            if list.is_empty() {
                assert!(
                    pos.outcome().is_some(),
                    "no move but no outcome: {}",
                    pos.fen()
                );
                break;
            }
            for &m in &list {
                for d in [Dialect::UCI, Dialect::XBOARD] {
                    let text = pos.move_text(m, d);
                    assert_eq!(pos.parse_move(&text, d), Ok(m), "{text} in {}", pos.fen());
                }
            }
            let m = list[(rng.next() % list.len() as u64) as usize];
            let before = pos.fen();
            let key = pos.hash();
            pos.make_move(m);
            made += 1;
            plies += 1;
            let fen = pos.fen();
            let again = V::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(again.fen(), fen);
            assert_eq!(again.hash(), pos.hash(), "{fen}");
            pos.unmake_move();
            assert_eq!(pos.fen(), before);
            assert_eq!(pos.hash(), key);
            pos.make_move(m);
        }
        for _ in 0..made {
            pos.unmake_move();
        }
        assert_eq!(pos.fen(), start);
    }
    plies
}

#[test]
fn chess_random_playouts() {
    assert!(playouts::<Chess>(40, 300, 0x1234_5678) > 4000);
}

#[test]
fn recursion_random_playouts() {
    assert!(playouts::<Recursion>(40, 600, 0x9E37_79B9) > 4000);
}

#[test]
fn microorganism_random_playouts() {
    assert!(playouts::<Micro>(6, 400, 0xC0FF_EE11) > 1500);
}

#[test]
fn immune_random_playouts() {
    assert!(playouts::<Immune>(40, 300, 0xC0FF_EE11) > 4000);
}
