//! Square sets sized to the board: `u64` for boards of up to 64 squares (8×8 chess),
//! `u128` for up to 128 (10×10, 16×8), [`U256`] for up to 256 (16×16).
//!
//! Every variant picks the narrowest set its board fits in, so chess stays on plain 64-bit
//! words while 16×16 works with the same code.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::geometry::Square;

/// A set of squares.
pub trait BitSet:
    Copy
    + Eq
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// How many squares the set can hold.
    const CAPACITY: usize;
    const EMPTY: Self;

    fn from_square(sq: Square) -> Self;
    fn is_empty(self) -> bool;
    fn count(self) -> u32;
    /// Lowest square; the set must not be empty.
    fn lsb(self) -> Square;
    /// Highest square; the set must not be empty.
    fn msb(self) -> Square;

    #[inline(always)]
    fn contains(self, sq: Square) -> bool {
        !(self & Self::from_square(sq)).is_empty()
    }
    #[inline(always)]
    fn insert(&mut self, sq: Square) {
        *self |= Self::from_square(sq);
    }
    #[inline(always)]
    fn remove(&mut self, sq: Square) {
        *self &= !Self::from_square(sq);
    }
    #[inline(always)]
    fn any(self) -> bool {
        !self.is_empty()
    }
    /// Removes and returns the lowest square.
    #[inline(always)]
    fn pop_lsb(&mut self) -> Option<Square> {
        if self.is_empty() {
            None
        } else {
            let s = self.lsb();
            *self ^= Self::from_square(s);
            Some(s)
        }
    }
    /// The squares in increasing order.
    fn squares(self) -> SquareIter<Self> {
        SquareIter(self)
    }
}

/// Iterates a set's squares from the lowest.
pub struct SquareIter<B: BitSet>(B);

impl<B: BitSet> Iterator for SquareIter<B> {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        self.0.pop_lsb()
    }
}

/// The primitive unsigned integers as square sets, one bit per square.
macro_rules! int_bitset {
    ($($t:ty),*) => {$(
        impl BitSet for $t {
            const CAPACITY: usize = <$t>::BITS as usize;
            const EMPTY: $t = 0;
            #[inline(always)]
            fn from_square(sq: Square) -> $t {
                1 << sq.0
            }
            #[inline(always)]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lsb(self) -> Square {
                Square(self.trailing_zeros() as u8)
            }
            #[inline(always)]
            fn msb(self) -> Square {
                Square((<$t>::BITS - 1 - self.leading_zeros()) as u8)
            }
        }
    )*};
}
int_bitset!(u64, u128);

/// A 256-square set for 16×16 boards.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, Hash)]
pub struct U256(pub [u64; 4]);

macro_rules! u256_binop {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for U256 {
            type Output = U256;
            #[inline(always)]
            fn $f(self, o: U256) -> U256 {
                U256([
                    self.0[0] $op o.0[0],
                    self.0[1] $op o.0[1],
                    self.0[2] $op o.0[2],
                    self.0[3] $op o.0[3],
                ])
            }
        }
        impl $atr for U256 {
            #[inline(always)]
            fn $af(&mut self, o: U256) {
                *self = *self $op o;
            }
        }
    };
}
u256_binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
u256_binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
u256_binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for U256 {
    type Output = U256;
    #[inline(always)]
    fn not(self) -> U256 {
        U256([!self.0[0], !self.0[1], !self.0[2], !self.0[3]])
    }
}

impl BitSet for U256 {
    const CAPACITY: usize = 256;
    const EMPTY: U256 = U256([0; 4]);
    #[inline(always)]
    fn from_square(sq: Square) -> U256 {
        let mut w = [0u64; 4];
        w[(sq.0 >> 6) as usize] = 1u64 << (sq.0 & 63);
        U256(w)
    }
    // One word for one square: the trait's defaults build a four-word mask on the stack and
    // read it back whole, and that store-to-load stall was a fifth of Microorganism's search
    // (in `Micro::set`, the slide loops and `attacked`).
    #[inline(always)]
    fn contains(self, sq: Square) -> bool {
        (self.0[(sq.0 >> 6) as usize] >> (sq.0 & 63)) & 1 != 0
    }
    #[inline(always)]
    fn insert(&mut self, sq: Square) {
        self.0[(sq.0 >> 6) as usize] |= 1u64 << (sq.0 & 63);
    }
    #[inline(always)]
    fn remove(&mut self, sq: Square) {
        self.0[(sq.0 >> 6) as usize] &= !(1u64 << (sq.0 & 63));
    }
    #[inline(always)]
    fn pop_lsb(&mut self) -> Option<Square> {
        if self.is_empty() {
            return None;
        }
        let s = self.lsb();
        self.remove(s);
        Some(s)
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline(always)]
    fn lsb(self) -> Square {
        for (i, w) in self.0.iter().enumerate() {
            if *w != 0 {
                return Square((i as u32 * 64 + w.trailing_zeros()) as u8);
            }
        }
        Square(0)
    }
    #[inline(always)]
    fn msb(self) -> Square {
        for i in (0..4).rev() {
            let w = self.0[i];
            if w != 0 {
                return Square((i as u32 * 64 + 63 - w.leading_zeros()) as u8);
            }
        }
        Square(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<B: BitSet>() {
        let mut s = B::EMPTY;
        let picks: Vec<u8> = (0..B::CAPACITY as u32)
            .step_by(7)
            .map(|x| x as u8)
            .collect();
        for &p in &picks {
            s.insert(Square(p));
        }
        assert_eq!(s.count() as usize, picks.len());
        assert_eq!(s.lsb(), Square(picks[0]));
        assert_eq!(s.msb(), Square(*picks.last().unwrap()));
        let got: Vec<u8> = s.squares().map(|q| q.0).collect();
        assert_eq!(got, picks);
        s.remove(Square(picks[1]));
        assert!(!s.contains(Square(picks[1])));
        assert!(s.contains(Square(picks[2])));
    }

    /// U256's one-word `insert`, `remove`, `contains` and `pop_lsb` at the words' edges.
    #[test]
    fn u256_word_edges() {
        let edges = [0u8, 63, 64, 127, 128, 191, 192, 255];
        let mut s = U256::EMPTY;
        for &e in edges.iter().rev() {
            s.insert(Square(e));
        }
        assert_eq!(
            s,
            U256([1 | 1 << 63, 1 | 1 << 63, 1 | 1 << 63, 1 | 1 << 63])
        );
        for x in 0..=255u8 {
            assert_eq!(s.contains(Square(x)), edges.contains(&x), "square {x}");
        }
        s.remove(Square(64));
        s.remove(Square(65));
        assert_eq!(s.0[1], 1 << 63);
        let mut order = Vec::new();
        while let Some(q) = s.pop_lsb() {
            order.push(q.0);
        }
        assert_eq!(order, [0, 63, 127, 128, 191, 192, 255]);
        assert_eq!(s, U256::EMPTY);
    }

    #[test]
    fn all_widths_behave_alike() {
        exercise::<u64>();
        exercise::<u128>();
        exercise::<U256>();
    }
}
