//! The XBoard wire room: what XBoard 4.9.1 needs to host the engine's own variants (see
//! `docs/xboard.md`). Below the protocol and the referee (both speak XBoard), above the rules.
//!
//! - the `setup (TABLE) WxH+0_PARENT FEN` and `piece LETTER BETZA` lines sent after `variant`;
//! - the XBoard dialect per position: ranks from 0 on 10-rank boards (XBoard numbers them 0..9)
//!   and, with the `Rank Offset` option, on boards of more ranks (XBoard's `-rankOffset 1`);
//! - the XBoard-only spellings of moves XBoard cannot apply as the rules write them, and the
//!   reading of those spellings (also as XBoard garbles them when it relays them);
//! - Immune Chess mirrored: XBoard starts every game with White to move, whatever the `setup`
//!   FEN says, but the Invaders (Black) move first (IM-3). So XBoard is shown the Invaders as
//!   its White at the bottom and the immune cells as its Black at the top: colours swapped,
//!   the board flipped vertically (our rank r is XBoard's rank H-1-r), every move text, FEN and
//!   result claim translated both ways ([`mirrored`]);
//! - which moves XBoard can follow from its own board (a [`Shadow`] of it), for choosing the
//!   engine's move under XBoard ([`safe_moves`]).
//!
//! The rules rooms keep their own spelling, which UCI uses unchanged.

pub mod betza;
pub mod shadow;

use crate::core::fen::mirror_placement;
use crate::core::geometry::KING_STEPS;
use crate::core::view::{Badge, SquareView};
use crate::core::{
    Atom, Color, Dialect, Geometry, Move, MoveError, MoveKind, Outcome, PieceDef, RankBase, Square,
    Variant,
};
use crate::variants::{chess, immune, micro, with_pos, AnyPos, VariantKind};
use betza::{atoms_betza, betza};
use shadow::Shadow;
use std::cell::OnceCell;

/// XBoard's internal piece types per colour (`WhitePawn` … `WhiteKing` in 4.9.1).
const SLOTS: usize = 66;
const KING_SLOT: usize = SLOTS - 1;

/// One variant's presentation in XBoard. Only what is XBoard's own is written here (the glyph
/// slots, the order of the `piece` lines, the parent); letters and Betza lines come from the
/// variant's `PieceDef`s ([`betza`]), but for the few overrides documented at each profile.
struct Profile {
    parent: &'static str,
    /// The variant's piece types.
    pieces: &'static [PieceDef],
    /// The types shown, in the order of the `piece` lines, and XBoard's glyph slot of each.
    types: &'static [u8],
    slots: &'static [usize],
    /// XBoard's letter for a slot, where it is not its type's own.
    letters: &'static [(usize, char)],
    /// A slot's Betza line written by hand, where the atoms cannot say it.
    betza: &'static [(usize, &'static str)],
    /// Which of our colours has a type (`None`: both) and the atoms XBoard is told beyond the
    /// type's own.
    cell: fn(u8) -> (Option<Color>, &'static [Atom]),
}

/// Both colours have every type, with its own atoms only.
fn both(_: u8) -> (Option<Color>, &'static [Atom]) {
    (None, &[])
}

// Glyph slots (XBoard 4.9.1 order): 0 Pawn, 1 Knight, 2 Bishop, 3 Rook, 4 Queen, 5 Advisor,
// 6 Elephant, 7 Archbishop, 8 Marshall, 9 Gold, 10 Commoner, 11 Canon, 12 Nightrider,
// 14 Crowned Rook, 17 Hawk, 19 Cobra, 25 Tower, 26 Wolf, 30 Dragon, 65 King.
//
// A pawn's Betza line is written by hand: XBoard's own spelling of a pawn puts the direction
// before the mode (`fmW`; the writer, as every other line here, the mode first: `mfbW`), and
// the longer first move (`ifmnD`: the double step, not jumping; `ifmR4`: MC-3's push of up to
// 4) and en passant (`e`) are powers and `initial_push`, not atoms.

/// Infinite Recursion Chess: chess glyphs, the mega-knight as a Nightrider glyph. `lion` is
/// the parent because XBoard relays a pass as `usermove @@@@` only in chu and lion (IR-5).
/// The mega-knight (IR-4) is a knight marked by its state, not a type: shown (slot 12) with
/// the knight's moves under XBoard's letter `M`.
const RECURSION: Profile = {
    use chess::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
    Profile {
        parent: "lion",
        pieces: &chess::PIECES,
        types: &[PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KNIGHT, KING],
        slots: &[0, 1, 2, 3, 4, 12, KING_SLOT],
        letters: &[(12, 'M')],
        betza: &[(0, "fmWfceFifmnD")],
        cell: both,
    }
};

/// Microorganism Chess, parent `fairy`. (`seirawan`, whose suffix "gating" would leave a new
/// piece on the square moved from, as a hatch and an expansion need, draws rank 16 as a row of
/// White pawns in XBoard 4.9.1 and so cannot be used.) By hand: the pawn, without `e` (XBoard
/// is not told of MC-3's en passant after a push of 2 to 4 squares), and the Prion (slot 17),
/// which has no atoms: it moves only by riding a piece a king step away (MC-12), shown as
/// king-step captures so that XBoard lets it step onto a piece.
const MICRO: Profile = {
    use micro::{AMOEBA, BACTERIUM, NEURON, PARAMECIUM, PLATELET, PRION, RBC, VIRUS, WBC};
    Profile {
        parent: "fairy",
        pieces: &micro::PIECES,
        types: &[
            RBC, BACTERIUM, AMOEBA, WBC, PARAMECIUM, PRION, VIRUS, PLATELET, NEURON,
        ],
        slots: &[0, 1, 2, 4, 8, 17, 19, 25, KING_SLOT],
        letters: &[],
        betza: &[(0, "fmWfcFifmR4"), (17, "cK")],
        cell: both,
    }
};

/// Immune Chess: White's immune cells and Black's Invaders are different types, so each has a
/// `piece` line of its own colour. No king. Shots (IM-5) are typed, not dragged; XBoard is told
/// them as captures along their lines, so that a person can pick a shot's target.
const IMMUNE: Profile = Profile {
    parent: "fairy",
    pieces: &immune::PIECES,
    // Every type, in type order (Invader, Complement, …, Natural Killer).
    types: &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    slots: &[26, 4, 8, 3, 25, 11, 9, 6, 10, 7, 5, 30, 14],
    letters: &[],
    betza: &[],
    cell: |t| {
        let c = &immune::CELLS[t as usize];
        let side = if c.white { Color::White } else { Color::Black };
        (Some(side), c.shots)
    },
};

// Each profile has a slot for each type it shows, and shows every type of its variant (chess's
// and the mega-knight for Recursion).
const _: () = {
    assert!(RECURSION.types.len() == RECURSION.slots.len());
    assert!(MICRO.types.len() == MICRO.slots.len());
    assert!(IMMUNE.types.len() == IMMUNE.slots.len());
    assert!(RECURSION.types.len() == chess::TYPES + 1);
    assert!(MICRO.types.len() == micro::TYPES);
    assert!(IMMUNE.types.len() == immune::TYPES);
};

/// Whether XBoard is shown the variant mirrored: colours swapped and the board flipped
/// vertically. XBoard opens every game with White, so a variant whose Black moves first
/// (Immune Chess, IM-3) is shown with its colours swapped.
pub fn mirrored(kind: VariantKind) -> bool {
    kind.first_mover() == Color::Black
}

/// The colour XBoard gives a side of ours.
pub fn xb_color(kind: VariantKind, c: Color) -> Color {
    if mirrored(kind) {
        !c
    } else {
        c
    }
}

/// A glyph as XBoard is told it: `(slot, White letter, Black letter, Betza)`, a letter `.`
/// where that colour has no such piece.
type PieceRow = (usize, char, char, String);

/// A profile's override for a glyph slot, if it has one.
fn by_slot<T: Copy>(list: &[(usize, T)], slot: usize) -> Option<T> {
    list.iter().find(|r| r.0 == slot).map(|r| r.1)
}

/// The profile's pieces as XBoard is told them: with the colours swapped when mirrored.
fn xb_pieces(p: &Profile, mirror: bool) -> Vec<PieceRow> {
    p.types
        .iter()
        .zip(p.slots)
        .map(|(&t, &slot)| {
            let def = &p.pieces[t as usize];
            let (only, shots) = (p.cell)(t);
            let l = by_slot(p.letters, slot).unwrap_or(def.letter);
            let has = |c: Color| only.is_none_or(|o| o == c);
            let w = if has(Color::White) { l } else { '.' };
            let b = if has(Color::Black) {
                l.to_ascii_lowercase()
            } else {
                '.'
            };
            let line = match by_slot(p.betza, slot) {
                Some(text) => text.to_string(),
                None => betza(def) + &atoms_betza(shots),
            };
            if mirror {
                (slot, b.to_ascii_uppercase(), w.to_ascii_lowercase(), line)
            } else {
                (slot, w, b, line)
            }
        })
        .collect()
}

fn flip(g: Geometry, sq: Square) -> Square {
    Square((g.height - 1 - g.rank(sq)) * g.width + g.file(sq))
}

/// Every square name in `text` replaced by its mirror image (our rank r is XBoard's H-1-r);
/// the other characters are kept. Its own inverse.
pub fn mirror_text(g: Geometry, text: &str, base: RankBase) -> String {
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        if rest.as_bytes()[0].is_ascii_lowercase() {
            if let Some((sq, n)) = g.parse_square(rest, base) {
                out.push_str(&g.name(flip(g, sq), base));
                i += n;
                continue;
            }
        }
        let c = rest.chars().next().unwrap_or(' ');
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// A FEN sent by XBoard (`setboard`) as the rules read it: un-mirrored (placement flipped,
/// colours and side to move swapped) for a mirrored variant, unchanged otherwise.
///
/// XBoard writes every FEN with its six standard fields (`placement side castling ep halfmove
/// fullmove`, Edit → Paste Position sends `setboard 15n/…/N15 w - - 0 1`); Microorganism and
/// Immune Chess have no castling field (`placement side ep|dendritic halfmove fullmove`), so
/// for them such a FEN loses its castling field.
pub fn fen_from_xboard(kind: VariantKind, fen: &str) -> String {
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    let counter = |s: &String| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !kind.castling() && fields.len() == 6 && counter(&fields[4]) && counter(&fields[5]) {
        fields.remove(2);
    }
    if !mirrored(kind) {
        return fields.join(" ");
    }
    if let Some(p) = fields.first_mut() {
        *p = mirror_placement(p);
    }
    if let Some(side) = fields.get_mut(1) {
        *side = match side.as_str() {
            "w" => "b".into(),
            "b" => "w".into(),
            other => other.into(),
        };
    }
    fields.join(" ")
}

/// `White` and `Black` swapped in a text.
fn swap_color_words(text: &str) -> String {
    text.replace("White", "\u{1}")
        .replace("Black", "White")
        .replace("\u{1}", "Black")
}

/// The result claim XBoard gets for a game end: `1-0 {White mates}`; for a mirrored variant
/// with the score and the colour names swapped, as XBoard shows the sides.
pub fn claim(kind: VariantKind, o: &Outcome) -> String {
    if !mirrored(kind) {
        return format!("{} {{{}}}", o.score(), o.reason());
    }
    let score = match o.score() {
        "1-0" => "0-1",
        "0-1" => "1-0",
        s => s,
    };
    format!("{score} {{{}}}", swap_color_words(o.reason()))
}

fn profile(kind: VariantKind) -> Option<&'static Profile> {
    match kind {
        VariantKind::Chess => None,
        VariantKind::Recursion => Some(&RECURSION),
        VariantKind::Microorganism => Some(&MICRO),
        VariantKind::Immune => Some(&IMMUNE),
    }
}

/// The board of a position.
pub fn geometry(pos: &AnyPos) -> Geometry {
    with_pos!(pos, |p| p.geometry())
}

/// The XBoard dialect for a position: XBoard 4.9.1 numbers the ranks of a 10-rank board 0..9,
/// and those of a larger board 0.. when started with `-rankOffset 1` (option `Rank Offset`).
pub fn dialect(pos: &AnyPos, rank_offset: u8) -> Dialect {
    let h = geometry(pos).height;
    let zero = h == 10 || (h > 10 && rank_offset == 1);
    Dialect {
        rank_base: if zero { RankBase::ZERO } else { RankBase::ONE },
        ..Dialect::XBOARD
    }
}

/// The piece-to-char table: 66 slots per colour, `.` for unused, the king slot last.
fn table(pieces: &[PieceRow]) -> String {
    let mut white = ['.'; SLOTS];
    let mut black = ['.'; SLOTS];
    for &(slot, w, b, _) in pieces {
        white[slot] = w;
        black[slot] = b;
    }
    white.iter().chain(black.iter()).collect()
}

/// The placement as XBoard is shown it (mirrored for a mirrored variant).
fn xboard_placement(pos: &AnyPos) -> String {
    let fen = pos.fen();
    let placement = fen.split_whitespace().next().unwrap_or("").to_string();
    if mirrored(pos.kind()) {
        mirror_placement(&placement)
    } else {
        placement
    }
}

/// The FEN XBoard reads: placement, side, castling rights, en passant `-`, counters `0 1`.
///
/// The castling field matters: XBoard keeps it and relays it in the `setboard` it sends a
/// second engine (Two Machines, `-mg` matches), which must then still castle. XBoard's FEN
/// has one set of rights for the whole 16×8 Recursion board, so a right is written when
/// either board has it; a reader of the plain form (`Recursion::from_plain_fen`) gives each
/// board the rights its king and rooks stand ready for (IR-2). Microorganism and Immune Chess
/// have no castling: `-`.
pub fn xboard_fen(pos: &AnyPos) -> String {
    let side = if xb_color(pos.kind(), pos.side_to_move()) == Color::White {
        'w'
    } else {
        'b'
    };
    format!(
        "{} {side} {} - 0 1",
        xboard_placement(pos),
        castling_field(pos)
    )
}

/// The castling rights of a position in a FEN's `KQkq` form (`-` for none).
fn castling_field(pos: &AnyPos) -> String {
    chess::castling_text(with_pos!(pos, |p| p.castling_rights()))
}

/// The lines that define the position's variant in XBoard (`None` for chess, which XBoard
/// knows as `normal`).
pub fn setup_lines(pos: &AnyPos) -> Option<Vec<String>> {
    let p = profile(pos.kind())?;
    let pieces = xb_pieces(p, mirrored(pos.kind()));
    let g = geometry(pos);
    let mut lines = vec![format!(
        "setup ({}) {}x{}+0_{} {}",
        table(&pieces),
        g.width,
        g.height,
        p.parent,
        xboard_fen(pos)
    )];
    // `X&`: both colours have the type (with the same moves); otherwise one line per colour.
    for (_, w, b, line) in &pieces {
        if *w != '.' && *b != '.' {
            lines.push(format!("piece {w}& {line}"));
        } else if *w != '.' {
            lines.push(format!("piece {w} {line}"));
        }
    }
    for (_, w, b, line) in &pieces {
        if *b != '.' && *w == '.' {
            lines.push(format!("piece {b} {line}"));
        }
    }
    Some(lines)
}

fn name(g: Geometry, sq: Square, d: Dialect) -> String {
    g.name(sq, d.rank_base)
}

/// An empty square for an out-and-back "move" that changes nothing on XBoard's board: the
/// first empty square on the ray from `from` in direction `(dx, dy)` beyond `skip` steps, or
/// with no ray, the first empty king-neighbour, else the first empty square of the board.
fn empty_square(
    occupied: impl Fn(Square) -> bool,
    g: Geometry,
    from: Square,
    ray: Option<(i32, i32, i32)>,
) -> Option<Square> {
    if let Some((dx, dy, skip)) = ray {
        let mut k = skip;
        while let Some(s) = g.offset(from, dx * k, dy * k) {
            if !occupied(s) {
                return Some(s);
            }
            k += 1;
        }
        return None;
    }
    for (dx, dy) in KING_STEPS {
        if let Some(s) = g.offset(from, dx, dy) {
            if !occupied(s) {
                return Some(s);
            }
        }
    }
    (0..g.squares())
        .map(|i| Square(i as u8))
        .find(|&s| !occupied(s))
}

fn out_and_back(g: Geometry, from: Square, via: Square, d: Dialect, suffix: &str) -> String {
    let (f, v) = (name(g, from, d), name(g, via, d));
    format!("{f}{v},{v}{f}{suffix}")
}

/// The squares of a position as its picture shows them (`describe()`), by square index: what
/// the spelling of a fairy move needs to know of the board, read through the rules' own view.
struct Squares {
    cells: Vec<Option<SquareView>>,
}

impl Squares {
    fn of<V: Variant>(p: &V) -> Squares {
        let view = p.describe();
        let mut cells = vec![None; view.width as usize * view.height as usize];
        for sv in view.squares {
            let i = sv.rank as usize * view.width as usize + sv.file as usize;
            cells[i] = Some(sv);
        }
        Squares { cells }
    }
    fn at(&self, s: Square) -> Option<&SquareView> {
        self.cells.get(s.0 as usize).and_then(|c| c.as_ref())
    }
    fn occupied(&self, s: Square) -> bool {
        self.at(s).is_some()
    }
    fn color(&self, s: Square) -> Option<Color> {
        self.at(s).map(|v| v.piece.color)
    }
    fn rider_color(&self, s: Square) -> Option<Color> {
        self.at(s)?.badges.iter().find_map(|b| match b {
            Badge::Rider { rider, .. } => Some(rider.color),
            _ => None,
        })
    }
    fn expanded(&self, s: Square) -> bool {
        self.at(s)
            .is_some_and(|v| v.badges.iter().any(|b| matches!(b, Badge::Expanded { .. })))
    }
}

/// The XBoard spelling of a move of a variant with hatches, rides, kills, bonds and expansions
/// (Microorganism Chess), and whether XBoard's board stays right (every square the engine may
/// later move from keeps a piece of the right colour) after it. Reads the rules only through
/// the [`Variant`] trait and the position's picture.
fn fairy_text<V: Variant>(p: &V, board: &OnceCell<Squares>, m: Move, d: Dialect) -> (String, bool) {
    let g = p.geometry();
    let from = m.from();
    let to = m.to();
    let rules = p.move_text(m, d);
    let sq = || board.get_or_init(|| Squares::of(p));
    let occ = |s: Square| sq().occupied(s);
    match m.kind() {
        // The glyph on the victim's square (left there by the infection) goes to the new virus's
        // square as a Virus; XBoard cannot also show the virus back on the victim's square.
        MoveKind::Hatch if to != from => {
            (format!("{}{}v", name(g, from, d), name(g, to, d)), false)
        }
        MoveKind::Hatch => match empty_square(free_of_targets(p, sq(), from), g, from, None) {
            Some(z) => (out_and_back(g, from, z, d, "v"), true),
            None => (rules, false),
        },
        // XBoard already shows the rider on the host's square: re-type it in place.
        MoveKind::Kill => {
            let own_host = sq().color(from) == sq().rider_color(from).or(sq().color(from));
            match empty_square(free_of_targets(p, sq(), from), g, from, None) {
                Some(z) => (out_and_back(g, from, z, d, "r"), own_host),
                None => (rules, false),
            }
        }
        // Nothing moves: out and back over an empty square on the ray through the partner.
        MoveKind::Bond => {
            let dx = g.file(to) as i32 - g.file(from) as i32;
            let dy = g.rank(to) as i32 - g.rank(from) as i32;
            match empty_square(occ, g, from, Some((dx, dy, 2))) {
                Some(z) => (out_and_back(g, from, z, d, ""), true),
                None => (rules, false),
            }
        }
        // The victim is captured as the second leg's start: XBoard's own en-passant code knows
        // only the square right behind the landing square.
        MoveKind::EnPassant => {
            let victim = Square(g.rank(from) * g.width + g.file(to));
            (out_and_back_to(g, from, victim, to, d), true)
        }
        // XBoard shows the piece moved to the new cell; the cell it keeps looks empty.
        MoveKind::Expand => {
            let t = format!("{}{}a", name(g, from, d), name(g, to, d));
            (t, false)
        }
        // A ride on a piece of the other side would show the rider's colour on the host's
        // square, which the host's owner still moves.
        MoveKind::Ride => (rules, sq().color(to) == sq().color(from)),
        // An expanded piece moves both cells; XBoard moves one.
        MoveKind::Normal => (rules, !sq().expanded(from)),
        _ => (rules, true),
    }
}

/// The squares unusable as the middle of an out-and-back spelling of a move from `from`: the
/// occupied ones, and those where another legal move from `from` ends, so that a person can
/// click the middle square as a first leg (`highlight` marks it cyan) without hiding a move
/// that ends there.
fn free_of_targets<'a, V: Variant>(
    p: &V,
    sq: &'a Squares,
    from: Square,
) -> impl Fn(Square) -> bool + 'a {
    let mut list = crate::core::MoveList::new();
    p.legal_moves(&mut list);
    let targets: Vec<Square> = list
        .iter()
        .filter(|m| m.from() == from)
        .map(|m| m.to())
        .collect();
    move |s: Square| sq.occupied(s) || targets.contains(&s)
}

fn out_and_back_to(g: Geometry, from: Square, via: Square, to: Square, d: Dialect) -> String {
    let (f, v, t) = (name(g, from, d), name(g, via, d), name(g, to, d));
    format!("{f}{v},{v}{t}")
}

/// Spells the moves of one position in XBoard's way. The position's picture, which some
/// spellings need, is read once, when the first of them is spelled.
struct Speller<'a> {
    pos: &'a AnyPos,
    d: Dialect,
    board: OnceCell<Squares>,
}

impl<'a> Speller<'a> {
    fn new(pos: &'a AnyPos, d: Dialect) -> Self {
        Speller {
            pos,
            d,
            board: OnceCell::new(),
        }
    }

    /// The XBoard spelling of a legal move and whether XBoard's board stays right after it.
    fn text_safe(&self, m: Move) -> (String, bool) {
        let (text, safe) = self.own_text_safe(m);
        if mirrored(self.pos.kind()) {
            (
                mirror_text(geometry(self.pos), &text, self.d.rank_base),
                safe,
            )
        } else {
            (text, safe)
        }
    }

    /// [`Self::text_safe`] before mirroring.
    fn own_text_safe(&self, m: Move) -> (String, bool) {
        let d = self.d;
        match self.pos {
            AnyPos::Recursion(p) if m.kind() == MoveKind::EnPassant => {
                let g = p.geometry();
                let victim = Square(g.rank(m.from()) * g.width + g.file(m.to()));
                (out_and_back_to(g, m.from(), victim, m.to(), d), true)
            }
            AnyPos::Microorganism(p) => fairy_text(p, &self.board, m, d),
            pos => (pos.move_text(m, d), true),
        }
    }

    /// The XBoard spelling of a move before mirroring.
    fn own_text(&self, m: Move) -> String {
        self.own_text_safe(m).0
    }
}

/// The XBoard spelling of a legal move and whether XBoard's board stays right after it.
pub fn move_text_safe(pos: &AnyPos, m: Move, d: Dialect) -> (String, bool) {
    Speller::new(pos, d).text_safe(m)
}

/// The XBoard spelling of a legal move.
pub fn move_text(pos: &AnyPos, m: Move, d: Dialect) -> String {
    move_text_safe(pos, m, d).0
}

/// A shadow of XBoard's board in the position (XBoard's view: mirrored for a mirrored
/// variant), for the variants XBoard hosts with the `fairy` parent (Microorganism, Immune).
pub fn shadow(pos: &AnyPos, d: Dialect) -> Option<Shadow> {
    let p = profile(pos.kind())?;
    if p.parent != "fairy" {
        return None;
    }
    let pieces = xb_pieces(p, mirrored(pos.kind()));
    let upper = |v: Vec<char>| -> Vec<char> {
        v.into_iter()
            .filter(|&c| c != '.')
            .map(|c| c.to_ascii_uppercase())
            .collect()
    };
    let letters = [
        upper(pieces.iter().map(|r| r.1).collect()),
        upper(pieces.iter().map(|r| r.2).collect()),
    ];
    let slot = |s: usize| {
        pieces
            .iter()
            .find(|r| r.0 == s)
            .map(|r| if r.1 != '.' { r.1 } else { r.2 }.to_ascii_uppercase())
    };
    Shadow::new(
        geometry(pos),
        d.rank_base,
        &xboard_placement(pos),
        letters,
        slot(0),
        slot(KING_SLOT),
    )
}

/// The legal moves to choose from under XBoard: those XBoard can follow from its board (per
/// the shadow, when there is one: a piece of ours on the square moved from) and whose spelling
/// keeps XBoard's board right; failing that, those XBoard can follow; failing that, all.
pub fn safe_moves(pos: &AnyPos, d: Dialect, shadow: Option<&Shadow>) -> Vec<Move> {
    let all = pos.legal_moves();
    let side = xb_color(pos.kind(), pos.side_to_move());
    let speller = Speller::new(pos, d);
    let followable: Vec<(Move, bool)> = all
        .iter()
        .map(|&m| (m, speller.text_safe(m)))
        .filter(|(_, (t, _))| shadow.is_none_or(|s| s.accepts(t, side)))
        .map(|(m, (_, safe))| (m, safe))
        .collect();
    let safe: Vec<Move> = followable.iter().filter(|f| f.1).map(|f| f.0).collect();
    if !safe.is_empty() {
        safe
    } else if !followable.is_empty() {
        followable.into_iter().map(|f| f.0).collect()
    } else {
        all.to_vec()
    }
}

/// The PV's moves in XBoard's spelling, replayed from `root` (cut at the first illegal one).
pub fn pv_texts(root: &AnyPos, pv: &[Move], rank_offset: u8) -> Vec<String> {
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(pv.len());
    for &m in pv {
        if !pos.is_legal(m) {
            break;
        }
        out.push(move_text(&pos, m, dialect(&pos, rank_offset)));
        pos.make_move(m);
    }
    out
}

/// A two-leg move of a Black piece over an empty square comes back from XBoard 4.9.1 as
/// `XX,ZW` (taken for castling): the square moved from twice, the middle square, a neighbour.
/// Returns `XZ,ZX` with the suffix (which XBoard drops) unknown.
fn ungarble(text: &str, g: Geometry, d: Dialect) -> Option<String> {
    let (a, b) = text.split_once(',')?;
    let (x1, n1) = g.parse_square(a, d.rank_base)?;
    let (x2, n2) = g.parse_square(&a[n1..], d.rank_base)?;
    if x1 != x2 || n1 + n2 != a.len() {
        return None;
    }
    let (z, _) = g.parse_square(b, d.rank_base)?;
    Some(format!(
        "{}{},{}{}",
        name(g, x1, d),
        name(g, z, d),
        name(g, z, d),
        name(g, x1, d)
    ))
}

/// Reads a move sent by XBoard: its spellings first, then the rules' own.
pub fn parse_move(pos: &AnyPos, text: &str, d: Dialect) -> Result<Move, MoveError> {
    let t = text.trim();
    let unmirrored;
    let t = if mirrored(pos.kind()) {
        unmirrored = mirror_text(geometry(pos), t, d.rank_base);
        unmirrored.as_str()
    } else {
        t
    };
    let legal = pos.legal_moves();
    let speller = Speller::new(pos, d);
    for &m in &legal {
        if speller.own_text(m) == t {
            return Ok(m);
        }
    }
    if let Some(plain) = ungarble(t, geometry(pos), d) {
        let strip = |s: String| {
            s.trim_end_matches(|c: char| c.is_ascii_alphabetic())
                .to_string()
        };
        for &m in &legal {
            if strip(speller.own_text(m)) == plain {
                return Ok(m);
            }
        }
    }
    pos.parse_move(t, d).map_err(|e| match e {
        MoveError::Syntax(_) => MoveError::Syntax(text.trim().to_string()),
        MoveError::Illegal(_) => MoveError::Illegal(text.trim().to_string()),
    })
}

/// The move text that XBoard applied to its board for a move it relayed to us as `text`
/// (read as `m`): our own spelling of `m` when `text` is a garbled relay of it, else `text`.
pub fn applied_text(pos: &AnyPos, m: Move, text: &str, d: Dialect) -> String {
    let own = move_text(pos, m, d);
    let t = text.trim();
    if t == own {
        return own;
    }
    let g = geometry(pos);
    let plain = if mirrored(pos.kind()) {
        ungarble(&mirror_text(g, t, d.rank_base), g, d).map(|p| mirror_text(g, &p, d.rank_base))
    } else {
        ungarble(t, g, d)
    };
    let strip = |s: &str| {
        s.trim_end_matches(|c: char| c.is_ascii_alphabetic())
            .to_string()
    };
    match plain {
        Some(p) if strip(&own) == p => own,
        _ => t.to_string(),
    }
}

// ---------------------------------------------------------------------------------------------
// Move entry with the mouse (`feature highlight=1`): `lift`, `put`, `hover` from XBoard,
// `highlight COLORFEN` and `choice` to it. Read in XBoard 4.9.1 `backend.c` (`MarkByFEN`,
// `LeftClick`, `ReportClick`, `HoverEvent`) and `engine-intf.html`:
//
// - after `lift SQ` only the squares marked in upper case are accepted as targets (with
//   `-xlegal`); `Y` yellow and `R` red (a capture: XBoard then sends `hover`) end the move;
// - `C` cyan: the first leg of a two-leg move; XBoard sends `put SQ` and `lift SQ` for that
//   square and waits for a second target: the engine marks the second leg's targets (a click
//   on the cyan square again ends the move there, as a one-leg move);
// - `B` blue: XBoard waits for `choice X` after `put SQ` and sends the move with suffix `x`;
// - `M` magenta: a promotion choice (XBoard's popup or sweep) among several suffixes.

/// A legal move as the clicks that enter it in XBoard: its XBoard spelling's squares (XBoard's
/// view: mirrored for a mirrored variant, the dialect's rank numbering).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clicks {
    pub from: Square,
    /// The square of a first leg (`AB,BC`: B).
    pub via: Option<Square>,
    pub to: Square,
    /// A suffix letter (`g4f3v`): XBoard re-types the piece.
    pub suffix: Option<char>,
}

/// The clicks of an XBoard spelling, `None` for a text no click enters (a pass, a drop).
pub fn clicks(g: Geometry, text: &str, d: Dialect) -> Option<Clicks> {
    let leg = |t: &str| -> Option<(Square, Square, usize)> {
        let (a, n1) = g.parse_square(t, d.rank_base)?;
        let (b, n2) = g.parse_square(&t[n1..], d.rank_base)?;
        Some((a, b, n1 + n2))
    };
    let suffix = |rest: &str| -> Option<Option<char>> {
        let mut cs = rest.chars();
        match (cs.next(), cs.next()) {
            (None, _) => Some(None),
            (Some(c), None) if c.is_ascii_lowercase() => Some(Some(c)),
            _ => None,
        }
    };
    match text.split_once(',') {
        None => {
            let (from, to, n) = leg(text)?;
            Some(Clicks {
                from,
                via: None,
                to,
                suffix: suffix(&text[n..])?,
            })
        }
        Some((first, second)) => {
            let (from, via, n1) = leg(first)?;
            let (via2, to, n2) = leg(second)?;
            (n1 == first.len() && via == via2).then_some(())?;
            Some(Clicks {
                from,
                via: Some(via),
                to,
                suffix: suffix(&second[n2..])?,
            })
        }
    }
}

/// The clicks of every legal move of the position, in XBoard's spelling.
pub fn all_clicks(pos: &AnyPos, d: Dialect) -> Vec<Clicks> {
    let g = geometry(pos);
    let speller = Speller::new(pos, d);
    pos.legal_moves()
        .iter()
        .filter_map(|&m| clicks(g, &speller.text_safe(m).0, d))
        .collect()
}

/// Where a person has got to entering a move: the piece lifted on `from`, and the first leg's
/// square once a cyan square was chosen.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Lifted {
    pub from: Square,
    pub via: Option<Square>,
}

/// The suffixes of the moves that end on `to` after `lifted` (`None`: a move without suffix),
/// and whether `to` is a first leg's square (only before a first leg was chosen).
fn target(moves: &[Clicks], lifted: Lifted, to: Square) -> (Vec<Option<char>>, bool) {
    let mut suffixes: Vec<Option<char>> = moves
        .iter()
        .filter(|c| c.from == lifted.from && c.via == lifted.via && c.to == to)
        .map(|c| c.suffix)
        .collect();
    suffixes.sort();
    suffixes.dedup();
    let first_leg = lifted.via.is_none()
        && moves
            .iter()
            .any(|c| c.from == lifted.from && c.via == Some(to));
    (suffixes, first_leg)
}

/// Whether `sq` is the square of a first leg of a move from `from` (XBoard's `lift` for it
/// after a cyan mark starts the second leg).
pub fn is_first_leg(moves: &[Clicks], from: Square, sq: Square) -> bool {
    moves.iter().any(|c| c.from == from && c.via == Some(sq))
}

/// The squares XBoard shows occupied (its view: the shadow when kept, else the position's).
fn xb_occupied(pos: &AnyPos, shadow: Option<&Shadow>) -> Vec<bool> {
    let g = geometry(pos);
    let (w, h) = (g.width as usize, g.height as usize);
    let mut occ = vec![false; w * h];
    match shadow {
        Some(s) => {
            for r in 0..h {
                for f in 0..w {
                    occ[r * w + f] = s.at(f as i32, r as i32).is_some();
                }
            }
        }
        None => {
            let placement = xboard_placement(pos);
            for (i, row) in placement.split('/').enumerate() {
                let r = h.saturating_sub(1 + i);
                let (mut f, mut run) = (0usize, 0usize);
                for c in row.chars() {
                    if let Some(dg) = c.to_digit(10) {
                        run = run * 10 + dg as usize;
                        continue;
                    }
                    f += run;
                    run = 0;
                    if f < w {
                        occ[r * w + f] = true;
                    }
                    f += 1;
                }
            }
        }
    }
    occ
}

/// The marker of a target square: `C` a first leg, `Y`/`R` a move without suffix to an
/// empty/occupied square, `B` one suffix (the engine answers `put` with `choice`), `M`
/// several (XBoard offers a choice), `None` no move there.
fn marker(moves: &[Clicks], lifted: Lifted, to: Square, occupied: bool) -> Option<char> {
    let (suffixes, first_leg) = target(moves, lifted, to);
    if first_leg {
        return Some('C');
    }
    match suffixes.as_slice() {
        [] => None,
        [None] => Some(if occupied { 'R' } else { 'Y' }),
        [Some(_)] => Some('B'),
        _ => Some('M'),
    }
}

/// The `highlight COLORFEN` answer to a `lift`: every target of the lifted piece (or of the
/// chosen first leg) marked, XBoard's view, rank H-1 first.
pub fn highlight(pos: &AnyPos, d: Dialect, shadow: Option<&Shadow>, lifted: Lifted) -> String {
    let g = geometry(pos);
    let moves = all_clicks(pos, d);
    let occ = xb_occupied(pos, shadow);
    let fen = crate::core::fen::write_placement(g.width, g.height, |f, r| {
        let sq = Square(r * g.width + f);
        // Back on the square moved from (out and back) is no capture.
        marker(&moves, lifted, sq, occ[sq.0 as usize] && sq != lifted.from)
    });
    format!("highlight {fen}")
}

/// The `choice X` answer to `put SQ` on a square marked blue: the one suffix of the moves
/// ending there.
pub fn choice(pos: &AnyPos, d: Dialect, lifted: Lifted, to: Square) -> Option<char> {
    let moves = all_clicks(pos, d);
    match target(&moves, lifted, to) {
        (s, false) if s.len() == 1 => s[0],
        _ => None,
    }
}

/// A square named by XBoard in `lift`/`put`/`hover` (its view, the dialect's ranks).
pub fn xb_square(pos: &AnyPos, text: &str, d: Dialect) -> Option<Square> {
    geometry(pos).parse_square_exact(text.trim(), d.rank_base)
}
