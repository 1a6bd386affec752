//! Move ordering: the [`MovePicker`] a search node asks for its next move, and the tables it
//! orders by ([`OrderTables`]: killer moves, history), which the search updates after a
//! cutoff.
//!
//! Today a picker scores every legal move when it is filled — the table's move, tactical
//! moves by the variant's order (split by exchange evaluation in the main search), killers,
//! quiet moves by history, losing tactical moves — and hands them out best first by selection
//! sort. Moves of equal score are ordered by [`advance_hint`], so a position and its mirror
//! search alike (`tests/symmetry.rs`). The search sees only [`MovePicker::fill`],
//! [`MovePicker::next`] and what [`Picked`] says of a move, so a staged picker (one stage at a
//! time: the table's move, good captures, killers, quiet moves, bad captures) can take this
//! one's place without changes to the search.

use std::marker::PhantomData;

use smallvec::SmallVec;

use crate::core::{Color, Geometry, Move, MoveList, Variant, MAX_MOVES};

use super::eval::Evaluate;

/// The tie-break among moves of equal ordering score, below `1 << HINT_BITS`: the rank of the
/// from-square, then of the to-square, each counted from the mover's side (a higher rank is
/// nearer the enemy), then the from- and to-files. It depends only on the squares, seen from
/// the mover's side, so mirrored positions order their moves alike whatever order the
/// generator lists them in. Squares off the board (a pass, a drop's origin) count as a1.
#[inline(always)]
pub fn advance_hint(m: Move, geo: Geometry, stm: Color) -> i64 {
    let (w, h) = (geo.width as u32, geo.height as u32);
    let rel = |sq: u8| -> (i64, i64) {
        let sq = sq as u32;
        if sq >= w * h {
            return (0, 0);
        }
        let rank = sq / w;
        let rank = if stm == Color::White {
            rank
        } else {
            h - 1 - rank
        };
        (rank as i64, (w - 1 - sq % w) as i64)
    };
    let ((fr, ff), (tr, tf)) = (rel(m.from().0), rel(m.to().0));
    (fr << 12) | (tr << 8) | (ff << 4) | tf
}

/// Ordering scores.
const SCORE_TT: i64 = 1 << 60;
const SCORE_GOOD_TACTICAL: i64 = 1 << 56;
const SCORE_KILLER: i64 = 1 << 52;
const SCORE_BAD_TACTICAL: i64 = -(1 << 48);
const HISTORY_MAX: i32 = 16_384;
/// Moves of equal ordering score (history, or a tactical move's order) are ordered by
/// [`advance_hint`], kept in the low bits.
const HINT_BITS: u32 = 16;

/// The ordering key of a tactical move above [`SCORE_GOOD_TACTICAL`] or
/// [`SCORE_BAD_TACTICAL`]: the variant's order, then [`advance_hint`].
#[inline(always)]
fn tactical_key<V: Variant>(pos: &V, m: Move, geo: Geometry, stm: Color) -> i64 {
    ((pos.tactical_order(m) as i64) << HINT_BITS) | advance_hint(m, geo, stm)
}

/// The order of the root moves before the first iteration (kept among moves that score
/// alike later): tactical moves by their order, then quiet ones by advance, alike for both
/// colours. Sorts `items` by the move `mv` reads from each.
pub(crate) fn order_root<V: Variant, T>(pos: &V, items: &mut [T], mv: impl Fn(&T) -> Move) {
    let (geo, stm) = (pos.geometry(), pos.side_to_move());
    items.sort_by_key(|r| {
        let m = mv(r);
        std::cmp::Reverse(if pos.is_tactical(m) {
            SCORE_GOOD_TACTICAL + tactical_key(pos, m, geo, stm)
        } else {
            advance_hint(m, geo, stm)
        })
    });
}

/// A move's key in the continuation tables: the type of the piece that makes it
/// ([`Evaluate::mover`]) and its to-square, `type · squares + to`. [`NO_KEY`] after a null
/// move or at the root.
pub(crate) type ContKey = u32;
pub(crate) const NO_KEY: ContKey = u32::MAX;

/// The number of continuation keys of `V` on a board of `squares` squares.
fn cont_keys<V: Evaluate>(squares: usize) -> usize {
    V::MOVERS.max(1) * squares
}

/// The continuation key of `m` in `pos` (before `m` is made).
#[inline(always)]
pub(crate) fn cont_key<V: Evaluate>(pos: &V, m: Move) -> ContKey {
    let g = pos.geometry();
    pos.mover(m) as u32 * (g.width as u32 * g.height as u32) + m.to().0 as u32
}

/// What the search knows of the moves that led to a node, for ordering its moves: the
/// continuation keys of the last move and of the one before (the opponent's and one's own).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lead {
    pub keys: [ContKey; 2],
}

/// What a search learns for ordering moves, and the picker reads: killers, counter-moves,
/// the history of quiet moves and their continuation history (how a quiet move did after
/// the last move and after the one before it).
pub(crate) struct OrderTables {
    killers: Killers,
    history: History,
    /// The quiet move that refuted each last move, by the last move's key.
    counters: Vec<Move>,
    /// `cont[i]`: a quiet move's history after a move `i + 1` plies before it.
    cont: [ContHistory; 2],
}

impl OrderTables {
    /// Tables for a search of `V` on a board of `squares` squares, up to `plies` plies: one
    /// of `spare` (the tables of earlier searches) that fits, aged by [`OrderTables::age`],
    /// else empty ones.
    pub fn take<V: Evaluate>(
        spare: &mut Vec<OrderTables>,
        plies: usize,
        squares: usize,
    ) -> OrderTables {
        let keys = cont_keys::<V>(squares);
        match spare
            .iter()
            .position(|t| t.counters.len() == keys && t.killers.0.len() == plies)
        {
            Some(i) => {
                let mut t = spare.swap_remove(i);
                t.age();
                t
            }
            None => OrderTables::new::<V>(plies, squares),
        }
    }

    /// What an earlier search learned, for the next one: killers are forgotten (they belong
    /// to the plies of the old root), histories halved, counter-moves kept.
    fn age(&mut self) {
        self.killers.0.fill([Move::NONE; 2]);
        for h in &mut self.history.0 {
            *h /= 2;
        }
        for c in &mut self.cont {
            for h in &mut c.table {
                *h /= 2;
            }
        }
    }

    /// Empty tables for a search of `V` on a board of `squares` squares, up to `plies`
    /// plies.
    pub fn new<V: Evaluate>(plies: usize, squares: usize) -> OrderTables {
        let keys = cont_keys::<V>(squares);
        OrderTables {
            killers: Killers::new(plies),
            history: History::new(),
            counters: vec![Move::NONE; keys],
            cont: [ContHistory::new(keys), ContHistory::new(keys)],
        }
    }

    /// Quiet move `m` (key `key`) caused a cutoff at `ply` with `stm` to move after `lead`,
    /// after the quiet moves `tried` (with their keys) failed there: it becomes a killer and
    /// the counter of the last move and gains `bonus` history, which they lose.
    #[inline]
    pub fn cutoff(
        &mut self,
        ply: usize,
        stm: Color,
        (m, key): (Move, ContKey),
        tried: &[(Move, ContKey)],
        lead: Lead,
        bonus: i32,
    ) {
        self.killers.update(ply, m);
        if let Some(c) = self.counters.get_mut(lead.keys[0] as usize) {
            *c = m;
        }
        self.reward(stm, m, key, lead, bonus);
        for &(q, k) in tried {
            self.reward(stm, q, k, lead, -bonus);
        }
    }

    #[inline]
    fn reward(&mut self, stm: Color, m: Move, key: ContKey, lead: Lead, bonus: i32) {
        self.history.update(stm, m, bonus);
        for (table, &prev) in self.cont.iter_mut().zip(&lead.keys) {
            if prev != NO_KEY {
                table.update(prev, key, bonus);
            }
        }
    }

    /// The counter-move of the last move of `lead`, if any.
    #[inline(always)]
    fn counter(&self, lead: Lead) -> Move {
        self.counters
            .get(lead.keys[0] as usize)
            .copied()
            .unwrap_or(Move::NONE)
    }

    /// The continuation rows of the moves of `lead`: each move's row of the quiet moves'
    /// scores after it.
    #[inline(always)]
    fn rows(&self, lead: Lead) -> [Option<&[i16]>; 2] {
        [
            self.cont[0].row(lead.keys[0]),
            self.cont[1].row(lead.keys[1]),
        ]
    }

    /// The ordering score of a quiet move: its history and continuation history (`rows`,
    /// from [`OrderTables::rows`]), then [`advance_hint`] (see [`History::quiet_score`]).
    #[inline(always)]
    fn quiet_score<V: Evaluate>(
        &self,
        pos: &V,
        m: Move,
        rows: [Option<&[i16]>; 2],
        geo: Geometry,
        stm: Color,
    ) -> i64 {
        let mut h = self.history.get(stm, m);
        if rows[0].is_some() || rows[1].is_some() {
            let key = cont_key(pos, m) as usize;
            for row in rows.into_iter().flatten() {
                h += row.get(key).copied().unwrap_or(0) as i32;
            }
        }
        ((h as i64) << HINT_BITS) | advance_hint(m, geo, stm)
    }
}

/// Continuation history: a quiet move's score after a given earlier move, both by their
/// [`ContKey`]: a row of every key per earlier key. A table of all pairs has 147 456 entries
/// in chess; on 16×16 boards with a dozen types it would have millions, so there the earlier
/// keys share rows (the table holds at most [`ContHistory::MAX_ENTRIES`]).
struct ContHistory {
    table: Vec<i16>,
    keys: usize,
    rows: usize,
}

impl ContHistory {
    const MAX_ENTRIES: usize = 1 << 20;

    fn new(keys: usize) -> ContHistory {
        let rows = keys.min(Self::MAX_ENTRIES / keys.max(1)).max(1);
        ContHistory {
            table: vec![0; rows * keys],
            keys,
            rows,
        }
    }

    #[inline(always)]
    fn index(&self, prev: ContKey, key: ContKey) -> usize {
        (prev as usize % self.rows) * self.keys + key as usize
    }

    /// The row of the moves after `prev` (none for [`NO_KEY`]).
    #[inline(always)]
    fn row(&self, prev: ContKey) -> Option<&[i16]> {
        if prev == NO_KEY {
            return None;
        }
        let start = (prev as usize % self.rows) * self.keys;
        self.table.get(start..start + self.keys)
    }

    #[inline]
    fn update(&mut self, prev: ContKey, key: ContKey, bonus: i32) {
        if key as usize >= self.keys {
            return;
        }
        let i = self.index(prev, key);
        let v = self.table[i] as i32;
        self.table[i] = (v + bonus - v * bonus.abs() / HISTORY_MAX) as i16;
    }
}

/// Two killer moves per ply: quiet moves that caused a cutoff there.
struct Killers(Vec<[Move; 2]>);

impl Killers {
    fn new(plies: usize) -> Killers {
        Killers(vec![[Move::NONE; 2]; plies])
    }

    /// The killers of `ply`, the newest first.
    #[inline(always)]
    fn at(&self, ply: usize) -> [Move; 2] {
        self.0[ply]
    }

    /// `m` caused a cutoff at `ply`: it becomes the first killer there.
    #[inline]
    fn update(&mut self, ply: usize, m: Move) {
        let k = &mut self.0[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
    }
}

/// The history of quiet moves: a score per side to move, from-square and to-square, raised
/// for a move that caused a cutoff and lowered for the quiet moves tried before it.
struct History(Vec<i32>);

impl History {
    fn new() -> History {
        History(vec![0; 2 * 65_536])
    }

    #[inline(always)]
    fn index(stm: Color, m: Move) -> usize {
        (stm.index() << 16) | ((m.from().0 as usize) << 8) | m.to().0 as usize
    }

    #[inline(always)]
    fn get(&self, stm: Color, m: Move) -> i32 {
        self.0[Self::index(stm, m)]
    }

    /// Moves `stm`'s history of `m` by `bonus` (negative lowers it), saturating towards
    /// ±[`HISTORY_MAX`].
    #[inline]
    fn update(&mut self, stm: Color, m: Move, bonus: i32) {
        let h = &mut self.0[Self::index(stm, m)];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// The ordering score of a quiet move: its history, then (on equal history, as at the
    /// start of every search) the most advanced piece first and its most forward move first,
    /// each counted from the mover's own side ([`advance_hint`]). Without the second key equal
    /// scores kept the generator's square order — a1 upward — which is White's back rank
    /// first but Black's front rank first, and late-move pruning then looked at different
    /// moves for the two colours in mirrored positions.
    #[inline(always)]
    fn quiet_score(&self, m: Move, geo: Geometry, stm: Color) -> i64 {
        ((self.0[Self::index(stm, m)] as i64) << HINT_BITS) | advance_hint(m, geo, stm)
    }
}

/// A move the picker hands out, with what it knows of the move's place in the order.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Picked {
    pub mv: Move,
    score: i64,
}

impl Picked {
    /// Whether the move came before the quiet moves ordered by history: the table's move, a
    /// tactical move that does not lose material, a killer or the counter-move.
    #[inline(always)]
    pub fn before_history(&self) -> bool {
        self.score >= SCORE_KILLER - 2
    }

    /// The history of a quiet move ordered by it (meaningful only for a quiet move not
    /// [`Picked::before_history`]).
    #[inline(always)]
    pub fn history(&self) -> i32 {
        (self.score >> HINT_BITS) as i32
    }
}

/// The moves of one node of a search of `V`, handed out best first.
pub(crate) struct MovePicker<V> {
    moves: MoveList,
    /// One score per move, as long as the move list (on the heap beyond [`MAX_MOVES`]).
    scores: SmallVec<[i64; MAX_MOVES]>,
    next: usize,
    variant: PhantomData<fn(&V)>,
}

impl<V: Evaluate> MovePicker<V> {
    /// A picker without moves, for [`MovePicker::fill`] or [`MovePicker::fill_quiescence`].
    /// It is filled where it stands: a picker filled by a constructor was copied out of it,
    /// both lists (12 KB), and that took a seventh of the time of `bench`.
    #[inline(always)]
    pub fn new() -> MovePicker<V> {
        MovePicker {
            moves: MoveList::new(),
            scores: SmallVec::new(),
            next: 0,
            variant: PhantomData,
        }
    }

    /// The legal moves of a main-search node reached by `lead`: the table's move, tactical
    /// moves that do not lose material by exchange evaluation, the two killers, the
    /// counter-move of the last move, quiet moves by history and continuation history, then
    /// tactical moves that lose material.
    #[inline(always)]
    pub fn fill(&mut self, pos: &V, tt_move: Move, ply: usize, lead: Lead, tables: &OrderTables) {
        let killers = tables.killers.at(ply);
        let counter = tables.counter(lead);
        let rows = tables.rows(lead);
        let MovePicker { moves, scores, .. } = self;
        pos.legal_moves(moves);
        let (geo, stm) = (pos.geometry(), pos.side_to_move());
        for &m in moves.iter() {
            let s = if m == tt_move {
                SCORE_TT
            } else if pos.is_tactical(m) {
                let o = tactical_key(pos, m, geo, stm);
                if pos.see_ge(m, 0) {
                    SCORE_GOOD_TACTICAL + o
                } else {
                    SCORE_BAD_TACTICAL + o
                }
            } else if m == killers[0] {
                SCORE_KILLER
            } else if m == killers[1] {
                SCORE_KILLER - 1
            } else if m == counter {
                SCORE_KILLER - 2
            } else {
                tables.quiet_score(pos, m, rows, geo, stm)
            };
            scores.push(s);
        }
    }

    /// The moves of a quiescence node: tactical moves by their order (the table's move
    /// first), generated alone ([`Variant::tactical_moves`]); in check every evasion, quiet
    /// ones by history after them.
    #[inline(always)]
    pub fn fill_quiescence(
        &mut self,
        pos: &V,
        tt_move: Move,
        in_check: bool,
        tables: &OrderTables,
    ) {
        let history = &tables.history;
        let MovePicker { moves, scores, .. } = self;
        if in_check {
            pos.legal_moves(moves);
        } else {
            pos.tactical_moves(moves);
        }
        let (geo, stm) = (pos.geometry(), pos.side_to_move());
        for &m in moves.iter() {
            let s = if m == tt_move {
                SCORE_TT
            } else if !in_check || pos.is_tactical(m) {
                SCORE_GOOD_TACTICAL + tactical_key(pos, m, geo, stm)
            } else {
                history.quiet_score(m, geo, stm)
            };
            scores.push(s);
        }
    }

    /// Keeps of the moves not handed out yet only those `keep` accepts, in their order
    /// (late-move pruning drops the quiet moves that do not give check this way).
    #[inline]
    pub fn retain_late(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let n = self.next;
        let (moves, scores) = (self.moves.as_mut_slice(), self.scores.as_mut_slice());
        let mut kept = n;
        for i in n..moves.len() {
            if keep(moves[i]) {
                moves[kept] = moves[i];
                scores[kept] = scores[i];
                kept += 1;
            }
        }
        self.moves.truncate(kept);
        self.scores.truncate(kept);
    }

    /// Whether the node has no move to hand out (in the main search: no legal move).
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The best move not handed out yet (the first of equal scores as they stand).
    #[inline(always)]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<Picked> {
        let n = self.next;
        // Plain slices for the selection sort: no heap-or-stack test on every index.
        let (moves, scores) = (self.moves.as_mut_slice(), self.scores.as_mut_slice());
        if n >= moves.len() {
            return None;
        }
        // The best score so far stays in a register, and the iterator needs no bounds checks
        // (this loop was a tenth of `bench`'s time).
        let (mut bi, mut best) = (n, scores[n]);
        for (j, &s) in scores.iter().enumerate().skip(n + 1) {
            if s > best {
                (bi, best) = (j, s);
            }
        }
        moves.swap(n, bi);
        scores.swap(n, bi);
        self.next = n + 1;
        Some(Picked {
            mv: moves[n],
            score: scores[n],
        })
    }
}
