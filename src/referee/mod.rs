//! The referee: `cellmate match` plays games between two engines, with this crate's rules
//! deciding every move and every game's end.
//!
//! A room of its own: it uses the rules (through the variant dispatch of
//! [`crate::variants::registry`]) and talks to engines only as child processes over UCI or XBoard,
//! never through the engine room. See `docs/match.md`.
//!
//! - [`spec`]: engine specs and time controls from the command line;
//! - [`notation`]: the one door between engine move text and the rules;
//! - [`player`]: engine processes (UCI, XBoard) and the built-in random mover;
//! - [`game`]: one refereed game and its adjudication;
//! - [`openings`], [`pgn`], [`stats`] (Elo, error bars, SPRT).

pub mod adjudicate;
pub mod game;
pub mod notation;
pub mod openings;
pub mod pgn;
pub mod player;
pub mod spec;
pub mod stats;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::thread;
use std::time::Duration;

use crate::core::Color;
use crate::variants::VariantKind;
use game::{play_game, GameRecord, GameSettings, Termination};
use openings::{mix, random_moves, Opening, Rng};
use player::Player;
use spec::{EngineSpec, Limit};
use stats::{fmt_elo, Sprt, SprtState, Wdl};

/// Everything a match is played under.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The first engine's results are the match's.
    pub engines: [EngineSpec; 2],
    pub variant: VariantKind,
    /// Total games; consecutive games form pairs from the same opening with colours swapped.
    pub games: usize,
    /// The limit of an engine whose spec sets none.
    pub limit: Limit,
    /// Start positions (FENs), used in order and cycled; empty: the variant's start.
    pub openings: Vec<String>,
    /// Random plies played from each opening position before the engines take over.
    pub random_plies: usize,
    pub seed: u64,
    pub concurrency: usize,
    pub pgn: Option<PathBuf>,
    pub sprt: Option<Sprt>,
    pub time_margin: Duration,
    pub stall_timeout: Duration,
    /// A silence longer than this while an engine thinks is counted as a stall.
    pub stall_gap: Duration,
    /// Write one line per stall here (the file is created even when there is none).
    pub stall_report: Option<PathBuf>,
    pub max_plies: Option<usize>,
    /// Adjudication by the engines' scores (`--draw`, `--resign`).
    pub draw_rule: Option<adjudicate::DrawRule>,
    pub resign_rule: Option<adjudicate::ResignRule>,
    /// Print the progress line on stderr.
    pub progress: bool,
}

impl MatchConfig {
    /// Two engines, the variant's start position, 2 games, `tc=10+0.1`, one at a time.
    pub fn new(engines: [EngineSpec; 2], variant: VariantKind) -> MatchConfig {
        MatchConfig {
            engines,
            variant,
            games: 2,
            limit: Limit::Clock {
                base_ms: 10_000,
                inc_ms: 100,
            },
            openings: Vec::new(),
            random_plies: 0,
            seed: 1,
            concurrency: 1,
            pgn: None,
            sprt: None,
            time_margin: Duration::from_millis(100),
            stall_timeout: Duration::from_secs(60),
            stall_gap: Duration::from_secs(2),
            stall_report: None,
            max_plies: None,
            draw_rule: None,
            resign_rule: None,
            progress: false,
        }
    }

    /// The opening of game `index` (both games of a pair share it).
    pub fn opening(&self, index: usize) -> Opening {
        let pair = index / 2;
        let fen =
            (!self.openings.is_empty()).then(|| self.openings[pair % self.openings.len()].clone());
        let mut o = Opening {
            fen,
            moves: Vec::new(),
        };
        if self.random_plies > 0 {
            let start = o.position(self.variant);
            let mut rng = Rng::new(mix(&[self.seed, pair as u64, 0x09E4]));
            o.moves = random_moves(&start, self.random_plies, &mut rng);
        }
        o
    }

    /// How many games can differ when the engines are deterministic (one thread, a node or
    /// depth limit, as cellmate's own): each pair of games replays the same opening, so with
    /// no random plies the games after the first two per opening repeat earlier ones move for
    /// move. `None` when the games can all differ (random plies, a limit by time, or the
    /// built-in random mover, whose moves depend on the game's number).
    pub fn distinct_games(&self) -> Option<usize> {
        let fixed = |i: usize| {
            self.engines[i].builtin.is_none()
                && matches!(self.limit_of(i), Limit::Nodes(_) | Limit::Depth(_))
        };
        if self.random_plies > 0 || !(fixed(0) && fixed(1)) {
            return None;
        }
        Some(2 * self.openings.len().max(1))
    }

    /// A warning when more games are asked for than can differ ([`Self::distinct_games`]).
    pub fn repeat_warning(&self) -> Option<String> {
        let distinct = self.distinct_games()?;
        (self.games > distinct).then(|| {
            format!(
                "warning: {} games from {} opening{} at a fixed node or depth limit: deterministic \
                 engines repeat the first {distinct} games move for move after that, and repeats \
                 add nothing to a score or an SPRT; add --random-plies N to vary the games",
                self.games,
                self.openings.len().max(1),
                if self.openings.len() > 1 { "s" } else { "" }
            )
        })
    }

    fn limit_of(&self, engine: usize) -> Limit {
        self.engines[engine].limit.unwrap_or(self.limit)
    }
}

/// A finished (or stopped) match.
#[derive(Clone, Debug)]
pub struct MatchReport {
    /// The engines' names (first, second).
    pub names: [String; 2],
    /// The first engine's results.
    pub wdl: Wdl,
    /// Games in the order they were scheduled: `(index, record)`.
    pub games: Vec<(usize, GameRecord)>,
    pub sprt: Option<(f64, SprtState)>,
    /// Engine processes found to have exited abnormally when the referee closed them (a
    /// crash no game saw, e.g. after its last move or at `quit`).
    pub exits: Vec<String>,
}

/// What went wrong in a match, counted over both engines: all zero in a clean run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    /// Games lost by an illegal or unreadable move.
    pub illegal: usize,
    /// Games lost on time.
    pub forfeits: usize,
    /// Turns with a silence longer than the stall gap (a game may have several).
    pub stalls: usize,
    /// Games abandoned (the engine exited or closed its output) plus abnormal exits found when
    /// closing an engine.
    pub crashes: usize,
    /// Games lost by a false claim or by refusing a legal move.
    pub infractions: usize,
}

impl Faults {
    pub fn total(&self) -> usize {
        self.illegal + self.forfeits + self.stalls + self.crashes + self.infractions
    }
}

impl std::fmt::Display for Faults {
    /// `illegal=0 forfeit=0 stall=0 crash=0 infraction=0`: the `Faults:` summary line.
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "illegal={} forfeit={} stall={} crash={} infraction={}",
            self.illegal, self.forfeits, self.stalls, self.crashes, self.infractions
        )
    }
}

impl MatchReport {
    pub fn faults(&self) -> Faults {
        let mut f = Faults {
            crashes: self.exits.len(),
            ..Faults::default()
        };
        for (_, g) in &self.games {
            f.stalls += g.stalls.len();
            match g.result.termination {
                Termination::IllegalMove => f.illegal += 1,
                Termination::TimeForfeit => f.forfeits += 1,
                Termination::Abandoned => f.crashes += 1,
                Termination::RulesInfraction => f.infractions += 1,
                Termination::Normal | Termination::Adjudication => {}
            }
        }
        f
    }

    /// The longest silence of any engine while thinking, over the match.
    pub fn longest_silence(&self) -> Duration {
        self.games
            .iter()
            .flat_map(|(_, g)| g.longest_silence)
            .max()
            .unwrap_or(Duration::ZERO)
    }

    /// The least time any engine had left on its clock (with the margin) after a move made in
    /// time, in ms; `None` without clocks.
    pub fn least_left_ms(&self) -> Option<u64> {
        self.games
            .iter()
            .flat_map(|(_, g)| g.least_left_ms)
            .flatten()
            .min()
    }

    /// One line per stall: game (1-based), ply, side, engine, silence.
    pub fn stall_lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (i, g) in &self.games {
            for st in &g.stalls {
                out.push(format!(
                    "game {} ply {} {} ({}) silent {:.3} s",
                    i + 1,
                    st.ply + 1,
                    st.side.name(),
                    g.names[st.side.index()],
                    st.silence.as_secs_f64()
                ));
            }
        }
        out
    }
}

/// The points (×2) of the first engine in game `index`.
fn first_engine_points(index: usize, g: &GameRecord) -> u8 {
    let first = if index.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    };
    match g.result.winner {
        None => 1,
        Some(c) if c == first => 2,
        Some(_) => 0,
    }
}

fn progress_line(cfg: &MatchConfig, wdl: &Wdl) -> String {
    let mut s = format!(
        "Games {}/{}: {wdl}  score {:.1}%  Elo {}",
        wdl.games(),
        cfg.games,
        wdl.score().unwrap_or(0.5) * 100.0,
        fmt_elo(wdl.elo(), wdl),
    );
    if let Some(e) = wdl.elo_error95() {
        s.push_str(&format!(" ± {e:.1}"));
    }
    if let Some(sprt) = &cfg.sprt {
        let (a, b) = sprt.bounds();
        s.push_str(&format!("  LLR {:.2} [{a:.2}, {b:.2}]", sprt.llr(wdl)));
    }
    s
}

/// The score and Elo lines of a summary (also `cellmate score`'s), for `names[0]`.
pub fn score_lines(names: &[String; 2], w: &Wdl) -> String {
    let mut s = format!(
        "Score of {} vs {}: {} {} {}  [{:.3}]\n",
        names[0],
        names[1],
        w.wins,
        w.losses,
        w.draws,
        w.score().unwrap_or(0.5)
    );
    s.push_str(&format!("Elo difference: {}", fmt_elo(w.elo(), w)));
    match w.elo_error95() {
        Some(e) => s.push_str(&format!(" ± {e:.1} (95%)")),
        None => s.push_str(" (no finite error bar yet)"),
    }
    if let Some(los) = w.los() {
        s.push_str(&format!(", LOS {:.1}%", los * 100.0));
    }
    s.push('\n');
    s
}

/// An SPRT's line of a summary.
pub fn sprt_line(sprt: &Sprt, llr: f64, state: SprtState) -> String {
    let (a, b) = sprt.bounds();
    let verdict = match state {
        SprtState::AcceptH1 => "H1 accepted",
        SprtState::AcceptH0 => "H0 accepted",
        SprtState::Continue => "no decision",
    };
    format!(
        "SPRT: elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} [{a:.2}, {b:.2}], {verdict}\n",
        sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
    )
}

/// The end-of-match summary.
pub fn summary(cfg: &MatchConfig, r: &MatchReport) -> String {
    let w = &r.wdl;
    let mut s = format!(
        "{} vs {} ({}, {} games played)\n",
        r.names[0],
        r.names[1],
        cfg.variant.name(),
        w.games()
    );
    s.push_str(&score_lines(&r.names, w));
    if let (Some(sprt), Some((llr, state))) = (&cfg.sprt, r.sprt) {
        s.push_str(&sprt_line(sprt, llr, state));
    }
    let mut terms: Vec<(String, usize)> = Vec::new();
    for (_, g) in &r.games {
        let t = g.result.termination.pgn().to_string();
        match terms.iter_mut().find(|(k, _)| *k == t) {
            Some((_, n)) => *n += 1,
            None => terms.push((t, 1)),
        }
    }
    let terms: Vec<String> = terms.iter().map(|(t, n)| format!("{t} {n}")).collect();
    s.push_str(&format!("Terminations: {}\n", terms.join(", ")));
    let f = r.faults();
    s.push_str(&format!(
        "Stalls: {} (silence over {:.1} s while thinking; longest {:.3} s)\n",
        f.stalls,
        cfg.stall_gap.as_secs_f64(),
        r.longest_silence().as_secs_f64()
    ));
    if let Some(ms) = r.least_left_ms() {
        s.push_str(&format!(
            "Closest call: {ms} ms left (clock plus the {} ms margin) after a move in time\n",
            cfg.time_margin.as_millis()
        ));
    }
    for e in &r.exits {
        s.push_str(&format!("Abnormal exit: {e}\n"));
    }
    s.push_str(&format!("Faults: {f}\n"));
    s
}

enum Msg {
    Game(usize, Box<GameRecord>),
    /// An engine process found to have exited abnormally when it was closed.
    Exit(String),
    Fatal(String),
}

/// Closes a player; an abnormal exit of one that was healthy (no game has yet counted it) is
/// reported.
fn close_player(p: &mut Box<dyn Player>, tx: &std::sync::mpsc::Sender<Msg>) {
    let healthy = p.healthy();
    if let Some(why) = p.close() {
        if healthy {
            let _ = tx.send(Msg::Exit(why));
        }
    }
}

/// One worker; its players are closed when it ends.
fn worker(
    cfg: &MatchConfig,
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: std::sync::mpsc::Sender<Msg>,
) {
    let mut players: [Option<Box<dyn Player>>; 2] = [None, None];
    play_games(cfg, next, stop, &tx, &mut players);
    for p in players.iter_mut().flatten() {
        close_player(p, &tx);
    }
}

/// Games for one worker: its own pair of players, restarted after a crash or time-out.
fn play_games(
    cfg: &MatchConfig,
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: &std::sync::mpsc::Sender<Msg>,
    players: &mut [Option<Box<dyn Player>>; 2],
) {
    loop {
        if stop.load(Ordering::Relaxed) {
            return;
        }
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= cfg.games {
            return;
        }
        for (i, p) in players.iter_mut().enumerate() {
            if let Some(q) = p.as_mut().filter(|q| !q.healthy()) {
                close_player(q, tx);
                *p = None;
            }
            if p.is_none() {
                match player::start(&cfg.engines[i]) {
                    Ok(x) => *p = Some(x),
                    Err(e) => {
                        let _ = tx.send(Msg::Fatal(format!(
                            "engine {} ({}): {e}",
                            i + 1,
                            cfg.engines[i].default_name()
                        )));
                        return;
                    }
                }
            }
        }
        let [a, b] = players;
        let (a, b) = (a.as_deref_mut().unwrap(), b.as_deref_mut().unwrap());
        let (white, black, limits) = if index.is_multiple_of(2) {
            (a, b, [cfg.limit_of(0), cfg.limit_of(1)])
        } else {
            (b, a, [cfg.limit_of(1), cfg.limit_of(0)])
        };
        let settings = GameSettings {
            variant: cfg.variant,
            limits,
            time_margin: cfg.time_margin,
            stall_timeout: cfg.stall_timeout,
            stall_gap: cfg.stall_gap,
            max_plies: cfg.max_plies,
            draw_rule: cfg.draw_rule,
            resign_rule: cfg.resign_rule,
            seed: mix(&[cfg.seed, index as u64]),
        };
        match play_game(white, black, &cfg.opening(index), &settings) {
            Ok(g) => {
                if tx.send(Msg::Game(index, Box::new(g))).is_err() {
                    return;
                }
            }
            Err(e) => {
                let _ = tx.send(Msg::Fatal(e));
                return;
            }
        }
    }
}

/// Plays the match. `Err` when an engine cannot be started or cannot play the variant, or the
/// PGN file cannot be written.
pub fn run(cfg: &MatchConfig) -> Result<MatchReport, String> {
    if cfg.games == 0 {
        return Err("no games to play".into());
    }
    let mut pgn = match &cfg.pgn {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| format!("cannot open {}: {e}", p.display()))?,
        ),
        None => None,
    };
    let event = format!(
        "{} vs {}",
        cfg.engines[0].default_name(),
        cfg.engines[1].default_name()
    );
    let date = pgn::today();
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut report = MatchReport {
        names: [cfg.engines[0].default_name(), cfg.engines[1].default_name()],
        wdl: Wdl::default(),
        games: Vec::new(),
        sprt: None,
        exits: Vec::new(),
    };
    let mut fatal = None;
    let tty = std::io::stderr().is_terminal();
    thread::scope(|s| {
        let (tx, rx) = channel();
        for _ in 0..cfg.concurrency.clamp(1, cfg.games) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            s.spawn(move || worker(cfg, next, stop, tx));
        }
        drop(tx);
        for msg in rx {
            match msg {
                Msg::Game(index, g) => {
                    if report.games.is_empty() {
                        let first_white = index.is_multiple_of(2);
                        report.names = if first_white {
                            [g.names[0].clone(), g.names[1].clone()]
                        } else {
                            [g.names[1].clone(), g.names[0].clone()]
                        };
                    }
                    report.wdl.add(first_engine_points(index, &g));
                    if let Some(f) = pgn.as_mut() {
                        let text = pgn::write_game(&g, &event, &date, index + 1);
                        if let Err(e) = f.write_all(text.as_bytes()) {
                            fatal.get_or_insert(format!("cannot write the PGN: {e}"));
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    log::info!(
                        "game {} ({} vs {}): {} {{{}}}",
                        index + 1,
                        g.names[0],
                        g.names[1],
                        g.result.score(),
                        g.result.reason
                    );
                    report.games.push((index, *g));
                    if let Some(sprt) = &cfg.sprt {
                        let (llr, state) = sprt.update(report.sprt, &report.wdl);
                        report.sprt = Some((llr, state));
                        if state != SprtState::Continue {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    if cfg.progress {
                        let line = progress_line(cfg, &report.wdl);
                        if tty {
                            eprint!("\r{line}\x1b[K");
                        } else {
                            eprintln!("{line}");
                        }
                    }
                }
                Msg::Exit(why) => {
                    log::warn!("abnormal exit: {why}");
                    report.exits.push(why);
                }
                Msg::Fatal(e) => {
                    fatal.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    if cfg.progress && tty {
        eprintln!();
    }
    if let Some(e) = fatal {
        return Err(e);
    }
    report.games.sort_by_key(|(i, _)| *i);
    if let Some(path) = &cfg.stall_report {
        let mut text = report.stall_lines().join("\n");
        if !text.is_empty() {
            text.push('\n');
        }
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Games that can differ: two per opening at a node or depth limit without random plies;
    /// no bound with random plies, when either engine plays by the clock, or against the
    /// random mover.
    #[test]
    fn distinct_games_by_limit_openings_and_random_plies() {
        let spec = |s: &str| EngineSpec::parse(s).unwrap();
        let mut cfg = MatchConfig::new([spec("cmd=y"), spec("cmd=x")], VariantKind::Chess);
        cfg.games = 4000;
        cfg.limit = Limit::Nodes(25_000);
        cfg.openings = vec!["8/8/8/8/8/8/8/K6k w - - 0 1".to_string(); 200];
        assert_eq!(cfg.distinct_games(), Some(400));
        assert!(cfg.repeat_warning().unwrap().starts_with(
            "warning: 4000 games from 200 openings at a fixed node or depth limit: \
             deterministic engines repeat the first 400 games"
        ));
        cfg.games = 400;
        assert_eq!(cfg.repeat_warning(), None);
        cfg.openings.clear();
        cfg.limit = Limit::Depth(3);
        assert_eq!(cfg.distinct_games(), Some(2));
        cfg.random_plies = 2;
        assert_eq!(cfg.distinct_games(), None);
        cfg.random_plies = 0;
        cfg.limit = Limit::parse_tc("10+0.1").unwrap();
        assert_eq!(cfg.distinct_games(), None);
        // One engine by the clock: its games vary.
        cfg.limit = Limit::Nodes(1000);
        cfg.engines[1] = spec("cmd=x,tc=10+0.1");
        assert_eq!(cfg.distinct_games(), None);
        // The random mover: its moves depend on the game's number.
        cfg.engines[1] = spec("builtin=random");
        assert_eq!(cfg.distinct_games(), None);
        cfg.engines[1] = spec("cmd=x");
        assert_eq!(cfg.distinct_games(), Some(2));
    }
}
