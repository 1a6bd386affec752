//! Evaluation of international chess: material and piece-square tables (tapered between
//! middlegame and endgame), mobility, king safety, pawn structure, bishop pair, rooks on open
//! files, a mop-up term for lone kings, and a tempo bonus. Plus static exchange evaluation.
//!
//! Squares are a1 = 0 … h8 = 63; tables are written from White's view and mirrored for Black.

use std::sync::OnceLock;

use crate::core::{Color, Move, MoveKind, MoveList, Powers, Square, Variant};
use crate::variants::chess::{tables, Chess, BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, TYPES};

use super::{EvalParams, Evaluate, FeatureList, Features};

const MG_VALUE: [i32; TYPES] = [85, 325, 335, 470, 1000, 0];
const EG_VALUE: [i32; TYPES] = [105, 300, 315, 520, 960, 0];
/// Exchange values for SEE.
const SEE_VALUE: [i32; TYPES] = [100, 320, 330, 500, 950, 20_000];
/// Game-phase weight of each piece type; 24 at the start.
const PHASE: [i32; TYPES] = [0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Mobility: (middlegame, endgame) per reachable square, around a typical count.
const MOB_MG: [i32; TYPES] = [0, 4, 5, 2, 1, 0];
const MOB_EG: [i32; TYPES] = [0, 4, 5, 4, 2, 0];
const MOB_MID: [i32; TYPES] = [0, 4, 6, 7, 13, 0];
/// King attack weight per attacked king-zone square.
const ATTACK_WEIGHT: [i32; TYPES] = [0, 2, 2, 3, 5, 0];

const PASSED_MG: [i32; 8] = [0, 5, 8, 14, 28, 50, 80, 0];
const PASSED_EG: [i32; 8] = [0, 10, 15, 25, 45, 80, 125, 0];
const DOUBLED: (i32, i32) = (10, 20);
const ISOLATED: (i32, i32) = (12, 14);
const BISHOP_PAIR: (i32, i32) = (30, 50);
const ROOK_OPEN: (i32, i32) = (22, 8);
const ROOK_SEMI_OPEN: (i32, i32) = (10, 5);
const SHIELD_MISSING: i32 = 12;
const TEMPO: i32 = 12;
/// Threats, (middlegame, endgame) per piece: a piece but a pawn attacked by a pawn, a rook or
/// queen attacked by a minor piece, a queen attacked by a rook, and a piece but the king
/// attacked and not defended (hanging).
const THREAT_BY_PAWN: (i32, i32) = (55, 35);
const THREAT_BY_MINOR: (i32, i32) = (40, 30);
const THREAT_BY_ROOK: (i32, i32) = (40, 20);
const HANGING: (i32, i32) = (25, 15);
/// A knight or bishop on an outpost: on the 4th to 6th rank (counted from its side), defended
/// by a pawn, and no enemy pawn on a neighbouring file can ever attack it.
const OUTPOST: [(i32, i32); TYPES] = [(0, 0), (30, 15), (15, 5), (0, 0), (0, 0), (0, 0)];
/// King danger, middlegame centipawns per kind of piece that can give a safe check (from a
/// square the king's side does not attack and the checker's side does not occupy): knight,
/// bishop, rook, queen.
const SAFE_CHECK: [i32; TYPES] = [0, 45, 30, 50, 40, 0];

struct EvalTables {
    mg: [[i32; 64]; TYPES],
    eg: [[i32; 64]; TYPES],
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
        mg: [[0; 64]; TYPES],
        eg: [[0; 64]; TYPES],
        passed_span: [[0; 64]; 2],
        front: [[0; 64]; 2],
        adjacent_files: [0; 8],
        king_zone: [0; 64],
    };
    const KING_MG_BACK: [i32; 8] = [15, 25, 10, -5, -5, 10, 25, 15];
    const KING_MG_SECOND: [i32; 8] = [5, 5, -10, -20, -20, -10, 5, 5];
    for sq in 0..64usize {
        let f = (sq % 8) as i32;
        let r = (sq / 8) as i32;
        let fc = f.min(7 - f); // 0 on the edge, 3 in the centre
        let rc = r.min(7 - r);
        let cent = fc + rc;
        // Pawns: advance, central pawns more; flank pawns at home shelter the king.
        if (1..7).contains(&r) {
            let mut mg = (r - 1) * 4;
            if fc >= 2 {
                mg += (r - 1).min(3) * 5;
            }
            if r == 1 && fc == 3 {
                mg -= 10;
            }
            if r == 1 && fc <= 1 {
                mg += 5;
            }
            t.mg[PAWN as usize][sq] = mg;
            t.eg[PAWN as usize][sq] = (r - 1) * 8;
        }
        let outpost = if (3..=5).contains(&r) && fc >= 1 {
            6
        } else {
            0
        };
        t.mg[KNIGHT as usize][sq] = 7 * cent - 22 + outpost;
        t.eg[KNIGHT as usize][sq] = 6 * cent - 18;
        let diagonal = if f == r || f + r == 7 { 6 } else { 0 };
        t.mg[BISHOP as usize][sq] = 4 * cent - 10 + diagonal;
        t.eg[BISHOP as usize][sq] = 4 * cent - 12;
        let seventh = if r == 6 { 1 } else { 0 };
        t.mg[ROOK as usize][sq] = 15 * seventh + [0, 0, 3, 6][fc as usize];
        t.eg[ROOK as usize][sq] = 12 * seventh;
        t.mg[QUEEN as usize][sq] = 2 * cent - 6;
        t.eg[QUEEN as usize][sq] = 5 * cent - 15;
        t.mg[KING as usize][sq] = match r {
            0 => KING_MG_BACK[f as usize],
            1 => KING_MG_SECOND[f as usize],
            _ => -25 - 15 * (r - 2),
        };
        t.eg[KING as usize][sq] = 9 * cent - 30;

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
    let df = ((a % 8) as i32 - (b % 8) as i32).abs();
    let dr = ((a / 8) as i32 - (b / 8) as i32).abs();
    df.max(dr)
}

/// Middlegame and endgame halves of White's (or one side's) score.
#[derive(Default, Clone, Copy)]
struct Pair {
    mg: i32,
    eg: i32,
}

impl Pair {
    #[inline(always)]
    fn add(&mut self, mg: i32, eg: i32) {
        self.mg += mg;
        self.eg += eg;
    }
}

/// The evaluation from White's view.
fn evaluate_white(pos: &Chess) -> i32 {
    let t = tables();
    let et = eval_tables();
    let occ = pos.occupied();
    let mut side = [Pair::default(); 2];
    let mut phase = 0;
    let mut material = [0i32; 2];
    let pawns = [
        pos.pieces(Color::White, PAWN),
        pos.pieces(Color::Black, PAWN),
    ];
    let patt = [
        pawn_attacks(Color::White, pawns[0]),
        pawn_attacks(Color::Black, pawns[1]),
    ];
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

    for c in Color::BOTH {
        let us = c.index();
        let them = (!c).index();
        let s = &mut side[us];
        let area = !pos.color_set(c) & !patt[them];
        let zone = et.king_zone[ksq[them]];
        for pt in 0..TYPES as u8 {
            let p = pt as usize;
            let mut set = pos.pieces(c, pt);
            while set != 0 {
                let sq = set.trailing_zeros() as usize;
                set &= set - 1;
                let rsq = relative(c, sq);
                s.add(MG_VALUE[p] + et.mg[p][rsq], EG_VALUE[p] + et.eg[p][rsq]);
                phase += PHASE[p];
                if pt != KING {
                    material[us] += SEE_VALUE[p];
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
                type_att[us][p] |= attacks;
                if (pt == KNIGHT || pt == BISHOP)
                    && (3..=5).contains(&(rsq / 8))
                    && patt[us] & (1u64 << sq) != 0
                    && et.passed_span[us][sq] & !et.front[us][sq] & pawns[them] == 0
                {
                    s.add(OUTPOST[p].0, OUTPOST[p].1);
                }
                match pt {
                    KNIGHT | BISHOP => minor_att[us] |= attacks,
                    ROOK => rook_att[us] |= attacks,
                    _ => {}
                }
                let mob = (attacks & area).count_ones() as i32 - MOB_MID[p];
                s.add(MOB_MG[p] * mob, MOB_EG[p] * mob);
                let hits = (attacks & zone).count_ones() as i32;
                if hits > 0 {
                    attackers[us] += 1;
                    attack_weight[us] += ATTACK_WEIGHT[p] * hits;
                }
                if pt == ROOK {
                    let file = FILE_A << (sq % 8);
                    if file & pawns[us] == 0 {
                        if file & pawns[them] == 0 {
                            s.add(ROOK_OPEN.0, ROOK_OPEN.1);
                        } else {
                            s.add(ROOK_SEMI_OPEN.0, ROOK_SEMI_OPEN.1);
                        }
                    }
                }
            }
        }
        if pos.pieces(c, BISHOP).count_ones() >= 2 {
            s.add(BISHOP_PAIR.0, BISHOP_PAIR.1);
        }

        // Pawn structure.
        let mut set = pawns[us];
        while set != 0 {
            let sq = set.trailing_zeros() as usize;
            set &= set - 1;
            let f = sq % 8;
            if et.front[us][sq] & pawns[us] != 0 {
                s.add(-DOUBLED.0, -DOUBLED.1);
            }
            if et.adjacent_files[f] & pawns[us] == 0 {
                s.add(-ISOLATED.0, -ISOLATED.1);
            }
            if et.passed_span[us][sq] & pawns[them] == 0 && et.front[us][sq] & pawns[us] == 0 {
                let rr = relative(c, sq) / 8;
                let mut eg = PASSED_EG[rr];
                let stop = (sq as i32 + 8 * c.forward()) as usize;
                if rr >= 3 {
                    // King proximity to the square in front matters in endgames.
                    let w = (rr as i32 - 2) * 5;
                    eg += w * distance(ksq[them], stop) - w / 2 * distance(ksq[us], stop);
                    if occ & (1u64 << stop) == 0 {
                        eg += PASSED_EG[rr] / 4;
                    }
                }
                s.add(PASSED_MG[rr], eg);
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
                    s.mg -= SHIELD_MISSING;
                    if file & pawns[us] == 0 {
                        s.mg -= SHIELD_MISSING;
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
        let n = count(patt[us] & pieces);
        side[us].add(THREAT_BY_PAWN.0 * n, THREAT_BY_PAWN.1 * n);
        let n = count(minor_att[us] & heavy);
        side[us].add(THREAT_BY_MINOR.0 * n, THREAT_BY_MINOR.1 * n);
        let n = count(rook_att[us] & pos.pieces(!c, QUEEN));
        side[us].add(THREAT_BY_ROOK.0 * n, THREAT_BY_ROOK.1 * n);
        let n = count(all_att[us] & theirs & !all_att[them]);
        side[us].add(HANGING.0 * n, HANGING.1 * n);

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
                side[us].mg += SAFE_CHECK[pt as usize];
            }
        }
    }

    // King danger: several attackers on the zone, weighted; much less without a queen.
    for c in Color::BOTH {
        let us = c.index();
        if attackers[us] >= 2 {
            let w = attack_weight[us];
            let mut danger = (w * w / 4).min(600);
            if pos.pieces(c, QUEEN) == 0 {
                danger /= 3;
            }
            side[us].mg += danger;
        }
    }

    let phase = phase.min(MAX_PHASE);
    let mg = side[0].mg - side[1].mg;
    let eg = side[0].eg - side[1].eg;
    let mut score = (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE;

    // Mop-up: drive a lone king to the edge and bring the kings together. A marked piece that
    // cannot capture (Infinite Recursion's mega-knight in every state but Armed) does not
    // defend its king: the king counts as lone beside it.
    for c in Color::BOTH {
        let us = c.index();
        let them = (!c).index();
        let harmless = match pos.mark(!c) {
            Some(m) if m.powers.has(Powers::NO_CAPTURE) || m.powers.has(Powers::NO_MOVE) => 1,
            _ => 0,
        };
        if pos.color_set(!c).count_ones() == 1 + harmless
            && material[us] >= SEE_VALUE[ROOK as usize]
        {
            let lk = ksq[them];
            let (f, r) = ((lk % 8) as i32, (lk / 8) as i32);
            let edge = (3 - f.min(7 - f)) + (3 - r.min(7 - r));
            let bonus = 20 * edge + 8 * (7 - distance(ksq[us], lk)) + 200;
            score += if c == Color::White { bonus } else { -bonus };
        }
    }

    // Without pawns, a small material edge rarely wins.
    let strong = if score > 0 { 0 } else { 1 };
    if pawns[strong] == 0 && material[strong] - material[1 - strong] <= SEE_VALUE[BISHOP as usize] {
        score /= if material[strong] <= SEE_VALUE[BISHOP as usize] {
            16
        } else {
            4
        };
    }
    score
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
    if m.kind() != MoveKind::Normal && m.kind() != MoveKind::PawnPush {
        return 0 >= threshold || m.kind() == MoveKind::Promotion;
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

impl Evaluate for Chess {
    fn evaluate_with(&self, _params: &EvalParams) -> i32 {
        let white = evaluate_white(self);
        let s = if self.side_to_move() == Color::White {
            white
        } else {
            -white
        };
        s + TEMPO
    }

    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        see_ge(self, m, threshold)
    }

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

    fn eval(fen: &str) -> i32 {
        Chess::from_fen(fen).unwrap().evaluate()
    }

    /// Every value-slot array has one entry per `PieceDef` of the list (its type is
    /// `[i32; TYPES]`, `TYPES = PIECES.len()`), and the features are named by their types.
    #[test]
    fn value_slots_are_the_piece_list() {
        use crate::variants::chess::PIECES;
        let slots = [
            MG_VALUE, EG_VALUE, SEE_VALUE, PHASE, MOB_MG, MOB_EG, MOB_MID,
        ];
        for s in slots.iter().chain([&ATTACK_WEIGHT]) {
            assert_eq!(s.len(), PIECES.len());
        }
        assert_eq!(FEATURES.names.len(), FEATURE_TYPES.len());
        for (name, &t) in FEATURES.names.iter().zip(&FEATURE_TYPES) {
            assert_eq!(*name, PIECES[t as usize].name.to_lowercase());
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
}
