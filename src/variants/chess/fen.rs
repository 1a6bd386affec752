//! Chess FEN (X-FEN castling rights for a king on any file, IR-2): read, validated, written.

use super::*;

impl Chess {
    /// Sets up castling bookkeeping: which rook each right uses and which squares void which
    /// rights.
    fn init_castling(&mut self) {
        self.castle_keep = [0xF; 64];
        for color in Color::BOTH {
            for side in 0..2 {
                let i = cr(color, side);
                if self.castling & (1 << i) != 0 {
                    let ksq = self.king_square(color);
                    self.castle_keep[ksq.index()] &=
                        !((1u8 << cr(color, 0)) | (1u8 << cr(color, 1)));
                    self.castle_keep[self.castle_rook[i].index()] &= !(1u8 << i);
                }
            }
        }
    }

    /// The castling rook square for a right given the king's square, following X-FEN: the
    /// outermost rook on that side.
    fn find_castle_rook(&self, color: Color, side: usize) -> Option<Square> {
        let ksq = self.pieces(color, KING);
        if ksq.count_ones() != 1 {
            return None;
        }
        let ksq = Square(ksq.trailing_zeros() as u8);
        let rank = ksq.0 / 8;
        let home = if color == Color::White { 0 } else { 7 };
        if rank != home {
            return None;
        }
        let files: Vec<u8> = if side == 0 {
            ((ksq.0 % 8 + 1)..8).rev().collect()
        } else {
            (0..ksq.0 % 8).collect()
        };
        files
            .into_iter()
            .map(|f| Square(rank * 8 + f))
            .find(|&s| self.piece_at(s) == Some((color, ROOK)))
    }
}

pub(super) fn parse(fen: &str) -> Result<Chess, FenError> {
    let mut fields = fen.split_whitespace();
    let board = fields.next().ok_or(FenError::Empty)?;
    let mut pos = Chess::empty();
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::Board(format!(
            "{} ranks, expected 8",
            ranks.len()
        )));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        let mut digits = 0u32;
        for ch in rank_text.chars() {
            if let Some(d) = ch.to_digit(10) {
                digits = digits.saturating_mul(10).saturating_add(d);
                continue;
            }
            file = file.saturating_add(digits as u8);
            digits = 0;
            let pt = LETTERS
                .iter()
                .position(|&l| l == ch.to_ascii_uppercase())
                .ok_or_else(|| FenError::Board(format!("unknown piece {ch:?}")))?
                as u8;
            if file >= 8 {
                return Err(FenError::Board(format!("rank {} too long", rank + 1)));
            }
            let color = if ch.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            pos.put(color, pt, Square(rank * 8 + file));
            file += 1;
        }
        file = file.saturating_add(digits.min(255) as u8);
        if file != 8 || digits > 8 {
            return Err(FenError::Board(format!(
                "rank {} has {} squares, expected 8",
                rank + 1,
                file
            )));
        }
    }
    let side = fields.next().unwrap_or("w");
    pos.stm = match side {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(FenError::Side(other.to_string())),
    };
    for color in Color::BOTH {
        let n = pos.pieces(color, KING).count_ones();
        if n != 1 {
            return Err(FenError::Impossible(format!(
                "{} has {} kings",
                color.name(),
                n
            )));
        }
    }
    if pos.by_type[PAWN as usize] & 0xFF00_0000_0000_00FF != 0 {
        return Err(FenError::Impossible(
            "pawn on the first or last rank".into(),
        ));
    }
    for color in Color::BOTH {
        if pos.pieces(color, PAWN).count_ones() > 8 || pos.color_set(color).count_ones() > 16 {
            return Err(FenError::Impossible(format!(
                "too many {} pieces",
                color.name()
            )));
        }
    }
    // The side not to move must not be in check.
    let them = !pos.stm;
    if pos.attacked_by(pos.king_square(them), pos.stm, pos.occupied()) {
        return Err(FenError::Impossible(format!(
            "{} is in check but it is {}'s move",
            them.name(),
            pos.stm.name()
        )));
    }
    let castling = fields.next().unwrap_or("-");
    if castling != "-" {
        for ch in castling.chars() {
            let (color, side) = match ch {
                'K' => (Color::White, 0),
                'Q' => (Color::White, 1),
                'k' => (Color::Black, 0),
                'q' => (Color::Black, 1),
                _ => return Err(FenError::Castling(castling.to_string())),
            };
            let rsq = pos
                .find_castle_rook(color, side)
                .ok_or_else(|| FenError::Castling(castling.to_string()))?;
            let ksq = pos.king_square(color);
            if castle_squares(ksq, rsq).is_none() {
                return Err(FenError::Castling(castling.to_string()));
            }
            pos.castling |= 1 << cr(color, side);
            pos.castle_rook[cr(color, side)] = rsq;
        }
    }
    pos.init_castling();
    pos.hash ^= keys().castle[pos.castling as usize];
    let ep = fields.next().unwrap_or("-");
    if ep != "-" {
        let sq = Geometry::CHESS
            .parse_square_exact(ep, RankBase::ONE)
            .ok_or_else(|| FenError::EnPassant(ep.to_string()))?;
        let (ep_rank, victim, start) = match pos.stm {
            Color::White => (5, sq.0.wrapping_sub(8), sq.0 + 8),
            Color::Black => (2, sq.0 + 8, sq.0.wrapping_sub(8)),
        };
        if sq.0 / 8 != ep_rank
            || pos.piece_at(Square(victim)) != Some((them, PAWN))
            || pos.piece_at(sq).is_some()
            || pos.piece_at(Square(start)).is_some()
        {
            return Err(FenError::EnPassant(ep.to_string()));
        }
        if tables().pawn_attacks[them.index()][sq.index()] & pos.pieces(pos.stm, PAWN) != 0 {
            pos.ep = Some(sq);
            pos.hash ^= keys().ep[(sq.0 % 8) as usize];
        }
    }
    let hm = fields.next().unwrap_or("0");
    pos.halfmove = hm
        .parse::<u16>()
        .ok()
        .filter(|&h| h <= 10_000)
        .ok_or_else(|| FenError::Counter(hm.to_string()))?;
    let fm = fields.next().unwrap_or("1");
    pos.fullmove = fm
        .parse::<u16>()
        .ok()
        .filter(|f| (1..=10_000).contains(f))
        .ok_or_else(|| FenError::Counter(fm.to_string()))?;
    if let Some(extra) = fields.next() {
        return Err(FenError::Other(format!("unexpected {extra:?}")));
    }
    if pos.stm == Color::Black {
        pos.hash ^= keys().side;
    }
    if pos.checkers().count_ones() > 2 {
        return Err(FenError::Impossible("more than two checkers".into()));
    }
    Ok(pos)
}

pub(super) fn write(pos: &Chess) -> String {
    let mut s = crate::core::fen::write_placement(8, 8, |file, rank| {
        pos.piece_at(Square(rank * 8 + file))
            .map(|(c, pt)| crate::core::fen::colored_letter(LETTERS[pt as usize], c))
    });
    s.push(' ');
    s.push(pos.stm.fen_char());
    s.push(' ');
    if pos.castling == 0 {
        s.push('-');
    } else {
        for (i, l) in ['K', 'Q', 'k', 'q'].iter().enumerate() {
            if pos.castling & (1 << i) != 0 {
                s.push(*l);
            }
        }
    }
    s.push(' ');
    match pos.ep {
        Some(ep) => s.push_str(&Chess::square_name(ep, RankBase::ONE)),
        None => s.push('-'),
    }
    s.push_str(&format!(" {} {}", pos.halfmove, pos.fullmove));
    s
}
