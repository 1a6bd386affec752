//! One game, refereed: the rules read every move and decide the end; misbehaviour loses.

use std::time::Duration;

use super::adjudicate::{Adjudicator, DrawRule, Report, ResignRule, Verdict};
use super::notation::{engine_move_text, parse_engine_move};
use super::openings::{mix, Opening};
use super::player::{Answer, GameStart, Player, Request};
use super::spec::Limit;
use crate::core::{Color, Outcome, Protocol};
use crate::variants::VariantKind;

/// Why a game ended (the PGN `Termination` tag).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules (mate, stalemate, repetition, move rule, …) or a resignation.
    Normal,
    TimeForfeit,
    IllegalMove,
    /// The engine exited, closed its output, or could not be written to.
    Abandoned,
    /// A false result claim, or refusing a legal move.
    RulesInfraction,
    /// The referee's move limit, or the engines' scores (`--draw`, `--resign`).
    Adjudication,
}

impl Termination {
    pub fn pgn(self) -> &'static str {
        match self {
            Termination::Normal => "normal",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "illegal move",
            Termination::Abandoned => "abandoned",
            Termination::RulesInfraction => "rules infraction",
            Termination::Adjudication => "adjudication",
        }
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// `None`: a draw.
    pub winner: Option<Color>,
    pub termination: Termination,
    pub reason: String,
}

impl GameResult {
    pub fn score(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    fn loss(loser: Color, termination: Termination, reason: String) -> GameResult {
        GameResult {
            winner: Some(!loser),
            termination,
            reason,
        }
    }

    /// A draw or a loss the referee decides by the engines' scores.
    fn adjudicated(v: Verdict) -> GameResult {
        match v {
            Verdict::Draw(reason) => GameResult {
                winner: None,
                termination: Termination::Adjudication,
                reason,
            },
            Verdict::Loss(loser, reason) => {
                GameResult::loss(loser, Termination::Adjudication, reason)
            }
        }
    }

    fn by_rules(o: &Outcome) -> GameResult {
        GameResult {
            winner: match o {
                Outcome::Win { winner, .. } => Some(*winner),
                Outcome::Draw { .. } => None,
            },
            termination: Termination::Normal,
            reason: o.reason().to_string(),
        }
    }
}

/// A silence longer than the match's stall gap while an engine was thinking (its clock
/// running): from the request for a move to the engine's first line, between two of its
/// lines, or from its last line to its answer or the deadline.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stall {
    /// The ply (0-based, opening moves included) the engine was asked to play.
    pub ply: usize,
    pub side: Color,
    /// The longest silence of that turn.
    pub silence: Duration,
}

/// What the player said of one of its moves, for the PGN's comment (as cutechess-cli writes
/// it): the last score and depth it reported, and the time from the request to the move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveNote {
    pub report: Option<Report>,
    pub elapsed: Duration,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub variant: VariantKind,
    /// The position the game (and its opening moves) started from.
    pub start_fen: String,
    /// Whether `start_fen` is the variant's start position.
    pub from_startpos: bool,
    /// White's and Black's names.
    pub names: [String; 2],
    pub limits: [Limit; 2],
    /// Every move in UCI spelling, opening moves first.
    pub moves: Vec<String>,
    pub opening_plies: usize,
    /// What each player said of its moves, one for every move after the opening's.
    pub notes: Vec<MoveNote>,
    pub result: GameResult,
    /// The turns with a silence longer than the stall gap.
    pub stalls: Vec<Stall>,
    /// The longest silence of any turn of each side (White, Black).
    pub longest_silence: [Duration; 2],
    /// On a clock: the least time left (clock plus margin, minus the time used) after any move
    /// made in time, in ms, per side; how close the game came to a time forfeit.
    pub least_left_ms: [Option<u64>; 2],
}

/// What a game is played under.
#[derive(Clone, Debug)]
pub struct GameSettings {
    pub variant: VariantKind,
    /// White's and Black's limits.
    pub limits: [Limit; 2],
    /// Time a clock may overrun before the flag falls (also for `st`).
    pub time_margin: Duration,
    /// How long an engine without a clock (`depth`, `nodes`) may take for one move.
    pub stall_timeout: Duration,
    /// A silence longer than this while an engine thinks is a [`Stall`] (counted, not a loss).
    pub stall_gap: Duration,
    /// A draw by adjudication after this many plies.
    pub max_plies: Option<usize>,
    /// Adjudication by the engines' scores ([`super::adjudicate`]).
    pub draw_rule: Option<DrawRule>,
    pub resign_rule: Option<ResignRule>,
    pub seed: u64,
}

/// What the referee makes of something a player said that was not a move.
fn judge(a: Answer, who: Color) -> GameResult {
    let name = who.name();
    match a {
        Answer::Resign => GameResult::loss(who, Termination::Normal, format!("{name} resigns")),
        // The referee ends the game the moment the rules do, so any claim it reads while the
        // game goes on is false.
        Answer::Claim(line) => GameResult::loss(
            who,
            Termination::RulesInfraction,
            format!("{name} makes a false claim: {line}"),
        ),
        Answer::Refused(line) => GameResult::loss(
            who,
            Termination::RulesInfraction,
            format!("{name} refuses a legal move: {line}"),
        ),
        Answer::Timeout => GameResult::loss(
            who,
            Termination::TimeForfeit,
            format!("{name} loses on time"),
        ),
        Answer::Gone(why) => GameResult::loss(
            who,
            Termination::Abandoned,
            format!("{name} disconnects ({why})"),
        ),
        Answer::Move { text, .. } => GameResult::loss(
            who,
            Termination::RulesInfraction,
            format!("{name} moves out of turn: {text}"),
        ),
    }
}

/// Plays one game from `opening`. `Err` only when a player cannot start the game (the match
/// cannot go on).
pub fn play_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    opening: &Opening,
    s: &GameSettings,
) -> Result<GameRecord, String> {
    let mut players: [&mut dyn Player; 2] = [white, black];
    let mut pos = opening.position(s.variant);
    let start_fen = pos.fen();
    // Every move in each protocol's spelling: [UCI, XBoard].
    let mut texts: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    let pidx = |p: Protocol| match p {
        Protocol::Uci => 0,
        Protocol::Xboard => 1,
    };
    let record = |texts: &mut [Vec<String>; 2], pos: &crate::variants::AnyPos, m| {
        texts[0].push(engine_move_text(pos, m, Protocol::Uci));
        texts[1].push(engine_move_text(pos, m, Protocol::Xboard));
    };
    for &m in &opening.moves {
        record(&mut texts, &pos, m);
        pos.make_move(m);
    }
    for c in Color::BOTH {
        let start = GameStart {
            variant: s.variant,
            fen: opening.fen.as_deref(),
            limit: s.limits[c.index()],
            seed: mix(&[s.seed, c.index() as u64]),
        };
        players[c.index()]
            .new_game(&start)
            .map_err(|e| format!("{} cannot start a game: {e}", players[c.index()].name()))?;
    }
    let mut clock_ms = [0u64; 2];
    for c in Color::BOTH {
        if let Limit::Clock { base_ms, .. } = s.limits[c.index()] {
            clock_ms[c.index()] = base_ms;
        }
    }
    let margin = s.time_margin;
    let mut stalls = Vec::new();
    let mut longest_silence = [Duration::ZERO; 2];
    let mut least_left_ms: [Option<u64>; 2] = [None; 2];
    let mut adjudicator = Adjudicator::new(s.draw_rule, s.resign_rule);
    let mut notes = Vec::new();
    // The scores' verdict on the last move, read after the rules: a move that ends the game
    // is not adjudicated.
    let mut verdict = None;
    let result = loop {
        if let Some(o) = pos.outcome() {
            break GameResult::by_rules(&o);
        }
        if let Some(v) = verdict.take() {
            break GameResult::adjudicated(v);
        }
        if s.max_plies.is_some_and(|n| texts[0].len() >= n) {
            break GameResult::adjudicated(Verdict::Draw(format!(
                "move limit of {} plies",
                texts[0].len()
            )));
        }
        let side = pos.side_to_move();
        if let Some(a) = players[(!side).index()].poll() {
            break judge(a, !side);
        }
        let limit = s.limits[side.index()];
        let own = clock_ms[side.index()];
        let allowed = match limit {
            Limit::Clock { .. } => Duration::from_millis(own) + margin,
            Limit::MoveTime { ms } => Duration::from_millis(ms) + margin,
            Limit::Depth(_) | Limit::Nodes(_) => s.stall_timeout,
        };
        let player = &mut players[side.index()];
        let protocol = player.protocol();
        let mut shown = clock_ms;
        // A side without a clock is shown with the other side's time.
        if !matches!(s.limits[(!side).index()], Limit::Clock { .. }) {
            shown[(!side).index()] = own;
        }
        let req = Request {
            pos: &pos,
            moves: &texts[pidx(protocol)],
            side,
            limit,
            clock_ms: shown,
            wait: allowed,
        };
        let answer = player.play(&req);
        let silence = player.longest_silence();
        let l = &mut longest_silence[side.index()];
        *l = (*l).max(silence);
        if silence > s.stall_gap {
            stalls.push(Stall {
                ply: texts[0].len(),
                side,
                silence,
            });
        }
        match answer {
            Answer::Move {
                text,
                elapsed,
                report,
            } => {
                if elapsed > allowed {
                    break GameResult::loss(
                        side,
                        Termination::TimeForfeit,
                        format!("{} loses on time", side.name()),
                    );
                }
                let m = match parse_engine_move(&pos, &text, protocol) {
                    Ok(m) => m,
                    Err(e) => {
                        break GameResult::loss(
                            side,
                            Termination::IllegalMove,
                            format!("{} makes an illegal move: {e}", side.name()),
                        )
                    }
                };
                let tactical = pos.is_tactical(m);
                record(&mut texts, &pos, m);
                notes.push(MoveNote { report, elapsed });
                pos.make_move(m);
                if let Limit::Clock { inc_ms, .. } = limit {
                    let used = elapsed.as_millis() as u64;
                    let left = (allowed - elapsed).as_millis() as u64;
                    let least = &mut least_left_ms[side.index()];
                    *least = Some(least.map_or(left, |l| l.min(left)));
                    clock_ms[side.index()] = own.saturating_sub(used) + inc_ms;
                }
                let score = report.map(|r| r.score);
                verdict = adjudicator.after_move(side, score, tactical, texts[0].len());
            }
            other => break judge(other, side),
        }
    };
    for p in players.iter_mut() {
        p.game_over(result.score(), &result.reason);
    }
    Ok(GameRecord {
        variant: s.variant,
        from_startpos: start_fen == s.variant.startpos().fen(),
        start_fen,
        names: [players[0].name().to_string(), players[1].name().to_string()],
        limits: s.limits,
        moves: std::mem::take(&mut texts[0]),
        opening_plies: opening.moves.len(),
        notes,
        result,
        stalls,
        longest_silence,
        least_left_ms,
    })
}
