//! Adjudication by the engines' own scores, as cutechess-cli's `-draw` and `-resign` do it:
//! a game both engines call level for long enough is a draw, and one an engine calls lost for
//! long enough is a loss for it. Matches between engines of very different strength, and
//! sequential tests, spend most of their time on games whose result is no longer in doubt.
//!
//! A score is the last one an engine reported for its move (UCI `info … score cp N` or
//! `score mate N`; XBoard's thinking lines `ply score time nodes pv`), from the mover's view.
//! A move with no score (no search output) breaks every count, as cutechess-cli's book moves do.

use crate::core::Color;

/// `--draw movenumber=N,movecount=M,score=S`: a draw once the game has reached move N and
/// both engines' scores have stayed within ±S centipawns for M moves each (2·M plies in a row).
/// A capture, shot or promotion (a tactical move of the variant) starts the count again:
/// material still changes hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    pub move_number: u32,
    pub move_count: u32,
    pub score: i32,
}

/// `--resign movecount=M,score=S[,twosided=true]`: a loss for the engine whose score has been
/// S centipawns or more below zero for M of its moves in a row; with `twosided`, only if the
/// other engine's score has been S or more above zero for its last M moves too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ResignRule {
    pub move_count: u32,
    pub score: i32,
    pub two_sided: bool,
}

/// Reads `KEY=VALUE,…` pairs of non-negative integers (and `twosided=true|false`).
fn pairs<'a>(what: &str, text: &'a str) -> Result<Vec<(&'a str, &'a str)>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|part| {
            part.split_once('=')
                .map(|(k, v)| (k.trim(), v.trim()))
                .ok_or_else(|| format!("{what}: expected KEY=VALUE, got {part:?}"))
        })
        .collect()
}

fn number(what: &str, key: &str, v: &str) -> Result<u32, String> {
    v.parse()
        .map_err(|_| format!("{what}: {key} must be a whole number from 0 up, not {v:?}"))
}

impl DrawRule {
    /// Reads `movenumber=40,movecount=8,score=10` (all three required; movecount at least 1).
    pub fn parse(text: &str) -> Result<DrawRule, String> {
        let what = "--draw";
        let (mut n, mut m, mut s) = (None, None, None);
        for (k, v) in pairs(what, text)? {
            match k {
                "movenumber" => n = Some(number(what, k, v)?),
                "movecount" => m = Some(number(what, k, v)?),
                "score" => s = Some(number(what, k, v)?),
                other => return Err(format!("{what}: unknown key {other:?}")),
            }
        }
        match (n, m, s) {
            (Some(move_number), Some(move_count), Some(score)) if move_count > 0 => Ok(DrawRule {
                move_number,
                move_count,
                score: score.min(i32::MAX as u32) as i32,
            }),
            (Some(_), Some(_), Some(_)) => Err(format!("{what}: movecount must be at least 1")),
            _ => Err(format!(
                "{what}: movenumber, movecount and score are required"
            )),
        }
    }
}

impl ResignRule {
    /// Reads `movecount=3,score=600` with an optional `twosided=true`.
    pub fn parse(text: &str) -> Result<ResignRule, String> {
        let what = "--resign";
        let (mut m, mut s, mut two_sided) = (None, None, false);
        for (k, v) in pairs(what, text)? {
            match k {
                "movecount" => m = Some(number(what, k, v)?),
                "score" => s = Some(number(what, k, v)?),
                "twosided" => {
                    two_sided = match v {
                        "true" => true,
                        "false" => false,
                        _ => return Err(format!("{what}: twosided is true or false, not {v:?}")),
                    }
                }
                other => return Err(format!("{what}: unknown key {other:?}")),
            }
        }
        match (m, s) {
            (Some(move_count), Some(score)) if move_count > 0 => Ok(ResignRule {
                move_count,
                score: score.min(i32::MAX as u32) as i32,
                two_sided,
            }),
            (Some(_), Some(_)) => Err(format!("{what}: movecount must be at least 1")),
            _ => Err(format!("{what}: movecount and score are required")),
        }
    }
}

/// What the adjudicator decided after a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Draw(String),
    /// The side that loses, and why.
    Loss(Color, String),
}

/// The counts of one game.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    draw: Option<DrawRule>,
    resign: Option<ResignRule>,
    /// Plies in a row with the mover's score within the draw rule's bound.
    level: u32,
    /// Per side (White, Black): its moves in a row scored at or below −S, at or above +S.
    losing: [u32; 2],
    winning: [u32; 2],
}

impl Adjudicator {
    pub fn new(draw: Option<DrawRule>, resign: Option<ResignRule>) -> Adjudicator {
        Adjudicator {
            draw,
            resign,
            level: 0,
            losing: [0; 2],
            winning: [0; 2],
        }
    }

    /// Counts the move `side` just made: its score (`None`: none reported), whether it was
    /// tactical, and the plies played in the game so far, this move included.
    pub fn after_move(
        &mut self,
        side: Color,
        score: Option<i32>,
        tactical: bool,
        plies: usize,
    ) -> Option<Verdict> {
        let s = side.index();
        let Some(score) = score else {
            self.level = 0;
            self.losing[s] = 0;
            self.winning[s] = 0;
            return None;
        };
        if let Some(rule) = self.draw {
            self.level = if tactical || score.unsigned_abs() > rule.score as u32 {
                0
            } else {
                self.level + 1
            };
            if plies / 2 >= rule.move_number as usize && self.level >= 2 * rule.move_count {
                return Some(Verdict::Draw(format!(
                    "both engines' scores within ±{} cp for {} moves",
                    rule.score, rule.move_count
                )));
            }
        }
        if let Some(rule) = self.resign {
            let bump = |n: u32, yes: bool| if yes { n + 1 } else { 0 };
            self.losing[s] = bump(self.losing[s], score <= -rule.score);
            self.winning[s] = bump(self.winning[s], score >= rule.score);
            if self.losing[s] >= rule.move_count
                && (!rule.two_sided || self.winning[1 - s] >= rule.move_count)
            {
                return Some(Verdict::Loss(
                    side,
                    format!(
                        "{}'s score at or below -{} cp for {} moves",
                        side.name(),
                        rule.score,
                        rule.move_count
                    ),
                ));
            }
        }
        None
    }
}

/// What one search line of an engine said: its score from the engine's view and the depth
/// it was searched to, if the line gave one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    pub score: i32,
    pub depth: Option<u32>,
}

/// The score (and depth) a line of engine output reports, if it is a search line with a
/// score: UCI `info … depth D … score cp N` / `score mate N` (a mate in N is 100000 − N, being
/// mated −100000 − N), XBoard thinking `ply score time nodes …` (its score as the engine
/// writes it, the ply as the depth).
pub fn reported(line: &str) -> Option<Report> {
    let mut words = line.split_whitespace();
    let first = words.next()?;
    if first == "info" {
        // The words after `key`; everything after `string` is free text. (Two passes over
        // the line and no allocation: the referee reads every line an engine writes.)
        let after = |key: &'static str| {
            line.split_whitespace()
                .take_while(|w| *w != "string")
                .skip_while(move |w| *w != key)
                .skip(1)
        };
        let mut score = after("score");
        let kind = score.next()?;
        let n: i64 = score.next()?.parse().ok()?;
        let n = n.clamp(-1_000_000, 1_000_000) as i32;
        let score = match kind {
            "cp" => n,
            "mate" if n > 0 => 100_000 - n,
            "mate" => -100_000 - n,
            _ => return None,
        };
        let depth = after("depth").next().and_then(|w| w.parse().ok());
        return Some(Report { score, depth });
    }
    // XBoard thinking: four numbers first (ply, score, time, nodes), the ply perhaps with a
    // trailing `&` or `.` in some engines' output.
    let ply = first.trim_end_matches(['&', '.']);
    if ply.is_empty() || !ply.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let score: i64 = words.next()?.parse().ok()?;
    words.next()?.parse::<i64>().ok()?;
    words.next()?.parse::<i64>().ok()?;
    Some(Report {
        score: score.clamp(-1_000_000, 1_000_000) as i32,
        depth: ply.parse().ok(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_parse_and_refuse() {
        assert_eq!(
            DrawRule::parse("movenumber=40,movecount=8,score=10"),
            Ok(DrawRule {
                move_number: 40,
                move_count: 8,
                score: 10
            })
        );
        assert_eq!(
            ResignRule::parse("movecount=3, score=600, twosided=true"),
            Ok(ResignRule {
                move_count: 3,
                score: 600,
                two_sided: true
            })
        );
        assert_eq!(
            DrawRule::parse("movenumber=40,movecount=8"),
            Err("--draw: movenumber, movecount and score are required".into())
        );
        assert_eq!(
            DrawRule::parse("movenumber=40,movecount=0,score=5"),
            Err("--draw: movecount must be at least 1".into())
        );
        assert_eq!(
            ResignRule::parse("movecount=3,score=-600"),
            Err("--resign: score must be a whole number from 0 up, not \"-600\"".into())
        );
        assert_eq!(
            ResignRule::parse("movecount=3,score=600,twosided=yes"),
            Err("--resign: twosided is true or false, not \"yes\"".into())
        );
        assert_eq!(
            ResignRule::parse("moves=3"),
            Err("--resign: unknown key \"moves\"".into())
        );
        assert_eq!(
            ResignRule::parse("movecount=4294967295,score=4294967295").map(|r| r.score),
            Ok(i32::MAX)
        );
    }

    fn reported_score(line: &str) -> Option<i32> {
        reported(line).map(|r| r.score)
    }

    #[test]
    fn depths_are_read_with_the_score() {
        let depth = |l: &str| reported(l).map(|r| r.depth);
        assert_eq!(
            depth("info depth 9 seldepth 12 score cp -35 pv e2e4"),
            Some(Some(9))
        );
        assert_eq!(depth("info score cp 7 depth 14"), Some(Some(14)));
        assert_eq!(depth("info score cp 7 nodes 10"), Some(None));
        assert_eq!(depth("info depth x score cp 7"), Some(None));
        assert_eq!(depth("info depth 3 nodes 100"), None);
        assert_eq!(depth("12& 100003 5 900 d1h5"), Some(Some(12)));
        assert_eq!(depth(" 9 -41 120 53211 e2e4 e7e5"), Some(Some(9)));
        assert_eq!(depth("info depth"), None);
        assert_eq!(depth("info depth 5 score"), None);
    }

    #[test]
    fn scores_are_read_from_both_protocols() {
        assert_eq!(
            reported_score("info depth 9 seldepth 12 score cp -35 nodes 1000 pv e2e4"),
            Some(-35)
        );
        assert_eq!(
            reported_score("info depth 20 score mate 3 pv a1a8"),
            Some(99_997)
        );
        assert_eq!(reported_score("info depth 20 score mate -2"), Some(-99_998));
        assert_eq!(
            reported_score("info depth 5 score cp 12 lowerbound"),
            Some(12)
        );
        assert_eq!(
            reported_score("info string score cp 5 is not a search"),
            None
        );
        assert_eq!(reported_score("info depth 3 nodes 100"), None);
        assert_eq!(reported_score(" 9 -41 120 53211 e2e4 e7e5"), Some(-41));
        assert_eq!(reported_score("12& 100003 5 900 d1h5"), Some(100_003));
        assert_eq!(reported_score("move e2e4"), None);
        assert_eq!(reported_score("1-0 {White mates}"), None);
        assert_eq!(reported_score("9 -41"), None);
    }

    #[test]
    fn a_level_game_is_drawn_after_the_move_number() {
        let rule = DrawRule {
            move_number: 3,
            move_count: 2,
            score: 10,
        };
        let mut a = Adjudicator::new(Some(rule), None);
        let side = |ply: usize| {
            if ply % 2 == 1 {
                Color::White
            } else {
                Color::Black
            }
        };
        // Plies 1–4 level, but move 3 is not reached before ply 6.
        for ply in 1..=5 {
            assert_eq!(
                a.after_move(side(ply), Some(-10), false, ply),
                None,
                "{ply}"
            );
        }
        assert_eq!(
            a.after_move(side(6), Some(3), false, 6),
            Some(Verdict::Draw(
                "both engines' scores within ±10 cp for 2 moves".into()
            ))
        );
        // A capture, a score beyond the bound or none starts the count again.
        for breaker in [(Some(0), true), (Some(11), false), (None, false)] {
            let mut a = Adjudicator::new(Some(rule), None);
            for ply in 1..=6 {
                let (score, tactical) = if ply == 3 { breaker } else { (Some(0), false) };
                assert_eq!(a.after_move(side(ply), score, tactical, ply), None);
            }
            assert!(a.after_move(side(7), Some(0), false, 7).is_some());
        }
    }

    #[test]
    fn a_side_that_scores_itself_lost_resigns() {
        let one = ResignRule {
            move_count: 2,
            score: 600,
            two_sided: false,
        };
        let mut a = Adjudicator::new(None, Some(one));
        assert_eq!(a.after_move(Color::White, Some(-600), false, 1), None);
        assert_eq!(a.after_move(Color::Black, Some(900), false, 2), None);
        assert_eq!(
            a.after_move(Color::White, Some(-700), true, 3),
            Some(Verdict::Loss(
                Color::White,
                "White's score at or below -600 cp for 2 moves".into()
            ))
        );
        // Two-sided: the winner must agree for as many moves.
        let two = ResignRule {
            two_sided: true,
            ..one
        };
        let mut a = Adjudicator::new(None, Some(two));
        assert_eq!(a.after_move(Color::White, Some(-600), false, 1), None);
        assert_eq!(a.after_move(Color::Black, Some(599), false, 2), None);
        assert_eq!(a.after_move(Color::White, Some(-650), false, 3), None);
        assert_eq!(a.after_move(Color::Black, Some(600), false, 4), None);
        assert_eq!(a.after_move(Color::White, Some(-650), false, 5), None);
        assert_eq!(a.after_move(Color::Black, Some(620), false, 6), None);
        assert_eq!(
            a.after_move(Color::White, Some(-99_998), false, 7),
            Some(Verdict::Loss(
                Color::White,
                "White's score at or below -600 cp for 2 moves".into()
            ))
        );
    }
}
