//! Match statistics: score, Elo difference with a 95% interval, likelihood of superiority and
//! the sequential probability ratio test (SPRT).
//!
//! All figures are from the first engine's point of view, over `N = W + D + L` games.
//!
//! - Score `s = (W + D/2) / N`; Elo difference `E(s) = -400 · log10(1/s − 1)`.
//! - Per-game variance of the score (trinomial): `σ² = [W(1−s)² + D(½−s)² + L(0−s)²] / N`;
//!   standard error of `s`: `σ/√N`; 95% interval `s ± 1.959964 · σ/√N`; the Elo error bar is
//!   half the width of that interval in Elo: `(E(s_hi) − E(s_lo)) / 2` (as cutechess-cli).
//! - LOS `= ½ · (1 + erf((W − L) / √(2(W + L))))`.
//! - SPRT: the generalised SPRT of fishtest's `LLR_logistic` (M. Van den Bergh, "A practical
//!   introduction to the GSPRT"): with `s0 = 1/(1 + 10^(−elo0/400))`, `s1` likewise,
//!   `LLR = N · (s1 − s0) · (2s − s0 − s1) / (2σ²)`, with `s`, `σ²` as above. As in
//!   cutechess-cli, the LLR is 0 (no decision) until there is at least one win, one draw and one
//!   loss: before that `σ²` rests on too few outcomes (two straight wins would already "prove"
//!   any Elo). Bounds `a = ln(β/(1−α))`, `b = ln((1−β)/α)`: stop and accept
//!   H1 (`elo ≥ elo1`) when `LLR ≥ b`, H0 (`elo ≤ elo0`) when `LLR ≤ a`.

use std::fmt;

/// The 97.5% quantile of the standard normal distribution.
const Z975: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of the first engine.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// The Elo difference for an expected score in (0, 1).
pub fn elo_from_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score for an Elo difference (logistic).
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (Abramowitz–Stegun 7.1.26, |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    if x >= 0.0 {
        y
    } else {
        -y
    }
}

/// Mean and per-game variance of the score for (possibly fractional) counts.
fn mean_var(w: f64, d: f64, l: f64) -> (f64, f64) {
    let n = w + d + l;
    let s = (w + 0.5 * d) / n;
    let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
    (s, var)
}

impl Wdl {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Adds one game's result for the first engine: 1, ½ or 0.
    pub fn add(&mut self, points_x2: u8) {
        match points_x2 {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    /// The score fraction `(W + D/2) / N`; `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + 0.5 * self.draws as f64) / n as f64)
    }

    /// The Elo difference; `None` without games or at a score of 0 or 1 (infinite).
    pub fn elo(&self) -> Option<f64> {
        let s = self.score()?;
        (s > 0.0 && s < 1.0).then(|| elo_from_score(s))
    }

    /// Half the width of the 95% interval of the Elo difference; `None` when it is not finite.
    pub fn elo_error95(&self) -> Option<f64> {
        let s = self.score()?;
        let n = self.games() as f64;
        let (_, var) = mean_var(self.wins as f64, self.draws as f64, self.losses as f64);
        let se = (var / n).sqrt();
        let (lo, hi) = (s - Z975 * se, s + Z975 * se);
        (lo > 0.0 && hi < 1.0).then(|| (elo_from_score(hi) - elo_from_score(lo)) / 2.0)
    }

    /// Likelihood of superiority; `None` when every game was drawn (or none played).
    pub fn los(&self) -> Option<f64> {
        let decisive = (self.wins + self.losses) as f64;
        (decisive > 0.0).then(|| {
            0.5 * (1.0 + erf((self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt()))
        })
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "+{} ={} -{}", self.wins, self.draws, self.losses)
    }
}

/// Formats an optional Elo figure with its sign (`+12.3`, `-4.0`, `inf`).
pub fn fmt_elo(elo: Option<f64>, wdl: &Wdl) -> String {
    match (elo, wdl.score()) {
        // `+ 0.0` turns -0.0 into 0.0.
        (Some(e), _) => format!("{:+.1}", e + 0.0),
        (None, Some(s)) if s >= 1.0 => "+inf".into(),
        (None, Some(_)) => "-inf".into(),
        (None, None) => "-".into(),
    }
}

/// An SPRT's parameters.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    /// `LLR ≤ a`: the difference is at most `elo0`.
    AcceptH0,
    /// `LLR ≥ b`: the difference is at least `elo1`.
    AcceptH1,
}

impl Sprt {
    /// Reads `elo0=0,elo1=5,alpha=0.05,beta=0.05` (alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let mut s = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("SPRT: expected KEY=VALUE, got {part:?}"))?;
            let v: f64 = v
                .trim()
                .parse()
                .map_err(|_| format!("SPRT: {k} is not a number: {v:?}"))?;
            match k.trim() {
                "elo0" => s.elo0 = v,
                "elo1" => s.elo1 = v,
                "alpha" => s.alpha = v,
                "beta" => s.beta = v,
                other => return Err(format!("SPRT: unknown key {other:?}")),
            }
        }
        if !s.elo0.is_finite() || !s.elo1.is_finite() {
            return Err("SPRT: elo0 and elo1 are required".into());
        }
        if s.elo1 <= s.elo0 {
            return Err("SPRT: elo1 must be greater than elo0".into());
        }
        let ok = |p: f64| p > 0.0 && p < 0.5;
        if !ok(s.alpha) || !ok(s.beta) {
            return Err("SPRT: alpha and beta must be in (0, 0.5)".into());
        }
        Ok(s)
    }

    /// `(a, b)`: the lower and upper LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for these results (0 until there is a win, a
    /// draw and a loss).
    pub fn llr(&self, r: &Wdl) -> f64 {
        if r.wins == 0 || r.draws == 0 || r.losses == 0 {
            return 0.0;
        }
        let (w, d, l) = (r.wins as f64, r.draws as f64, r.losses as f64);
        let (s, var) = mean_var(w, d, l);
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        (w + d + l) * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The test's standing after a game: `(LLR, state)`. A decision, once reached, stands:
    /// games that were already running when it stopped the match still count in the score
    /// but cannot take the verdict back (the LLR reported is the one at the decision).
    pub fn update(&self, before: Option<(f64, SprtState)>, r: &Wdl) -> (f64, SprtState) {
        match before {
            Some(decided @ (_, SprtState::AcceptH0 | SprtState::AcceptH1)) => decided,
            _ => (self.llr(r), self.state(r)),
        }
    }

    pub fn state(&self, r: &Wdl) -> SprtState {
        let llr = self.llr(r);
        let (a, b) = self.bounds();
        if llr >= b {
            SprtState::AcceptH1
        } else if llr <= a {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

/// One engine's results over games read back from PGN (`cellmate score`): against whom, and
/// how many games had no result (`*`, not counted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    pub names: [String; 2],
    pub wdl: Wdl,
    pub unfinished: u64,
}

/// Tallies `games` (White, Black, Result) for the engine `name` (default: White of the first
/// game). Every game must be between the same two engines.
pub fn tally(games: &[[String; 3]], name: Option<&str>) -> Result<Tally, String> {
    let first = games.first().ok_or("no games")?;
    let me = name.unwrap_or(&first[0]).to_string();
    let mut other: Option<String> = None;
    let mut t = Tally {
        names: [me.clone(), String::new()],
        wdl: Wdl::default(),
        unfinished: 0,
    };
    for (i, [white, black, result]) in games.iter().enumerate() {
        let (opp, me_white) = if *white == me {
            (black, true)
        } else if *black == me {
            (white, false)
        } else {
            return Err(format!("game {}: {white} v {black}, not {me}", i + 1));
        };
        match &other {
            None => other = Some(opp.clone()),
            Some(o) if o != opp => {
                return Err(format!("game {}: {me} v {opp}, not v {o}", i + 1));
            }
            _ => {}
        }
        let white_x2 = match result.as_str() {
            "1-0" => 2,
            "1/2-1/2" => 1,
            "0-1" => 0,
            _ => {
                t.unfinished += 1;
                continue;
            }
        };
        t.wdl.add(if me_white { white_x2 } else { 2 - white_x2 });
    }
    t.names[1] = other.unwrap_or_default();
    Ok(t)
}
