//! A shadow of XBoard's own board, for the variants XBoard cannot show exactly (see
//! `docs/xboard.md`): every move text, the engine's and the opponent's, is applied to it the way
//! XBoard 4.9.1 applies it with legality testing off (`ApplyMove` and the two-leg handling of
//! `HandleMachineMove` in `backend.c`, parent `fairy`), so that the engine can tell which of
//! its moves XBoard will accept (`ParseOneMove`: a piece of the side to move on the square
//! moved from). Everything here is in XBoard's terms: its colours, its orientation, its rank
//! numbering and its spellings; the rules are not involved.

use crate::core::{Color, Geometry, RankBase};

/// A square as (file, rank), both from 0.
type Sq = (i32, i32);

/// XBoard's "no e.p. square" value of `EP_FILE`/`EP_RANK` after a move.
const NO_EP: i32 = 100;

/// A move as XBoard reads it: from, to, the square of a first leg that ends elsewhere (killed
/// on the way), the suffix letter. A pass has no squares.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct XbMove {
    pub from: (i32, i32),
    pub to: (i32, i32),
    pub kill: Option<(i32, i32)>,
    pub promo: Option<char>,
}

/// What XBoard makes of a move text.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum XbText {
    Pass,
    Move(XbMove),
    /// A drop (refused on a board without holdings) or a text it cannot read.
    Refused,
}

/// XBoard's board as XBoard sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shadow {
    width: i32,
    height: i32,
    base: RankBase,
    /// `[rank * width + file]`: XBoard's colour and upper-case letter.
    cells: Vec<Option<(Color, char)>>,
    /// The upper-case letters of each colour's piece table (a suffix naming none empties the
    /// square, as `CharToPiece` returns `EmptySquare`).
    letters: [Vec<char>; 2],
    pawn: Option<char>,
    king: Option<char>,
    ep_file: i32,
    ep_rank: i32,
}

impl Shadow {
    /// A shadow from XBoard's FEN placement (rank `height` first, as XBoard reads it).
    pub fn new(
        g: Geometry,
        base: RankBase,
        placement: &str,
        letters: [Vec<char>; 2],
        pawn: Option<char>,
        king: Option<char>,
    ) -> Option<Shadow> {
        let (width, height) = (g.width as i32, g.height as i32);
        let mut cells = vec![None; (width * height) as usize];
        let ranks: Vec<&str> = placement.split('/').collect();
        if ranks.len() != height as usize {
            return None;
        }
        for (i, row) in ranks.iter().enumerate() {
            let rank = height - 1 - i as i32;
            let mut file = 0;
            let mut run = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    run = run * 10 + d as i32;
                    continue;
                }
                file += run;
                run = 0;
                if !c.is_ascii_alphabetic() || file >= width {
                    return None;
                }
                let color = if c.is_ascii_uppercase() {
                    Color::White
                } else {
                    Color::Black
                };
                cells[(rank * width + file) as usize] = Some((color, c.to_ascii_uppercase()));
                file += 1;
            }
            if file + run != width {
                return None;
            }
        }
        Some(Shadow {
            width,
            height,
            base,
            cells,
            letters,
            pawn,
            king,
            ep_file: NO_EP,
            ep_rank: NO_EP,
        })
    }

    /// XBoard's rank numbering for the move texts applied from now on (the `Rank Offset`
    /// option may change after the shadow was started).
    pub fn set_base(&mut self, base: RankBase) {
        self.base = base;
    }

    fn geometry(&self) -> Geometry {
        Geometry {
            width: self.width as u8,
            height: self.height as u8,
        }
    }

    /// The content of a square (file, rank from 0).
    pub fn at(&self, file: i32, rank: i32) -> Option<(Color, char)> {
        self.cells[(rank * self.width + file) as usize]
    }

    fn set(&mut self, (f, r): (i32, i32), v: Option<(Color, char)>) {
        self.cells[(r * self.width + f) as usize] = v;
    }

    fn get(&self, (f, r): (i32, i32)) -> Option<(Color, char)> {
        self.at(f, r)
    }

    /// The placement as a FEN field (XBoard's colours and letters).
    pub fn placement(&self) -> String {
        crate::core::fen::write_placement(self.width as u8, self.height as u8, |f, r| {
            self.at(f as i32, r as i32).map(|(c, l)| {
                if c == Color::White {
                    l
                } else {
                    l.to_ascii_lowercase()
                }
            })
        })
    }

    fn square(&self, text: &str) -> Option<((i32, i32), usize)> {
        let g = self.geometry();
        let (sq, n) = g.parse_square(text, self.base)?;
        Some(((g.file(sq) as i32, g.rank(sq) as i32), n))
    }

    /// `AB[suffix]`: two squares and what follows them.
    fn leg<'a>(&self, text: &'a str) -> Option<(Sq, Sq, &'a str)> {
        let (a, n1) = self.square(text)?;
        let (b, n2) = self.square(&text[n1..])?;
        Some((a, b, &text[n1 + n2..]))
    }

    /// Reads a move text as XBoard 4.9.1 does: `@@@@`/`pass` pass; `X@sq` drops are refused
    /// without holdings; `AB,CD[x]` with B's file equal to C's is from A to D killing C.
    pub fn read(&self, text: &str) -> XbText {
        let t = text.trim();
        if matches!(t, "@@@@" | "pass" | "--" | "null") {
            return XbText::Pass;
        }
        let promo_of = |rest: &str| -> Result<Option<char>, ()> {
            let mut cs = rest.chars();
            match (cs.next(), cs.next()) {
                (None, _) => Ok(None),
                (Some(c), None) if c.is_ascii_alphabetic() => Ok(Some(c)),
                _ => Err(()),
            }
        };
        let mv = match t.split_once(',') {
            None => self.leg(t).and_then(|(from, to, rest)| {
                Some(XbMove {
                    from,
                    to,
                    kill: None,
                    promo: promo_of(rest).ok()?,
                })
            }),
            Some((first, second)) => {
                let (a, b, r1) = match self.leg(first) {
                    Some(l) => l,
                    None => return XbText::Refused,
                };
                let (c, d, r2) = match self.leg(second) {
                    Some(l) => l,
                    None => return XbText::Refused,
                };
                if !r1.is_empty() || b.0 != c.0 || second.contains(',') {
                    None
                } else {
                    promo_of(r2).ok().map(|promo| XbMove {
                        from: a,
                        to: d,
                        kill: Some(c),
                        promo,
                    })
                }
            }
        };
        mv.map_or(XbText::Refused, XbText::Move)
    }

    /// Whether XBoard accepts the text from an engine playing `side` (XBoard's colour):
    /// a piece of `side` on the square moved from, and not a move to itself without a kill.
    pub fn accepts(&self, text: &str, side: Color) -> bool {
        match self.read(text) {
            XbText::Pass => true,
            XbText::Refused => false,
            XbText::Move(m) => {
                !(m.from == m.to && m.kill.is_none())
                    && matches!(self.get(m.from), Some((c, _)) if c == side)
            }
        }
    }

    /// Applies a move text as XBoard does (a refused text changes nothing).
    pub fn apply(&mut self, text: &str) {
        let old_ep_file = self.ep_file;
        let old_ep_rank = self.ep_rank;
        let m = match self.read(text) {
            XbText::Move(m) => m,
            XbText::Pass => {
                self.ep_file = NO_EP;
                self.ep_rank = NO_EP;
                return;
            }
            XbText::Refused => return,
        };
        self.ep_file = NO_EP;
        self.ep_rank = NO_EP;
        let (h, w) = (self.height, self.width);
        if let Some(k) = m.kill {
            self.set(k, None);
        }
        let ((fx, fy), (tx, ty)) = (m.from, m.to);
        let piece = self.get(m.from);
        let is = |p: Option<(Color, char)>, c: Color, l: Option<char>| {
            l.is_some() && p == Some((c, l.unwrap_or(' ')))
        };
        let white_pawn = is(piece, Color::White, self.pawn);
        let black_pawn = is(piece, Color::Black, self.pawn);
        if white_pawn && ty - fy >= 2 {
            self.ep_file = (fx + tx) / 2;
            self.ep_rank = (ty - 1) | if ty - fy > 2 { 128 } else { 0 };
        }
        if black_pawn && ty - fy <= -2 {
            self.ep_file = (fx + tx) / 2;
            self.ep_rank = (ty + 1) | if fy - ty > 2 { 128 } else { 0 };
        }
        if m.from == m.to && m.kill.is_none() {
            return;
        }
        let king = piece.is_some_and(|(_, l)| Some(l) == self.king);
        let empty_to = self.get(m.to).is_none();
        if king && fx != 0 && fx != w - 1 && ty == fy && tx > fx + 1 {
            // Castling with the nearest piece beyond the king.
            let mut rx = fx + 1;
            while self.at(rx, fy).is_none() && rx < w - 1 {
                rx += 1;
            }
            let rook = self.at(rx, fy);
            self.set((tx - 1, fy), rook);
            self.set((rx, fy), None);
            self.set(m.from, None);
            self.set(m.to, piece);
        } else if king && fx != 0 && fx != w - 1 && ty == fy && tx < fx - 1 {
            let mut rx = fx - 1;
            while self.at(rx, fy).is_none() && rx > 0 {
                rx -= 1;
            }
            let rook = self.at(rx, fy);
            self.set((tx + 1, fy), rook);
            self.set((rx, fy), None);
            self.set(m.from, None);
            self.set(m.to, piece);
        } else if white_pawn && ty >= h - 1 && m.promo.is_some() {
            self.set(m.from, None);
            self.set(m.to, piece);
        } else if fy >= h >> 1
            && (old_ep_file == tx || (tx - fx).abs() > 4)
            && tx != fx
            && white_pawn
            && empty_to
        {
            // XBoard's own en passant.
            self.set(m.from, None);
            self.set(m.to, piece);
            let victim = if ty == old_ep_rank - 128 + 1 {
                ty - 2
            } else {
                ty - 1
            };
            if victim >= 0 {
                self.set((tx, victim), None);
            }
        } else if black_pawn && ty < 1 && m.promo.is_some() {
            self.set(m.from, None);
            self.set(m.to, piece);
        } else if fy < h >> 1
            && (old_ep_file == tx || (tx - fx).abs() > 4)
            && tx != fx
            && black_pawn
            && empty_to
        {
            self.set(m.from, None);
            self.set(m.to, piece);
            let victim = if ty == old_ep_rank - 128 - 1 {
                ty + 2
            } else {
                ty + 1
            };
            if victim < h {
                self.set((tx, victim), None);
            }
        } else {
            // Also a move onto an own piece: the `fairy` parent destroys it.
            self.set(m.from, None);
            self.set(m.to, piece);
        }
        // Without legality testing a suffix re-types the piece on the target square.
        if let (Some(p), Some((color, _))) = (m.promo, piece) {
            let l = p.to_ascii_uppercase();
            let v = self.letters[color.index()]
                .contains(&l)
                .then_some((color, l));
            self.set(m.to, v);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn micro_like(placement: &str) -> Shadow {
        let l: Vec<char> = "PNWCBATVR".chars().collect();
        Shadow::new(
            Geometry {
                width: 8,
                height: 8,
            },
            RankBase::ONE,
            placement,
            [l.clone(), l],
            Some('P'),
            Some('N'),
        )
        .unwrap()
    }

    #[test]
    fn moves_legs_and_suffixes() {
        let mut s = micro_like("8/8/8/3v4/8/8/2V5/8");
        assert_eq!(s.placement(), "8/8/8/3v4/8/8/2V5/8");
        assert!(s.accepts("c2c3", Color::White));
        assert!(!s.accepts("c2c3", Color::Black));
        assert!(!s.accepts("d2d3", Color::White));
        assert!(!s.accepts("c2c2", Color::White));
        assert!(!s.accepts("V@c4", Color::White));
        // Out and back re-types in place; the middle square is emptied.
        s.apply("c2d3,d3c2r");
        assert_eq!(s.placement(), "8/8/8/3v4/8/8/2R5/8");
        // A plain move with a suffix moves and re-types.
        s.apply("c2d5v");
        assert_eq!(s.placement(), "8/8/8/3V4/8/8/8/8");
        // A suffix naming no piece of the table empties the square.
        s.apply("d5d6x");
        assert_eq!(s.placement(), "8/8/8/8/8/8/8/8");
    }

    #[test]
    fn own_piece_destroyed_and_pawn_en_passant() {
        let mut s = micro_like("8/8/8/8/8/8/PP6/8");
        s.apply("a2b2");
        assert_eq!(s.placement(), "8/8/8/8/8/8/1P6/8");
        // A Black pawn pushes two: XBoard's own e.p. takes it on a diagonal move to empty.
        let mut s = micro_like("8/3p4/8/4P3/8/8/8/8");
        s.apply("d7d5");
        s.apply("e5d6");
        assert_eq!(s.placement(), "8/8/3P4/8/8/8/8/8");
    }
}
