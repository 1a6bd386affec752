//! Move generation, attacks, make and move text for Microorganism Chess.

use super::*;

/// The side's half of the board for the White blood cell (MC-5): ranks 1–8 or 9–16.
#[inline(always)]
pub fn in_own_half(sq: u8, color: u8) -> bool {
    let rank = sq / 16;
    if color == 0 {
        rank < 8
    } else {
        rank >= 8
    }
}

/// The opposite of direction `d` of [`DIRS`] (E, W, N, S, NE, NW, SE, SW): E and W, N and S,
/// NE and SW, NW and SE.
#[inline(always)]
fn opposite(d: usize) -> usize {
    [1, 0, 3, 2, 7, 6, 5, 4][d]
}

/// Slide directions of a piece: its type's and its gifts'.
#[inline]
pub fn slide_dirs(c: &Cell) -> u8 {
    let t = tables();
    let mut m = t.own_slides[c.kind as usize];
    let mut a = c.absorbed;
    while a != 0 {
        let g = a.trailing_zeros() as usize;
        a &= a - 1;
        m |= t.gift_slides[g];
    }
    m
}

/// The squares a slider on `s` reaches in direction `d` (an index into [`DIRS`]) over the
/// occupied squares `occ`: the empty ones and the first occupied one; with that square.
#[inline(always)]
pub fn slide(d: usize, s: usize, occ: U256) -> (U256, Option<Square>) {
    let t = tables();
    let ray = t.ray[d][s];
    let block = ray & occ;
    if block.is_empty() {
        return (ray, None);
    }
    let b = if t.ray_up[d] {
        block.lsb()
    } else {
        block.msb()
    };
    (ray & !t.ray[d][b.index()], Some(b))
}

/// Whether the piece `c` on `from`, the first occupied square from `sq` in direction `d`,
/// slides onto `sq`: back along `d` by its own or its gifts' slides, and a White blood cell
/// only with both squares in its half (MC-5).
#[inline(always)]
pub fn slides_onto(c: &Cell, from: Square, d: usize, sq: Square) -> bool {
    slide_dirs(c) & (1 << opposite(d)) != 0
        && (!c.powers().has(Powers::OWN_HALF)
            || (in_own_half(sq.0, c.color) && in_own_half(from.0, c.color)))
}

/// Leap targets of a single-cell piece for moving / for capturing.
#[inline]
fn leap_sets(c: &Cell, sq: u8) -> (U256, U256) {
    let t = tables();
    let col = c.color as usize;
    let own = &t.own[c.kind as usize];
    let mut mv = own.leap_move[col][sq as usize];
    let mut cap = own.leap_capture[col][sq as usize];
    let mut a = c.absorbed;
    while a != 0 {
        let g = a.trailing_zeros() as usize;
        a &= a - 1;
        mv |= t.gift[g].leap_move[col][sq as usize];
        cap |= t.gift[g].leap_capture[col][sq as usize];
    }
    (mv, cap)
}

/// All leap vectors of a piece (for rigid moves of an expanded piece).
fn leap_vectors(c: &Cell) -> Vec<(i32, i32)> {
    let t = tables();
    let mut v = t.own_leaps[c.kind as usize].clone();
    let mut a = c.absorbed;
    while a != 0 {
        let g = a.trailing_zeros() as usize;
        a &= a - 1;
        for &x in &t.gift_leaps[g] {
            if !v.contains(&x) {
                v.push(x);
            }
        }
    }
    v
}

#[inline(always)]
fn offset(sq: u8, dx: i32, dy: i32) -> Option<u8> {
    GEOMETRY.offset(Square(sq), dx, dy).map(|s| s.0)
}

/// The rigid moves of the expanded piece on cells `a` and `b` (MC-8): both cells shift by the
/// same leap or slide vector; slide paths must be empty or the other cell; each landing square
/// empty, the other cell, or a capturable enemy. Calls `f(lead, lead_to, other_to)` for each,
/// where `lead` is the cell named in the move text: the one whose destination is not one of
/// the piece's own cells (the lower cell when neither is).
pub fn rigid_moves(pos: &Micro, a: u8, b: u8, mut f: impl FnMut(u8, u8, u8)) {
    let c = pos.cells[a as usize];
    let by = c.color();
    let valid = |x: u8| -> bool {
        x == a || x == b || {
            let cx = &pos.cells[x as usize];
            cx.is_empty() || Micro::capturable(cx, by)
        }
    };
    let is_enemy = |x: u8| -> bool { x != a && x != b && !pos.cells[x as usize].is_empty() };
    let mut seen = U256::EMPTY;
    let mut emit = |na: u8, nb: u8| {
        // A leap and the first step of a slide can be the same shift: name it once.
        if seen.contains(Square(na)) {
            return;
        }
        seen.insert(Square(na));
        if na == b {
            f(b, nb, na)
        } else {
            f(a, na, nb)
        }
    };
    for (dx, dy) in leap_vectors(&c) {
        if let (Some(na), Some(nb)) = (offset(a, dx, dy), offset(b, dx, dy)) {
            if valid(na) && valid(nb) {
                emit(na, nb);
            }
        }
    }
    let dirs = slide_dirs(&c);
    for (d, &(dx, dy)) in DIRS.iter().enumerate() {
        if dirs & (1 << d) == 0 {
            continue;
        }
        let (mut ca, mut cb) = (a, b);
        while let (Some(na), Some(nb)) = (offset(ca, dx, dy), offset(cb, dx, dy)) {
            if !valid(na) || !valid(nb) {
                break;
            }
            emit(na, nb);
            if is_enemy(na) || is_enemy(nb) {
                break;
            }
            ca = na;
            cb = nb;
        }
    }
}

/// How many pieces a rigid move captures.
pub fn rigid_captures(pos: &Micro, m: Move) -> usize {
    let from = m.from().0;
    let c = pos.cells[from as usize];
    let p = c.partner;
    let (fx, fy) = ((from % 16) as i32, (from / 16) as i32);
    let (tx, ty) = ((m.to().0 % 16) as i32, (m.to().0 / 16) as i32);
    let np = offset(p, tx - fx, ty - fy);
    [Some(m.to().0), np]
        .iter()
        .flatten()
        .filter(|&&x| x != from && x != p && !pos.cells[x as usize].is_empty())
        .count()
}

/// Whether `by` attacks `sq`: some piece of `by` could capture there (MC-4 … MC-12): infected
/// pieces, lone prions and riders attack nothing; a virus attacks its king steps; a white blood
/// cell only along lines whose every square is in its own half (MC-5: the target and its own
/// square both in the half, so the straight line between them is too; one that stands outside
/// its half attacks nothing); an expanded piece through its rigid moves.
pub fn attacked(pos: &Micro, sq: Square, by: Color) -> bool {
    let t = tables();
    let s = sq.index();
    let bi = by.index();
    // A lone Prion has no atoms: it attacks nothing (MC-12).
    let active = pos.occ[bi] & !pos.infected;
    let single = active & !pos.expanded;
    let of_types = |list: &[u8]| {
        list.iter()
            .fold(U256::EMPTY, |m, &k| m | pos.types[k as usize])
            & single
    };
    if (t.king[s] & of_types(&t.king_attackers)).any() {
        return true;
    }
    // From the target's square with the other colour's vectors: the squares attacking it.
    for &kind in &t.leap_attackers {
        let from = t.own[kind as usize].leap_capture[(!by).index()][s];
        if (from & pos.types[kind as usize] & single).any() {
            return true;
        }
    }
    let mut bac = pos.types[BACTERIUM as usize] & single;
    while let Some(b) = bac.pop_lsb() {
        let c = &pos.cells[b.index()];
        let mut a = c.absorbed;
        while a != 0 {
            let g = a.trailing_zeros() as usize;
            a &= a - 1;
            if t.gift[g].leap_capture[bi][b.index()].contains(sq) {
                return true;
            }
        }
    }
    let occ = pos.occupied();
    for d in 0..8 {
        if let (_, Some(b)) = slide(d, s, occ) {
            if single.contains(b) && slides_onto(&pos.cells[b.index()], b, d, sq) {
                return true;
            }
        }
    }
    let mut exp = pos.expanded & active;
    while let Some(a) = exp.pop_lsb() {
        let b = pos.cells[a.index()].partner;
        if b < a.0 {
            continue;
        }
        let mut hit = false;
        rigid_moves(pos, a.0, b, |_, x, y| hit |= x == sq.0 || y == sq.0);
        if hit {
            return true;
        }
    }
    false
}

/// Hatch options of infection `i` (MC-11): the empty squares around the victim (its own other
/// cell included), or the victim's square itself when none is empty.
fn hatch_moves(pos: &Micro, i: usize, out: &mut MoveList) {
    let inf = &pos.infections[i];
    let v = inf.victim;
    let vc = &pos.cells[v.index()];
    let mut around = tables().king[v.index()] & !pos.occupied();
    if vc.has(EXPANDED) {
        let p = Square(vc.partner);
        if tables().king[v.index()].contains(p) {
            around.insert(p);
        }
    }
    if around.is_empty() {
        out.push(Move::with_piece(v, v, MoveKind::Hatch, VIRUS));
    } else {
        for to in around.squares() {
            out.push(Move::with_piece(v, to, MoveKind::Hatch, VIRUS));
        }
    }
}

/// Pseudo-legal moves other than hatches.
fn pseudo(pos: &Micro, out: &mut MoveList) {
    let t = tables();
    let us = pos.stm;
    let them = !us;
    let ui = us.index();
    let occ = pos.occupied();
    let empty = !occ;
    let enemy = pos.occ[them.index()];
    let capt = enemy & !pos.bonded & !pos.infected;
    // MC-11: a royal piece is never infected (no legal move leaves it attacked).
    let infectable = capt & !pos.types[ROYAL_TYPE as usize];
    let room_to_infect = pos.infections.len() < MAX_INFECTIONS;
    let mut own = pos.occ[ui] & !pos.infected;
    while let Some(from) = own.pop_lsb() {
        let f = from.0;
        let c = pos.cells[from.index()];
        if c.has(EXPANDED) {
            if f < c.partner {
                let p = c.partner;
                rigid_moves(pos, f, p, |lead, to, _| {
                    out.push(Move::new(Square(lead), Square(to), MoveKind::Normal));
                });
                out.push(Move::new(from, Square(p), MoveKind::Contract));
                out.push(Move::new(Square(p), from, MoveKind::Contract));
            }
            continue;
        }
        let powers = c.powers();
        if powers.has(Powers::PROMOTES) {
            // MC-3: the Red blood cell's pushes, captures, en passant and promotions.
            pawn_moves(pos, from, &c, powers, capt, out);
        } else {
            // Every other single-cell piece moves by its atoms and its gifts' (a lone Prion
            // has none, MC-12).
            let (mv, cap) = leap_sets(&c, f);
            let mut moves = mv & empty;
            let mut caps = cap & capt;
            let dirs = slide_dirs(&c);
            // MC-5: a White blood cell slides only within its half, and not at all from
            // outside it (a Bacterium's queen gift has no such limit, MC-7: gifts never carry
            // OWN_HALF).
            let half = powers.has(Powers::OWN_HALF);
            let dirs = if half && !in_own_half(f, c.color) {
                0
            } else {
                dirs
            };
            // A line that leaves the half never comes back into it: the half's squares of
            // the slide are the squares up to its edge.
            let mut d = dirs;
            while d != 0 {
                let i = d.trailing_zeros() as usize;
                d &= d - 1;
                let (mut r, _) = slide(i, f as usize, occ);
                if half {
                    r &= t.half[c.color as usize];
                }
                moves |= r & empty;
                caps |= r & capt;
            }
            // A virus captures only by infection (its atoms are move-only).
            for to in moves.squares() {
                out.push(Move::new(from, to, MoveKind::Normal));
            }
            for to in caps.squares() {
                out.push(Move::new(from, to, MoveKind::Normal));
            }
        }
        let carries = c.rider.is_some();
        if powers.has(Powers::INFECT) && room_to_infect && !carries {
            for to in (t.king[f as usize] & infectable).squares() {
                out.push(Move::new(from, to, MoveKind::Infect));
            }
        }
        if powers.has(Powers::RIDE) && !carries {
            for to in (t.king[f as usize] & occ).squares() {
                if Micro::rideable(&pos.cells[to.index()]) {
                    out.push(Move::new(from, to, MoveKind::Ride));
                }
            }
        }
        if powers.has(Powers::BOND) && !carries {
            let partners = t.king[f as usize] & pos.occ[ui] & !pos.infected & !pos.expanded;
            for to in partners.squares() {
                let pc = &pos.cells[to.index()];
                if pc.powers().has(Powers::BOND)
                    && pc.rider.is_none()
                    && !(c.has(BONDED) && pc.has(BONDED))
                {
                    out.push(Move::new(from, to, MoveKind::Bond));
                }
            }
        }
        if powers.has(Powers::EXPAND) {
            for to in (t.ortho[f as usize] & empty).squares() {
                out.push(Move::new(from, to, MoveKind::Expand));
            }
        }
    }
    // Kills: a rider of ours may remove its host (MC-12); not an infected host.
    let mut ridden = occ & !pos.infected;
    while let Some(sq) = ridden.pop_lsb() {
        let c = &pos.cells[sq.index()];
        if let Some(r) = c.rider {
            if r.color == ui as u8 {
                out.push(Move::with_piece(sq, sq, MoveKind::Kill, r.kind));
            }
        }
    }
}

fn pawn_moves(pos: &Micro, from: Square, c: &Cell, powers: Powers, capt: U256, out: &mut MoveList) {
    let t = tables();
    let white = c.color == 0;
    let (dy, start, last): (i32, u8, u8) = if white { (1, 1, 15) } else { (-1, 14, 0) };
    let f = from.0;
    let rank = f / 16;
    let push = |out: &mut MoveList, to: u8, kind: MoveKind| {
        if to / 16 == last {
            for p in PROMOTIONS {
                out.push(Move::with_piece(from, Square(to), MoveKind::Promotion, p));
            }
        } else {
            out.push(Move::new(from, Square(to), kind));
        }
    };
    // MC-3: one square, or from the starting rank up to four over empty squares; with
    // EN_PASSANT the longer pushes leave squares an enemy pawn may capture on.
    let max = if rank == start { 4 } else { 1 };
    let long = if powers.has(Powers::EN_PASSANT) {
        MoveKind::PawnPush
    } else {
        MoveKind::Normal
    };
    let mut cur = f;
    for k in 1..=max {
        let Some(n) = offset(cur, 0, dy) else { break };
        if !pos.cells[n as usize].is_empty() {
            break;
        }
        push(out, n, if k >= 2 { long } else { MoveKind::Normal });
        cur = n;
    }
    let att = t.own[RBC as usize].leap_capture[c.color as usize][f as usize];
    for to in (att & capt).squares() {
        push(out, to.0, MoveKind::Normal);
    }
    if pos.ep_pawn.is_some() {
        for to in (att & pos.ep).squares() {
            out.push(Move::new(from, to, MoveKind::EnPassant));
        }
    }
}

/// Own pieces that may be shielding the own Neuron from an enemy slider.
fn pin_candidates(pos: &Micro, neuron: Square) -> U256 {
    let t = tables();
    let us = pos.stm;
    let mut pins = U256::EMPTY;
    for d in 0..8 {
        let mut cur = t.next[d][neuron.index()];
        let mut shield: Option<u8> = None;
        while cur != OFF {
            let c = &pos.cells[cur as usize];
            let transparent = shield.is_some_and(|s| {
                pos.cells[s as usize].has(EXPANDED) && pos.cells[s as usize].partner as u16 == cur
            });
            if !c.is_empty() && !transparent {
                if c.color() == us {
                    if shield.is_some() {
                        break;
                    }
                    shield = Some(cur as u8);
                } else {
                    if let Some(s) = shield {
                        if !c.has(INFECTED)
                            && (c.has(EXPANDED) || slide_dirs(c) & (1 << opposite(d)) != 0)
                        {
                            pins.insert(Square(s));
                            let sc = &pos.cells[s as usize];
                            if sc.has(EXPANDED) {
                                pins.insert(Square(sc.partner));
                            }
                        }
                    }
                    break;
                }
            }
            cur = t.next[d][cur as usize];
        }
    }
    pins
}

/// The legal moves (MC-11's compulsory hatch first).
pub fn legal_moves(pos: &Micro, out: &mut MoveList) {
    let us = pos.stm;
    let Some(neuron) = pos.neuron(us) else {
        return;
    };
    let mut scratch: Option<Micro> = None;
    let mut is_legal = |m: Move| -> bool {
        let s = scratch.get_or_insert_with(|| pos.scratch());
        make(s, m);
        let ok = match s.neuron(us) {
            Some(n) => !attacked(s, n, !us),
            None => false,
        };
        Variant::unmake_move(s);
        ok
    };
    // A due hatch must be played; the earliest infection whose hatch is legal goes first.
    for (i, inf) in pos.infections.iter().enumerate() {
        if inf.carrier.color() != us || inf.wait != 0 {
            continue;
        }
        let mut opts = MoveList::new();
        hatch_moves(pos, i, &mut opts);
        let before = out.len();
        for &m in &opts {
            if is_legal(m) {
                out.push(m);
            }
        }
        if out.len() > before {
            return;
        }
    }
    let mut list = MoveList::new();
    pseudo(pos, &mut list);
    let in_check = attacked(pos, neuron, !us);
    let pins = pin_candidates(pos, neuron);
    // An enemy expanded piece attacks through two cells' paths and landings, which any of our
    // moves may open: then every move is tried.
    let enemy_expanded = (pos.expanded & pos.occ[(!us).index()] & !pos.infected).any();
    for &m in &list {
        let risky = in_check
            || enemy_expanded
            || matches!(
                m.kind(),
                MoveKind::EnPassant | MoveKind::Kill | MoveKind::Hatch
            )
            || m.from() == neuron
            || match m.kind() {
                MoveKind::Bond | MoveKind::Expand => false,
                MoveKind::Normal if pos.cells[m.from().index()].has(EXPANDED) => {
                    pins.contains(m.from())
                        || pins.contains(Square(pos.cells[m.from().index()].partner))
                }
                _ => pins.contains(m.from()),
            };
        if !risky || is_legal(m) {
            out.push(m);
        }
    }
}

/// Plays a move (legal or at least pseudo-legal).
pub fn make(pos: &mut Micro, m: Move) {
    let full = pos.hash();
    pos.mark = pos.journal.len();
    let undo = Undo {
        mv: m,
        mark: pos.mark,
        infections: pos.infections.clone(),
        ep: pos.ep,
        ep_pawn: pos.ep_pawn,
        halfmove: pos.halfmove,
        fullmove: pos.fullmove,
        hash: pos.hash,
        full_hash: full,
    };
    let us = pos.stm;
    let ui = us as u8;
    let from = m.from().0;
    let to = m.to().0;
    let ep_pawn = pos.ep_pawn;
    pos.ep = U256::EMPTY;
    pos.ep_pawn = None;
    let mut reset = false;
    let mut new_infection: Option<Infection> = None;
    match m.kind() {
        MoveKind::Hatch => {
            let idx = pos
                .infections
                .iter()
                .position(|i| i.victim.0 == from && i.carrier.color == ui)
                .expect("a due infection at the hatch square");
            let inf = pos.infections.remove(idx);
            let victim = pos.remove_piece(from);
            let mut back = inf.carrier;
            back.flags = 0;
            back.partner = 0;
            back.rider = victim.rider;
            Micro::absorb(&mut back, &victim);
            pos.set(from, back);
            if to != from {
                pos.set(to, Cell::new(VIRUS, us));
            }
            reset = true;
        }
        MoveKind::Kill => {
            let host = pos.remove_piece(from);
            let r = host.rider.expect("a rider to kill its host");
            let mut alone = Cell {
                kind: r.kind,
                color: r.color,
                absorbed: r.absorbed,
                ..Cell::EMPTY
            };
            Micro::absorb(&mut alone, &host);
            pos.set(from, alone);
            reset = true;
        }
        MoveKind::Bond => {
            for s in [from, to] {
                let mut c = pos.cells[s as usize];
                c.flags |= BONDED;
                pos.set(s, c);
            }
        }
        MoveKind::Expand => {
            if pos.cells[from as usize].has(BONDED) {
                pos.break_wall(from);
            }
            let mut c = pos.cells[from as usize];
            c.flags |= EXPANDED;
            c.partner = to;
            pos.set_piece(from, c);
        }
        MoveKind::Contract => {
            let mut c = pos.cells[to as usize];
            c.flags &= !EXPANDED;
            c.partner = 0;
            pos.set(from, Cell::EMPTY);
            pos.set(to, c);
        }
        MoveKind::Ride => {
            if pos.cells[from as usize].has(BONDED) {
                pos.break_wall(from);
            }
            let mover = pos.cells[from as usize];
            pos.set(from, Cell::EMPTY);
            let mut host = pos.cells[to as usize];
            host.rider = Some(Rider {
                kind: mover.kind,
                color: mover.color,
                absorbed: mover.absorbed,
            });
            pos.set_piece(to, host);
        }
        MoveKind::Infect => {
            if pos.cells[from as usize].has(BONDED) {
                pos.break_wall(from);
            }
            let mover = pos.cells[from as usize];
            pos.set(from, Cell::EMPTY);
            for s in pos.piece_cells(to) {
                let mut c = pos.cells[s as usize];
                c.flags |= INFECTED;
                pos.set(s, c);
            }
            new_infection = Some(Infection {
                victim: Square(to),
                carrier: Cell {
                    kind: mover.kind,
                    color: mover.color,
                    absorbed: mover.absorbed,
                    ..Cell::EMPTY
                },
                wait: 1,
            });
            reset = true;
        }
        MoveKind::EnPassant => {
            let vsq = ep_pawn.expect("en-passant pawn").0;
            let victim = pos.remove_piece(vsq);
            let mut mover = pos.cells[from as usize];
            Micro::transfer_rider(&mut mover, &victim);
            pos.set(from, Cell::EMPTY);
            pos.set(to, mover);
            reset = true;
        }
        kind => {
            let mut mover = pos.cells[from as usize];
            if mover.has(EXPANDED) {
                // Rigid move of an expanded piece: both cells shift, up to two captures.
                let p = mover.partner;
                let (dx, dy) = (
                    (to % 16) as i32 - (from % 16) as i32,
                    (to / 16) as i32 - (from / 16) as i32,
                );
                let np = offset(p, dx, dy).expect("rigid move on the board");
                for land in [to, np] {
                    if land != from && land != p && !pos.cells[land as usize].is_empty() {
                        let victim = pos.remove_piece(land);
                        Micro::absorb(&mut mover, &victim);
                        Micro::transfer_rider(&mut mover, &victim);
                        reset = true;
                    }
                }
                pos.set(from, Cell::EMPTY);
                pos.set(p, Cell::EMPTY);
                mover.partner = np;
                pos.set_piece(to, mover);
            } else {
                if mover.has(BONDED) {
                    pos.break_wall(from);
                    mover = pos.cells[from as usize];
                }
                // MC-13's 100-ply rule: a pawn's move (the type that promotes, MC-3) resets it.
                if PIECES[mover.kind as usize].powers.has(Powers::PROMOTES) {
                    reset = true;
                }
                if !pos.cells[to as usize].is_empty() {
                    let victim = pos.remove_piece(to);
                    Micro::absorb(&mut mover, &victim);
                    Micro::transfer_rider(&mut mover, &victim);
                    reset = true;
                }
                if kind == MoveKind::Promotion {
                    mover.kind = m.piece().unwrap_or(WBC);
                    mover.absorbed = 0;
                }
                if kind == MoveKind::PawnPush {
                    let step: i32 = if us == Color::White { 16 } else { -16 };
                    let mut s = from as i32 + step;
                    while s != to as i32 {
                        pos.ep.insert(Square(s as u8));
                        s += step;
                    }
                    pos.ep_pawn = Some(Square(to));
                }
                pos.set(from, Cell::EMPTY);
                pos.set(to, mover);
            }
        }
    }
    // The mover's earlier infections count down one of its turns (MC-11).
    for inf in pos.infections.iter_mut() {
        if inf.carrier.color == ui {
            inf.wait = inf.wait.saturating_sub(1);
        }
    }
    if let Some(i) = new_infection {
        pos.infections.push(i);
    }
    pos.halfmove = if reset { 0 } else { pos.halfmove + 1 };
    if us == Color::Black {
        pos.fullmove += 1;
    }
    pos.stm = !us;
    pos.hash ^= side_key();
    pos.history.push(undo);
}

/// The text of a move. `alt` gives the other spelling of a rigid move (from the other cell).
pub fn move_text(pos: &Micro, m: Move, base: RankBase, alt: bool) -> String {
    let name = |s: Square| Micro::square_name(s, base);
    match m.kind() {
        MoveKind::Hatch => format!("V@{}", name(m.to())),
        MoveKind::Kill => format!(
            "{}@{}",
            LETTERS[m.piece().unwrap_or(PRION) as usize],
            name(m.from())
        ),
        MoveKind::Pass => "@@@@".into(),
        kind => {
            let c = &pos.cells[m.from().index()];
            let (mut f, mut t) = (m.from(), m.to());
            if alt && kind == MoveKind::Normal && c.has(EXPANDED) {
                let (dx, dy) = (
                    (t.0 % 16) as i32 - (f.0 % 16) as i32,
                    (t.0 / 16) as i32 - (f.0 / 16) as i32,
                );
                if let Some(np) = offset(c.partner, dx, dy) {
                    f = Square(c.partner);
                    t = Square(np);
                }
            }
            let mut s = name(f);
            s.push_str(&name(t));
            match kind {
                MoveKind::Promotion => {
                    s.push(LETTERS[m.piece().unwrap_or(WBC) as usize].to_ascii_lowercase())
                }
                // MC-7: a piece that absorbs names the absorbed power it uses.
                MoveKind::Infect if c.powers().has(Powers::ABSORB) => s.push('v'),
                MoveKind::Ride if c.powers().has(Powers::ABSORB) => s.push('r'),
                MoveKind::Expand if c.powers().has(Powers::ABSORB) => s.push('a'),
                _ => {}
            }
            s
        }
    }
}

impl Micro {
    /// A copy for trying moves: everything but the history.
    pub(super) fn scratch(&self) -> Micro {
        Micro {
            cells: self.cells,
            occ: self.occ,
            types: self.types,
            bonded: self.bonded,
            infected: self.infected,
            expanded: self.expanded,
            stm: self.stm,
            ep: self.ep,
            ep_pawn: self.ep_pawn,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            infections: self.infections.clone(),
            hash: self.hash,
            history: Vec::new(),
            journal: Vec::new(),
            mark: 0,
        }
    }
}
