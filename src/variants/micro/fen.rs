//! Microorganism Chess FEN (read into a [`Setup`], validated, written) and the `d` display.
//!
//! `PLACEMENT SIDE EP HALFMOVE FULLMOVE STATE`: 16 ranks of 16 squares (two-digit empty runs
//! allowed; an expanded piece shows its letter on both cells); `w`/`b`; the squares the last
//! pawn push passed over, comma-separated, or `-`; the two counters; and the hidden state,
//! `-` or `;`-separated items `square:attr,attr…` with attributes `+LETTERS` (what a Bacterium
//! absorbed), `wall`, `cell=SQ` (the other cell of an expanded piece, on the lower cell),
//! `rider=L[+LETTERS]` and `infected=L[+LETTERS]/WAIT` (infection items in infection order).

use super::*;
use crate::core::fen::{self, letter_color};
use crate::core::{Badge, HeldView, PieceView, PositionView, SquareView};
use crate::core::{PositionError, StateError};

fn type_of(ch: char) -> Option<u8> {
    LETTERS
        .iter()
        .position(|&l| l == ch.to_ascii_uppercase())
        .map(|t| t as u8)
}

fn absorbed_letters(mask: u16) -> String {
    (0..TYPES)
        .filter(|t| mask & (1 << t) != 0)
        .map(|t| LETTERS[t])
        .collect()
}

fn parse_absorbed(s: &str) -> Result<u16, FenError> {
    let mut m = 0u16;
    for ch in s.chars() {
        match type_of(ch) {
            Some(t) if ch.is_ascii_uppercase() && GIVES_NOTHING & (1 << t) == 0 => m |= 1 << t,
            _ => return Err(StateError::AbsorbedPower(ch).into()),
        }
    }
    Ok(m)
}

/// `L[+LETTERS]`: a piece letter (case gives the colour) with what it absorbed.
fn parse_piece_with_powers(s: &str) -> Result<Rider, FenError> {
    let (l, rest) = match s.split_once('+') {
        Some((l, r)) => (l, Some(r)),
        None => (s, None),
    };
    let bad = || StateError::Piece(s.to_string());
    let mut cs = l.chars();
    let (Some(ch), None) = (cs.next(), cs.next()) else {
        return Err(bad().into());
    };
    Ok(Rider {
        kind: type_of(ch).ok_or_else(bad)?,
        color: letter_color(ch) as u8,
        absorbed: rest.map_or(Ok(0), parse_absorbed)?,
    })
}

fn piece_with_powers(kind: u8, color: u8, absorbed: u16) -> String {
    let mut s = String::new();
    s.push(fen::colored_letter(
        LETTERS[kind as usize],
        Color::BOTH[color as usize],
    ));
    if absorbed != 0 {
        s.push('+');
        s.push_str(&absorbed_letters(absorbed));
    }
    s
}

fn sq(text: &str) -> Result<Square, FenError> {
    GEOMETRY
        .parse_square_exact(text, RankBase::ONE)
        .ok_or_else(|| StateError::Square(text.to_string()).into())
}

fn name(s: Square) -> String {
    GEOMETRY.name(s, RankBase::ONE)
}

/// One attribute of a square's hidden state, as written.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Attr {
    /// `+LETTERS`: the powers a Bacterium absorbed (MC-7).
    Absorbed(u16),
    /// `wall`: a wall member (MC-10).
    Wall,
    /// `cell=SQ`: the other cell of an expanded piece, on the lower cell (MC-8).
    Cell(Square),
    /// `rider=L[+LETTERS]` (MC-12).
    Rider(Rider),
    /// `infected=L[+LETTERS]/WAIT`: the carrier and the turns before it hatches (MC-11).
    Infected(Rider, u8),
}

/// A Microorganism FEN read into plain data, not yet validated ([`Setup::validate`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    /// a1 first: (colour, type) or empty; an expanded piece shows on both its cells.
    pub cells: Vec<Option<(Color, u8)>>,
    pub side: Color,
    /// The squares the last pawn push passed over (MC-3).
    pub ep: Vec<Square>,
    pub halfmove: u16,
    pub fullmove: u16,
    /// Each square's hidden state, in the FEN's order (infections in infection order).
    pub state: Vec<(Square, Vec<Attr>)>,
}

/// One `square:attr,attr…` item of the state field; each attribute named once.
fn parse_item(item: &str) -> Result<(Square, Vec<Attr>), FenError> {
    let (s, attrs) = item
        .split_once(':')
        .ok_or_else(|| StateError::Item(item.to_string()))?;
    let at = sq(s)?;
    let mut kinds: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for a in attrs.split(',') {
        let kind = a.split(['=', '+']).next().unwrap_or(a);
        let kind = if a.starts_with('+') { "+" } else { kind };
        if kinds.contains(&kind) {
            return Err(StateError::Repeated {
                square: s.to_string(),
                attribute: kind.to_string(),
            }
            .into());
        }
        kinds.push(kind);
        out.push(if let Some(l) = a.strip_prefix('+') {
            Attr::Absorbed(parse_absorbed(l)?)
        } else if a == "wall" {
            Attr::Wall
        } else if let Some(p) = a.strip_prefix("cell=") {
            Attr::Cell(sq(p)?)
        } else if let Some(r) = a.strip_prefix("rider=") {
            Attr::Rider(parse_piece_with_powers(r)?)
        } else if let Some(v) = a.strip_prefix("infected=") {
            let (who, wait) = v
                .split_once('/')
                .ok_or_else(|| StateError::Infection(v.to_string()))?;
            let carrier = parse_piece_with_powers(who)?;
            let wait: u8 = wait
                .parse()
                .ok()
                .filter(|&w| w <= 1)
                .ok_or_else(|| StateError::InfectionWait(wait.to_string()))?;
            Attr::Infected(carrier, wait)
        } else {
            return Err(StateError::Attribute(a.to_string()).into());
        });
    }
    Ok((at, out))
}

/// A carried piece (rider or infector) with absorbed powers must be a Bacterium.
fn check_absorber(r: Rider) -> Result<(), FenError> {
    if r.absorbed != 0 && !has(r.kind, Powers::ABSORB) {
        return Err(PositionError::NotAbsorber {
            at: piece_with_powers(r.kind, r.color, r.absorbed),
        }
        .into());
    }
    Ok(())
}

impl Setup {
    /// Reads `PLACEMENT SIDE EP HALFMOVE FULLMOVE [STATE]`.
    pub fn parse(fen: &str) -> Result<Setup, FenError> {
        let f = fen::fields(fen)?;
        if f.len() < 5 || f.len() > 6 {
            return Err(FenError::FieldCount {
                found: f.len(),
                expected: "expected: placement side ep halfmove fullmove [state]",
            });
        }
        let mut cells = vec![None; 256];
        let ranks = fen::placement_cells(f[0], 16, 16, |c| type_of(c).is_some())?;
        for (i, rank) in ranks.iter().enumerate() {
            for (file, ch) in rank.iter().enumerate() {
                cells[(15 - i) * 16 + file] =
                    ch.map(|ch| (letter_color(ch), type_of(ch).expect("known")));
            }
        }
        let side = fen::side(f[1])?;
        let halfmove = fen::halfmove(f[3])?;
        let fullmove = fen::fullmove(f[4])?;
        let mut state = Vec::new();
        let text = f.get(5).copied().unwrap_or("-");
        if text != "-" {
            // Each square's state is one item: a repeated one (`b1:wall;b1:wall`) is a FEN no
            // position writes.
            let mut named = U256::EMPTY;
            for item in text.split(';') {
                let (at, attrs) = parse_item(item)?;
                if named.contains(at) {
                    return Err(StateError::SecondItem { square: name(at) }.into());
                }
                named.insert(at);
                state.push((at, attrs));
            }
        }
        let ep = match f[2] {
            "-" => Vec::new(),
            text => text.split(',').map(sq).collect::<Result<_, _>>()?,
        };
        Ok(Setup {
            cells,
            side,
            ep,
            halfmove,
            fullmove,
            state,
        })
    }

    /// The position, if the setup is one: state only on pieces that can have it, expanded
    /// pairs whole, walls of two or more, no red blood cell on an end rank, one Neuron each,
    /// the en-passant squares behind a pawn that just moved, the side not to move not in check.
    pub fn validate(&self) -> Result<Micro, FenError> {
        let mut pos = Micro::empty();
        for (i, c) in self.cells.iter().enumerate() {
            if let Some((color, kind)) = *c {
                pos.raw_set(i as u8, Cell::new(kind, color));
            }
        }
        pos.stm = self.side;
        pos.halfmove = self.halfmove;
        pos.fullmove = self.fullmove;
        let mut infections: Vec<Infection> = Vec::new();
        for &(at, ref attrs) in &self.state {
            let square = name(at);
            let mut c = pos.cells[at.index()];
            if c.is_empty() {
                return Err(StateError::EmptySquare { square }.into());
            }
            for &a in attrs {
                match a {
                    Attr::Absorbed(m) => {
                        if !has(c.kind, Powers::ABSORB) {
                            return Err(PositionError::NotAbsorber { at: square }.into());
                        }
                        c.absorbed = m;
                    }
                    Attr::Wall => c.flags |= BONDED,
                    Attr::Cell(p) => {
                        c.flags |= EXPANDED;
                        c.partner = p.0;
                    }
                    Attr::Rider(r) => {
                        check_absorber(r)?;
                        if !has(r.kind, Powers::RIDE) && !has(r.kind, Powers::ABSORB) {
                            return Err(PositionError::BadRider { square }.into());
                        }
                        c.rider = Some(r);
                    }
                    Attr::Infected(r, wait) => {
                        check_absorber(r)?;
                        if !has(r.kind, Powers::INFECT) && !has(r.kind, Powers::ABSORB) {
                            return Err(PositionError::BadInfector { square }.into());
                        }
                        if r.color == c.color {
                            return Err(PositionError::SelfInfection { square }.into());
                        }
                        c.flags |= INFECTED;
                        infections.push(Infection {
                            victim: at,
                            carrier: Cell {
                                kind: r.kind,
                                color: r.color,
                                absorbed: r.absorbed,
                                ..Cell::EMPTY
                            },
                            wait,
                        });
                    }
                }
            }
            pos.raw_set(at.0, c);
        }
        if infections.len() > MAX_INFECTIONS {
            return Err(PositionError::TooManyInfections.into());
        }
        pair_expanded(&mut pos)?;
        check_cells(&pos)?;
        fen::one_royal_each("Neurons", |color| {
            (pos.types[ROYAL_TYPE as usize] & pos.occ[color.index()]).count()
        })?;
        pos.infections = infections;
        self.set_ep(&mut pos)?;
        let them = !pos.stm;
        if let Some(n) = pos.neuron(them) {
            if gen::attacked(&pos, n, pos.stm) {
                return Err(PositionError::OppositeCheck { side: them }.into());
            }
        }
        let mut h = 0;
        for s in 0..256 {
            h ^= cell_key(s as u8, &pos.cells[s]);
        }
        if pos.stm == Color::Black {
            h ^= side_key();
        }
        pos.hash = h;
        Ok(pos)
    }

    /// En passant: the squares passed over by the pawn that just moved (MC-3).
    fn set_ep(&self, pos: &mut Micro) -> Result<(), FenError> {
        if self.ep.is_empty() {
            return Ok(());
        }
        let mover = !pos.stm;
        let step: i32 = if mover == Color::White { 16 } else { -16 };
        let mut sorted = self.ep.clone();
        sorted.sort_by_key(|s| s.0 as i32 * step.signum());
        let last = *sorted.last().expect("non-empty");
        let pawn = last.0 as i32 + step;
        let first = sorted[0].0 as i32 - step;
        let ok = sorted.len() <= 3
            && sorted
                .windows(2)
                .all(|w| w[1].0 as i32 - w[0].0 as i32 == step)
            && (0..256).contains(&pawn)
            && (0..256).contains(&first)
            && has(pos.cells[pawn as usize].kind, Powers::EN_PASSANT)
            && pos.cells[pawn as usize].color() == mover
            && sorted.iter().all(|s| pos.cells[s.index()].is_empty())
            && pos.cells[first as usize].is_empty()
            && (first / 16) == if mover == Color::White { 1 } else { 14 };
        if !ok {
            let text: Vec<String> = self.ep.iter().map(|&s| name(s)).collect();
            return Err(FenError::EnPassant(text.join(",")));
        }
        for s in sorted {
            pos.ep.insert(s);
        }
        pos.ep_pawn = Some(Square(pawn as u8));
        Ok(())
    }
}

/// Expanded pieces: copies the lower cell's data onto its partner and checks the pair.
fn pair_expanded(pos: &mut Micro) -> Result<(), FenError> {
    let lowers: Vec<u8> = pos.expanded.squares().map(|s| s.0).collect();
    for a in lowers {
        let c = pos.cells[a as usize];
        let b = c.partner;
        let pc = pos.cells[b as usize];
        if b <= a && pc.has(EXPANDED) && pc.partner == a {
            continue; // already paired from its lower cell
        }
        if !tables().ortho[a as usize].contains(Square(b))
            || pc.kind != c.kind
            || pc.color != c.color
            || b < a
            || (pc.has(EXPANDED) && pc.partner != a)
            || !c.powers().has(Powers::EXPAND)
            || c.has(BONDED)
        {
            return Err(PositionError::BadExpandedPair {
                square: name(Square(a)),
                partner: name(Square(b)),
            }
            .into());
        }
        // Infecting either cell of an expanded piece infects the whole piece; the FEN names the
        // victim cell only, which may be the upper one.
        let mut c = c;
        if pc.has(INFECTED) {
            c.flags |= INFECTED;
            pos.raw_set(a, c);
        }
        let mut p = c;
        p.partner = a;
        pos.raw_set(b, p);
    }
    Ok(())
}

/// What each occupied cell may be: wall members (MC-10), riders (MC-12), infections (MC-11),
/// red blood cells off the end ranks.
fn check_cells(pos: &Micro) -> Result<(), FenError> {
    for s in 0..=255u8 {
        let c = pos.cells[s as usize];
        if c.is_empty() {
            continue;
        }
        let square = name(Square(s));
        if c.has(BONDED) && (!c.powers().has(Powers::BOND) || c.has(INFECTED) || c.rider.is_some())
        {
            return Err(PositionError::BadWallMember { square }.into());
        }
        // A wall is made by a bond of two (MC-10): a member with no member of its side beside
        // it cannot be reached by play (and would be a platelet no one can capture).
        if c.has(BONDED)
            && !(tables().king[s as usize] & pos.bonded & pos.occ[c.color as usize]).any()
        {
            return Err(PositionError::LoneWallMember { square }.into());
        }
        if c.rider.is_some() && has(c.kind, Powers::NO_RIDER) {
            return Err(PositionError::CannotCarryRider { square }.into());
        }
        if c.has(INFECTED) && has(c.kind, Powers::ROYAL) {
            return Err(PositionError::InfectedNeuron { square }.into());
        }
        let rank = s / 16;
        if has(c.kind, Powers::PROMOTES) && (rank == 0 || rank == 15) {
            return Err(PositionError::RbcOnEndRank { square }.into());
        }
    }
    Ok(())
}

pub fn parse(fen: &str) -> Result<Micro, FenError> {
    Setup::parse(fen)?.validate()
}

pub fn write(pos: &Micro) -> String {
    let s = crate::core::fen::write_placement(16, 16, |file, rank| {
        let c = &pos.cells[(rank * 16 + file) as usize];
        (!c.is_empty()).then(|| fen::colored_letter(LETTERS[c.kind as usize], c.color()))
    });
    let ep = if pos.ep.is_empty() {
        "-".to_string()
    } else {
        pos.ep
            .squares()
            .map(|q| GEOMETRY.name(q, RankBase::ONE))
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut items: Vec<String> = Vec::new();
    for sqi in 0..=255u8 {
        let c = &pos.cells[sqi as usize];
        if c.is_empty() {
            continue;
        }
        if c.is_upper_half(sqi) {
            continue; // described on the lower cell
        }
        let mut attrs: Vec<String> = Vec::new();
        if c.absorbed != 0 {
            attrs.push(format!("+{}", absorbed_letters(c.absorbed)));
        }
        if c.has(BONDED) {
            attrs.push("wall".into());
        }
        if c.has(EXPANDED) {
            attrs.push(format!(
                "cell={}",
                GEOMETRY.name(Square(c.partner), RankBase::ONE)
            ));
        }
        if let Some(r) = c.rider {
            attrs.push(format!(
                "rider={}",
                piece_with_powers(r.kind, r.color, r.absorbed)
            ));
        }
        if !attrs.is_empty() {
            items.push(format!(
                "{}:{}",
                GEOMETRY.name(Square(sqi), RankBase::ONE),
                attrs.join(",")
            ));
        }
    }
    for inf in &pos.infections {
        items.push(format!(
            "{}:infected={}/{}",
            GEOMETRY.name(inf.victim, RankBase::ONE),
            piece_with_powers(inf.carrier.kind, inf.carrier.color, inf.carrier.absorbed),
            inf.wait
        ));
    }
    format!(
        "{} {} {} {} {} {}",
        s,
        pos.stm.fen_char(),
        ep,
        pos.halfmove,
        pos.fullmove,
        if items.is_empty() {
            "-".to_string()
        } else {
            items.join(";")
        }
    )
}

pub fn display(pos: &Micro) -> String {
    let mut s = String::new();
    let line = format!("    +{}\n", "--+".repeat(16));
    s.push_str(&line);
    for rank in (0..16u8).rev() {
        s.push_str(&format!(" {:>2} |", rank + 1));
        for file in 0..16u8 {
            let c = &pos.cells[(rank * 16 + file) as usize];
            let mut t = String::from(" ");
            if c.is_empty() {
                t.push(' ');
            } else {
                t.push(fen::colored_letter(LETTERS[c.kind as usize], c.color()));
            }
            s.push_str(&t);
            s.push('|');
        }
        s.push('\n');
    }
    s.push_str(&line);
    s.push_str("      a  b  c  d  e  f  g  h  i  j  k  l  m  n  o  p\n\n");
    let names: Vec<String> = LETTERS
        .iter()
        .zip(&PIECES)
        .map(|(l, d)| format!("{l}={}", d.name))
        .collect();
    s.push_str(&format!("Pieces: {}\n", names.join(", ")));
    for sqi in 0..=255u8 {
        let c = &pos.cells[sqi as usize];
        if c.is_empty() || c.is_upper_half(sqi) {
            continue;
        }
        let mut notes = Vec::new();
        if c.absorbed != 0 {
            notes.push(format!("absorbed {}", absorbed_letters(c.absorbed)));
        }
        if c.has(BONDED) {
            notes.push("wall member".into());
        }
        if c.has(EXPANDED) {
            notes.push(format!(
                "expanded onto {}",
                GEOMETRY.name(Square(c.partner), RankBase::ONE)
            ));
        }
        if let Some(r) = c.rider {
            notes.push(format!(
                "ridden by {}",
                piece_with_powers(r.kind, r.color, r.absorbed)
            ));
        }
        if c.has(INFECTED) {
            notes.push("infected".into());
        }
        if !notes.is_empty() {
            s.push_str(&format!(
                "  {}: {}\n",
                GEOMETRY.name(Square(sqi), RankBase::ONE),
                notes.join(", ")
            ));
        }
    }
    for inf in &pos.infections {
        s.push_str(&format!(
            "  infection at {} by {}: hatch {}\n",
            GEOMETRY.name(inf.victim, RankBase::ONE),
            piece_with_powers(inf.carrier.kind, inf.carrier.color, inf.carrier.absorbed),
            if inf.wait == 0 {
                "due now".to_string()
            } else {
                format!("after {} more turn(s) of its owner", inf.wait)
            }
        ));
    }
    s.push_str(&format!(
        "\nVariant: {}\nFen: {}\nKey: {:016X}\nCheckers: {}\n",
        Micro::NAME,
        write(pos),
        pos.hash(),
        if pos.in_check() { "yes" } else { "none" }
    ));
    s
}

fn piece_view(names: &[&'static str], kind: u8, color: u8) -> PieceView {
    let l = LETTERS[kind as usize];
    let (letter, color) = if color == 0 {
        (l, Color::White)
    } else {
        (l.to_ascii_lowercase(), Color::Black)
    };
    PieceView {
        letter,
        color,
        name: names[kind as usize],
    }
}

/// The structured picture ([`crate::core::view`]): every cell with its hidden state as badges
/// (absorbed powers MC-7, both cells of an expanded piece MC-8, walls MC-10, infections with
/// the hatch countdown MC-11, riders MC-12); the infectors off the board as held pieces.
pub fn describe(pos: &Micro) -> PositionView {
    let names: Vec<&'static str> = PIECES.iter().map(|d| d.name).collect();
    let mut squares = Vec::new();
    for sqi in 0..=255u8 {
        let c = &pos.cells[sqi as usize];
        if c.is_empty() {
            continue;
        }
        let mut badges = Vec::new();
        if c.absorbed != 0 {
            badges.push(Badge::Powers {
                letters: absorbed_letters(c.absorbed),
            });
        }
        if c.has(BONDED) {
            badges.push(Badge::Wall);
        }
        if c.has(EXPANDED) {
            badges.push(Badge::Expanded {
                partner: GEOMETRY.name(Square(c.partner), RankBase::ONE),
            });
        }
        if let Some(r) = c.rider {
            badges.push(Badge::Rider {
                rider: piece_view(&names, r.kind, r.color),
                powers: absorbed_letters(r.absorbed),
            });
        }
        if c.has(INFECTED) {
            // An expanded piece's infection is recorded on one of its cells.
            let inf = pos
                .infections
                .iter()
                .find(|i| i.victim.0 == sqi || (c.has(EXPANDED) && i.victim.0 == c.partner));
            if let Some(inf) = inf {
                badges.push(Badge::Infected {
                    carrier: piece_view(&names, inf.carrier.kind, inf.carrier.color),
                    carrier_powers: absorbed_letters(inf.carrier.absorbed),
                    wait: inf.wait,
                });
            }
        }
        squares.push(SquareView {
            square: GEOMETRY.name(Square(sqi), RankBase::ONE),
            file: sqi % 16,
            rank: sqi / 16,
            piece: piece_view(&names, c.kind, c.color),
            badges,
        });
    }
    let held = pos
        .infections
        .iter()
        .map(|inf| HeldView {
            piece: piece_view(&names, inf.carrier.kind, inf.carrier.color),
            note: format!(
                "inside {}, hatch {}",
                GEOMETRY.name(inf.victim, RankBase::ONE),
                if inf.wait == 0 {
                    "due now".to_string()
                } else {
                    format!("after {} more turn(s) of its owner", inf.wait)
                }
            ),
        })
        .collect();
    PositionView {
        width: 16,
        height: 16,
        side_to_move: pos.stm,
        squares,
        held,
        boards: Vec::new(),
        notes: vec![format!("Halfmove clock: {}", pos.halfmove)],
    }
}
