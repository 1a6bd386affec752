//! Balanced openings for matches — the library side of `cellmate openings` (see
//! `docs/strength.md`, "Openings").
//!
//! A match from uniformly random plies starts from junk (`1. h3 g5 2. f4`), often lost
//! already. Here each ply is drawn among the *sound* moves: every legal move is searched to
//! `pick_depth` and one is drawn uniformly among those within `pick_margin` centipawns of the
//! best. The position after `plies` such moves is kept when a search to `check_depth` scores
//! it within `margin` centipawns of equality for the side to move, and it is not a repetition of
//! one kept before. The same seed gives the same openings.
//!
//! It uses the engine's own search and evaluation (this sits above the engine, like `tune`),
//! through the variant registry's dispatch.

use std::collections::HashSet;

use crate::core::rng::XorShift;
use crate::core::{Dialect, Move, MoveList};
use crate::engine::{eval::Evaluate, Control, Engine, Limits, Score};
use crate::variants::{with_pos, AnyPos};

/// What `cellmate openings` asks for (its command-line options).
#[derive(Clone, Debug, clap::Args)]
pub struct BookSpec {
    /// Openings to write.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Plies from the start position.
    #[arg(long, default_value_t = 8)]
    pub plies: usize,
    /// Depth of the search rating each candidate move.
    #[arg(long, default_value_t = 4)]
    pub pick_depth: u32,
    /// Candidate moves within this many centipawns of the best are drawn from.
    #[arg(long, default_value_t = 20)]
    pub pick_margin: i32,
    /// Depth of the search rating the final position.
    #[arg(long, default_value_t = 10)]
    pub check_depth: u32,
    /// The final position is kept when it scores within ± this many centipawns.
    #[arg(long, default_value_t = 50)]
    pub margin: i32,
    /// Seed of the draws (0 counts as 1).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl BookSpec {
    /// Tries in all before giving up: twenty per opening wanted, at least 100.
    pub fn max_tries(&self) -> usize {
        self.count.saturating_mul(20).max(100)
    }
}

/// One opening: its FEN and the score that admitted it (side to move's view).
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    pub fen: String,
    pub moves: Vec<String>,
    pub score: i32,
}

fn centipawns(score: Score) -> Option<i32> {
    match score {
        Score::Cp(cp) => Some(cp),
        Score::Mate(_) => None,
    }
}

fn rate<V: Evaluate>(engine: &Engine, pos: &V, depth: u32, only: Option<Move>) -> Option<i32> {
    let limits = Limits {
        depth: Some(depth.max(1)),
        searchmoves: only.into_iter().collect(),
        ..Limits::default()
    };
    let control = Control::new(false);
    centipawns(engine.search(pos, &limits, &control, &|_| {}).score)
}

/// One try: `plies` sound moves from `start`, or `None` when the game ended or no move was
/// sound (every one loses to a mate).
fn draw_line<V: Evaluate>(
    engine: &Engine,
    start: &V,
    spec: &BookSpec,
    rng: &mut XorShift,
) -> Option<(V, Vec<String>)> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for _ in 0..spec.plies {
        if pos.outcome().is_some() {
            return None;
        }
        let mut legal = MoveList::new();
        pos.legal_moves(&mut legal);
        let rated: Vec<(Move, i32)> = legal
            .iter()
            .filter_map(|&m| rate(engine, &pos, spec.pick_depth, Some(m)).map(|s| (m, s)))
            .collect();
        let best = rated.iter().map(|&(_, s)| s).max()?;
        let sound: Vec<_> = rated
            .iter()
            .filter(|&&(_, s)| s >= best - spec.pick_margin)
            .map(|&(m, _)| m)
            .collect();
        let m = sound[rng.below(sound.len())];
        moves.push(pos.move_text(m, Dialect::UCI));
        pos.make_move(m);
    }
    (pos.outcome().is_none()).then_some((pos, moves))
}

fn generate<V: Evaluate>(
    start: &V,
    spec: &BookSpec,
    progress: &mut dyn FnMut(&Opening),
) -> Vec<Opening> {
    let engine = Engine::new(16, 1);
    let mut rng = XorShift(spec.seed.max(1));
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for _ in 0..spec.max_tries() {
        if out.len() >= spec.count {
            break;
        }
        // One table per try, kept across its searches (the same seed still gives the same file).
        engine.clear();
        let Some((pos, moves)) = draw_line(&engine, start, spec, &mut rng) else {
            continue;
        };
        let fen = pos.fen();
        let Some(score) = rate(&engine, &pos, spec.check_depth, None) else {
            continue;
        };
        if score.abs() <= spec.margin && seen.insert(fen.clone()) {
            let opening = Opening { fen, moves, score };
            progress(&opening);
            out.push(opening);
        }
    }
    out
}

/// Up to `spec.count` balanced openings of `start`'s variant (fewer if the tries ran out).
pub fn openings(
    start: &AnyPos,
    spec: &BookSpec,
    progress: &mut dyn FnMut(&Opening),
) -> Vec<Opening> {
    with_pos!(start, |p| generate(p, spec, progress))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::VariantKind;

    fn spec(seed: u64) -> BookSpec {
        BookSpec {
            count: 3,
            plies: 4,
            pick_depth: 1,
            pick_margin: 30,
            check_depth: 3,
            margin: 60,
            seed,
        }
    }

    #[test]
    fn openings_are_balanced_distinct_and_repeatable() {
        let start = VariantKind::Chess.startpos();
        let a = openings(&start, &spec(9), &mut |_| {});
        let b = openings(&start, &spec(9), &mut |_| {});
        assert_eq!(a, b, "the same seed gives the same openings");
        assert_eq!(a.len(), 3);
        let fens: HashSet<_> = a.iter().map(|o| o.fen.clone()).collect();
        assert_eq!(fens.len(), 3, "no opening twice");
        for o in &a {
            assert!(o.score.abs() <= 60, "{o:?}");
            assert_eq!(o.moves.len(), 4);
            // The FEN is the start position after the moves.
            let mut game = VariantKind::Chess.startpos();
            for m in &o.moves {
                let mv = game.parse_move(m, Dialect::UCI).unwrap();
                game.make_move(mv);
            }
            assert_eq!(game.fen(), o.fen);
        }
    }
}
