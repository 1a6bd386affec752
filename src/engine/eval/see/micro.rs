//! Static exchange evaluation of Microorganism Chess: the swap list of [`super::exchange_ge`]
//! on the square a tactical move takes on, with each organism's way of taking (MC-3 … MC-12)
//! and the evaluation's values ([`MicroParams`]: a Bacterium with its gifts, an expanded
//! piece with its bonus).
//!
//! What a move gains, by kind:
//! - a capture (a step, leap or slide onto an enemy, MC-3 … MC-10; en passant, MC-3; a
//!   promotion, with the new type's gain, MC-3): the victim, then the exchange on its square;
//! - a rigid move of an expanded piece (MC-8): both victims, then the exchange on either of
//!   its new cells (taking one takes the whole piece): the worse of the two;
//! - an infection (MC-11): the victim, and nothing more: an infected piece cannot be taken
//!   and the virus comes back at the hatch;
//! - a kill (MC-12): the host (minus it, when the host is one's own), then the exchange on the
//!   square, where the rider now stands alone;
//! - anything else (a hatch, which is compulsory when due, MC-11; bonds, rides, expansions):
//!   nothing.
//!
//! In the exchange each side takes with what risks least: an infection (nothing stands
//! afterwards), else the cheapest of its captures and its rider's kill, else the Neuron when
//! the other side cannot take back (MC-4). A Bacterium that takes absorbs the victim's gifts
//! (MC-7); a capturer carries the victim's rider when it can (MC-12), and a rider it cannot
//! carry leaves the board. Pins and second captures of an expanded piece taking back are not
//! counted.

use crate::core::{BitSet, Color, Move, MoveKind, Powers, Square, Variant, U256};
use crate::engine::eval::micro::MicroParams;
use crate::variants::micro::{
    has, slide, slide_dirs, slides_onto, tables, Cell, Micro, Rider, BACTERIUM, EXPANDED, GEOMETRY,
    GIVES_NOTHING, NEURON, OFF, PROMOTIONS, RBC, TYPES,
};

use super::{exchange_ge, Take};

/// A piece on the exchange square, as the exchange sees it.
#[derive(Clone, Copy, Debug)]
struct Piece {
    kind: u8,
    color: u8,
    absorbed: u16,
    expanded: bool,
    rider: Option<Rider>,
}

impl Piece {
    fn of(c: &Cell) -> Piece {
        Piece {
            kind: c.kind,
            color: c.color,
            absorbed: c.absorbed,
            expanded: c.has(EXPANDED),
            rider: c.rider,
        }
    }

    /// A rider standing alone (after it killed its host, MC-12).
    fn alone(r: Rider) -> Piece {
        Piece {
            kind: r.kind,
            color: r.color,
            absorbed: r.absorbed,
            expanded: false,
            rider: None,
        }
    }

    /// Its value: its type's with a Bacterium's gifts (MC-7) and an expanded piece's bonus
    /// (MC-8).
    fn value(&self, p: &MicroParams) -> i32 {
        p.piece_value(self.kind, self.absorbed) + if self.expanded { p.expand_bonus() } else { 0 }
    }

    /// MC-7: a Bacterium absorbs what the piece it removed gives.
    fn absorbing(mut self, eaten: &Piece) -> Piece {
        if has(self.kind, Powers::ABSORB) {
            self.absorbed = (self.absorbed | 1 << eaten.kind | eaten.absorbed) & !GIVES_NOTHING;
        }
        self
    }

    /// The piece after it took `victim`, and what its side gains by the victim's rider: it
    /// absorbs the victim's gifts (MC-7) and carries its rider if it can (MC-12: not a
    /// Neuron or a lone Prion, not a piece already ridden); a rider it cannot carry leaves
    /// the board with its host.
    fn took(self, victim: &Piece, p: &MicroParams) -> (Piece, i32) {
        let mut after = self.absorbing(victim);
        let mut extra = 0;
        if let Some(r) = victim.rider {
            if after.rider.is_none() && !has(after.kind, Powers::NO_RIDER) {
                after.rider = Some(r);
            } else {
                let v = Piece::alone(r).value(p);
                extra = if r.color == self.color { -v } else { v };
            }
        }
        (after, extra)
    }
}

/// The pieces of `ours` (single-cell, not infected, of colour `c`) that take on `sq` by a
/// leap or a slide of their own or of their gifts (MC-3 … MC-10, MC-7), with `occ` the
/// squares still occupied; a White blood cell only within its half (MC-5). A Virus takes only
/// by infection (MC-11) and a lone Prion never (MC-12): their atoms take nothing.
fn takers(pos: &Micro, sq: Square, c: Color, ours: U256, occ: U256) -> U256 {
    let t = tables();
    let (s, ci) = (sq.index(), c.index());
    let mut out = U256::EMPTY;
    for k in 0..TYPES {
        let of = pos.type_set(k as u8) & ours;
        if of.any() {
            // From the target with the other colour's vectors: the squares that reach it.
            out |= t.own[k].leap_capture[1 - ci][s] & of;
        }
    }
    for b in (pos.type_set(BACTERIUM) & ours).squares() {
        let mut a = pos.cell(b).absorbed;
        while a != 0 {
            let g = a.trailing_zeros() as usize;
            a &= a - 1;
            if t.gift[g].leap_capture[ci][b.index()].contains(sq) {
                out.insert(b);
            }
        }
    }
    for d in 0..8 {
        if let (_, Some(q)) = slide(d, s, occ) {
            if ours.contains(q) && slides_onto(pos.cell(q), q, d, sq) {
                out.insert(q);
            }
        }
    }
    out
}

/// MC-8: whether the expanded piece on `a` and `b`, of colour `c`, takes on `sq` by a rigid
/// move with `occ` the squares still occupied: both cells shift by one of its leaps or slides
/// (its own and its gifts'), each landing square free, one of its cells or a piece it may
/// take, each slide's path free.
fn rigid_takes(pos: &Micro, a: u8, b: u8, sq: Square, c: Color, occ: U256) -> bool {
    let t = tables();
    let cell = pos.cell(Square(a));
    let free = |x: u8| x == a || x == b || !occ.contains(Square(x));
    let valid = |x: u8| free(x) || x == sq.0 || Micro::capturable(pos.cell(Square(x)), c);
    let shift = |x: u8, (dx, dy): (i32, i32)| GEOMETRY.offset(Square(x), dx, dy).map(|s| s.0);
    let leap = |v: (i32, i32)| match (shift(a, v), shift(b, v)) {
        (Some(na), Some(nb)) => (na == sq.0 || nb == sq.0) && valid(na) && valid(nb),
        _ => false,
    };
    if t.own_leaps[cell.kind as usize].iter().any(|&v| leap(v)) {
        return true;
    }
    let mut gifts = cell.absorbed;
    while gifts != 0 {
        let g = gifts.trailing_zeros() as usize;
        gifts &= gifts - 1;
        if t.gift_leaps[g].iter().any(|&v| leap(v)) {
            return true;
        }
    }
    let dirs = slide_dirs(cell);
    for (d, next) in t.next.iter().enumerate() {
        if dirs & (1 << d) == 0 {
            continue;
        }
        let (mut ca, mut cb) = (a, b);
        loop {
            let (na, nb) = (next[ca as usize], next[cb as usize]);
            if na == OFF || nb == OFF {
                break;
            }
            let (na, nb) = (na as u8, nb as u8);
            if !valid(na) || !valid(nb) {
                break;
            }
            if na == sq.0 || nb == sq.0 {
                return true;
            }
            if !free(na) || !free(nb) {
                break;
            }
            (ca, cb) = (na, nb);
        }
    }
    false
}

/// The exchange on one square: what stands there and whose turn it is to take.
struct Exchange<'a> {
    pos: &'a Micro,
    params: &'a MicroParams,
    sq: Square,
    /// The squares still occupied (takers leave theirs).
    occ: U256,
    /// The squares the first move's piece landed on: what the position says stands there is
    /// gone.
    moved: U256,
    side: Color,
    on: Piece,
}

impl Exchange<'_> {
    /// `c`'s pieces still on the board that may take (not infected, MC-11), with `occ` the
    /// squares still occupied.
    fn own(&self, c: Color, occ: U256) -> U256 {
        let mut ours = occ & self.pos.color_set(c) & !self.pos.infected_set() & !self.moved;
        ours.remove(self.sq);
        ours
    }

    /// Whether `c` has a capture on the square (an infection aside): for the Neuron, which
    /// may take only where nothing takes back (MC-4).
    fn defended(&self, c: Color, occ: U256) -> bool {
        let pos = self.pos;
        let ours = self.own(c, occ);
        let single = ours & !pos.expanded_set();
        takers(pos, self.sq, c, single, occ).any()
            || (ours & pos.expanded_set()).squares().any(|a| {
                let b = pos.cell(a).partner;
                a.0 < b && rigid_takes(pos, a.0, b, self.sq, c, occ)
            })
    }

    /// The side to take's least risky capture on the square, made.
    fn next(&mut self) -> Option<Take> {
        let (pos, p, c, sq) = (self.pos, self.params, self.side, self.sq);
        let t = tables();
        let victim = self.on;
        let ours = self.own(c, self.occ);
        let single = ours & !pos.expanded_set();
        // MC-11: an infection takes the piece and leaves nothing to take back; a single-cell
        // Virus (or Bacterium with its gift) that carries no rider, never on a Neuron.
        if victim.kind != NEURON {
            let infects = (t.king[sq.index()] & single).squares().any(|v| {
                let cell = pos.cell(v);
                cell.rider.is_none() && cell.powers().has(Powers::INFECT)
            });
            if infects {
                return Some(Take {
                    extra: 0,
                    stands: None,
                });
            }
        }
        // The cheapest of the captures (and the rider's kill), by what then stands.
        let mut best: Option<(Piece, i32, U256)> = None;
        let mut consider = |after: Piece, extra: i32, vacated: U256| {
            if best.is_none_or(|(b, _, _)| after.value(p) < b.value(p)) {
                best = Some((after, extra, vacated));
            }
        };
        // MC-12: a rider of ours on the piece kills it and stands alone.
        if let Some(r) = victim.rider {
            if r.color == c as u8 {
                consider(Piece::alone(r).absorbing(&victim), 0, U256::EMPTY);
            }
        }
        let mut neuron = None;
        for a in takers(pos, sq, c, single, self.occ).squares() {
            let cell = pos.cell(a);
            if cell.kind == NEURON {
                neuron = Some(a);
                continue;
            }
            let (mut after, mut extra) = Piece::of(cell).took(&victim, p);
            // MC-3: a red blood cell that takes on the last rank promotes, to the best type.
            let last = if c == Color::White { 15 } else { 0 };
            if cell.kind == RBC && sq.0 / 16 == last {
                let best_type = PROMOTIONS
                    .into_iter()
                    .max_by_key(|&k| p.piece_value(k, 0))
                    .unwrap_or(RBC);
                let before = after.value(p);
                after.kind = best_type;
                after.absorbed = 0;
                extra += after.value(p) - before;
            }
            consider(after, extra, U256::from_square(a));
        }
        for a in (ours & pos.expanded_set()).squares() {
            let b = pos.cell(a).partner;
            if a.0 < b && rigid_takes(pos, a.0, b, sq, c, self.occ) {
                let (after, extra) = Piece::of(pos.cell(a)).took(&victim, p);
                consider(
                    after,
                    extra,
                    U256::from_square(a) | U256::from_square(Square(b)),
                );
            }
        }
        if let Some((after, extra, vacated)) = best {
            self.occ &= !vacated;
            self.on = after;
            self.side = !c;
            return Some(Take {
                extra,
                stands: Some(after.value(p)),
            });
        }
        // MC-4: the Neuron takes last, and only where nothing takes back; its victim's rider
        // leaves with the host (MC-12: a Neuron carries none).
        let n = neuron?;
        let mut occ = self.occ;
        occ.remove(n);
        if self.defended(!c, occ) {
            return None;
        }
        let (_, extra) = Piece::of(pos.cell(n)).took(&victim, p);
        Some(Take {
            extra,
            stands: None,
        })
    }
}

/// Whether `m` wins at least `threshold` by static exchange, with the values of `p`.
pub fn see_ge(pos: &Micro, p: &MicroParams, m: Move, threshold: i32) -> bool {
    let us = pos.side_to_move();
    let (from, to) = (m.from(), m.to());
    let mover = pos.cell(from);
    let mut occ = pos.occupied();
    let (first, squares, on, moved) = match m.kind() {
        // MC-11: the victim is lost to its side and cannot be taken while infected.
        MoveKind::Infect => return Piece::of(pos.cell(to)).value(p) >= threshold,
        // MC-12: the host goes, the rider stands alone on its square.
        MoveKind::Kill => {
            let host = Piece::of(mover);
            let Some(r) = host.rider else {
                return 0 >= threshold;
            };
            let v = host.value(p);
            let gain = if host.color == us as u8 { -v } else { v };
            let alone = Piece::alone(r).absorbing(&host);
            (gain, [Some(from), None], alone, U256::EMPTY)
        }
        MoveKind::Normal | MoveKind::PawnPush | MoveKind::EnPassant | MoveKind::Promotion
            if !mover.is_empty() =>
        {
            occ.remove(from);
            let mut piece = Piece::of(mover);
            let mut gain = 0;
            let mut take = |piece: &mut Piece, x: Square, occ: &mut U256| {
                let cell = pos.cell(x);
                let victim = Piece::of(cell);
                let (after, extra) = piece.took(&victim, p);
                *piece = after;
                gain += victim.value(p) + extra;
                // MC-8: taking either cell of an expanded piece takes both.
                occ.remove(x);
                if victim.expanded {
                    occ.remove(Square(cell.partner));
                }
            };
            let mut moved = U256::from_square(to);
            let mut other = None;
            if mover.has(EXPANDED) {
                // MC-8: both cells shift; each may take (the lower square's rider first,
                // MC-12).
                let partner = Square(mover.partner);
                occ.remove(partner);
                let (dx, dy) = (
                    (to.0 % 16) as i32 - (from.0 % 16) as i32,
                    (to.0 / 16) as i32 - (from.0 / 16) as i32,
                );
                let Some(np) = GEOMETRY.offset(partner, dx, dy) else {
                    return 0 >= threshold;
                };
                let mut lands = [to, np];
                lands.sort_unstable_by_key(|s| s.0);
                for x in lands {
                    if x != from && x != partner && !pos.cell(x).is_empty() {
                        take(&mut piece, x, &mut occ);
                    }
                }
                other = Some(np);
                occ.insert(to);
                occ.insert(np);
                moved.insert(np);
            } else {
                if m.kind() == MoveKind::EnPassant {
                    // MC-3: the red blood cell passed `to`; it stands further on along the
                    // file, the first piece behind `to` from the taker's side.
                    let back = if us == Color::White { -1 } else { 1 };
                    let mut x = GEOMETRY.offset(to, 0, back);
                    while let Some(s) = x.filter(|&s| pos.cell(s).is_empty()) {
                        x = GEOMETRY.offset(s, 0, back);
                    }
                    if let Some(s) = x {
                        take(&mut piece, s, &mut occ);
                    }
                } else if !pos.cell(to).is_empty() {
                    take(&mut piece, to, &mut occ);
                }
                if let (MoveKind::Promotion, Some(k)) = (m.kind(), m.piece()) {
                    let before = piece.value(p);
                    piece.kind = k;
                    piece.absorbed = 0;
                    gain += piece.value(p) - before;
                }
                occ.insert(to);
            }
            if mover.kind == NEURON {
                // MC-4: a legal move of the Neuron is never taken back.
                return gain >= threshold;
            }
            (gain, [Some(to), other], piece, moved)
        }
        _ => return 0 >= threshold,
    };
    // An expanded piece is taken whole on either cell (MC-8): each must hold.
    squares.into_iter().flatten().all(|sq| {
        let mut ex = Exchange {
            pos,
            params: p,
            sq,
            occ,
            moved,
            side: !us,
            on,
        };
        exchange_ge(first, Some(on.value(p)), threshold, || ex.next())
    })
}

#[cfg(test)]
mod tests {
    use crate::engine::eval::micro::{GIFT, TERM, VALUE};
    use crate::variants::micro::{Micro, AMOEBA, BACTERIUM, PARAMECIUM, PLATELET, PRION, RBC, WBC};

    fn exact(fen: &str, mv: &str, value: i32) {
        super::super::tests::exact::<Micro>(fen, mv, value)
    }

    fn v(kind: u8) -> i32 {
        VALUE[kind as usize]
    }

    /// MC-6, MC-10: a Paramecium slides onto a Platelet defended by a Platelet's king step
    /// and is lost; undefended, the Platelet is won.
    #[test]
    fn mc6_capture_of_a_defended_piece() {
        exact(
            "8n7/16/16/16/16/16/16/4t11/3t12/16/16/16/16/16/16/3C4N7 w - 0 1 -",
            "d1d8",
            v(PLATELET) - v(PARAMECIUM),
        );
        exact(
            "8n7/16/16/16/16/16/16/16/3t12/16/16/16/16/16/16/3C4N7 w - 0 1 -",
            "d1d8",
            v(PLATELET),
        );
    }

    /// MC-4, MC-6: the Neuron takes back only where nothing takes back in turn: with a second
    /// Paramecium behind the first on the h-file (seen through it) the red blood cell beside
    /// the Neuron is won; without it the Neuron takes the Paramecium.
    #[test]
    fn mc4_neuron_takes_only_undefended_pieces() {
        exact(
            "8n7/7p8/16/16/16/16/16/16/16/16/16/16/16/16/7C8/N6C8 w - 0 1 -",
            "h2h15",
            v(RBC),
        );
        exact(
            "8n7/7p8/16/16/16/16/16/16/16/16/16/16/16/16/7C8/N15 w - 0 1 -",
            "h2h15",
            v(RBC) - v(PARAMECIUM),
        );
    }

    /// MC-11: an infection wins its victim, defended or not (an infected piece cannot be
    /// taken); and a Virus takes back by infection: a red blood cell that takes a Paramecium
    /// beside a Virus is infected, and nothing stands there to take.
    #[test]
    fn mc11_infections_win_their_victim() {
        exact(
            "8n7/16/16/16/16/16/16/16/16/16/5p10/4a11/4V11/16/16/8N7 w - 0 1 -",
            "e4e5",
            v(AMOEBA),
        );
        exact(
            "8n7/16/16/16/16/16/16/16/16/16/2v13/3c12/4P11/16/16/8N7 w - 0 1 -",
            "e4d5",
            v(PARAMECIUM) - v(RBC),
        );
    }

    /// MC-12: a kill wins the host, then the Prion stands alone on its square and a red blood
    /// cell takes it; killing one's own host loses the host.
    #[test]
    fn mc12_kills_win_the_host_and_expose_the_rider() {
        exact(
            "8n7/16/16/16/16/16/16/16/16/16/3p12/4b11/16/16/16/8N7 w - 0 1 e5:rider=R",
            "R@e5",
            v(BACTERIUM) - v(PRION),
        );
        exact(
            "8n7/16/16/16/16/16/16/16/16/16/16/4b11/16/16/16/8N7 w - 0 1 e5:rider=R",
            "R@e5",
            v(BACTERIUM),
        );
        exact(
            "8n7/16/16/16/16/16/16/16/16/16/16/16/16/16/16/3T4N7 w - 0 1 d1:rider=R",
            "R@d1",
            -v(PLATELET),
        );
    }

    /// MC-7: a Bacterium that takes a White blood cell absorbs its queen moves, and is worth
    /// that much more when a red blood cell takes it back.
    #[test]
    fn mc7_bacterium_is_taken_back_with_its_gifts() {
        exact(
            "8n7/16/16/16/16/16/5p10/4w11/4B11/16/16/16/16/16/16/8N7 w - 0 1 -",
            "e8e9",
            v(WBC) - v(BACTERIUM) - GIFT[WBC as usize],
        );
    }

    /// MC-8: an expanded Amoeba's rigid move takes two red blood cells; a red blood cell that
    /// takes either of its new cells takes the whole piece, expansion bonus included.
    #[test]
    fn mc8_rigid_move_takes_two_and_is_taken_on_either_cell() {
        exact(
            "8n7/16/16/16/16/16/16/16/16/16/6p9/4pp10/3AA11/16/16/8N7 w - 0 1 d4:cell=e4",
            "d4e5",
            2 * v(RBC) - v(AMOEBA) - TERM[0],
        );
        exact(
            "8n7/16/16/16/16/16/16/16/16/16/16/4pp10/3AA11/16/16/8N7 w - 0 1 d4:cell=e4",
            "d4e5",
            2 * v(RBC),
        );
    }
}
