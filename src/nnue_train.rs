//! Training the chess network ([`crate::engine::eval::nnue`]) — the library side of
//! `cellmate nnue-train` (see `docs/strength.md`, "The chess network").
//!
//! Samples are the lines `FEN | score | result` of `cellmate datagen` (White's view). The
//! network is a correction added to the hand-made table's evaluation: it is trained in floating point with Adam on minibatches to minimise
//! `(σ(table/SCALE + out) − target)²`, where the target mixes the search's score and the game's result from
//! the side to move's view: `λ·σ(score/SCALE) + (1 − λ)·result`. A fiftieth of the samples, in
//! blocks of consecutive ones (whole games, mostly), is held out and its loss reported after
//! each epoch. The trained weights are rounded to the
//! integer format the engine reads.

use std::io::BufRead;

use crate::core::rng::XorShift;
use crate::core::{Color, Square, Variant};
use crate::engine::eval::chess_params::ChessParams;
use crate::engine::eval::nnue::{feature, Network, HIDDEN, INPUTS, QA, QB, SCALE};
use crate::variants::chess::Chess;

/// One block of [`BLOCK`] consecutive samples in every `HOLD_OUT` is held out: a datagen file
/// holds each game's positions together, so the held-out positions come mostly from games
/// the training never saw.
pub const HOLD_OUT: usize = 50;
/// See [`HOLD_OUT`].
pub const BLOCK: usize = 1000;
/// The first layer's weights stay within this (the integers stay far from `i16`'s limits).
const FT_CLIP: f32 = 1.98 * 64.0 / QA as f32 * 2.0;
/// The output weights stay within this (`QB` × it fits a byte's range).
const OUT_CLIP: f32 = 1.98;

/// One position: its pieces (colour·6 + type, square), the side to move, the hand-made
/// table's evaluation (`base`, centipawns) and the target, all from the side to move's view.
#[derive(Clone, Debug)]
pub struct Sample {
    pub pieces: Vec<(u8, u8)>,
    pub stm: Color,
    pub base: f32,
    pub score: f32,
    pub result: f32,
}

/// Reads one datagen line; `None` for a line it cannot read.
pub fn parse_line(line: &str) -> Option<Sample> {
    let mut parts = line.split('|');
    let fen = parts.next()?.trim();
    let score: f32 = parts.next()?.trim().parse().ok()?;
    let result: f32 = parts.next()?.trim().parse().ok()?;
    // The rules' own FEN reader: the placement for the inputs, the table for `base`.
    let pos = Chess::from_fen(fen).ok()?;
    let stm = pos.side_to_move();
    // Rank 8 to rank 1, a to h: the FEN's order.
    let pieces = (0..64u8)
        .map(|i| (7 - i / 8) * 8 + i % 8)
        .filter_map(|sq| {
            let (color, pt) = pos.piece_at(Square(sq))?;
            Some((color.index() as u8 * 6 + pt, sq))
        })
        .collect();
    let (score, result) = match stm {
        Color::White => (score, result),
        Color::Black => (-score, 1.0 - result),
    };
    let base = pos.evaluate_with_chess(&ChessParams::DEFAULT) as f32;
    Some(Sample {
        pieces,
        stm,
        base,
        score,
        result,
    })
}

/// Reads every sample of the files.
pub fn read(paths: &[String]) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    for p in paths {
        let f = std::fs::File::open(p).map_err(|e| format!("{p}: {e}"))?;
        for line in std::io::BufReader::new(f).lines() {
            let line = line.map_err(|e| format!("{p}: {e}"))?;
            if let Some(s) = parse_line(&line) {
                out.push(s);
            }
        }
    }
    Ok(out)
}

/// The inputs of a sample for both perspectives: (side to move's, the other's); `flip`
/// mirrors the board's files (a ↔ h), which changes nothing in chess but castling.
fn inputs(s: &Sample, flip: bool) -> (Vec<usize>, Vec<usize>) {
    let fx = if flip { 7 } else { 0 };
    let them = !s.stm;
    let mut us_f = Vec::with_capacity(s.pieces.len());
    let mut them_f = Vec::with_capacity(s.pieces.len());
    for &(cp, sq) in &s.pieces {
        let color = if cp < 6 { Color::White } else { Color::Black };
        let pt = cp % 6;
        let sq = (sq ^ fx) as usize;
        us_f.push(feature(s.stm, color, pt, sq));
        them_f.push(feature(them, color, pt, sq));
    }
    (us_f, them_f)
}

/// Floating-point weights, laid out as one vector: first layer rows, its biases, output
/// weights, output bias.
#[derive(Clone)]
pub struct Weights(pub Vec<f32>);

const FT_B: usize = INPUTS * HIDDEN;
const OUT_W: usize = FT_B + HIDDEN;
const OUT_B: usize = OUT_W + 2 * HIDDEN;
const PARAMS: usize = OUT_B + 1;

impl Weights {
    pub fn random(seed: u64) -> Weights {
        let mut rng = XorShift(seed.max(1));
        let mut u = |a: f32| ((rng.next() >> 11) as f32 / (1u64 << 53) as f32 * 2.0 - 1.0) * a;
        let mut w = vec![0.0f32; PARAMS];
        for v in &mut w[..FT_B] {
            *v = u(0.1);
        }
        // Small output weights: the network starts as a small correction of the table.
        for v in &mut w[OUT_W..OUT_B] {
            *v = u(0.01);
        }
        Weights(w)
    }

    /// The weights of an integer network (to train on from there).
    pub fn from_network(net: &Network) -> Weights {
        let mut w = vec![0.0f32; PARAMS];
        for (i, row) in net.ft_w.iter().enumerate() {
            for (j, v) in row.iter().enumerate() {
                w[i * HIDDEN + j] = *v as f32 / QA as f32;
            }
        }
        for (j, v) in net.ft_b.iter().enumerate() {
            w[FT_B + j] = *v as f32 / QA as f32;
        }
        for (j, v) in net.out_w.iter().enumerate() {
            w[OUT_W + j] = *v as f32 / QB as f32;
        }
        w[OUT_B] = net.out_b as f32 / (QA * QB) as f32;
        Weights(w)
    }

    /// The network's output (in units of [`SCALE`] centipawns, before the table's evaluation
    /// is added) for a sample's inputs, with the accumulators.
    fn forward(&self, us: &[usize], them: &[usize], acc: &mut [[f32; HIDDEN]; 2]) -> f32 {
        let w = &self.0;
        for (a, feats) in acc.iter_mut().zip([us, them]) {
            a.copy_from_slice(&w[FT_B..OUT_W]);
            for &f in feats {
                let row = &w[f * HIDDEN..(f + 1) * HIDDEN];
                for (x, r) in a.iter_mut().zip(row) {
                    *x += r;
                }
            }
        }
        let mut out = w[OUT_B];
        for (j, &x) in acc[0].iter().chain(acc[1].iter()).enumerate() {
            let c = x.clamp(0.0, 1.0);
            out += c * c * w[OUT_W + j];
        }
        out
    }

    /// The integer network.
    pub fn quantise(&self) -> Network {
        let w = &self.0;
        let q = |x: f32, s: i32| (x * s as f32).round().clamp(-32767.0, 32767.0) as i16;
        let mut ft_w = Box::new([[0i16; HIDDEN]; INPUTS]);
        for (i, row) in ft_w.iter_mut().enumerate() {
            for (j, v) in row.iter_mut().enumerate() {
                *v = q(w[i * HIDDEN + j], QA);
            }
        }
        let mut ft_b = [0i16; HIDDEN];
        for (j, v) in ft_b.iter_mut().enumerate() {
            *v = q(w[FT_B + j], QA);
        }
        let mut out_w = [0i16; 2 * HIDDEN];
        for (j, v) in out_w.iter_mut().enumerate() {
            *v = q(w[OUT_W + j], QB);
        }
        Network::new(
            ft_w,
            ft_b,
            out_w,
            (w[OUT_B] * (QA * QB) as f32).round() as i32,
        )
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// How a training run is set.
#[derive(Clone, Debug)]
pub struct TrainSpec {
    pub epochs: usize,
    pub batch: usize,
    pub rate: f32,
    /// The share of the search's score in the target (the rest is the result).
    pub lambda: f32,
    /// The rate is multiplied by `drop` every `drop_every` epochs.
    pub drop: f32,
    pub drop_every: usize,
    pub threads: usize,
    pub seed: u64,
    /// Trains on half the samples with the board's files mirrored (a ↔ h).
    pub mirror: bool,
}

/// The target of a sample.
fn target(s: &Sample, lambda: f32) -> f32 {
    lambda * sigmoid(s.score / SCALE as f32) + (1.0 - lambda) * s.result
}

/// Adds the gradient of one sample's loss to `g` (the board mirrored if `flip`); returns the
/// loss.
fn backward(w: &Weights, s: &Sample, flip: bool, lambda: f32, g: &mut [f32]) -> f32 {
    let (us, them) = inputs(s, flip);
    let mut acc = [[0.0f32; HIDDEN]; 2];
    let out = s.base / SCALE as f32 + w.forward(&us, &them, &mut acc);
    let p = sigmoid(out);
    let t = target(s, lambda);
    let d = 2.0 * (p - t) * p * (1.0 - p);
    g[OUT_B] += d;
    let ww = &w.0;
    for (side, feats) in [&us, &them].into_iter().enumerate() {
        let mut dacc = [0.0f32; HIDDEN];
        for j in 0..HIDDEN {
            let x = acc[side][j];
            let k = OUT_W + side * HIDDEN + j;
            let c = x.clamp(0.0, 1.0);
            g[k] += d * c * c;
            if x > 0.0 && x < 1.0 {
                dacc[j] = d * ww[k] * 2.0 * x;
            }
        }
        for (gb, da) in g[FT_B..OUT_W].iter_mut().zip(dacc.iter()) {
            *gb += da;
        }
        for &f in feats.iter() {
            for (gr, da) in g[f * HIDDEN..(f + 1) * HIDDEN].iter_mut().zip(dacc.iter()) {
                *gr += da;
            }
        }
    }
    (p - t) * (p - t)
}

/// The mean loss of the hand-made table's evaluation over the samples: the network's loss
/// before training, for comparison.
pub fn table_loss(samples: &[&Sample], lambda: f32) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(s.base / SCALE as f32);
            let t = target(s, lambda);
            ((p - t) * (p - t)) as f64
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The held-out samples of a training run.
pub fn held_out(samples: &[Sample]) -> Vec<&Sample> {
    samples
        .iter()
        .enumerate()
        .filter(|(i, _)| (i / BLOCK) % HOLD_OUT == HOLD_OUT - 1)
        .map(|(_, s)| s)
        .collect()
}

/// The mean loss over samples (on `threads` threads).
pub fn loss(w: &Weights, samples: &[&Sample], lambda: f32, threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let chunk = samples.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|s| {
        let hs: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    let mut acc = [[0.0f32; HIDDEN]; 2];
                    part.iter()
                        .map(|x| {
                            let (us, them) = inputs(x, false);
                            let p =
                                sigmoid(x.base / SCALE as f32 + w.forward(&us, &them, &mut acc));
                            let t = target(x, lambda);
                            ((p - t) * (p - t)) as f64
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
    });
    total / samples.len() as f64
}

/// Trains from `start` (random weights if `None`); `report` is told (epoch, training loss, held-out loss) after
/// each epoch and may save the weights.
pub fn train(
    samples: &[Sample],
    spec: &TrainSpec,
    start: Option<Weights>,
    report: &mut dyn FnMut(usize, f64, f64, &Weights),
) -> Weights {
    let mut w = start.unwrap_or_else(|| Weights::random(spec.seed));
    let held = held_out(samples);
    let mut order: Vec<&Sample> = samples
        .iter()
        .enumerate()
        .filter(|(i, _)| (i / BLOCK) % HOLD_OUT != HOLD_OUT - 1)
        .map(|(_, s)| s)
        .collect();
    let mut rng = XorShift(spec.seed.max(1) ^ 0x5DEE_CE66);
    let mut m = vec![0.0f32; PARAMS];
    let mut v = vec![0.0f32; PARAMS];
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    let threads = spec.threads.max(1);
    let mut grads: Vec<Vec<f32>> = vec![vec![0.0f32; PARAMS]; threads];
    let mut rate = spec.rate;
    for epoch in 1..=spec.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut train_loss = 0.0f64;
        for batch in order.chunks(spec.batch.max(1)) {
            let per = batch.len().div_ceil(threads);
            let w_ref = &w;
            let lambda = spec.lambda;
            let mirror = spec.mirror;
            let losses: Vec<f64> = std::thread::scope(|s| {
                let hs: Vec<_> = grads
                    .iter_mut()
                    .zip(batch.chunks(per))
                    .map(|(g, part)| {
                        s.spawn(move || {
                            g.iter_mut().for_each(|x| *x = 0.0);
                            part.iter()
                                .enumerate()
                                .map(|(i, x)| {
                                    // Every other sample of the shuffled order mirrored: a
                                    // different half each epoch.
                                    let flip = mirror && i % 2 == 1;
                                    backward(w_ref, x, flip, lambda, g) as f64
                                })
                                .sum::<f64>()
                        })
                    })
                    .collect();
                hs.into_iter().map(|h| h.join().unwrap_or(0.0)).collect()
            });
            train_loss += losses.iter().sum::<f64>();
            let used = batch.len().div_ceil(per);
            let n = batch.len() as f32;
            step += 1;
            let c1 = 1.0 - b1.powi(step);
            let c2 = 1.0 - b2.powi(step);
            for k in 0..PARAMS {
                let mut gk = 0.0;
                for g in &grads[..used] {
                    gk += g[k];
                }
                gk /= n;
                m[k] = b1 * m[k] + (1.0 - b1) * gk;
                v[k] = b2 * v[k] + (1.0 - b2) * gk * gk;
                let upd = rate * (m[k] / c1) / ((v[k] / c2).sqrt() + eps);
                let clip = if k < OUT_W { FT_CLIP } else { OUT_CLIP };
                w.0[k] = (w.0[k] - upd).clamp(-clip, clip);
            }
            // The output bias is not clipped.
        }
        let held_loss = loss(&w, &held, spec.lambda, threads);
        report(epoch, train_loss / order.len().max(1) as f64, held_loss, &w);
        if spec.drop_every > 0 && epoch % spec.drop_every == 0 {
            rate *= spec.drop;
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Variant;
    use crate::variants::chess::Chess;

    #[test]
    fn a_line_reads_as_the_side_to_moves_view() {
        let s = parse_line("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1 | 120 | 1").unwrap();
        assert_eq!(s.stm, Color::Black);
        assert_eq!(s.score, -120.0);
        assert_eq!(s.result, 0.0);
        // e8 = 60 black king (6 + 5), e2 = 12 white pawn, e1 = 4 white king.
        assert_eq!(s.pieces, vec![(11, 60), (0, 12), (5, 4)]);
        assert!(parse_line("garbage").is_none());
        assert!(parse_line("4k3/8/8/8/8/8/4P3/4K3 x - - 0 1 | 1 | 1").is_none());
    }

    #[test]
    fn the_integer_network_computes_what_the_float_one_does() {
        let w = Weights::random(7);
        let net = w.quantise();
        let back = Network::from_bytes(&net.to_bytes()).unwrap();
        assert!(back == net);
        assert!(Weights::from_network(&net).quantise() == net);
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        ] {
            let s = parse_line(&format!("{fen} | 0 | 0.5")).unwrap();
            let (us, them) = inputs(&s, false);
            let mut acc = [[0.0f32; HIDDEN]; 2];
            let float_cp = w.forward(&us, &them, &mut acc) * SCALE as f32;
            let int_cp = net.evaluate(&Chess::from_fen(fen).unwrap());
            assert!(
                (float_cp - int_cp as f32).abs() <= 2.0,
                "{fen}: float {float_cp}, integer {int_cp}"
            );
        }
    }

    #[test]
    fn training_learns_what_the_table_misses() {
        // The table scores a queen up as won; these labels say otherwise, so the network
        // must learn to take most of it back.
        let lines = [
            "4k3/8/8/8/8/8/3QP3/4K3 w - - 0 1 | 0 | 0.5",
            "4k3/3qp3/8/8/8/8/8/4K3 w - - 0 1 | 0 | 0.5",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 | 100 | 0.5",
        ];
        let samples: Vec<Sample> = lines.iter().map(|l| parse_line(l).unwrap()).collect();
        assert!(samples[0].base > 500.0, "{}", samples[0].base);
        let refs: Vec<&Sample> = samples.iter().collect();
        let spec = TrainSpec {
            epochs: 300,
            batch: 3,
            rate: 0.01,
            lambda: 1.0,
            drop: 1.0,
            drop_every: 0,
            threads: 1,
            seed: 3,
            mirror: false,
        };
        let before = table_loss(&refs, 1.0);
        let w = train(&samples, &spec, None, &mut |_, _, _, _| {});
        let after = loss(&w, &refs, 1.0, 1);
        assert!(after < before / 10.0, "loss {before} → {after}");
        let net = w.quantise();
        let q = net.evaluate(&Chess::from_fen("4k3/8/8/8/8/8/3QP3/4K3 w - - 0 1").unwrap());
        assert!(q < -300, "the correction of a queen up is {q}");
    }
}
