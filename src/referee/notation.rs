//! The one place where an engine's move text meets the rules.
//!
//! Every move an engine sends goes through [`parse_engine_move`], and every move the referee
//! sends an engine is written by [`engine_move_text`]. The XBoard spelling of the variants
//! (rank numbering on 10- and 16-rank boards) may change: adapt these two functions, nothing
//! else in the referee reads or writes moves.

use crate::core::{Dialect, Move, MoveError, Protocol};
use crate::protocol::game::AnyPos;

/// The rules' dialect for a protocol.
pub fn dialect(protocol: Protocol) -> Dialect {
    match protocol {
        Protocol::Uci => Dialect::UCI,
        Protocol::Xboard => Dialect::XBOARD,
    }
}

/// The legal move an engine's text names in `pos`, read in the engine's protocol dialect
/// (passes are `0000` in UCI and `@@@@` in XBoard).
pub fn parse_engine_move(pos: &AnyPos, text: &str, protocol: Protocol) -> Result<Move, MoveError> {
    pos.parse_move(text.trim(), dialect(protocol))
}

/// The text of a legal move of `pos` for an engine speaking `protocol`.
pub fn engine_move_text(pos: &AnyPos, m: Move, protocol: Protocol) -> String {
    pos.move_text(m, dialect(protocol))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::game::VariantKind;

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
}
