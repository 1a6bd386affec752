//! Immune Chess FEN: read into a plain [`Setup`], validated on a board of the width it gives,
//! and written.

use super::*;
use crate::core::fen::{self, letter_color, rank_tokens, Token};
use crate::core::{BoardError, CountProblem, PositionError, StateError};

/// A FEN read into plain data, before the board width is chosen.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    pub geo: Geometry,
    /// Row-major from a1: (colour, type) or empty.
    pub cells: Vec<Option<(Color, u8)>>,
    pub side: Color,
    /// The Dendritic counts as written: (square, captures).
    pub counts: Vec<(Square, u8)>,
    pub halfmove: u16,
    pub fullmove: u16,
}

/// One rank of up to [`MAX_SIDE`] squares (`rank_no` counted from 1 names it in the errors).
fn rank_row(text: &str, rank_no: usize) -> Result<Vec<Option<(Color, u8)>>, FenError> {
    let too_wide = BoardError::RankTooWide {
        rank: rank_no,
        max: MAX_SIDE,
    };
    let mut row: Vec<Option<(Color, u8)>> = Vec::new();
    for token in rank_tokens(text) {
        match token {
            Token::Empty(n) if n > MAX_SIDE * 10 => {
                return Err(BoardError::BadNumber { rank: rank_no }.into())
            }
            Token::Empty(0) => return Err(BoardError::ZeroRun { rank: rank_no }.into()),
            Token::Empty(n) if row.len() + n > MAX_SIDE => return Err(too_wide.into()),
            Token::Empty(n) => row.extend(std::iter::repeat_n(None, n)),
            Token::Piece(ch) => {
                let pt = pieces::type_of_letter(ch)
                    .filter(|_| ch.is_ascii_alphabetic())
                    .ok_or(BoardError::UnknownPiece(ch))?;
                row.push(Some((letter_color(ch), pt)));
                if row.len() > MAX_SIDE {
                    return Err(too_wide.into());
                }
            }
        }
    }
    Ok(row)
}

/// The Dendritic field: `-` or `sq:n` items, comma-separated.
fn parse_counts(geo: Geometry, text: &str) -> Result<Vec<(Square, u8)>, FenError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    text.split(',')
        .map(|item| {
            let bad = |problem| StateError::DendriticCount {
                item: item.to_string(),
                problem,
            };
            let (sq_text, n_text) = item
                .split_once(':')
                .ok_or_else(|| bad(CountProblem::NotSquareCount))?;
            let sq = geo
                .parse_square_exact(sq_text, RankBase::ONE)
                .ok_or_else(|| bad(CountProblem::BadSquare))?;
            let n: u8 = n_text.parse().map_err(|_| bad(CountProblem::BadNumber))?;
            Ok((sq, n))
        })
        .collect()
}

impl Setup {
    /// Reads `PLACEMENT [SIDE [COUNTS [HALFMOVE [FULLMOVE]]]]` (missing: `b - 0 1`); X-FEN's
    /// `- -` (castling, en passant) in place of the counts is read too.
    pub fn parse(fen: &str) -> Result<Setup, FenError> {
        let fields = fen::fields(fen)?;
        let rank_texts: Vec<&str> = fields[0].split('/').collect();
        let height = rank_texts.len();
        let rows = rank_texts
            .iter()
            .enumerate()
            .map(|(i, text)| rank_row(text, height - i))
            .collect::<Result<Vec<_>, _>>()?;
        if height > MAX_SIDE {
            return Err(BoardError::TooManyRanks {
                found: height,
                max: MAX_SIDE,
            }
            .into());
        }
        let width = rows[0].len();
        if width == 0 {
            return Err(BoardError::EmptyRank.into());
        }
        for (i, row) in rows.iter().enumerate() {
            if row.len() != width {
                return Err(BoardError::UnevenRanks {
                    rank: height - i,
                    found: row.len(),
                    top: height,
                    width,
                }
                .into());
            }
        }
        let geo = Geometry::new(width as u8, height as u8)
            .ok_or(BoardError::BadSize { width, height })?;
        let mut cells = vec![None; geo.squares()];
        for (i, row) in rows.into_iter().enumerate() {
            let rank = height - 1 - i;
            cells[rank * width..(rank + 1) * width].copy_from_slice(&row);
        }

        let mut rest: Vec<&str> = fields[1..].to_vec();
        let side = rest.first().map_or(Ok(Color::Black), |t| fen::side(t))?;
        if !rest.is_empty() {
            rest.remove(0);
        }
        if rest.len() == 4 && rest[0] == "-" && rest[1] == "-" {
            rest.remove(0);
        }
        let counts = parse_counts(geo, rest.first().copied().unwrap_or("-"))?;
        let halfmove = fen::halfmove(rest.get(1).copied().unwrap_or("0"))?;
        let fullmove = fen::fullmove(rest.get(2).copied().unwrap_or("1"))?;
        if let Some(extra) = rest.get(3) {
            return Err(FenError::Unexpected(extra.to_string()));
        }
        Ok(Setup {
            geo,
            cells,
            side,
            counts,
            halfmove,
            fullmove,
        })
    }

    /// The position, if the setup is one: each Dendritic count below the limit, on a
    /// Dendritic cell, given once (IM-5); White has only immune cells, Black only Invaders
    /// (IM-4); no promoting piece in its zone. On a board of 128 squares or fewer the position
    /// is kept in 128-bit sets.
    pub fn validate(&self) -> Result<Immune, FenError> {
        for (i, &(sq, n)) in self.counts.iter().enumerate() {
            let problem = if n >= DENDRITIC_LIMIT {
                CountProblem::TooMany {
                    limit: DENDRITIC_LIMIT,
                }
            } else if self.cells[sq.index()] != Some((Color::White, DENDRITIC)) {
                CountProblem::NoDendritic
            } else if self.counts[..i].iter().any(|&(s, _)| s == sq) {
                CountProblem::Twice
            } else {
                continue;
            };
            let item = format!("{}:{n}", self.geo.name(sq, RankBase::ONE));
            return Err(StateError::DendriticCount { item, problem }.into());
        }
        let defs = &CELLS;
        for (i, c) in self.cells.iter().enumerate() {
            if let Some((color, pt)) = *c {
                if defs[pt as usize].white != (color == Color::White) {
                    return Err(PositionError::WrongOwner {
                        color,
                        piece: defs[pt as usize].def.name,
                        square: self.geo.name(Square(i as u8), RankBase::ONE),
                    }
                    .into());
                }
            }
        }
        if self.geo.squares() <= 128 {
            ImmuneBoard::from_setup(self).map(Immune::Small)
        } else {
            ImmuneBoard::from_setup(self).map(Immune::Large)
        }
    }
}

impl<B: BitSet> ImmuneBoard<B> {
    fn from_setup(p: &Setup) -> Result<ImmuneBoard<B>, FenError> {
        debug_assert!(p.geo.squares() <= B::CAPACITY);
        let rules = Arc::new(Rules::<B>::new(p.geo));
        let n = p.geo.squares();
        let mut pos = ImmuneBoard {
            rules,
            board: vec![0; n],
            by_type: [B::EMPTY; TYPES],
            by_color: [B::EMPTY; 2],
            counts: vec![0; n],
            stm: p.side,
            halfmove: p.halfmove,
            fullmove: p.fullmove,
            hash: 0,
            history: Vec::new(),
        };
        for (i, c) in p.cells.iter().enumerate() {
            if let Some((color, pt)) = *c {
                let sq = Square(i as u8);
                let cell = &pos.rules.cells[pt as usize];
                if cell.def.powers.has(Powers::ZONE_PROMOTES)
                    && pos.rules.zone[color.index()].contains(sq)
                {
                    return Err(PositionError::InPromotionZone {
                        piece: cell.def.name,
                        square: p.geo.name(sq, RankBase::ONE),
                    }
                    .into());
                }
                pos.put(color, pt, sq);
            }
        }
        for &(sq, k) in &p.counts {
            pos.set_count(sq, k);
        }
        if pos.stm == Color::White {
            pos.hash ^= keys().side;
        }
        Ok(pos)
    }

    // ----- text -----

    pub fn fen(&self) -> String {
        let geo = self.rules.geo;
        let mut s = fen::write_placement(geo.width, geo.height, |file, rank| {
            let sq = geo.square(file as i32, rank as i32).expect("on board");
            self.piece_at(sq)
                .map(|(c, pt)| fen::colored_letter(LETTERS[pt as usize], c))
        });
        s.push(' ');
        s.push(self.stm.fen_char());
        s.push(' ');
        s.push_str(&self.counts_text());
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }

    /// The FEN's Dendritic field: `sq:n` for each Dendritic cell with captures, or `-`.
    fn counts_text(&self) -> String {
        let geo = self.rules.geo;
        let items: Vec<String> = self.by_type[DENDRITIC as usize]
            .squares()
            .filter(|&sq| self.counts[sq.index()] > 0)
            .map(|sq| {
                format!(
                    "{}:{}",
                    geo.name(sq, RankBase::ONE),
                    self.counts[sq.index()]
                )
            })
            .collect();
        if items.is_empty() {
            "-".into()
        } else {
            items.join(",")
        }
    }
}
