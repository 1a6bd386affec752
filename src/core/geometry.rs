//! Board geometry: sizes from 1×1 to 16×16, files `a`–`p`, ranks `1`–`16`.
//!
//! A square is an index `rank * width + file` (row-major, a1 = 0), so it fits in a `u8` on every
//! board up to 16×16.

use std::fmt;

/// A square index on some board (`rank * width + file`).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash, PartialOrd, Ord, Default)]
pub struct Square(pub u8);

impl Square {
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// How ranks are numbered in text: `1` for the usual `a1`, `0` for XBoard's 10-rank (and
/// `-rankOffset`) numbering where the first rank is `a0`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct RankBase(pub u8);

impl RankBase {
    pub const ONE: RankBase = RankBase(1);
    pub const ZERO: RankBase = RankBase(0);
}

/// The width and height of a board.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub struct Geometry {
    pub width: u8,
    pub height: u8,
}

pub const MAX_SIDE: u8 = 16;

/// The eight steps of a king, in a fixed order: the orthogonal ones, then the diagonal ones
/// (Microorganism Chess numbers an expanded amoeba's partner by its index here).
pub const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];

impl Geometry {
    /// A board of `width` files and `height` ranks, each 1..=16.
    pub fn new(width: u8, height: u8) -> Option<Geometry> {
        if (1..=MAX_SIDE).contains(&width) && (1..=MAX_SIDE).contains(&height) {
            Some(Geometry { width, height })
        } else {
            None
        }
    }

    pub const CHESS: Geometry = Geometry {
        width: 8,
        height: 8,
    };

    #[inline(always)]
    pub fn squares(self) -> usize {
        self.width as usize * self.height as usize
    }

    #[inline(always)]
    pub fn file(self, sq: Square) -> u8 {
        sq.0 % self.width
    }

    #[inline(always)]
    pub fn rank(self, sq: Square) -> u8 {
        sq.0 / self.width
    }

    /// The king distance between two squares: the larger of the file and rank differences.
    #[inline(always)]
    pub fn distance(self, a: Square, b: Square) -> i32 {
        let df = (self.file(a) as i32 - self.file(b) as i32).abs();
        let dr = (self.rank(a) as i32 - self.rank(b) as i32).abs();
        df.max(dr)
    }

    /// The square at (file, rank), both from 0, if on the board.
    #[inline(always)]
    pub fn square(self, file: i32, rank: i32) -> Option<Square> {
        if file >= 0 && rank >= 0 && file < self.width as i32 && rank < self.height as i32 {
            Some(Square((rank * self.width as i32 + file) as u8))
        } else {
            None
        }
    }

    /// The square displaced by (dx, dy) from `sq`, if on the board.
    #[inline(always)]
    pub fn offset(self, sq: Square, dx: i32, dy: i32) -> Option<Square> {
        self.square(self.file(sq) as i32 + dx, self.rank(sq) as i32 + dy)
    }

    /// The name of a square: `a1`, `p16`, or with [`RankBase::ZERO`] `a0`, `p15`.
    pub fn name(self, sq: Square, base: RankBase) -> String {
        let mut s = String::with_capacity(3);
        s.push((b'a' + self.file(sq)) as char);
        s.push_str(&(self.rank(sq) as u32 + base.0 as u32).to_string());
        s
    }

    /// Reads a square name at the start of `text`: a file letter then a decimal rank (one or
    /// two digits). Returns the square and the number of bytes read.
    ///
    /// Two-digit ranks are read greedily only when the board has that rank, so `a1` followed by
    /// another square (`a1a2`) is never misread on boards of 10+ ranks: `a11` reads as rank 11
    /// only if the board has 11 ranks.
    pub fn parse_square(self, text: &str, base: RankBase) -> Option<(Square, usize)> {
        let b = text.as_bytes();
        if b.is_empty() || !b[0].is_ascii_lowercase() {
            return None;
        }
        let file = (b[0] - b'a') as i32;
        if file >= self.width as i32 {
            return None;
        }
        let d1 = *b.get(1)?;
        if !d1.is_ascii_digit() {
            return None;
        }
        let one = (d1 - b'0') as i32;
        // Try two digits first when they form a rank on this board.
        if let Some(&d2) = b.get(2) {
            if d2.is_ascii_digit() && one != 0 {
                let two = one * 10 + (d2 - b'0') as i32;
                let r = two - base.0 as i32;
                if r >= 0 && r < self.height as i32 {
                    return self.square(file, r).map(|s| (s, 3));
                }
            }
        }
        let r = one - base.0 as i32;
        self.square(file, r).map(|s| (s, 2))
    }

    /// Parses a whole string as one square name.
    pub fn parse_square_exact(self, text: &str, base: RankBase) -> Option<Square> {
        match self.parse_square(text, base) {
            Some((sq, n)) if n == text.len() => Some(sq),
            _ => None,
        }
    }
}

impl fmt::Display for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_on_every_size() {
        for w in 1..=16u8 {
            for h in 1..=16u8 {
                let g = Geometry::new(w, h).unwrap();
                for i in 0..g.squares() {
                    let sq = Square(i as u8);
                    for base in [RankBase::ONE, RankBase::ZERO] {
                        let n = g.name(sq, base);
                        assert_eq!(g.parse_square_exact(&n, base), Some(sq), "{n} on {g}");
                    }
                }
            }
        }
    }

    #[test]
    fn sixteen_ranks() {
        let g = Geometry::new(16, 16).unwrap();
        assert_eq!(g.name(Square(255), RankBase::ONE), "p16");
        assert_eq!(
            g.parse_square("a16a15", RankBase::ONE),
            Some((Square(240), 3))
        );
        assert_eq!(g.parse_square("a1a2", RankBase::ONE), Some((Square(0), 2)));
        assert_eq!(g.parse_square("q1", RankBase::ONE), None);
        assert_eq!(g.parse_square("a17", RankBase::ONE), Some((Square(0), 2)));
        assert_eq!(Geometry::new(0, 8), None);
        assert_eq!(Geometry::new(17, 8), None);
    }

    #[test]
    fn ten_ranks_from_zero() {
        let g = Geometry::new(10, 10).unwrap();
        assert_eq!(g.name(Square(0), RankBase::ZERO), "a0");
        assert_eq!(g.parse_square_exact("j9", RankBase::ZERO), Some(Square(99)));
        assert_eq!(g.parse_square_exact("j10", RankBase::ZERO), None);
        assert_eq!(g.parse_square_exact("j10", RankBase::ONE), Some(Square(99)));
    }
}
