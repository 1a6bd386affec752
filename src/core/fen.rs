//! Pieces of FEN shared by every variant: the placement field, written from a square → letter
//! function, with runs of empty squares as decimal numbers (two digits on wide boards), and
//! one rank of it read back into cells.

use super::variant::FenError;

/// One rank of a placement read into its cells, file a first (`None` for an empty square):
/// letters are pieces if `known` says so, runs of empty squares are decimal numbers (two
/// digits on wide boards). `rank` (counted from 1) names the rank in the errors: an unknown
/// letter, a rank longer than `width`, or one of another length.
pub fn rank_cells(
    text: &str,
    rank: u32,
    width: usize,
    known: impl Fn(char) -> bool,
) -> Result<Vec<Option<char>>, FenError> {
    let too_long = || FenError::Board(format!("rank {rank} too long"));
    let mut cells: Vec<Option<char>> = Vec::with_capacity(width);
    let mut digits = 0usize;
    for ch in text.chars() {
        if let Some(d) = ch.to_digit(10) {
            digits = digits * 10 + d as usize;
            if digits > width {
                return Err(too_long());
            }
            continue;
        }
        cells.extend(std::iter::repeat_n(None, digits));
        digits = 0;
        if !known(ch) {
            return Err(FenError::Board(format!("unknown piece {ch:?}")));
        }
        cells.push(Some(ch));
        if cells.len() > width {
            return Err(too_long());
        }
    }
    cells.extend(std::iter::repeat_n(None, digits));
    if cells.len() != width {
        return Err(FenError::Board(format!(
            "rank {rank} has {} squares, expected {width}",
            cells.len()
        )));
    }
    Ok(cells)
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
