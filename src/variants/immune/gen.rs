//! Legal move generation for Immune Chess.

use super::*;

impl<B: BitSet> ImmuneBoard<B> {
    // ----- move generation -----

    fn push(&self, list: &mut MoveList, pt: u8, from: Square, targets: B) {
        let cell = &self.rules.cells[pt as usize];
        let zone = self.rules.zone[self.stm.index()];
        let promo = cell
            .promotes_to
            .filter(|_| cell.def.powers.has(Powers::ZONE_PROMOTES));
        for to in targets.squares() {
            match promo {
                Some(p) if zone.contains(to) => {
                    list.push(Move::with_piece(from, to, MoveKind::Promotion, p))
                }
                _ => list.push(Move::new(from, to, MoveKind::Normal)),
            }
        }
    }

    /// Every legal move: none once the game is decided by material (IM-6).
    pub fn generate(&self, list: &mut MoveList) {
        if self.material_outcome().is_some() {
            return;
        }
        let r = &*self.rules;
        let geo = r.geo;
        let us = self.stm;
        let c = us.index();
        let own = self.by_color[c];
        let enemy = self.by_color[1 - c];
        let occ = own | enemy;
        let empty = r.all & !occ;
        let targets = enemy & !self.uncapturable();
        for pt in 0..TYPES {
            let mine = self.by_type[pt] & own;
            if mine.is_empty() {
                continue;
            }
            let t = &r.tables[pt];
            let shooter = r.cells[pt].def.powers.has(Powers::SHOOT);
            for from in mine.squares() {
                let i = from.index();
                let mut to = (t.leap_move[c][i] & empty) | (t.leap_capture[c][i] & targets);
                for &(dx, dy, range, mode) in &t.slides[c] {
                    let ray: B = slide_targets(geo, from, dx, dy, range, occ);
                    if mode != Mode::CaptureOnly {
                        to |= ray & empty;
                    }
                    if mode != Mode::MoveOnly {
                        to |= ray & targets;
                    }
                }
                self.push(list, pt as u8, from, to);
                if shooter {
                    let s = &r.shots[pt];
                    let mut hit = s.leap_capture[c][i] & targets;
                    for &(dx, dy, range, _) in &s.slides[c] {
                        let ray: B = slide_targets(geo, from, dx, dy, range, occ);
                        hit |= ray & targets;
                    }
                    for sq in hit.squares() {
                        list.push(Move::new(from, sq, MoveKind::Shot));
                    }
                }
            }
        }
    }
}
