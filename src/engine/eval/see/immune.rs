//! Static exchange evaluation of Immune Chess: the swap list of [`super::exchange_ge`] on the
//! square a capture lands on, with the evaluation's values ([`crate::engine::eval::immune::VALUE`]).
//!
//! - A shot (IM-5) takes its target and leaves nothing on the square: what it gains is the
//!   target, however well defended. In an exchange a shooter takes first, for nothing.
//! - A capture (IM-4) gains the victim, and a Monocyte that lands in its zone becomes a
//!   Macrophage (IM-4, the promotion's gain); then the exchange on the square, each side
//!   taking with its cheapest piece, looking through the pieces that took (the ranged lines).
//! - A Dendritic cell's tenth capture (IM-4) gains the victim and loses the cell, which leaves
//!   the board: nothing stands there to take back.
//!
//! A Complement never takes and is never taken (IM-4); there is no royal piece and no pin
//! (IM-6).

use crate::core::{BitSet, Color, Move, MoveKind, Powers, Square};
use crate::engine::eval::immune::VALUE;
use crate::variants::immune::{ImmuneBoard, CELLS, MONOCYTE, TYPES};

use super::{exchange_ge, Take};

/// The order in which an exchange looks for takers: the shooters (IM-5: a shot risks
/// nothing), then the other types from the cheapest.
const TAKE_ORDER: [u8; TYPES] = {
    const fn key(t: usize) -> i32 {
        if CELLS[t].def.powers.has(Powers::SHOOT) {
            -1
        } else {
            VALUE[t]
        }
    }
    let mut order = [0u8; TYPES];
    let mut t = 0;
    while t < TYPES {
        order[t] = t as u8;
        t += 1;
    }
    // Insertion sort by key (const).
    let mut i = 1;
    while i < TYPES {
        let mut j = i;
        while j > 0 && key(order[j - 1] as usize) > key(order[j] as usize) {
            let x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
            j -= 1;
        }
        i += 1;
    }
    order
};

/// What a piece of type `pt` on `from` is worth after it takes on `to`: `Err` with its value
/// when it leaves the board with the capture (IM-4: a Dendritic cell's tenth), else `Ok`
/// with the type it then is (IM-4: a Monocyte in its zone becomes a Macrophage).
fn after_capture<B: BitSet>(
    p: &ImmuneBoard<B>,
    pt: u8,
    color: Color,
    from: Square,
    to: Square,
) -> Result<u8, i32> {
    let cell = &p.rules().cells[pt as usize];
    if cell.def.powers.has(Powers::CAPTURE_LIMIT)
        && p.dendritic_count(from) + 1 >= cell.capture_limit
    {
        return Err(VALUE[pt as usize]);
    }
    Ok(p.arrives_as(pt, color, to))
}

/// Whether `m` wins at least `threshold` by static exchange.
pub fn see_ge<B: BitSet>(p: &ImmuneBoard<B>, m: Move, threshold: i32) -> bool {
    let (from, to) = (m.from(), m.to());
    let value = |sq: Square| p.piece_at(sq).map_or(0, |(_, t)| VALUE[t as usize]);
    match m.kind() {
        // IM-5: the shooter stays home; nothing stands on the square to take back.
        MoveKind::Shot => return value(to) >= threshold,
        MoveKind::Normal | MoveKind::Promotion => {}
        _ => return 0 >= threshold,
    }
    let Some((us, pt)) = p.piece_at(from) else {
        return 0 >= threshold;
    };
    let victim = value(to);
    let new = match after_capture(p, pt, us, from, to) {
        Err(v) if p.piece_at(to).is_some() => return victim - v >= threshold,
        Err(_) => pt,
        Ok(new) => new,
    };
    let first = victim + VALUE[new as usize] - VALUE[pt as usize];
    // Losing the piece that took still meets the threshold: done, unless the other side's
    // taking back can gain more than the piece (a Monocyte promoting there, IM-4).
    let promotes_there = us == Color::Black && p.arrives_as(MONOCYTE, Color::White, to) != MONOCYTE;
    if first - VALUE[new as usize] >= threshold && !promotes_there {
        return true;
    }
    let mut occ = p.color_set(Color::White) | p.color_set(Color::Black);
    occ.remove(from);
    occ.insert(to);
    let mut side = !us;
    let next = || {
        // A shot takes for nothing (IM-5), so shooters first; then the cheapest taker.
        let (a, t) = TAKE_ORDER.iter().find_map(|&t| {
            let mut takers = p.takers(to, side, t, occ);
            takers.remove(to);
            takers.any().then(|| (takers.lsb(), t))
        })?;
        if p.rules().cells[t as usize].def.powers.has(Powers::SHOOT) {
            return Some(Take {
                extra: 0,
                stands: None,
            });
        }
        occ.remove(a);
        let take = match after_capture(p, t, side, a, to) {
            Err(v) => Take {
                extra: -v,
                stands: None,
            },
            Ok(new) => Take {
                extra: VALUE[new as usize] - VALUE[t as usize],
                stands: Some(VALUE[new as usize]),
            },
        };
        side = !side;
        Some(take)
    };
    exchange_ge(first, Some(VALUE[new as usize]), threshold, next)
}

#[cfg(test)]
mod tests {
    use crate::engine::eval::immune::VALUE;
    use crate::variants::immune::{Immune, DENDRITIC, MACROPHAGE, MONOCYTE};

    fn exact(fen: &str, mv: &str, value: i32) {
        super::super::tests::exact::<Immune>(fen, mv, value)
    }

    const INVADER: i32 = VALUE[crate::variants::immune::INVADER as usize];

    /// IM-4: a Macrophage (range-2 queen) takes an Invader defended by an Invader's
    /// orthogonal step and is lost; with a Mast cell behind it (range 3, seen through the
    /// square the Macrophage left) the Mast cell takes back the Invader.
    #[test]
    fn im4_captures_exchange_through_ranged_lines() {
        let m = VALUE[MACROPHAGE as usize];
        exact(
            "10/10/10/10/4i5/4i5/4M5/10/10/10 w - 0 1",
            "e4e5",
            INVADER - m,
        );
        exact(
            "10/10/10/10/4i5/4i5/4M5/10/4S5/10 w - 0 1",
            "e4e5",
            INVADER - m + INVADER,
        );
        // Undefended: the Invader is won.
        exact("10/10/10/10/10/4i5/4M5/10/10/10 w - 0 1", "e4e5", INVADER);
    }

    /// IM-5: a shot takes its target however well defended (the B-cell stays on a1), and a
    /// shooter takes back for nothing: an Invader that takes a Neutrophil in a B-cell's file
    /// is shot.
    #[test]
    fn im5_shots_take_for_nothing() {
        exact(
            "10/10/10/10/i9/i9/10/10/10/B9 w - 0 1",
            "a1a5,a5a1",
            INVADER,
        );
        // The Invader takes the Neutrophil and is shot: a Neutrophil for an Invader.
        let neutrophil = VALUE[crate::variants::immune::NEUTROPHIL as usize];
        exact(
            "10/10/10/10/4i5/4N5/10/10/10/4B5 b - 0 1",
            "e6e5",
            neutrophil - INVADER,
        );
        // Without the B-cell the Neutrophil is won.
        exact(
            "9i/10/10/10/4i5/4N5/10/10/10/M9 b - 0 1",
            "e6e5",
            neutrophil,
        );
    }

    /// IM-4: the Dendritic cell's tenth capture takes the Invader and the cell leaves the
    /// board; a Monocyte that takes into its zone becomes a Macrophage, then is taken.
    #[test]
    fn im4_dendritic_leaves_and_monocyte_promotes() {
        exact(
            "9i/10/10/10/4i5/4D5/10/10/10/M9 w e5:9 0 1",
            "e5e6",
            INVADER - VALUE[DENDRITIC as usize],
        );
        exact(
            "9i/10/10/10/4i5/4D5/10/10/10/M9 w e5:8 0 1",
            "e5e6",
            INVADER,
        );
        let promotion = VALUE[MACROPHAGE as usize] - VALUE[MONOCYTE as usize];
        exact(
            "5i4/5i4/4O5/10/10/10/10/10/10/10 w - 0 1",
            "e8f9m",
            INVADER + promotion - VALUE[MACROPHAGE as usize],
        );
        exact(
            "10/5i4/4O5/10/10/10/10/10/10/i9 w - 0 1",
            "e8f9m",
            INVADER + promotion,
        );
    }
}
