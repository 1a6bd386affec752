//! The searcher on 16×16 Microorganism positions: quiescence stays bounded.

use std::sync::Mutex;

use cellmate::core::{MoveList, Variant};
use cellmate::engine::search::QS_MAX_IN_CHECK;
use cellmate::engine::{Control, Engine, Limits};
use cellmate::variants::micro::Micro;

/// A middlegame reached by seeded random play: many capturers face each other.
fn crowded(seed: u64, plies: usize) -> Micro {
    let mut x = seed;
    let mut pos = Micro::startpos();
    for _ in 0..plies {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        pos.make_move(list[(x % list.len() as u64) as usize]);
    }
    pos
}

#[test]
fn depth_one_quiescence_is_bounded() {
    // Without the quiescence limit these reach seldepth 30 and 27 at depth 1 (found by a scan
    // of seeded random games; the match runner met one that searched 18 s at depth 1).
    for (seed, plies) in [(10u64, 120usize), (117, 80)] {
        let pos = crowded(seed, plies);
        let engine = Engine::new(16, 1);
        let seldepth = Mutex::new(0u32);
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let r = engine.search(&pos, &limits, &Control::new(false), &|i| {
            let mut s = seldepth.lock().unwrap();
            *s = (*s).max(i.seldepth);
        });
        assert!(r.best.is_some(), "{}", pos.fen());
        let s = *seldepth.lock().unwrap();
        assert!(
            s as usize <= 1 + QS_MAX_IN_CHECK && s < 27,
            "seldepth {s} in {}",
            pos.fen()
        );
    }
}
