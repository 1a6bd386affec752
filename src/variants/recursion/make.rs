//! Make and unmake for Infinite Recursion Chess: the steps of IR-5 and the state changes
//! of IR-6.

use super::*;

impl Recursion {
    pub(super) fn do_move(&mut self, m: Move) {
        let mover = self.stm;
        let next = !mover;
        if m.kind() == MoveKind::Pass {
            self.history.push(self.snapshot(None));
        } else {
            let (b, cm) = to_chess_move(m);
            let undo = self.snapshot(Some(b));
            let dual = undo.results == [None, None];
            self.boards[b].make_move(cm);
            if self.results[b].is_none() {
                self.results[b] = Recursion::sub_outcome(&self.boards[b]);
            }
            match mover {
                // First move of a step with both boards going: Black replies on the other.
                Color::White if dual => {
                    self.pending = self.results[b].is_some();
                    self.active = Some(1 - b);
                }
                // Second move of a step: state changes take effect now (IR-6).
                Color::Black if dual || undo.pending => {
                    if undo.pending {
                        // Board 1-b ended on White's move; both ending in one step changes
                        // nothing.
                        if self.results[b].is_none() {
                            self.apply_state_change(1 - b);
                        }
                    } else if self.results[b].is_some() {
                        self.apply_state_change(b);
                    }
                    self.pending = false;
                    self.active = if self.results == [None, None] {
                        Some(b)
                    } else {
                        None
                    };
                }
                _ => {}
            }
            self.history.push(undo);
        }
        self.stm = next;
        if mover == Color::Black {
            self.fullmove += 1;
        }
        if self.results != [None, None] && !self.pending {
            self.active = self.single_active(next);
        }
    }

    pub(super) fn undo_move(&mut self) {
        let Some(u) = self.history.pop() else {
            return;
        };
        for b in 0..2 {
            if self.states[b] != u.states[b] {
                self.set_state(b, u.states[b]);
            }
        }
        if let Some(b) = u.board {
            self.boards[b].unmake_move();
        }
        self.stm = !self.stm;
        self.active = u.active;
        self.results = u.results;
        self.pending = u.pending;
        self.fullmove = u.fullmove;
    }
}
