//! Writing a game as PGN (Portable Game Notation), for any variant.
//!
//! One call, [`write`], takes plain text (the moves already written in whatever notation the
//! caller wants: coordinates for GUIs, the inventor's notation for Immune Chess forum games) so
//! that anything holding a finished game — the `notation` command, a match runner — can write
//! it without a position type:
//!
//! ```
//! use cellmate::pgn;
//! let tags = vec![("White".to_string(), "cellmate".to_string())];
//! let moves = vec!["e2e4".to_string(), "e7e5".to_string()];
//! let text = pgn::write("chess", &tags, None, &moves, "*");
//! assert!(text.contains("[White \"cellmate\"]"));
//! assert!(text.ends_with("1. e2e4 e7e5 *\n"));
//! ```
//!
//! What is written:
//!
//! - the Seven Tag Roster (`Event`, `Site`, `Date`, `Round`, `White`, `Black`, `Result`), each
//!   from the caller's tags or the PGN placeholder (`?`, `????.??.??`), then `Variant` (the
//!   variant's XBoard name, left out for chess), then the caller's other tags in their order,
//!   then `SetUp "1"` and `FEN` when a start position is given. `Result` is always the `result`
//!   argument; caller tags named `Variant`, `SetUp`, `FEN` or `Result` are ignored.
//! - the move text, wrapped before 80 columns, ending with the result.
//!
//! **Move numbers.** A number counts pairs of moves, as the variant's own full-move counter
//! does (the last number of its FEN): in chess a pair is White's move then Black's; in Immune
//! Chess Black moves first (IM-3) and a pair is Black's move then White's, so a game from the
//! start reads `1. I-e7 M-e4 2. …`. A number is written before the first move of each pair;
//! when the text starts with the second move of a pair, it gets `N...` (`5... M-e4 6. …`).
//! The first number and who moves first are read from the start FEN (its second field is the
//! side to move, its last number the full-move counter); with no FEN, the variant's start
//! position is assumed (pair opener to move, number 1).

use crate::core::Color;
use crate::variants::VariantKind;

/// How a game's moves are numbered (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Numbering {
    /// The number of the pair the first move belongs to.
    pub first: u32,
    /// Whether the first move opens its pair (`1. x`) or is the second move of it (`1... x`).
    pub first_opens_pair: bool,
}

/// The side whose move opens a numbered pair: Black in Immune Chess (it moves first and the
/// full-move number goes up after White's move), White elsewhere.
pub fn pair_opener(variant: &str) -> Color {
    VariantKind::from_name(variant).map_or(Color::White, VariantKind::first_mover)
}

/// The numbering of a game of `variant` from `start_fen` (`None`: the start position).
pub fn numbering(variant: &str, start_fen: Option<&str>) -> Numbering {
    let Some(fen) = start_fen else {
        return Numbering {
            first: 1,
            first_opens_pair: true,
        };
    };
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let side = match fields.get(1).copied() {
        Some("b") => Color::Black,
        Some("w") => Color::White,
        _ => pair_opener(variant),
    };
    let first = fields
        .iter()
        .skip(2)
        .rev()
        .find_map(|f| f.parse::<u32>().ok().filter(|&n| n >= 1))
        .unwrap_or(1);
    Numbering {
        first,
        first_opens_pair: side == pair_opener(variant),
    }
}

/// The move text as a list of lines, one numbered pair a line: `1. I-e7 M-e4`.
pub fn numbered_pairs(moves: &[String], numbering: Numbering) -> Vec<String> {
    let mut lines = Vec::new();
    let mut number = numbering.first;
    let mut rest = moves;
    if !numbering.first_opens_pair {
        if let Some((m, tail)) = rest.split_first() {
            lines.push(format!("{number}... {m}"));
            number += 1;
            rest = tail;
        }
    }
    for pair in rest.chunks(2) {
        lines.push(format!("{number}. {}", pair.join(" ")));
        number += 1;
    }
    lines
}

/// A tag value with `\` and `"` escaped, as PGN wants.
pub fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The PGN of one game.
///
/// - `variant`: the variant's name (`chess`, `immune`, …; either protocol's spelling). The
///   `Variant` tag carries its XBoard name; chess has none.
/// - `tags`: `(name, value)` pairs: the Seven Tag Roster entries you know (`Event`, `White`,
///   `Date` …) and any others (`TimeControl`, `Termination` …), written in that order.
/// - `start_fen`: the start position when it is not the variant's own (`SetUp`/`FEN` tags).
/// - `moves`: the moves, already as text, in the order played.
/// - `result`: `1-0`, `0-1`, `1/2-1/2` or `*` (anything else is written as `*`).
///
/// The text ends with a newline; games written one after another are separated by a blank
/// line by PGN's convention (the caller adds it).
pub fn write(
    variant: &str,
    tags: &[(String, String)],
    start_fen: Option<&str>,
    moves: &[String],
    result: &str,
) -> String {
    let result = match result {
        "1-0" | "0-1" | "1/2-1/2" => result,
        _ => "*",
    };
    let given = |name: &str| {
        tags.iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    };
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    };
    const ROSTER: [(&str, &str); 6] = [
        ("Event", "?"),
        ("Site", "?"),
        ("Date", "????.??.??"),
        ("Round", "?"),
        ("White", "?"),
        ("Black", "?"),
    ];
    for (name, default) in ROSTER {
        tag(name, given(name).unwrap_or(default));
    }
    tag("Result", result);
    let kind = VariantKind::from_name(variant);
    if kind != Some(VariantKind::Chess) {
        tag(
            "Variant",
            kind.map(VariantKind::xboard_name).unwrap_or(variant),
        );
    }
    for (name, value) in tags {
        let handled = ROSTER.iter().any(|(n, _)| n == name)
            || ["Result", "Variant", "SetUp", "FEN"].contains(&name.as_str());
        if !handled {
            tag(name, value);
        }
    }
    if let Some(fen) = start_fen {
        tag("SetUp", "1");
        tag("FEN", fen);
    }
    out.push('\n');

    // Move text: numbers and moves as tokens, wrapped before column 80.
    let mut tokens: Vec<String> = Vec::new();
    for line in numbered_pairs(moves, numbering(variant, start_fen)) {
        tokens.extend(line.split(' ').map(str::to_string));
    }
    tokens.push(result.to_string());
    out.push_str(&wrap(&tokens));
    out
}

/// Movetext tokens joined by spaces, wrapped before column 80, ending with a newline.
pub fn wrap(tokens: &[String]) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(t);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn chess_game_has_the_roster_and_no_variant_tag() {
        let tags = vec![
            ("Black".to_string(), "b\"x\\".to_string()),
            ("Event".to_string(), "Test".to_string()),
            ("TimeControl".to_string(), "40/60".to_string()),
            ("Result".to_string(), "ignored".to_string()),
        ];
        let text = write("chess", &tags, None, &s(&["e2e4", "e7e5", "g1f3"]), "1-0");
        assert_eq!(
            text,
            "[Event \"Test\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"?\"]\n[Black \"b\\\"x\\\\\"]\n[Result \"1-0\"]\n\
             [TimeControl \"40/60\"]\n\n1. e2e4 e7e5 2. g1f3 1-0\n"
        );
    }

    #[test]
    fn immune_pairs_start_with_black() {
        let fen = "iiiiiiiiii/iiiiiiiiii/iiiiiiiiii/10/10/10/10/10/AENHOOHNEA/BTLMCDSLTB b - 0 1";
        let text = write("immune", &[], Some(fen), &s(&["I-e7", "M-e4", "I-e6"]), "*");
        assert!(
            text.contains("[Variant \"immune\"]\n[SetUp \"1\"]\n"),
            "{text}"
        );
        assert!(text.contains(&format!("[FEN \"{fen}\"]\n")), "{text}");
        assert!(text.ends_with("\n\n1. I-e7 M-e4 2. I-e6 *\n"), "{text}");
        // From a position with White to move: the text starts in the middle of a pair.
        let n = numbering("immune", Some("9i/10/10/10/10/10/10/10/10/M9 w - 3 7"));
        assert_eq!(
            n,
            Numbering {
                first: 7,
                first_opens_pair: false
            }
        );
        assert_eq!(
            numbered_pairs(&s(&["M-a3", "I-j9", "M-a5"]), n),
            s(&["7... M-a3", "8. I-j9 M-a5"])
        );
        // Chess from a position with Black to move.
        let n = numbering("chess", Some("8/8/8/8/8/8/8/k6K b - - 0 12"));
        assert_eq!(
            numbered_pairs(&s(&["a1a2", "h1h2"]), n),
            s(&["12... a1a2", "13. h1h2"])
        );
    }

    #[test]
    fn long_games_wrap_and_bad_results_become_unknown() {
        let moves: Vec<String> = (0..60).map(|i| format!("a{}a{}", i % 8, i % 7)).collect();
        let text = write("microorganism", &[], None, &moves, "2-0");
        assert!(text.contains("[Variant \"microorganism\"]"));
        assert!(text.contains("[Result \"*\"]"));
        let body = text.split("\n\n").nth(1).unwrap();
        assert!(body.lines().count() > 3);
        assert!(body.lines().all(|l| l.len() < 80 && !l.starts_with('[')));
        assert!(body.trim_end().ends_with(" *"));
        // Every move is there, in order.
        let words: Vec<&str> = body
            .split_whitespace()
            .filter(|w| !w.ends_with('.'))
            .collect();
        assert_eq!(
            &words[..60],
            moves.iter().map(|m| m.as_str()).collect::<Vec<_>>()
        );
    }
}
