//! Pieces of FEN shared by every variant: the one field tokenizer (the fields, the placement's
//! ranks, each rank's tokens: piece letters and runs of empty squares as decimal numbers, two
//! digits on wide boards), the side and counter fields, and the placement written from a
//! square → letter function. Each variant reads its fields into a plain `Setup` with these and
//! validates the setup into a position.

use std::ops::RangeInclusive;
use std::str::FromStr;

use super::color::Color;
use super::fen_error::{BoardError, FenError, PositionError};

/// The whitespace-separated fields of a FEN: at least one, or [`FenError::Empty`].
pub fn fields(fen: &str) -> Result<Vec<&str>, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.is_empty() {
        return Err(FenError::Empty);
    }
    Ok(fields)
}

/// One token of a placement rank.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Token {
    /// A letter (or any other character that is not a digit): a piece if the variant knows it.
    Piece(char),
    /// A run of empty squares, its digits read as one decimal number (saturating).
    Empty(usize),
}

/// The tokens of one rank, left to right.
pub fn rank_tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut run: Option<usize> = None;
    for ch in text.chars() {
        if let Some(d) = ch.to_digit(10) {
            run = Some(
                run.unwrap_or(0)
                    .saturating_mul(10)
                    .saturating_add(d as usize),
            );
            continue;
        }
        if let Some(n) = run.take() {
            out.push(Token::Empty(n));
        }
        out.push(Token::Piece(ch));
    }
    out.extend(run.map(Token::Empty));
    out
}

/// One rank of a placement read into its cells, file a first (`None` for an empty square):
/// letters are pieces if `known` says so. `rank` (counted from 1) names the rank in the
/// errors: an unknown letter, a rank longer than `width`, or one of another length.
pub fn rank_cells(
    text: &str,
    rank: usize,
    width: usize,
    known: impl Fn(char) -> bool,
) -> Result<Vec<Option<char>>, FenError> {
    let too_long = BoardError::RankTooLong { rank };
    let mut cells: Vec<Option<char>> = Vec::with_capacity(width);
    for token in rank_tokens(text) {
        match token {
            Token::Empty(n) if n > width => return Err(too_long.into()),
            Token::Empty(n) => cells.extend(std::iter::repeat_n(None, n)),
            Token::Piece(ch) if !known(ch) => return Err(BoardError::UnknownPiece(ch).into()),
            Token::Piece(ch) => {
                cells.push(Some(ch));
                if cells.len() > width {
                    return Err(too_long.into());
                }
            }
        }
    }
    if cells.len() != width {
        return Err(BoardError::RankLength {
            rank,
            found: cells.len(),
            expected: width,
        }
        .into());
    }
    Ok(cells)
}

/// A placement of `height` ranks of `width` squares read into its cells, top rank first (see
/// [`rank_cells`]).
pub fn placement_cells(
    placement: &str,
    width: usize,
    height: usize,
    known: impl Fn(char) -> bool,
) -> Result<Vec<Vec<Option<char>>>, FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != height {
        return Err(BoardError::RankCount {
            found: ranks.len(),
            expected: height,
        }
        .into());
    }
    ranks
        .iter()
        .enumerate()
        .map(|(i, text)| rank_cells(text, height - i, width, &known))
        .collect()
}

/// The colour of a piece letter: upper case White, lower case Black.
pub fn letter_color(ch: char) -> Color {
    if ch.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    }
}

/// A piece's letter in its colour's case (`letter` in upper case): the inverse of
/// [`letter_color`].
pub fn colored_letter(letter: char, color: Color) -> char {
    match color {
        Color::White => letter,
        Color::Black => letter.to_ascii_lowercase(),
    }
}

/// Exactly one royal piece a side: `count` gives how many a side has, `royal` names them
/// (`kings`, `Neurons`) in the error.
pub fn one_royal_each(royal: &'static str, count: impl Fn(Color) -> u32) -> Result<(), FenError> {
    for color in Color::BOTH {
        let count = count(color);
        if count != 1 {
            return Err(PositionError::RoyalCount {
                color,
                count,
                royal,
            }
            .into());
        }
    }
    Ok(())
}

/// The side-to-move field: `w` or `b`.
pub fn side(text: &str) -> Result<Color, FenError> {
    match text {
        "w" => Ok(Color::White),
        "b" => Ok(Color::Black),
        other => Err(FenError::Side(other.to_string())),
    }
}

/// A move counter within `range`.
pub fn counter<T: FromStr + PartialOrd>(
    text: &str,
    range: RangeInclusive<T>,
) -> Result<T, FenError> {
    text.parse::<T>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| FenError::Counter(text.to_string()))
}

/// The half-move clock: 0 to 10,000.
pub fn halfmove(text: &str) -> Result<u16, FenError> {
    counter(text, 0..=10_000)
}

/// The full-move number: 1 to 10,000.
pub fn fullmove(text: &str) -> Result<u16, FenError> {
    counter(text, 1..=10_000)
}

/// A placement upside down with the colours swapped (upper and lower case exchanged): the same
/// position seen from the other side.
pub fn mirror_placement(placement: &str) -> String {
    placement
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Writes a placement of `width` × `height`, top rank first, ranks separated by `/`;
/// `letter(file, rank)` gives the letter on a square (ranks and files from 0), `None` if empty.
pub fn write_placement(
    width: u8,
    height: u8,
    mut letter: impl FnMut(u8, u8) -> Option<char>,
) -> String {
    let mut s = String::with_capacity(width as usize * height as usize / 2 + height as usize);
    for rank in (0..height).rev() {
        let mut empty = 0u32;
        for file in 0..width {
            match letter(file, rank) {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(c);
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_wide_boards() {
        let p = write_placement(8, 2, |f, r| {
            (r == 1 && f == 0 || r == 0 && f == 7).then_some('K')
        });
        assert_eq!(p, "K7/7K");
        assert_eq!(write_placement(16, 1, |_, _| None), "16");
        assert_eq!(
            write_placement(12, 1, |f, _| (f == 11).then_some('p')),
            "11p"
        );
    }

    #[test]
    fn tokens_fields_and_counters() {
        use Token::{Empty, Piece};
        assert_eq!(
            rank_tokens("p10Pk3"),
            vec![Piece('p'), Empty(10), Piece('P'), Piece('k'), Empty(3)]
        );
        assert_eq!(rank_tokens(""), vec![]);
        assert_eq!(rank_tokens("0"), vec![Empty(0)]);
        assert_eq!(
            rank_tokens("99999999999999999999999"),
            vec![Empty(usize::MAX)]
        );
        assert_eq!(fields("  "), Err(FenError::Empty));
        assert_eq!(fields(" a  b "), Ok(vec!["a", "b"]));
        assert_eq!(side("b"), Ok(Color::Black));
        assert_eq!(side("x"), Err(FenError::Side("x".into())));
        assert_eq!(halfmove("10000"), Ok(10_000));
        assert_eq!(halfmove("10001"), Err(FenError::Counter("10001".into())));
        assert_eq!(fullmove("0"), Err(FenError::Counter("0".into())));
        assert_eq!(colored_letter('N', Color::Black), 'n');
        assert_eq!(letter_color('n'), Color::Black);
        let placement = placement_cells("k/1/K", 1, 3, |c| "kK".contains(c)).unwrap();
        assert_eq!(
            placement,
            vec![vec![Some('k')], vec![None], vec![Some('K')]]
        );
        assert_eq!(
            placement_cells("k/K", 1, 3, |_| true),
            Err(FenError::Board(BoardError::RankCount {
                found: 2,
                expected: 3
            }))
        );
    }

    #[test]
    fn rank_cells_reads_letters_and_runs() {
        let piece = |c: char| "pPk".contains(c);
        let cells = rank_cells("p10Pk3", 4, 16, piece).unwrap();
        assert_eq!(cells.len(), 16);
        assert_eq!(cells[0], Some('p'));
        assert_eq!(cells[11], Some('P'));
        assert_eq!(cells[12], Some('k'));
        assert_eq!(cells.iter().filter(|c| c.is_some()).count(), 3);
        let err = |t: &str| rank_cells(t, 4, 16, piece).unwrap_err().to_string();
        assert_eq!(err("p10X5"), "bad board: unknown piece 'X'");
        assert_eq!(err("17"), "bad board: rank 4 too long");
        assert_eq!(err("16p"), "bad board: rank 4 too long");
        assert_eq!(err("15p1"), "bad board: rank 4 has 17 squares, expected 16");
        assert_eq!(err("p"), "bad board: rank 4 has 1 squares, expected 16");
    }
}
