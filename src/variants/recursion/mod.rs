//! Infinite Recursion Chess (`recursion`): two chess boards played at once, each side's
//! kingside knight being the game on the other board.
//!
//! Board A (index 0) is White's board, files a–h of the 16×8 whole; board B (index 1) is
//! Black's board, files i–p (IR-1). White's mega-knight stands on board A and *is* the game on
//! board B; Black's stands on board B and *is* the game on board A (IR-2). Each board is an
//! international chess game (IR-3, [`Chess`]) whose mega-knight obeys its state (IR-4): the
//! knight is the board's [`Mark`], given its state's powers ([`MegaState::powers`]).
//! The plies of the protocols alternate White, Black as ever; which board a ply is played on
//! follows the steps of IR-5, with passes once a board is finished; state changes wait for the
//! end of the step (IR-6); the game ends when both boards have (IR-7).

mod fen;
pub use fen::Setup;
mod make;
mod pieces;
#[cfg(test)]
mod tests;

pub use pieces::{MegaState, MEGA_LETTER, MEGA_NAME};

use crate::core::zobrist::{self, DOMAIN_STATE};
use crate::core::{
    Badge, Color, Dialect, FenError, Geometry, Move, MoveError, MoveKind, MoveList, Outcome,
    PositionView, RankBase, Square, SquareView, SubBoardView, Variant,
};
use crate::variants::chess::{Chess, Mark, KNIGHT, LETTERS};

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
    /// The state of the mega-knight standing (or that stood) on each board (IR-4); while it
    /// stands, its board's mark carries the state's powers.
    states: [MegaState; 2],
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

/// The board a move of the combined 16×8 board is played on, and the move as that chess
/// board's move; `None` for the pass.
#[inline(always)]
pub fn board_move(m: Move) -> Option<(usize, Move)> {
    (m.kind() != MoveKind::Pass).then(|| to_chess_move(m))
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
    /// The moves `generate` gives on board `b`, pushed as this game's moves.
    fn push_board_moves(&self, b: usize, out: &mut MoveList, generate: fn(&Chess, &mut MoveList)) {
        let mut sub = MoveList::new();
        generate(&self.boards[b], &mut sub);
        out.extend(sub.iter().map(|&m| from_chess_move(b, m)));
    }

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
        self.states[b]
    }
    /// Where the mega-knight of board `b` stands (a square of that chess board), unless it was
    /// captured.
    pub fn mega_square(&self, b: usize) -> Option<Square> {
        self.boards[b].mark(mega_owner(b)).map(|m| m.square)
    }
    /// The mega-knight of board `b` takes state `s`: its mark gets the state's powers (IR-4).
    fn set_state(&mut self, b: usize, s: MegaState) {
        self.states[b] = s;
        self.boards[b].set_mark_powers(mega_owner(b), s.powers());
    }
    /// Where the mega-knight of board `b` stands, as the whole board names it, or `captured`.
    fn mega_place(&self, b: usize) -> String {
        match self.mega_square(b) {
            Some(sq) => GEOMETRY.name(from_chess_sq(b, sq), RankBase::ONE),
            None => "captured".into(),
        }
    }
    /// The FEN letter of what stands on square `csq` of board `b` (`M`/`m`: a mega-knight).
    fn letter_at(&self, b: usize, csq: Square) -> Option<char> {
        self.boards[b].piece_at(csq).map(|(c, pt)| {
            let l = if self.mega_square(b) == Some(csq) {
                MEGA_LETTER
            } else {
                LETTERS[pt as usize]
            };
            crate::core::fen::colored_letter(l, c)
        })
    }
    /// The pictures of board `b`'s squares, its mega-knight shown as `M` with its state.
    fn square_views(&self, b: usize) -> Vec<SquareView> {
        let mut views = self.boards[b].square_views(8 * b as u8);
        if let Some(sq) = self.mega_square(b) {
            let (file, rank) = (sq.0 % 8 + 8 * b as u8, sq.0 / 8);
            for v in views
                .iter_mut()
                .filter(|v| (v.file, v.rank) == (file, rank))
            {
                v.piece.letter = self.letter_at(b, sq).unwrap_or(MEGA_LETTER);
                v.piece.name = MEGA_NAME;
                v.badges.push(Badge::Mega {
                    state: self.states[b].name(),
                });
            }
        }
        views
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
            self.set_state(y, state_for(mega_owner(y), r));
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
            states: self.states,
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
}

impl Variant for Recursion {
    const NAME: &'static str = "recursion";
    const CASTLING: bool = true;

    /// A right either board has (IR-2).
    fn castling_rights(&self) -> u8 {
        self.boards[0].castling_rights() | self.boards[1].castling_rights()
    }

    fn startpos() -> Recursion {
        Recursion::from_fen(START_FEN).expect("start FEN")
    }

    fn from_fen(fen: &str) -> Result<Recursion, FenError> {
        fen::parse(fen)
    }

    fn fen(&self) -> String {
        fen::write(self)
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
            Some(b) => self.push_board_moves(b, out, Chess::legal_moves),
        }
    }

    fn tactical_moves(&self, out: &mut MoveList) {
        // The pass (a board without a move) is not tactical.
        if let (false, Some(b)) = (self.is_over(), self.active) {
            self.push_board_moves(b, out, Chess::tactical_moves);
        }
    }

    fn make_move(&mut self, m: Move) {
        self.do_move(m);
    }

    fn unmake_move(&mut self) {
        self.undo_move();
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

    /// Told without the move where the turn order makes it certain (IR-5): White's move of a
    /// step with both boards going leaves Black to play the other board, whatever it does
    /// there; any other move leaves the opponent to play the same board or no board, so a
    /// move that gives no check on its board gives none. A check on its board may end that
    /// board (a mate leaves the opponent no board to play): made to see.
    fn gives_check(&self, m: Move) -> Option<bool> {
        if m.kind() == MoveKind::Pass {
            return None;
        }
        let (b, cm) = to_chess_move(m);
        if self.stm == Color::White && self.results == [None, None] {
            return Some(self.boards[1 - b].in_check());
        }
        match self.boards[b].gives_check(cm) {
            Some(false) => Some(false),
            _ => None,
        }
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
                    let c = self.letter_at(b, Square(rank * 8 + file)).unwrap_or(' ');
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
                self.mega_place(b)
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
        let mut squares = self.square_views(0);
        squares.extend(self.square_views(1));
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
                        self.mega_place(b)
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
