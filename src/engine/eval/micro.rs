//! Evaluation of Microorganism Chess: material with the hidden state priced in — a
//! Bacterium's absorbed powers, walls, expansion, riders, pending infections — plus the
//! advance of red blood cells, the Neurons' shelter and mobility.
//!
//! [`tally`] finds a position's [`Feature`]s once; the evaluation weighs each by its
//! [`Feature::weight`] from the [`MicroParams`], and `cellmate tune` counts those of
//! [`FEATURE_TABLE`] from the same tally, so the two cannot drift apart.

use crate::core::{BitSet, Color, Move, Powers, Square, Variant};
use crate::variants::micro::{
    tables, Cell, Micro, AMOEBA, BACTERIUM, BONDED, EXPANDED, GEOMETRY, INFECTED, NEURON,
    PARAMECIUM, PLATELET, PRION, RBC, TYPES, VIRUS, WBC,
};

use super::{EvalParams, Evaluate, FeatureList, Features};
use crate::engine::time::ClockShape;

/// Values (centipawns, a red blood cell = 100), in type order: red blood cell, Neuron, White
/// blood cell, Paramecium, Bacterium, Amoeba, Platelet, Virus, Prion. Tuned by games
/// (`scripts/spsa.py`, 1623 SPSA iterations of self-play at 1000 nodes from the starting
/// guesses 100, 0, 500, 1100, 450, 650, 180, 350, 220; the mean of iterations 1122-1621),
/// see docs/strength.md "Values by SPSA".
pub const VALUE: [i32; TYPES] = [100, 0, 464, 984, 499, 753, 55, 351, 332];
/// What each absorbed gift adds to a Bacterium, in the same type order (a gift is the moves
/// and power of the type eaten, MC-7; a red blood cell's, a Neuron's and a Bacterium's own add
/// nothing: a captured Bacterium passes on its gifts, counted one by one). Tuned by games
/// (1393 SPSA iterations from the guesses 500, 550, 350, 60, 200, 120; the mean of iterations
/// 894-1393), see docs/strength.md "Gifts and terms by SPSA".
pub const GIFT: [i32; TYPES] = [0, 0, 540, 580, 0, 410, 16, 217, 75];

/// The other terms of the evaluation, in this order (centipawns unless a share):
/// - `expand`: an expanded piece's bonus (an Amoeba, or a Bacterium with its gift, MC-8);
/// - `bond`: each wall member's bonus (MC-10);
/// - `infect`: the share (per cent) of its victim's value a pending infection gives the
///   infector's side, besides the infector and the second Virus it brings back (MC-11);
/// - `ride`: the share (per cent) of its host's value an enemy rider gains, since it may kill
///   the host when it likes (MC-12);
/// - `advance`: a red blood cell's bonus seven steps on, growing with the square of its steps;
/// - `shelter`: a Neuron's bonus with all eight squares around it held by its own side;
/// - `hunt`: in a full ending ([`ending_phase`] 16), each point of a side's nearness to the
///   enemy Neuron ([`hunt`]);
/// - `edge`: in a full ending, each step of the enemy Neuron away from the centre.
///
/// The first six tuned by games (1050 SPSA iterations from the guesses 40, 25, 50, 33, 98, 48;
/// the mean of iterations 551-1050), see docs/strength.md "Gifts and terms by SPSA"; `hunt`
/// and `edge` set by hand and kept on their match (docs/strength.md, "Microorganism draws").
pub const TERM: [i32; TERMS] = [38, 37, 89, 74, 73, 119, 20, 50];
/// How many terms [`TERM`] has.
pub const TERMS: usize = 8;
const EXPAND: usize = 0;
const BOND: usize = 1;
const INFECT: usize = 2;
const RIDE: usize = 3;
const ADVANCE: usize = 4;
const SHELTER: usize = 5;
const HUNT: usize = 6;
const EDGE: usize = 7;

/// The parameters of the evaluation, held by the engine ([`super::EvalParams`]): [`VALUE`],
/// [`GIFT`] and [`TERM`] unless the engine was told otherwise (the command line's
/// `--micro-values`, `--micro-gifts` and `--micro-terms`, for tuning by games,
/// `scripts/spsa.py`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MicroParams {
    /// Piece values in type order, as [`VALUE`].
    pub values: [i32; TYPES],
    /// What each absorbed gift adds to a Bacterium, as [`GIFT`].
    pub gifts: [i32; TYPES],
    /// The other terms, as [`TERM`].
    pub terms: [i32; TERMS],
}

impl MicroParams {
    /// Today's tuned values.
    pub const DEFAULT: MicroParams = MicroParams {
        values: VALUE,
        gifts: GIFT,
        terms: TERM,
    };

    /// Replaces the piece values from their text (`--micro-values`: nine centipawn integers
    /// separated by ':' in type order: red blood cell, Neuron, White blood cell, Paramecium,
    /// Bacterium, Amoeba, Platelet, Virus, Prion). On error nothing changes.
    pub fn set_values(&mut self, text: &str) -> Result<(), String> {
        self.values = parse_values(text)?;
        Ok(())
    }

    /// Replaces the gift values from their text (`--micro-gifts`: the centipawns a Bacterium
    /// gains for each type it has absorbed, in the type order of [`MicroParams::set_values`]).
    pub fn set_gifts(&mut self, text: &str) -> Result<(), String> {
        self.gifts = parse_values(text)?;
        Ok(())
    }

    /// Replaces the other terms from their text (`--micro-terms`: the eight of [`TERM`], in
    /// its order).
    pub fn set_terms(&mut self, text: &str) -> Result<(), String> {
        self.terms = parse_values(text)?;
        Ok(())
    }

    fn term(&self, t: usize) -> i32 {
        self.terms[t]
    }

    /// An expanded piece's bonus (MC-8), the `expand` term.
    pub(crate) fn expand_bonus(&self) -> i32 {
        self.term(EXPAND)
    }

    fn value(&self, kind: u8) -> i32 {
        self.values[kind as usize]
    }

    /// A piece's value: its type's, with a Bacterium's gifts (MC-7).
    pub(crate) fn piece_value(&self, kind: u8, absorbed: u16) -> i32 {
        let mut v = self.value(kind);
        if kind == BACTERIUM {
            for (t, &g) in self.gifts.iter().enumerate() {
                if absorbed & (1 << t) != 0 {
                    v += g;
                }
            }
        }
        v
    }
}

impl Default for MicroParams {
    fn default() -> Self {
        MicroParams::DEFAULT
    }
}

/// Reads `N` integers separated by ':', each within ±100000.
fn parse_values<const N: usize>(text: &str) -> Result<[i32; N], String> {
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() != N {
        return Err(format!(
            "expected {N} values separated by ':', got {}",
            parts.len()
        ));
    }
    let mut out = [0; N];
    for (slot, p) in out.iter_mut().zip(&parts) {
        *slot = p
            .trim()
            .parse()
            .map_err(|_| format!("not an integer: {p:?}"))?;
        if !(-100_000..=100_000).contains(slot) {
            return Err(format!("out of range (±100000): {slot}"));
        }
    }
    Ok(out)
}

impl Evaluate for Micro {
    /// The clock of Microorganism's measured rows (see [`ClockShape::LONG_GAMES`]).
    const CLOCK: ClockShape = ClockShape::LONG_GAMES;

    /// The features [`tally`] finds, each times its [`Feature::weight`], White's minus
    /// Black's.
    fn evaluate_with(&self, params: &EvalParams) -> i32 {
        let mut sum = Weighted {
            params: &params.micro,
            score: [0; 2],
        };
        tally(self, &mut sum);
        let white = sum.score[0] - sum.score[1];
        if self.side_to_move() == Color::White {
            white
        } else {
            -white
        }
    }

    /// The exchange of [`super::see::micro`], with the tuned values (the move picker, which
    /// asks too, holds no parameters).
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        super::see::micro::see_ge(self, &MicroParams::DEFAULT, m, threshold)
    }

    const MOVERS: usize = TYPES;

    fn mover(&self, m: Move) -> u8 {
        self.cell(m.from()).kind
    }
}

/// One of the evaluation's features: something a side has, worth [`Feature::weight`] each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// A piece of a type, riders and returning infectors included, infected victims not:
    /// [`VALUE`].
    Piece(u8),
    /// A Bacterium's absorbed gift of a type: [`GIFT`].
    Gift(u8),
    /// A pending infection: the second Virus the infector brings back (MC-11), a Virus's
    /// value.
    Infection,
    /// A square an officer reaches ([`mobility`]): [`MOBILITY`].
    Mobility,
    /// An expanded piece, not infected (MC-8): the `expand` term.
    Expanded,
    /// A wall member, not infected (MC-10): the `bond` term.
    Bonded,
    /// A red blood cell this many steps on (infected or not): the `advance` term times the
    /// square of its steps over 49.
    Advance(u8),
    /// The Neuron with this many of the eight squares around it held by its own side: the
    /// `shelter` term times them over 8.
    Shelter(u8),
    /// An enemy rider's host, of this type with these gifts (MC-12): the `ride` share of the
    /// host's value.
    Ridden(u8, u16),
    /// A pending infection's victim, of this type with these gifts (MC-11): the `infect`
    /// share of the victim's value.
    Victim(u8, u16),
    /// In an ending of this phase (1-16, [`ending_phase`]), a point of nearness of a piece to
    /// the enemy Neuron ([`hunt`]): the `hunt` term times the phase over 16.
    Hunt(u8),
    /// In an ending of this phase, a step of the enemy Neuron away from the centre: the
    /// `edge` term times the phase over 16.
    Edge(u8),
}

impl Feature {
    /// What one of this feature is worth, in centipawns, with these parameters.
    #[inline(always)]
    pub fn weight(self, p: &MicroParams) -> i32 {
        match self {
            Feature::Piece(t) => p.value(t),
            Feature::Gift(t) => p.gifts[t as usize],
            Feature::Infection => p.value(VIRUS),
            Feature::Mobility => MOBILITY,
            Feature::Expanded => p.term(EXPAND),
            Feature::Bonded => p.term(BOND),
            Feature::Advance(steps) => {
                let steps = steps as i32;
                steps * steps * p.term(ADVANCE) / 49
            }
            Feature::Shelter(n) => p.term(SHELTER) * n as i32 / 8,
            Feature::Ridden(t, absorbed) => p.piece_value(t, absorbed) * p.term(RIDE) / 100,
            Feature::Victim(t, absorbed) => p.piece_value(t, absorbed) * p.term(INFECT) / 100,
            Feature::Hunt(phase) => p.term(HUNT) * phase as i32 / 16,
            Feature::Edge(phase) => p.term(EDGE) * phase as i32 / 16,
        }
    }
}

/// Where [`tally`] puts the features it finds: the evaluation weighs them, `cellmate tune`
/// counts them.
pub trait Tally {
    /// `color` (0 White, 1 Black) has `n` of feature `f`.
    fn add(&mut self, color: u8, f: Feature, n: i32);
}

/// The evaluation's tally: each side's features times their weights.
struct Weighted<'a> {
    params: &'a MicroParams,
    score: [i32; 2],
}

impl Tally for Weighted<'_> {
    #[inline(always)]
    fn add(&mut self, color: u8, f: Feature, n: i32) {
        self.score[color as usize] += n * f.weight(self.params);
    }
}

/// Every feature of the position, each once: material with the hidden state (gifts, walls,
/// expansions, riders, pending infections), red blood cells' advance, mobility and the
/// Neurons' shelter.
#[inline(always)]
pub fn tally<T: Tally>(pos: &Micro, t: &mut T) {
    // A piece with its gifts.
    let piece = |t: &mut T, color: u8, kind: u8, absorbed: u16| {
        t.add(color, Feature::Piece(kind), 1);
        if kind == BACTERIUM {
            for g in 0..TYPES as u8 {
                if absorbed & (1 << g) != 0 {
                    t.add(color, Feature::Gift(g), 1);
                }
            }
        }
    };
    for sq in pos.occupied().squares() {
        let c = pos.cell(sq);
        if c.is_upper_half(sq.0) {
            continue; // counted on the lower cell
        }
        if !c.has(INFECTED) {
            // An infected piece is lost to its infector at the hatch (MC-11): counted for the
            // other side with the infection.
            piece(t, c.color, c.kind, c.absorbed);
            if c.has(EXPANDED) {
                t.add(c.color, Feature::Expanded, 1);
            }
            if c.has(BONDED) {
                t.add(c.color, Feature::Bonded, 1);
            }
        }
        if c.kind == RBC {
            let rank = (sq.0 / 16) as i32;
            let adv = if c.color == 0 { rank - 1 } else { 14 - rank };
            t.add(c.color, Feature::Advance(adv.unsigned_abs() as u8), 1);
        }
        if let Some(r) = c.rider {
            // A rider may kill its host whenever it likes (MC-12).
            piece(t, r.color, r.kind, r.absorbed);
            if r.color != c.color {
                t.add(r.color, Feature::Ridden(c.kind, c.absorbed), 1);
            }
        }
    }
    for inf in pos.infections() {
        // The infector returns with a second Virus and the victim goes (MC-11).
        let (carrier, victim) = (&inf.carrier, pos.cell(inf.victim));
        piece(t, carrier.color, carrier.kind, carrier.absorbed);
        t.add(carrier.color, Feature::Infection, 1);
        t.add(
            carrier.color,
            Feature::Victim(victim.kind, victim.absorbed),
            1,
        );
    }
    for color in Color::BOTH {
        // Mobility: the squares the officers reach (measured by `cellmate tune`: about 5 cp a
        // square; docs/strength.md).
        t.add(color as u8, Feature::Mobility, mobility(pos, color));
        // Keep the Neuron sheltered: friendly pieces around it.
        if let Some(n) = pos.neuron(color) {
            let around = king_ring(n) & pos.color_set(color);
            t.add(color as u8, Feature::Shelter(around.count() as u8), 1);
        }
    }
    // Endings: bring the pieces to the enemy Neuron and drive it to the edge, where a
    // lead in material is turned into mate (without it the search saw no plan in 100 plies).
    let phase = ending_phase(pos);
    if phase > 0 {
        for color in Color::BOTH {
            if let Some(e) = pos.neuron(!color) {
                t.add(color as u8, Feature::Hunt(phase), hunt(pos, color, e));
                let centre = |x: u8| (2 * x as i32 - 15).unsigned_abs() / 2;
                let edge = centre(GEOMETRY.file(e)).max(centre(GEOMETRY.rank(e)));
                t.add(color as u8, Feature::Edge(phase), edge as i32);
            }
        }
    }
}

/// How far the game is into its ending: 0 with 32 or more cells besides the Neurons, 16 with
/// 16 or fewer.
pub fn ending_phase(pos: &Micro) -> u8 {
    let cells = (pos.occupied() & !pos.type_set(NEURON)).count() as i32;
    (32 - cells).clamp(0, 16) as u8
}

/// How near `color`'s pieces (its Neuron included; red blood cells, infected pieces and White
/// blood cells that cannot enter the enemy Neuron's half aside, MC-5) stand to the enemy
/// Neuron on `e`: 15 less the king distance, summed.
pub fn hunt(pos: &Micro, color: Color, e: Square) -> i32 {
    let mut sum = 0;
    for sq in (pos.color_set(color) & !pos.type_set(RBC) & !pos.infected_set()).squares() {
        let c = pos.cell(sq);
        if c.is_upper_half(sq.0) {
            continue;
        }
        if c.powers().has(Powers::OWN_HALF) && !tables().half[c.color as usize].contains(e) {
            continue; // MC-5: it never reaches the enemy Neuron
        }
        sum += 15 - GEOMETRY.distance(sq, e);
    }
    sum
}

/// The features `cellmate tune` fits, of those [`tally`] finds: every type but the Neuron,
/// the six gifts that add something, pending infections and mobility (the one feature that is
/// not material, last). The others keep their parameters' weights.
pub const FEATURE_TABLE: [(&str, Feature); 16] = [
    ("red blood cell", Feature::Piece(RBC)),
    ("white blood cell", Feature::Piece(WBC)),
    ("paramecium", Feature::Piece(PARAMECIUM)),
    ("bacterium", Feature::Piece(BACTERIUM)),
    ("amoeba", Feature::Piece(AMOEBA)),
    ("platelet", Feature::Piece(PLATELET)),
    ("virus", Feature::Piece(VIRUS)),
    ("prion", Feature::Piece(PRION)),
    ("gift W (queen)", Feature::Gift(WBC)),
    ("gift C (paramecium)", Feature::Gift(PARAMECIUM)),
    ("gift A (amoeba)", Feature::Gift(AMOEBA)),
    ("gift T (walls)", Feature::Gift(PLATELET)),
    ("gift V (infection)", Feature::Gift(VIRUS)),
    ("gift R (riding)", Feature::Gift(PRION)),
    ("pending infection", Feature::Infection),
    ("mobility (per square)", Feature::Mobility),
];

const FEATURE_NAMES: [&str; FEATURE_TABLE.len()] = super::feature_names(&FEATURE_TABLE);

/// Where in [`FEATURE_TABLE`] each type's piece feature and gift feature are, and the other
/// two.
struct FeatureIndex {
    piece: [Option<usize>; TYPES],
    gift: [Option<usize>; TYPES],
    infection: usize,
    mobility: usize,
}

const FEATURE_INDEX: FeatureIndex = {
    let mut ix = FeatureIndex {
        piece: [None; TYPES],
        gift: [None; TYPES],
        infection: usize::MAX,
        mobility: usize::MAX,
    };
    let mut i = 0;
    while i < FEATURE_TABLE.len() {
        match FEATURE_TABLE[i].1 {
            Feature::Piece(t) => ix.piece[t as usize] = Some(i),
            Feature::Gift(t) => ix.gift[t as usize] = Some(i),
            Feature::Infection => ix.infection = i,
            Feature::Mobility => ix.mobility = i,
            _ => panic!("a feature the tuner does not count"),
        }
        i += 1;
    }
    ix
};

impl FeatureIndex {
    /// The row of [`FEATURE_TABLE`] counting `f`, if any.
    fn row(&self, f: Feature) -> Option<usize> {
        match f {
            Feature::Piece(t) => self.piece[t as usize],
            Feature::Gift(t) => self.gift[t as usize],
            Feature::Infection => Some(self.infection),
            Feature::Mobility => Some(self.mobility),
            _ => None,
        }
    }
}

/// The tuner's tally: White's count minus Black's of each feature of [`FEATURE_TABLE`].
struct Counts(Vec<f64>);

impl Tally for Counts {
    fn add(&mut self, color: u8, f: Feature, n: i32) {
        if let Some(i) = FEATURE_INDEX.row(f) {
            self.0[i] += if color == 0 { n as f64 } else { -n as f64 };
        }
    }
}

impl Features for Micro {
    const FEATURES: FeatureList = FeatureList {
        names: &FEATURE_NAMES,
        anchor: 0,
        anchor_black: false,
        material: FEATURE_INDEX.mobility,
    };

    fn features(&self) -> Vec<f64> {
        let mut x = Counts(vec![0.0; FEATURE_TABLE.len()]);
        tally(self, &mut x);
        x.0
    }
}

/// Centipawns per square an officer reaches (the fit's 4.8 ± 2, docs/strength.md).
pub const MOBILITY: i32 = 5;

/// The officers whose reach counts as mobility: single-cell pieces other than red blood
/// cells, the Neuron and Prions, not infected.
pub fn officers(p: &Micro, color: Color) -> crate::core::U256 {
    p.color_set(color)
        & !p.type_set(RBC)
        & !p.type_set(NEURON)
        & !p.type_set(PRION)
        & !p.infected_set()
        & !p.expanded_set()
}

/// The squares `color`'s officers reach, summed.
pub fn mobility(p: &Micro, color: Color) -> i32 {
    let own = p.color_set(color);
    let occ = p.occupied();
    officers(p, color)
        .squares()
        .map(|sq| reach(p.cell(sq), sq, own, occ))
        .sum()
}

/// How many squares a single-cell piece reaches by its leaps and slides (with its absorbed
/// gifts), not counting its own side's squares; from the precomputed tables, without move
/// generation. A White blood cell's slides stop at the edge of its half, and one outside its
/// half has none (MC-5).
pub fn reach(c: &Cell, sq: Square, own: crate::core::U256, occ: crate::core::U256) -> i32 {
    let t = tables();
    let (col, s, kind) = (c.color as usize, sq.index(), c.kind as usize);
    let mut leaps = t.own[kind].leap_move[col][s] | t.own[kind].leap_capture[col][s];
    let mut dirs = t.own_slides[kind];
    let mut a = c.absorbed;
    while a != 0 {
        let g = a.trailing_zeros() as usize;
        a &= a - 1;
        leaps |= t.gift[g].leap_move[col][s] | t.gift[g].leap_capture[col][s];
        dirs |= t.gift_slides[g];
    }
    let wbc = c.kind == WBC;
    if wbc && !t.half[col].contains(sq) {
        dirs = 0;
    }
    while dirs != 0 {
        let d = dirs.trailing_zeros() as usize;
        dirs &= dirs - 1;
        let (r, _) = crate::variants::micro::slide(d, s, occ);
        // A line leaving the half never comes back into it (MC-5).
        leaps |= if wbc { r & t.half[col] } else { r };
    }
    (leaps & !own).count() as i32
}

fn king_ring(sq: Square) -> crate::core::U256 {
    crate::variants::micro::tables().king[sq.index()]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::fen::mirror_placement;
    use crate::variants::micro::WBC;

    /// The colour-swapped vertical mirror of a FEN without en-passant squares or hidden state.
    fn mirror(fen: &str) -> String {
        let f: Vec<&str> = fen.split(' ').collect();
        let side = if f[1] == "w" { "b" } else { "w" };
        format!("{} {side} {}", mirror_placement(f[0]), f[2..].join(" "))
    }

    fn eval(fen: &str) -> i32 {
        Micro::from_fen(fen).expect("fen").evaluate()
    }

    /// MC-2: the start is the same for both sides up to a vertical flip, so a position and its
    /// colour-swapped mirror score the same for the side to move (the negation in White's
    /// view) — with red blood cell advance and the Neuron's shelter asymmetric in the position
    /// itself.
    #[test]
    fn mc2_mirrored_position_scores_the_same_for_the_side_to_move() {
        let fens = [
            "wabtrvtcntvrtbaw/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/16/16/PPPPPPPPPPPPPPPP/WABTRVTCNTVRTBAW w - 0 1 -",
            "wabtrvtcntvrtb1w/ppp1pppppppppppp/16/3p12/16/16/16/9a6/16/16/4P11/16/3P12/16/PPP2PPPPPPPPPPP/W1BTRVTCNTVRTBAW w - 0 5 -",
            "4n11/16/16/16/16/16/2w13/16/7C8/16/16/16/16/16/8P7/4N11 b - 0 40 -",
        ];
        for fen in fens {
            let m = mirror(fen);
            assert_eq!(eval(fen), eval(&m), "{fen} / {m}");
        }
        assert_ne!(eval(fens[1]), 0, "the second position is not balanced");
    }

    /// MC-5: without one of its White blood cells Black is worse off by exactly the cell's
    /// value (it is no Neuron's neighbour at the start).
    #[test]
    fn mc5_missing_white_blood_cell_is_a_loss_for_its_side() {
        let start = eval(
            "wabtrvtcntvrtbaw/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/16/16/PPPPPPPPPPPPPPPP/WABTRVTCNTVRTBAW w - 0 1 -",
        );
        let odds = eval(
            "wabtrvtcntvrtba1/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/16/16/PPPPPPPPPPPPPPPP/WABTRVTCNTVRTBAW w - 0 1 -",
        );
        // It reached no square at the start, so only its value changes the score.
        assert_eq!(odds - start, VALUE[WBC as usize]);
    }

    /// The parameters are the engine's value, not the process's: a White blood cell worth
    /// 100 more moves the score by exactly 100 with them and not at all without them.
    #[test]
    fn parameters_are_a_value_passed_to_the_evaluation() {
        let start = Micro::startpos();
        let odds = Micro::from_fen(
            "wabtrvtcntvrtba1/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/16/16/PPPPPPPPPPPPPPPP/WABTRVTCNTVRTBAW w - 0 1 -",
        )
        .expect("fen");
        let mut params = EvalParams::DEFAULT;
        params.micro.values[WBC as usize] += 100;
        let gap = |p: &EvalParams| odds.evaluate_with(p) - start.evaluate_with(p);
        assert_eq!(gap(&params), gap(&EvalParams::DEFAULT) + 100);
        assert_eq!(odds.evaluate(), odds.evaluate_with(&EvalParams::DEFAULT));
        assert!(params.micro.set_values("1:2:3").is_err());
        assert_eq!(params.micro.values[WBC as usize], VALUE[WBC as usize] + 100);
    }

    /// Positions of every kind of hidden state: each Microorganism FEN of
    /// `tests/data/fen-valid.txt` (walls, a rider, an expanded pair, gifts, an infection) and
    /// the start, and the positions of seeded random games from each.
    fn sample_positions() -> Vec<Micro> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fen-valid.txt");
        let data = std::fs::read_to_string(path).expect(path);
        let starts: Vec<Micro> = data
            .lines()
            .filter_map(|l| l.strip_prefix("microorganism "))
            .map(|fen| Micro::from_fen(fen).expect(fen))
            .chain([Micro::startpos()])
            .collect();
        assert!(starts.len() >= 6, "{path}");
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut random = move |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        let mut out = Vec::new();
        for start in starts {
            for _ in 0..4 {
                let mut pos = start.clone();
                out.push(pos.clone());
                for _ in 0..150 {
                    let mut list = crate::core::MoveList::new();
                    pos.legal_moves(&mut list);
                    if list.is_empty() {
                        break;
                    }
                    pos.make_move(list[random(list.len())]);
                    out.push(pos.clone());
                }
            }
        }
        out
    }

    /// [`VALUE`] and [`GIFT`] have one entry per `PieceDef` of [`PIECES`] and [`GIFTS`] (their
    /// type is `[i32; TYPES]`, `TYPES = PIECES.len()`), and the tuner's features are named by
    /// their types: a piece by its name, a gift by its type's letter.
    #[test]
    fn value_slots_are_the_piece_list() {
        use crate::variants::micro::{GIFTS, LETTERS, PIECES};
        assert_eq!(VALUE.len(), PIECES.len());
        assert_eq!(GIFT.len(), GIFTS.len());
        for (name, f) in FEATURE_TABLE {
            match f {
                Feature::Piece(t) => assert_eq!(name, PIECES[t as usize].name.to_lowercase()),
                Feature::Gift(t) => {
                    assert!(name.starts_with(&format!("gift {} (", LETTERS[t as usize])))
                }
                _ => {}
            }
        }
    }

    /// A tally of every feature found, for comparing with the evaluation.
    struct Found(Vec<(u8, Feature, i32)>);

    impl Tally for Found {
        fn add(&mut self, color: u8, f: Feature, n: i32) {
            self.0.push((color, f, n));
        }
    }

    /// Parameters drawn from a seed: values and gifts within ±1200, terms within ±150.
    fn random_params(seed: u64) -> MicroParams {
        let mut x = seed | 1;
        let mut next = |range: i32| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % (2 * range as u64 + 1)) as i32 - range
        };
        MicroParams {
            values: std::array::from_fn(|_| next(1200)),
            gifts: std::array::from_fn(|_| next(1200)),
            terms: std::array::from_fn(|_| next(150)),
        }
    }

    /// The evaluation is the dot product of the features found and their weights, with any
    /// parameters; the tuner's feature vector counts the same features. Every kind of
    /// feature occurs in the sample.
    #[test]
    fn evaluation_is_features_times_weights() {
        let positions = sample_positions();
        assert!(positions.len() > 3000, "{}", positions.len());
        let params: Vec<MicroParams> = [MicroParams::DEFAULT]
            .into_iter()
            .chain((1..6).map(random_params))
            .collect();
        let mut kinds = std::collections::HashSet::new();
        for pos in &positions {
            let mut found = Found(Vec::new());
            tally(pos, &mut found);
            let stm = if pos.side_to_move() == Color::White {
                1
            } else {
                -1
            };
            let side = |color: u8| if color == 0 { 1 } else { -1 };
            for p in &params {
                let dot: i32 = found
                    .0
                    .iter()
                    .map(|&(c, f, n)| side(c) * n * f.weight(p))
                    .sum();
                let eval = pos.evaluate_with(&EvalParams {
                    micro: *p,
                    ..EvalParams::DEFAULT
                });
                assert_eq!(eval, stm * dot, "{} with {p:?}", pos.fen());
            }
            let x = pos.features();
            for (i, &(name, f)) in FEATURE_TABLE.iter().enumerate() {
                let n: i32 = found
                    .0
                    .iter()
                    .filter(|e| e.1 == f)
                    .map(|e| side(e.0) * e.2)
                    .sum();
                assert_eq!(x[i], n as f64, "{name} in {}", pos.fen());
            }
            kinds.extend(found.0.iter().map(|e| std::mem::discriminant(&e.1)));
        }
        assert_eq!(kinds.len(), 12, "every kind of feature occurs");
    }

    /// The feature list and a position's vector agree in length; mobility is the one
    /// non-material feature.
    #[test]
    fn feature_list_matches_feature_vector() {
        let x = Micro::startpos().features();
        assert_eq!(x.len(), Micro::FEATURES.names.len());
        assert_eq!(Micro::FEATURES.material, x.len() - 1);
        assert_eq!(x, vec![0.0; x.len()], "the start is balanced");
    }

    /// The ending's terms: nearness to the enemy Neuron (15 less the king distance) summed
    /// over the hunting pieces, a White blood cell only when that Neuron stands in its half
    /// (MC-5), and the enemy Neuron's steps from the centre; both times the phase over 16.
    #[test]
    fn ending_hunts_the_enemy_neuron() {
        // White: Platelet e14, White blood cell d4, Neuron i1; Black's Neuron on e16.
        let far =
            Micro::from_fen("4n11/16/4T11/16/16/16/16/16/16/16/16/16/3W12/16/16/8N7 w - 0 1 -")
                .expect("fen");
        assert_eq!(ending_phase(&far), 16, "two cells besides the Neurons");
        let (e16, i1) = (Square(15 * 16 + 4), Square(8));
        // The Platelet two away (13), the Neuron fifteen (0), the White blood cell not at all.
        assert_eq!(hunt(&far, Color::White, e16), 13);
        assert_eq!(hunt(&far, Color::Black, i1), 0);
        // Black's Neuron on e8, in White's half: the White blood cell (four away) hunts too.
        let near =
            Micro::from_fen("16/16/4T11/16/16/16/16/16/4n11/16/16/16/3W12/16/16/8N7 w - 0 1 -")
                .expect("fen");
        let e8 = Square(7 * 16 + 4);
        assert_eq!(hunt(&near, Color::White, e8), 9 + 11 + 8);
        assert_eq!(hunt(&near, Color::Black, i1), 8);
        // The evaluation: hunt and edge times their terms (White to move, full phase).
        let with = |hunt: i32, edge: i32, pos: &Micro| {
            let mut micro = MicroParams::DEFAULT;
            micro.terms[HUNT] = hunt;
            micro.terms[EDGE] = edge;
            pos.evaluate_with(&EvalParams {
                micro,
                ..EvalParams::DEFAULT
            })
        };
        // e16 is 7 steps from the centre, i1 7 too; e8 3.
        assert_eq!(with(5, 0, &far) - with(0, 0, &far), 5 * 13);
        assert_eq!(
            with(0, 10, &far),
            with(0, 0, &far),
            "each Neuron on an edge (7 from it)"
        );
        assert_eq!(
            with(5, 10, &near) - with(0, 0, &near),
            5 * (28 - 8) + 10 * (3 - 7)
        );
        // With 32 cells besides the Neurons (the start has 62) the terms are off.
        assert_eq!(ending_phase(&Micro::startpos()), 0);
    }

    /// Mobility: a lone White blood cell on d4 reaches its queen lines within ranks 1–8
    /// (MC-5): 15 on the rank, 7 on the file (d1–d8 less d4), 3+4 and 3+3 on the diagonals.
    #[test]
    fn mc5_white_blood_cell_reach_stops_at_its_half() {
        let p = Micro::from_fen("4n11/16/16/16/16/16/16/16/16/16/16/16/3W12/16/16/8N7 w - 0 1 -")
            .expect("fen");
        let sq = Square(3 * 16 + 3);
        let own = p.color_set(Color::White);
        assert_eq!(reach(p.cell(sq), sq, own, p.occupied()), 15 + 7 + 7 + 6);
        // Outside its half (a Black one promoted on c1) it reaches nothing (issue 22): its
        // lines toward its own half start outside it.
        let p = Micro::from_fen("8n7/16/16/16/16/16/16/16/16/16/7N8/16/16/16/16/2w13 w - 0 1 -")
            .expect("fen");
        let own = p.color_set(Color::Black);
        assert_eq!(reach(p.cell(Square(2)), Square(2), own, p.occupied()), 0);
        // A Black one on c9, in its half, reaches only ranks 9-16.
        let p = Micro::from_fen("8n7/16/16/16/16/16/16/2w13/16/16/16/16/16/16/16/8N7 w - 0 1 -")
            .expect("fen");
        let own = p.color_set(Color::Black);
        let c9 = Square(8 * 16 + 2);
        assert_eq!(reach(p.cell(c9), c9, own, p.occupied()), 15 + 7 + 7 + 2);
    }
}
