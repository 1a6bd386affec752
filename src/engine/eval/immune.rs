//! Evaluation of Immune Chess: material by measured values, mobility, threats, and the race
//! of IM-6 — White loses when it has no capturing piece left, Black when no Invader is left,
//! so the last few of each count for more — and the ending's terms (lone Invaders, the
//! Invaders' safe moves).
//!
//! The values are measured (`cellmate tune`, see `docs/strength.md` "Measured values"); the
//! `value` of each piece definition in `variants/immune/pieces.rs` is only the rules room's
//! rough order for captures.

use crate::core::{BitSet, Color, Move, Square, Variant};
use crate::variants::immune::{
    Immune, ImmuneBoard, BASOPHIL, B_CELL, COMPLEMENT, DENDRITIC, EOSINOPHIL, HELPER_T, INVADER,
    KILLER_T, MACROPHAGE, MAST_CELL, MONOCYTE, NATURAL_KILLER, NEUTROPHIL, PIECES, TYPES,
};

use super::{EvalParams, Evaluate, FeatureList, Features};

/// Centipawns by type (an Invader = 100), measured by `cellmate tune` over 1276 games of
/// setup C7 (IM-2) between the builds of sessions 18–21 (docs/strength.md, "Measured values",
/// the refit on setup C7), rounded to 50. The Complement is never captured (IM-4), so its
/// count never changes and no value can be measured: it keeps a nominal one. The three cells
/// that step like an Invader are one feature (they move alike).
///
/// Two values are not the fit's: the Killer T (fitted 24) and the Dendritic cell (fitted 93)
/// are taken in the first moves of nearly every game of C7 whatever they are worth, so the
/// fit cannot see what keeping one gains. Valued 600 and 800 the search keeps them, and White
/// wins games it drew: against the values fitted, 102 games at 25 000 nodes a move from the
/// balanced openings, +109 Elo, SPRT H1 (docs/strength.md, "Measured values", session 27).
pub const VALUE: [i32; TYPES] = {
    let mut v = [0; TYPES];
    v[INVADER as usize] = 100;
    v[COMPLEMENT as usize] = 150;
    v[MACROPHAGE as usize] = 1150;
    v[HELPER_T as usize] = 100;
    v[B_CELL as usize] = 100;
    v[KILLER_T as usize] = 600;
    v[BASOPHIL as usize] = 400;
    v[EOSINOPHIL as usize] = 400;
    v[NEUTROPHIL as usize] = 400;
    v[MAST_CELL as usize] = 2800;
    v[MONOCYTE as usize] = 700;
    v[DENDRITIC as usize] = 800;
    v[NATURAL_KILLER as usize] = 700;
    v
};

/// Centipawns per empty square a piece can move to, or see along a shot line.
const MOBILITY: i32 = 4;
/// A piece that may be taken for less than it is worth: attacked and undefended, attacked
/// by a cheaper piece, or in a shot line (IM-5: no recapture). Its owner loses this fraction
/// (1/THREAT_DIV) of its value for each such piece; the side to move gains the largest such
/// piece of the opponent's.
const THREAT_DIV: i32 = 8;
/// Centipawns lost for each piece standing in an enemy shooter's lanes (seen through the
/// other pieces it would shoot first).
const EXPOSED: i32 = 40;
/// Centipawns per rank an Invader has advanced towards White's camp.
const ADVANCE: i32 = 3;
/// The ending: at most this many Invaders left.
const END_INVADERS: i32 = 12;
/// Centipawns per safe move an Invader has in the ending (on top of `MOBILITY`): a step
/// onto a square no White piece attacks, or onto one where another Invader stands beside it
/// to recapture. With few Invaders left White wins by leaving them no such move (each move
/// then loosens an Invader it can take, and a side with no move loses, IM-6); counting every
/// move, as before, taught the search nothing of that, and White's won endings ran into the
/// 100-ply rule (docs/strength.md, "Converting won games", session 39).
const END_SAFE_MOVE: i32 = 25;
/// Centipawns an Invader with no Invader beside it costs Black in the ending.
const LOOSE: i32 = 40;
/// White's last capturers: at most this many left.
const LAST_CAPTURERS: i32 = 2;
/// Centipawns per safe move (onto a square no Invader attacks) of White's last capturers.
const SAFE_MOVE: i32 = 15;

/// The features of Immune Chess: each side's own count of each type (the armies differ),
/// except that the three cells that move alike (Basophil, Eosinophil, Neutrophil: an
/// Invader's step, IM-4) are one feature, since pieces that move alike are worth the same.
/// The Invader (Black) first, and the anchor. A feature of one type is named by its
/// `PieceDef::name`.
pub const FEATURE_GROUPS: [(&str, &[u8]); 11] = [
    (PIECES[INVADER as usize].name, &[INVADER]),
    (PIECES[COMPLEMENT as usize].name, &[COMPLEMENT]),
    (PIECES[MACROPHAGE as usize].name, &[MACROPHAGE]),
    (PIECES[HELPER_T as usize].name, &[HELPER_T]),
    (PIECES[B_CELL as usize].name, &[B_CELL]),
    (PIECES[KILLER_T as usize].name, &[KILLER_T]),
    (
        "Basophil/Eosinophil/Neutrophil",
        &[BASOPHIL, EOSINOPHIL, NEUTROPHIL],
    ),
    (PIECES[MAST_CELL as usize].name, &[MAST_CELL]),
    (PIECES[MONOCYTE as usize].name, &[MONOCYTE]),
    (PIECES[DENDRITIC as usize].name, &[DENDRITIC]),
    (PIECES[NATURAL_KILLER as usize].name, &[NATURAL_KILLER]),
];

const FEATURE_NAMES: [&str; FEATURE_GROUPS.len()] = super::feature_names(&FEATURE_GROUPS);

impl Features for Immune {
    const FEATURES: FeatureList = FeatureList {
        names: &FEATURE_NAMES,
        anchor: 0,
        anchor_black: true,
        material: FEATURE_NAMES.len(),
    };

    fn features(&self) -> Vec<f64> {
        FEATURE_GROUPS
            .iter()
            .map(|(_, types)| {
                types
                    .iter()
                    .map(|&t| {
                        let side = if t == INVADER {
                            Color::Black
                        } else {
                            Color::White
                        };
                        self.squares_of(side, t).len() as f64
                    })
                    .sum()
            })
            .collect()
    }
}

impl Evaluate for Immune {
    fn evaluate_with(&self, _params: &EvalParams) -> i32 {
        let stm = self.side_to_move();
        let white = match self {
            Immune::Small(b) => eval_board(b, stm),
            Immune::Large(b) => eval_board(b, stm),
        };
        if stm == Color::White {
            white
        } else {
            -white
        }
    }

    /// The exchange of [`super::see::immune`]: shots (IM-5), captures, promotions and the
    /// Dendritic cell's last capture (IM-4).
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        match self {
            Immune::Small(b) => super::see::immune::see_ge(b, m, threshold),
            Immune::Large(b) => super::see::immune::see_ge(b, m, threshold),
        }
    }

    const MOVERS: usize = TYPES;

    fn mover(&self, m: Move) -> u8 {
        let g = self.geometry();
        if m.from().index() >= g.width as usize * g.height as usize {
            return 0;
        }
        self.piece_at(m.from()).map_or(0, |(_, pt)| pt)
    }
}

/// How many of the steps `moves` of the Invader on `sq` are safe: onto a square White does
/// not attack (`white_attacks`), or onto one another Invader could take back on (IM-4), the
/// pieces on `occ` standing and `sq` left empty by the step.
fn safe_steps<B: BitSet>(
    p: &ImmuneBoard<B>,
    sq: Square,
    moves: B,
    occ: B,
    white_attacks: B,
) -> i32 {
    let occ = occ & !B::from_square(sq);
    moves
        .squares()
        .filter(|&to| {
            !white_attacks.contains(to) || !p.takers(to, Color::Black, INVADER, occ).is_empty()
        })
        .count() as i32
}

/// The score for White.
#[allow(clippy::needless_range_loop)] // types index several tables at once
fn eval_board<B: BitSet>(p: &ImmuneBoard<B>, stm: Color) -> i32 {
    let rules = p.rules();
    let mut score = [0i32; 2];
    // Attack maps: every piece's attacks by side, and by side and type (for "cheaper").
    let mut attacked = [B::EMPTY; 2];
    let mut attacked_by = [[B::EMPTY; TYPES]; 2];
    let mut shot = [B::EMPTY; 2];
    let mut lanes = [B::EMPTY; 2];
    let mut mobility = [0i32; 2];
    // The race and the ending (IM-6, below) read these; the ending's terms are gathered from
    // each piece's reach in the one pass over the pieces.
    let swarm = p.pieces(Color::Black, INVADER);
    let occupied = p.color_set(Color::White) | p.color_set(Color::Black);
    let white_capturers = p.capturers(Color::White);
    let capturers = white_capturers.count() as i32;
    let invaders = swarm.count() as i32;
    let ending = invaders <= END_INVADERS && capturers > 0;
    let mut last_moves = [B::EMPTY; LAST_CAPTURERS as usize];
    let mut last = 0;
    for color in Color::BOTH {
        let c = color.index();
        for t in 0..TYPES {
            let pieces = p.pieces(color, t as u8);
            if pieces.is_empty() {
                continue;
            }
            score[c] += VALUE[t] * pieces.count() as i32;
            for sq in pieces.squares() {
                let r = p.reach(sq);
                mobility[c] += (r.moves.count() + r.lines.count()) as i32;
                attacked[c] |= r.attacks;
                attacked_by[c][t] |= r.attacks;
                shot[c] |= r.shots;
                if !r.shots.is_empty() {
                    lanes[c] |= p.shot_lanes(sq);
                }
                if t == DENDRITIC as usize {
                    // Each capture brings its departure nearer (IM-4).
                    score[c] -= 15 * p.dendritic_count(sq) as i32;
                }
                if ending && t == INVADER as usize {
                    // White's pieces come first (`Color::BOTH`): its attacks are all known.
                    let safe = safe_steps(p, sq, r.moves, occupied, attacked[0]);
                    score[c] += END_SAFE_MOVE * safe;
                    if (r.attacks & swarm).is_empty() {
                        score[c] -= LOOSE;
                    }
                }
                if capturers <= LAST_CAPTURERS && white_capturers.contains(sq) {
                    last_moves[last] = r.moves;
                    last += 1;
                }
            }
        }
        score[c] += MOBILITY * mobility[c];
    }
    // Pieces standing in shot lanes, behind others or not: the shooter takes them one by one
    // without moving and without risk (IM-5), so each costs its side until it leaves the lane.
    for color in Color::BOTH {
        let (c, e) = (color.index(), 1 - color.index());
        score[e] -= EXPOSED * (lanes[c] & p.color_set(!color)).count() as i32;
    }
    // Threats.
    let stm = stm.index();
    let mut best_hanging = [0i32; 2]; // [owner] the most valuable piece at risk
    for color in Color::BOTH {
        let (c, e) = (color.index(), 1 - color.index());
        for t in 0..TYPES {
            if rules.cells[t]
                .def
                .powers
                .has(crate::core::Powers::UNCAPTURABLE)
            {
                continue;
            }
            let at_risk = p.pieces(color, t as u8) & attacked[e];
            if at_risk.is_empty() {
                continue;
            }
            let cheaper = (0..TYPES)
                .filter(|&u| VALUE[u] < VALUE[t])
                .fold(B::EMPTY, |acc, u| acc | attacked_by[e][u]);
            // A shot target is lost for nothing however well defended: the shooter stays
            // home (IM-5), so there is nothing to recapture.
            let hanging = at_risk & (!attacked[c] | cheaper | shot[e]);
            let n = hanging.count() as i32;
            if n > 0 {
                score[c] -= n * VALUE[t] / THREAT_DIV;
                best_hanging[c] = best_hanging[c].max(VALUE[t]);
            }
        }
    }
    // The side to move takes first.
    score[stm] += best_hanging[1 - stm] / 2;

    // The race (IM-6): the last capturing cells and the last invaders are worth more.
    if capturers <= 3 {
        score[1] += 150 * (4 - capturers);
    }
    if invaders <= 5 {
        score[0] += 60 * (6 - invaders);
    }
    // The ending (IM-6): with few Invaders left White wins by taking them one by one or by
    // leaving them no move (a side with no legal move loses), Black by hunting White's last
    // capturers. Each side's safe room to move counts for more (the Invaders' safe moves were
    // counted in the pass above), and a lone Invader (no Invader beside it to recapture) is a
    // target; the last capturers' moves count where no Invader attacks.
    for moves in &last_moves[..last] {
        score[0] += SAFE_MOVE * (*moves & !attacked[1]).count() as i32;
    }
    // Invaders that advance press on White's camp.
    // By rank: a division a square was a tenth of the evaluation's time.
    let h = rules.geo.height as i32;
    for (r, squares) in rules.ranks.iter().enumerate() {
        score[1] += (h - 1 - r as i32) * ADVANCE * (swarm & *squares).count() as i32;
    }
    score[0] - score[1]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(fen: &str) -> i32 {
        Immune::from_fen(fen).expect("fen").evaluate()
    }

    /// One value per `PieceDef` of the list, and each feature named by the names of the types
    /// it counts.
    #[test]
    fn im4_value_slots_are_the_piece_list() {
        assert_eq!(VALUE.len(), PIECES.len());
        let mut counted = Vec::new();
        for (name, types) in FEATURE_GROUPS {
            let names: Vec<&str> = types.iter().map(|&t| PIECES[t as usize].name).collect();
            assert_eq!(name, names.join("/"));
            counted.extend_from_slice(types);
        }
        counted.sort_unstable();
        assert_eq!(counted, (0..TYPES as u8).collect::<Vec<_>>());
    }

    /// The side to move's view: the same position with the other side to move scores the
    /// negation, except for the side to move's first pick among hanging pieces.
    #[test]
    fn im6_side_to_move_view_is_negated_without_threats() {
        // A Macrophage and three Invaders far apart: nothing attacked.
        let w = eval("i9/10/i9/10/10/10/10/10/10/M8i w - 0 1");
        let b = eval("i9/10/i9/10/10/10/10/10/10/M8i b - 0 1");
        assert_eq!(w, -b);
    }

    /// Material by the measured values: one Macrophage against three lone Invaders is worth
    /// its value minus theirs, plus mobility, advance, race and threat terms computed here.
    #[test]
    fn im4_macrophage_against_three_invaders_exact() {
        // Macrophage a1 (queen range 2): moves a2 a3 b1 c1 b2 c3 = 6. Invaders a10, a8 (ranks
        // index 9 and 7) and j1: moves a10: a9 b10 (2); a8: a9 a7 b8 (3); j1: i1 j2 (2) = 7.
        // Nothing is attacked. Race: White has 1 capturer (+150·3 for Black), 3 invaders
        // (+60·3 for White). Advance: (9-9)·3 + (9-7)·3 + (9-0)·3 = 33. The ending (three
        // Invaders): each of their 7 moves safe (none onto a square the Macrophage attacks),
        // `END_SAFE_MOVE` more each, all three lone (`LOOSE` each),
        // and the last capturer's 6 moves all safe (`SAFE_MOVE` each).
        let white = VALUE[MACROPHAGE as usize] + 4 * 6 + 180 + SAFE_MOVE * 6;
        let black = 3 * 100 + 4 * 7 + 450 + 33 + END_SAFE_MOVE * 7 - 3 * LOOSE;
        assert_eq!(
            eval("i9/10/i9/10/10/10/10/10/10/M8i w - 0 1"),
            white - black
        );
    }

    /// IM-6, the ending: White's last capturer counts only the moves no Invader attacks.
    /// Macrophage a1 (moves a2 a3 b1 c1 b2 c3); the Invader c2 attacks c1, b2 and c3, so 3 are
    /// safe. Invaders c2 (4 moves) and j10 (2), both lone; neither side attacks a piece. Race
    /// 150·3 for Black, 60·4 for White; advance (9−1)·3.
    #[test]
    fn im6_ending_counts_safe_moves_and_lone_invaders() {
        // The Macrophage on a1 attacks b1 c1 a2 a3 b2 c3: of the Invader c2's four steps only
        // d2 is safe; j10's two steps are. Both Invaders are lone.
        let white = VALUE[MACROPHAGE as usize] + 4 * 6 + 240 + SAFE_MOVE * 3;
        let black = 200 + 4 * 6 + 450 + 24 + END_SAFE_MOVE * 3 - 2 * LOOSE;
        assert_eq!(
            eval("9i/10/10/10/10/10/10/10/2i7/M9 w - 0 1"),
            white - black
        );
    }

    /// IM-4, IM-6: an Invader's step is safe where White does not attack or where another
    /// Invader stands beside the square to recapture.
    #[test]
    fn im6_a_step_beside_another_invader_is_safe() {
        // The Macrophage on a1 attacks b1 c1 a2 a3 b2 c3. The Invader c2 steps to c1, b2, c3
        // or d2: c1 and b2 are attacked with no Invader beside them, c3 is attacked but d3
        // stands beside it, d2 is not attacked: two safe. d3's four steps: c3 (attacked, c2
        // beside it) and d2, d4, e3 (not attacked): four.
        let Immune::Small(b) =
            Immune::from_fen("10/10/10/10/10/10/10/3i6/2i7/M9 b - 0 1").expect("fen")
        else {
            panic!("a 10x10 board is small")
        };
        let at = |s: &str| {
            let f = s.as_bytes()[0] - b'a';
            let r: u8 = s[1..].parse().unwrap();
            Square((r - 1) * 10 + f)
        };
        let occ = b.color_set(Color::White) | b.color_set(Color::Black);
        let white = b.reach(at("a1")).attacks;
        let steps = |s: &str| safe_steps(&b, at(s), b.reach(at(s)).moves, occ, white);
        assert_eq!((steps("c2"), steps("d3")), (2, 4));
        // Without d3, only d2 is left for c2.
        let alone = occ & !u128::from_square(at("d3"));
        let c2 = at("c2");
        assert_eq!(safe_steps(&b, c2, b.reach(c2).moves, alone, white), 1);
    }

    /// IM-1: the same measure on a 16×16 board (256-bit sets): Macrophage a1, Invaders a16,
    /// a14, p1. Moves 6 against 2 + 3 + 2; advance (15-15 + 15-13 + 15-0)·3 = 51.
    #[test]
    fn im1_large_board_macrophage_against_three_invaders_exact() {
        let fen = format!("i15/16/i15/{}M14i w - 0 1", "16/".repeat(12));
        let p = Immune::from_fen(&fen).expect("fen");
        assert!(matches!(p, Immune::Large(_)));
        let white = VALUE[MACROPHAGE as usize] + 4 * 6 + 180 + SAFE_MOVE * 6;
        let black = 3 * 100 + 4 * 7 + 450 + 51 + END_SAFE_MOVE * 7 - 3 * LOOSE;
        assert_eq!(p.evaluate(), white - black);
    }

    /// Threats: an Invader on a2 attacks the Mast cell on a1 (a cheaper attacker), and the
    /// Mast cell attacks that undefended Invader. Both positions have the same pieces; they
    /// differ only in who takes first: with White to move White gains half the Invader (50),
    /// with Black to move Black gains half the Mast cell (1000). In White's view the two
    /// evaluations are 1050 apart, exactly.
    #[test]
    fn im4_threats_side_to_move_takes_first() {
        let w = eval("i9/10/10/10/10/10/10/10/i9/S8i w - 0 1");
        let b = -eval("i9/10/10/10/10/10/10/10/i9/S8i b - 0 1");
        assert_eq!(w - b, 100 / 2 + VALUE[MAST_CELL as usize] / 2);
        // Each side is also charged for its hanging piece: compare with the Invader one square
        // further (a3), attacked by the Mast cell but not attacking it (the Mast cell still
        // hangs to nothing). Black to move: no threat to White, so no 1000 for Black.
        let far = -eval("i9/10/10/10/10/10/10/i9/10/S8i b - 0 1");
        assert!(far > b + VALUE[MAST_CELL as usize] / 2);
    }

    /// IM-5 in the evaluation: a shot target is hanging even when defended (the B-cell stays
    /// on a1, nothing can recapture), and every Invader in a shooter's lane costs `EXPOSED`,
    /// the one behind the first target too. B-cell a1; Invaders a3 (defended by a4) and a4.
    /// White: B-cell 800, mobility 4·1 (its empty lane square a2), takes first half the hanging
    /// Invader (50), race 60·4 (two Invaders left). Black: 200, mobility 4·4 (a3: a2 b3; a4:
    /// a5 b4), the hanging a3 −100/8, two exposed −2·EXPOSED, race 150·3 (one capturer left),
    /// advance (9−2 + 9−3)·3; the ending: the two Invaders stand side by side (neither lone)
    /// with 4 moves, 3 of them safe (`END_SAFE_MOVE` each: a3's step to a2 is into the B-cell's
    /// lane with no Invader beside a2), and the B-cell, White's last capturer, has no move.
    #[test]
    fn im5_shot_targets_hang_and_lanes_expose() {
        let white = VALUE[B_CELL as usize] + 4 + 50 + 240;
        let black = 200 + 16 - 100 / THREAT_DIV - 2 * EXPOSED + 450 + 39 + END_SAFE_MOVE * 3;
        assert_eq!(eval("10/10/10/10/10/10/i9/i9/10/B9 w - 0 1"), white - black);
    }
}
