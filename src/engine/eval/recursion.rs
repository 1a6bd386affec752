//! Evaluation of Infinite Recursion Chess: both boards' chess evaluations turned into expected
//! board results, a finished board counting in full, and each mega-knight valued by how its own
//! game (the other board) is going.

use crate::core::{Color, Move, Variant};
use crate::variants::chess::TYPES;
use crate::variants::recursion::{board_move, mega_owner, MegaState, Recursion, SubResult};

use super::chess::{self, best_capture_gain, material_features};
use super::chess_params::ChessParams;
use super::{EvalParams, Evaluate, FeatureList, Features};

/// Centipawns per board won outright: one board is worth this much (a won board plus a drawn
/// one wins the game, IR-7).
pub const BOARD: f64 = 900.0;
/// How many centipawns of chess advantage make a board about 76% won (tanh(1)).
pub const SCALE: f64 = 500.0;
/// The share of a pending capture on the board not being moved on that is counted.
pub const PENDING: f64 = 0.8;
/// Centipawns of progress an unfinished board adds, linear in its chess score up to
/// [`PROGRESS_CAP`]: beyond a few pawns the expectation (tanh) is flat, and without this a board
/// far ahead is not worth improving (capturing more, driving the king to mate) — the engine,
/// a board up, played on for hundreds of plies against a lone king.
pub const PROGRESS: f64 = 600.0;
/// The chess score (centipawns) at which an unfinished board's progress term is full.
pub const PROGRESS_CAP: f64 = 3000.0;
/// What a won board is worth beyond any unfinished one: finishing it is always a gain.
pub const FINISH: f64 = 100.0;

/// Board `b`'s expected result from White's view, in -1 (Black wins) ..= 1 (White wins).
pub fn board_expectation(pos: &Recursion, b: usize, params: &ChessParams) -> f64 {
    expectation(pos, b, true, params)
}

/// Board `b`'s worth in centipawns from White's view: [`BOARD`] times its expectation, plus
/// the progress of an unfinished board ([`PROGRESS`]); a won board is worth more than any
/// unfinished one ([`FINISH`]).
pub fn board_value(pos: &Recursion, b: usize, params: &ChessParams) -> f64 {
    let full = BOARD + PROGRESS + FINISH;
    match pos.result(b) {
        Some(SubResult::Win(Color::White)) => full,
        Some(SubResult::Win(Color::Black)) => -full,
        Some(SubResult::Draw) => 0.0,
        None => {
            let cp = board_cp(pos, b, true, params);
            BOARD * (cp / SCALE).tanh() + PROGRESS * (cp / PROGRESS_CAP).clamp(-1.0, 1.0)
        }
    }
}

/// [`board_expectation`]; with `deep` false (the other board's trend seen from a mega-knight)
/// only the board's own evaluation, without the pending capture and its own mega-knight term
/// (no recursion loop).
fn expectation(pos: &Recursion, b: usize, deep: bool, params: &ChessParams) -> f64 {
    match pos.result(b) {
        Some(SubResult::Win(Color::White)) => 1.0,
        Some(SubResult::Win(Color::Black)) => -1.0,
        Some(SubResult::Draw) => 0.0,
        None => (board_cp(pos, b, deep, params) / SCALE).tanh(),
    }
}

/// The chess score (centipawns, White's view) of unfinished board `b`, with (`deep`) the
/// pending capture and the mega-knight term of [`expectation`].
fn board_cp(pos: &Recursion, b: usize, deep: bool, params: &ChessParams) -> f64 {
    let board = pos.board(b);
    let mut cp = board.evaluate_with_chess(params) as f64;
    if board.side_to_move() == Color::Black {
        cp = -cp;
    }
    if !deep {
        return cp;
    }
    // IR-5: the board where the player to move is not moving now has its own side to
    // move (in a two-board step always Black), whose next move there comes before any
    // reply on it, and no quiescence search looks at it: count its best capture.
    if pos.active_board() != Some(b) {
        let gain = PENDING * best_capture_gain(board) as f64;
        cp += if board.side_to_move() == Color::White {
            gain
        } else {
            -gain
        };
    }
    // The mega-knight on this board is the other board's game: a Neutral one is worth
    // what that game promises its owner (Armed if won, almost nothing if lost).
    let owner = mega_owner(b);
    if pos.mega_square(b).is_some() {
        let other = expectation(pos, 1 - b, false, params);
        let own_view = if owner == Color::White { other } else { -other };
        let state_bonus = match pos.mega_state(b) {
            MegaState::Neutral => 120.0 * own_view,
            MegaState::Armed => 0.0,
            MegaState::Disarmed => -150.0,
            MegaState::Frozen => -250.0,
        };
        cp += if owner == Color::White {
            state_bonus
        } else {
            -state_bonus
        };
    }
    cp
}

impl Evaluate for Recursion {
    fn evaluate_with(&self, params: &EvalParams) -> i32 {
        let c = &params.chess;
        let white = (board_value(self, 0, c) + board_value(self, 1, c)).round() as i32;
        if self.side_to_move() == Color::White {
            white
        } else {
            -white
        }
    }

    /// The exchange on the board the move is played on, by chess's exchange evaluation; a
    /// move from or onto a mega-knight's square is never judged by it (the knight is worth a
    /// whole game, not a knight).
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let Some((b, cm)) = board_move(m) else {
            return true;
        };
        let mega = self.mega_square(b);
        if mega == Some(cm.to()) || mega == Some(cm.from()) {
            return true;
        }
        let board = self.board(b);
        board.see_ge(cm, threshold)
    }

    const QS_DELTA: Option<i32> = Some(chess::QS_DELTA);
    const MOVERS: usize = TYPES;

    fn mover(&self, m: Move) -> u8 {
        board_move(m).map_or(0, |(b, cm)| self.board(b).mover(cm))
    }
}

/// Both boards' chess material, summed (the features of [`super::chess::FEATURES`]).
impl Features for Recursion {
    const FEATURES: FeatureList = super::chess::FEATURES;

    fn features(&self) -> Vec<f64> {
        material_features(&[self.board(0), self.board(1)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ir_5_a_capture_waiting_on_the_other_board_is_counted() {
        use crate::core::Dialect;
        // Step 1: a2a3 (White, board A), m7m5 (Black, board B); step 2: l2l4 (White, board B,
        // the d-pawn left en prise to m5), a7a6 (Black, board A). White now moves on board A;
        // on board B Black takes l4 before White can answer there.
        let mut pos = Recursion::startpos();
        for t in ["a2a3", "m7m5", "l2l4", "a7a6"] {
            let m = pos.parse_move(t, Dialect::UCI).unwrap();
            pos.make_move(m);
        }
        assert_eq!(pos.side_to_move(), Color::White);
        assert_eq!(pos.active_board(), Some(0));
        assert_eq!(pos.board(1).side_to_move(), Color::Black);
        assert_eq!(best_capture_gain(pos.board(1)), 100);
        // Black's pawn on board B counts for Black before the search sees it.
        let d = &ChessParams::DEFAULT;
        assert!(board_expectation(&pos, 1, d) < expectation(&pos, 1, false, d));
    }

    #[test]
    fn start_is_about_equal() {
        let e = Recursion::startpos().evaluate();
        assert!(e.abs() < 100, "{e}");
    }

    #[test]
    fn ir_7_a_won_board_with_an_even_other_board_is_winning() {
        // Board A: Black is mated (1-0). Board B: kings and a pawn each, White to move there.
        let fen = "R2k7k4/R11p3/16/16/16/16/12P3/3K7K4 w b b:-:-:0:1-0:n w:-:-:0:*:f 1";
        let pos = Recursion::from_fen(fen).unwrap();
        let e = pos.evaluate();
        assert!(e > 600, "{e}");
        // The same seen from Black to move (after a pass-free step) is as bad for Black.
        assert!(board_expectation(&pos, 0, &ChessParams::DEFAULT) == 1.0);
    }

    /// Board A won by White (1-0: Black's king on d8 mated by rooks on a8 and a7); board B:
    /// White's king on l1 with the pieces of the given ranks 8, 5 and 2 (16 squares each, board
    /// A's rank 8 included), `m` on board B Black's mega-knight, Frozen as Black lost board A.
    fn won_a_then_b(rank8: &str, rank5: &str, rank2: &str) -> Recursion {
        let fen =
            format!("{rank8}/R15/16/{rank5}/16/16/{rank2}/3K7K4 w b b:-:-:0:1-0:n w:-:-:0:*:f 1");
        Recursion::from_fen(&fen).unwrap()
    }

    #[test]
    fn ir_7_a_board_far_ahead_is_still_worth_improving() {
        // A board up, and board B won on material: an extra rook there still counts (the
        // board's expectation alone is flat this far ahead), and winning board B outright
        // is worth more than any unfinished board.
        let queen = won_a_then_b("R2k12", "12k3", "8Q7").evaluate();
        let rook_too = won_a_then_b("R2k12", "12k3", "8QR6").evaluate();
        assert!(rook_too - queen >= 80, "{queen} {rook_too}");
        let won = (2.0 * (BOARD + PROGRESS + FINISH)) as i32;
        assert!(won - rook_too >= FINISH as i32, "{rook_too}");
    }

    #[test]
    fn ir_4_a_mega_knight_that_cannot_capture_leaves_its_king_alone_for_the_mop_up() {
        // Black's king in the centre of board B or in its corner, beside Black's Frozen
        // mega-knight (it cannot move, IR-4): driving the king to the corner counts as it
        // does against a lone king.
        let b = |p: Recursion| p.board(1).evaluate_with_chess(&ChessParams::DEFAULT);
        let frozen =
            b(won_a_then_b("R2k4m6k", "16", "8Q7")) - b(won_a_then_b("R2k4m7", "12k3", "8Q7"));
        let lone = b(won_a_then_b("R2k11k", "16", "8Q7")) - b(won_a_then_b("R2k12", "12k3", "8Q7"));
        assert!(frozen >= 100, "{frozen}");
        assert!((frozen - lone).abs() <= 20, "{frozen} {lone}");
    }
}
