//! Chess FEN (X-FEN castling rights for a king on any file, IR-2): read into a [`Setup`],
//! validated into a position, written.

use super::*;
use crate::core::fen::{self, letter_color};
use crate::core::PositionError;

impl Chess {
    /// Sets up castling bookkeeping: which rook each right uses and which squares void which
    /// rights.
    fn init_castling(&mut self) {
        self.castle_keep = [0xF; 64];
        for color in Color::BOTH {
            for side in 0..2 {
                let i = cr(color, side);
                if self.castling & (1 << i) != 0 {
                    let ksq = self.king_square(color);
                    self.castle_keep[ksq.index()] &=
                        !((1u8 << cr(color, 0)) | (1u8 << cr(color, 1)));
                    self.castle_keep[self.castle_rook[i].index()] &= !(1u8 << i);
                }
            }
        }
    }

    /// The castling rook square for a right given the king's square, following X-FEN: the
    /// outermost rook on that side.
    fn find_castle_rook(&self, color: Color, side: usize) -> Option<Square> {
        let ksq = self.pieces(color, KING);
        if ksq.count_ones() != 1 {
            return None;
        }
        let ksq = Square(ksq.trailing_zeros() as u8);
        let rank = ksq.0 / 8;
        let home = if color == Color::White { 0 } else { 7 };
        if rank != home {
            return None;
        }
        let files: Vec<u8> = if side == 0 {
            ((ksq.0 % 8 + 1)..8).rev().collect()
        } else {
            (0..ksq.0 % 8).collect()
        };
        files
            .into_iter()
            .map(|f| Square(rank * 8 + f))
            .find(|&s| self.piece_at(s) == Some((color, ROOK)))
    }
}

/// A chess placement, a1 first: (colour, type) or empty.
pub type Placement = [Option<(Color, u8)>; 64];

/// A chess FEN read into plain data, not yet validated ([`Setup::validate`] makes it a
/// position). Recursion builds its two boards from these (IR-3).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    pub board: Placement,
    pub side: Color,
    /// The rights `KQkq` as bits 0–3 (see `cr`).
    pub castling: u8,
    /// The en-passant square as written (validated against the board).
    pub ep: Option<Square>,
    pub halfmove: u16,
    pub fullmove: u16,
}

/// A piece letter of chess: (colour, type).
pub fn piece_of_letter(ch: char) -> Option<(Color, u8)> {
    LETTERS
        .iter()
        .position(|&l| l == ch.to_ascii_uppercase())
        .map(|pt| (letter_color(ch), pt as u8))
}

/// The castling field: `-` or letters of `KQkq`.
pub fn parse_castling(text: &str) -> Result<u8, FenError> {
    if text == "-" {
        return Ok(0);
    }
    let mut rights = 0;
    for ch in text.chars() {
        let i = ['K', 'Q', 'k', 'q']
            .iter()
            .position(|&l| l == ch)
            .ok_or_else(|| FenError::Castling(text.to_string()))?;
        rights |= 1 << i;
    }
    Ok(rights)
}

/// The castling rights as the FEN writes them: `KQkq` in that order, or `-`.
pub fn castling_text(rights: u8) -> String {
    let s: String = ['K', 'Q', 'k', 'q']
        .iter()
        .enumerate()
        .filter(|(i, _)| rights & (1 << i) != 0)
        .map(|(_, c)| *c)
        .collect();
    if s.is_empty() {
        "-".into()
    } else {
        s
    }
}

impl Setup {
    /// Reads `PLACEMENT [SIDE [CASTLING [EP [HALFMOVE [FULLMOVE]]]]]`; the missing fields are
    /// `w - - 0 1`.
    pub fn parse(fen: &str) -> Result<Setup, FenError> {
        let f = fen::fields(fen)?;
        let field = |i: usize, default: &'static str| f.get(i).copied().unwrap_or(default);
        let ep = field(3, "-");
        let setup = Setup {
            board: Setup::placement(f[0])?,
            side: fen::side(field(1, "w"))?,
            castling: parse_castling(field(2, "-"))?,
            ep: match ep {
                "-" => None,
                _ => Some(
                    Geometry::CHESS
                        .parse_square_exact(ep, RankBase::ONE)
                        .ok_or_else(|| FenError::EnPassant(ep.to_string()))?,
                ),
            },
            halfmove: fen::halfmove(field(4, "0"))?,
            fullmove: fen::fullmove(field(5, "1"))?,
        };
        if let Some(extra) = f.get(6) {
            return Err(FenError::Unexpected(extra.to_string()));
        }
        Ok(setup)
    }

    /// The 8 ranks of 8 squares.
    fn placement(text: &str) -> Result<Placement, FenError> {
        let mut board = [None; 64];
        let ranks = fen::placement_cells(text, 8, 8, |c| piece_of_letter(c).is_some())?;
        for (i, cells) in ranks.iter().enumerate() {
            for (file, ch) in cells.iter().enumerate() {
                board[(7 - i) * 8 + file] = ch.and_then(piece_of_letter);
            }
        }
        Ok(board)
    }

    /// The position, if the setup is one: one king each, no pawn on an end rank, at most 8
    /// pawns and 16 pieces a side, the side not to move not in check, castling rights with
    /// their king and rook at home, an en-passant square behind a pawn that just moved two
    /// (kept only if a pawn can take there), at most two checkers.
    pub fn validate(&self) -> Result<Chess, FenError> {
        let mut pos = Chess::empty();
        for (i, p) in self.board.iter().enumerate() {
            if let Some((color, pt)) = *p {
                pos.put(color, pt, Square(i as u8));
            }
        }
        pos.stm = self.side;
        fen::one_royal_each("kings", |color| pos.pieces(color, KING).count_ones())?;
        if pos.by_type[PAWN as usize] & 0xFF00_0000_0000_00FF != 0 {
            return Err(PositionError::PawnOnBackRank.into());
        }
        for color in Color::BOTH {
            if pos.pieces(color, PAWN).count_ones() > 8 || pos.color_set(color).count_ones() > 16 {
                return Err(PositionError::TooManyPieces { color }.into());
            }
        }
        // The side not to move must not be in check.
        let them = !pos.stm;
        if pos.attacked_by(pos.king_square(them), pos.stm, pos.occupied()) {
            return Err(PositionError::OppositeCheck { side: them }.into());
        }
        for i in 0..4 {
            if self.castling & (1 << i) == 0 {
                continue;
            }
            let (color, side) = (Color::BOTH[i / 2], i % 2);
            let bad = || FenError::Castling(castling_text(self.castling));
            let rsq = pos.find_castle_rook(color, side).ok_or_else(bad)?;
            if castle_squares(pos.king_square(color), rsq).is_none() {
                return Err(bad());
            }
            pos.castling |= 1 << cr(color, side);
            pos.castle_rook[cr(color, side)] = rsq;
        }
        pos.init_castling();
        pos.hash ^= keys().castle[pos.castling as usize];
        if let Some(sq) = self.ep {
            let (ep_rank, victim, start) = match pos.stm {
                Color::White => (5, sq.0.wrapping_sub(8), sq.0 + 8),
                Color::Black => (2, sq.0 + 8, sq.0.wrapping_sub(8)),
            };
            if sq.0 / 8 != ep_rank
                || pos.piece_at(Square(victim)) != Some((them, PAWN))
                || pos.piece_at(sq).is_some()
                || pos.piece_at(Square(start)).is_some()
            {
                return Err(FenError::EnPassant(Chess::square_name(sq, RankBase::ONE)));
            }
            if tables().pawn_attacks[them.index()][sq.index()] & pos.pieces(pos.stm, PAWN) != 0 {
                pos.ep = Some(sq);
                pos.hash ^= keys().ep[(sq.0 % 8) as usize];
            }
        }
        pos.halfmove = self.halfmove;
        pos.fullmove = self.fullmove;
        if pos.stm == Color::Black {
            pos.hash ^= keys().side;
        }
        if pos.checkers().count_ones() > 2 {
            return Err(PositionError::TooManyCheckers.into());
        }
        Ok(pos)
    }
}

pub(super) fn parse(fen: &str) -> Result<Chess, FenError> {
    Setup::parse(fen)?.validate()
}

pub(super) fn write(pos: &Chess) -> String {
    let mut s = crate::core::fen::write_placement(8, 8, |file, rank| {
        pos.piece_at(Square(rank * 8 + file))
            .map(|(c, pt)| fen::colored_letter(LETTERS[pt as usize], c))
    });
    s.push(' ');
    s.push(pos.stm.fen_char());
    s.push(' ');
    s.push_str(&castling_text(pos.castling));
    s.push(' ');
    match pos.ep {
        Some(ep) => s.push_str(&Chess::square_name(ep, RankBase::ONE)),
        None => s.push('-'),
    }
    s.push_str(&format!(" {} {}", pos.halfmove, pos.fullmove));
    s
}
