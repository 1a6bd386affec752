//! Measuring material values from games (the Texel method) — the library side of
//! `cellmate tune` (see `docs/strength.md`, "Measured values").
//!
//! Every game of a PGN file (as `cellmate match --pgn` writes it: `Variant` and `FEN` tags,
//! UCI coordinates) is replayed with the rules; each position after the opening plies becomes
//! one sample: a vector of material **features** (White's count minus Black's count of each
//! piece type, or for Immune Chess each side's own counts, since the armies differ) and the
//! game's result for White (1, ½, 0). A logistic model
//! `P(White wins) = σ(b + Σ wᵢ·xᵢ)` is fitted by maximum likelihood (cross-entropy, draws as
//! ½), by Newton's method, which for this convex problem converges to the exact optimum in a
//! few steps. The coefficients are turned into centipawns by an anchor feature (a red blood
//! cell, a pawn, an Invader = 100).
//!
//! Only *quiet* positions are used: the features equal those of the position before and after,
//! so that a capture that is about to be answered is not read as a material gain.
//!
//! This sits above the protocol room (it uses [`AnyPos`]); which features a variant has, and
//! how a position's are counted, is its evaluator's business ([`Features`], beside the
//! tables they measure), read here through the variant registry's dispatch.

use crate::core::Move;
use crate::engine::eval::Features;
use crate::notation;
use crate::variants::{with_pos, AnyPos, VariantKind};

/// A feature vector's names and values for one variant.
pub struct FeatureSet {
    pub names: Vec<&'static str>,
    /// The feature whose value is 100 centipawns.
    pub anchor: usize,
    /// Whether the anchor counts for Black (Immune Chess's Invader): its coefficient is
    /// negative, so centipawns are `-100·w/w_anchor`.
    pub anchor_black: bool,
}

/// The feature names of a variant: its evaluator's list ([`Features::FEATURES`]).
pub fn feature_set(kind: VariantKind) -> FeatureSet {
    let list = with_pos!(&kind.startpos(), |p| p.feature_list());
    FeatureSet {
        names: list.names.to_vec(),
        anchor: list.anchor,
        anchor_black: list.anchor_black,
    }
}

/// How many leading features count material; the rest (Microorganism mobility) change with
/// every move, so a position is quiet when these equal those of its neighbours.
pub fn material_features(kind: VariantKind) -> usize {
    with_pos!(&kind.startpos(), |p| p.feature_list().material)
}

/// The features of a position (see [`feature_set`] for their order), from its evaluator.
pub fn features(pos: &AnyPos) -> Vec<f64> {
    with_pos!(pos, |p| p.features())
}

/// One position: features and the game's result for White.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub x: Vec<f64>,
    pub y: f64,
}

/// What reading a PGN file gave.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    pub kind: Option<VariantKind>,
    pub samples: Vec<Sample>,
    /// For each sample, the index (among the games used) of the game it comes from.
    pub game_of: Vec<usize>,
    pub games: usize,
    pub white_wins: usize,
    pub black_wins: usize,
    pub draws: usize,
    /// Games left out: engine failures (abandoned, time forfeit, illegal move, rules
    /// infraction), unfinished (`*`), another variant, unreadable.
    pub skipped: usize,
}

/// A finished game of a PGN file, ready to replay: its start position, its moves and its
/// result for White (1, ½, 0).
pub struct GameRecord {
    pub start: AnyPos,
    pub moves: Vec<Move>,
    pub y: f64,
}

/// The finished games of `pgn` in `kind` (or the first game's variant), with the variant and
/// the number of games left out: engine failures (abandoned, time forfeit, illegal move, rules
/// infraction), unfinished (`*`), another variant, unreadable.
pub fn read_records(
    pgn: &str,
    kind: Option<VariantKind>,
) -> (Option<VariantKind>, Vec<GameRecord>, usize) {
    let mut kind = kind;
    let mut records = Vec::new();
    let mut skipped = 0;
    for chunk in notation::split_games(pgn) {
        let Ok(text) = notation::split(&chunk) else {
            skipped += 1;
            continue;
        };
        let y = match text.tag("Result").or(text.result.as_deref()) {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            Some("1/2-1/2") => 0.5,
            _ => {
                skipped += 1;
                continue;
            }
        };
        if matches!(
            text.tag("Termination"),
            Some("abandoned" | "time forfeit" | "illegal move" | "rules infraction")
        ) {
            skipped += 1;
            continue;
        }
        let Some(k) = text
            .tag("Variant")
            .and_then(VariantKind::from_name)
            .or(Some(VariantKind::Chess))
        else {
            continue;
        };
        if *kind.get_or_insert(k) != k {
            skipped += 1;
            continue;
        }
        let Ok(start) = notation::start_position(k, text.tag("FEN")) else {
            skipped += 1;
            continue;
        };
        let Ok(moves) = notation::read(&start, &text.moves, crate::core::Dialect::UCI) else {
            skipped += 1;
            continue;
        };
        records.push(GameRecord { start, moves, y });
    }
    (kind, records, skipped)
}

/// Reads every game of `pgn` in `kind` (or the first game's variant), keeping the quiet
/// positions after `skip_plies` plies.
pub fn read_games(pgn: &str, kind: Option<VariantKind>, skip_plies: usize) -> Dataset {
    let (kind, records, skipped) = read_records(pgn, kind);
    let mut data = Dataset {
        kind,
        skipped,
        ..Dataset::default()
    };
    let Some(k) = kind else {
        return data;
    };
    for GameRecord { start, moves, y } in records {
        data.games += 1;
        match y {
            1.0 => data.white_wins += 1,
            0.0 => data.black_wins += 1,
            _ => data.draws += 1,
        }
        let mut pos = start;
        let mut feats = vec![features(&pos)];
        for &m in &moves {
            pos.make_move(m);
            feats.push(features(&pos));
        }
        let m = material_features(k);
        for i in skip_plies.max(1)..feats.len().saturating_sub(1) {
            if feats[i][..m] == feats[i - 1][..m] && feats[i][..m] == feats[i + 1][..m] {
                data.samples.push(Sample {
                    x: feats[i].clone(),
                    y,
                });
                data.game_of.push(data.games - 1);
            }
        }
    }
    data
}

/// A fitted logistic model: intercept, coefficients and their standard errors (from the
/// inverse Hessian; positions of one game are not independent, so these understate the real
/// uncertainty), the mean cross-entropy and the Newton steps taken.
#[derive(Clone, Debug)]
pub struct Fit {
    pub intercept: f64,
    pub coef: Vec<f64>,
    pub stderr: Vec<f64>,
    pub loss: f64,
    pub iterations: usize,
}

pub(crate) fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Fits `P(y=1) = σ(b + w·x)` by Newton's method on the mean cross-entropy plus
/// `ridge/2 · |w|²` (the ridge keeps features that never vary at 0 and the Hessian
/// invertible). Stops when the largest step is below 1e-10 or after 100 steps.
#[allow(clippy::needless_range_loop)] // matrix code reads best with indices
pub fn fit(samples: &[Sample], ridge: f64) -> Fit {
    let p = samples.first().map_or(0, |s| s.x.len());
    let n = samples.len().max(1) as f64;
    let dim = p + 1; // index 0: intercept
    let mut w = vec![0.0; dim];
    let mut iterations = 0;
    let mut hess = vec![vec![0.0; dim]; dim];
    for it in 0..100 {
        iterations = it + 1;
        let mut grad = vec![0.0; dim];
        for row in hess.iter_mut() {
            row.iter_mut().for_each(|v| *v = 0.0);
        }
        for s in samples {
            let z = w[0] + s.x.iter().zip(&w[1..]).map(|(a, b)| a * b).sum::<f64>();
            let q = sigmoid(z);
            let r = q - s.y;
            let h = q * (1.0 - q);
            let xi = |i: usize| if i == 0 { 1.0 } else { s.x[i - 1] };
            for i in 0..dim {
                let a = xi(i);
                if a == 0.0 {
                    continue;
                }
                grad[i] += r * a;
                for j in i..dim {
                    hess[i][j] += h * a * xi(j);
                }
            }
        }
        for i in 0..dim {
            grad[i] /= n;
            for j in i..dim {
                hess[i][j] /= n;
                hess[j][i] = hess[i][j];
            }
            if i > 0 {
                grad[i] += ridge * w[i];
                hess[i][i] += ridge;
            }
        }
        let step = solve(&hess, &grad);
        let mut biggest: f64 = 0.0;
        for i in 0..dim {
            w[i] -= step[i];
            biggest = biggest.max(step[i].abs());
        }
        if biggest < 1e-10 {
            break;
        }
    }
    let loss = samples
        .iter()
        .map(|s| {
            let z = w[0] + s.x.iter().zip(&w[1..]).map(|(a, b)| a * b).sum::<f64>();
            let q = sigmoid(z).clamp(1e-15, 1.0 - 1e-15);
            -(s.y * q.ln() + (1.0 - s.y) * (1.0 - q).ln())
        })
        .sum::<f64>()
        / n;
    let stderr = (1..dim)
        .map(|i| {
            let mut e = vec![0.0; dim];
            e[i] = 1.0;
            let col = solve(&hess, &e);
            (col[i].max(0.0) / n).sqrt()
        })
        .collect();
    Fit {
        intercept: w[0],
        coef: w[1..].to_vec(),
        stderr,
        loss,
        iterations,
    }
}

/// Solves `a·x = b` by Gaussian elimination with partial pivoting (a small dense system).
#[allow(clippy::needless_range_loop)]
fn solve(a: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .zip(b)
        .map(|(row, &v)| {
            let mut r = row.clone();
            r.push(v);
            r
        })
        .collect();
    for c in 0..n {
        let piv = (c..n)
            .max_by(|&i, &j| m[i][c].abs().total_cmp(&m[j][c].abs()))
            .unwrap_or(c);
        m.swap(c, piv);
        if m[c][c].abs() < 1e-300 {
            continue;
        }
        for r in 0..n {
            if r != c {
                let f = m[r][c] / m[c][c];
                if f != 0.0 {
                    for k in c..=n {
                        m[r][k] -= f * m[c][k];
                    }
                }
            }
        }
    }
    (0..n)
        .map(|i| {
            if m[i][i].abs() < 1e-300 {
                0.0
            } else {
                m[i][n] / m[i][i]
            }
        })
        .collect()
}

/// Centipawns of each coefficient given the anchor (anchor = 100).
pub fn centipawns(fit: &Fit, set: &FeatureSet) -> Vec<f64> {
    let a = fit.coef[set.anchor];
    let sign = if set.anchor_black { -1.0 } else { 1.0 };
    fit.coef.iter().map(|w| sign * 100.0 * w / a).collect()
}

/// Counts how often each feature is non-zero (how much data stands behind a value).
pub fn nonzero_counts(samples: &[Sample]) -> Vec<usize> {
    let p = samples.first().map_or(0, |s| s.x.len());
    (0..p)
        .map(|i| samples.iter().filter(|s| s.x[i] != 0.0).count())
        .collect()
}

/// The spread of the centipawn values when whole games are resampled with replacement
/// (`rounds` refits, seeded): the honest error bar, since the positions of one game are not
/// independent. Returns the standard deviation of each feature's centipawns.
pub fn bootstrap(data: &Dataset, ridge: f64, rounds: usize, seed: u64) -> Vec<f64> {
    let set = feature_set(data.kind.unwrap_or(VariantKind::Chess));
    let p = set.names.len();
    if data.games == 0 || rounds < 2 {
        return vec![0.0; p];
    }
    let mut by_game: Vec<Vec<usize>> = vec![Vec::new(); data.games];
    for (i, &g) in data.game_of.iter().enumerate() {
        by_game[g].push(i);
    }
    let mut rng = crate::core::rng::XorShift(seed.max(1));
    let mut sum = vec![0.0; p];
    let mut sum2 = vec![0.0; p];
    for _ in 0..rounds {
        let mut samples = Vec::with_capacity(data.samples.len());
        for _ in 0..data.games {
            let g = rng.below(data.games);
            samples.extend(by_game[g].iter().map(|&i| data.samples[i].clone()));
        }
        let cp = centipawns(&fit(&samples, ridge), &set);
        for i in 0..p {
            sum[i] += cp[i];
            sum2[i] += cp[i] * cp[i];
        }
    }
    let n = rounds as f64;
    (0..p)
        .map(|i| {
            ((sum2[i] - sum[i] * sum[i] / n) / (n - 1.0))
                .max(0.0)
                .sqrt()
        })
        .collect()
}

/// The report `cellmate tune` prints; `spread` (from [`bootstrap`]) adds a column.
pub fn report(data: &Dataset, fit: &Fit, spread: Option<&[f64]>) -> String {
    let kind = data.kind.unwrap_or(VariantKind::Chess);
    let set = feature_set(kind);
    let cp = centipawns(fit, &set);
    let nz = nonzero_counts(&data.samples);
    let mut out = format!(
        "variant {}: {} games (+{} ={} -{} for White), {} skipped, {} quiet positions\n\
         intercept {:+.4}, mean cross-entropy {:.5}, {} Newton steps\n\
         {:<32} {:>10} {:>9} {:>8} {:>9} {:>8}\n",
        kind.name(),
        data.games,
        data.white_wins,
        data.draws,
        data.black_wins,
        data.skipped,
        data.samples.len(),
        fit.intercept,
        fit.loss,
        fit.iterations,
        "feature",
        "coef",
        "± se",
        "cp",
        "nonzero",
        if spread.is_some() { "boot sd" } else { "" }
    );
    for i in 0..set.names.len() {
        out.push_str(&format!(
            "{:<32} {:>10.5} {:>9.5} {:>8.0} {:>9} {:>8}\n",
            set.names[i],
            fit.coef[i],
            fit.stderr[i],
            cp[i],
            nz[i],
            spread.map_or(String::new(), |s| format!("{:.0}", s[i]))
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::XorShift;

    fn uniform(r: &mut XorShift) -> f64 {
        (r.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Targets equal to the model's exact probabilities: the optimum of the cross-entropy is
    /// the generating model itself, so Newton's method must return it to many digits.
    #[test]
    fn fit_recovers_exact_coefficients_from_noise_free_targets() {
        let truth = [0.8, -0.35, 1.7];
        let b = 0.12;
        let mut r = XorShift(0x9E37_79B9_7F4A_7C15);
        let samples: Vec<Sample> = (0..2000)
            .map(|_| {
                let x: Vec<f64> = (0..3).map(|_| r.below(7) as f64 - 3.0).collect();
                let z = b + x.iter().zip(&truth).map(|(a, w)| a * w).sum::<f64>();
                Sample { x, y: sigmoid(z) }
            })
            .collect();
        let f = fit(&samples, 0.0);
        assert!((f.intercept - b).abs() < 1e-8, "{}", f.intercept);
        for (got, want) in f.coef.iter().zip(&truth) {
            assert!((got - want).abs() < 1e-8, "{got} vs {want}");
        }
        assert!(f.iterations < 20);
    }

    /// Win/draw/loss outcomes drawn from a known model (expected result σ(Σ cp·x/400)): the
    /// fitted values, turned into centipawns with the first feature as 100, come back within
    /// 5%.
    #[test]
    fn fit_recovers_values_from_sampled_results() {
        // "Pawn" 100, "knight" 300, "rook" 500 at a logistic scale of 1/400 per centipawn.
        let cp = [100.0, 300.0, 500.0];
        let mut r = XorShift(12345);
        let samples: Vec<Sample> = (0..400_000)
            .map(|_| {
                let x: Vec<f64> = (0..3).map(|_| r.below(5) as f64 - 2.0).collect();
                let z = x.iter().zip(&cp).map(|(a, w)| a * w / 400.0).sum::<f64>();
                let p = sigmoid(z);
                // A pair of games from the position: both won (1), split (½) or both lost (0),
                // so the expected result is p and draws occur as they would.
                let y =
                    (u8::from(uniform(&mut r) < p) + u8::from(uniform(&mut r) < p)) as f64 / 2.0;
                Sample { x, y }
            })
            .collect();
        let f = fit(&samples, 0.0);
        let set = FeatureSet {
            names: vec!["a", "b", "c"],
            anchor: 0,
            anchor_black: false,
        };
        let got = centipawns(&f, &set);
        assert_eq!(got[0], 100.0);
        assert!((got[1] - 300.0).abs() < 15.0, "{got:?}");
        assert!((got[2] - 500.0).abs() < 25.0, "{got:?}");
    }

    /// A feature that never varies keeps a zero coefficient under the ridge.
    #[test]
    fn constant_feature_gets_zero_with_ridge() {
        let samples = vec![
            Sample {
                x: vec![1.0, 0.0],
                y: 1.0,
            },
            Sample {
                x: vec![-1.0, 0.0],
                y: 0.0,
            },
            Sample {
                x: vec![1.0, 0.0],
                y: 0.5,
            },
        ];
        let f = fit(&samples, 1e-3);
        assert_eq!(f.coef[1], 0.0);
        assert!(f.coef[0] > 0.0);
    }

    /// Reading a PGN: a two-game file as the match runner writes it, replayed with the rules;
    /// quiet positions only; results counted.
    #[test]
    fn reads_match_pgn_and_keeps_quiet_positions() {
        let pgn = "[Event \"t\"]\n[Result \"1-0\"]\n[Variant \"chess\"]\n\n\
                   1. e2e4 d7d5 2. e4d5 d8d5 3. b1c3 d5a5 4. d2d4 a5a2 5. a1a2 e7e6 6. g1f3 1-0\n\n\
                   [Event \"t\"]\n[Result \"*\"]\n[Variant \"chess\"]\n\n1. e2e4 *\n";
        let d = read_games(pgn, None, 1);
        assert_eq!(d.kind, Some(VariantKind::Chess));
        assert_eq!((d.games, d.white_wins, d.skipped), (1, 1, 1));
        // Material changes at plies 3 (exd5), 4 (Qxd5), 8 (Qxa2) and 9 (Rxa2): a position is
        // kept when it equals the one before and after, so plies 1, 5, 6 and 10 (the last,
        // ply 11, has no successor).
        assert_eq!(d.samples.len(), 4);
        assert_eq!(d.samples[2].x, vec![0.0; 5]);
        assert_eq!(d.samples[3].x, vec![-1.0, 0.0, 0.0, 0.0, 1.0]);
        assert!(d.samples.iter().all(|s| s.y == 1.0));
    }

    /// Bootstrap: when every game is the same, every resample is the same data and the
    /// spread is zero; when games differ, it is not.
    #[test]
    fn bootstrap_spread_is_zero_for_identical_games_only() {
        let game = |y: f64| {
            vec![
                Sample {
                    x: vec![1.0, 0.0, 0.0, 0.0, 0.0],
                    y,
                },
                Sample {
                    x: vec![0.0, 1.0, 0.0, 0.0, 0.0],
                    y: 1.0 - y / 2.0,
                },
                Sample {
                    x: vec![-1.0, 0.0, 0.0, 0.0, 0.0],
                    y: 0.5,
                },
            ]
        };
        let make = |ys: &[f64]| {
            let mut d = Dataset {
                kind: Some(VariantKind::Chess),
                ..Dataset::default()
            };
            for (g, &y) in ys.iter().enumerate() {
                for s in game(y) {
                    d.samples.push(s);
                    d.game_of.push(g);
                }
                d.games += 1;
            }
            d
        };
        let same = bootstrap(&make(&[1.0; 8]), 1e-3, 20, 7);
        assert!(same.iter().all(|&v| v < 1e-3), "{same:?}"); // rounding only
        let varied = bootstrap(
            &make(&[1.0, 0.5, 1.0, 0.0, 1.0, 0.5, 0.5, 1.0]),
            1e-3,
            20,
            7,
        );
        assert!(varied[1] > 1.0, "{varied:?}");
    }
}
