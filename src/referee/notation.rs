//! The one place where an engine's move text meets the rules.
//!
//! Every move an engine sends goes through [`parse_engine_move`], and every move the referee
//! sends an engine is written by [`engine_move_text`]; FENs for XBoard's `setboard` by
//! [`engine_fen`]. UCI engines get the rules' own text. XBoard engines get what this engine's
//! XBoard side speaks (`xbwire`, docs/xboard.md): the rank numbering of XBoard
//! 4.9.1 (0..9 on 10 ranks; 1.. on 16 ranks, the default `Rank Offset` 0), its spellings of
//! some moves, and Immune Chess mirrored (Invaders as XBoard's White, the board flipped).

use crate::core::{Dialect, Move, MoveError, Protocol};
use crate::variants::AnyPos;
use crate::xbwire;

/// The rules' dialect for a protocol in `pos` (XBoard: as `xbwire` numbers the
/// ranks, with `Rank Offset` 0).
pub fn dialect(pos: &AnyPos, protocol: Protocol) -> Dialect {
    match protocol {
        Protocol::Uci => Dialect::UCI,
        Protocol::Xboard => xbwire::dialect(pos, 0),
    }
}

/// The legal move an engine's text names in `pos`, read in the engine's protocol dialect
/// (passes are `0000` in UCI and `@@@@` in XBoard).
pub fn parse_engine_move(pos: &AnyPos, text: &str, protocol: Protocol) -> Result<Move, MoveError> {
    match protocol {
        Protocol::Uci => pos.parse_move(text.trim(), Dialect::UCI),
        Protocol::Xboard => xbwire::parse_move(pos, text, dialect(pos, protocol)),
    }
}

/// The text of a legal move of `pos` for an engine speaking `protocol`.
pub fn engine_move_text(pos: &AnyPos, m: Move, protocol: Protocol) -> String {
    match protocol {
        Protocol::Uci => pos.move_text(m, Dialect::UCI),
        Protocol::Xboard => xbwire::move_text(pos, m, dialect(pos, protocol)),
    }
}

/// A FEN of the rules as an engine speaking `protocol` is sent it: mirrored for XBoard in a
/// mirrored variant (Immune Chess; `xbwire::fen_from_xboard` is its own inverse).
pub fn engine_fen(kind: crate::variants::VariantKind, fen: &str, protocol: Protocol) -> String {
    match protocol {
        Protocol::Uci => fen.to_string(),
        Protocol::Xboard => xbwire::fen_from_xboard(kind, fen),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::VariantKind;

    #[test]
    fn every_move_reads_back_in_both_protocols() {
        for &kind in VariantKind::ALL {
            let pos = kind.startpos();
            for &m in &pos.legal_moves() {
                for p in [Protocol::Uci, Protocol::Xboard] {
                    let text = engine_move_text(&pos, m, p);
                    assert_eq!(parse_engine_move(&pos, &text, p), Ok(m), "{kind:?} {text}");
                }
            }
        }
        let pos = VariantKind::Chess.startpos();
        assert!(matches!(
            parse_engine_move(&pos, "e2e5", Protocol::Uci),
            Err(MoveError::Illegal(_))
        ));
        assert!(matches!(
            parse_engine_move(&pos, "(none)", Protocol::Uci),
            Err(MoveError::Syntax(_))
        ));
    }

    /// Immune Chess is mirrored for XBoard (docs/xboard.md): the Invaders' first move a3a2 of
    /// the rules (UCI text) is XBoard's a7a8 (ranks numbered 0..9, flipped), and a FEN goes
    /// out upside down with the colours and the side to move swapped.
    #[test]
    fn immune_is_mirrored_for_xboard() {
        let kind = VariantKind::Immune;
        let pos = kind.startpos();
        let m = parse_engine_move(&pos, "a3a2", Protocol::Uci).unwrap();
        assert_eq!(engine_move_text(&pos, m, Protocol::Xboard), "a7a8");
        assert_eq!(parse_engine_move(&pos, "a7a8", Protocol::Xboard), Ok(m));
        assert!(parse_engine_move(&pos, "a3a2", Protocol::Xboard).is_err());
        let fen = pos.fen();
        let xb = engine_fen(kind, &fen, Protocol::Xboard);
        assert!(xb.starts_with("benhoohneb/atlmcdslta/IIIIIIIIII/IIIIIIIIII/IIIIIIIIII/IIIIIIIIII/IIIIIIIIII/IIIIIIIIII/IIIIIIIIII/10 w"), "{xb}");
        assert_eq!(engine_fen(kind, &xb, Protocol::Xboard), fen);
        assert_eq!(engine_fen(kind, &fen, Protocol::Uci), fen);
    }
}
