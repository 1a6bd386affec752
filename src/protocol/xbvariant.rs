//! What XBoard 4.9.1 needs to host the engine's own variants (see `docs/xboard.md`).
//!
//! - the `setup (TABLE) WxH+0_PARENT FEN` and `piece LETTER BETZA` lines sent after `variant`;
//! - the XBoard dialect per position: ranks from 0 on 10-rank boards (XBoard numbers them 0..9)
//!   and, with the `Rank Offset` option, on boards of more ranks (XBoard's `-rankOffset 1`);
//! - the XBoard-only spellings of moves XBoard cannot apply as the rules write them, and the
//!   reading of those spellings (also as XBoard garbles them when it relays them).
//!
//! The rules rooms keep their own spelling, which UCI uses unchanged.

use super::game::{AnyPos, VariantKind};
use crate::core::{Color, Dialect, Geometry, Move, MoveError, MoveKind, RankBase, Square, Variant};
use crate::variants::micro::{self, Micro};

/// XBoard's internal piece types per colour (`WhitePawn` … `WhiteKing` in 4.9.1).
const SLOTS: usize = 66;
const KING_SLOT: usize = SLOTS - 1;

/// One variant's presentation in XBoard.
struct Profile {
    parent: &'static str,
    /// `(slot, White letter, Black letter, White Betza, Black Betza)`; a letter `.` is unused.
    pieces: &'static [(usize, char, char, &'static str, &'static str)],
}

// Glyph slots (XBoard 4.9.1 order): 0 Pawn, 1 Knight, 2 Bishop, 3 Rook, 4 Queen, 5 Advisor,
// 6 Elephant, 7 Archbishop, 8 Marshall, 9 Gold, 10 Commoner, 11 Canon, 12 Nightrider,
// 14 Crowned Rook, 17 Hawk, 19 Cobra, 25 Tower, 26 Wolf, 30 Dragon, 65 King.

/// Infinite Recursion Chess: chess glyphs, the mega-knight as a Nightrider glyph. `lion` is
/// the parent because XBoard relays a pass as `usermove @@@@` only in chu and lion (IR-5).
const RECURSION: Profile = Profile {
    parent: "lion",
    pieces: &[
        (0, 'P', 'p', "fmWfceFifmnD", "fmWfceFifmnD"),
        (1, 'N', 'n', "N", "N"),
        (2, 'B', 'b', "B", "B"),
        (3, 'R', 'r', "R", "R"),
        (4, 'Q', 'q', "Q", "Q"),
        (12, 'M', 'm', "N", "N"),
        (KING_SLOT, 'K', 'k', "K", "K"),
    ],
};

/// Microorganism Chess, parent `fairy`. (`seirawan`, whose suffix "gating" would leave a new
/// piece on the square moved from, as a hatch and an expansion need, draws rank 16 as a row of
/// White pawns in XBoard 4.9.1 and so cannot be used.)
const MICRO: Profile = Profile {
    parent: "fairy",
    pieces: &[
        (0, 'P', 'p', "fmWfcFifmR4", "fmWfcFifmR4"),
        (1, 'B', 'b', "KN", "KN"),
        (2, 'A', 'a', "BH", "BH"),
        (4, 'W', 'w', "Q", "Q"),
        (8, 'C', 'c', "RNG", "RNG"),
        (17, 'R', 'r', "cK", "cK"),
        (19, 'V', 'v', "mK", "mK"),
        (25, 'T', 't', "K", "K"),
        (KING_SLOT, 'N', 'n', "K", "K"),
    ],
};

/// Immune Chess: White's immune cells and Black's Invaders are different types, so each has a
/// `piece` line of its own colour. No king. Shots (IM-5) are typed, not dragged.
const IMMUNE: Profile = Profile {
    parent: "fairy",
    pieces: &[
        (26, '.', 'i', "", "W"),
        (4, 'C', '.', "mQ", ""),
        (8, 'M', '.', "Q2", ""),
        (3, 'H', '.', "mR2", ""),
        (25, 'B', '.', "cfR", ""),
        (11, 'T', '.', "mfbWcfRcfB", ""),
        (9, 'A', '.', "W", ""),
        (6, 'E', '.', "W", ""),
        (10, 'N', '.', "W", ""),
        (7, 'S', '.', "Q3", ""),
        (5, 'O', '.', "K", ""),
        (30, 'D', '.', "Q2", ""),
        (14, 'L', '.', "R2", ""),
    ],
};

fn profile(kind: VariantKind) -> Option<&'static Profile> {
    match kind {
        VariantKind::Chess => None,
        VariantKind::Recursion => Some(&RECURSION),
        VariantKind::Microorganism => Some(&MICRO),
        VariantKind::Immune => Some(&IMMUNE),
    }
}

fn geometry(pos: &AnyPos) -> Geometry {
    match pos {
        AnyPos::Chess(p) => p.geometry(),
        AnyPos::Recursion(p) => p.geometry(),
        AnyPos::Microorganism(p) => p.geometry(),
        AnyPos::Immune(p) => p.geometry(),
    }
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
fn table(p: &Profile) -> String {
    let mut white = ['.'; SLOTS];
    let mut black = ['.'; SLOTS];
    for &(slot, w, b, _, _) in p.pieces {
        white[slot] = w;
        black[slot] = b;
    }
    white.iter().chain(black.iter()).collect()
}

/// The FEN XBoard reads: placement, side, castling `-`, en passant `-`, counters `0 1`.
fn xboard_fen(pos: &AnyPos) -> String {
    let fen = pos.fen();
    let mut f = fen.split_whitespace();
    let placement = f.next().unwrap_or("");
    let side = if pos.side_to_move() == Color::White {
        'w'
    } else {
        'b'
    };
    format!("{placement} {side} - - 0 1")
}

/// The lines that define the position's variant in XBoard (`None` for chess, which XBoard
/// knows as `normal`).
pub fn setup_lines(pos: &AnyPos) -> Option<Vec<String>> {
    let p = profile(pos.kind())?;
    let g = geometry(pos);
    let mut lines = vec![format!(
        "setup ({}) {}x{}+0_{} {}",
        table(p),
        g.width,
        g.height,
        p.parent,
        xboard_fen(pos)
    )];
    // `X&`: the same moves for both colours; otherwise one line per colour.
    for &(_, w, b, wb, bb) in p.pieces {
        if w != '.' && b != '.' && wb == bb {
            lines.push(format!("piece {w}& {wb}"));
        } else if w != '.' {
            lines.push(format!("piece {w} {wb}"));
        }
    }
    for &(_, w, b, wb, bb) in p.pieces {
        if b != '.' && !(w != '.' && wb == bb) {
            lines.push(format!("piece {b} {bb}"));
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
    for (dx, dy) in [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (-1, 1),
        (1, -1),
        (-1, -1),
    ] {
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

/// The XBoard spelling of a Microorganism move, and whether XBoard's board stays right (every
/// square the engine may later move from keeps a piece of the right colour) after it.
fn micro_text(p: &Micro, m: Move, d: Dialect) -> (String, bool) {
    let g = p.geometry();
    let occ = |s: Square| !p.cell(s).is_empty();
    let from = m.from();
    let to = m.to();
    let c = *p.cell(from);
    let rules = p.move_text(m, d);
    match m.kind() {
        // The glyph on the victim's square (left there by the infection) goes to the new virus's
        // square as a Virus; XBoard cannot also show the virus back on the victim's square.
        MoveKind::Hatch if to != from => {
            (format!("{}{}v", name(g, from, d), name(g, to, d)), false)
        }
        MoveKind::Hatch => match empty_square(occ, g, from, None) {
            Some(z) => (out_and_back(g, from, z, d, "v"), true),
            None => (rules, false),
        },
        // XBoard already shows the rider on the host's square: re-type it in place.
        MoveKind::Kill => {
            let own_host = c.color == p.cell(from).rider.map_or(c.color, |r| r.color);
            match empty_square(occ, g, from, None) {
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
        MoveKind::Ride => {
            let host = p.cell(to);
            (rules, host.color == c.color)
        }
        // An expanded piece moves both cells; XBoard moves one.
        MoveKind::Normal if c.has(micro::EXPANDED) => (rules, false),
        _ => (rules, true),
    }
}

fn out_and_back_to(g: Geometry, from: Square, via: Square, to: Square, d: Dialect) -> String {
    let (f, v, t) = (name(g, from, d), name(g, via, d), name(g, to, d));
    format!("{f}{v},{v}{t}")
}

/// The XBoard spelling of a legal move and whether XBoard's board stays right after it.
pub fn move_text_safe(pos: &AnyPos, m: Move, d: Dialect) -> (String, bool) {
    match pos {
        AnyPos::Recursion(p) if m.kind() == MoveKind::EnPassant => {
            let g = p.geometry();
            let victim = Square(g.rank(m.from()) * g.width + g.file(m.to()));
            (out_and_back_to(g, m.from(), victim, m.to(), d), true)
        }
        AnyPos::Microorganism(p) => micro_text(p, m, d),
        _ => (pos.move_text(m, d), true),
    }
}

/// The XBoard spelling of a legal move.
pub fn move_text(pos: &AnyPos, m: Move, d: Dialect) -> String {
    move_text_safe(pos, m, d).0
}

/// The legal moves whose XBoard spelling keeps XBoard's board right; all of them when none do.
pub fn safe_moves(pos: &AnyPos, d: Dialect) -> Vec<Move> {
    let all = pos.legal_moves();
    let safe: Vec<Move> = all
        .iter()
        .copied()
        .filter(|&m| move_text_safe(pos, m, d).1)
        .collect();
    if safe.is_empty() {
        all.to_vec()
    } else {
        safe
    }
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
    let legal = pos.legal_moves();
    for &m in &legal {
        if move_text(pos, m, d) == t {
            return Ok(m);
        }
    }
    if let Some(plain) = ungarble(t, geometry(pos), d) {
        let strip = |s: String| {
            s.trim_end_matches(|c: char| c.is_ascii_alphabetic())
                .to_string()
        };
        for &m in &legal {
            if strip(move_text(pos, m, d)) == plain {
                return Ok(m);
            }
        }
    }
    pos.parse_move(t, d)
}
