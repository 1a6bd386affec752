//! Immune Chess FEN: read into plain data, then set up on a board of the chosen width, and
//! written.

use super::*;

/// A FEN read into plain data, before the board width is chosen.
pub(super) struct ParsedFen {
    pub(super) geo: Geometry,
    /// Row-major from a1: (colour, type) or empty.
    cells: Vec<Option<(Color, u8)>>,
    stm: Color,
    counts: Vec<(Square, u8)>,
    halfmove: u16,
    fullmove: u16,
}

pub(super) fn parse_fen(fen: &str) -> Result<ParsedFen, FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let board = *fields.first().ok_or(FenError::Empty)?;
    let rank_texts: Vec<&str> = board.split('/').collect();
    let height = rank_texts.len();
    let mut rows: Vec<Vec<Option<(Color, u8)>>> = Vec::with_capacity(height);
    for (i, text) in rank_texts.iter().enumerate() {
        let rank_no = height - i;
        let mut row: Vec<Option<(Color, u8)>> = Vec::new();
        let mut run = 0usize;
        let mut in_run = false;
        let flush = |row: &mut Vec<Option<(Color, u8)>>, run: usize| -> Result<(), FenError> {
            if run == 0 {
                return Err(FenError::Board(format!(
                    "empty-square count 0 on rank {rank_no}"
                )));
            }
            if row.len() + run > MAX_SIDE {
                return Err(FenError::Board(format!(
                    "rank {rank_no} longer than {MAX_SIDE} squares: the board may be at most 16×16"
                )));
            }
            row.extend(std::iter::repeat_n(None, run));
            Ok(())
        };
        for ch in text.chars() {
            if let Some(d) = ch.to_digit(10) {
                run = run * 10 + d as usize;
                in_run = true;
                if run > MAX_SIDE * 10 {
                    return Err(FenError::Board(format!("bad number on rank {rank_no}")));
                }
                continue;
            }
            if in_run {
                flush(&mut row, run)?;
                run = 0;
                in_run = false;
            }
            let pt = pieces::type_of_letter(ch)
                .filter(|_| ch.is_ascii_alphabetic())
                .ok_or_else(|| FenError::Board(format!("unknown piece letter {ch:?}")))?;
            let color = if ch.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            row.push(Some((color, pt)));
            if row.len() > MAX_SIDE {
                return Err(FenError::Board(format!(
                    "rank {rank_no} longer than {MAX_SIDE} squares: the board may be at most 16×16"
                )));
            }
        }
        if in_run {
            flush(&mut row, run)?;
        }
        rows.push(row);
    }
    if height > MAX_SIDE {
        return Err(FenError::Board(format!(
            "{height} ranks: the board may be at most 16×16"
        )));
    }
    let width = rows[0].len();
    if width == 0 {
        return Err(FenError::Board("empty rank".into()));
    }
    for (i, row) in rows.iter().enumerate() {
        if row.len() != width {
            return Err(FenError::Board(format!(
                "rank {} has {} squares, rank {} has {}",
                height - i,
                row.len(),
                height,
                width
            )));
        }
    }
    let geo = Geometry::new(width as u8, height as u8)
        .ok_or_else(|| FenError::Board(format!("bad size {width}x{height}")))?;
    let mut cells = vec![None; geo.squares()];
    for (i, row) in rows.into_iter().enumerate() {
        let rank = height - 1 - i;
        for (file, c) in row.into_iter().enumerate() {
            cells[rank * width + file] = c;
        }
    }

    // Side, then counts, half-move clock, full-move number; X-FEN's `- -` (castling, en
    // passant) in place of the counts is read too.
    let mut rest: Vec<&str> = fields[1..].to_vec();
    let stm = match rest.first().copied() {
        None => Color::Black,
        Some("b") => Color::Black,
        Some("w") => Color::White,
        Some(other) => return Err(FenError::Side(other.to_string())),
    };
    if !rest.is_empty() {
        rest.remove(0);
    }
    if rest.len() == 4 && rest[0] == "-" && rest[1] == "-" {
        rest.remove(0);
    }
    let counts_text = rest.first().copied().unwrap_or("-");
    let mut counts = Vec::new();
    if counts_text != "-" {
        for item in counts_text.split(',') {
            let (sq_text, n_text) = item
                .split_once(':')
                .ok_or_else(|| FenError::Other(format!("dendritic count {item:?}: not sq:n")))?;
            let sq = geo
                .parse_square_exact(sq_text, RankBase::ONE)
                .ok_or_else(|| FenError::Other(format!("dendritic count {item:?}: bad square")))?;
            let n: u8 = n_text
                .parse()
                .map_err(|_| FenError::Other(format!("dendritic count {item:?}: bad number")))?;
            if n >= DENDRITIC_LIMIT {
                return Err(FenError::Other(format!(
                    "dendritic count {item:?}: more than {} (it leaves at its {}th capture)",
                    DENDRITIC_LIMIT - 1,
                    DENDRITIC_LIMIT
                )));
            }
            if cells[sq.index()] != Some((Color::White, DENDRITIC)) {
                return Err(FenError::Other(format!(
                    "dendritic count {item:?}: no Dendritic cell there"
                )));
            }
            if counts.iter().any(|&(s, _)| s == sq) {
                return Err(FenError::Other(format!(
                    "dendritic count {item:?}: square given twice"
                )));
            }
            counts.push((sq, n));
        }
    }
    let hm = rest.get(1).copied().unwrap_or("0");
    let halfmove = hm
        .parse::<u16>()
        .ok()
        .filter(|&h| h <= 10_000)
        .ok_or_else(|| FenError::Counter(hm.to_string()))?;
    let fm = rest.get(2).copied().unwrap_or("1");
    let fullmove = fm
        .parse::<u16>()
        .ok()
        .filter(|f| (1..=10_000).contains(f))
        .ok_or_else(|| FenError::Counter(fm.to_string()))?;
    if let Some(extra) = rest.get(3) {
        return Err(FenError::Other(format!("unexpected {extra:?}")));
    }

    // Who may own what: Black has only Invaders, White only immune cells (IM-4).
    let defs = immune_pieces();
    for (i, c) in cells.iter().enumerate() {
        if let Some((color, pt)) = *c {
            let white = defs[pt as usize].white;
            if white != (color == Color::White) {
                return Err(FenError::Impossible(format!(
                    "{} {} on {}: White has only immune cells, Black only Invaders",
                    color.name(),
                    defs[pt as usize].def.name,
                    geo.name(Square(i as u8), RankBase::ONE)
                )));
            }
        }
    }
    Ok(ParsedFen {
        geo,
        cells,
        stm,
        counts,
        halfmove,
        fullmove,
    })
}

impl<B: BitSet> ImmuneBoard<B> {
    pub(super) fn from_parsed(p: ParsedFen) -> Result<ImmuneBoard<B>, FenError> {
        debug_assert!(p.geo.squares() <= B::CAPACITY);
        let rules = Arc::new(Rules::<B>::new(p.geo));
        let n = p.geo.squares();
        let mut pos = ImmuneBoard {
            rules,
            board: vec![0; n],
            by_type: [B::EMPTY; TYPES],
            by_color: [B::EMPTY; 2],
            counts: vec![0; n],
            stm: p.stm,
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
                    return Err(FenError::Impossible(format!(
                        "{} on {} stands in its promotion zone",
                        cell.def.name,
                        p.geo.name(sq, RankBase::ONE)
                    )));
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
        let mut s = crate::core::fen::write_placement(geo.width, geo.height, |file, rank| {
            let sq = geo.square(file as i32, rank as i32).expect("on board");
            self.piece_at(sq)
                .map(|(c, pt)| crate::core::fen::colored_letter(LETTERS[pt as usize], c))
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
