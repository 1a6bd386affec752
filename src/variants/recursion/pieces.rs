//! The mega-knight (IR-2, IR-4): a chess knight that Recursion marks on its board
//! ([`crate::variants::chess::Mark`]) with the powers of its state. The chess generator reads
//! those powers; the states, their letters and names, and the `M` of FEN and pictures live here.

use crate::core::Powers;

/// The letter of a mega-knight in FEN and pictures (`M` White's, `m` Black's).
pub const MEGA_LETTER: char = 'M';
/// Its name in pictures.
pub const MEGA_NAME: &str = "Mega-knight";

/// The state of a mega-knight (IR-4): what its own sub-game's result allows it.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum MegaState {
    /// Its sub-game is still going: moves without capturing, cannot be captured.
    Neutral,
    /// Its owner won its sub-game: a normal knight.
    Armed,
    /// Its sub-game was drawn: moves without capturing, can be captured.
    Disarmed,
    /// Its owner lost its sub-game: cannot move, can be captured.
    Frozen,
}

impl MegaState {
    pub const ALL: [MegaState; 4] = [
        MegaState::Neutral,
        MegaState::Armed,
        MegaState::Disarmed,
        MegaState::Frozen,
    ];
    /// The powers the state gives the knight's mark (IR-4; in every state it still attacks its
    /// squares and gives check).
    pub const fn powers(self) -> Powers {
        match self {
            MegaState::Neutral => Powers::UNCAPTURABLE.union(Powers::NO_CAPTURE),
            MegaState::Armed => Powers::NONE,
            MegaState::Disarmed => Powers::NO_CAPTURE,
            MegaState::Frozen => Powers::NO_MOVE,
        }
    }
    /// The FEN letter: `n`, `a`, `d`, `f`.
    pub fn letter(self) -> char {
        match self {
            MegaState::Neutral => 'n',
            MegaState::Armed => 'a',
            MegaState::Disarmed => 'd',
            MegaState::Frozen => 'f',
        }
    }
    pub fn from_letter(c: char) -> Option<MegaState> {
        MegaState::ALL.into_iter().find(|s| s.letter() == c)
    }
    pub fn name(self) -> &'static str {
        match self {
            MegaState::Neutral => "Neutral",
            MegaState::Armed => "Armed",
            MegaState::Disarmed => "Disarmed",
            MegaState::Frozen => "Frozen",
        }
    }
}
