//! The search's constants as a value: margins of pruning, reductions and extensions, the
//! history's bonus and the aspiration window. The engine holds one ([`super::Engine::search`]);
//! a process can be given others (`cellmate --search-params name=value,…`) so that they can be
//! tuned by games (`scripts/spsa.py --tune search`). [`SearchParams::DEFAULT`] is the search as
//! it was written, so `bench` is unchanged by this file.

/// The search's tunable constants (see the uses in `search.rs`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Reverse futility: at depth ≤ 7, a node whose evaluation less this much a ply of depth
    /// (one ply less when improving) is at or above beta returns it.
    pub rfp_margin: i32,
    /// Null move: the reduction is 3 + depth / 4 + (eval − beta) / this (at most 3 more).
    pub nmp_eval_div: i32,
    /// Bad captures at depth ≤ 6 are skipped when they lose more than this a ply of depth.
    pub see_capture: i32,
    /// Futility of quiet moves at depth ≤ 6: evaluation + this + `fut_margin`·depth ≤ alpha.
    pub fut_base: i32,
    /// See `fut_base`.
    pub fut_margin: i32,
    /// Late-move reductions: `lmr_base/100 + ln(depth)·ln(moves)/(lmr_div/100)`.
    pub lmr_base: i32,
    /// See `lmr_base`.
    pub lmr_div: i32,
    /// A quiet move's reduction falls by one for each this much history (at most ±2).
    pub lmr_hist_div: i32,
    /// Singular extension: the other moves are searched against the table's score less
    /// this many sixteenths a ply of depth.
    pub se_margin: i32,
    /// A singular move is extended twice (in a non-PV node) when the others stay this far
    /// below that bound.
    pub se_double: i32,
    /// The history bonus of a cutoff at `depth`: `hist_mul·depth − hist_sub`, at most `hist_max`.
    pub hist_mul: i32,
    /// See `hist_mul`.
    pub hist_sub: i32,
    /// See `hist_mul`.
    pub hist_max: i32,
    /// The first aspiration window's half-width around the last iteration's score.
    pub asp_delta: i32,
}

/// One tunable constant: its name (as `--search-params` spells it), the field and the range
/// a value must lie in (so a tuner cannot give a margin that makes no sense, e.g. a divisor of 0).
type Field = (&'static str, fn(&mut SearchParams) -> &mut i32, i32, i32);

const FIELDS: [Field; 14] = [
    ("rfp_margin", |p| &mut p.rfp_margin, 0, 1000),
    ("nmp_eval_div", |p| &mut p.nmp_eval_div, 1, 10_000),
    ("see_capture", |p| &mut p.see_capture, 0, 1000),
    ("fut_base", |p| &mut p.fut_base, 0, 2000),
    ("fut_margin", |p| &mut p.fut_margin, 0, 1000),
    ("lmr_base", |p| &mut p.lmr_base, -200, 400),
    ("lmr_div", |p| &mut p.lmr_div, 50, 2000),
    ("lmr_hist_div", |p| &mut p.lmr_hist_div, 100, 100_000),
    ("se_margin", |p| &mut p.se_margin, 0, 256),
    ("se_double", |p| &mut p.se_double, 0, 1000),
    ("hist_mul", |p| &mut p.hist_mul, 0, 2000),
    ("hist_sub", |p| &mut p.hist_sub, -2000, 2000),
    ("hist_max", |p| &mut p.hist_max, 0, 16_384),
    ("asp_delta", |p| &mut p.asp_delta, 1, 1000),
];

impl SearchParams {
    /// The search as written before these were parameters.
    pub const DEFAULT: SearchParams = SearchParams {
        rfp_margin: 75,
        nmp_eval_div: 200,
        see_capture: 100,
        fut_base: 100,
        fut_margin: 90,
        lmr_base: 75,
        lmr_div: 225,
        lmr_hist_div: 8000,
        se_margin: 32,
        se_double: 25,
        hist_mul: 170,
        hist_sub: 120,
        hist_max: 1500,
        asp_delta: 20,
    };

    /// The names `--search-params` takes, in the order [`SearchParams::values`] gives them.
    pub fn names() -> impl Iterator<Item = &'static str> {
        Self::ranges().map(|r| r.0)
    }

    /// Each constant's name and the range its values must lie in (both ends allowed).
    pub fn ranges() -> impl Iterator<Item = (&'static str, i32, i32)> {
        FIELDS.iter().map(|f| (f.0, f.2, f.3))
    }

    /// The values, in the order of [`SearchParams::names`].
    pub fn values(&self) -> Vec<i32> {
        let mut p = *self;
        FIELDS.iter().map(|f| *(f.1)(&mut p)).collect()
    }

    /// Sets values from `name=value` pairs separated by commas or colons (colons fit inside
    /// `cellmate match`'s comma-separated engine specs; the names of
    /// [`SearchParams::names`]); the others stay. An unknown name, a value that is not an
    /// integer or one out of the constant's range is an error, and nothing is changed.
    pub fn set(&mut self, text: &str) -> Result<(), String> {
        let mut p = *self;
        for pair in text
            .split([',', ':'])
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let (name, value) = pair
                .split_once('=')
                .ok_or_else(|| format!("`{pair}` is not name=value"))?;
            let (_, field, lo, hi) =
                FIELDS.iter().find(|f| f.0 == name.trim()).ok_or_else(|| {
                    let names: Vec<_> = Self::names().collect();
                    format!(
                        "no search parameter `{}` (one of {})",
                        name.trim(),
                        names.join(", ")
                    )
                })?;
            let v: i32 = value
                .trim()
                .parse()
                .map_err(|_| format!("{name}: `{value}` is not an integer"))?;
            if !(*lo..=*hi).contains(&v) {
                return Err(format!("{name}: {v} is outside {lo}..={hi}"));
            }
            *field(&mut p) = v;
        }
        *self = p;
        Ok(())
    }

    /// The late-move reductions by depth and move number.
    pub fn lmr_table(&self) -> Box<[[u8; 64]; 64]> {
        let mut t = Box::new([[0u8; 64]; 64]);
        let base = self.lmr_base as f64 / 100.0;
        let div = self.lmr_div as f64 / 100.0;
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (base + (d as f64).ln() * (m as f64).ln() / div).clamp(0.0, 63.0) as u8;
            }
        }
        t
    }

    /// The history a quiet move gains for a cutoff at `depth` (and the quiet moves tried
    /// before it lose): by default 170 a ply of depth less 120, at most 1500 (histories
    /// saturate at 16 384).
    #[inline]
    pub fn history_bonus(&self, depth: i32) -> i32 {
        (self.hist_mul * depth - self.hist_sub).clamp(0, self.hist_max)
    }
}

impl Default for SearchParams {
    fn default() -> Self {
        Self::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table of the defaults is the formula the search used before it had parameters.
    #[test]
    fn the_default_lmr_table_is_the_old_formula() {
        let t = SearchParams::DEFAULT.lmr_table();
        for d in 1..64 {
            for m in 1..64 {
                let old = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
                assert_eq!(t[d][m], old, "depth {d} move {m}");
            }
        }
        assert_eq!((t[1][1], t[10][10], t[63][63]), (0, 3, 8));
    }

    #[test]
    fn set_reads_pairs_and_refuses_bad_ones_whole() {
        let mut p = SearchParams::DEFAULT;
        p.set("rfp_margin=80, lmr_div=200:asp_delta=15").unwrap();
        assert_eq!((p.rfp_margin, p.lmr_div, p.asp_delta), (80, 200, 15));
        assert_eq!(p.fut_base, 100);
        let before = p;
        for (bad, why) in [
            ("rfp_margin=80,nope=3", "no search parameter `nope`"),
            ("lmr_div=0", "lmr_div: 0 is outside 50..=2000"),
            ("rfp_margin=x", "rfp_margin: `x` is not an integer"),
            ("rfp_margin", "`rfp_margin` is not name=value"),
        ] {
            let e = p.set(bad).unwrap_err();
            assert!(e.starts_with(why), "{bad}: {e}");
            assert_eq!(p, before, "{bad} changed the values");
        }
    }

    #[test]
    fn names_and_values_line_up() {
        let names: Vec<_> = SearchParams::names().collect();
        let values = SearchParams::DEFAULT.values();
        assert_eq!(names.len(), values.len());
        let text: Vec<String> = names
            .iter()
            .zip(&values)
            .map(|(n, v)| format!("{n}={}", v + 1))
            .collect();
        let mut p = SearchParams::DEFAULT;
        p.set(&text.join(",")).unwrap();
        let plus: Vec<i32> = values.iter().map(|v| v + 1).collect();
        assert_eq!(p.values(), plus);
    }

    #[test]
    fn the_default_history_bonus() {
        let p = SearchParams::DEFAULT;
        assert_eq!(
            [0, 1, 2, 5, 9, 10, 40].map(|d| p.history_bonus(d)),
            [0, 50, 220, 730, 1410, 1500, 1500]
        );
    }
}
