//! Why a FEN was refused, by kind: a field that does not read ([`BoardError`] for the
//! placement, [`StateError`] for a variant's hidden-state field) or a setup that reads but is
//! no position ([`PositionError`]). The texts are the ones the protocols reply with.

use thiserror::Error;

use super::color::Color;

/// Why a FEN was refused.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum FenError {
    #[error("empty FEN")]
    Empty,
    #[error("bad board: {0}")]
    Board(BoardError),
    #[error("bad side to move: {0:?}")]
    Side(String),
    #[error("bad castling field: {0:?}")]
    Castling(String),
    #[error("bad en-passant field: {0:?}")]
    EnPassant(String),
    #[error("bad move counter: {0:?}")]
    Counter(String),
    /// Too few or too many fields; `expected` says which there should be.
    #[error("bad field: {found} fields, {expected}")]
    FieldCount {
        found: usize,
        expected: &'static str,
    },
    /// A field after the last one.
    #[error("bad field: unexpected {0:?}")]
    Unexpected(String),
    #[error("bad field: {0}")]
    State(StateError),
    #[error("impossible position: {0}")]
    Impossible(PositionError),
}

impl From<BoardError> for FenError {
    fn from(e: BoardError) -> FenError {
        FenError::Board(e)
    }
}
impl From<StateError> for FenError {
    fn from(e: StateError) -> FenError {
        FenError::State(e)
    }
}
impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Impossible(e)
    }
}

/// Why a placement field does not read. Ranks are counted from 1.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum BoardError {
    #[error("unknown piece {0:?}")]
    UnknownPiece(char),
    #[error("{found} ranks, expected {expected}")]
    RankCount { found: usize, expected: usize },
    #[error("rank {rank} too long")]
    RankTooLong { rank: usize },
    #[error("rank {rank} has {found} squares, expected {expected}")]
    RankLength {
        rank: usize,
        found: usize,
        expected: usize,
    },
    /// On a board of any size up to `max` × `max` (Immune, IM-1).
    #[error("rank {rank} longer than {max} squares: the board may be at most {max}×{max}")]
    RankTooWide { rank: usize, max: usize },
    #[error("{found} ranks: the board may be at most {max}×{max}")]
    TooManyRanks { found: usize, max: usize },
    #[error("empty-square count 0 on rank {rank}")]
    ZeroRun { rank: usize },
    #[error("bad number on rank {rank}")]
    BadNumber { rank: usize },
    #[error("empty rank")]
    EmptyRank,
    /// A rank of another length than the top one (`top`, of `width` squares).
    #[error("rank {rank} has {found} squares, rank {top} has {width}")]
    UnevenRanks {
        rank: usize,
        found: usize,
        top: usize,
        width: usize,
    },
    #[error("bad size {width}x{height}")]
    BadSize { width: usize, height: usize },
}

/// Why a hidden-state field does not read: Microorganism's state items, Immune's Dendritic
/// counts, Recursion's board states.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum StateError {
    #[error("state item {0:?}")]
    Item(String),
    #[error("{square}: a second state item")]
    SecondItem { square: String },
    #[error("state for the empty square {square}")]
    EmptySquare { square: String },
    #[error("{square}: {attribute:?} given twice")]
    Repeated { square: String, attribute: String },
    #[error("state attribute {0:?}")]
    Attribute(String),
    #[error("absorbed power {0:?}")]
    AbsorbedPower(char),
    #[error("piece {0:?}")]
    Piece(String),
    #[error("square {0:?}")]
    Square(String),
    #[error("infection {0:?}")]
    Infection(String),
    #[error("infection wait {0:?}")]
    InfectionWait(String),
    #[error("dendritic count {item:?}: {problem}")]
    DendriticCount { item: String, problem: CountProblem },
    #[error("board to play {0:?}: expected a, b or -")]
    BoardToPlay(String),
    #[error("board {board} state {text:?}: expected side:castling:ep:halfmove:result:mega")]
    BoardState { board: char, text: String },
    #[error("board {board} result {text:?}")]
    BoardResult { board: char, text: String },
    #[error("board {board} mega-knight state {text:?}")]
    MegaState { board: char, text: String },
}

/// What is wrong with one of Immune's Dendritic counts (`square:n`, IM-5).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Error)]
pub enum CountProblem {
    #[error("not sq:n")]
    NotSquareCount,
    #[error("bad square")]
    BadSquare,
    #[error("bad number")]
    BadNumber,
    /// At `limit` captures the cell leaves, so a count is below it.
    #[error("more than {} (it leaves at its {limit}th capture)", .limit - 1)]
    TooMany { limit: u8 },
    #[error("no Dendritic cell there")]
    NoDendritic,
    #[error("square given twice")]
    Twice,
}

/// Why a setup that reads is no position of its variant. Squares are named as the variant
/// names them.
#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum PositionError {
    /// Not exactly one royal piece (`royal`: `kings`, `Neurons`).
    #[error("{} has {count} {royal}", .color.name())]
    RoyalCount {
        color: Color,
        count: u32,
        royal: &'static str,
    },
    #[error("pawn on the first or last rank")]
    PawnOnBackRank,
    #[error("too many {} pieces", .color.name())]
    TooManyPieces { color: Color },
    /// The side not to move (`side`) is in check.
    #[error("{} is in check but it is {}'s move", .side.name(), (!*.side).name())]
    OppositeCheck { side: Color },
    #[error("more than two checkers")]
    TooManyCheckers,
    /// A chess board of Recursion (`A` or `B`) that is no chess position.
    #[error("board {board}: {error}")]
    OnBoard {
        board: char,
        error: Box<PositionError>,
    },
    /// A mark (Recursion's mega-knight, IR-4) on a square without a piece of its colour.
    #[error("no {} piece on {square} to mark", .color.name())]
    NoPieceToMark { color: Color, square: String },
    #[error("a {} mega-knight on board {board} (only {}'s may stand there)", .color.name(), (!*.color).name())]
    WrongMegaOwner { color: Color, board: char },
    #[error("two mega-knights on board {board}")]
    TwoMegaKnights { board: char },
    #[error("board {board} is over but its result is *")]
    UnmarkedResult { board: char },
    #[error("board {board} result {result} contradicts the position")]
    WrongResult { board: char, result: &'static str },
    #[error("the mega-knight on board {board} is {state} while board {other} is still going")]
    MegaTooEarly {
        board: char,
        state: &'static str,
        other: char,
    },
    #[error("the mega-knight on board {board} is {state} but board {other} ended {result}")]
    MegaContradicts {
        board: char,
        state: &'static str,
        other: char,
        result: &'static str,
    },
    #[error("the mega-knight on board {board} is still Neutral")]
    MegaStillNeutral { board: char },
    /// The board to play (`None`: a pass) is not the one the turn order gives (IR-5).
    #[error("{} cannot play {} here (IR-5)", .color.name(), board_to_play(*.board))]
    WrongBoardToPlay { color: Color, board: Option<char> },
    /// `at`: a square, or a piece with its powers.
    #[error("{at}: only a Bacterium absorbs")]
    NotAbsorber { at: String },
    #[error("{square}: a rider is a Prion or a Bacterium")]
    BadRider { square: String },
    #[error("{square}: only a Virus or a Bacterium infects")]
    BadInfector { square: String },
    #[error("{square}: infected by its own side")]
    SelfInfection { square: String },
    #[error("too many infections")]
    TooManyInfections,
    #[error("{square}: not a valid expanded pair with {partner}")]
    BadExpandedPair { square: String, partner: String },
    #[error("{square}: cannot be a wall member")]
    BadWallMember { square: String },
    #[error("{square}: a wall member with no wall member of its side beside it")]
    LoneWallMember { square: String },
    #[error("{square}: cannot carry a rider")]
    CannotCarryRider { square: String },
    #[error("{square}: a Neuron is never infected")]
    InfectedNeuron { square: String },
    #[error("{square}: red blood cell on an end rank")]
    RbcOnEndRank { square: String },
    /// Black has only Invaders, White only immune cells (IM-4).
    #[error("{} {piece} on {square}: White has only immune cells, Black only Invaders", .color.name())]
    WrongOwner {
        color: Color,
        piece: &'static str,
        square: String,
    },
    #[error("{piece} on {square} stands in its promotion zone")]
    InPromotionZone { piece: &'static str, square: String },
}

fn board_to_play(board: Option<char>) -> String {
    match board {
        Some(b) => format!("on board {b}"),
        None => "a pass".to_string(),
    }
}
