//! Microorganism Chess FEN (read, validated, written) and the `d` display.
//!
//! `PLACEMENT SIDE EP HALFMOVE FULLMOVE STATE`: 16 ranks of 16 squares (two-digit empty runs
//! allowed; an expanded piece shows its letter on both cells); `w`/`b`; the squares the last
//! pawn push passed over, comma-separated, or `-`; the two counters; and the hidden state,
//! `-` or `;`-separated items `square:attr,attr…` with attributes `+LETTERS` (what a Bacterium
//! absorbed), `wall`, `cell=SQ` (the other cell of an expanded piece, on the lower cell),
//! `rider=L[+LETTERS]` and `infected=L[+LETTERS]/WAIT` (infection items in infection order).

use super::*;
use crate::core::fen::{colored_letter, rank_cells};
use crate::core::{Badge, HeldView, PieceView, PositionView, SquareView};

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
            Some(t)
                if ch.is_ascii_uppercase()
                    && [WBC, PARAMECIUM, AMOEBA, PLATELET, VIRUS, PRION].contains(&t) =>
            {
                m |= 1 << t
            }
            _ => return Err(FenError::Other(format!("absorbed power {ch:?}"))),
        }
    }
    Ok(m)
}

/// `L[+LETTERS]`: a piece letter (case gives the colour) with what it absorbed.
fn parse_piece_with_powers(s: &str) -> Result<(u8, u8, u16), FenError> {
    let (l, rest) = match s.split_once('+') {
        Some((l, r)) => (l, Some(r)),
        None => (s, None),
    };
    let mut cs = l.chars();
    let (Some(ch), None) = (cs.next(), cs.next()) else {
        return Err(FenError::Other(format!("piece {s:?}")));
    };
    let kind = type_of(ch).ok_or_else(|| FenError::Other(format!("piece {s:?}")))?;
    let color = if ch.is_ascii_uppercase() { 0 } else { 1 };
    let absorbed = match rest {
        Some(r) => parse_absorbed(r)?,
        None => 0,
    };
    if absorbed != 0 && kind != BACTERIUM {
        return Err(FenError::Impossible(format!(
            "{s}: only a Bacterium absorbs"
        )));
    }
    Ok((kind, color, absorbed))
}

fn piece_with_powers(kind: u8, color: u8, absorbed: u16) -> String {
    let mut s = String::new();
    s.push(colored_letter(
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
        .ok_or_else(|| FenError::Other(format!("square {text:?}")))
}

pub fn parse(fen: &str) -> Result<Micro, FenError> {
    let f: Vec<&str> = fen.split_whitespace().collect();
    if f.is_empty() {
        return Err(FenError::Empty);
    }
    if f.len() < 5 || f.len() > 6 {
        return Err(FenError::Other(format!(
            "{} fields, expected: placement side ep halfmove fullmove [state]",
            f.len()
        )));
    }
    let mut pos = Micro::empty();
    let ranks: Vec<&str> = f[0].split('/').collect();
    if ranks.len() != 16 {
        return Err(FenError::Board(format!(
            "{} ranks, expected 16",
            ranks.len()
        )));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = 15 - i as u8;
        let cells = rank_cells(text, rank as usize + 1, 16, |c| type_of(c).is_some())?;
        for (file, ch) in cells.into_iter().enumerate() {
            let Some(ch) = ch else { continue };
            let kind = type_of(ch).expect("checked by rank_cells");
            let color = if ch.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            pos.raw_set(rank * 16 + file as u8, Cell::new(kind, color));
        }
    }
    pos.stm = match f[1] {
        "w" => Color::White,
        "b" => Color::Black,
        o => return Err(FenError::Side(o.to_string())),
    };
    pos.halfmove = f[3]
        .parse()
        .ok()
        .filter(|&h: &u16| h <= 10_000)
        .ok_or_else(|| FenError::Counter(f[3].to_string()))?;
    pos.fullmove = f[4]
        .parse()
        .ok()
        .filter(|n: &u16| (1..=10_000).contains(n))
        .ok_or_else(|| FenError::Counter(f[4].to_string()))?;

    // Hidden state.
    let state = f.get(5).copied().unwrap_or("-");
    let mut infections: Vec<Infection> = Vec::new();
    if state != "-" {
        // Each square's state is one item, each attribute named once in it: a repeated one
        // (`b1:wall;b1:wall`) is a FEN no position writes.
        let mut named = U256::EMPTY;
        for item in state.split(';') {
            let (s, attrs) = item
                .split_once(':')
                .ok_or_else(|| FenError::Other(format!("state item {item:?}")))?;
            let at = sq(s)?;
            if named.contains(at) {
                return Err(FenError::Other(format!("{s}: a second state item")));
            }
            named.insert(at);
            let mut c = pos.cells[at.index()];
            if c.is_empty() {
                return Err(FenError::Other(format!("state for the empty square {s}")));
            }
            let mut kinds: Vec<&str> = Vec::new();
            for a in attrs.split(',') {
                let kind = a.split(['=', '+']).next().unwrap_or(a);
                let kind = if a.starts_with('+') { "+" } else { kind };
                if kinds.contains(&kind) {
                    return Err(FenError::Other(format!("{s}: {kind:?} given twice")));
                }
                kinds.push(kind);
                if let Some(l) = a.strip_prefix('+') {
                    if c.kind != BACTERIUM {
                        return Err(FenError::Impossible(format!(
                            "{s}: only a Bacterium absorbs"
                        )));
                    }
                    c.absorbed = parse_absorbed(l)?;
                } else if a == "wall" {
                    c.flags |= BONDED;
                } else if let Some(p) = a.strip_prefix("cell=") {
                    let p = sq(p)?;
                    c.flags |= EXPANDED;
                    c.partner = p.0;
                } else if let Some(r) = a.strip_prefix("rider=") {
                    let (kind, color, absorbed) = parse_piece_with_powers(r)?;
                    if kind != PRION && kind != BACTERIUM {
                        return Err(FenError::Impossible(format!(
                            "{s}: a rider is a Prion or a Bacterium"
                        )));
                    }
                    c.rider = Some(Rider {
                        kind,
                        color,
                        absorbed,
                    });
                } else if let Some(v) = a.strip_prefix("infected=") {
                    let (who, wait) = v
                        .split_once('/')
                        .ok_or_else(|| FenError::Other(format!("infection {v:?}")))?;
                    let (kind, color, absorbed) = parse_piece_with_powers(who)?;
                    let wait: u8 = wait
                        .parse()
                        .ok()
                        .filter(|&w| w <= 1)
                        .ok_or_else(|| FenError::Other(format!("infection wait {wait:?}")))?;
                    if kind != VIRUS && kind != BACTERIUM {
                        return Err(FenError::Impossible(format!(
                            "{s}: only a Virus or a Bacterium infects"
                        )));
                    }
                    if color == c.color {
                        return Err(FenError::Impossible(format!(
                            "{s}: infected by its own side"
                        )));
                    }
                    c.flags |= INFECTED;
                    infections.push(Infection {
                        victim: at,
                        carrier: Cell {
                            kind,
                            color,
                            absorbed,
                            ..Cell::EMPTY
                        },
                        wait,
                    });
                } else {
                    return Err(FenError::Other(format!("state attribute {a:?}")));
                }
            }
            pos.raw_set(at.0, c);
        }
    }
    if infections.len() > MAX_INFECTIONS {
        return Err(FenError::Impossible("too many infections".into()));
    }
    // Expanded pieces: copy the lower cell's data onto its partner and check the pair.
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
            return Err(FenError::Impossible(format!(
                "{}: not a valid expanded pair with {}",
                GEOMETRY.name(Square(a), RankBase::ONE),
                GEOMETRY.name(Square(b), RankBase::ONE)
            )));
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
    for s in 0..=255u8 {
        let c = pos.cells[s as usize];
        if c.is_empty() {
            continue;
        }
        let name = GEOMETRY.name(Square(s), RankBase::ONE);
        if c.has(BONDED) && (!c.powers().has(Powers::BOND) || c.has(INFECTED) || c.rider.is_some())
        {
            return Err(FenError::Impossible(format!(
                "{name}: cannot be a wall member"
            )));
        }
        // A wall is made by a bond of two (MC-10): a member with no member of its side beside
        // it cannot be reached by play (and would be a platelet no one can capture).
        if c.has(BONDED)
            && !(tables().king[s as usize] & pos.bonded & pos.occ[c.color as usize]).any()
        {
            return Err(FenError::Impossible(format!(
                "{name}: a wall member with no wall member of its side beside it"
            )));
        }
        if c.rider.is_some() && (c.kind == NEURON || c.kind == PRION) {
            return Err(FenError::Impossible(format!(
                "{name}: cannot carry a rider"
            )));
        }
        if c.has(INFECTED) && c.kind == NEURON {
            return Err(FenError::Impossible(format!(
                "{name}: a Neuron is never infected"
            )));
        }
        let rank = s / 16;
        if c.kind == RBC && (rank == 0 || rank == 15) {
            return Err(FenError::Impossible(format!(
                "{name}: red blood cell on an end rank"
            )));
        }
    }
    for color in Color::BOTH {
        let n = (pos.types[NEURON as usize] & pos.occ[color.index()]).count();
        if n != 1 {
            return Err(FenError::Impossible(format!(
                "{} has {} Neurons",
                color.name(),
                n
            )));
        }
    }
    pos.infections = infections;
    // En passant: the squares passed over by the pawn that just moved (MC-3).
    if f[2] != "-" {
        let squares: Vec<Square> = f[2].split(',').map(sq).collect::<Result<_, _>>()?;
        let mover = !pos.stm;
        let step: i32 = if mover == Color::White { 16 } else { -16 };
        let mut sorted = squares.clone();
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
            && pos.cells[pawn as usize].kind == RBC
            && pos.cells[pawn as usize].color() == mover
            && sorted.iter().all(|s| pos.cells[s.index()].is_empty())
            && pos.cells[first as usize].is_empty()
            && (first / 16) == if mover == Color::White { 1 } else { 14 };
        if !ok {
            return Err(FenError::EnPassant(f[2].to_string()));
        }
        for s in sorted {
            pos.ep.insert(s);
        }
        pos.ep_pawn = Some(Square(pawn as u8));
    }
    let them = !pos.stm;
    if let Some(n) = pos.neuron(them) {
        if gen::attacked(&pos, n, pos.stm) {
            return Err(FenError::Impossible(format!(
                "{} is in check but it is {}'s move",
                them.name(),
                pos.stm.name()
            )));
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

pub fn write(pos: &Micro) -> String {
    let s = crate::core::fen::write_placement(16, 16, |file, rank| {
        let c = &pos.cells[(rank * 16 + file) as usize];
        (!c.is_empty()).then(|| colored_letter(LETTERS[c.kind as usize], c.color()))
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
        if c.has(EXPANDED) && c.partner < sqi {
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
                t.push(colored_letter(LETTERS[c.kind as usize], c.color()));
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
        .zip(organisms())
        .map(|(l, d)| format!("{l}={}", d.name))
        .collect();
    s.push_str(&format!("Pieces: {}\n", names.join(", ")));
    for sqi in 0..=255u8 {
        let c = &pos.cells[sqi as usize];
        if c.is_empty() || (c.has(EXPANDED) && c.partner < sqi) {
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
    let names: Vec<&'static str> = organisms().iter().map(|d| d.name).collect();
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
