//! Evaluation of international chess: material and piece-square tables (tapered between
//! middlegame and endgame), mobility, king safety, pawn structure, bishop pair, rooks on open
//! files, threats, outposts, a mop-up term for lone kings, and a tempo bonus. Plus static
//! exchange evaluation.
//!
//! The weights are the engine's [`ChessParams`] (`chess_params.rs`): every term but king
//! danger, the mop-up and the pawnless scaling is a count times one of its (middlegame,
//! endgame) pairs, added through an [`Acc`]: [`Sum`] adds the values, [`Trace`] records the
//! counts for tuning ([`trace`]). Squares are a1 = 0 … h8 = 63; tables are written from
//! White's view and mirrored for Black.

use std::sync::OnceLock;

use crate::core::{Color, Geometry, Move, MoveKind, MoveList, Powers, Square, Variant};
use crate::variants::chess::{tables, Chess, BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, TYPES};

use super::chess_params::{self as p, half, ChessParams, COUNT, HALF};
use super::{EvalParams, Evaluate, FeatureList, Features};
use crate::engine::time::ClockShape;

/// Exchange values for SEE (and the material counts of the mop-up and pawnless scaling).
const SEE_VALUE: [i32; TYPES] = [100, 320, 330, 500, 950, 20_000];
/// Quiescence's delta margin for chess and Infinite Recursion's boards
/// ([`Evaluate::QS_DELTA`]): what a capture may fall short of alpha by, for the positional
/// gain its exchange does not count.
pub const QS_DELTA: i32 = 200;
/// Game-phase weight of each piece type; 24 at the start.
const PHASE: [i32; TYPES] = [0, 1, 1, 2, 4, 0];
pub const MAX_PHASE: i32 = 24;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// King attack weight per attacked king-zone square.
const ATTACK_WEIGHT: [i32; TYPES] = [0, 2, 2, 3, 5, 0];
/// The side to move's bonus.
pub const TEMPO: i32 = 12;

struct EvalTables {
    /// [color][square]: squares in front on the same and adjacent files (passed-pawn span).
    passed_span: [[u64; 64]; 2],
    /// [color][square]: squares in front on the same file.
    front: [[u64; 64]; 2],
    adjacent_files: [u64; 8],
    /// [square]: the king zone (king square and its neighbours).
    king_zone: [u64; 64],
}

fn eval_tables() -> &'static EvalTables {
    static T: OnceLock<EvalTables> = OnceLock::new();
    T.get_or_init(build_tables)
}

fn build_tables() -> EvalTables {
    let mut t = EvalTables {
        passed_span: [[0; 64]; 2],
        front: [[0; 64]; 2],
        adjacent_files: [0; 8],
        king_zone: [0; 64],
    };
    for sq in 0..64usize {
        let f = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        for c in Color::BOTH {
            let mut front = 0u64;
            let mut rr = r + c.forward();
            while (0..8).contains(&rr) {
                front |= 1u64 << (rr * 8 + f);
                rr += c.forward();
            }
            t.front[c.index()][sq] = front;
            let span = front | ((front << 1) & !FILE_A) | ((front >> 1) & !FILE_H);
            t.passed_span[c.index()][sq] = span;
        }
        t.king_zone[sq] = tables().king[sq] | (1u64 << sq);
    }
    for f in 0..8 {
        let file = FILE_A << f;
        t.adjacent_files[f] = ((file << 1) & !FILE_A) | ((file >> 1) & !FILE_H);
    }
    t
}

#[inline(always)]
fn relative(c: Color, sq: usize) -> usize {
    match c {
        Color::White => sq,
        Color::Black => sq ^ 56,
    }
}

#[inline(always)]
fn pawn_attacks(c: Color, pawns: u64) -> u64 {
    match c {
        Color::White => ((pawns << 7) & !FILE_H) | ((pawns << 9) & !FILE_A),
        Color::Black => ((pawns >> 9) & !FILE_H) | ((pawns >> 7) & !FILE_A),
    }
}

#[inline(always)]
fn distance(a: usize, b: usize) -> i32 {
    Geometry::CHESS.distance(Square(a as u8), Square(b as u8))
}

/// Middlegame and endgame halves of White's (or one side's) score.
#[derive(Default, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    pub mg: i32,
    pub eg: i32,
}

/// Where the terms of the evaluation go: `add(us, i, n)` is `n` times parameter `i` for
/// side `us` (0 White, 1 Black).
/// `piece` and `mobility` are the material and piece-square value of a piece of type `t` on
/// `rsq` (seen from its side) and its mobility, from the expanded tables.
trait Acc {
    fn add(&mut self, us: usize, i: usize, n: i32);
    fn piece(&mut self, us: usize, t: usize, rsq: usize);
    fn mobility(&mut self, us: usize, t: usize, count: usize);
    /// The terms of the pawn structure that depend on the pawns alone ([`pawn_terms`]);
    /// returns each side's passed pawns.
    fn pawn_structure(&mut self, pawns: [u64; 2], patt: [u64; 2]) -> [u64; 2]
    where
        Self: Sized,
    {
        pawn_terms(self, pawns, patt)
    }
}

/// The terms of both sides' pawn structures that depend on the pawns alone (doubled,
/// isolated, connected and backward pawns, and each passed pawn's rank: [`p::PAWN_ONLY`],
/// which keys the cache of [`Sum::pawn_structure`]), into `acc`: `pawns`
/// and `patt` are each side's pawns and the squares they attack. Returns each side's passed
/// pawns.
#[inline(always)]
fn pawn_terms<A: Acc>(acc: &mut A, pawns: [u64; 2], patt: [u64; 2]) -> [u64; 2] {
    let et = eval_tables();
    let mut passed = [0u64; 2];
    for c in Color::BOTH {
        let us = c.index();
        let them = (!c).index();
        let mut set = pawns[us];
        while set != 0 {
            let sq = set.trailing_zeros() as usize;
            set &= set - 1;
            let f = sq % 8;
            if et.front[us][sq] & pawns[us] != 0 {
                acc.add(us, p::DOUBLED, -1);
            }
            let rr = relative(c, sq) / 8;
            let stop = (sq as i32 + 8 * c.forward()) as usize;
            if et.adjacent_files[f] & pawns[us] == 0 {
                acc.add(us, p::ISOLATED, -1);
            } else {
                // The neighbouring files' squares of its rank.
                let beside = et.adjacent_files[f] & (0xFF << (sq / 8 * 8));
                if patt[us] & (1u64 << sq) != 0 || beside & pawns[us] != 0 {
                    acc.add(us, p::CONNECTED + rr, 1);
                } else if et.adjacent_files[f] & !et.passed_span[us][sq] & pawns[us] == 0
                    && patt[them] & (1u64 << stop) != 0
                {
                    acc.add(us, p::BACKWARD, -1);
                }
            }
            if et.passed_span[us][sq] & pawns[them] == 0 && et.front[us][sq] & pawns[us] == 0 {
                acc.add(us, p::PASSED + rr, 1);
                passed[us] |= 1u64 << sq;
            }
        }
    }
    passed
}

/// One pawn structure's share of the evaluation, as [`Sum`] adds it: both sides' pawns, the
/// fingerprint of the values it was summed with ([`ChessParams::pawn_id`]), each side's sum
/// of [`pawn_terms`] and the passed pawns.
#[derive(Clone, Copy, Default)]
struct PawnEntry {
    pawns: [u64; 2],
    id: u64,
    side: [Pair; 2],
    passed: [u64; 2],
}

/// Entries of a thread's cache of pawn structures (a power of two; 56 bytes each).
const PAWN_ENTRIES: usize = 4096;

thread_local! {
    /// Each thread's pawn structures, by a hash of the pawns and the values' fingerprint:
    /// a search meets few of them, and most positions' pawns are one it has summed before.
    static PAWN_CACHE: std::cell::RefCell<Vec<PawnEntry>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// The evaluation's values: each side's sum.
struct Sum<'a> {
    p: &'a ChessParams,
    side: [Pair; 2],
}

impl Acc for Sum<'_> {
    #[inline(always)]
    fn add(&mut self, us: usize, i: usize, n: i32) {
        let (mg, eg) = self.p.v[i];
        self.side[us].mg += mg * n;
        self.side[us].eg += eg * n;
    }
    #[inline(always)]
    fn piece(&mut self, us: usize, t: usize, rsq: usize) {
        let (mg, eg) = self.p.piece[t][rsq & 63];
        self.side[us].mg += mg;
        self.side[us].eg += eg;
    }
    #[inline(always)]
    fn mobility(&mut self, us: usize, t: usize, count: usize) {
        let (mg, eg) = self.p.mobility[t][count & 31];
        self.side[us].mg += mg;
        self.side[us].eg += eg;
    }
    /// From the thread's cache of pawn structures (the same sums, summed once).
    #[inline(always)]
    fn pawn_structure(&mut self, pawns: [u64; 2], patt: [u64; 2]) -> [u64; 2] {
        let id = self.p.pawn_id;
        let slot = (pawns[0].wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ pawns[1].wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ id)
            .wrapping_mul(0x1656_67B1_9E37_79F9)
            >> (64 - PAWN_ENTRIES.trailing_zeros());
        PAWN_CACHE.with(|cache| {
            let mut cache = cache.borrow_mut();
            if cache.is_empty() {
                cache.resize(PAWN_ENTRIES, PawnEntry::default());
            }
            let e = &mut cache[slot as usize];
            if e.pawns != pawns || e.id != id {
                let mut sum = Sum {
                    p: self.p,
                    side: [Pair::default(); 2],
                };
                let passed = pawn_terms(&mut sum, pawns, patt);
                *e = PawnEntry {
                    pawns,
                    id,
                    side: sum.side,
                    passed,
                };
            }
            for (s, e) in self.side.iter_mut().zip(&e.side) {
                s.mg += e.mg;
                s.eg += e.eg;
            }
            e.passed
        })
    }
}

/// A position's evaluation as counts of the parameters, White's minus Black's: the
/// evaluation from White's view is `Σ coef[i]·(mg[i]·phase + eg[i]·(24 − phase)) / 24`,
/// plus [`TEMPO`] for the side to move (see [`trace`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    pub coef: Vec<i32>,
    /// The game phase, 0 (bare kings and pawns) to [`MAX_PHASE`].
    pub phase: i32,
}

impl Trace {
    /// No parameter counted yet, phase 0.
    pub fn new() -> Trace {
        Trace {
            coef: vec![0; COUNT],
            phase: 0,
        }
    }
}

impl Default for Trace {
    fn default() -> Self {
        Self::new()
    }
}

impl Acc for Trace {
    #[inline(always)]
    fn add(&mut self, us: usize, i: usize, n: i32) {
        self.coef[i] += if us == 0 { n } else { -n };
    }
    #[inline(always)]
    fn piece(&mut self, us: usize, t: usize, rsq: usize) {
        self.add(us, p::MATERIAL + t, 1);
        self.add(us, p::PST + t * HALF + half(rsq), 1);
    }
    #[inline(always)]
    fn mobility(&mut self, us: usize, t: usize, count: usize) {
        self.add(us, p::MOBILITY + p::MOB_START[t] + count, 1);
    }
}

/// What the tapered terms leave for the rest of the evaluation.
struct Totals {
    phase: i32,
    /// Each side's material by [`SEE_VALUE`], the king excluded.
    material: [i32; 2],
    pawns: [u64; 2],
    ksq: [usize; 2],
}

/// Each side's pawns (White's, Black's) and the squares they attack.
#[inline(always)]
fn pawn_sets(pos: &Chess) -> ([u64; 2], [u64; 2]) {
    let pawns = [
        pos.pieces(Color::White, PAWN),
        pos.pieces(Color::Black, PAWN),
    ];
    let patt = [
        pawn_attacks(Color::White, pawns[0]),
        pawn_attacks(Color::Black, pawns[1]),
    ];
    (pawns, patt)
}

/// The tapered terms of the evaluation, into `acc`.
#[inline(always)]
fn terms<A: Acc>(pos: &Chess, acc: &mut A) -> Totals {
    let t = tables();
    let et = eval_tables();
    let occ = pos.occupied();
    let mut phase = 0;
    let mut material = [0i32; 2];
    let (pawns, patt) = pawn_sets(pos);
    let ksq = [
        pos.king_square(Color::White).index(),
        pos.king_square(Color::Black).index(),
    ];
    // King attacks made by colour c on the other king.
    let mut attackers = [0i32; 2];
    let mut attack_weight = [0i32; 2];
    // Squares each colour attacks: by its minor pieces, its rooks, and by anything.
    let mut minor_att = [0u64; 2];
    let mut rook_att = [0u64; 2];
    // Squares each colour attacks with each piece type.
    let mut type_att = [[0u64; TYPES]; 2];
    let mut all_att = [patt[0] | t.king[ksq[0]], patt[1] | t.king[ksq[1]]];
    let passed = acc.pawn_structure(pawns, patt);

    for c in Color::BOTH {
        let us = c.index();
        let them = (!c).index();
        let area = !pos.color_set(c) & !patt[them];
        let zone = et.king_zone[ksq[them]];
        for pt in 0..TYPES as u8 {
            let pi = pt as usize;
            let mut set = pos.pieces(c, pt);
            while set != 0 {
                let sq = set.trailing_zeros() as usize;
                set &= set - 1;
                let rsq = relative(c, sq);
                acc.piece(us, pi, rsq);
                phase += PHASE[pi];
                if pt != KING {
                    material[us] += SEE_VALUE[pi];
                }
                let attacks = match pt {
                    KNIGHT => t.knight[sq],
                    BISHOP => t.bishop_attacks(Square(sq as u8), occ),
                    ROOK => t.rook_attacks(Square(sq as u8), occ),
                    QUEEN => {
                        t.bishop_attacks(Square(sq as u8), occ)
                            | t.rook_attacks(Square(sq as u8), occ)
                    }
                    _ => continue,
                };
                all_att[us] |= attacks;
                type_att[us][pi] |= attacks;
                if (pt == KNIGHT || pt == BISHOP)
                    && (3..=5).contains(&(rsq / 8))
                    && patt[us] & (1u64 << sq) != 0
                    && et.passed_span[us][sq] & !et.front[us][sq] & pawns[them] == 0
                {
                    acc.add(us, p::OUTPOST + pi, 1);
                }
                match pt {
                    KNIGHT | BISHOP => minor_att[us] |= attacks,
                    ROOK => rook_att[us] |= attacks,
                    _ => {}
                }
                let mob = (attacks & area).count_ones() as usize;
                acc.mobility(us, pi, mob);
                let hits = (attacks & zone).count_ones() as i32;
                if hits > 0 {
                    attackers[us] += 1;
                    attack_weight[us] += ATTACK_WEIGHT[pi] * hits;
                }
                if pt == ROOK {
                    let file = FILE_A << (sq % 8);
                    if file & pawns[us] == 0 {
                        if file & pawns[them] == 0 {
                            acc.add(us, p::ROOK_OPEN, 1);
                        } else {
                            acc.add(us, p::ROOK_SEMI_OPEN, 1);
                        }
                    }
                }
            }
        }
        if pos.pieces(c, BISHOP).count_ones() >= 2 {
            acc.add(us, p::BISHOP_PAIR, 1);
        }

        // Passed pawns: the terms of the kings' distances and of a free stop square (the
        // rest of the pawn structure is the pawns' alone: `pawn_structure`).
        let mut set = passed[us];
        while set != 0 {
            let sq = set.trailing_zeros() as usize;
            set &= set - 1;
            let rr = relative(c, sq) / 8;
            let stop = (sq as i32 + 8 * c.forward()) as usize;
            // King proximity to the square in front matters in endgames.
            acc.add(us, p::PASSED_KING_THEIRS + rr, distance(ksq[them], stop));
            acc.add(us, p::PASSED_KING_OURS + rr, -distance(ksq[us], stop));
            if occ & (1u64 << stop) == 0 {
                acc.add(us, p::PASSED_FREE + rr, 1);
            }
        }

        // Pawn shield in front of a king on its first two ranks.
        let k = ksq[us];
        if relative(c, k) / 8 <= 1 {
            let kf = (k % 8) as i32;
            for f in (kf - 1).max(0)..=(kf + 1).min(7) {
                let file = FILE_A << f;
                let span =
                    et.front[us][k] & file | et.front[us][(k as i32 + (f - kf)) as usize] & file;
                let near = span & pawns[us];
                // A shield pawn within two ranks of the king.
                let ok = near != 0 && {
                    let p = if c == Color::White {
                        near.trailing_zeros() as usize
                    } else {
                        63 - near.leading_zeros() as usize
                    };
                    distance(p, k) <= 2
                };
                if !ok {
                    acc.add(us, p::SHIELD_MISSING, -1);
                    if file & pawns[us] == 0 {
                        acc.add(us, p::SHIELD_OPEN, -1);
                    }
                }
            }
        }
    }

    // Threats on the other side's pieces.
    for c in Color::BOTH {
        let us = c.index();
        let them = (!c).index();
        let theirs = pos.color_set(!c) & !(1u64 << ksq[them]);
        let pieces = theirs & !pawns[them];
        let heavy = pos.pieces(!c, ROOK) | pos.pieces(!c, QUEEN);
        let count = |b: u64| b.count_ones() as i32;
        acc.add(us, p::THREAT_BY_PAWN, count(patt[us] & pieces));
        acc.add(us, p::THREAT_BY_MINOR, count(minor_att[us] & heavy));
        acc.add(
            us,
            p::THREAT_BY_ROOK,
            count(rook_att[us] & pos.pieces(!c, QUEEN)),
        );
        acc.add(us, p::HANGING, count(all_att[us] & theirs & !all_att[them]));

        // Safe checks on their king.
        let k = Square(ksq[them] as u8);
        let safe = !all_att[them] & !pos.color_set(c);
        let diag = t.bishop_attacks(k, occ);
        let orth = t.rook_attacks(k, occ);
        let checks = [
            (KNIGHT, t.knight[ksq[them]]),
            (BISHOP, diag),
            (ROOK, orth),
            (QUEEN, diag | orth),
        ];
        for (pt, from) in checks {
            if type_att[us][pt as usize] & from & safe != 0 {
                acc.add(us, p::SAFE_CHECK + pt as usize, 1);
            }
        }
    }

    // King danger: several attackers on the zone, by their weight; a table of its own without
    // a queen.
    for c in Color::BOTH {
        let us = c.index();
        if attackers[us] >= 2 {
            let w = (attack_weight[us] as usize).min(p::DANGER_LEN - 1);
            let table = if pos.pieces(c, QUEEN) == 0 {
                p::KING_DANGER_NO_QUEEN
            } else {
                p::KING_DANGER
            };
            acc.add(us, table + w, 1);
        }
    }

    Totals {
        phase: phase.min(MAX_PHASE),
        material,
        pawns,
        ksq,
    }
}

/// The side whose king is alone (beside at most a marked piece that cannot capture) against
/// at least a rook's worth of material: the mop-up's loser.
fn lone_king(pos: &Chess, tot: &Totals) -> Option<Color> {
    // A marked piece that cannot capture (Infinite Recursion's mega-knight in every state but
    // Armed) does not defend its king: the king counts as lone beside it.
    Color::BOTH.into_iter().find(|&loser| {
        let harmless = match pos.mark(loser) {
            Some(m) if m.powers.has(Powers::NO_CAPTURE) || m.powers.has(Powers::NO_MOVE) => 1,
            _ => 0,
        };
        pos.color_set(loser).count_ones() == 1 + harmless
            && tot.material[(!loser).index()] >= SEE_VALUE[ROOK as usize]
    })
}

/// Whether side `s` has no pawns and at most a bishop's worth of material more than the
/// other: an edge that rarely wins.
fn small_pawnless_edge(tot: &Totals, s: usize) -> bool {
    tot.pawns[s] == 0 && tot.material[s] - tot.material[1 - s] <= SEE_VALUE[BISHOP as usize]
}

/// The evaluation from White's view.
fn evaluate_white(pos: &Chess, params: &ChessParams) -> i32 {
    let mut sum = Sum {
        p: params,
        side: [Pair::default(); 2],
    };
    let tot = terms(pos, &mut sum);
    let mg = sum.side[0].mg - sum.side[1].mg;
    let eg = sum.side[0].eg - sum.side[1].eg;
    let phase = tot.phase;
    let mut score = (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;

    // Mop-up: drive a lone king to the edge and bring the kings together.
    if let Some(loser) = lone_king(pos, &tot) {
        let lk = tot.ksq[loser.index()];
        let (f, r) = ((lk % 8) as i32, (lk / 8) as i32);
        let edge = (3 - f.min(7 - f)) + (3 - r.min(7 - r));
        let bonus = 20 * edge + 8 * (7 - distance(tot.ksq[(!loser).index()], lk)) + 200;
        score += if loser == Color::Black { bonus } else { -bonus };
    }

    // Without pawns, a small material edge rarely wins.
    let strong = if score > 0 { 0 } else { 1 };
    if small_pawnless_edge(&tot, strong) {
        score /= if tot.material[strong] <= SEE_VALUE[BISHOP as usize] {
            16
        } else {
            4
        };
    }
    score
}

/// The evaluation of `pos` as counts of the parameters ([`Trace`]), for tuning; `None` where
/// a term outside the parameters decides it (a lone king's mop-up, the pawnless scaling of
/// either side).
pub fn trace(pos: &Chess) -> Option<Trace> {
    let mut tr = Trace::new();
    let tot = terms(pos, &mut tr);
    if lone_king(pos, &tot).is_some()
        || small_pawnless_edge(&tot, 0)
        || small_pawnless_edge(&tot, 1)
    {
        return None;
    }
    tr.phase = tot.phase;
    Some(tr)
}

/// Static exchange evaluation on chess: whether `m` gains at least `threshold`.
/// The most material the side to move wins with one capture, by static exchange (0 when no
/// capture wins anything): what a quiescence search would find first on this board. Used where
/// a board's side to move is not the one to move next in the game (Infinite Recursion, IR-5).
pub fn best_capture_gain(pos: &Chess) -> i32 {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let me = pos.side_to_move();
    let mut best = 0;
    for &m in moves.iter() {
        let Some((c, pt)) = pos.piece_at(m.to()) else {
            continue;
        };
        let v = SEE_VALUE[pt as usize];
        if c == me || v <= best || !see_ge(pos, m, best + 1) {
            continue;
        }
        // The largest threshold the exchange still meets, in (best, v].
        let (mut lo, mut hi) = (best + 1, v);
        while lo < hi {
            let mid = (lo + hi + 1) / 2;
            if see_ge(pos, m, mid) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        best = lo;
    }
    best
}

fn see_ge(pos: &Chess, m: Move, threshold: i32) -> bool {
    match m.kind() {
        MoveKind::Normal | MoveKind::PawnPush => {}
        // The pawn taken en passant: its square is not `to`, so no swap list (a recapture
        // on `to` is not counted), but quiescence's delta asks for more than nothing.
        MoveKind::EnPassant => return SEE_VALUE[PAWN as usize] >= threshold,
        MoveKind::Promotion => return true,
        _ => return 0 >= threshold,
    }
    let t = tables();
    let from = m.from();
    let to = m.to();
    let Some((me, mover)) = pos.piece_at(from) else {
        return true;
    };
    let victim = pos.piece_at(to).map_or(0, |(_, pt)| SEE_VALUE[pt as usize]);
    let mut swap = victim - threshold;
    if swap < 0 {
        return false;
    }
    swap = SEE_VALUE[mover as usize] - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied() ^ (1u64 << from.0) ^ (1u64 << to.0);
    let mut stm = me;
    let mut attackers = pos.attackers_to(to, occ);
    let diag = pos.type_set(BISHOP) | pos.type_set(QUEEN);
    let orth = pos.type_set(ROOK) | pos.type_set(QUEEN);
    let mut res = true;
    loop {
        stm = !stm;
        attackers &= occ;
        let mine = attackers & pos.color_set(stm);
        if mine == 0 {
            break;
        }
        res = !res;
        let mut found = None;
        for pt in 0..TYPES as u8 {
            let b = mine & pos.type_set(pt);
            if b != 0 {
                found = Some((pt, b & b.wrapping_neg()));
                break;
            }
        }
        let Some((pt, bit)) = found else { break };
        if pt == KING {
            // The king may take only if nothing defends any more.
            return if attackers & pos.color_set(!stm) != 0 {
                !res
            } else {
                res
            };
        }
        swap = SEE_VALUE[pt as usize] - swap;
        if swap < res as i32 {
            break;
        }
        occ ^= bit;
        if pt == PAWN || pt == BISHOP || pt == QUEEN {
            attackers |= t.bishop_attacks(to, occ) & diag;
        }
        if pt == ROOK || pt == QUEEN {
            attackers |= t.rook_attacks(to, occ) & orth;
        }
    }
    res
}

/// Material: White's count minus Black's of each piece type but the king, a pawn = 100.
pub const FEATURES: FeatureList = FeatureList {
    names: &["pawn", "knight", "bishop", "rook", "queen"],
    anchor: 0,
    anchor_black: false,
    material: 5,
};

/// The piece types of [`FEATURES`], in its order.
const FEATURE_TYPES: [u8; 5] = [PAWN, KNIGHT, BISHOP, ROOK, QUEEN];

/// The features of [`FEATURES`] summed over `boards` (Infinite Recursion Chess has two).
pub fn material_features(boards: &[&Chess]) -> Vec<f64> {
    FEATURE_TYPES
        .iter()
        .map(|&t| {
            boards
                .iter()
                .map(|b| {
                    b.pieces(Color::White, t).count_ones() as f64
                        - b.pieces(Color::Black, t).count_ones() as f64
                })
                .sum()
        })
        .collect()
}

impl Features for Chess {
    const FEATURES: FeatureList = FEATURES;

    fn features(&self) -> Vec<f64> {
        material_features(&[self])
    }
}

impl Chess {
    /// The evaluation (the side to move's view) with the chess parameters `params`.
    pub fn evaluate_with_chess(&self, params: &ChessParams) -> i32 {
        let white = evaluate_white(self, params);
        let s = if self.side_to_move() == Color::White {
            white
        } else {
            -white
        };
        s + TEMPO
    }
}

impl Evaluate for Chess {
    const CLOCK: ClockShape = ClockShape::RAMP;

    /// [`ClockShape::RAMP`] at this position's ply by its move number (a game set up from a
    /// FEN counts the moves before it).
    fn clock_shape(&self) -> ClockShape {
        let ply = 2 * (self.fullmove_number().max(1) as u32 - 1)
            + (self.side_to_move() == Color::Black) as u32;
        Self::CLOCK.at_ply(ply)
    }

    fn evaluate_with(&self, params: &EvalParams) -> i32 {
        // The network corrects the table (it was trained on what the table's evaluation
        // missed). A lone king is driven to the edge by the table's mop-up alone: the
        // self-play positions rarely teach that ending.
        let lone = || {
            self.color_set(Color::White).count_ones() == 1
                || self.color_set(Color::Black).count_ones() == 1
        };
        let table = self.evaluate_with_chess(&params.chess);
        match params.chess_net.network() {
            Some(net) if !lone() => table + net.evaluate(self),
            _ => table,
        }
    }

    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        see_ge(self, m, threshold)
    }

    const QS_DELTA: Option<i32> = Some(QS_DELTA);
    const MOVERS: usize = TYPES;

    fn mover(&self, m: Move) -> u8 {
        self.piece_at(m.from()).map_or(0, |(_, pt)| pt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::core::fen::mirror_placement;
    use crate::core::{Dialect, Variant};

    /// The table's evaluation (the network has tests of its own, in `nnue`).
    fn eval(fen: &str) -> i32 {
        Chess::from_fen(fen)
            .unwrap()
            .evaluate_with_chess(&ChessParams::DEFAULT)
    }

    /// Every value-slot array has one entry per `PieceDef` of the list (its type is
    /// `[i32; TYPES]`, `TYPES = PIECES.len()`), and the features are named by their types.
    #[test]
    fn value_slots_are_the_piece_list() {
        use crate::variants::chess::PIECES;
        for s in [SEE_VALUE, PHASE, ATTACK_WEIGHT] {
            assert_eq!(s.len(), PIECES.len());
        }
        assert_eq!(p::MOB_LEN.len(), PIECES.len());
        assert_eq!(FEATURES.names.len(), FEATURE_TYPES.len());
        for (name, &t) in FEATURES.names.iter().zip(&FEATURE_TYPES) {
            assert_eq!(*name, PIECES[t as usize].name.to_lowercase());
        }
    }

    /// The positions of [`trace_reproduces_the_evaluation`]: every position one move from
    /// each of five FENs (pawns on both sides, no lone king).
    fn traced_positions() -> Vec<Chess> {
        let mut out = Vec::new();
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R b KQ - 0 1",
            "6k1/5ppp/8/2N5/3P4/4B3/5PPP/6K1 w - - 0 1",
        ] {
            let mut pos = Chess::from_fen(fen).unwrap();
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            for &m in moves.iter() {
                pos.make_move(m);
                out.push(pos.clone());
                pos.unmake_move();
            }
        }
        // Legal moves of the five positions (python-chess agrees).
        assert_eq!(out.len(), 20 + 48 + 14 + 34 + 22);
        out
    }

    /// The tapered score from White's view that the counts of `pos`'s [`Trace`] give with
    /// the values `params`.
    fn traced(pos: &Chess, params: &ChessParams) -> i32 {
        let tr = trace(pos).expect("pawns on both sides, no lone king");
        let (mut mg, mut eg) = (0, 0);
        for (i, &c) in tr.coef.iter().enumerate() {
            mg += c * params.v[i].0;
            eg += c * params.v[i].1;
        }
        (mg * tr.phase + eg * (MAX_PHASE - tr.phase)) / MAX_PHASE
    }

    /// The evaluation is linear in the parameters: the counts a [`Trace`] records give, with
    /// the default values, exactly the tapered score `evaluate_white` computes, in the
    /// positions of a few games' worth of moves (every position one move from each FEN);
    /// and a lone king's mop-up or a pawnless scaling gives no trace.
    #[test]
    fn trace_reproduces_the_evaluation() {
        let params = ChessParams::DEFAULT;
        for pos in traced_positions() {
            assert_eq!(
                evaluate_white(&pos, &params),
                traced(&pos, &params),
                "{}",
                pos.fen()
            );
        }
        for lone in [
            "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
            "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
        ] {
            assert_eq!(trace(&Chess::from_fen(lone).unwrap()), None, "{lone}");
        }
    }

    /// The thread's cache of pawn structures gives the sums the values would: two sets of
    /// values that differ only in pawn-only terms (doubled, passed on the fourth rank),
    /// evaluated in turn over the same positions, twice (the second round from the cache),
    /// each equal to its own trace's score; their fingerprints differ, and a value outside
    /// those terms leaves the fingerprint as it was.
    #[test]
    fn the_pawn_cache_never_mixes_values() {
        let default = ChessParams::DEFAULT;
        let mut v = default.v;
        v[p::DOUBLED].1 += 37;
        v[p::PASSED + 3].0 -= 21;
        let other = ChessParams::new(v);
        assert_ne!(default.pawn_id, other.pawn_id);
        // A value outside the pawn-only terms keeps the fingerprint.
        let mut w = default.v;
        w[p::BISHOP_PAIR].0 += 5;
        assert_eq!(ChessParams::new(w).pawn_id, default.pawn_id);
        let positions = traced_positions();
        let mut differ = 0;
        for _ in 0..2 {
            for pos in &positions {
                let (a, b) = (evaluate_white(pos, &default), evaluate_white(pos, &other));
                assert_eq!(a, traced(pos, &default), "{}", pos.fen());
                assert_eq!(b, traced(pos, &other), "{}", pos.fen());
                differ += (a != b) as usize;
            }
        }
        // Positions with a doubled pawn or a passed pawn on the fourth rank: 22 a round.
        assert_eq!(differ, 2 * 22);
    }

    /// The pawn terms add only the parameters [`p::PAWN_ONLY`] lists (the values the pawn
    /// cache's key fingerprints), and every one of them somewhere in the traced positions.
    #[test]
    fn the_pawn_terms_are_the_fingerprinted_parameters() {
        let listed = |i: usize| p::PAWN_ONLY.iter().any(|&(f, n)| (f..f + n).contains(&i));
        let mut touched = vec![false; COUNT];
        for pos in traced_positions() {
            let (pawns, patt) = pawn_sets(&pos);
            let mut tr = Trace::new();
            pawn_terms(&mut tr, pawns, patt);
            for (i, &c) in tr.coef.iter().enumerate() {
                if c != 0 {
                    assert!(listed(i), "parameter {i} ({}) is not listed", p::name(i));
                    touched[i] = true;
                }
            }
        }
        let kinds = [
            p::DOUBLED,
            p::ISOLATED,
            p::BACKWARD,
            p::CONNECTED + 1,
            p::PASSED + 4,
        ];
        for i in kinds {
            assert!(touched[i], "{}", p::name(i));
        }
    }

    #[test]
    fn best_capture_gain_is_the_static_exchange_of_the_best_capture() {
        let gain = |fen: &str| best_capture_gain(&Chess::from_fen(fen).unwrap());
        // A queen en prise: the rook wins all of it.
        assert_eq!(gain("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1"), 950);
        // Defended by a pawn: queen for rook.
        assert_eq!(gain("4k3/8/4p3/3q4/8/8/8/3RK3 w - - 0 1"), 450);
        // Only a losing capture (rook takes a defended pawn): nothing.
        assert_eq!(gain("4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1"), 0);
        // The side to move's view: Black wins the rook with the queen.
        assert_eq!(gain("4k3/8/8/3q4/8/8/3R4/6K1 b - - 0 1"), 500);
    }

    /// The same position with colours swapped and the board mirrored.
    fn mirror(fen: &str) -> String {
        let mut f = fen.split_whitespace();
        let board = mirror_placement(f.next().unwrap());
        let stm = if f.next() == Some("w") { "b" } else { "w" };
        format!("{board} {stm} - - 0 1")
    }

    #[test]
    fn symmetric() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R b - - 0 1",
        ] {
            assert_eq!(eval(fen), eval(&mirror(fen)), "{fen}");
        }
    }

    #[test]
    fn start_is_balanced_and_material_counts() {
        assert_eq!(
            eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"),
            TEMPO
        );
        // White is a queen up.
        assert!(eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1") > 800);
        assert!(eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1") < -800);
    }

    /// Connected pawns are counted by their rank from their own side (defended: d3; side by
    /// side: g2 h2, and Black's e5 f5 on its fourth rank); c2 is backward (nothing beside or
    /// behind it, its stop square c3 attacked by b4); b4 is isolated, so neither.
    #[test]
    fn connected_and_backward_pawns_are_counted() {
        let pos = Chess::from_fen("6k1/8/8/4pp2/1p6/3P4/2P3PP/6K1 w - - 0 1").unwrap();
        let tr = trace(&pos).expect("no lone king");
        let connected: Vec<i32> = (0..8).map(|r| tr.coef[p::CONNECTED + r]).collect();
        assert_eq!(connected, [0, 2, 1, -2, 0, 0, 0, 0]);
        assert_eq!(tr.coef[p::BACKWARD], -1);
        assert_eq!(tr.coef[p::ISOLATED], 1);
    }

    #[test]
    fn passed_pawn_is_good() {
        let passed = eval("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1");
        let blocked = eval("4k3/3p4/8/3P4/8/8/8/4K3 w - - 0 1");
        assert!(passed > 100, "{passed}");
        assert!(passed - 100 > blocked, "{passed} {blocked}");
    }

    #[test]
    fn see_values_exchanges() {
        let pos = Chess::from_fen("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1").unwrap();
        let m = pos.parse_move("e1e5", Dialect::UCI).unwrap();
        assert!(pos.see_ge(m, 0)); // pawn free
        assert!(pos.see_ge(m, 100));
        assert!(!pos.see_ge(m, 101));
        let pos =
            Chess::from_fen("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1").unwrap();
        let m = pos.parse_move("d3e5", Dialect::UCI).unwrap();
        assert!(!pos.see_ge(m, 0)); // NxP, then loses the knight for a pawn
        assert!(pos.see_ge(m, -300));
    }

    /// An en-passant capture wins the pawn it takes, as far as quiescence's delta asks
    /// (its threshold above nothing); promotions stay "not known to lose", castling is
    /// worth nothing.
    #[test]
    fn see_counts_en_passant_as_a_pawn() {
        let pos = Chess::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2").unwrap();
        let ep = pos.parse_move("e5d6", Dialect::UCI).unwrap();
        assert_eq!(ep.kind(), MoveKind::EnPassant);
        assert!(pos.see_ge(ep, 0));
        assert!(pos.see_ge(ep, 100));
        assert!(!pos.see_ge(ep, 101));
        let pos = Chess::from_fen("4k3/1P6/8/8/8/8/8/R3K3 w Q - 0 1").unwrap();
        let promo = pos.parse_move("b7b8q", Dialect::UCI).unwrap();
        assert!(pos.see_ge(promo, 900));
        let castle = pos.parse_move("e1c1", Dialect::UCI).unwrap();
        assert_eq!(castle.kind(), MoveKind::Castle);
        assert!(pos.see_ge(castle, 0));
        assert!(!pos.see_ge(castle, 1));
    }
}
