//! Time management: how long one move may take.
//!
//! Two limits in milliseconds, both measured from [`Control::started`] (so a ponder hit
//! restarts the clock): the *soft* limit is checked between iterations (no new iteration
//! starts after it), the *hard* limit is checked inside the search every 1024 nodes and aborts
//! it. While [`Control::pondering`] is true neither applies.

use super::{Control, Limits};

/// Kept back on top of the move overhead so the clock never runs out (ms).
pub const SAFETY_MS: u64 = 10;

/// How a clock is spread over a game's moves: a property of the variant (its games' length),
/// each variant's [`crate::engine::eval::Evaluate::CLOCK`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockShape {
    /// The moves a sudden-death clock (no moves to go) is shared over: each move's base is
    /// the clock above its floor over this many, plus most of the increment's income.
    pub moves: u64,
    /// The soft limit's share of the base, in tenths (before the search's stability,
    /// score-drop and node-share factors scale it, never past the hard limit).
    pub soft_tenths: u64,
    /// `Some(ply)`: a sudden-death clock's share grows with the game's ply (`moves` unused),
    /// less at the start and more in the middlegame, Stockfish's curve: the share of the
    /// clock and the increments of 49 more moves is `0.0120 + (ply + 3)^0.45 · 0.0039`, at
    /// most a fifth of the clock. `None`: the same share over `moves` all game.
    pub ply: Option<u32>,
}

impl ClockShape {
    /// Infinite Recursion and Immune Chess (and chess until session 51): 20 moves and a soft
    /// limit of 0.9 of the base. With 30 and 0.6 the engine ended its 10+0.1 games against
    /// Stockfish with 3–5.6 s of its 10 s unused, where Stockfish ended with 0.2–0.7 s;
    /// 20 / 0.9 passed an SPRT in chess (+44.0 ± 22.5 at 5+0.05) and scored no worse in
    /// Recursion and Immune (docs/strength.md, sessions 48–49).
    pub const DEFAULT: ClockShape = ClockShape {
        moves: 20,
        soft_tenths: 9,
        ply: None,
    };

    /// Chess: the share follows the game's ply (see [`ClockShape::ply`]); the ply is the
    /// position's, filled in by [`crate::engine::eval::Evaluate::clock_shape`]. Against
    /// Stockfish the games were lost by moves at moves 29–41 that a search eight times as long
    /// avoided, where [`ClockShape::DEFAULT`] gives a fifth of a second at 10+0.1; this shape
    /// spends less on the first moves and more there (docs/strength.md, session 51).
    pub const RAMP: ClockShape = ClockShape {
        moves: 20,
        soft_tenths: 10,
        ply: Some(0),
    };

    /// This shape at the game's ply `ply`, where it follows the ply (else the same shape).
    pub const fn at_ply(self, ply: u32) -> ClockShape {
        match self.ply {
            Some(_) => ClockShape {
                ply: Some(ply),
                ..self
            },
            None => self,
        }
    }

    /// Microorganism Chess: 30 moves and 0.6, the clock its +100 Elo row was measured with.
    /// The chess clock spends the base sooner, and in its games of hundreds of moves (a median
    /// of 560 plies between two engines at 10+0.1) it scored −65 ± 85 over 54 games against
    /// this one (docs/strength.md, session 49). Immune's games are as long, but there the chess
    /// clock scored +58 ± 91, so Immune keeps [`ClockShape::DEFAULT`]: the shape is what was
    /// measured for each variant, not a rule of game length.
    pub const LONG_GAMES: ClockShape = ClockShape {
        moves: 30,
        soft_tenths: 6,
        ply: None,
    };
}

/// Budgets for one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// No new iteration after this many ms.
    pub soft: Option<u64>,
    /// Abort the search after this many ms.
    pub hard: Option<u64>,
}

impl TimeBudget {
    /// The budget for `limits`: `movetime` nearly all (the overhead is kept back, but never
    /// more than a tenth of it); else a share of the clock plus part of the increment; none for
    /// infinite or depth/node-limited searches.
    ///
    /// The clock is spent so that it does not sink to nothing on a loaded machine (issue 21:
    /// 3 of 12 self-play games at 3+0.05 forfeited while another process ran):
    /// - every move is taken to cost the overhead on top of the search (the GUI's clock runs
    ///   while the engine reads, starts, stops and writes), so only the part of the increment
    ///   above the overhead counts as income;
    /// - a floor of the clock is never planned on: the overhead and [`SAFETY_MS`] for each move
    ///   to go, plus twice the increment and a twentieth of the clock. Near the floor the engine
    ///   moves at once and the increment refills the clock, and a late answer (a busy machine)
    ///   comes out of the floor, not out of the GUI's flag.
    pub fn new(limits: &Limits, shape: ClockShape) -> TimeBudget {
        if limits.infinite {
            return TimeBudget {
                soft: None,
                hard: None,
            };
        }
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(limits.move_overhead.min(mt / 10)).max(1);
            return TimeBudget {
                soft: Some(t),
                hard: Some(t),
            };
        }
        let Some(left) = limits.time_left else {
            return TimeBudget {
                soft: None,
                hard: None,
            };
        };
        let inc = limits.increment;
        let per_move = limits.move_overhead.saturating_add(SAFETY_MS);
        // The hard cap is a share of the clock. Before a time control (`m` moves to go) it is
        // at most 1.25/m, and the overhead is kept back for every one of the `m` moves: even
        // if every move hit the cap the last one still has time (a cap of 0.5 for every m, and
        // one overhead kept back, let a 40-move session end with 0.01 s on the clock against
        // XBoard).
        let (moves, max_share, floor) = match limits.moves_to_go {
            Some(1) => (1, 0.8, per_move),
            Some(m) => {
                let m = m.clamp(2, 50) as u64;
                (m, (1.25 / m as f64).min(0.5), per_move.saturating_mul(m))
            }
            None => (shape.moves.max(1), 0.4, per_move),
        };
        let floor = floor
            .saturating_add(inc.saturating_mul(2))
            .saturating_add(left / 20);
        // What may be spent without ever flagging.
        let avail = left.saturating_sub(floor).max(1);
        let income = inc.saturating_sub(limits.move_overhead);
        let cap = ((avail as f64) * max_share) as u64;
        // The base, and how many of it the hard limit is.
        let (base, hard_bases) = match (shape.ply, limits.moves_to_go) {
            (Some(ply), None) => {
                let pool = avail.saturating_add(income.saturating_mul(49));
                let share = (0.0120 + (ply as f64 + 3.0).powf(0.45) * 0.0039)
                    .min(0.2 * avail as f64 / pool as f64);
                (((pool as f64 * share) as u64).max(1), 5)
            }
            _ => (
                (avail / moves).saturating_add(income.saturating_mul(3) / 4),
                4,
            ),
        };
        let hard = base.saturating_mul(hard_bases).min(cap).max(1);
        // The next iteration takes a few times the last: stop starting them early.
        let soft = (base.saturating_mul(shape.soft_tenths) / 10)
            .min(hard)
            .max(1);
        TimeBudget {
            soft: Some(soft),
            hard: Some(hard),
        }
    }

    /// Whether this search is limited by the clock at all.
    pub fn timed(&self) -> bool {
        self.hard.is_some()
    }
}

/// Milliseconds since the clock of this search started.
pub fn elapsed_ms(control: &Control) -> u64 {
    control.started().elapsed().as_millis() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budget(limits: &Limits) -> TimeBudget {
        TimeBudget::new(limits, ClockShape::DEFAULT)
    }

    /// Every shape a variant has, the ramp at the start, in the middlegame and far on.
    fn shapes() -> [ClockShape; 5] {
        let ramp = ClockShape::RAMP;
        [
            ClockShape::DEFAULT,
            ClockShape::LONG_GAMES,
            ramp.at_ply(0),
            ramp.at_ply(60),
            ramp.at_ply(u32::MAX),
        ]
    }

    fn limits(left: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            time_left: Some(left),
            increment: inc,
            moves_to_go: mtg,
            move_overhead: 30,
            ..Limits::default()
        }
    }

    /// Found while fixing the XBoard `time` overflow: a huge increment (UCI `winc`) or clock
    /// overflowed the budget arithmetic (a panic). Both are capped by the clock share instead.
    #[test]
    fn huge_clock_and_increment_do_not_overflow() {
        for shape in shapes() {
            for (left, inc) in [(u64::MAX, 0), (1000, i64::MAX as u64), (u64::MAX, u64::MAX)] {
                let b = TimeBudget::new(&limits(left, inc, None), shape);
                let hard = b.hard.unwrap();
                assert!(hard >= 1 && hard <= left, "{shape:?} {left} {inc}: {hard}");
                assert!(b.soft.unwrap() <= hard);
            }
        }
    }

    #[test]
    fn movetime_is_spent_nearly_whole() {
        for (mt, want) in [(1000, 970), (30, 27), (100, 90), (5, 5), (1, 1), (0, 1)] {
            let l = Limits {
                movetime: Some(mt),
                move_overhead: 30,
                ..Limits::default()
            };
            let b = budget(&l);
            assert_eq!((b.soft, b.hard), (Some(want), Some(want)), "movetime {mt}");
        }
    }

    /// A sudden-death game with an increment whose every move takes its whole hard budget
    /// plus the overhead and 10 ms more (a loaded machine: still less than the increment)
    /// keeps a floor on the clock: twice the increment, from which a late answer is paid.
    #[test]
    fn a_busy_machine_does_not_run_the_clock_down() {
        for shape in shapes() {
            for (base, inc) in [(3000u64, 50u64), (10_000, 100), (60_000, 1000), (1000, 100)] {
                let mut left = base;
                let mut lowest = left;
                for _ in 0..500 {
                    let b = TimeBudget::new(&limits(left, inc, None), shape);
                    let spent = b.hard.unwrap() + 30 + 10;
                    assert!(spent < left, "{shape:?} {base}+{inc}: {spent} of {left} ms");
                    left = left - spent + inc;
                    lowest = lowest.min(left);
                }
                assert!(
                    lowest >= 2 * inc,
                    "{shape:?} {base}+{inc}: down to {lowest} ms"
                );
            }
        }
    }

    #[test]
    fn never_spends_the_whole_clock() {
        for shape in shapes() {
            for left in [1, 5, 40, 100, 1000, 60_000, 3_600_000] {
                for inc in [0, 100, 2000] {
                    for mtg in [None, Some(1), Some(2), Some(40)] {
                        let b = TimeBudget::new(&limits(left, inc, mtg), shape);
                        let hard = b.hard.unwrap();
                        let soft = b.soft.unwrap();
                        assert!(soft <= hard);
                        assert!(
                            hard + 30 + SAFETY_MS <= left.max(30 + SAFETY_MS + 1),
                            "{shape:?} left {left} inc {inc} mtg {mtg:?}: hard {hard}"
                        );
                    }
                }
            }
        }
        // Tiny clock: move fast.
        assert!(budget(&limits(100, 0, None)).hard.unwrap() <= 20);
    }

    /// Every move of a 40-moves-in-30-s session taking its whole hard budget (plus the
    /// overhead the GUI sees) still leaves the last moves a fair share: the clock XBoard ran
    /// down to 0.01 s in such a session.
    #[test]
    fn a_session_of_hard_budgets_does_not_flag() {
        for (mps, base) in [(40u32, 30_000u64), (40, 10_000), (20, 5_000), (5, 2_000)] {
            let mut left = base;
            for made in 0..mps {
                let b = budget(&limits(left, 0, Some(mps - made)));
                let hard = b.hard.unwrap();
                assert!(
                    hard * mps as u64 * 5 >= base,
                    "mps {mps} move {made}: budget {hard} ms of {left} ms"
                );
                let spent = hard + 30;
                assert!(spent < left, "mps {mps} move {made}: {spent} of {left} ms");
                left -= spent;
            }
        }
    }

    /// The budget of a move at 10+0.1 with 10 s left and a 30 ms overhead, exactly: the
    /// floor is 30 + 10 ms, twice the increment and a twentieth of the clock (740 ms), so
    /// 9260 ms may be spent: a base of 9260 / 20 + ¾ of the 70 ms income above the overhead
    /// (515 ms), a hard limit of four bases and a soft one of nine tenths of one.
    #[test]
    fn the_budget_at_ten_seconds_and_a_tenth() {
        let b = budget(&limits(10_000, 100, None));
        assert_eq!((b.soft, b.hard), (Some(463), Some(2060)));
        // With 2 s left: floor 40 + 200 + 100, base 1660 / 20 + 52 = 135.
        let b = budget(&limits(2_000, 100, None));
        assert_eq!((b.soft, b.hard), (Some(121), Some(540)));
    }

    /// Chess's shape ([`ClockShape::RAMP`]) at the same clock, exactly: the 9260 ms above the
    /// floor and 49 more increments' income (70 ms each) make a pool of 12 690 ms, of which
    /// the share at ply 0 is 0.0120 + 3^0.45 · 0.0039 (233 ms) and at ply 60 (move 31)
    /// 0.0120 + 63^0.45 · 0.0039 (471 ms): less than the flat shape's 463 at the start, more
    /// in the middlegame; the hard limit five of them, at most 0.4 of the 9260 ms.
    #[test]
    fn the_ramp_budget_grows_with_the_ply() {
        let ramp = |left, ply| {
            let b = TimeBudget::new(&limits(left, 100, None), ClockShape::RAMP.at_ply(ply));
            (b.soft.unwrap(), b.hard.unwrap())
        };
        assert_eq!(ramp(10_000, 0), (233, 1165));
        assert_eq!(ramp(10_000, 60), (471, 2355));
        // With 2 s left (1660 ms above the floor, a pool of 5090): 189 ms at ply 60, and at
        // ply 200 the share (0.0546) is 277 ms; the hard limit is the cap, 0.4 of 1660.
        assert_eq!(ramp(2_000, 60), (189, 664));
        assert_eq!(ramp(2_000, 200), (277, 664));
        // With moves to go the GUI's moves share the clock, as in the flat shape.
        let l = limits(10_000, 100, Some(12));
        let b = TimeBudget::new(&l, ClockShape::RAMP);
        assert_eq!(b.hard, budget(&l).hard);
    }

    /// Microorganism Chess's shape ([`ClockShape::LONG_GAMES`]) at the same clock: the same
    /// 9260 ms over 30 moves, a base of 308 + 52 ms, a soft limit of six tenths of it.
    #[test]
    fn the_long_games_budget_at_ten_seconds_and_a_tenth() {
        let b = TimeBudget::new(&limits(10_000, 100, None), ClockShape::LONG_GAMES);
        assert_eq!((b.soft, b.hard), (Some(216), Some(1440)));
        // With 2 s left: 1660 / 30 + 52 = 107.
        let b = TimeBudget::new(&limits(2_000, 100, None), ClockShape::LONG_GAMES);
        assert_eq!((b.soft, b.hard), (Some(64), Some(428)));
        // With moves to go the moves are the GUI's: only the soft share is the shape's.
        let l = limits(10_000, 100, Some(12));
        let b = TimeBudget::new(&l, ClockShape::LONG_GAMES);
        assert_eq!((b.soft, b.hard), (Some(472), Some(918)));
        let chess = budget(&l);
        assert_eq!((chess.soft, chess.hard), (Some(708), Some(918)));
    }

    #[test]
    fn more_time_more_budget() {
        let a = budget(&limits(10_000, 0, None)).soft.unwrap();
        let b = budget(&limits(100_000, 0, None)).soft.unwrap();
        let c = budget(&limits(10_000, 1000, None)).soft.unwrap();
        assert!(a < b && a < c);
        assert!(!budget(&Limits::default()).timed());
    }
}
