//! A structured, variant-generic description of a position: what a board picture needs to
//! show, hidden state included, without knowing how any variant stores it.
//!
//! [`Variant::describe`](super::Variant::describe) returns a [`PositionView`]: the board size,
//! every occupied square with its piece and *badges* (the hidden state that belongs to the
//! square: an infection and its hatch countdown, a rider, wall membership, the other cell of an
//! expanded amoeba, a bacterium's absorbed powers, a Dendritic capture count, a mega-knight's
//! state), the pieces off the board, and the sub-boards of a composite board (Infinite
//! Recursion's two games). Nothing here knows about protocols or a GUI.

use super::Color;

/// One piece as a picture names it: its FEN letter (upper case for White) and its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceView {
    /// The FEN letter, upper case for White, lower case for Black.
    pub letter: char,
    pub color: Color,
    /// The piece type's name (`Knight`, `Virus`, `Dendritic cell` …).
    pub name: &'static str,
}

/// Hidden state shown on a square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Badge {
    /// The piece is infected (MC-11) by `carrier` (a Virus, or a Bacterium with its powers,
    /// whose absorbed letters are `carrier_powers`); the hatch is due after `wait` more turns
    /// of the carrier's owner (0: due now).
    Infected {
        carrier: PieceView,
        carrier_powers: String,
        wait: u8,
    },
    /// A rider (a Prion, or a Bacterium with its power, MC-12) sits on this piece.
    Rider { rider: PieceView, powers: String },
    /// A member of a platelet wall (MC-10).
    Wall,
    /// One cell of an expanded piece (MC-8); `partner` is the other cell's name.
    Expanded { partner: String },
    /// A Bacterium's absorbed powers (MC-7): the FEN letters of the types it ate.
    Powers { letters: String },
    /// A capture count with its limit (Immune Chess's Dendritic cell, IM-4).
    Captures { count: u8, limit: u8 },
    /// A mega-knight (IR-4) in the named state (`armed`, `disarmed`, `frozen`, `normal`).
    Mega { state: &'static str },
}

/// One occupied square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareView {
    /// The square's name in the variant's usual coordinates (ranks from 1).
    pub square: String,
    /// File and rank from the bottom-left corner, 0-based.
    pub file: u8,
    pub rank: u8,
    pub piece: PieceView,
    pub badges: Vec<Badge>,
}

/// A piece off the board (a Virus inside an infected piece, waiting to hatch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldView {
    pub piece: PieceView,
    /// Where it is kept, in words (`inside e5`).
    pub note: String,
}

/// A part of a composite board (Infinite Recursion's boards A and B): files
/// `first_file ..= last_file` of the whole picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubBoardView {
    pub name: String,
    pub first_file: u8,
    pub last_file: u8,
    /// The side to move on this board.
    pub side_to_move: Color,
    /// The board's result (`1-0`, `0-1`, `1/2`) or `*` while it is played.
    pub result: String,
    /// Whether the next ply is played here.
    pub active: bool,
    /// A line of text on what else matters (whose mega-knight stands here, its state).
    pub note: String,
}

/// Everything a picture of the position shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionView {
    pub width: u8,
    pub height: u8,
    pub side_to_move: Color,
    /// Occupied squares, in square order (a1, b1, … by rank then file).
    pub squares: Vec<SquareView>,
    pub held: Vec<HeldView>,
    pub boards: Vec<SubBoardView>,
    /// Further lines of state in words (counts, clocks).
    pub notes: Vec<String>,
}

impl PositionView {
    /// The view of the named square, if occupied.
    pub fn at(&self, square: &str) -> Option<&SquareView> {
        self.squares.iter().find(|s| s.square == square)
    }
}
