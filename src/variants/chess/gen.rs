//! Attacks and legal move generation for chess.

use super::*;

/// Pieces of either colour in the given sets attacking `sq` with the given occupancy.
#[inline(always)]
fn attackers_in(by_type: &[u64; 6], by_color: &[u64; 2], sq: Square, occ: u64) -> u64 {
    let t = tables();
    let i = sq.index();
    (t.pawn_attacks[1][i] & by_type[PAWN as usize] & by_color[Color::White.index()])
        | (t.pawn_attacks[0][i] & by_type[PAWN as usize] & by_color[Color::Black.index()])
        | (t.knight[i] & by_type[KNIGHT as usize])
        | (t.king[i] & by_type[KING as usize])
        | (t.rook_attacks(sq, occ) & (by_type[ROOK as usize] | by_type[QUEEN as usize]))
        | (t.bishop_attacks(sq, occ) & (by_type[BISHOP as usize] | by_type[QUEEN as usize]))
}

impl Chess {
    // ----- attacks -----

    /// Pieces of either colour attacking `sq` with the given occupancy.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, occ: u64) -> u64 {
        attackers_in(&self.by_type, &self.by_color, sq, occ)
    }

    /// Whether the legal move `m` gives check: [`Chess::checkers`] after it, read from the
    /// piece sets as the move leaves them, without making it (late-move pruning asks this of
    /// the moves it would skip).
    pub fn move_gives_check(&self, m: Move) -> bool {
        let us = self.stm;
        let (from, to) = (m.from(), m.to());
        let (mut by_type, mut by_color) = (self.by_type, self.by_color);
        let mut lift = |sq: Square| {
            let c = self.board[sq.index()];
            if c != 0 {
                by_type[code_type(c) as usize] &= !(1u64 << sq.0);
                by_color[code_color(c).index()] &= !(1u64 << sq.0);
            }
        };
        let mut lands: [(u8, Square); 2] = [(code_type(self.board[from.index()]), to); 2];
        match m.kind() {
            MoveKind::Castle => {
                let rsq = self.castling_rook(us, m);
                let (kto, rto) = castle_squares(from, rsq).expect("castle squares");
                lift(from);
                lift(rsq);
                lands = [(CASTLER, kto), (PARTNER, rto)];
            }
            MoveKind::EnPassant => {
                lift(from);
                lift(ep_victim(us, to));
            }
            kind => {
                lift(from);
                lift(to);
                if kind == MoveKind::Promotion {
                    lands[0].0 = m.piece().unwrap_or(QUEEN);
                }
            }
        }
        for (pt, sq) in lands {
            by_type[pt as usize] |= 1u64 << sq.0;
            by_color[us.index()] |= 1u64 << sq.0;
        }
        let occ = by_color[0] | by_color[1];
        let ksq = self.king_square(!us);
        attackers_in(&by_type, &by_color, ksq, occ) & by_color[us.index()] != 0
    }

    /// Whether `by` attacks `sq` with the given occupancy.
    #[inline(always)]
    pub fn attacked_by(&self, sq: Square, by: Color, occ: u64) -> bool {
        let t = tables();
        let i = sq.index();
        let them = self.by_color[by.index()];
        if t.pawn_attacks[(!by).index()][i] & self.by_type[PAWN as usize] & them != 0 {
            return true;
        }
        if t.knight[i] & self.by_type[KNIGHT as usize] & them != 0 {
            return true;
        }
        if t.king[i] & self.by_type[KING as usize] & them != 0 {
            return true;
        }
        let rq = (self.by_type[ROOK as usize] | self.by_type[QUEEN as usize]) & them;
        if rq != 0 && t.rook_attacks(sq, occ) & rq != 0 {
            return true;
        }
        let bq = (self.by_type[BISHOP as usize] | self.by_type[QUEEN as usize]) & them;
        bq != 0 && t.bishop_attacks(sq, occ) & bq != 0
    }

    /// The enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers(&self) -> u64 {
        let k = self.king_square(self.stm);
        self.attackers_to(k, self.occupied()) & self.by_color[(!self.stm).index()]
    }

    /// Own pieces that are the only piece between the own king and an enemy slider.
    fn pinned(&self) -> u64 {
        let t = tables();
        let us = self.stm;
        let ksq = self.king_square(us);
        let them = self.by_color[(!us).index()];
        let occ = self.occupied();
        let mut snipers = ((t.rook_empty[ksq.index()]
            & (self.by_type[ROOK as usize] | self.by_type[QUEEN as usize]))
            | (t.bishop_empty[ksq.index()]
                & (self.by_type[BISHOP as usize] | self.by_type[QUEEN as usize])))
            & them;
        let mut pinned = 0;
        while snipers != 0 {
            let s = snipers.trailing_zeros() as usize;
            snipers &= snipers - 1;
            let b = t.between[ksq.index()][s] & occ;
            if b != 0 && b & (b - 1) == 0 {
                pinned |= b & self.by_color[us.index()];
            }
        }
        pinned
    }

    // ----- move generation -----

    #[inline(always)]
    fn push_targets(list: &mut MoveList, from: Square, mut targets: u64) {
        while targets != 0 {
            let to = targets.trailing_zeros() as u8;
            targets &= targets - 1;
            list.push(Move::new(from, Square(to), MoveKind::Normal));
        }
    }

    #[inline(always)]
    fn push_pawn_moves(list: &mut MoveList, from: Square, to: Square, promo: bool) {
        if promo {
            for p in PROMO_PIECES {
                list.push(Move::with_piece(from, to, MoveKind::Promotion, p));
            }
        } else {
            list.push(Move::new(from, to, MoveKind::Normal));
        }
    }

    /// The legal moves, the side to move's mark obeyed: a move of the marked piece (or a
    /// castling with it) is dropped if the mark has [`Powers::NO_MOVE`], or
    /// [`Powers::NO_CAPTURE`] and the move captures. (Its attacks stay: it still gives check.)
    pub(super) fn generate(&self, list: &mut MoveList) {
        self.generate_obeying_mark::<true>(list);
    }

    /// The legal captures and promotions (`Variant::is_tactical`), in [`Chess::generate`]'s
    /// order: the same generator with the quiet moves left out.
    pub(super) fn generate_tactical(&self, list: &mut MoveList) {
        self.generate_obeying_mark::<false>(list);
    }

    /// [`Chess::generate`] (`ALL`) or [`Chess::generate_tactical`].
    #[inline(always)]
    fn generate_obeying_mark<const ALL: bool>(&self, list: &mut MoveList) {
        let start = list.len();
        self.generate_unmarked::<ALL>(list);
        if let Some(mark) = self.marks[self.stm.index()] {
            if mark.powers.has(Powers::NO_MOVE) || mark.powers.has(Powers::NO_CAPTURE) {
                let mut i = 0;
                list.retain(|m| {
                    i += 1;
                    i <= start || self.obeys_mark(mark, *m)
                });
            }
        }
    }

    /// Whether `m` is allowed by the powers of the side to move's `mark`.
    fn obeys_mark(&self, mark: Mark, m: Move) -> bool {
        let castle = m.kind() == MoveKind::Castle;
        if m.from() != mark.square && !(castle && self.castling_rook(self.stm, m) == mark.square) {
            return true;
        }
        let captures =
            m.kind() == MoveKind::EnPassant || (!castle && self.board[m.to().index()] != 0);
        !(mark.powers.has(Powers::NO_MOVE) || (mark.powers.has(Powers::NO_CAPTURE) && captures))
    }

    /// The legal moves of chess (without `ALL`: only captures and promotions, in the same
    /// order); a mark's [`Powers::UNCAPTURABLE`] is read here.
    fn generate_unmarked<const ALL: bool>(&self, list: &mut MoveList) {
        let t = tables();
        let us = self.stm;
        let them = !us;
        let own = self.by_color[us.index()];
        let enemy = self.by_color[them.index()];
        let occ = own | enemy;
        let ksq = self.king_square(us);
        let checkers = self.attackers_to(ksq, occ) & enemy;

        // King moves: never onto an attacked square (the king itself removed from the board).
        let occ_no_king = occ ^ (1u64 << ksq.0);
        let immune = self.uncapturable(them);
        // Without `ALL` the pieces (not the pawns' pushes) go only where they capture.
        let only = if ALL { !0u64 } else { enemy };
        let mut kt = t.king[ksq.index()] & !own & !immune & only;
        while kt != 0 {
            let to = Square(kt.trailing_zeros() as u8);
            kt &= kt - 1;
            if !self.attacked_by(to, them, occ_no_king) {
                list.push(Move::new(ksq, to, MoveKind::Normal));
            }
        }
        if checkers.count_ones() > 1 {
            return; // double check: only the king moves
        }
        let target = if checkers != 0 {
            let c = checkers.trailing_zeros() as usize;
            t.between[ksq.index()][c] | checkers
        } else {
            !own
        } & !immune;
        let pinned = self.pinned();
        let piece_target = target & only;

        // Knights (a pinned knight never moves).
        let mut kn = self.pieces(us, KNIGHT) & !pinned;
        while kn != 0 {
            let from = Square(kn.trailing_zeros() as u8);
            kn &= kn - 1;
            Self::push_targets(list, from, t.knight[from.index()] & piece_target);
        }
        // Sliders.
        let mut diag = (self.pieces(us, BISHOP) | self.pieces(us, QUEEN)) & own;
        while diag != 0 {
            let from = Square(diag.trailing_zeros() as u8);
            diag &= diag - 1;
            let mut tg = t.bishop_attacks(from, occ) & piece_target;
            if pinned & (1u64 << from.0) != 0 {
                tg &= t.line[ksq.index()][from.index()];
            }
            Self::push_targets(list, from, tg);
        }
        let mut orth = (self.pieces(us, ROOK) | self.pieces(us, QUEEN)) & own;
        while orth != 0 {
            let from = Square(orth.trailing_zeros() as u8);
            orth &= orth - 1;
            let mut tg = t.rook_attacks(from, occ) & piece_target;
            if pinned & (1u64 << from.0) != 0 {
                tg &= t.line[ksq.index()][from.index()];
            }
            Self::push_targets(list, from, tg);
        }

        // Pawns.
        let (up, start_rank, promo_rank): (i32, u8, u8) = match us {
            Color::White => (8, 1, 7),
            Color::Black => (-8, 6, 0),
        };
        let mut pawns = self.pieces(us, PAWN);
        while pawns != 0 {
            let from = Square(pawns.trailing_zeros() as u8);
            pawns &= pawns - 1;
            let pin_line = if pinned & (1u64 << from.0) != 0 {
                t.line[ksq.index()][from.index()]
            } else {
                !0u64
            };
            let one = Square((from.0 as i32 + up) as u8);
            if occ & (1u64 << one.0) == 0 {
                let promo = PAWN_PROMOTES && one.0 / 8 == promo_rank;
                if (ALL || promo) && target & pin_line & (1u64 << one.0) != 0 {
                    Self::push_pawn_moves(list, from, one, promo);
                }
                if ALL && from.0 / 8 == start_rank {
                    let two = Square((one.0 as i32 + up) as u8);
                    if occ & (1u64 << two.0) == 0 && target & pin_line & (1u64 << two.0) != 0 {
                        list.push(Move::new(from, two, MoveKind::PawnPush));
                    }
                }
            }
            let mut caps = t.pawn_attacks[us.index()][from.index()] & enemy & target & pin_line;
            while caps != 0 {
                let to = Square(caps.trailing_zeros() as u8);
                caps &= caps - 1;
                Self::push_pawn_moves(list, from, to, PAWN_PROMOTES && to.0 / 8 == promo_rank);
            }
            if let Some(ep) = self.ep.filter(|_| PAWN_EN_PASSANT) {
                if t.pawn_attacks[us.index()][from.index()] & (1u64 << ep.0) != 0 {
                    let victim = ep_victim(us, ep);
                    // Full test: the capture removes two pawns from their squares at once, which
                    // may uncover a slider along the rank; it may also capture a checker.
                    let occ2 = (occ ^ (1u64 << from.0) ^ (1u64 << victim.0)) | (1u64 << ep.0);
                    let enemy_after = enemy & !(1u64 << victim.0);
                    let safe = self.attackers_to(ksq, occ2) & enemy_after == 0;
                    if safe && immune & (1u64 << victim.0) == 0 {
                        list.push(Move::new(from, ep, MoveKind::EnPassant));
                    }
                }
            }
        }

        // Castling.
        if ALL && CASTLING && checkers == 0 {
            for side in 0..2 {
                if self.castling & (1 << cr(us, side)) == 0 {
                    continue;
                }
                let rsq = self.castle_rook[cr(us, side)];
                if let Some((kto, rto)) = castle_squares(ksq, rsq) {
                    let must_be_empty =
                        (t.between[ksq.index()][rsq.index()] | (1u64 << kto.0) | (1u64 << rto.0))
                            & !(1u64 << ksq.0)
                            & !(1u64 << rsq.0);
                    if occ & must_be_empty != 0 {
                        continue;
                    }
                    let occ_after = occ ^ (1u64 << rsq.0);
                    let mut path = t.between[ksq.index()][kto.index()] | (1u64 << kto.0);
                    let mut ok = true;
                    while path != 0 {
                        let s = Square(path.trailing_zeros() as u8);
                        path &= path - 1;
                        if self.attacked_by(s, them, occ_after) {
                            ok = false;
                            break;
                        }
                    }
                    if ok {
                        list.push(Move::new(ksq, kto, MoveKind::Castle));
                    }
                }
            }
        }
    }
}
