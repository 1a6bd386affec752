//! Games as text: reading a list of moves in coordinates or in Immune Chess's own notation
//! (IM-7), replaying them, and writing them again in either notation — the library side of
//! `cellmate notation`.
//!
//! Input ([`read`]): moves separated by white space or line breaks. Tolerated around them:
//! move numbers (`1.`, `12...`, also glued to a move: `1.e2e4`), a result (`1-0`, `0-1`,
//! `1/2-1/2`, `*`) as the last word, PGN tag lines (`[Name "value"]`, a whole line), comments
//! in braces `{…}` (may span lines) and from `;` to the end of the line. So a PGN this module
//! wrote reads back.
//!
//! Every move is read on the position it is played in, with the variant's own reader: in
//! coordinates (`e2e4`, a shot `e2e7,e7e2`, a promotion `e8e9m`) in the chosen [`Dialect`],
//! and for Immune Chess also in the seed's notation (`M-e4`, `B+e9`, …). Output ([`write`]) is
//! replayed the same way, so a file or rank is added exactly where the seed's rule needs one.

use std::fmt;

use crate::core::{Dialect, Move, MoveError, Protocol, RankBase};
use crate::variants::{AnyPos, VariantKind};

/// The notation a game is written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Notation {
    /// Coordinates as the protocols write them, in a dialect (rank numbering, pass spelling).
    Coords(Dialect),
    /// The inventor's notation of Immune Chess (IM-7): `M-e4`, `M[e5`, `B+e9`, `MO-e9^`,
    /// `D[f6*`. Only for Immune Chess.
    Seed,
}

/// The coordinate dialect of the `notation` command: UCI's (ranks from 1), or with `xboard`
/// XBoard's, which numbers the ranks of a board of 10 or more ranks from 0 (`a0` … `j9`).
pub fn coords_dialect(kind: VariantKind, xboard: bool) -> Dialect {
    if !xboard {
        return Dialect::UCI;
    }
    let height = crate::variants::with_pos!(kind.startpos(), |p| {
        crate::core::Variant::geometry(&p).height
    });
    Dialect {
        protocol: Protocol::Xboard,
        rank_base: if height >= 10 {
            RankBase::ZERO
        } else {
            RankBase::ONE
        },
    }
}

/// What went wrong reading a game: where (line from 1, move from 1; 0 if none) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError {
    pub line: usize,
    pub move_number: usize,
    /// The offending text (a move, a FEN, a comment).
    pub text: String,
    pub reason: String,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: ", self.line)?;
        }
        if self.move_number > 0 {
            write!(f, "move {} ", self.move_number)?;
        }
        write!(f, "{:?}: {}", self.text, self.reason)
    }
}

impl std::error::Error for NotationError {}

/// One word of the input and the line it is on (from 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    pub line: usize,
    pub text: String,
}

/// The input split into its parts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameText {
    /// PGN tags, in input order.
    pub tags: Vec<(String, String)>,
    /// The move texts.
    pub moves: Vec<Word>,
    /// The result word, if the text ended with one.
    pub result: Option<String>,
}

impl GameText {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Reads a PGN tag line `[Name "value"]`.
fn tag_line(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            value.push(chars.next()?);
        } else if c == '"' {
            return None;
        } else {
            value.push(c);
        }
    }
    Some((name.to_string(), value))
}

/// The games of a PGN file: each starts at an `[Event` tag line.
pub fn split_games(pgn: &str) -> Vec<String> {
    let mut games: Vec<String> = Vec::new();
    for line in pgn.lines() {
        if line.trim_start().starts_with("[Event ") || games.is_empty() {
            games.push(String::new());
        }
        let g = games.last_mut().expect("pushed above");
        g.push_str(line);
        g.push('\n');
    }
    games.retain(|g| g.lines().any(|l| !l.trim().is_empty()));
    games
}

/// Splits the input into tags, move words and a result (see the module documentation).
pub fn split(input: &str) -> Result<GameText, NotationError> {
    let mut out = GameText::default();
    let mut comment_from: Option<usize> = None;
    for (i, raw) in input.lines().enumerate() {
        let line_no = i + 1;
        if comment_from.is_none() {
            let trimmed = raw.trim();
            if trimmed.starts_with('[') && trimmed.ends_with(']') {
                if let Some(tag) = tag_line(trimmed) {
                    out.tags.push(tag);
                    continue;
                }
            }
        }
        // Remove comments, keeping what is outside them.
        let mut text = String::new();
        for c in raw.chars() {
            if comment_from.is_some() {
                if c == '}' {
                    comment_from = None;
                }
                continue;
            }
            match c {
                '{' => {
                    comment_from = Some(line_no);
                    text.push(' ');
                }
                ';' => break,
                _ => text.push(c),
            }
        }
        for word in text.split_whitespace() {
            if let Some(r) = &out.result {
                return Err(NotationError {
                    line: line_no,
                    move_number: 0,
                    text: word.to_string(),
                    reason: format!("text after the result {r}"),
                });
            }
            if RESULTS.contains(&word) {
                out.result = Some(word.to_string());
                continue;
            }
            // A move number, alone or glued to the move: `12.`, `12...`, `12.e2e4`.
            let digits = word.bytes().take_while(u8::is_ascii_digit).count();
            let dots = word[digits..].bytes().take_while(|&b| b == b'.').count();
            let rest = if digits > 0 && dots > 0 {
                &word[digits + dots..]
            } else {
                word
            };
            if !rest.is_empty() {
                out.moves.push(Word {
                    line: line_no,
                    text: rest.to_string(),
                });
            }
        }
    }
    if let Some(line) = comment_from {
        return Err(NotationError {
            line,
            move_number: 0,
            text: "{".into(),
            reason: "comment not closed with }".into(),
        });
    }
    Ok(out)
}

/// The start position: `fen`, or the variant's start.
pub fn start_position(kind: VariantKind, fen: Option<&str>) -> Result<AnyPos, NotationError> {
    match fen {
        None => Ok(kind.startpos()),
        Some(f) => kind.from_fen(f).map_err(|e| NotationError {
            line: 0,
            move_number: 0,
            text: f.to_string(),
            reason: format!("invalid {} FEN: {e}", kind.name()),
        }),
    }
}

/// The text of a legal move of `pos` in a notation. [`Notation::Seed`] in a variant other than
/// Immune Chess gives UCI coordinates.
pub fn move_text(pos: &AnyPos, m: Move, notation: Notation) -> String {
    match (notation, pos) {
        (Notation::Seed, _) => pos
            .own_text(m)
            .unwrap_or_else(|| pos.move_text(m, Dialect::UCI)),
        (Notation::Coords(d), _) => pos.move_text(m, d),
    }
}

/// Why a move text was refused, in words, with the candidates when the seed's notation named
/// more than one move.
fn why(pos: &AnyPos, text: &str, err: &MoveError) -> String {
    if let Some(o) = pos.outcome() {
        if pos.legal_moves().is_empty() {
            let reason = match &o {
                crate::core::Outcome::Win { reason, .. } => reason,
                crate::core::Outcome::Draw { reason } => reason,
            };
            return format!("the game is over ({}: {reason})", o.score());
        }
    }
    let side = pos.side_to_move().name();
    if let Some(found) = pos.own_matches(text) {
        return match found.len() {
            0 => format!("no legal move of {side} fits it"),
            _ => format!(
                "ambiguous: it could be {} (add the mover's file, or its rank)",
                found
                    .iter()
                    .filter_map(|&m| pos.own_text(m))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        };
    }
    match err {
        MoveError::Syntax(_) => "not a move".into(),
        MoveError::Illegal(_) => format!("not a legal move of {side} here"),
    }
}

/// Replays `words` from `start`; returns the moves. A word that is not a legal move stops it
/// with an error naming its line, its place in the game and the reason.
pub fn read(start: &AnyPos, words: &[Word], dialect: Dialect) -> Result<Vec<Move>, NotationError> {
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        match pos.parse_move(&w.text, dialect) {
            Ok(m) => {
                pos.make_move(m);
                moves.push(m);
            }
            Err(e) => {
                return Err(NotationError {
                    line: w.line,
                    move_number: i + 1,
                    text: w.text.clone(),
                    reason: format!("{} (position: {})", why(&pos, &w.text, &e), pos.fen()),
                })
            }
        }
    }
    Ok(moves)
}

/// Writes the legal game `moves` from `start` in a notation, replaying it.
pub fn write(start: &AnyPos, moves: &[Move], notation: Notation) -> Vec<String> {
    let mut pos = start.clone();
    moves
        .iter()
        .map(|&m| {
            let t = move_text(&pos, m, notation);
            pos.make_move(m);
            t
        })
        .collect()
}

/// A game read and written again.
#[derive(Clone, Debug)]
pub struct Converted {
    pub kind: VariantKind,
    /// The start FEN when the game did not start from the variant's start position.
    pub start_fen: Option<String>,
    /// The moves in the notation asked for.
    pub moves: Vec<String>,
    /// The input's tags (PGN input), in order.
    pub tags: Vec<(String, String)>,
    /// The result: the input's, else the rules' verdict on the last position, else `*`.
    pub result: String,
}

impl Converted {
    /// One move a line.
    pub fn lines(&self) -> String {
        self.moves.iter().map(|m| format!("{m}\n")).collect()
    }

    /// One numbered pair a line (`1. I-e7 M-e4`), numbered as in [`crate::pgn`].
    pub fn numbered(&self) -> String {
        let n = crate::pgn::numbering(self.kind.name(), self.start_fen.as_deref());
        crate::pgn::numbered_pairs(&self.moves, n)
            .iter()
            .map(|l| format!("{l}\n"))
            .collect()
    }

    /// The game as PGN, with the input's tags.
    pub fn pgn(&self) -> String {
        crate::pgn::write(
            self.kind.name(),
            &self.tags,
            self.start_fen.as_deref(),
            &self.moves,
            &self.result,
        )
    }
}

/// Reads a game of `kind` (from `fen`, else the input's `FEN` tag, else the start position),
/// moves in coordinates of `dialect` or (Immune Chess) the seed's notation, and writes it in
/// `to`.
pub fn convert(
    kind: VariantKind,
    fen: Option<&str>,
    input: &str,
    dialect: Dialect,
    to: Notation,
) -> Result<Converted, NotationError> {
    if to == Notation::Seed && !kind.has_own_notation() {
        return Err(NotationError {
            line: 0,
            move_number: 0,
            text: kind.name().into(),
            reason: "the inventor's notation exists only for Immune Chess (immune)".into(),
        });
    }
    let text = split(input)?;
    let fen = fen.or(text.tag("FEN"));
    let start = start_position(kind, fen)?;
    let moves = read(&start, &text.moves, dialect)?;
    let written = write(&start, &moves, to);
    let result = match &text.result {
        Some(r) => r.clone(),
        None => {
            let mut end = start.clone();
            for &m in &moves {
                end.make_move(m);
            }
            end.outcome()
                .map(|o| o.score().to_string())
                .unwrap_or_else(|| "*".into())
        }
    };
    Ok(Converted {
        kind,
        start_fen: fen.map(|_| start.fen()),
        moves: written,
        tags: text.tags,
        result,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_skips_numbers_tags_comments_and_the_result() {
        let t = split(
            "[Event \"x \\\"y\\\"\"]\n[FEN \"8/8 w\"]\n1. e2e4 {a\ncomment} e7e5 ; rest\n2.g1f3 3... b8c6\n1/2-1/2\n",
        )
        .unwrap();
        assert_eq!(
            t.tags,
            vec![
                ("Event".to_string(), "x \"y\"".to_string()),
                ("FEN".to_string(), "8/8 w".to_string())
            ]
        );
        let words: Vec<(usize, &str)> = t.moves.iter().map(|w| (w.line, w.text.as_str())).collect();
        assert_eq!(
            words,
            vec![(3, "e2e4"), (4, "e7e5"), (5, "g1f3"), (5, "b8c6")]
        );
        assert_eq!(t.result.as_deref(), Some("1/2-1/2"));
        // Seed captures are moves, not tags; a bare `[e7` line is not a tag either.
        let t = split("M[e5\n[e7\nD[f6*\n").unwrap();
        assert!(t.tags.is_empty());
        assert_eq!(t.moves.len(), 3);
        assert_eq!(t.result, None);
    }

    #[test]
    fn split_refuses_text_after_the_result_and_open_comments() {
        let e = split("e2e4 1-0\ne7e5").unwrap_err();
        assert_eq!((e.line, e.text.as_str()), (2, "e7e5"));
        let e = split("e2e4\n{ never closed\n").unwrap_err();
        assert_eq!(e.line, 2);
    }

    #[test]
    fn xboard_dialect_counts_from_zero_on_ten_ranks_only() {
        assert_eq!(
            coords_dialect(VariantKind::Immune, true).rank_base,
            RankBase::ZERO
        );
        assert_eq!(
            coords_dialect(VariantKind::Chess, true).rank_base,
            RankBase::ONE
        );
        assert_eq!(coords_dialect(VariantKind::Immune, false), Dialect::UCI);
    }
}
