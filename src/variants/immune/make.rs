//! Make and unmake for Immune Chess.

use super::*;

impl<B: BitSet> ImmuneBoard<B> {
    // ----- make / unmake -----

    fn end_ply(&mut self, undo: Undo) {
        if self.stm == Color::White {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.stm = !self.stm;
        self.hash ^= keys().side;
        self.history.push(undo);
    }

    pub fn make_move(&mut self, m: Move) {
        let us = self.stm;
        let (from, to) = (m.from(), m.to());
        let mut undo = Undo {
            mv: m,
            mover: 0,
            mover_count: 0,
            captured: 0,
            captured_count: 0,
            halfmove: self.halfmove,
            hash: self.hash,
        };
        self.halfmove = self.halfmove.saturating_add(1);
        match m.kind() {
            MoveKind::Pass => {}
            MoveKind::Shot => {
                (undo.captured, undo.captured_count) = self.take(to);
                self.halfmove = 0;
            }
            kind => {
                (undo.mover, undo.mover_count) = self.take(from);
                (undo.captured, undo.captured_count) = self.take(to);
                let pt = code_type(undo.mover);
                if undo.captured != 0 || kind == MoveKind::Promotion {
                    self.halfmove = 0;
                }
                let cell = &self.rules.cells[pt as usize];
                if kind == MoveKind::Promotion {
                    let new = m.piece().or(cell.promotes_to).unwrap_or(pt);
                    self.put(us, new, to);
                } else if cell.def.powers.has(Powers::CAPTURE_LIMIT) {
                    let n = undo.mover_count + (undo.captured != 0) as u8;
                    if n < cell.capture_limit {
                        self.put(us, pt, to);
                        self.set_count(to, n);
                    }
                } else {
                    self.put(us, pt, to);
                }
            }
        }
        self.end_ply(undo);
    }

    pub fn make_null_move(&mut self) {
        self.make_move(Move::pass());
    }

    pub fn unmake_move(&mut self) {
        let Some(u) = self.history.pop() else {
            return;
        };
        self.stm = !self.stm;
        if self.stm == Color::White {
            self.fullmove -= 1;
        }
        let (from, to) = (u.mv.from(), u.mv.to());
        match u.mv.kind() {
            MoveKind::Pass => {}
            MoveKind::Shot => {
                self.put(code_color(u.captured), code_type(u.captured), to);
                self.set_count(to, u.captured_count);
            }
            _ => {
                self.take(to);
                self.put(code_color(u.mover), code_type(u.mover), from);
                self.set_count(from, u.mover_count);
                if u.captured != 0 {
                    self.put(code_color(u.captured), code_type(u.captured), to);
                    self.set_count(to, u.captured_count);
                }
            }
        }
        self.halfmove = u.halfmove;
        self.hash = u.hash;
    }
}
