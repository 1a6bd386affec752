//! Tuning the whole chess evaluation by the Texel method — the library side of
//! `cellmate tune --eval` (see `docs/strength.md`, "Texel tuning of the chess evaluation").
//!
//! Every chess game of a PGN file (as `cellmate match --pgn` writes it) is replayed; each
//! *quiet* position after the opening plies (not in check, no capture that wins material by
//! static exchange, and not decided by a term outside the parameters: see
//! [`crate::engine::eval::chess::trace`]) becomes one sample: the evaluation's terms as counts
//! of the parameters of [`ChessParams`], and the game's result for White. The parameters are
//! then fitted to minimise the mean squared error between the result and `σ(k·eval)`, where
//! `eval` is the evaluation from White's view and `k` is first fitted to the starting values
//! and then kept: gradient descent with Adam over all the pairs at once (the evaluation is
//! linear in them). Every tenth game is held out and its loss reported, so overfitting shows.

use crate::core::Variant;
use crate::engine::eval::chess::{best_capture_gain, trace, MAX_PHASE, TEMPO};
use crate::engine::eval::chess_params::{name, ChessParams, COUNT};
use crate::tune::{read_records, sigmoid, GameRecord};
use crate::variants::{AnyPos, VariantKind};

/// One position: the counts of the parameters that are not zero (White's minus Black's),
/// the middlegame weight of its phase, what the rest of the evaluation adds (the tempo,
/// centipawns from White's view), the game's result for White and whether the game is held
/// out.
#[derive(Clone, Debug)]
pub struct Sample {
    pub coef: Vec<(u16, i16)>,
    pub mg_weight: f64,
    pub fixed: f64,
    pub y: f64,
    pub held_out: bool,
}

/// What reading the games gave.
#[derive(Clone, Debug, Default)]
pub struct Data {
    pub samples: Vec<Sample>,
    pub games: usize,
    /// Games left out (unfinished, failures, other variants, unreadable).
    pub skipped: usize,
}

/// Reads the quiet positions of the chess games of `pgn` after `skip_plies` plies.
pub fn read(pgn: &str, skip_plies: usize) -> Data {
    let (_, records, skipped) = read_records(pgn, Some(VariantKind::Chess));
    let mut data = Data {
        skipped,
        ..Data::default()
    };
    for GameRecord { start, moves, y } in records {
        let AnyPos::Chess(mut pos) = start else {
            data.skipped += 1;
            continue;
        };
        let held_out = data.games % 10 == 9;
        data.games += 1;
        for (ply, &m) in moves.iter().enumerate() {
            if ply >= skip_plies && !pos.in_check() && best_capture_gain(&pos) == 0 {
                if let Some(tr) = trace(&pos) {
                    let w = tr.phase as f64 / MAX_PHASE as f64;
                    let tempo = if pos.side_to_move() == crate::core::Color::White {
                        TEMPO
                    } else {
                        -TEMPO
                    };
                    data.samples.push(Sample {
                        coef: tr
                            .coef
                            .iter()
                            .enumerate()
                            .filter(|(_, &c)| c != 0)
                            .map(|(i, &c)| (i as u16, c as i16))
                            .collect(),
                        mg_weight: w,
                        fixed: tempo as f64,
                        y,
                        held_out,
                    });
                }
            }
            pos.make_move(m);
        }
    }
    data
}

/// The parameters as real numbers: `[mg, eg]` per pair.
pub type Values = Vec<[f64; 2]>;

/// The real-valued copy of `params`.
pub fn values(params: &ChessParams) -> Values {
    params
        .v
        .iter()
        .map(|&(m, e)| [m as f64, e as f64])
        .collect()
}

/// The evaluation of sample `s` (centipawns, White's view) with `v`.
#[inline]
fn eval(s: &Sample, v: &Values) -> f64 {
    let (w, ew) = (s.mg_weight, 1.0 - s.mg_weight);
    s.fixed
        + s.coef
            .iter()
            .map(|&(i, c)| c as f64 * (v[i as usize][0] * w + v[i as usize][1] * ew))
            .sum::<f64>()
}

/// The mean squared error of `σ(k·eval)` against the results, over the training samples
/// (`held_out` false) or the held-out ones.
pub fn loss(samples: &[Sample], v: &Values, k: f64, held_out: bool) -> f64 {
    let (mut sum, mut n) = (0.0, 0usize);
    for s in samples.iter().filter(|s| s.held_out == held_out) {
        let d = s.y - sigmoid(k * eval(s, v));
        sum += d * d;
        n += 1;
    }
    sum / n.max(1) as f64
}

/// The `k` that minimises the training loss with `v` (golden-section search on
/// [1e-4, 0.02]).
pub fn fit_k(samples: &[Sample], v: &Values) -> f64 {
    let (mut a, mut b) = (1e-4f64, 0.02f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if loss(samples, v, c, false) < loss(samples, v, d, false) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Fits `v` to the training samples: `epochs` full-batch Adam steps of size `rate`
/// (centipawns) on the loss plus `l2 · Σ ((v − v₀) / 100)²` (`v₀` the starting values).
/// `report` sees the epoch and the training and held-out losses every `every` epochs.
pub fn fit(
    samples: &[Sample],
    v: &mut Values,
    k: f64,
    (epochs, rate, l2): (usize, f64, f64),
    every: usize,
    mut report: impl FnMut(usize, f64, f64),
) {
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut m = vec![[0.0f64; 2]; v.len()];
    let mut s2 = vec![[0.0f64; 2]; v.len()];
    let train: Vec<&Sample> = samples.iter().filter(|s| !s.held_out).collect();
    let n = train.len().max(1) as f64;
    let start = v.clone();
    for epoch in 1..=epochs {
        let mut grad: Values = v
            .iter()
            .zip(&start)
            .map(|(x, x0)| [0, 1].map(|h| 2.0 * l2 * (x[h] - x0[h]) / 1e4))
            .collect();
        for s in &train {
            let p = sigmoid(k * eval(s, v));
            // d/d eval of (y − p)²
            let g = -2.0 * (s.y - p) * p * (1.0 - p) * k / n;
            let (w, ew) = (s.mg_weight, 1.0 - s.mg_weight);
            for &(i, c) in &s.coef {
                let gi = &mut grad[i as usize];
                gi[0] += g * c as f64 * w;
                gi[1] += g * c as f64 * ew;
            }
        }
        let (c1, c2) = (1.0 - b1.powi(epoch as i32), 1.0 - b2.powi(epoch as i32));
        for i in 0..v.len() {
            for h in 0..2 {
                m[i][h] = b1 * m[i][h] + (1.0 - b1) * grad[i][h];
                s2[i][h] = b2 * s2[i][h] + (1.0 - b2) * grad[i][h] * grad[i][h];
                v[i][h] -= rate * (m[i][h] / c1) / ((s2[i][h] / c2).sqrt() + eps);
            }
        }
        if epoch % every == 0 || epoch == epochs {
            report(epoch, loss(samples, v, k, false), loss(samples, v, k, true));
        }
    }
}

/// `v` rounded into parameters; a pair that no sample counted keeps its value from `old`.
pub fn rounded(v: &Values, old: &ChessParams, samples: &[Sample]) -> ChessParams {
    let mut seen = vec![false; COUNT];
    for s in samples {
        for &(i, _) in &s.coef {
            seen[i as usize] = true;
        }
    }
    let mut p = old.v;
    for i in 0..COUNT {
        if seen[i] {
            p[i] = (v[i][0].round() as i32, v[i][1].round() as i32);
        }
    }
    // Through `new`: the expanded tables and the pawn fingerprint follow the values.
    ChessParams::new(p)
}

/// The rows of `chess_params.rs`'s table: `    (mg, eg), // name`.
pub fn rust_rows(p: &ChessParams) -> String {
    p.v.iter()
        .enumerate()
        .map(|(i, (mg, eg))| format!("    ({mg}, {eg}), // {}\n", name(i)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::chess_params::{MATERIAL, PST};
    use crate::variants::chess::Chess;

    /// One game (a Ruy Lopez to move 6, then a made-up result) and one unfinished, in the
    /// UCI coordinates `cellmate match` writes.
    const PGN: &str = "[Event \"t\"]\n[Variant \"chess\"]\n[Result \"1-0\"]\n\n\
        1. e2e4 e7e5 2. g1f3 b8c6 3. f1b5 a7a6 4. b5c6 d7c6 5. e1g1 f7f6 6. d2d4 e5d4 1-0\n\n\
        [Event \"t\"]\n[Variant \"chess\"]\n[Result \"*\"]\n\n1. e2e4 *\n";

    /// The quiet positions of the game, and their evaluation: the sample's value is the
    /// engine's evaluation seen from White (tempo included) before the integer division's
    /// rounding.
    #[test]
    fn reads_the_quiet_positions_with_their_evaluation() {
        let data = read(PGN, 2);
        assert_eq!((data.games, data.skipped), (1, 1));
        let mut pos = Chess::startpos();
        let moves = [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1", "f7f6", "d2d4",
            "e5d4",
        ];
        let mut expected = Vec::new();
        for (ply, m) in moves.iter().enumerate() {
            if ply >= 2 && !pos.in_check() && best_capture_gain(&pos) == 0 {
                let e = pos.evaluate_with_chess(&ChessParams::DEFAULT);
                expected.push(if pos.side_to_move() == crate::core::Color::White {
                    e
                } else {
                    -e
                });
            }
            let mv = pos.parse_move(m, crate::core::Dialect::UCI).unwrap();
            pos.make_move(mv);
        }
        // Plies 2 to 11 but two: after 4. Bxc6 (ply 7) Black takes the bishop back, after
        // 4... dxc6 (ply 8) Nxe5 wins a pawn by static exchange.
        assert_eq!(expected.len(), 8);
        assert_eq!(data.samples.len(), expected.len());
        let v = values(&ChessParams::DEFAULT);
        for (s, white) in data.samples.iter().zip(expected) {
            assert_eq!(s.y, 1.0);
            assert!(!s.held_out);
            let e = eval(s, &v);
            assert!((e - white as f64).abs() < 1.0, "{e} {white}");
        }
    }

    /// Fitting moves a value the way the results ask and no other: a pawn up wins, a pawn
    /// down loses, so the pawn's middlegame value grows; every other value stays.
    #[test]
    fn fit_moves_only_what_the_results_ask() {
        let pawn = (MATERIAL as u16, 0);
        let sample = |c: i16, y: f64| Sample {
            coef: vec![(pawn.0, c)],
            mg_weight: 1.0,
            fixed: 0.0,
            y,
            held_out: false,
        };
        let samples = vec![sample(1, 1.0), sample(-1, 0.0)];
        let start = values(&ChessParams::DEFAULT);
        let mut v = start.clone();
        let before = loss(&samples, &v, 0.01, false);
        let mut last = before;
        fit(&samples, &mut v, 0.01, (50, 1.0, 0.0), 10, |_, tr, _| {
            assert!(tr < last);
            last = tr;
        });
        assert!(v[MATERIAL][0] > start[MATERIAL][0] + 40.0);
        assert_eq!(v[MATERIAL][1], start[MATERIAL][1]); // no endgame weight
        assert!(v.iter().zip(&start).skip(1).all(|(a, b)| a == b));
        let p = rounded(&v, &ChessParams::DEFAULT, &samples);
        assert_eq!(p.v[PST], ChessParams::DEFAULT.v[PST]);
        assert_eq!(p.v[MATERIAL].0, v[MATERIAL][0].round() as i32);
    }
}
