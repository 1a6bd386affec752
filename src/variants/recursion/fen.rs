//! Infinite Recursion Chess FEN: the 16×8 placement, the side to move, the board to play,
//! each board's state and the move number (or a plain 16×8 FEN, read by inference); read
//! into a [`Setup`] of two chess setups, validated, written.

use super::*;
use crate::core::fen::{self, letter_color};
use crate::core::{PositionError, StateError};
use crate::variants::chess::{
    castling_text, parse_castling, piece_of_letter, Placement, Setup as ChessSetup,
};

impl Recursion {
    fn board_fields(&self, b: usize) -> String {
        let bd = &self.boards[b];
        let ep = bd
            .en_passant()
            .map(|s| GEOMETRY.name(from_chess_sq(b, s), RankBase::ONE))
            .unwrap_or_else(|| "-".into());
        format!(
            "{}:{}:{}:{}:{}:{}",
            bd.side_to_move().fen_char(),
            castling_text(bd.castling_rights()),
            ep,
            bd.halfmove_clock(),
            self.results[b].map(|r| r.text()).unwrap_or("*"),
            self.mega_state(b).letter()
        )
    }
}

const BOARD_NAMES: [char; 2] = ['A', 'B'];

// ----- Mega-knights (IR-2, IR-4): every FEN detail of them is here. -----

/// A mega-knight written in the placement (`M`/`m`): (board, colour, chess square).
type MegaAt = (usize, Color, Square);

/// The piece a placement letter stands for: a mega-knight `M`/`m` is a knight, also listed.
fn mega_letter(ch: char) -> Option<(Color, u8)> {
    ch.eq_ignore_ascii_case(&MEGA_LETTER)
        .then(|| (letter_color(ch), KNIGHT))
}

/// A board state's last part: the mega-knight state letter.
fn parse_mega_state(text: &str, board: char) -> Result<MegaState, FenError> {
    let mut mc = text.chars();
    match (mc.next().and_then(MegaState::from_letter), mc.next()) {
        (Some(m), None) => Ok(m),
        _ => Err(StateError::MegaState {
            board,
            text: text.to_string(),
        }
        .into()),
    }
}

/// Marks board `b`'s mega-knight (at most one, its owner's) with the powers of its state
/// (IR-4).
fn place_megas(
    board: &mut Chess,
    b: usize,
    megas: &[MegaAt],
    state: MegaState,
) -> Result<(), FenError> {
    let owner = mega_owner(b);
    let name = BOARD_NAMES[b];
    for &(_, color, sq) in megas.iter().filter(|m| m.0 == b) {
        if color != owner {
            return Err(PositionError::WrongMegaOwner { color, board: name }.into());
        }
        if board.mark(owner).is_some() {
            return Err(PositionError::TwoMegaKnights { board: name }.into());
        }
        debug_assert_eq!(board.piece_at(sq), Some((owner, KNIGHT)));
        let powers = state.powers();
        board.set_mark(owner, Some(Mark { square: sq, powers }))?;
    }
    Ok(())
}

// ----- The setup. -----

/// A Recursion FEN read into plain data, not yet validated ([`Setup::validate`]): each board
/// a chess setup (IR-3), its mega-knight among its knights.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    pub boards: [ChessSetup; 2],
    pub megas: Vec<MegaAt>,
    pub mega_states: [MegaState; 2],
    pub results: [Option<SubResult>; 2],
    pub side: Color,
    /// The board to play (`None`: a pass).
    pub active: Option<usize>,
    pub fullmove: u32,
}

/// A placement's 8 ranks of 16 squares split into the two boards' chess placements, the
/// mega-knights listed.
fn split_placement(placement: &str) -> Result<([Placement; 2], Vec<MegaAt>), FenError> {
    let piece = |c: char| piece_of_letter(c).or_else(|| mega_letter(c));
    let ranks = fen::placement_cells(placement, 16, 8, |c| piece(c).is_some())?;
    let mut boards = [[None; 64]; 2];
    let mut megas = Vec::new();
    for (i, cells) in ranks.iter().enumerate() {
        let rank = 7 - i;
        for (file, ch) in cells.iter().enumerate() {
            let Some(ch) = *ch else { continue };
            let (b, sq) = (file / 8, Square((rank * 8 + file % 8) as u8));
            let p = piece(ch).expect("known");
            if mega_letter(ch).is_some() {
                megas.push((b, p.0, sq));
            }
            boards[b][sq.index()] = Some(p);
        }
    }
    Ok((boards, megas))
}

/// One board's state `side:castling:ep:halfmove:result:mega` into its chess setup (without
/// the placement), result and mega-knight state.
fn parse_board_fields(
    text: &str,
    b: usize,
) -> Result<(ChessSetup, Option<SubResult>, MegaState), FenError> {
    let board = BOARD_NAMES[b];
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() != 6 {
        return Err(StateError::BoardState {
            board,
            text: text.to_string(),
        }
        .into());
    }
    let result = SubResult::parse(parts[4]).ok_or_else(|| StateError::BoardResult {
        board,
        text: parts[4].to_string(),
    })?;
    let mega = parse_mega_state(parts[5], board)?;
    let ep = match parts[2] {
        "-" => None,
        text => {
            let bad = || FenError::EnPassant(text.to_string());
            let sq = GEOMETRY
                .parse_square_exact(text, RankBase::ONE)
                .ok_or_else(bad)?;
            let (eb, csq) = to_chess_sq(sq);
            if eb != b {
                return Err(bad());
            }
            Some(csq)
        }
    };
    let setup = ChessSetup {
        board: [None; 64],
        side: fen::side(parts[0])?,
        castling: parse_castling(parts[1])?,
        ep,
        halfmove: fen::halfmove(parts[3])?,
        fullmove: 1,
    };
    Ok((setup, result, mega))
}

/// A plain one-board FEN of the 16×8 placement (`PLACEMENT SIDE [CASTLING [EP [HALF [FULL]]]]`),
/// as XBoard sends it for Paste Position and Edit Position: no field holds a board state.
fn is_plain_fen(f: &[&str]) -> bool {
    (2..=6).contains(&f.len())
        && matches!(f[1], "w" | "b")
        && f[2..].iter().all(|t| !t.contains(':'))
        && !(f.len() == 6 && matches!(f.get(2), Some(&"a") | Some(&"b")))
}

/// The position of a plain 16×8 FEN (XBoard's Paste / Edit Position). What the plain form
/// leaves out is inferred, and the first reading that validates wins:
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
    let fullmove = fen::counter(&full.to_string(), 1..=100_000)?;
    let (placements, megas) = split_placement(f[0])?;
    let side = fen::side(f[1])?;
    let mut boards = placements.map(|board| ChessSetup {
        board,
        side: Color::White,
        castling: 0,
        ep: None,
        halfmove: 0,
        fullmove: 1,
    });
    if f.get(2).is_some_and(|c| *c != "-") {
        for board in boards.iter_mut() {
            let rights = (0..4).filter(|&i| {
                Color::BOTH.iter().any(|&side| {
                    let mut one = board.clone();
                    (one.side, one.castling) = (side, 1 << i);
                    one.validate().is_ok()
                })
            });
            board.castling = rights.fold(0, |acc, i| acc | 1 << i);
        }
    }
    let white_board = if full % 2 == 1 { 0 } else { 1 };
    use Color::{Black, White};
    let (first_active, first_sides) = match side {
        White => (
            white_board,
            if white_board == 0 {
                [White, Black]
            } else {
                [Black, White]
            },
        ),
        Black => (1 - white_board, [Black, Black]),
    };
    let actives = [Some(first_active), Some(1 - first_active), None];
    let mut sides = vec![first_sides];
    for s in [
        [White, Black],
        [Black, White],
        [Black, Black],
        [White, White],
    ] {
        if !sides.contains(&s) {
            sides.push(s);
        }
    }
    let results = [
        None,
        Some(SubResult::Win(White)),
        Some(SubResult::Win(Black)),
        Some(SubResult::Draw),
    ];
    let mut first_err = None;
    for board_sides in &sides {
        for &active in &actives {
            for ra in results {
                for rb in results {
                    for pending in [false, true] {
                        let rs = [ra, rb];
                        let mega = |y: usize| match rs[1 - y] {
                            Some(r) if !pending => state_for(mega_owner(y), r),
                            _ => MegaState::Neutral,
                        };
                        let mut setup = Setup {
                            boards: boards.clone(),
                            megas: megas.clone(),
                            mega_states: [mega(0), mega(1)],
                            results: rs,
                            side,
                            active,
                            fullmove,
                        };
                        for (board, &s) in setup.boards.iter_mut().zip(board_sides) {
                            board.side = s;
                        }
                        match setup.validate() {
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

impl Setup {
    /// Reads `PLACEMENT SIDE BOARD A-STATE B-STATE FULLMOVE`, where BOARD is the board to play
    /// (`a`, `b` or `-`) and each state `side:castling:ep:halfmove:result:mega`.
    pub fn parse(fen: &str) -> Result<Setup, FenError> {
        let f = fen::fields(fen)?;
        if f.len() != 6 {
            return Err(FenError::FieldCount {
                found: f.len(),
                expected: "expected 6: placement side board A-state B-state fullmove",
            });
        }
        let (placements, megas) = split_placement(f[0])?;
        let side = fen::side(f[1])?;
        let active = match f[2] {
            "a" => Some(0),
            "b" => Some(1),
            "-" => None,
            o => return Err(StateError::BoardToPlay(o.to_string()).into()),
        };
        let (mut a, ra, ma) = parse_board_fields(f[3], 0)?;
        let (mut b, rb, mb) = parse_board_fields(f[4], 1)?;
        let fullmove = fen::counter(f[5], 1..=100_000)?;
        [a.board, b.board] = placements;
        Ok(Setup {
            boards: [a, b],
            megas,
            mega_states: [ma, mb],
            results: [ra, rb],
            side,
            active,
            fullmove,
        })
    }

    /// The position, if the setup is one: each board a chess position with its mega-knight,
    /// each board's result agreeing with its position, each mega-knight's state with the other
    /// board's result (IR-4, IR-6), and the board to play the one the turn order gives (IR-5).
    pub fn validate(&self) -> Result<Recursion, FenError> {
        let mut boards = Vec::with_capacity(2);
        for (b, setup) in self.boards.iter().enumerate() {
            let mut board = setup.validate().map_err(|e| match e {
                FenError::Impossible(error) => PositionError::OnBoard {
                    board: BOARD_NAMES[b],
                    error: Box::new(error),
                }
                .into(),
                other => other,
            })?;
            place_megas(&mut board, b, &self.megas, self.mega_states[b])?;
            boards.push(board);
        }
        let boards: [Chess; 2] = [boards.remove(0), boards.remove(0)];
        let results = self.results;
        let (stm, active_field) = (self.side, self.active);

        // Each board's result must agree with its position (a draw by repetition cannot be
        // seen in a position, so any draw is accepted).
        for b in 0..2 {
            let seen = Recursion::sub_outcome(&boards[b]);
            let board = BOARD_NAMES[b];
            match (results[b], seen) {
                (None, Some(_)) => return Err(PositionError::UnmarkedResult { board }.into()),
                (Some(SubResult::Win(c)), s) if s != Some(SubResult::Win(c)) => {
                    return Err(PositionError::WrongResult {
                        board,
                        result: SubResult::Win(c).text(),
                    }
                    .into())
                }
                _ => {}
            }
        }
        // Mega-knight states follow the other board's result (IR-4, IR-6).
        let mut pending = false;
        for y in 0..2 {
            let x = 1 - y;
            let st = self.mega_states[y];
            let (board, other) = (BOARD_NAMES[y], BOARD_NAMES[x]);
            match results[x] {
                None if st != MegaState::Neutral => {
                    return Err(PositionError::MegaTooEarly {
                        board,
                        state: st.name(),
                        other,
                    }
                    .into())
                }
                Some(r) if st != MegaState::Neutral && st != state_for(mega_owner(y), r) => {
                    return Err(PositionError::MegaContradicts {
                        board,
                        state: st.name(),
                        other,
                        result: r.text(),
                    }
                    .into())
                }
                Some(_) if st == MegaState::Neutral && results[y].is_none() => {
                    // Only right after White's move ended board x, before Black's reply.
                    if stm == Color::Black && active_field == Some(y) {
                        pending = true;
                    } else {
                        return Err(PositionError::MegaStillNeutral { board }.into());
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
            states: self.mega_states,
            fullmove: self.fullmove,
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
            return Err(PositionError::WrongBoardToPlay {
                color: stm,
                board: active_field.map(|b| BOARD_NAMES[b]),
            }
            .into());
        }
        if pos.is_over() && pos.active.is_some() {
            pos.active = None;
        }
        Ok(pos)
    }
}

pub(super) fn parse(fen: &str) -> Result<Recursion, FenError> {
    let f = fen::fields(fen)?;
    if is_plain_fen(&f) {
        return from_plain_fen(&f);
    }
    Setup::parse(fen)?.validate()
}

pub(super) fn write(pos: &Recursion) -> String {
    let s = crate::core::fen::write_placement(16, 8, |file, rank| {
        pos.letter_at((file / 8) as usize, Square(rank * 8 + file % 8))
    });
    format!(
        "{} {} {} {} {} {}",
        s,
        pos.stm.fen_char(),
        match pos.active {
            Some(0) => "a",
            Some(_) => "b",
            None => "-",
        },
        pos.board_fields(0),
        pos.board_fields(1),
        pos.fullmove
    )
}
