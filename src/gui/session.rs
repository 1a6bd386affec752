//! One browser connection's game: the messages of the page's socket and their replies.
//!
//! Every connection owns a [`Session`] (its own position, history, engine and search), so a
//! second tab cannot touch the first one's game. Messages are JSON objects with a `type`;
//! replies are JSON objects too (see `docs/gui.md` for the list). A message that is not JSON,
//! has an unknown type, a missing field or an illegal move gets one `{"type":"error"}` reply
//! and changes nothing.
//!
//! Legality is the rules' own: the state reply lists every legal move with its squares, kind
//! and text, and a `move` message must carry one of those texts.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::pool::{Job, Pool};
use crate::core::{Badge, Color, Dialect, Move, MoveKind, PieceView, PositionView, Variant};
use crate::engine::{Control, Info, Limits, Score, SearchResult};
use crate::variants::{with_pos, AnyPos, VariantKind};

/// Hash table size of the pool of a session made by [`Session::new`], in MB.
const HASH_MB: usize = 16;

/// What the engine plays and how hard it thinks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// Which sides the engine plays: `[white, black]` (both: the engine plays itself).
    pub sides: [bool; 2],
    pub depth: Option<u32>,
    pub movetime: Option<u64>,
    pub nodes: Option<u64>,
}

impl Default for EngineSettings {
    fn default() -> Self {
        EngineSettings {
            sides: [false, true],
            depth: None,
            movetime: Some(1000),
            nodes: None,
        }
    }
}

impl EngineSettings {
    fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            movetime: self.movetime,
            nodes: self.nodes,
            ..Limits::default()
        }
    }
}

enum Event {
    Info(u64, Info),
    Done(u64, SearchResult),
}

struct Running {
    id: u64,
    /// The number of moves played when the search started (its result is played only if the
    /// game is still there).
    ply: usize,
    root: AnyPos,
    control: Arc<Control>,
}

/// One connection's game and engine.
pub struct Session {
    start: AnyPos,
    /// The start FEN when it is not the variant's own start.
    start_fen: Option<String>,
    pos: AnyPos,
    moves: Vec<Move>,
    pub settings: EngineSettings,
    pool: Arc<Pool>,
    running: Option<Running>,
    next_id: u64,
    /// Counts the games this session has had (a new game, an import, a stored game resumed).
    games: u64,
    events_tx: Sender<Event>,
    events_rx: Receiver<Event>,
    /// The last progress report, kept for the state reply.
    last_info: Option<Value>,
    /// The running search's place in the pool's queue last told the page (`None`: searching).
    told_place: Option<usize>,
}

fn error(message: impl Into<String>) -> Value {
    json!({"type": "error", "message": message.into()})
}

/// The reply to a binary WebSocket message (the page sends text only).
pub fn binary_refused() -> Value {
    json!({"type": "error", "message": "binary messages are not understood", "reply": true})
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn kind_name(k: MoveKind) -> &'static str {
    match k {
        MoveKind::Normal => "normal",
        MoveKind::PawnPush => "pawn-push",
        MoveKind::EnPassant => "en-passant",
        MoveKind::Castle => "castle",
        MoveKind::Promotion => "promotion",
        MoveKind::Drop => "drop",
        MoveKind::Pass => "pass",
        MoveKind::Shot => "shot",
        MoveKind::Bond => "bond",
        MoveKind::Expand => "expand",
        MoveKind::Contract => "contract",
        MoveKind::Kill => "kill",
        MoveKind::Infect => "infect",
        MoveKind::Hatch => "hatch",
        MoveKind::Ride => "ride",
    }
}

fn piece_json(p: &PieceView) -> Value {
    json!({"letter": p.letter.to_string(), "color": color_name(p.color), "name": p.name})
}

/// A badge: `kind`, a short `label` drawn on the square and a `text` in words.
fn badge_json(b: &Badge) -> Value {
    let with = |letters: &str| {
        if letters.is_empty() {
            String::new()
        } else {
            format!("+{letters}")
        }
    };
    match b {
        Badge::Infected {
            carrier,
            carrier_powers,
            wait,
        } => json!({
            "kind": "infected",
            "label": wait.to_string(),
            "carrier": piece_json(carrier),
            "wait": wait,
            "text": format!(
                "infected by {} {}{}: hatch {}",
                color_name(carrier.color),
                carrier.name,
                with(carrier_powers),
                if *wait == 0 { "due now".to_string() } else { format!("after {wait} more turn(s) of its owner") }
            ),
        }),
        Badge::Rider { rider, powers } => json!({
            "kind": "rider",
            "label": format!("{}{}", rider.letter, with(powers)),
            "rider": piece_json(rider),
            "text": format!("ridden by {} {}{}", color_name(rider.color), rider.name, with(powers)),
        }),
        Badge::Wall => json!({"kind": "wall", "label": "▦", "text": "wall member"}),
        Badge::Expanded { partner } => json!({
            "kind": "expanded",
            "label": "⇔",
            "partner": partner,
            "text": format!("expanded: its other cell is {partner}"),
        }),
        Badge::Powers { letters } => json!({
            "kind": "powers",
            "label": letters,
            "text": format!("absorbed the powers of {letters}"),
        }),
        Badge::Captures { count, limit } => json!({
            "kind": "captures",
            "label": format!("{count}/{limit}"),
            "count": count,
            "limit": limit,
            "text": format!("{count} of {limit} captures"),
        }),
        Badge::Mega { state } => json!({
            "kind": "mega",
            "label": state.chars().next().unwrap_or('?').to_string(),
            "state": state,
            "text": format!("mega-knight, {state}"),
        }),
    }
}

/// The position's structured view as JSON.
pub fn view_json(v: &PositionView) -> Value {
    json!({
        "width": v.width,
        "height": v.height,
        "side_to_move": color_name(v.side_to_move),
        "squares": v.squares.iter().map(|s| json!({
            "square": s.square,
            "file": s.file,
            "rank": s.rank,
            "piece": piece_json(&s.piece),
            "badges": s.badges.iter().map(badge_json).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "held": v.held.iter().map(|h| json!({"piece": piece_json(&h.piece), "note": h.note})).collect::<Vec<_>>(),
        "boards": v.boards.iter().map(|b| json!({
            "name": b.name,
            "first_file": b.first_file,
            "last_file": b.last_file,
            "side_to_move": color_name(b.side_to_move),
            "result": b.result,
            "active": b.active,
            "note": b.note,
        })).collect::<Vec<_>>(),
        "notes": v.notes,
    })
}

/// A square of `pos` as `{file, rank, name}`.
fn square_json<V: Variant>(p: &V, sq: crate::core::Square) -> Value {
    let g = p.geometry();
    let w = g.width as usize;
    json!({
        "file": sq.index() % w,
        "rank": sq.index() / w,
        "name": g.name(sq, crate::core::RankBase::ONE),
    })
}

/// Every legal move: squares (none for a pass), kind, coordinate text, and for Immune Chess the
/// inventor's notation.
pub(crate) fn legal_json(pos: &AnyPos) -> Vec<Value> {
    with_pos!(pos, |p| {
        let mut list = crate::core::MoveList::new();
        p.legal_moves(&mut list);
        list.iter()
            .map(|&m| {
                let (from, to) = if m.kind() == MoveKind::Pass {
                    (Value::Null, Value::Null)
                } else {
                    (square_json(p, m.from()), square_json(p, m.to()))
                };
                json!({
                    "from": from,
                    "to": to,
                    "kind": kind_name(m.kind()),
                    "text": p.move_text(m, Dialect::UCI),
                    "seed": pos.own_text(m),
                })
            })
            .collect()
    })
}

fn score_text(score: Score, stm: Color) -> String {
    let sign = if stm == Color::White { 1 } else { -1 };
    match score {
        Score::Cp(cp) => format!("{:+.2}", (sign * cp) as f64 / 100.0),
        Score::Mate(n) => format!("#{}", sign * n),
    }
}

fn pv_texts(root: &AnyPos, pv: &[Move]) -> Vec<String> {
    let mut pos = root.clone();
    let mut out = Vec::new();
    for &m in pv {
        if !pos.is_legal(m) {
            break;
        }
        out.push(pos.move_text(m, Dialect::UCI));
        pos.make_move(m);
    }
    out
}

fn field<'a>(msg: &'a Value, name: &str) -> Result<&'a Value, String> {
    msg.get(name)
        .ok_or_else(|| format!("missing field {name:?}"))
}

fn str_field<'a>(msg: &'a Value, name: &str) -> Result<&'a str, String> {
    field(msg, name)?
        .as_str()
        .ok_or_else(|| format!("field {name:?} must be a string"))
}

/// An optional string field (`null` or absent: none); any other type is refused.
fn opt_str<'a>(msg: &'a Value, name: &str) -> Result<Option<&'a str>, String> {
    match msg.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_str()
            .map(Some)
            .ok_or_else(|| format!("field {name:?} must be a string")),
    }
}

/// An optional positive number field (`null` or absent: none).
fn opt_u64(msg: &Value, name: &str) -> Result<Option<u64>, String> {
    match msg.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if n > 0 => Ok(Some(n)),
            _ => Err(format!("field {name:?} must be a positive whole number")),
        },
    }
}

impl Session {
    /// A session with a search pool of its own: one worker, a 16 MB table (tests; the server
    /// gives every connection the one pool of [`Session::with_pool`]).
    pub fn new() -> Session {
        let pool = Pool::new(1, HASH_MB).unwrap_or_else(|e| panic!("{e}"));
        Session::with_pool(Arc::new(pool))
    }

    /// A session whose searches run on `pool`, shared with other sessions.
    pub fn with_pool(pool: Arc<Pool>) -> Session {
        let (events_tx, events_rx) = channel();
        let start = VariantKind::Chess.startpos();
        Session {
            pos: start.clone(),
            start,
            start_fen: None,
            moves: Vec::new(),
            settings: EngineSettings::default(),
            pool,
            running: None,
            next_id: 1,
            games: 0,
            events_tx,
            events_rx,
            last_info: None,
            told_place: None,
        }
    }

    pub fn pos(&self) -> &AnyPos {
        &self.pos
    }
    /// The position the game started from.
    pub fn start(&self) -> &AnyPos {
        &self.start
    }
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    /// Which game this is: it changes when a game replaces the one there was (`new`, `import`,
    /// [`Self::resume`]), not when moves are played or taken back.
    pub fn game_number(&self) -> u64 {
        self.games
    }
    pub fn is_thinking(&self) -> bool {
        self.running.is_some()
    }

    /// Replaces the game by a stored one: `start`, its legal `moves` and the engine's settings
    /// as the state reply gives them (`{"white":..,"black":..,"depth":..}`). The engine starts
    /// thinking if it is to move (a game stored in the middle of a search).
    pub fn resume(
        &mut self,
        start: AnyPos,
        moves: Vec<Move>,
        engine: &Value,
    ) -> Result<(), String> {
        self.cmd_engine(engine)?;
        self.set_game(start, moves);
        self.maybe_start_engine();
        Ok(())
    }

    /// The engine's settings, in the form `engine` messages take.
    pub fn engine_json(&self) -> Value {
        json!({
            "white": self.settings.sides[0],
            "black": self.settings.sides[1],
            "depth": self.settings.depth,
            "movetime": self.settings.movetime,
            "nodes": self.settings.nodes,
        })
    }

    /// The game's moves in UCI coordinates.
    pub fn move_texts(&self) -> Vec<String> {
        crate::notation::write(
            &self.start,
            &self.moves,
            crate::notation::Notation::Coords(Dialect::UCI),
        )
    }

    /// Handles one message from the page; returns its one reply (a `state`, `display` or
    /// `error`), marked `"reply": true` so the page can tell replies from the engine's own
    /// reports (`info`, `bestmove`, and the `state` after an engine move, from [`Self::poll`]).
    pub fn handle(&mut self, text: &str) -> Vec<Value> {
        let mut out = self.handle_inner(text);
        for v in &mut out {
            v["reply"] = Value::Bool(true);
        }
        out
    }

    fn handle_inner(&mut self, text: &str) -> Vec<Value> {
        let msg: Value = match serde_json::from_str(text) {
            Ok(v) => v,
            Err(e) => return vec![error(format!("malformed message: {e}"))],
        };
        if !msg.is_object() {
            return vec![error("malformed message: not a JSON object")];
        }
        let kind = match msg.get("type").and_then(Value::as_str) {
            Some(k) => k.to_string(),
            None => return vec![error("malformed message: no \"type\"")],
        };
        let res = match kind.as_str() {
            "state" => Ok(()),
            "new" => self.cmd_new(&msg),
            "move" => self.cmd_move(&msg),
            "undo" => self.cmd_undo(),
            "engine" => self.cmd_engine(&msg),
            "go" => self.cmd_go(),
            "stop" => {
                if let Some(r) = &self.running {
                    if !self.pool.hurry(&r.control) {
                        r.control.stop();
                    }
                }
                Ok(())
            }
            "import" => self.cmd_import(&msg),
            "guide" => return vec![self.cmd_guide(&msg).unwrap_or_else(error)],
            "display" => {
                return vec![json!({"type": "display", "text": self.pos.display()})];
            }
            other => Err(format!("unknown message type {other:?}")),
        };
        match res {
            Ok(()) => {
                self.maybe_start_engine();
                vec![self.state()]
            }
            Err(e) => vec![error(e)],
        }
    }

    fn cmd_new(&mut self, msg: &Value) -> Result<(), String> {
        let name = str_field(msg, "variant")?;
        let kind =
            VariantKind::from_name(name).ok_or_else(|| format!("unknown variant {name:?}"))?;
        let start = match opt_str(msg, "fen")?.map(str::trim) {
            Some(f) if !f.is_empty() => kind
                .from_fen(f)
                .map_err(|e| format!("invalid {} FEN: {e}", kind.name()))?,
            _ => kind.startpos(),
        };
        self.set_game(start, Vec::new());
        Ok(())
    }

    /// Replaces the game (stopping any search).
    fn set_game(&mut self, start: AnyPos, moves: Vec<Move>) {
        self.stop_search();
        self.games += 1;
        let fen = start.fen();
        self.start_fen = (fen != start.kind().startpos().fen()).then_some(fen);
        let mut pos = start.clone();
        for &m in &moves {
            pos.make_move(m);
        }
        self.start = start;
        self.pos = pos;
        self.moves = moves;
        self.last_info = None;
    }

    fn cmd_move(&mut self, msg: &Value) -> Result<(), String> {
        let text = str_field(msg, "move")?;
        if self.running.is_some() {
            return Err("the engine is thinking (send stop first)".into());
        }
        if let Some(o) = self.pos.outcome() {
            return Err(format!("the game is over ({}: {})", o.score(), o.reason()));
        }
        let m = self
            .pos
            .parse_move(text.trim(), Dialect::UCI)
            .map_err(|e| format!("{e} in {}", self.pos.fen()))?;
        self.play(m);
        Ok(())
    }

    fn play(&mut self, m: Move) {
        self.pos.make_move(m);
        self.moves.push(m);
    }

    /// Takes back the last move, and more until a human is to move: against the engine one
    /// take-back returns to the player's last turn. In watch mode (the engine plays both
    /// sides) it takes back one move and stops watching.
    fn cmd_undo(&mut self) -> Result<(), String> {
        if self.moves.is_empty() {
            return Err("no move to take back".into());
        }
        self.stop_search();
        self.last_info = None;
        if self.settings.sides == [true, true] {
            self.settings.sides = [false, false];
        }
        loop {
            self.moves.pop();
            self.pos.unmake_move();
            let engine_to_move = self.settings.sides[self.pos.side_to_move().index()];
            if !engine_to_move || self.moves.is_empty() {
                break;
            }
        }
        // At the start with the engine to move it would answer at once: wait for `go`.
        if self.settings.sides[self.pos.side_to_move().index()] {
            self.settings.sides[self.pos.side_to_move().index()] = false;
        }
        Ok(())
    }

    fn cmd_engine(&mut self, msg: &Value) -> Result<(), String> {
        let mut s = self.settings.clone();
        for (i, side) in ["white", "black"].iter().enumerate() {
            if let Some(v) = msg.get(*side) {
                s.sides[i] = v
                    .as_bool()
                    .ok_or_else(|| format!("field {side:?} must be true or false"))?;
            }
        }
        let depth = opt_u64(msg, "depth")?;
        let movetime = opt_u64(msg, "movetime")?;
        let nodes = opt_u64(msg, "nodes")?;
        if depth.is_some() || movetime.is_some() || nodes.is_some() {
            if depth.is_some_and(|d| d > 64) {
                return Err("depth must be at most 64".into());
            }
            s.depth = depth.map(|d| d as u32);
            s.movetime = movetime;
            s.nodes = nodes;
        }
        self.settings = s;
        Ok(())
    }

    fn cmd_go(&mut self) -> Result<(), String> {
        if self.running.is_some() {
            return Err("the engine is already thinking".into());
        }
        if let Some(o) = self.pos.outcome() {
            return Err(format!("the game is over ({}: {})", o.score(), o.reason()));
        }
        if self.pos.legal_moves().is_empty() {
            return Err("no legal move".into());
        }
        self.start_search();
        Ok(())
    }

    /// `text`: a FEN, or a game (PGN or a move list in coordinates, or the inventor's notation
    /// for Immune Chess; a `Variant` tag chooses the variant, a `FEN` tag the start). Without a
    /// `Variant` tag the variant is found: `variant` (the page's menu) or else the current one
    /// is tried first, then every other; the first whose rules read the text wins. When none
    /// does, the error is one sentence saying what the first one expected.
    fn cmd_import(&mut self, msg: &Value) -> Result<(), String> {
        let text = str_field(msg, "text")?;
        let named = match opt_str(msg, "variant")? {
            Some(n) => {
                Some(VariantKind::from_name(n).ok_or_else(|| format!("unknown variant {n:?}"))?)
            }
            None => None,
        };
        let kind = named.unwrap_or(self.pos.kind());
        let order: Vec<VariantKind> = std::iter::once(kind)
            .chain(VariantKind::ALL.iter().copied().filter(|&k| k != kind))
            .collect();
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err("nothing to import".into());
        }
        let one_line = !trimmed.contains('\n') && !trimmed.starts_with('[');
        if one_line {
            if let Some(p) = order.iter().find_map(|k| k.from_fen(trimmed).ok()) {
                self.set_game(p, Vec::new());
                return Ok(());
            }
        }
        let fen_error = |e: String| {
            format!(
                "This is not a FEN of any variant: read as {}, {e} (its start is {}).",
                kind.name(),
                kind.startpos().fen()
            )
        };
        let game = crate::notation::split(text).map_err(|e| e.to_string());
        // One line with a '/' that no variant reads is a FEN gone wrong, not a move list.
        let looks_like_fen = one_line
            && trimmed
                .split_whitespace()
                .next()
                .is_some_and(|w| w.contains('/'));
        if looks_like_fen
            || game
                .as_ref()
                .is_ok_and(|g| g.moves.is_empty() && g.tag("FEN").is_none())
        {
            let e = kind.from_fen(trimmed).err().map(|e| e.to_string());
            return Err(fen_error(e.unwrap_or_else(|| "it reads no moves".into())));
        }
        let game = game?;
        let kinds = match game.tag("Variant") {
            Some(v) => {
                vec![VariantKind::from_name(v).ok_or_else(|| format!("unknown variant {v:?}"))?]
            }
            None => order,
        };
        let mut first_error = None;
        for &k in &kinds {
            let read = crate::notation::start_position(k, game.tag("FEN"))
                .map_err(|e| e.to_string())
                .and_then(|start| {
                    crate::notation::read(&start, &game.moves, Dialect::UCI)
                        .map(|moves| (start, moves))
                        .map_err(|e| e.to_string())
                });
            match read {
                Ok((start, moves)) => {
                    self.set_game(start, moves);
                    return Ok(());
                }
                Err(e) => {
                    first_error.get_or_insert((k, e));
                }
            }
        }
        let (k, e) = first_error.expect("at least one variant tried");
        Err(format!(
            "This game is not one of {}{}: {e}.",
            k.name(),
            if kinds.len() > 1 {
                " nor of any other variant (a [Variant \"...\"] tag names one)"
            } else {
                ""
            }
        ))
    }

    /// `{"type":"guide","variant":V,"letter":L}`: the piece guide (`guide.rs`); the variant
    /// defaults to the game's.
    fn cmd_guide(&self, msg: &Value) -> Result<Value, String> {
        let kind = match opt_str(msg, "variant")? {
            Some(n) => VariantKind::from_name(n).ok_or_else(|| format!("unknown variant {n:?}"))?,
            None => self.pos.kind(),
        };
        super::guide::guide(kind, opt_str(msg, "letter")?)
    }

    /// The game as PGN (moves in coordinates; the result by the rules, else `*`).
    pub fn pgn(&self) -> String {
        let texts = self.move_texts();
        let result = self.pos.outcome().map(|o| o.score()).unwrap_or("*");
        crate::pgn::write(
            self.pos.kind().name(),
            &[],
            self.start_fen.as_deref(),
            &texts,
            result,
        )
    }

    /// The whole state the page draws.
    pub fn state(&self) -> Value {
        let coords = self.move_texts();
        let seed = self.pos.kind().has_own_notation().then(|| {
            crate::notation::write(&self.start, &self.moves, crate::notation::Notation::Seed)
        });
        let history: Vec<Value> = coords
            .iter()
            .enumerate()
            .zip(self.movers())
            .map(|((i, t), side)| {
                json!({"text": t, "seed": seed.as_ref().map(|s| s[i].clone()), "side": side})
            })
            .collect();
        let view = with_pos!(&self.pos, |p| p.describe());
        let outcome = self
            .pos
            .outcome()
            .map(|o| json!({"result": o.score(), "reason": o.reason()}));
        json!({
            "type": "state",
            "variant": self.pos.kind().name(),
            "variants": VariantKind::ALL.iter().map(|k| k.name()).collect::<Vec<_>>(),
            "fen": self.pos.fen(),
            "start_fen": self.start.fen(),
            "view": view_json(&view),
            "legal": legal_json(&self.pos),
            "history": history,
            "first_side": color_name(self.pos.kind().startpos().side_to_move()),
            "display": self.pos.display(),
            "outcome": outcome,
            "pgn": self.pgn(),
            "thinking": self.running.is_some(),
            "engine": self.engine_json(),
            "info": self.last_info,
            "images": super::piece_images(self.pos.kind().name())
                .into_iter()
                .map(|(l, url)| (l.to_string(), Value::String(url)))
                .collect::<serde_json::Map<String, Value>>(),
        })
    }

    /// Who made each move of the game (`white` / `black`), for the page's numbered move list.
    fn movers(&self) -> Vec<&'static str> {
        let mut pos = self.start.clone();
        self.moves
            .iter()
            .map(|&m| {
                let side = color_name(pos.side_to_move());
                pos.make_move(m);
                side
            })
            .collect()
    }

    /// Starts a search when the engine plays the side to move and the game goes on.
    fn maybe_start_engine(&mut self) {
        if self.running.is_none()
            && self.settings.sides[self.pos.side_to_move().index()]
            && self.pos.outcome().is_none()
            && !self.pos.legal_moves().is_empty()
        {
            self.start_search();
        }
    }

    fn start_search(&mut self) {
        let id = self.next_id;
        self.next_id += 1;
        let control = Arc::new(Control::new(false));
        let root = self.pos.clone();
        let info_tx = self.events_tx.clone();
        let done_tx = self.events_tx.clone();
        self.pool.submit(Job {
            pos: root.clone(),
            limits: self.settings.limits(),
            control: Arc::clone(&control),
            report: Box::new(move |info: &Info| {
                let _ = info_tx.send(Event::Info(id, info.clone()));
            }),
            done: Box::new(move |result| {
                let _ = done_tx.send(Event::Done(id, result));
            }),
        });
        self.last_info = None;
        self.running = Some(Running {
            id,
            ply: self.moves.len(),
            root,
            control,
        });
    }

    /// Stops the running search; its result will be dropped.
    fn stop_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.control.stop();
        }
    }

    /// Collects what the engine reported since the last call: progress (`info`) and, when a
    /// search ended, its move played and the new state.
    pub fn poll(&mut self) -> Vec<Value> {
        let mut out = Vec::new();
        // Searches wait their turn when every worker is busy: the page is told its place, and
        // when its search starts (`place` null).
        let place = (self.running.as_ref()).and_then(|r| self.pool.place(&r.control));
        if place != self.told_place {
            self.told_place = place;
            out.push(json!({"type": "queue", "place": place, "waiting": self.pool.waiting()}));
        }
        while let Ok(ev) = self.events_rx.try_recv() {
            match ev {
                Event::Info(id, info) => {
                    let Some(r) = self.running.as_ref().filter(|r| r.id == id) else {
                        continue;
                    };
                    let v = json!({
                        "type": "info",
                        "depth": info.depth,
                        "score": score_text(info.score, r.root.side_to_move()),
                        "nodes": info.nodes,
                        "nps": info.nps,
                        "time_ms": info.time_ms,
                        "pv": pv_texts(&r.root, &info.pv),
                    });
                    self.last_info = Some(v.clone());
                    out.push(v);
                }
                Event::Done(id, result) => {
                    let Some(r) = self.running.take_if(|r| r.id == id) else {
                        continue;
                    };
                    if r.ply != self.moves.len() {
                        continue;
                    }
                    let best = result
                        .best
                        .filter(|&m| self.pos.is_legal(m))
                        .or_else(|| self.pos.legal_moves().first().copied());
                    if let Some(m) = best {
                        out.push(json!({
                            "type": "bestmove",
                            "move": self.pos.move_text(m, Dialect::UCI),
                            "score": score_text(result.score, self.pos.side_to_move()),
                            "depth": result.depth,
                            "nodes": result.nodes,
                        }));
                        self.play(m);
                    }
                    self.maybe_start_engine();
                    out.push(self.state());
                }
            }
        }
        out
    }

    /// Waits (polling) until no search runs or `timeout` passes; returns everything polled.
    pub fn wait_idle(&mut self, timeout: Duration) -> Vec<Value> {
        let until = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            out.extend(self.poll());
            if self.running.is_none() || Instant::now() > until {
                return out;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop_search();
    }
}
