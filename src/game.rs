//! The current game: which variant, the position after every move so far, and the moves (with
//! who made them) for undo and clock bookkeeping.
//!
//! A room of its own between the protocols and the rules: it uses only the rules (`core` and
//! the variant registry), never the engine, and the protocols keep their games in it.

use std::sync::atomic::AtomicBool;

use crate::core::{
    perft, perft_until, Color, Dialect, FenError, Move, MoveError, Outcome, Variant,
};
use crate::variants::{with_pos, AnyPos, VariantKind};

/// One move of the game and the side that made it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub mv: Move,
    pub by: Color,
}

/// The game a protocol session is playing or analysing.
#[derive(Clone, Debug)]
pub struct Game {
    pos: AnyPos,
    history: Vec<Played>,
}

impl Game {
    /// The start position of a variant.
    pub fn new(kind: VariantKind) -> Game {
        Game {
            pos: kind.startpos(),
            history: Vec::new(),
        }
    }

    /// A game set up from FEN (no moves yet).
    pub fn from_fen(kind: VariantKind, fen: &str) -> Result<Game, FenError> {
        Ok(Game {
            pos: kind.from_fen(fen)?,
            history: Vec::new(),
        })
    }

    pub fn kind(&self) -> VariantKind {
        self.pos.kind()
    }
    /// The current position.
    pub fn pos(&self) -> &AnyPos {
        &self.pos
    }
    pub fn fen(&self) -> String {
        self.pos.fen()
    }
    pub fn display(&self) -> String {
        self.pos.display()
    }
    pub fn side_to_move(&self) -> Color {
        self.pos.side_to_move()
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome()
    }
    pub fn history(&self) -> &[Played] {
        &self.history
    }
    pub fn parse_move(&self, text: &str, dialect: Dialect) -> Result<Move, MoveError> {
        self.pos.parse_move(text, dialect)
    }
    pub fn move_text(&self, m: Move, dialect: Dialect) -> String {
        self.pos.move_text(m, dialect)
    }

    /// Plays a move; an illegal one is refused (and the game left as it was).
    pub fn make(&mut self, m: Move) -> bool {
        if !self.pos.is_legal(m) {
            return false;
        }
        let by = self.pos.side_to_move();
        self.pos.make_move(m);
        self.history.push(Played { mv: m, by });
        true
    }

    /// Plays every move text in order, or none of them: on the first bad one the game is left
    /// exactly as it was and the error names that move.
    pub fn play_all<S: AsRef<str>>(
        &mut self,
        texts: &[S],
        dialect: Dialect,
    ) -> Result<(), MoveError> {
        let mut next = self.clone();
        for text in texts {
            let m = next.parse_move(text.as_ref(), dialect)?;
            next.make(m);
        }
        *self = next;
        Ok(())
    }

    /// Takes back the last move; `false` when there is none.
    pub fn undo(&mut self) -> bool {
        if self.history.pop().is_some() {
            self.pos.unmake_move();
            true
        } else {
            false
        }
    }

    /// How many moves `side` has made in this game (for moves-to-go in a time control).
    pub fn moves_by(&self, side: Color) -> usize {
        self.history.iter().filter(|p| p.by == side).count()
    }

    /// Perft of each root move, as `(move text, count)`, and the total.
    pub fn perft_divide(&self, depth: u32, dialect: Dialect) -> (Vec<(String, u64)>, u64) {
        let mut lines = Vec::new();
        let never = AtomicBool::new(false);
        let total = self
            .perft_divide_until(depth, dialect, &never, |m, n| lines.push((m, n)))
            .expect("a perft that is never stopped ends");
        (lines, total)
    }

    /// Perft of each root move, each `(move text, count)` handed to `emit` as soon as it is
    /// counted; the total, or `None` when `stop` was set before the end (the moves emitted so
    /// far are complete counts).
    pub fn perft_divide_until(
        &self,
        depth: u32,
        dialect: Dialect,
        stop: &AtomicBool,
        mut emit: impl FnMut(String, u64),
    ) -> Option<u64> {
        if depth == 0 {
            return Some(1);
        }
        let mut pos = self.pos.clone();
        let root = self.pos.clone();
        let moves = root.legal_moves();
        let mut total = 0;
        for m in moves {
            let n = with_pos!(&mut pos, |p| {
                p.make_move(m);
                let n = perft_until(p, depth - 1, stop);
                p.unmake_move();
                n
            })?;
            emit(root.move_text(m, dialect), n);
            total += n;
        }
        Some(total)
    }

    /// Perft of the current position.
    pub fn perft(&self, depth: u32) -> u64 {
        let mut pos = self.pos.clone();
        with_pos!(&mut pos, |p| perft(p, depth))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_all_is_all_or_nothing() {
        let mut g = Game::new(VariantKind::Chess);
        let before = g.fen();
        let err = g
            .play_all(&["e2e4", "e7e5", "z9z9"], Dialect::UCI)
            .unwrap_err();
        assert_eq!(err, MoveError::Syntax("z9z9".into()));
        assert_eq!(g.fen(), before);
        assert!(g.history().is_empty());
        let err = g.play_all(&["e2e4", "e2e4"], Dialect::UCI).unwrap_err();
        assert_eq!(err, MoveError::Illegal("e2e4".into()));
        assert_eq!(g.fen(), before);
        g.play_all(&["e2e4", "e7e5"], Dialect::UCI).unwrap();
        assert_eq!(
            g.fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        assert_eq!(g.moves_by(Color::White), 1);
        assert!(g.undo());
        assert!(g.undo());
        assert!(!g.undo());
        assert_eq!(g.fen(), before);
    }

    #[test]
    fn make_refuses_illegal_moves() {
        let mut g = Game::new(VariantKind::Chess);
        assert!(!g.make(Move::pass()));
        assert!(g.history().is_empty());
    }

    #[test]
    fn divide_matches_perft() {
        let g = Game::new(VariantKind::Chess);
        let (lines, total) = g.perft_divide(3, Dialect::UCI);
        assert_eq!(lines.len(), 20);
        assert_eq!(total, 8902);
        assert_eq!(g.perft(3), 8902);
        assert!(lines.iter().any(|(t, n)| t == "e2e4" && *n == 600));
    }
}
