//! Evaluation of Microorganism Chess: material with the hidden state priced in — a
//! Bacterium's absorbed powers, walls, expansion, riders, pending infections — plus the
//! advance of red blood cells.

use crate::core::{BitSet, Color, Square, Variant};
use crate::variants::micro::{Micro, BACTERIUM, BONDED, EXPANDED, INFECTED, RBC, TYPES, VIRUS};

use super::Evaluate;

/// Starting values (centipawns, a red blood cell = 100); to be measured by the match runner.
pub const VALUE: [i32; TYPES] = [100, 0, 500, 1100, 450, 650, 180, 350, 220];
/// What each absorbed gift adds to a Bacterium.
pub const GIFT: [i32; TYPES] = [0, 0, 500, 550, 0, 350, 60, 200, 120];

fn piece_value(kind: u8, absorbed: u16) -> i32 {
    let mut v = VALUE[kind as usize];
    if kind == BACTERIUM {
        for (t, g) in GIFT.iter().enumerate() {
            if absorbed & (1 << t) != 0 {
                v += g;
            }
        }
    }
    v
}

impl Evaluate for Micro {
    fn evaluate(&self) -> i32 {
        let mut score = [0i32; 2];
        let occ = self.occupied();
        for sq in occ.squares() {
            let c = self.cell(sq);
            let side = c.color as usize;
            if c.has(EXPANDED) && c.partner < sq.0 {
                continue; // counted on the lower cell
            }
            let mut v = piece_value(c.kind, c.absorbed);
            if c.has(EXPANDED) {
                v += 40;
            }
            if c.has(BONDED) {
                v += 25;
            }
            if c.has(INFECTED) {
                // Lost to its infector at the hatch (MC-11): counted for the other side below.
                v = 0;
            }
            if c.kind == RBC {
                let rank = (sq.0 / 16) as i32;
                let adv = if side == 0 { rank - 1 } else { 14 - rank };
                v += adv * adv * 2;
            }
            score[side] += v;
            if let Some(r) = c.rider {
                // A rider may kill its host whenever it likes (MC-12).
                let host = piece_value(c.kind, c.absorbed);
                let ri = r.color as usize;
                score[ri] +=
                    piece_value(r.kind, r.absorbed) + if ri != side { host / 3 } else { 0 };
            }
        }
        for inf in self.infections() {
            // The infector returns with a second Virus and the victim goes (MC-11).
            let owner = inf.carrier.color as usize;
            let victim = self.cell(inf.victim);
            score[owner] += piece_value(inf.carrier.kind, inf.carrier.absorbed)
                + VALUE[VIRUS as usize]
                + piece_value(victim.kind, victim.absorbed) / 2;
        }
        // Keep the Neuron sheltered: friendly pieces around it.
        for color in Color::BOTH {
            if let Some(n) = self.neuron(color) {
                let around = king_ring(n) & self.color_set(color);
                score[color.index()] += 6 * around.count() as i32;
            }
        }
        let white = score[0] - score[1];
        if self.side_to_move() == Color::White {
            white
        } else {
            -white
        }
    }
}

fn king_ring(sq: Square) -> crate::core::U256 {
    crate::variants::micro::tables().king[sq.index()]
}
