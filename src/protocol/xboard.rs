//! XBoard / CECP v2.
//!
//! Each line is first read into an [`XbCommand`] by [`xbcommand::parse`] (pure text work;
//! bad arguments are its `ParseError`s), then `Xboard::handle` acts on the command.
//!
//! Error lines (each one line; the state is unchanged; the type in parentheses is one of the
//! fixed words below, never with parentheses inside, as python-chess reads it; the command is
//! quoted at most 100 characters long with control characters escaped):
//! - `Error (unknown command): LINE`
//! - `Error (bad FEN): setboard FEN (REASON)`
//! - `Error (unsupported variant): variant NAME`
//! - `Error (bad argument): LINE (EXPECTED)` for `level`, `st`, `sd`, `time`, `otim`, `lift`,
//!   `put`, `hover`;
//! - `Error (bad option): LINE (REASON)` for `memory`, `cores`, `option` out of range, unreadable
//!   or unknown;
//! - `Error (no move to take back): undo` (or `remove`);
//! - `Illegal move: MOVE` for a move not legal in the position and
//!   `Illegal move (not a move): MOVE` for a text that is no move at all.
//!
//! A word that is no command but a legal move is played as if sent with `usermove` (protocol
//! version 1, console use). Game ends are claimed after every move, the engine's or the
//! user's (not while analysing): `1-0 {White mates}`, `1/2-1/2 {Stalemate}`, … .
//!
//! Non-standard debugging commands: `d` prints the board with all its state and `fen` the
//! FEN, `xbfen` the position in XBoard's view (`# board FEN`, mirrored for Immune) and, where
//! one is kept, the shadow of XBoard's board (`# shadow PLACEMENT`), every line prefixed by
//! `# ` (XBoard ignores such lines); `help` lists the commands.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use tokio::sync::mpsc::UnboundedSender;

use super::format;
use super::options::{self, Effect, Settings};
use super::searcher::{Finished, InfoSink, Searcher};
use super::xbcommand::{self, Mouse, XbCommand};
use super::{engine_name, Flow, Output};
use crate::core::{Color, Dialect, Move, MoveError, Square};
use crate::engine::Limits;
use crate::game::Game;
use crate::variants::{AnyPos, VariantKind};
use crate::xbwire;
use crate::xbwire::shadow::Shadow;

/// Time control as XBoard set it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Moves per session (0: the whole game).
    pub mps: u32,
    pub base_ms: u64,
    pub inc_ms: u64,
    /// `st`: exact time per move.
    pub st_ms: Option<u64>,
    /// `sd`: depth limit.
    pub sd: Option<u32>,
    /// `time`: the engine's clock.
    pub time_ms: Option<u64>,
    /// `otim`: the opponent's clock.
    pub otim_ms: Option<u64>,
}

impl Default for Clock {
    /// XBoard's default: 40 moves in 5 minutes.
    fn default() -> Self {
        Clock {
            mps: 40,
            base_ms: 5 * 60_000,
            inc_ms: 0,
            st_ms: None,
            sd: None,
            time_ms: None,
            otim_ms: None,
        }
    }
}

/// `time`/`otim` centiseconds as milliseconds (a negative clock as 0).
fn centiseconds_ms(cs: i64) -> u64 {
    (cs.max(0) as u64).saturating_mul(10)
}

impl Clock {
    /// Limits for a search of the engine's move (`side` to move, `game` for moves-to-go).
    fn limits(&self, game: &Game, side: Color, move_overhead: u64) -> Limits {
        let mut l = Limits {
            depth: self.sd,
            move_overhead,
            ..Limits::default()
        };
        if let Some(st) = self.st_ms {
            l.movetime = Some(st);
        } else {
            l.time_left = Some(self.time_ms.unwrap_or(self.base_ms));
            l.increment = self.inc_ms;
            if self.mps > 0 {
                let made = (game.moves_by(side) % self.mps as usize) as u32;
                l.moves_to_go = Some(self.mps - made);
            }
        }
        l
    }
}

/// What the running (or held) search is for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Task {
    /// The engine's own move.
    Think,
    /// Pondering on the predicted reply (the search's root is the game after it).
    Ponder { predicted: Move },
    /// Analysis (`analyze` mode).
    Analyze,
}

/// An XBoard session.
pub struct Xboard {
    out: Output,
    game: Game,
    settings: Settings,
    searcher: Searcher,
    clock: Clock,
    /// `xboard` or `protover` was received.
    handshake: bool,
    force: bool,
    /// The side the engine plays when not in force mode.
    engine_side: Color,
    post: Arc<AtomicBool>,
    /// `hard`: ponder after the engine's moves.
    ponder: bool,
    analyze: bool,
    /// A result was claimed or received: no searching until the game changes.
    game_over: bool,
    task: Option<Task>,
    /// A ponder search that ended by itself before the opponent moved.
    held: Option<Finished>,
    /// `ping` numbers received while thinking on our move: CECP says the `pong` must follow
    /// the move (or the end of thinking, after `force`/`result`/`new`).
    pongs: Vec<String>,
    /// XBoard's own board, for the variants it cannot show exactly (`xbwire::shadow`), and its
    /// state before each move of the game (for `undo`).
    shadow: Option<Shadow>,
    shadows: Vec<Option<Shadow>>,
    /// The piece a person has lifted in XBoard (`lift`), for `highlight` and `choice`.
    lifted: Option<xbwire::Lifted>,
    /// The square of the last `put`.
    put: Option<Square>,
}

impl Xboard {
    pub fn new(out: Output, done_tx: UnboundedSender<u64>) -> Xboard {
        Xboard::with_settings(out, done_tx, Settings::default())
    }

    /// A session starting from `settings` (the command line's) instead of the defaults.
    pub fn with_settings(out: Output, done_tx: UnboundedSender<u64>, settings: Settings) -> Xboard {
        Xboard {
            searcher: Searcher::new(&settings, out.clone(), done_tx),
            game: Game::new(settings.variant),
            settings,
            out,
            clock: Clock::default(),
            handshake: false,
            force: false,
            engine_side: Color::Black,
            post: Arc::new(AtomicBool::new(false)),
            ponder: false,
            analyze: false,
            game_over: false,
            task: None,
            held: None,
            pongs: Vec::new(),
            shadow: None,
            shadows: Vec::new(),
            lifted: None,
            put: None,
        }
    }

    /// Whether `xboard` or `protover` has been received.
    pub fn handshake_seen(&self) -> bool {
        self.handshake
    }

    /// `Error (KIND): COMMAND` or `Error (KIND): COMMAND (DETAIL)`: KIND is one of a few fixed
    /// words without parentheses (python-chess reads the type as `\([^()]+\)`), the command is
    /// quoted short and escaped (`format::quote`).
    fn error(&self, kind: &str, detail: Option<&str>, line: &str) {
        debug_assert!(!kind.contains(['(', ')']), "{kind}");
        let quoted = format::quote(line);
        self.out.line(&match detail {
            Some(d) => format!("Error ({kind}): {quoted} ({})", format::quote(d)),
            None => format!("Error ({kind}): {quoted}"),
        });
    }

    /// Starts a search; a hash size refused now (set during the last search) is said first,
    /// as `memory` would have said it.
    fn begin(&mut self, root: AnyPos, limits: Limits, pondering: bool) {
        if let Some(e) = self.searcher.prepare(&self.settings) {
            self.out.line(&format!("Error (bad option): memory ({e})"));
        }
        let sink = self.sink();
        self.searcher
            .start(root, limits, pondering, sink, &self.settings);
    }

    fn sink(&self) -> InfoSink {
        InfoSink::Xboard {
            post: Arc::clone(&self.post),
            rank_offset: self.settings.rank_offset,
        }
    }

    pub fn handle(&mut self, line: &str) -> Flow {
        let line = line.trim();
        let cmd = match xbcommand::parse(line) {
            Ok(cmd) => cmd,
            Err(e) => {
                self.error(e.kind(), e.detail(), line);
                return Flow::Continue;
            }
        };
        match cmd {
            XbCommand::Xboard => self.handshake = true,
            XbCommand::Protover => {
                self.handshake = true;
                self.features();
            }
            XbCommand::Ignored(_) => {}
            XbCommand::New => self.new_game(),
            XbCommand::Variant(kind) => {
                self.settings.variant = kind;
                self.start_variant();
                self.send_setup();
            }
            XbCommand::Force => {
                if self.task != Some(Task::Analyze) {
                    self.discard();
                }
                self.force = true;
            }
            XbCommand::Go => {
                if self.analyze {
                    return Flow::Continue;
                }
                self.force = false;
                self.engine_side = self.game.side_to_move();
                if self.task == Some(Task::Think) {
                    return Flow::Continue;
                }
                self.discard();
                // A `go` on a game the rules have ended is answered with the result claim, even
                // if it was claimed before: the GUI waits for an answer.
                if !self.claim_if_over() {
                    self.maybe_think();
                }
            }
            XbCommand::Playother => {
                if self.task == Some(Task::Think) {
                    self.discard();
                }
                self.force = false;
                self.engine_side = !self.game.side_to_move();
            }
            XbCommand::White => self.engine_side = xbwire::xb_color(self.game.kind(), Color::Black),
            XbCommand::Black => self.engine_side = xbwire::xb_color(self.game.kind(), Color::White),
            XbCommand::Level {
                mps,
                base_ms,
                inc_ms,
            } => {
                self.clock.mps = mps;
                self.clock.base_ms = base_ms;
                self.clock.inc_ms = inc_ms;
                self.clock.st_ms = None;
                self.clock.time_ms = None;
                self.clock.otim_ms = None;
            }
            XbCommand::St(ms) => self.clock.st_ms = Some(ms),
            XbCommand::Sd(d) => self.clock.sd = Some(d),
            XbCommand::Time(cs) => self.clock.time_ms = Some(centiseconds_ms(cs)),
            XbCommand::Otim(cs) => self.clock.otim_ms = Some(centiseconds_ms(cs)),
            XbCommand::Usermove(text) => self.user_move(&text),
            XbCommand::Mouse(action, square) => self.mouse(action, &square, line),
            XbCommand::MoveNow => {
                if self.task == Some(Task::Think) {
                    self.searcher.stop();
                }
            }
            XbCommand::Ping(n) => {
                if self.task == Some(Task::Think) {
                    self.pongs.push(n);
                } else {
                    self.out.line(format!("pong {n}").trim_end());
                }
            }
            XbCommand::Result(_) => {
                self.discard();
                self.game_over = true;
            }
            XbCommand::Setboard(fen) if self.is_pass_relay(&fen) => self.user_move("@@@@"),
            XbCommand::Setboard(fen) => match Game::from_fen(
                self.game.kind(),
                &xbwire::fen_from_xboard(self.game.kind(), &fen),
            ) {
                Ok(g) => {
                    self.discard();
                    self.game = g;
                    self.game_over = false;
                    self.reset_shadow();
                    self.after_reset();
                }
                Err(e) => self.error("bad FEN", Some(&e.to_string()), line),
            },
            XbCommand::Hint => {
                if let Some(Task::Ponder { predicted }) = self.task {
                    let text = xbwire::move_text(self.game.pos(), predicted, self.dialect());
                    self.out.line(&format!("Hint: {text}"));
                }
            }
            XbCommand::Undo => self.take_back(1, line),
            XbCommand::Remove => self.take_back(2, line),
            XbCommand::Hard => self.ponder = true,
            XbCommand::Easy => {
                self.ponder = false;
                if matches!(self.task, Some(Task::Ponder { .. })) {
                    self.discard();
                }
            }
            XbCommand::Post => self.post.store(true, Ordering::Relaxed),
            XbCommand::Nopost => self.post.store(false, Ordering::Relaxed),
            XbCommand::Analyze => {
                self.analyze = true;
                self.start_analysis();
            }
            XbCommand::Exit => {
                if self.analyze {
                    self.analyze = false;
                    self.discard();
                }
            }
            XbCommand::Stat => {
                if self.analyze {
                    if let Some((ms, p)) = self.searcher.progress() {
                        let total = self.game.pos().legal_moves().len();
                        self.out.line(&format!(
                            "stat01: {} {} {} 0 {total}",
                            ms / 10,
                            p.nodes,
                            p.depth
                        ));
                    }
                }
            }
            XbCommand::Memory(mb) => self.set_option(options::HASH.name, mb.as_deref(), line),
            XbCommand::Cores(n) => self.set_option(options::THREADS.name, n.as_deref(), line),
            XbCommand::Option { name, value } => self.set_option(&name, value.as_deref(), line),
            XbCommand::Quit => {
                self.shutdown();
                return Flow::Quit;
            }
            XbCommand::Display => self.comment(&self.game.display()),
            XbCommand::Fen => self.comment(&self.game.fen()),
            XbCommand::Xbfen => {
                let mut text = format!("board {}", xbwire::xboard_fen(self.game.pos()));
                if let Some(s) = &self.shadow {
                    text.push_str(&format!("\nshadow {}", s.placement()));
                }
                self.comment(&text);
            }
            XbCommand::Help => self.comment(HELP),
            XbCommand::Bare(text) => {
                match xbwire::parse_move(self.game.pos(), &text, self.dialect()) {
                    Ok(_) | Err(MoveError::Illegal(_)) => self.user_move(&text),
                    Err(MoveError::Syntax(_)) => self.error("unknown command", None, line),
                }
            }
        }
        Flow::Continue
    }

    /// The move dialect XBoard uses for the current position.
    fn dialect(&self) -> Dialect {
        xbwire::dialect(self.game.pos(), self.settings.rank_offset)
    }

    /// Starts the shadow of XBoard's board afresh from the current position.
    fn reset_shadow(&mut self) {
        self.shadow = xbwire::shadow(self.game.pos(), self.dialect());
        self.shadows.clear();
        self.lifted = None;
        self.put = None;
    }

    /// A person moving a piece with the mouse (`feature highlight=1`): `lift SQ` is answered
    /// with `highlight COLORFEN` marking every target (after a `put` on a cyan square, `lift`
    /// of that square marks the second leg's targets); `put SQ` on a square marked blue is
    /// answered with `choice X`; `hover` needs no answer (no victim stands elsewhere than on a
    /// red square). See `xbwire` for the markers.
    fn mouse(&mut self, action: Mouse, square: &str, line: &str) {
        let d = self.dialect();
        let Some(sq) = xbwire::xb_square(self.game.pos(), square, d) else {
            return self.error("bad argument", Some("expected a square"), line);
        };
        match action {
            Mouse::Lift => {
                let second = match (self.lifted, self.put) {
                    (Some(l), Some(p)) if l.via.is_none() && p == sq => {
                        let moves = xbwire::all_clicks(self.game.pos(), d);
                        xbwire::is_first_leg(&moves, l.from, sq)
                    }
                    _ => false,
                };
                let lifted = match self.lifted {
                    Some(l) if second => xbwire::Lifted {
                        from: l.from,
                        via: Some(sq),
                    },
                    _ => xbwire::Lifted {
                        from: sq,
                        via: None,
                    },
                };
                self.lifted = Some(lifted);
                self.put = None;
                let h = xbwire::highlight(self.game.pos(), d, self.shadow.as_ref(), lifted);
                self.out.line(&h);
            }
            Mouse::Put => {
                self.put = Some(sq);
                if let Some(l) = self.lifted {
                    if let Some(c) = xbwire::choice(self.game.pos(), d, l, sq) {
                        self.out.line(&format!("choice {c}"));
                    }
                }
            }
            Mouse::Hover => {}
        }
    }

    /// Plays a legal move on the game and, as `text` (the spelling XBoard applied), on the
    /// shadow of XBoard's board.
    fn play(&mut self, m: Move, text: &str) -> bool {
        let before = self.shadow.clone();
        if !self.game.make(m) {
            return false;
        }
        if let Some(s) = self.shadow.as_mut() {
            s.apply(text);
        }
        self.shadows.push(before);
        self.lifted = None;
        self.put = None;
        true
    }

    /// Tells XBoard the board, pieces and start position of an engine-defined variant.
    fn send_setup(&self) {
        if let Some(lines) = xbwire::setup_lines(self.game.pos()) {
            self.out.line(&lines.join("\n"));
        }
    }

    /// Prints text as `# ` comment lines.
    fn comment(&self, text: &str) {
        let lines: Vec<String> = text.lines().map(|l| format!("# {l}")).collect();
        self.out.line(&lines.join("\n"));
    }

    fn features(&self) {
        let mut text = format!(
            "feature ping=1 setboard=1 usermove=1 time=1 draw=1 sigint=0 sigterm=0 reuse=1 \
             analyze=1 colors=0 name=1 nps=0 memory=1 smp=1 exclude=0 pause=0 highlight=1 \
             myname=\"{}\" variants=\"{}\"",
            engine_name(),
            options::variant_list(VariantKind::xboard_name, ",")
        );
        for o in Settings::xboard_options() {
            text.push('\n');
            text.push_str(&o);
        }
        text.push_str("\nfeature done=1");
        self.out.line(&text);
    }

    fn set_option(&mut self, name: &str, value: Option<&str>, line: &str) {
        match self.settings.set(name, value) {
            Ok(Effect::None) => {
                if let Err(e) = self.searcher.apply_settings(&mut self.settings) {
                    self.error("bad option", Some(&e), line);
                }
                // `Rank Offset` after `variant` (XBoard's Engine Settings dialog): the shadow
                // reads XBoard's move texts with the new rank numbering too.
                let base = self.dialect().rank_base;
                for s in self
                    .shadows
                    .iter_mut()
                    .flatten()
                    .chain(self.shadow.as_mut())
                {
                    s.set_base(base);
                }
            }
            Ok(Effect::ClearHash) => self.searcher.clear_hash(),
            Ok(Effect::Variant) => self.start_variant(),
            Err(e) => self.error("bad option", Some(&e.to_string()), line),
        }
    }

    fn new_game(&mut self) {
        self.discard();
        self.settings.variant = VariantKind::Chess;
        self.game = Game::new(VariantKind::Chess);
        self.force = false;
        self.engine_side = Color::Black;
        self.game_over = false;
        self.clock.sd = None;
        self.clock.st_ms = None;
        self.clock.time_ms = None;
        self.clock.otim_ms = None;
        self.searcher.clear_hash();
        self.reset_shadow();
        self.after_reset();
    }

    /// The start position of `settings.variant`. The engine keeps the side it plays as XBoard
    /// sees it: after `new` it plays XBoard's Black, which in Immune Chess (shown mirrored,
    /// the Invaders as XBoard's White, moving first) is the rules' White. So in XBoard's
    /// default mode a person plays XBoard's White in every variant and the engine answers.
    fn start_variant(&mut self) {
        self.discard();
        let xb_side = xbwire::xb_color(self.game.kind(), self.engine_side);
        self.game = Game::new(self.settings.variant);
        self.engine_side = xbwire::xb_color(self.game.kind(), xb_side);
        self.game_over = false;
        self.reset_shadow();
        self.after_reset();
    }

    /// After the game was replaced: analysis restarts on the new position.
    fn after_reset(&mut self) {
        if self.analyze {
            self.start_analysis();
        }
    }

    fn take_back(&mut self, plies: usize, line: &str) {
        if self.game.history().len() < plies {
            return self.error("no move to take back", None, line);
        }
        self.discard();
        self.lifted = None;
        self.put = None;
        for _ in 0..plies {
            self.game.undo();
            if let Some(s) = self.shadows.pop() {
                self.shadow = s;
            }
        }
        self.game_over = false;
        self.after_reset();
    }

    /// Stops any search and forgets it.
    fn discard(&mut self) {
        self.searcher.stop_and_join();
        self.held = None;
        self.task = None;
        self.flush_pongs();
    }

    fn flush_pongs(&mut self) {
        for n in std::mem::take(&mut self.pongs) {
            self.out.line(format!("pong {n}").trim_end());
        }
    }

    /// Claims the result if the game has ended; `true` if it has.
    fn claim_if_over(&mut self) -> bool {
        match self.game.outcome() {
            Some(o) => {
                self.game_over = true;
                if !self.analyze {
                    self.out.line(&xbwire::claim(self.game.kind(), &o));
                }
                true
            }
            None => false,
        }
    }

    /// Starts thinking if it is the engine's move.
    fn maybe_think(&mut self) {
        if self.force
            || self.analyze
            || self.game_over
            || self.searcher.is_running()
            || self.game.side_to_move() != self.engine_side
        {
            return;
        }
        if self.claim_if_over() {
            return;
        }
        let mut limits =
            self.clock
                .limits(&self.game, self.engine_side, self.settings.move_overhead);
        let safe = xbwire::safe_moves(self.game.pos(), self.dialect(), self.shadow.as_ref());
        if safe.len() < self.game.pos().legal_moves().len() {
            limits.searchmoves = safe;
        }
        self.task = Some(Task::Think);
        self.begin(self.game.pos().clone(), limits, false);
    }

    fn start_analysis(&mut self) {
        self.discard();
        self.game_over = self.game.outcome().is_some();
        if self.game_over {
            return;
        }
        let limits = Limits {
            infinite: true,
            move_overhead: self.settings.move_overhead,
            ..Limits::default()
        };
        self.task = Some(Task::Analyze);
        self.begin(self.game.pos().clone(), limits, false);
    }

    fn start_ponder(&mut self, predicted: Move) {
        let mut root = self.game.pos().clone();
        if !root.is_legal(predicted) {
            return;
        }
        let mut shadow = self.shadow.clone();
        if let Some(s) = shadow.as_mut() {
            s.apply(&xbwire::move_text(&root, predicted, self.dialect()));
        }
        root.make_move(predicted);
        if root.outcome().is_some() {
            return;
        }
        let mut limits =
            self.clock
                .limits(&self.game, self.engine_side, self.settings.move_overhead);
        if let Some(m) = limits.moves_to_go.as_mut() {
            // The search will be for the engine's next move.
            *m = if *m <= 1 {
                self.clock.mps.max(1)
            } else {
                *m - 1
            };
        }
        let d = xbwire::dialect(&root, self.settings.rank_offset);
        let safe = xbwire::safe_moves(&root, d, shadow.as_ref());
        if safe.len() < root.legal_moves().len() {
            limits.searchmoves = safe;
        }
        self.task = Some(Task::Ponder { predicted });
        self.begin(root, limits, true);
    }

    /// XBoard relays a person's pass (a click on the clock) as a bare `setboard` of the
    /// position after it, not as `usermove @@@@`, when its variant is not one it knows to
    /// have passes (seen in Edit Game mode after Paste Position; docs/xboard.md). A
    /// `setboard` whose placement and side equal the position after a legal pass is read as
    /// that pass, so the game keeps its history and hidden state (IR-5).
    fn is_pass_relay(&self, fen: &str) -> bool {
        let pos = self.game.pos();
        let Ok(pass) = xbwire::parse_move(pos, "@@@@", self.dialect()) else {
            return false;
        };
        let mut after = pos.clone();
        after.make_move(pass);
        let want = xbwire::xboard_fen(&after);
        let head = |f: &str| f.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
        head(&want) == head(fen)
    }

    fn user_move(&mut self, text: &str) {
        let m = match xbwire::parse_move(self.game.pos(), text, self.dialect()) {
            Ok(m) => m,
            Err(MoveError::Illegal(_)) => {
                return self
                    .out
                    .line(&format!("Illegal move: {}", format::quote(text)))
            }
            Err(MoveError::Syntax(_)) => {
                return self.out.line(&format!(
                    "Illegal move (not a move): {}",
                    format::quote(text)
                ))
            }
        };
        // XBoard applied the move to its board as sent to it (a garbled relay is ours).
        let applied = xbwire::applied_text(self.game.pos(), m, text, self.dialect());
        if self.analyze {
            self.play(m, &applied);
            return self.start_analysis();
        }
        match self.task {
            Some(Task::Ponder { predicted }) if predicted == m => {
                self.play(m, &applied);
                if self.claim_if_over() {
                    return self.discard();
                }
                self.task = Some(Task::Think);
                if let Some(c) = self.searcher.control() {
                    // The ponder search's limits hold the clock from before the engine's last
                    // move: budget from the clock XBoard has just sent (`time`) instead.
                    let limits = self.clock.limits(
                        &self.game,
                        self.engine_side,
                        self.settings.move_overhead,
                    );
                    log::debug!("ponder hit: {limits:?}");
                    c.ponderhit_with(&limits);
                } else if let Some(f) = self.held.take() {
                    self.task = None;
                    self.play_engine_move(f);
                }
                return;
            }
            Some(_) => self.discard(),
            None => {}
        }
        self.play(m, &applied);
        if self.claim_if_over() {
            return;
        }
        self.maybe_think();
    }

    pub fn search_done(&mut self, id: u64) {
        let Some(f) = self.searcher.take_done(id) else {
            return;
        };
        match self.task {
            Some(Task::Think) => {
                self.task = None;
                self.play_engine_move(f);
                self.flush_pongs();
            }
            Some(Task::Ponder { .. }) => {
                // Ended by itself before the opponent moved: keep it for a ponder hit.
                self.held = Some(f);
            }
            Some(Task::Analyze) | None => self.task = None,
        }
    }

    fn play_engine_move(&mut self, f: Finished) {
        if self.force || self.analyze || self.game_over {
            return;
        }
        if f.root.fen() != self.game.fen() {
            log::warn!("search result for another position dropped");
            return self.maybe_think();
        }
        let Some(best) = f.result.best else {
            self.claim_if_over();
            return;
        };
        let text = xbwire::move_text(self.game.pos(), best, self.dialect());
        if !self.play(best, &text) {
            log::error!("engine move {text} refused by the game");
            return;
        }
        self.out.line(&format!("move {text}"));
        if self.claim_if_over() {
            return;
        }
        if self.ponder {
            if let Some(p) = f.result.ponder {
                self.start_ponder(p);
            }
        }
    }

    pub fn search_running(&self) -> bool {
        self.searcher.is_running()
    }

    pub fn shutdown(&mut self) {
        self.discard();
    }
}

const HELP: &str = "\
commands: new, variant NAME, setboard FEN, usermove MOVE (or just MOVE), go, force, playother,
  undo, remove, level MPS BASE INC, st SECONDS, sd DEPTH, time CS, otim CS, post, nopost,
  analyze, exit, ., ?, hint, hard, easy, memory MB, cores N, option NAME=VALUE, ping N, quit
debugging: d (board and state), fen, xbfen (the position as XBoard is shown it, and the shadow
  of XBoard's board where one is kept)";

#[cfg(test)]
mod tests {
    use super::*;

    /// Found by tests/it/fuzz.rs: `time`/`otim` with a huge centisecond count overflowed the
    /// conversion to milliseconds (a panic).
    #[test]
    fn huge_clock_values_are_taken() {
        let capture = crate::protocol::Capture::default();
        let (done_tx, _done_rx) = tokio::sync::mpsc::unbounded_channel();
        let mut xb = Xboard::new(Output::new(Box::new(capture.clone())), done_tx);
        xb.handle("xboard");
        xb.handle("time 9223372036854775807");
        xb.handle("otim 1844674407370955161");
        assert_eq!(xb.clock.time_ms, Some(u64::MAX));
        assert_eq!(xb.clock.otim_ms, Some(18_446_744_073_709_551_610));
        xb.handle("ping 1");
        assert_eq!(capture.take_lines(), ["pong 1"]);
    }

    #[test]
    fn clock_limits() {
        let game = Game::new(VariantKind::Chess);
        let mut c = Clock::default();
        let l = c.limits(&game, Color::White, 30);
        assert_eq!(l.time_left, Some(300_000));
        assert_eq!(l.moves_to_go, Some(40));
        assert_eq!(l.move_overhead, 30);
        c.time_ms = Some(1234);
        c.mps = 0;
        c.inc_ms = 100;
        c.sd = Some(4);
        let l = c.limits(&game, Color::White, 0);
        assert_eq!(
            (l.time_left, l.increment, l.moves_to_go, l.depth),
            (Some(1234), 100, None, Some(4))
        );
        c.st_ms = Some(2000);
        let l = c.limits(&game, Color::White, 0);
        assert_eq!((l.movetime, l.time_left), (Some(2000), None));
    }
}
