//! UCI.
//!
//! Parsing: `setoption` is read by `vampirc-uci` (falling back to our own reader if it does
//! not recognise the line). `position` is read by our own tokenizer, which handles every
//! variant (16-rank squares, drops `V@g5`, passes `0000`, two-leg moves `e2e7,e7e2`, FENs of any
//! board); for chess, `vampirc-uci` reads it too and the two readings are compared (a
//! disagreement is logged and ours is used). `go` is always read by our own tokenizer:
//! `vampirc-uci` 0.11 loses `ponder` when clock fields follow it, panics on `depth` or
//! `movestogo` above 255, and has no `go perft`.
//!
//! Errors are single `info string …` lines and leave the state unchanged:
//! `info string Unknown command: LINE`, `info string Invalid position command: REASON`,
//! `info string Invalid FEN: FEN (REASON)`, `info string Illegal move: MOVE` (or
//! `… MOVE (not a move)` when unreadable), `info string Unknown option: NAME`,
//! `info string Invalid option value: REASON`, `info string Invalid go parameters: REASONS`.
//! A `go` with bad parameters still searches with the parameters that were good: a GUI waits
//! for its `bestmove`.
//!
//! A `go` on a game the rules have ended is answered `info string game over SCORE {REASON}`
//! (`1-0 {White mates}`, `1/2-1/2 {Draw by the 100-ply rule}`, …) and `bestmove (none)` (after
//! `stop` for `go infinite`/`go ponder`), never `bestmove 0000`, which is a move: a Recursion
//! pass (IR-5).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::sync::mpsc::UnboundedSender;

use super::format::quote;
use super::options::{Effect, OptionError, Settings};
use super::searcher::{Finished, InfoSink, Searcher};
use super::{engine_name, Flow, Output};
use crate::core::{Color, Dialect, MoveError, Outcome, MAX_PERFT_DEPTH};
use crate::engine::{spawn_search, Limits};
use crate::game::Game;
use crate::variants::VariantKind;

/// `position` read into its parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCmd {
    /// `None`: the variant's start position.
    pub fen: Option<String>,
    pub moves: Vec<String>,
}

/// Reads `position startpos|fen FEN [moves M…]` with our own tokenizer.
pub fn parse_position_own(line: &str) -> Result<PositionCmd, String> {
    let mut toks = line.split_whitespace();
    toks.next(); // "position"
    let what = toks
        .next()
        .ok_or_else(|| "expected 'startpos' or 'fen'".to_string())?;
    let rest: Vec<&str> = toks.collect();
    let (fen, after) = match what.to_ascii_lowercase().as_str() {
        "startpos" => (None, &rest[..]),
        "fen" => {
            let end = rest
                .iter()
                .position(|t| t.eq_ignore_ascii_case("moves"))
                .unwrap_or(rest.len());
            if end == 0 {
                return Err("empty FEN".into());
            }
            (Some(rest[..end].join(" ")), &rest[end..])
        }
        other => return Err(format!("expected 'startpos' or 'fen', got {other:?}")),
    };
    let moves = match after.split_first() {
        None => Vec::new(),
        Some((kw, tail)) if kw.eq_ignore_ascii_case("moves") => {
            tail.iter().map(|t| t.to_string()).collect()
        }
        Some((t, _)) => return Err(format!("unexpected {t:?} (expected 'moves')")),
    };
    Ok(PositionCmd { fen, moves })
}

/// Reads `position` with `vampirc-uci` (8x8 chess only); `None` if it does not recognise it.
pub fn parse_position_vampirc(line: &str) -> Option<PositionCmd> {
    let msg = std::panic::catch_unwind(|| vampirc_uci::parse_one(line)).ok()?;
    match msg {
        vampirc_uci::UciMessage::Position {
            startpos,
            fen,
            moves,
        } => Some(PositionCmd {
            fen: if startpos {
                None
            } else {
                Some(
                    fen?.as_str()
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" "),
                )
            },
            moves: moves.iter().map(|m| m.to_string()).collect(),
        }),
        _ => None,
    }
}

/// Reads `position`: our tokenizer for every variant, cross-checked by `vampirc-uci` for
/// chess. `vampirc-uci` reads a prefix of a line it cannot fully parse (it would silently drop
/// `z9z9` from `moves e2e4 z9z9`), so its reading is only trusted when it equals ours.
pub fn parse_position(line: &str, kind: VariantKind) -> Result<PositionCmd, String> {
    let own = parse_position_own(line);
    if kind == VariantKind::Chess {
        match parse_position_vampirc(line) {
            Some(v) if own.as_ref() == Ok(&v) => return Ok(v),
            Some(v) => log::debug!("vampirc-uci read {v:?}, ours {own:?}: using ours"),
            None => log::debug!("vampirc-uci cannot read {line:?}: using our tokenizer"),
        }
    }
    own
}

/// `go` read into its parts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCmd {
    pub wtime: Option<i64>,
    pub btime: Option<i64>,
    pub winc: Option<i64>,
    pub binc: Option<i64>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<i64>,
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
    pub perft: Option<u32>,
}

const GO_WORDS: &[&str] = &[
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "movetime",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// Reads `go …`; returns what was understood and a note for each part that was not.
pub fn parse_go(line: &str) -> (GoCmd, Vec<String>) {
    let toks: Vec<&str> = line.split_whitespace().skip(1).collect();
    let mut go = GoCmd::default();
    let mut errors = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let key = toks[i].to_ascii_lowercase();
        i += 1;
        // The value after a keyword, if there is one that is not itself a keyword.
        let mut value = |errors: &mut Vec<String>| -> Option<String> {
            match toks.get(i) {
                Some(v) if !GO_WORDS.contains(&v.to_ascii_lowercase().as_str()) => {
                    i += 1;
                    Some(v.to_string())
                }
                _ => {
                    errors.push(format!("{key} needs a value"));
                    None
                }
            }
        };
        macro_rules! num {
            ($field:expr, $t:ty) => {
                if let Some(v) = value(&mut errors) {
                    match v.parse::<$t>() {
                        Ok(n) => $field = Some(n),
                        Err(_) => errors.push(format!("{key} {v}: not a number")),
                    }
                }
            };
        }
        match key.as_str() {
            "wtime" => num!(go.wtime, i64),
            "btime" => num!(go.btime, i64),
            "winc" => num!(go.winc, i64),
            "binc" => num!(go.binc, i64),
            "movetime" => num!(go.movetime, i64),
            "movestogo" => num!(go.movestogo, u32),
            "depth" => num!(go.depth, u32),
            "mate" => num!(go.mate, u32),
            "perft" => num!(go.perft, u32),
            "nodes" => num!(go.nodes, u64),
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                while let Some(t) = toks.get(i) {
                    if GO_WORDS.contains(&t.to_ascii_lowercase().as_str()) {
                        break;
                    }
                    go.searchmoves.push(t.to_string());
                    i += 1;
                }
            }
            _ => errors.push(format!("unknown parameter {:?}", toks[i - 1])),
        }
    }
    (go, errors)
}

/// Reads `setoption name N [value V]` with `vampirc-uci`, or by hand if it cannot.
pub fn parse_setoption(line: &str) -> Option<(String, Option<String>)> {
    if let Ok(vampirc_uci::UciMessage::SetOption { name, value }) =
        std::panic::catch_unwind(|| vampirc_uci::parse_one(line))
    {
        let value = value
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty());
        return Some((name.trim().to_string(), value));
    }
    let toks: Vec<&str> = line.split_whitespace().skip(1).collect();
    if !toks.first()?.eq_ignore_ascii_case("name") {
        return None;
    }
    let vpos = toks.iter().position(|t| t.eq_ignore_ascii_case("value"));
    let name_end = vpos.unwrap_or(toks.len());
    if name_end <= 1 {
        return None;
    }
    let name = toks[1..name_end].join(" ");
    let value = vpos
        .map(|p| toks[p + 1..].join(" "))
        .filter(|v| !v.is_empty());
    Some((name, value))
}

/// Flags of the running `go` that decide when its `bestmove` may be sent.
#[derive(Copy, Clone, Debug, Default)]
struct GoFlags {
    infinite: bool,
}

/// A UCI session.
pub struct Uci {
    out: Output,
    game: Game,
    settings: Settings,
    searcher: Searcher,
    go: GoFlags,
    /// A search that ended by itself during `go infinite` or `go ponder`: its `bestmove` waits
    /// for `stop` (or `ponderhit`).
    held: Option<Finished>,
    /// A running `go perft`: its stop flag and thread.
    perft: Option<(Arc<AtomicBool>, std::thread::JoinHandle<()>)>,
    /// A `go infinite` or `go ponder` on a game the rules have ended: its `bestmove (none)`
    /// waits for `stop` (or `ponderhit`), like a search's.
    ended_pending: bool,
    /// The last `position` command that set `game`: a following one that only appends moves
    /// to it (as GUIs send during a game) plays just the new moves instead of replaying the
    /// whole game before the clock's move (a 1,000-ply Microorganism game took 31 ms).
    last_position: Option<PositionCmd>,
}

impl Uci {
    pub fn new(out: Output, done_tx: UnboundedSender<u64>) -> Uci {
        Uci::with_settings(out, done_tx, Settings::default())
    }

    /// A session starting from `settings` (the command line's) instead of the defaults.
    pub fn with_settings(out: Output, done_tx: UnboundedSender<u64>, settings: Settings) -> Uci {
        Uci {
            searcher: Searcher::new(&settings, out.clone(), done_tx),
            game: Game::new(settings.variant),
            settings,
            out,
            go: GoFlags::default(),
            held: None,
            ended_pending: false,
            perft: None,
            last_position: None,
        }
    }

    fn info(&self, text: &str) {
        self.out.line(&format!("info string {text}"));
    }

    pub fn handle(&mut self, line: &str) -> Flow {
        let cmd = line
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        match cmd.as_str() {
            "uci" => {
                let mut text = format!(
                    "id name {}\nid author the cellmate developers",
                    engine_name()
                );
                for o in Settings::uci_options() {
                    text.push('\n');
                    text.push_str(&o);
                }
                text.push_str("\nuciok");
                self.out.line(&text);
            }
            "isready" => self.out.line("readyok"),
            "setoption" => self.setoption(line),
            "ucinewgame" => {
                self.finish_search();
                self.searcher.clear_hash();
                self.game = Game::new(self.settings.variant);
                self.last_position = None;
            }
            "position" => self.position(line),
            "go" => self.go(line),
            "stop" => {
                self.stop_perft();
                if self.searcher.is_running() {
                    self.searcher.stop();
                } else if let Some(f) = self.held.take() {
                    self.bestmove(f);
                } else {
                    self.flush_ended();
                }
            }
            "ponderhit" => {
                if let Some(c) = self.searcher.control() {
                    c.ponderhit();
                } else if !self.go.infinite {
                    if let Some(f) = self.held.take() {
                        self.bestmove(f);
                    }
                    self.flush_ended();
                }
            }
            "quit" => {
                self.shutdown();
                return Flow::Quit;
            }
            "d" => self.out.line(&self.game.display()),
            "debug" | "register" => {}
            _ => self.info(&format!("Unknown command: {}", quote(line))),
        }
        Flow::Continue
    }

    fn setoption(&mut self, line: &str) {
        let Some((name, value)) = parse_setoption(line) else {
            self.info(&format!("Invalid setoption command: {}", quote(line)));
            return;
        };
        match self.settings.set(&name, value.as_deref()) {
            // Hash and Threads take effect now (when idle): a new table is allocated before
            // `isready` is answered, not in the next `go`.
            Ok(Effect::None) => {
                // After `stop` the search is ending: its bestmove goes out now, and the option
                // takes effect (or is refused) at once instead of at the next `go`.
                if self.searcher.control().is_some_and(|c| c.stopped()) {
                    self.finish_search();
                }
                if let Err(e) = self.searcher.apply_settings(&mut self.settings) {
                    self.info(&format!("Invalid option value: {}", quote(&e)));
                }
            }
            Ok(Effect::ClearHash) => self.searcher.clear_hash(),
            Ok(Effect::Variant) => {
                self.game = Game::new(self.settings.variant);
                self.last_position = None;
            }
            Err(OptionError::Unknown(n)) => self.info(&format!("Unknown option: {}", quote(&n))),
            Err(e) => self.info(&format!("Invalid option value: {}", quote(&e.to_string()))),
        }
    }

    fn position(&mut self, line: &str) {
        let cmd = match parse_position(line, self.game.kind()) {
            Ok(c) => c,
            Err(e) => {
                return self.info(&format!(
                    "Invalid position command: {}",
                    quote(&e.to_string())
                ))
            }
        };
        let kind = self.settings.variant;
        if let Some(prev) = &self.last_position {
            let extends = prev.fen == cmd.fen
                && self.game.kind() == kind
                && cmd.moves.len() >= prev.moves.len()
                && cmd.moves[..prev.moves.len()] == prev.moves[..];
            if extends {
                // `play_all` is all or nothing: on a bad move the game stays as it was.
                let new = &cmd.moves[prev.moves.len()..];
                match self.game.play_all(new, Dialect::UCI) {
                    Ok(()) => self.last_position = Some(cmd),
                    Err(e) => self.move_error(e),
                }
                return;
            }
        }
        let mut game = match &cmd.fen {
            None => Game::new(kind),
            Some(fen) => match Game::from_fen(kind, fen) {
                Ok(g) => g,
                Err(e) => {
                    return self.info(&format!(
                        "Invalid FEN: {} ({})",
                        quote(fen),
                        quote(&e.to_string())
                    ))
                }
            },
        };
        match game.play_all(&cmd.moves, Dialect::UCI) {
            Ok(()) => {
                self.game = game;
                self.last_position = Some(cmd);
            }
            Err(e) => self.move_error(e),
        }
    }

    fn move_error(&self, e: MoveError) {
        match e {
            MoveError::Illegal(m) => self.info(&format!("Illegal move: {}", quote(&m))),
            MoveError::Syntax(m) => self.info(&format!("Illegal move: {} (not a move)", quote(&m))),
        }
    }

    /// Ends a running or held search, sending its `bestmove` (every `go` gets one).
    fn finish_search(&mut self) {
        self.stop_perft();
        if let Some(f) = self.searcher.stop_and_join() {
            self.bestmove(f);
        }
        if let Some(f) = self.held.take() {
            self.bestmove(f);
        }
        self.flush_ended();
    }

    /// The `bestmove (none)` of a `go infinite`/`go ponder` on an ended game, when it is due.
    fn flush_ended(&mut self) {
        if std::mem::take(&mut self.ended_pending) {
            self.out.line("bestmove (none)");
        }
    }

    /// The line naming a finished game's result and reason, before its `bestmove (none)`:
    /// `info string game over 1-0 {White mates}` (the score and reason as in PGN).
    fn game_over_line(o: &Outcome) -> String {
        format!("info string game over {} {{{}}}", o.score(), o.reason())
    }

    fn go(&mut self, line: &str) {
        self.finish_search();
        let (go, mut errors) = parse_go(line);
        if let Some(depth) = go.perft {
            if depth > MAX_PERFT_DEPTH {
                // A depth past the bound is refused outright: there is no bestmove to owe.
                self.info(&format!(
                    "Invalid go parameters: perft {depth} (at most {MAX_PERFT_DEPTH})"
                ));
                return;
            }
            if !errors.is_empty() {
                self.info(&format!(
                    "Invalid go parameters: {}",
                    quote(&errors.join("; "))
                ));
            }
            return self.perft(depth);
        }
        let mut searchmoves = Vec::new();
        for t in &go.searchmoves {
            match self.game.parse_move(t, Dialect::UCI) {
                Ok(m) => searchmoves.push(m),
                Err(_) => errors.push(format!("searchmoves {t}: not a legal move")),
            }
        }
        if !errors.is_empty() {
            self.info(&format!(
                "Invalid go parameters: {}",
                quote(&errors.join("; "))
            ));
        }
        // A game the rules have ended (mate, stalemate, repetition, the 100-ply rule, both
        // Recursion boards decided, an Immune ending) is not searched: its result, then
        // `bestmove (none)` — never `0000`, which is a move (a Recursion pass).
        if let Some(o) = self.game.outcome() {
            self.out.line(&Self::game_over_line(&o));
            self.go = GoFlags {
                infinite: go.infinite,
            };
            if go.infinite || go.ponder {
                self.ended_pending = true;
            } else {
                self.out.line("bestmove (none)");
            }
            return;
        }
        let (time, inc) = match self.game.side_to_move() {
            Color::White => (go.wtime, go.winc),
            Color::Black => (go.btime, go.binc),
        };
        let limits = Limits {
            depth: go.depth.or(go.mate.map(|m| m.saturating_mul(2))),
            nodes: go.nodes,
            movetime: go.movetime.map(|t| t.max(0) as u64),
            time_left: time.map(|t| t.max(0) as u64),
            increment: inc.unwrap_or(0).max(0) as u64,
            moves_to_go: go.movestogo.filter(|&n| n > 0),
            infinite: go.infinite,
            searchmoves,
            move_overhead: self.settings.move_overhead,
        };
        self.go = GoFlags {
            infinite: go.infinite,
        };
        if let Some(e) = self.searcher.prepare(&self.settings) {
            self.info(&format!("Invalid option value: {e}"));
        }
        self.searcher.start(
            self.game.pos().clone(),
            limits,
            go.ponder,
            InfoSink::Uci,
            &self.settings,
        );
    }

    /// `go perft N` on a thread of its own, like a search, so the command loop goes on:
    /// `isready` is answered at once and `stop` ends it. Each root move's count is written as
    /// soon as it is known (`e2e4: 20`), then `Nodes searched: TOTAL`; when stopped, the moves
    /// counted so far stand and `info string perft stopped` replaces the total.
    fn perft(&mut self, depth: u32) {
        let stop = Arc::new(AtomicBool::new(false));
        let (game, out, flag) = (self.game.clone(), self.out.clone(), Arc::clone(&stop));
        let spawned = spawn_search("perft", move || {
            let total = game.perft_divide_until(depth, Dialect::UCI, &flag, |m, n| {
                out.line(&format!("{m}: {n}"))
            });
            match total {
                Some(t) => out.line(&format!("\nNodes searched: {t}")),
                None => out.line("info string perft stopped"),
            }
        });
        match spawned {
            Ok(h) => self.perft = Some((stop, h)),
            Err(e) => self.info(&format!("cannot start perft: {e}")),
        }
    }

    /// Ends a running `go perft` (its partial count is written) and waits for its thread.
    fn stop_perft(&mut self) {
        if let Some((stop, h)) = self.perft.take() {
            stop.store(true, Ordering::Relaxed);
            let _ = h.join();
        }
    }

    pub fn search_done(&mut self, id: u64) {
        let Some(f) = self.searcher.take_done(id) else {
            return;
        };
        let waiting = !f.control.stopped() && (self.go.infinite || f.control.pondering());
        if waiting {
            // UCI: no bestmove before `stop` (or `ponderhit`) in these modes.
            self.held = Some(f);
        } else {
            self.bestmove(f);
        }
    }

    fn bestmove(&mut self, f: Finished) {
        let text = match f.result.best {
            None => {
                if let Some(o) = f.root.outcome() {
                    self.out.line(&Self::game_over_line(&o));
                }
                "bestmove (none)".to_string()
            }
            Some(best) => {
                let mut s = format!("bestmove {}", f.root.move_text(best, Dialect::UCI));
                if let Some(p) = f.result.ponder {
                    let mut after = f.root.clone();
                    after.make_move(best);
                    s.push_str(&format!(" ponder {}", after.move_text(p, Dialect::UCI)));
                }
                s
            }
        };
        self.out.line(&text);
    }

    /// `quit` or end of input: a running or held search is stopped and its `bestmove` sent.
    pub fn shutdown(&mut self) {
        self.finish_search();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_readers_agree_on_chess() {
        for line in [
            "position startpos",
            "position startpos moves e2e4 e7e5",
            "position fen rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 moves e7e5",
            "position   fen  8/8/8/8/8/8/6k1/4K2R w K - 12 40",
        ] {
            let own = parse_position_own(line).unwrap();
            assert_eq!(parse_position_vampirc(line), Some(own.clone()), "{line}");
            assert_eq!(parse_position(line, VariantKind::Chess), Ok(own));
        }
    }

    #[test]
    fn position_reader_keeps_what_vampirc_cannot_read() {
        // vampirc-uci reads only a prefix here: our reading keeps every move.
        let line = "position startpos moves e2e4 z9z9";
        let p = parse_position(line, VariantKind::Chess).unwrap();
        assert_eq!(p.moves, vec!["e2e4", "z9z9"]);
        // Passes, drops, 16-rank squares and two-leg moves pass through as text.
        let line = "position fen 16/16 w - - 0 1 moves 0000 V@g5 a15a16 e2e7,e7e2";
        let p = parse_position(line, VariantKind::Chess).unwrap();
        assert_eq!(p.fen.as_deref(), Some("16/16 w - - 0 1"));
        assert_eq!(p.moves, vec!["0000", "V@g5", "a15a16", "e2e7,e7e2"]);
        // A four-field FEN (vampirc-uci wants six).
        let p = parse_position(
            "position fen 8/8/8/8/8/8/6k1/4K2R w K -",
            VariantKind::Chess,
        )
        .unwrap();
        assert_eq!(p.fen.as_deref(), Some("8/8/8/8/8/8/6k1/4K2R w K -"));
        assert!(parse_position("position", VariantKind::Chess).is_err());
        assert!(parse_position("position fen", VariantKind::Chess).is_err());
        assert!(parse_position("position fen moves e2e4", VariantKind::Chess).is_err());
        assert!(parse_position("position startpos e2e4", VariantKind::Chess).is_err());
        assert!(parse_position("position foo", VariantKind::Chess).is_err());
    }

    #[test]
    fn go_reader() {
        let (g, e) = parse_go("go wtime 1000 btime -50 winc 10 binc 20 movestogo 300 ponder");
        assert!(e.is_empty());
        assert_eq!(g.wtime, Some(1000));
        assert_eq!(g.btime, Some(-50));
        assert_eq!(g.movestogo, Some(300));
        assert!(g.ponder);
        let (g, e) = parse_go("go depth 999 searchmoves e2e4 d2d4 infinite");
        assert!(e.is_empty());
        assert_eq!(g.depth, Some(999));
        assert_eq!(g.searchmoves, vec!["e2e4", "d2d4"]);
        assert!(g.infinite);
        let (g, e) = parse_go("go perft 3");
        assert_eq!((g.perft, e.len()), (Some(3), 0));
        let (g, e) = parse_go("go depth x nodes 5 frob");
        assert_eq!(g.depth, None);
        assert_eq!(g.nodes, Some(5));
        assert_eq!(e.len(), 2);
        let (_, e) = parse_go("go depth");
        assert_eq!(e, vec!["depth needs a value"]);
    }

    #[test]
    fn setoption_reader() {
        assert_eq!(
            parse_setoption("setoption name Move Overhead value 100"),
            Some(("Move Overhead".into(), Some("100".into())))
        );
        assert_eq!(
            parse_setoption("setoption name Clear Hash"),
            Some(("Clear Hash".into(), None))
        );
        assert_eq!(parse_setoption("setoption"), None);
        assert_eq!(parse_setoption("setoption value 3"), None);
    }
}
