//! Training positions for the chess network — the library side of `cellmate datagen` (see
//! `docs/strength.md`, "The chess network").
//!
//! Self-play in this process: each game starts from an opening of a file (cycled) followed
//! by a few random legal plies, and every move is a fixed-node search of the engine. Each
//! *quiet* position the engine moves from (not in check, best move not a capture or
//! promotion, score not a mate) becomes a line `FEN | score | result`: the search's score
//! from White's view in centipawns and the game's result for White (`1`, `0.5`, `0`). A game
//! ends by the rules, or is adjudicated: won when the score stays beyond
//! [`ADJUDICATE_WIN`] for [`ADJUDICATE_PLIES`] plies in a row, drawn after [`MAX_PLIES`].
//!
//! With a label search ([`Spec::label`]) only every [`Label::every`]-th quiet position of a
//! game is written, scored by a search of its own of [`Label::nodes`]: fewer positions a
//! game, each with a better label, than the games' own moves give.

use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::core::rng::XorShift;
use crate::core::{Color, MoveList, Outcome, Variant};
use crate::engine::eval::EvalParams;
use crate::engine::{Control, Engine, Limits, Score, SearchResult};
use crate::variants::chess::Chess;

/// Centipawns (White's view) beyond which a game is adjudicated won…
pub const ADJUDICATE_WIN: i32 = 2000;
/// …when they hold this many plies in a row.
pub const ADJUDICATE_PLIES: usize = 6;
/// A game still running after this many plies is drawn.
pub const MAX_PLIES: usize = 400;

/// What `cellmate datagen` is asked for.
#[derive(Clone, Debug)]
pub struct Spec {
    /// Opening positions (FEN), cycled.
    pub openings: Vec<String>,
    /// Nodes per move.
    pub nodes: u64,
    /// Games in all.
    pub games: u64,
    /// Random plies after each opening: between `random_min` and `random_max`.
    pub random_min: usize,
    pub random_max: usize,
    /// Games played at once (one thread each).
    pub threads: usize,
    pub seed: u64,
    /// The evaluation's parameters (a network from `--eval-file` plays with its own).
    pub eval: EvalParams,
    /// A label search (see the module's text); `None`: every quiet position, with the score
    /// of the move's own search.
    pub label: Option<Label>,
}

/// The label search of `cellmate datagen --label-nodes --label-every`.
#[derive(Clone, Copy, Debug)]
pub struct Label {
    /// Nodes of each label search.
    pub nodes: u64,
    /// One quiet position in this many (counted from each game's first) is written.
    pub every: usize,
}

/// A search of `pos` by `engine` to `nodes` nodes.
fn search_nodes(engine: &Engine, pos: &Chess, nodes: u64) -> SearchResult {
    let limits = Limits {
        nodes: Some(nodes),
        ..Limits::default()
    };
    engine.search(pos, &limits, &Control::new(false), &|_| {})
}

/// One game's recorded positions (FEN, White's score) and the result for White; the label
/// searches, if any, by the `labeller`'s engine (one of its own, so the games are the ones
/// played without them).
fn play(
    spec: &Spec,
    engine: &Engine,
    labeller: Option<(Label, &Engine)>,
    game: u64,
) -> (Vec<(String, i32)>, f32) {
    let mut rng = XorShift(spec.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ((game + 1) * 7919));
    let opening = &spec.openings[(game as usize) % spec.openings.len()];
    let start = Chess::from_fen(opening).unwrap_or_else(|_| Chess::startpos());
    let mut pos = start.clone();
    let random = spec.random_min + rng.below(spec.random_max - spec.random_min + 1);
    let mut list = MoveList::new();
    for _ in 0..random {
        list.clear();
        pos.legal_moves(&mut list);
        if list.is_empty() {
            break;
        }
        pos.make_move(list[rng.below(list.len())]);
    }
    // A random walk can end the game or leave a lost position: start again from the opening.
    if pos.outcome().is_some() {
        pos = start;
    }
    engine.clear();
    if let Some((_, l)) = labeller {
        l.clear();
    }
    let mut recorded = Vec::new();
    let mut quiet = 0usize;
    let mut streak: (i32, usize) = (0, 0);
    for _ in 0..MAX_PLIES {
        if let Some(o) = pos.outcome() {
            return (recorded, result_of(&o));
        }
        let r = search_nodes(engine, &pos, spec.nodes);
        let Some(best) = r.best else { break };
        let white = |s: i32| {
            if pos.side_to_move() == Color::White {
                s
            } else {
                -s
            }
        };
        // The side (+1 White, −1 Black, 0 neither) the score says is winning.
        let sign = match r.score {
            Score::Cp(cp) => {
                let w = white(cp);
                if !pos.in_check() && !pos.is_tactical(best) {
                    quiet += 1;
                    match labeller {
                        None => recorded.push((pos.fen(), w)),
                        Some((label, l)) if quiet.is_multiple_of(label.every.max(1)) => {
                            // A label that finds a mate is left out, as a move's is.
                            if let Score::Cp(cp) = search_nodes(l, &pos, label.nodes).score {
                                recorded.push((pos.fen(), white(cp)));
                            }
                        }
                        Some(_) => {}
                    }
                }
                if w.abs() >= ADJUDICATE_WIN {
                    w.signum()
                } else {
                    0
                }
            }
            Score::Mate(m) => {
                if white(m.signum()) > 0 {
                    1
                } else {
                    -1
                }
            }
        };
        streak = if sign != 0 && sign == streak.0 {
            (sign, streak.1 + 1)
        } else {
            (sign, 1)
        };
        if streak.0 != 0 && streak.1 >= ADJUDICATE_PLIES {
            return (recorded, if streak.0 > 0 { 1.0 } else { 0.0 });
        }
        pos.make_move(best);
    }
    (recorded, 0.5)
}

fn result_of(o: &Outcome) -> f32 {
    match o {
        Outcome::Win {
            winner: Color::White,
            ..
        } => 1.0,
        Outcome::Win { .. } => 0.0,
        Outcome::Draw { .. } => 0.5,
    }
}

/// Plays `spec.games` games on `spec.threads` threads and writes every recorded position to
/// `out` as it comes; reports progress on stderr every 100 games. Returns the positions
/// written.
pub fn run(spec: &Spec, out: &mut (dyn Write + Send)) -> std::io::Result<u64> {
    let next = AtomicU64::new(0);
    let written = AtomicU64::new(0);
    let out = Mutex::new(out);
    let failed = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..spec.threads.max(1) {
            s.spawn(|| {
                let mut engine = Engine::new(16, 1);
                engine.eval = spec.eval;
                let labeller = spec.label.map(|_| {
                    let mut e = Engine::new(16, 1);
                    e.eval = spec.eval;
                    e
                });
                loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= spec.games {
                        break;
                    }
                    let labeller = spec.label.zip(labeller.as_ref());
                    let (positions, result) = play(spec, &engine, labeller, game);
                    let mut text = String::new();
                    for (fen, score) in &positions {
                        text.push_str(&format!("{fen} | {score} | {result}\n"));
                    }
                    let mut o = out.lock().unwrap_or_else(|e| e.into_inner());
                    if let Err(e) = o.write_all(text.as_bytes()) {
                        *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                        break;
                    }
                    let n = written.fetch_add(positions.len() as u64, Ordering::Relaxed)
                        + positions.len() as u64;
                    if (game + 1).is_multiple_of(100) {
                        let _ = o.flush();
                        eprintln!("datagen: {} games, {n} positions", game + 1);
                    }
                }
            });
        }
    });
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    out.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .flush()?;
    Ok(written.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `games` games from the start at 300 nodes a move, one thread, no label search.
    fn small_spec(games: u64) -> Spec {
        Spec {
            openings: vec!["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into()],
            nodes: 300,
            games,
            random_min: 2,
            random_max: 6,
            threads: 1,
            seed: 9,
            eval: EvalParams::DEFAULT,
            label: None,
        }
    }

    #[test]
    fn every_line_is_a_quiet_position_with_its_games_result_and_runs_repeat() {
        let spec = small_spec(3);
        let mut a = Vec::new();
        let n = run(&spec, &mut a).unwrap();
        let text = String::from_utf8(a.clone()).unwrap();
        assert_eq!(text.lines().count() as u64, n);
        assert!(n > 20, "{n} positions");
        for line in text.lines() {
            let parts: Vec<&str> = line.split(" | ").collect();
            assert_eq!(parts.len(), 3, "{line}");
            let pos = Chess::from_fen(parts[0]).unwrap();
            assert!(!pos.in_check(), "{line}");
            assert!(pos.outcome().is_none(), "{line}");
            let score: i32 = parts[1].parse().unwrap();
            assert!(score.abs() < 30_000, "{line}");
            assert!(["0", "0.5", "1"].contains(&parts[2]), "{line}");
        }
        let mut b = Vec::new();
        run(&spec, &mut b).unwrap();
        assert_eq!(a, b, "the same spec plays the same games");
    }

    /// With a label search, every third quiet position of the same games is written, each
    /// scored by its own search of more nodes: the lines are a subset of the plain run's
    /// positions (the games are the same: the label searches are another engine's).
    #[test]
    fn a_label_search_writes_every_nth_quiet_position_with_its_own_score() {
        let mut spec = small_spec(2);
        let mut plain = Vec::new();
        run(&spec, &mut plain).unwrap();
        spec.label = Some(Label {
            nodes: 3000,
            every: 3,
        });
        let mut labelled = Vec::new();
        let n = run(&spec, &mut labelled).unwrap();
        // Each line's (FEN, score).
        let lines = |text: &[u8]| -> Vec<(String, String)> {
            String::from_utf8(text.to_vec())
                .unwrap()
                .lines()
                .map(|l| {
                    let p: Vec<&str> = l.split(" | ").collect();
                    (p[0].to_string(), p[1].to_string())
                })
                .collect()
        };
        let (all, some) = (lines(&plain), lines(&labelled));
        assert_eq!(some.len() as u64, n);
        assert!(n > 5, "{n} positions");
        // Per game every third: the plain run's positions at 3, 6, 9, … of each game.
        assert!(
            some.len() * 3 <= all.len() && some.len() * 3 + 6 >= all.len(),
            "{} of {}",
            some.len(),
            all.len()
        );
        assert!(some.iter().all(|(f, _)| all.iter().any(|(g, _)| f == g)));
        // Scored by searches of their own: not all the plain run's scores.
        let differ = some.iter().filter(|x| !all.contains(x)).count();
        assert!(differ > 0, "every label is the move search's own score");
    }
}
