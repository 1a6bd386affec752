//! Evaluation of Immune Chess: material by the cells' values, and the race of IM-6 — White
//! loses when it has no capturing piece left, Black when no Invader is left, so the last few
//! of each count for more.

use std::sync::OnceLock;

use crate::core::{Color, Variant};
use crate::variants::immune::{immune_pieces, Immune, DENDRITIC, INVADER, TYPES};

use super::Evaluate;

fn values() -> &'static ([i32; TYPES], [bool; TYPES]) {
    static V: OnceLock<([i32; TYPES], [bool; TYPES])> = OnceLock::new();
    V.get_or_init(|| {
        let defs = immune_pieces();
        (
            std::array::from_fn(|t| defs[t].value),
            std::array::from_fn(|t| defs[t].def.can_capture()),
        )
    })
}

impl Evaluate for Immune {
    fn evaluate(&self) -> i32 {
        let (value, captures) = values();
        let mut white = 0;
        let mut capturers = 0;
        for t in 1..TYPES {
            let squares = self.squares_of(Color::White, t as u8);
            let n = squares.len() as i32;
            white += value[t] * n;
            if captures[t] {
                capturers += n;
            }
            if t == DENDRITIC as usize {
                // Each capture brings its departure nearer (IM-4).
                for sq in squares {
                    white -= 15 * self.dendritic_count(sq) as i32;
                }
            }
        }
        let invaders = self.squares_of(Color::Black, INVADER).len() as i32;
        let mut black = value[INVADER as usize] * invaders;
        // The race (IM-6): the last capturing cells and the last invaders are worth more.
        if capturers <= 3 {
            black += 150 * (4 - capturers);
        }
        if invaders <= 5 {
            white += 60 * (6 - invaders);
        }
        // Invaders that advance press on White's camp.
        let h = self.geometry().height as i32;
        for sq in self.squares_of(Color::Black, INVADER) {
            let rank = (sq.0 as i32) / self.geometry().width as i32;
            black += (h - 1 - rank) * 3;
        }
        let score = white - black;
        if self.side_to_move() == Color::White {
            score
        } else {
            -score
        }
    }
}
