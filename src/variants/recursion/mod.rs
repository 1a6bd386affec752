//! Infinite Recursion Chess (`recursion`): two chess boards played at once, each side's
//! kingside knight being the game on the other board.
//!
//! Board A (index 0) is White's board, files a–h of the 16×8 whole; board B (index 1) is
//! Black's board, files i–p (IR-1). White's mega-knight stands on board A and *is* the game on
//! board B; Black's stands on board B and *is* the game on board A (IR-2). Each board is an
//! international chess game (IR-3, [`Chess`]) whose mega-knight obeys its state (IR-4).
//! The plies of the protocols alternate White, Black as ever; which board a ply is played on
//! follows the steps of IR-5, with passes once a board is finished; state changes wait for the
//! end of the step (IR-6); the game ends when both boards have (IR-7).

#[cfg(test)]
mod tests;

use crate::core::fen::rank_cells;
use crate::core::zobrist::{self, DOMAIN_STATE};
use crate::core::{
    Color, Dialect, FenError, Geometry, Move, MoveError, MoveKind, MoveList, Outcome, PositionView,
    RankBase, Square, SubBoardView, Variant,
};
use crate::variants::chess::{Chess, MegaState, KNIGHT, LETTERS};

/// The whole board as XBoard shows it: 16 files, 8 ranks.
pub const GEOMETRY: Geometry = Geometry {
    width: 16,
    height: 8,
};

pub const START_FEN: &str = "rnbkqbnrrmbkqbnr/pppppppppppppppp/16/16/16/16/PPPPPPPPPPPPPPPP/RMBKQBNRRNBKQBNR w a w:KQkq:-:0:*:n b:KQkq:-:0:*:n 1";

/// How one board's game ended.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum SubResult {
    Win(Color),
    Draw,
}

impl SubResult {
    fn text(self) -> &'static str {
        match self {
            SubResult::Win(Color::White) => "1-0",
            SubResult::Win(Color::Black) => "0-1",
            SubResult::Draw => "1/2",
        }
    }
    fn parse(t: &str) -> Option<Option<SubResult>> {
        match t {
            "*" => Some(None),
            "1-0" => Some(Some(SubResult::Win(Color::White))),
            "0-1" => Some(Some(SubResult::Win(Color::Black))),
            "1/2" | "1/2-1/2" => Some(Some(SubResult::Draw)),
            _ => None,
        }
    }
}

/// The colour whose mega-knight stands on board `b`: White's on A, Black's on B (IR-2).
#[inline(always)]
pub fn mega_owner(b: usize) -> Color {
    if b == 0 {
        Color::White
    } else {
        Color::Black
    }
}

/// The state a mega-knight of `owner` takes when its game ended with `r` (IR-4).
pub fn state_for(owner: Color, r: SubResult) -> MegaState {
    match r {
        SubResult::Win(c) if c == owner => MegaState::Armed,
        SubResult::Win(_) => MegaState::Frozen,
        SubResult::Draw => MegaState::Disarmed,
    }
}

#[derive(Clone, Debug)]
struct Undo {
    /// The board the move was made on; `None` for a pass.
    board: Option<usize>,
    active: Option<usize>,
    results: [Option<SubResult>; 2],
    pending: bool,
    states: [MegaState; 2],
    fullmove: u32,
}

/// An Infinite Recursion Chess position.
#[derive(Clone, Debug)]
pub struct Recursion {
    boards: [Chess; 2],
    stm: Color,
    /// The board the side to move plays on; `None`: it must pass (or the game is over).
    active: Option<usize>,
    results: [Option<SubResult>; 2],
    /// White's move of this step ended a board: the knight-state change waits for Black's move
    /// (IR-6).
    pending: bool,
    fullmove: u32,
    history: Vec<Undo>,
}

#[inline(always)]
fn to_chess_sq(sq: Square) -> (usize, Square) {
    let file = sq.0 % 16;
    let rank = sq.0 / 16;
    ((file / 8) as usize, Square(rank * 8 + file % 8))
}

#[inline(always)]
fn from_chess_sq(board: usize, sq: Square) -> Square {
    Square((sq.0 / 8) * 16 + sq.0 % 8 + 8 * board as u8)
}

#[inline(always)]
fn to_chess_move(m: Move) -> (usize, Move) {
    let (b, from) = to_chess_sq(m.from());
    let (_, to) = to_chess_sq(m.to());
    let cm = match m.piece() {
        Some(p) => Move::with_piece(from, to, m.kind(), p),
        None => Move::new(from, to, m.kind()),
    };
    (b, cm)
}

#[inline(always)]
fn from_chess_move(board: usize, m: Move) -> Move {
    let from = from_chess_sq(board, m.from());
    let to = from_chess_sq(board, m.to());
    match m.piece() {
        Some(p) => Move::with_piece(from, to, m.kind(), p),
        None => Move::new(from, to, m.kind()),
    }
}

fn key(kind: u64, a: u64) -> u64 {
    zobrist::key(DOMAIN_STATE, 7000 + kind, a, 0)
}

impl Recursion {
    // ----- read interface (evaluation, display, protocols) -----

    /// Board 0 (A, White's board) or 1 (B, Black's board).
    pub fn board(&self, b: usize) -> &Chess {
        &self.boards[b]
    }
    pub fn result(&self, b: usize) -> Option<SubResult> {
        self.results[b]
    }
    /// The board the side to move plays on now (`None`: a pass is due, or the game is over).
    pub fn active_board(&self) -> Option<usize> {
        self.active
    }
    /// The state of the mega-knight standing (or that stood) on board `b`.
    pub fn mega_state(&self, b: usize) -> MegaState {
        self.boards[b].mega_state(mega_owner(b))
    }
    pub fn is_over(&self) -> bool {
        self.results[0].is_some() && self.results[1].is_some()
    }

    fn sub_outcome(board: &Chess) -> Option<SubResult> {
        board.outcome().map(|o| match o {
            Outcome::Win { winner, .. } => SubResult::Win(winner),
            Outcome::Draw { .. } => SubResult::Draw,
        })
    }

    /// The knight on board `other(x)` becomes what board `x`'s result makes it (IR-4).
    fn apply_state_change(&mut self, x: usize) {
        let y = 1 - x;
        if let Some(r) = self.results[x] {
            let owner = mega_owner(y);
            self.boards[y].set_mega_state(owner, state_for(owner, r));
        }
    }

    /// Where the side `next` plays once at most one board is unfinished.
    fn single_active(&self, next: Color) -> Option<usize> {
        match (self.results[0], self.results[1]) {
            (None, Some(_)) => (self.boards[0].side_to_move() == next).then_some(0),
            (Some(_), None) => (self.boards[1].side_to_move() == next).then_some(1),
            _ => None,
        }
    }

    fn snapshot(&self, board: Option<usize>) -> Undo {
        Undo {
            board,
            active: self.active,
            results: self.results,
            pending: self.pending,
            states: [self.mega_state(0), self.mega_state(1)],
            fullmove: self.fullmove,
        }
    }

    fn outcome_of(results: [Option<SubResult>; 2]) -> Option<Outcome> {
        let (a, b) = (results[0]?, results[1]?);
        let score = |c: Color| -> i32 {
            [a, b]
                .iter()
                .map(|r| match r {
                    SubResult::Win(w) if *w == c => 2,
                    SubResult::Draw => 1,
                    _ => 0,
                })
                .sum()
        };
        let (w, bl) = (score(Color::White), score(Color::Black));
        let desc = format!("board A {}, board B {}", a.text(), b.text());
        Some(if w > bl {
            Outcome::Win {
                winner: Color::White,
                reason: format!("White wins ({desc})"),
            }
        } else if bl > w {
            Outcome::Win {
                winner: Color::Black,
                reason: format!("Black wins ({desc})"),
            }
        } else {
            Outcome::Draw {
                reason: format!("Drawn ({desc})"),
            }
        })
    }

    fn board_fields(&self, b: usize) -> String {
        let bd = &self.boards[b];
        let cr = bd.castling_rights();
        let mut castling: String = ['K', 'Q', 'k', 'q']
            .iter()
            .enumerate()
            .filter(|(i, _)| cr & (1 << i) != 0)
            .map(|(_, c)| *c)
            .collect();
        if castling.is_empty() {
            castling.push('-');
        }
        let ep = bd
            .en_passant()
            .map(|s| GEOMETRY.name(from_chess_sq(b, s), RankBase::ONE))
            .unwrap_or_else(|| "-".into());
        format!(
            "{}:{}:{}:{}:{}:{}",
            bd.side_to_move().fen_char(),
            castling,
            ep,
            bd.halfmove_clock(),
            self.results[b].map(|r| r.text()).unwrap_or("*"),
            self.mega_state(b).letter()
        )
    }
}

/// A placement's 8 ranks of 16 squares split into the two boards' chess placements (rank 8
/// first), mega-knights (`M`/`m`) written as knights and listed as (board, colour, square).
fn split_placement(placement: &str) -> Result<Halves, FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::Board(format!(
            "{} ranks, expected 8",
            ranks.len()
        )));
    }
    let mut halves = [vec![String::new(); 8], vec![String::new(); 8]];
    let mut megas: Vec<(usize, Color, Square)> = Vec::new();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let cells = rank_cells(rank_text, rank as u32 + 1, 16, |c| {
            let up = c.to_ascii_uppercase();
            up == 'M' || LETTERS.contains(&up)
        })?;
        for (b, half) in halves.iter_mut().enumerate() {
            let mut s = String::new();
            let mut empty = 0;
            for file in 0..8 {
                match cells[b * 8 + file] {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let color = if c.is_ascii_uppercase() {
                            Color::White
                        } else {
                            Color::Black
                        };
                        if c.eq_ignore_ascii_case(&'M') {
                            megas.push((b, color, Square(rank * 8 + file as u8)));
                            s.push(if color == Color::White { 'N' } else { 'n' });
                        } else {
                            s.push(c);
                        }
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            half[i] = s;
        }
    }
    Ok((halves, megas))
}

type Halves = ([Vec<String>; 2], Vec<(usize, Color, Square)>);

struct BoardFields {
    side: String,
    castling: String,
    ep: String,
    halfmove: String,
    result: Option<SubResult>,
    mega: MegaState,
}

fn parse_board_fields(text: &str, which: char) -> Result<BoardFields, FenError> {
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() != 6 {
        return Err(FenError::Other(format!(
            "board {which} state {text:?}: expected side:castling:ep:halfmove:result:mega"
        )));
    }
    let result = SubResult::parse(parts[4])
        .ok_or_else(|| FenError::Other(format!("board {which} result {:?}", parts[4])))?;
    let mut mc = parts[5].chars();
    let mega = match (mc.next().and_then(MegaState::from_letter), mc.next()) {
        (Some(m), None) => m,
        _ => {
            return Err(FenError::Other(format!(
                "board {which} mega-knight state {:?}",
                parts[5]
            )))
        }
    };
    Ok(BoardFields {
        side: parts[0].to_string(),
        castling: parts[1].to_string(),
        ep: parts[2].to_string(),
        halfmove: parts[3].to_string(),
        result,
        mega,
    })
}

/// A plain one-board FEN of the 16×8 placement (`PLACEMENT SIDE [CASTLING [EP [HALF [FULL]]]]`),
/// as XBoard sends it for Paste Position and Edit Position: no field holds a board state.
fn is_plain_fen(f: &[&str]) -> bool {
    (2..=6).contains(&f.len())
        && matches!(f[1], "w" | "b")
        && f[2..].iter().all(|t| !t.contains(':'))
        && !(f.len() == 6 && matches!(f.get(2), Some(&"a") | Some(&"b")))
}

impl Recursion {
    /// Reads a plain 16×8 FEN (XBoard's Paste / Edit Position) into a full position. What the
    /// plain form leaves out is inferred, and the first reading the full parser accepts wins:
    /// - the step (IR-5) from the move number N: White plays on board A in odd steps, on B in
    ///   even ones, so the sides to move on the boards follow from N and the side to move;
    ///   with a finished board the one unfinished board is played, or the side passes; other
    ///   sides to move are tried after those;
    /// - each sub-game's result from its position (mate or stalemate; a draw by repetition
    ///   cannot be seen), and the mega-knight states from the results (IR-4, IR-6);
    /// - castling: with `-`, none; otherwise each of `KQkq` on each board where the king and
    ///   rook stand ready for it. En passant and the halfmove clock start afresh.
    fn from_plain_fen(f: &[&str]) -> Result<Recursion, FenError> {
        let full = f
            .get(5)
            .and_then(|n| n.parse::<u32>().ok())
            .unwrap_or(1)
            .max(1);
        let castle_all = f.get(2).is_some_and(|c| *c != "-");
        let mut castling = [String::new(), String::new()];
        if let (true, Ok((halves, _))) = (castle_all, split_placement(f[0])) {
            for (b, rights) in castling.iter_mut().enumerate() {
                let half = halves[b].join("/");
                for letter in ["K", "Q", "k", "q"] {
                    if ["w", "b"].iter().any(|side| {
                        Chess::from_fen(&format!("{half} {side} {letter} - 0 1")).is_ok()
                    }) {
                        rights.push_str(letter);
                    }
                }
            }
        }
        for r in castling.iter_mut() {
            if r.is_empty() {
                *r = "-".into();
            }
        }
        let white_board = if full % 2 == 1 { 0 } else { 1 };
        let (first_active, first_sides) = match f[1] {
            "w" => (
                white_board,
                if white_board == 0 {
                    ["w", "b"]
                } else {
                    ["b", "w"]
                },
            ),
            _ => (1 - white_board, ["b", "b"]),
        };
        let mut actives = vec![["a", "b"][first_active], ["a", "b"][1 - first_active], "-"];
        actives.dedup();
        let mut sides = vec![first_sides];
        for s in [["w", "b"], ["b", "w"], ["b", "b"], ["w", "w"]] {
            if !sides.contains(&s) {
                sides.push(s);
            }
        }
        let results = ["*", "1-0", "0-1", "1/2-1/2"];
        let mut first_err = None;
        for side in &sides {
            for active in &actives {
                for ra in results {
                    for rb in results {
                        let rs = [ra, rb];
                        for pending in [false, true] {
                            let mega = |y: usize| match SubResult::parse(rs[1 - y]) {
                                Some(Some(r)) if !pending => state_for(mega_owner(y), r).letter(),
                                _ => MegaState::Neutral.letter(),
                            };
                            let fen = format!(
                                "{} {} {} {}:{}:-:0:{}:{} {}:{}:-:0:{}:{} {}",
                                f[0],
                                f[1],
                                active,
                                side[0],
                                castling[0],
                                ra,
                                mega(0),
                                side[1],
                                castling[1],
                                rb,
                                mega(1),
                                full
                            );
                            match Recursion::from_fen(&fen) {
                                Ok(p) => return Ok(p),
                                Err(e) => {
                                    first_err.get_or_insert(e);
                                }
                            }
                        }
                    }
                }
            }
        }
        Err(first_err.unwrap_or(FenError::Empty))
    }
}

impl Variant for Recursion {
    const NAME: &'static str = "recursion";

    fn startpos() -> Recursion {
        Recursion::from_fen(START_FEN).expect("start FEN")
    }

    fn from_fen(fen: &str) -> Result<Recursion, FenError> {
        let f: Vec<&str> = fen.split_whitespace().collect();
        if f.is_empty() {
            return Err(FenError::Empty);
        }
        if is_plain_fen(&f) {
            return Recursion::from_plain_fen(&f);
        }
        if f.len() != 6 {
            return Err(FenError::Other(format!(
                "{} fields, expected 6: placement side board A-state B-state fullmove",
                f.len()
            )));
        }
        let (halves, megas) = split_placement(f[0])?;
        let stm = match f[1] {
            "w" => Color::White,
            "b" => Color::Black,
            o => return Err(FenError::Side(o.to_string())),
        };
        let active_field = match f[2] {
            "a" => Some(0),
            "b" => Some(1),
            "-" => None,
            o => {
                return Err(FenError::Other(format!(
                    "board to play {o:?}: expected a, b or -"
                )))
            }
        };
        let fields = [
            parse_board_fields(f[3], 'A')?,
            parse_board_fields(f[4], 'B')?,
        ];
        let fullmove: u32 = f[5]
            .parse()
            .ok()
            .filter(|n| (1..=100_000).contains(n))
            .ok_or_else(|| FenError::Counter(f[5].to_string()))?;

        let mut boards = Vec::with_capacity(2);
        for b in 0..2 {
            let bf = &fields[b];
            let ep = if bf.ep == "-" {
                "-".to_string()
            } else {
                let sq = GEOMETRY
                    .parse_square_exact(&bf.ep, RankBase::ONE)
                    .ok_or_else(|| FenError::EnPassant(bf.ep.clone()))?;
                let (eb, csq) = to_chess_sq(sq);
                if eb != b {
                    return Err(FenError::EnPassant(bf.ep.clone()));
                }
                Geometry::CHESS.name(csq, RankBase::ONE)
            };
            let sub = format!(
                "{} {} {} {} {} 1",
                halves[b].join("/"),
                bf.side,
                bf.castling,
                ep,
                bf.halfmove
            );
            let mut board = Chess::from_fen(&sub).map_err(|e| match e {
                FenError::Impossible(m) => {
                    FenError::Impossible(format!("board {}: {m}", ['A', 'B'][b]))
                }
                other => other,
            })?;
            let owner = mega_owner(b);
            for &(mb, color, sq) in &megas {
                if mb != b {
                    continue;
                }
                if color != owner {
                    return Err(FenError::Impossible(format!(
                        "a {} mega-knight on board {} (only {}'s may stand there)",
                        color.name(),
                        ['A', 'B'][b],
                        owner.name()
                    )));
                }
                if board.mega_square(owner).is_some() {
                    return Err(FenError::Impossible(format!(
                        "two mega-knights on board {}",
                        ['A', 'B'][b]
                    )));
                }
                board.set_mega_square(owner, Some(sq))?;
                debug_assert_eq!(board.piece_at(sq), Some((owner, KNIGHT)));
            }
            board.set_mega_state(owner, bf.mega);
            boards.push(board);
        }
        let boards: [Chess; 2] = [boards.remove(0), boards.remove(0)];
        let results = [fields[0].result, fields[1].result];

        // Each board's result must agree with its position (a draw by repetition cannot be
        // seen in a position, so any draw is accepted).
        for b in 0..2 {
            let seen = Recursion::sub_outcome(&boards[b]);
            let name = ['A', 'B'][b];
            match (results[b], seen) {
                (None, Some(_)) => {
                    return Err(FenError::Impossible(format!(
                        "board {name} is over but its result is *"
                    )))
                }
                (Some(SubResult::Win(c)), s) if s != Some(SubResult::Win(c)) => {
                    return Err(FenError::Impossible(format!(
                        "board {name} result {} contradicts the position",
                        SubResult::Win(c).text()
                    )))
                }
                _ => {}
            }
        }
        // Mega-knight states follow the other board's result (IR-4, IR-6).
        let mut pending = false;
        for y in 0..2 {
            let x = 1 - y;
            let st = fields[y].mega;
            match results[x] {
                None if st != MegaState::Neutral => {
                    return Err(FenError::Impossible(format!(
                        "the mega-knight on board {} is {} while board {} is still going",
                        ['A', 'B'][y],
                        st.name(),
                        ['A', 'B'][x]
                    )))
                }
                Some(r) if st != MegaState::Neutral && st != state_for(mega_owner(y), r) => {
                    return Err(FenError::Impossible(format!(
                        "the mega-knight on board {} is {} but board {} ended {}",
                        ['A', 'B'][y],
                        st.name(),
                        ['A', 'B'][x],
                        r.text()
                    )))
                }
                Some(_) if st == MegaState::Neutral && results[y].is_none() => {
                    // Only right after White's move ended board x, before Black's reply.
                    if stm == Color::Black && active_field == Some(y) {
                        pending = true;
                    } else {
                        return Err(FenError::Impossible(format!(
                            "the mega-knight on board {} is still Neutral",
                            ['A', 'B'][y]
                        )));
                    }
                }
                _ => {}
            }
        }
        let mut pos = Recursion {
            boards,
            stm,
            active: active_field,
            results,
            pending,
            fullmove,
            history: Vec::new(),
        };
        // The board to play on must be the one the turn order gives (IR-5).
        let expected: Vec<Option<usize>> = match results {
            [None, None] => {
                let sides = [pos.boards[0].side_to_move(), pos.boards[1].side_to_move()];
                match stm {
                    Color::White => match sides {
                        [Color::White, Color::Black] => vec![Some(0)],
                        [Color::Black, Color::White] => vec![Some(1)],
                        _ => vec![],
                    },
                    Color::Black if sides == [Color::Black, Color::Black] => {
                        vec![Some(0), Some(1)]
                    }
                    Color::Black => vec![],
                }
            }
            _ if pending => vec![active_field],
            _ => vec![pos.single_active(stm)],
        };
        if !expected.contains(&active_field) {
            return Err(FenError::Impossible(format!(
                "{} cannot play {} here (IR-5)",
                stm.name(),
                match active_field {
                    Some(b) => format!("on board {}", ['A', 'B'][b]),
                    None => "a pass".to_string(),
                }
            )));
        }
        if pos.is_over() && pos.active.is_some() {
            pos.active = None;
        }
        Ok(pos)
    }

    fn fen(&self) -> String {
        let s = crate::core::fen::write_placement(16, 8, |file, rank| {
            let b = (file / 8) as usize;
            let csq = Square(rank * 8 + file % 8);
            self.boards[b].piece_at(csq).map(|(c, pt)| {
                let l = if self.boards[b].mega_square(c) == Some(csq) {
                    'M'
                } else {
                    LETTERS[pt as usize]
                };
                if c == Color::White {
                    l
                } else {
                    l.to_ascii_lowercase()
                }
            })
        });
        format!(
            "{} {} {} {} {} {}",
            s,
            self.stm.fen_char(),
            match self.active {
                Some(0) => "a",
                Some(_) => "b",
                None => "-",
            },
            self.board_fields(0),
            self.board_fields(1),
            self.fullmove
        )
    }

    fn geometry(&self) -> Geometry {
        GEOMETRY
    }

    fn side_to_move(&self) -> Color {
        self.stm
    }

    fn legal_moves(&self, out: &mut MoveList) {
        if self.is_over() {
            return;
        }
        match self.active {
            None => out.push(Move::pass()),
            Some(b) => {
                let mut sub = MoveList::new();
                self.boards[b].legal_moves(&mut sub);
                out.extend(sub.iter().map(|&m| from_chess_move(b, m)));
            }
        }
    }

    fn make_move(&mut self, m: Move) {
        let mover = self.stm;
        let next = !mover;
        if m.kind() == MoveKind::Pass {
            self.history.push(self.snapshot(None));
        } else {
            let (b, cm) = to_chess_move(m);
            let undo = self.snapshot(Some(b));
            let dual = undo.results == [None, None];
            self.boards[b].make_move(cm);
            if self.results[b].is_none() {
                self.results[b] = Recursion::sub_outcome(&self.boards[b]);
            }
            match mover {
                // First move of a step with both boards going: Black replies on the other.
                Color::White if dual => {
                    self.pending = self.results[b].is_some();
                    self.active = Some(1 - b);
                }
                // Second move of a step: state changes take effect now (IR-6).
                Color::Black if dual || undo.pending => {
                    if undo.pending {
                        // Board 1-b ended on White's move; both ending in one step changes
                        // nothing.
                        if self.results[b].is_none() {
                            self.apply_state_change(1 - b);
                        }
                    } else if self.results[b].is_some() {
                        self.apply_state_change(b);
                    }
                    self.pending = false;
                    self.active = if self.results == [None, None] {
                        Some(b)
                    } else {
                        None
                    };
                }
                _ => {}
            }
            self.history.push(undo);
        }
        self.stm = next;
        if mover == Color::Black {
            self.fullmove += 1;
        }
        if self.results != [None, None] && !self.pending {
            self.active = self.single_active(next);
        }
    }

    fn unmake_move(&mut self) {
        let Some(u) = self.history.pop() else {
            return;
        };
        for b in 0..2 {
            if self.mega_state(b) != u.states[b] {
                self.boards[b].set_mega_state(mega_owner(b), u.states[b]);
            }
        }
        if let Some(b) = u.board {
            self.boards[b].unmake_move();
        }
        self.stm = !self.stm;
        self.active = u.active;
        self.results = u.results;
        self.pending = u.pending;
        self.fullmove = u.fullmove;
    }

    fn null_move_ok(&self) -> bool {
        // The turn order of IR-5 has no room for a free pass.
        false
    }

    fn make_null_move(&mut self) {
        // Never called: null_move_ok is false. Kept as a pass so the stack stays balanced.
        self.history.push(self.snapshot(None));
        self.stm = !self.stm;
    }

    fn hash(&self) -> u64 {
        let mut h = self.boards[0].hash() ^ self.boards[1].hash().rotate_left(23) ^ key(1, 1);
        if self.stm == Color::Black {
            h ^= key(2, 0);
        }
        h ^= key(3, self.active.map(|b| b as u64 + 1).unwrap_or(0));
        for b in 0..2 {
            h ^= key(
                4 + b as u64,
                self.results[b]
                    .map(|r| {
                        r.text().len() as u64
                            + match r {
                                SubResult::Win(Color::White) => 10,
                                SubResult::Win(Color::Black) => 20,
                                SubResult::Draw => 30,
                            }
                    })
                    .unwrap_or(0),
            );
        }
        if self.pending {
            h ^= key(6, 1);
        }
        h
    }

    fn in_check(&self) -> bool {
        self.active.is_some_and(|b| self.boards[b].in_check())
    }

    fn is_tactical(&self, m: Move) -> bool {
        if m.kind() == MoveKind::Pass {
            return false;
        }
        let (b, cm) = to_chess_move(m);
        self.boards[b].is_tactical(cm)
    }

    fn tactical_order(&self, m: Move) -> i32 {
        if m.kind() == MoveKind::Pass {
            return 0;
        }
        let (b, cm) = to_chess_move(m);
        self.boards[b].tactical_order(cm)
    }

    fn outcome(&self) -> Option<Outcome> {
        Recursion::outcome_of(self.results)
    }

    fn is_search_draw(&self) -> bool {
        // A repeated position on one board ends only that board, by its own rule.
        false
    }

    fn move_text(&self, m: Move, dialect: Dialect) -> String {
        if m.kind() == MoveKind::Pass {
            return dialect.pass().to_string();
        }
        let mut s = GEOMETRY.name(m.from(), dialect.rank_base);
        s.push_str(&GEOMETRY.name(m.to(), dialect.rank_base));
        if let Some(p) = m.piece() {
            s.push(LETTERS[p as usize].to_ascii_lowercase());
        }
        s
    }

    fn parse_move(&self, text: &str, dialect: Dialect) -> Result<Move, MoveError> {
        let t = text.trim();
        let is_pass = matches!(t, "@@@@" | "0000" | "pass" | "--" | "null");
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        for &m in &list {
            if (is_pass && m.kind() == MoveKind::Pass)
                || (!is_pass && self.move_text(m, dialect) == t.to_ascii_lowercase())
            {
                return Ok(m);
            }
        }
        if is_pass || self.looks_like_move(t, dialect) {
            Err(MoveError::Illegal(text.to_string()))
        } else {
            Err(MoveError::Syntax(text.to_string()))
        }
    }

    fn looks_like_move(&self, text: &str, dialect: Dialect) -> bool {
        let Some((_, n1)) = GEOMETRY.parse_square(text, dialect.rank_base) else {
            return false;
        };
        let Some((_, n2)) = GEOMETRY.parse_square(&text[n1..], dialect.rank_base) else {
            return false;
        };
        let rest = &text[n1 + n2..];
        rest.is_empty() || (rest.len() == 1 && "qrbnQRBN".contains(rest))
    }

    fn display(&self) -> String {
        let mut s = String::new();
        s.push_str("      White's board (A)                  Black's board (B)\n");
        let line = "   +---+---+---+---+---+---+---+---+  +---+---+---+---+---+---+---+---+\n";
        s.push_str(line);
        for rank in (0..8u8).rev() {
            s.push_str(&format!(" {} |", rank + 1));
            for b in 0..2 {
                if b == 1 {
                    s.push_str("  |");
                }
                for file in 0..8u8 {
                    let csq = Square(rank * 8 + file);
                    let c = match self.boards[b].piece_at(csq) {
                        None => ' ',
                        Some((color, pt)) => {
                            let l = if self.boards[b].mega_square(color) == Some(csq) {
                                'M'
                            } else {
                                LETTERS[pt as usize]
                            };
                            if color == Color::White {
                                l
                            } else {
                                l.to_ascii_lowercase()
                            }
                        }
                    };
                    s.push_str(&format!(" {c} |"));
                }
            }
            s.push('\n');
            s.push_str(line);
        }
        s.push_str("     a   b   c   d   e   f   g   h      i   j   k   l   m   n   o   p\n\n");
        for b in 0..2 {
            let owner = mega_owner(b);
            s.push_str(&format!(
                "Board {}: {} to move, result {}, {}'s mega-knight {} ({})\n",
                ['A', 'B'][b],
                self.boards[b].side_to_move().name(),
                self.results[b].map(|r| r.text()).unwrap_or("*"),
                owner.name(),
                self.mega_state(b).name(),
                match self.boards[b].mega_square(owner) {
                    Some(sq) => GEOMETRY.name(from_chess_sq(b, sq), RankBase::ONE),
                    None => "captured".into(),
                }
            ));
        }
        s.push_str(&format!(
            "To play: {} {}\nVariant: {}\nFen: {}\nKey: {:016X}\n",
            self.stm.name(),
            match self.active {
                Some(b) => format!("on board {}", ['A', 'B'][b]),
                None if self.is_over() => "nothing (game over)".into(),
                None => "a pass".into(),
            },
            Self::NAME,
            self.fen(),
            self.hash()
        ));
        s
    }

    fn describe(&self) -> PositionView {
        let mut squares = self.boards[0].square_views(0);
        squares.extend(self.boards[1].square_views(8));
        squares.sort_by_key(|s| (s.rank, s.file));
        let boards = (0..2)
            .map(|b| {
                let owner = mega_owner(b);
                SubBoardView {
                    name: format!("{} ({}'s board)", ['A', 'B'][b], owner.name()),
                    first_file: 8 * b as u8,
                    last_file: 8 * b as u8 + 7,
                    side_to_move: self.boards[b].side_to_move(),
                    result: self.results[b].map(|r| r.text()).unwrap_or("*").to_string(),
                    active: self.active == Some(b),
                    note: format!(
                        "{}'s mega-knight: {}, {}",
                        owner.name(),
                        self.mega_state(b).name(),
                        match self.boards[b].mega_square(owner) {
                            Some(sq) => GEOMETRY.name(from_chess_sq(b, sq), RankBase::ONE),
                            None => "captured".into(),
                        }
                    ),
                }
            })
            .collect();
        let to_play = match self.active {
            Some(b) => format!("{} plays on board {}", self.stm.name(), ['A', 'B'][b]),
            None if self.is_over() => "game over".into(),
            None => format!("{} passes", self.stm.name()),
        };
        PositionView {
            width: 16,
            height: 8,
            side_to_move: self.stm,
            squares,
            held: Vec::new(),
            boards,
            notes: vec![to_play],
        }
    }

    fn game_ply(&self) -> usize {
        self.history.len()
    }
}
