//! The variant registry: which variants exist, and the one dispatch over them.
//!
//! Every variant is listed exactly once, in the [`define_variants!`] invocation below. That one
//! line creates the [`AnyPos`] arm, the [`VariantKind`] arm, both protocol names and the arm of
//! the [`with_pos!`] dispatch macro, so no room above the rules names a concrete variant type.

use crate::core::Variant;
use crate::core::{Color, Dialect, FenError, Move, MoveError, MoveList, Outcome};

/// Generates [`AnyPos`], [`VariantKind`] and the [`with_pos!`] macro from one list.
///
/// The first token is a literal `$`, handed down so that the generated macro can have
/// metavariables of its own.
macro_rules! define_variants {
    ($d:tt $( $arm:ident => $ty:ty, xboard: $xb:literal; )+) => {
        /// A position of any variant, monomorphised: one arm per variant. (A game holds one;
        /// boxing the big 16×16 arm would only add an indirection to every call.)
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone)]
        pub enum AnyPos {
            $( $arm($ty), )+
        }

        /// The variants this engine plays.
        #[derive(Copy, Clone, PartialEq, Eq, Debug)]
        pub enum VariantKind {
            $( $arm, )+
        }

        impl VariantKind {
            /// Every variant, in the order the protocols list them.
            pub const ALL: &'static [VariantKind] = &[ $( VariantKind::$arm, )+ ];

            /// The name in UCI (`UCI_Variant`), on the command line and in `d` output.
            pub fn name(self) -> &'static str {
                match self { $( VariantKind::$arm => <$ty as Variant>::NAME, )+ }
            }

            /// The name in XBoard's `variants=` feature and `variant` command.
            pub fn xboard_name(self) -> &'static str {
                match self { $( VariantKind::$arm => $xb, )+ }
            }

            /// The side that moves first, whose move opens a numbered pair.
            pub fn first_mover(self) -> Color {
                match self { $( VariantKind::$arm => <$ty as Variant>::FIRST_MOVER, )+ }
            }

            /// Whether the variant has a notation of its own besides coordinates.
            pub fn has_own_notation(self) -> bool {
                match self { $( VariantKind::$arm => <$ty as Variant>::OWN_NOTATION, )+ }
            }

            /// Whether the variant has castling, and so a castling field in its standard FEN.
            pub fn castling(self) -> bool {
                match self { $( VariantKind::$arm => <$ty as Variant>::CASTLING, )+ }
            }

            pub fn startpos(self) -> AnyPos {
                match self { $( VariantKind::$arm => AnyPos::$arm(<$ty as Variant>::startpos()), )+ }
            }

            pub fn from_fen(self, fen: &str) -> Result<AnyPos, FenError> {
                match self { $( VariantKind::$arm => <$ty as Variant>::from_fen(fen).map(AnyPos::$arm), )+ }
            }
        }

        impl AnyPos {
            pub fn kind(&self) -> VariantKind {
                match self { $( AnyPos::$arm(_) => VariantKind::$arm, )+ }
            }
        }

        /// Runs `body` with `p` bound to the concrete position inside an [`AnyPos`] (by value,
        /// `&` or `&mut`, as the scrutinee is given).
        macro_rules! with_pos {
            ($d pos:expr, |$d p:ident| $d body:expr) => {
                match $d pos {
                    $( $crate::variants::AnyPos::$arm($d p) => $d body, )+
                }
            };
        }
        pub(crate) use with_pos;
    };
}

// One line per variant: arm name => type, the XBoard name (the UCI name is `Variant::NAME`).
define_variants! { $
    Chess => crate::variants::chess::Chess, xboard: "normal";
    Recursion => crate::variants::recursion::Recursion, xboard: "recursion";
    Microorganism => crate::variants::micro::Micro, xboard: "microorganism";
    Immune => crate::variants::immune::Immune, xboard: "immune";
}

impl VariantKind {
    /// Looks a variant up by either protocol's name, ignoring case.
    pub fn from_name(name: &str) -> Option<VariantKind> {
        let name = name.trim();
        VariantKind::ALL.iter().copied().find(|k| {
            k.name().eq_ignore_ascii_case(name) || k.xboard_name().eq_ignore_ascii_case(name)
        })
    }
}

impl std::fmt::Debug for AnyPos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "AnyPos({}: {})", self.kind().name(), self.fen())
    }
}

impl AnyPos {
    /// A legal move in the variant's own notation, if it has one.
    pub fn own_text(&self, m: Move) -> Option<String> {
        with_pos!(self, |p| p.own_text(m))
    }
    /// The legal moves a text in the variant's own notation names.
    pub fn own_matches(&self, text: &str) -> Option<Vec<Move>> {
        with_pos!(self, |p| p.own_matches(text))
    }
    pub fn fen(&self) -> String {
        with_pos!(self, |p| p.fen())
    }
    pub fn side_to_move(&self) -> Color {
        with_pos!(self, |p| p.side_to_move())
    }
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        with_pos!(self, |p| p.legal_moves(&mut list));
        list
    }
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }
    /// The text of a legal move.
    pub fn move_text(&self, m: Move, dialect: Dialect) -> String {
        with_pos!(self, |p| p.move_text(m, dialect))
    }
    pub fn parse_move(&self, text: &str, dialect: Dialect) -> Result<Move, MoveError> {
        with_pos!(self, |p| p.parse_move(text, dialect))
    }
    /// Makes a move the caller has checked to be legal.
    pub fn make_move(&mut self, m: Move) {
        with_pos!(self, |p| p.make_move(m))
    }
    pub fn unmake_move(&mut self) {
        with_pos!(self, |p| p.unmake_move())
    }
    pub fn outcome(&self) -> Option<Outcome> {
        with_pos!(self, |p| p.outcome())
    }
    /// Whether a legal move is a capture, shot or promotion ([`Variant::is_tactical`]).
    pub fn is_tactical(&self, m: Move) -> bool {
        with_pos!(self, |p| p.is_tactical(m))
    }
    pub fn display(&self) -> String {
        with_pos!(self, |p| p.display())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_both_ways() {
        assert_eq!(VariantKind::from_name("chess"), Some(VariantKind::Chess));
        assert_eq!(VariantKind::from_name("normal"), Some(VariantKind::Chess));
        assert_eq!(VariantKind::from_name("Normal"), Some(VariantKind::Chess));
        assert_eq!(VariantKind::from_name("shogi"), None);
        assert_eq!(VariantKind::Chess.name(), "chess");
        assert_eq!(VariantKind::Chess.xboard_name(), "normal");
    }
}
