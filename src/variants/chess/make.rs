//! Make and unmake for chess.

use super::*;

impl Chess {
    // ----- make / unmake -----

    pub(super) fn do_move(&mut self, m: Move) {
        let k = keys();
        let us = self.stm;
        let them = !us;
        let from = m.from();
        let to = m.to();
        let mut undo = Undo {
            mv: m,
            captured: 0,
            castling: self.castling,
            ep: self.ep,
            halfmove: self.halfmove,
            hash: self.hash,
            marks: self.marks,
        };
        if let Some(ep) = self.ep {
            self.hash ^= k.ep[(ep.0 % 8) as usize];
        }
        self.ep = None;
        self.halfmove += 1;
        if self.marks != [None, None] {
            self.track_marks(m);
        }
        match m.kind() {
            MoveKind::Castle => {
                let rsq = self.castling_rook(us, m);
                let (kto, rto) = castle_squares(from, rsq).expect("castle squares");
                self.take(from);
                self.take(rsq);
                self.put(us, CASTLER, kto);
                self.put(us, PARTNER, rto);
            }
            MoveKind::EnPassant => {
                let victim = ep_victim(us, to);
                undo.captured = self.take(victim);
                self.take(from);
                self.put(us, PAWN, to);
                self.halfmove = 0;
            }
            kind => {
                let mover = self.take(from);
                undo.captured = self.take(to);
                let pt = if kind == MoveKind::Promotion {
                    m.piece().unwrap_or(QUEEN)
                } else {
                    code_type(mover)
                };
                self.put(us, pt, to);
                if undo.captured != 0 || code_type(mover) == PAWN {
                    self.halfmove = 0;
                }
                if kind == MoveKind::PawnPush {
                    let ep = Square(((from.0 as u16 + to.0 as u16) / 2) as u8);
                    // Only record a target an enemy pawn could actually capture on.
                    if tables().pawn_attacks[us.index()][ep.index()] & self.pieces(them, PAWN) != 0
                    {
                        self.ep = Some(ep);
                        self.hash ^= k.ep[(ep.0 % 8) as usize];
                    }
                }
            }
        }
        let new_castling =
            self.castling & self.castle_keep[from.index()] & self.castle_keep[to.index()];
        if new_castling != self.castling {
            self.hash ^= k.castle[self.castling as usize] ^ k.castle[new_castling as usize];
            self.castling = new_castling;
        }
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.stm = them;
        self.hash ^= k.side;
        self.history.push(undo);
    }

    /// Moves the marks along with a move (before the board changes): the mover's mark follows
    /// it (a castling rook's too), a captured piece loses its mark.
    fn track_marks(&mut self, m: Move) {
        let us = self.stm;
        let them = !us;
        let (from, to) = (m.from(), m.to());
        let victim = match m.kind() {
            MoveKind::EnPassant => Some(ep_victim(us, to)),
            MoveKind::Castle => None,
            _ => Some(to),
        };
        if victim.is_some() && self.marks[them.index()].map(|k| k.square) == victim {
            self.replace_mark(them, None);
        }
        let mut moved = [(from, to), (from, to)];
        if m.kind() == MoveKind::Castle {
            let rsq = self.castling_rook(us, m);
            let (_, rto) = castle_squares(from, rsq).expect("castle squares");
            moved[1] = (rsq, rto);
        }
        if let Some(k) = self.marks[us.index()] {
            if let Some(&(_, dest)) = moved.iter().find(|(src, _)| *src == k.square) {
                self.replace_mark(us, Some(Mark { square: dest, ..k }));
            }
        }
    }

    pub(super) fn undo_move(&mut self) {
        let Some(u) = self.history.pop() else {
            return;
        };
        self.stm = !self.stm;
        let us = self.stm;
        if us == Color::Black {
            self.fullmove -= 1;
        }
        let m = u.mv;
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Pass => {}
            MoveKind::Castle => {
                let rsq = self.castling_rook(us, m);
                let (kto, rto) = castle_squares(from, rsq).expect("castle squares");
                self.take(kto);
                self.take(rto);
                self.put(us, CASTLER, from);
                self.put(us, PARTNER, rsq);
            }
            MoveKind::EnPassant => {
                let victim = ep_victim(us, to);
                self.take(to);
                self.put(us, PAWN, from);
                self.put(!us, PAWN, victim);
            }
            kind => {
                let moved = self.take(to);
                let pt = if kind == MoveKind::Promotion {
                    PAWN
                } else {
                    code_type(moved)
                };
                self.put(us, pt, from);
                if u.captured != 0 {
                    self.put(code_color(u.captured), code_type(u.captured), to);
                }
            }
        }
        self.castling = u.castling;
        self.ep = u.ep;
        self.halfmove = u.halfmove;
        self.hash = u.hash;
        self.marks = u.marks;
    }
}
