//! The game clocks of `cellmate serve`: a time control (a base time and an increment a move),
//! each side's time left, kept by the server from the moments the moves were played.
//!
//! A side's clock runs from the previous move (the first move of a game costs nothing: the
//! clocks start when it is played) until its own move; the increment is added then. What is
//! stored with each move is its mover's time left after it, so a reopened game has its clocks
//! back as they were, and the clock of the side to move counts from that move's time on
//! (also while the server was down).

use serde_json::{json, Value};

use crate::core::Color;

/// Base time and increment, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base_ms: i64,
    pub inc_ms: i64,
}

/// The longest base time and increment a page may choose.
const MAX_BASE_MS: i64 = 24 * 3_600_000;
const MAX_INC_MS: i64 = 600_000;

impl TimeControl {
    /// A game's time control unless its page chooses another: 15 minutes, 10 s a move.
    pub const DEFAULT: TimeControl = TimeControl {
        base_ms: 15 * 60_000,
        inc_ms: 10_000,
    };

    pub fn to_json(self) -> Value {
        json!({"base_ms": self.base_ms, "inc_ms": self.inc_ms})
    }

    /// A stored time control ([`Self::to_json`]'s text); `None` if it is not one.
    pub fn from_stored(text: &str) -> Option<TimeControl> {
        let v: Value = serde_json::from_str(text).ok()?;
        Some(TimeControl {
            base_ms: v["base_ms"].as_i64()?,
            inc_ms: v["inc_ms"].as_i64()?,
        })
    }

    /// A page's `clock` message: `base_ms` (1 ms to a day) and `inc_ms` (0 to 10 minutes,
    /// absent: 0), or `base_ms` null for an untimed game.
    pub fn from_message(msg: &Value) -> Result<Option<TimeControl>, String> {
        if msg.get("base_ms").is_none_or(Value::is_null) {
            return Ok(None);
        }
        let base_ms = (msg["base_ms"].as_i64())
            .filter(|b| (1..=MAX_BASE_MS).contains(b))
            .ok_or("field \"base_ms\" must be a whole number of milliseconds, at most a day")?;
        let inc_ms = match msg.get("inc_ms") {
            None | Some(Value::Null) => 0,
            Some(v) => (v.as_i64())
                .filter(|i| (0..=MAX_INC_MS).contains(i))
                .ok_or("field \"inc_ms\" must be 0 to 600000 milliseconds")?,
        };
        Ok(Some(TimeControl { base_ms, inc_ms }))
    }

    /// The mover's time left after a move played at `now`, with `before` left when its clock
    /// started at `since` (`None`: the game's first move, which costs nothing).
    pub fn after_move(self, before: i64, since: Option<i64>, now: i64) -> i64 {
        before - since.map_or(0, |s| (now - s).max(0)) + self.inc_ms
    }

    /// Each side's time left (`[white, black]`) after the moves whose movers are `movers` and
    /// whose stored times left are `left` (a move without one, as in a game stored before
    /// clocks, leaves its mover's clock where it was).
    pub fn left(self, movers: &[Color], left: &[Option<i64>]) -> [i64; 2] {
        let mut out = [self.base_ms; 2];
        for (c, l) in movers.iter().zip(left) {
            if let Some(l) = l {
                out[c.index()] = *l;
            }
        }
        out
    }
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The state's `clock`: the time control, each side's time left at `now` (the running side's
/// clock counted from `since`), which side's clock runs, and `flag`, the first side whose time
/// is up (or null). `at_ms` is `now`, so that a copy sent later can be brought up to date by
/// [`age`].
pub fn state_json(
    tc: TimeControl,
    mut left: [i64; 2],
    running: Option<Color>,
    since: Option<i64>,
    now: i64,
) -> Value {
    if let (Some(c), Some(s)) = (running, since) {
        left[c.index()] -= (now - s).max(0);
    }
    let flag = [Color::White, Color::Black]
        .into_iter()
        .find(|c| left[c.index()] <= 0);
    json!({
        "base_ms": tc.base_ms,
        "inc_ms": tc.inc_ms,
        "white_ms": left[0],
        "black_ms": left[1],
        "running": running.map(side_name),
        "flag": flag.map(side_name),
        "at_ms": now,
    })
}

/// Brings the `clock` of a state made earlier up to `now`: the running side's time runs on.
pub fn age(state: &mut Value, now: i64) {
    let clock = &mut state["clock"];
    let (Some(at), Some(side)) = (clock["at_ms"].as_i64(), clock["running"].as_str()) else {
        return;
    };
    let side = side.to_string();
    let key = format!("{side}_ms");
    if let Some(left) = clock[&key].as_i64() {
        let left = left - (now - at).max(0);
        clock[&key] = json!(left);
        clock["at_ms"] = json!(now);
        if left <= 0 && clock["flag"].is_null() {
            clock["flag"] = json!(side);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_run_from_the_previous_move_and_gain_the_increment() {
        let tc = TimeControl {
            base_ms: 60_000,
            inc_ms: 2_000,
        };
        // White's first move is free; Black thinks 5 s, White 61 s.
        let w1 = tc.after_move(60_000, None, 1_000);
        let b1 = tc.after_move(60_000, Some(1_000), 6_000);
        assert_eq!((w1, b1), (62_000, 57_000));
        let left = tc.left(&[Color::White, Color::Black], &[Some(w1), Some(b1)]);
        assert_eq!(left, [62_000, 57_000]);
        let v = state_json(tc, left, Some(Color::White), Some(6_000), 67_000);
        assert_eq!(
            (v["white_ms"].as_i64(), v["flag"].as_str()),
            (Some(1_000), None)
        );
        let mut late = json!({"clock": v});
        age(&mut late, 70_000);
        assert_eq!(late["clock"]["white_ms"], -2_000);
        assert_eq!(late["clock"]["flag"], "white");
        let stored = TimeControl::from_stored(&tc.to_json().to_string());
        assert_eq!(stored, Some(tc));
        let asked = json!({"type": "clock", "base_ms": 300_000, "inc_ms": 3_000});
        let chosen = TimeControl::from_message(&asked).unwrap();
        assert_eq!(chosen.map(|t| t.inc_ms), Some(3_000));
        assert_eq!(
            TimeControl::from_message(&json!({"base_ms": null})),
            Ok(None)
        );
        assert!(TimeControl::from_message(&json!({"base_ms": -5})).is_err());
    }
}
