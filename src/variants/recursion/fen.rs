//! Infinite Recursion Chess FEN: the 16×8 placement, the side to move, the board to play,
//! each board's state and the move number (or a plain 16×8 FEN, read by inference); read,
//! validated, written.

use super::*;

impl Recursion {
    fn board_fields(&self, b: usize) -> String {
        let bd = &self.boards[b];
        let cr = bd.castling_rights();
        let mut castling: String = ['K', 'Q', 'k', 'q']
            .iter()
            .enumerate()
            .filter(|(i, _)| cr & (1 << i) != 0)
            .map(|(_, c)| *c)
            .collect();
        if castling.is_empty() {
            castling.push('-');
        }
        let ep = bd
            .en_passant()
            .map(|s| GEOMETRY.name(from_chess_sq(b, s), RankBase::ONE))
            .unwrap_or_else(|| "-".into());
        format!(
            "{}:{}:{}:{}:{}:{}",
            bd.side_to_move().fen_char(),
            castling,
            ep,
            bd.halfmove_clock(),
            self.results[b].map(|r| r.text()).unwrap_or("*"),
            self.mega_state(b).letter()
        )
    }
}

/// A placement's 8 ranks of 16 squares split into the two boards' chess placements (rank 8
/// first), mega-knights (`M`/`m`) written as knights and listed as (board, colour, square).
fn split_placement(placement: &str) -> Result<Halves, FenError> {
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::Board(format!(
            "{} ranks, expected 8",
            ranks.len()
        )));
    }
    let mut halves = [vec![String::new(); 8], vec![String::new(); 8]];
    let mut megas: Vec<(usize, Color, Square)> = Vec::new();
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        let cells = rank_cells(rank_text, rank as usize + 1, 16, |c| {
            let up = c.to_ascii_uppercase();
            up == 'M' || LETTERS.contains(&up)
        })?;
        for (b, half) in halves.iter_mut().enumerate() {
            let mut s = String::new();
            let mut empty = 0;
            for file in 0..8 {
                match cells[b * 8 + file] {
                    None => empty += 1,
                    Some(c) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let color = if c.is_ascii_uppercase() {
                            Color::White
                        } else {
                            Color::Black
                        };
                        if c.eq_ignore_ascii_case(&'M') {
                            megas.push((b, color, Square(rank * 8 + file as u8)));
                            s.push(if color == Color::White { 'N' } else { 'n' });
                        } else {
                            s.push(c);
                        }
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            half[i] = s;
        }
    }
    Ok((halves, megas))
}

type Halves = ([Vec<String>; 2], Vec<(usize, Color, Square)>);

struct BoardFields {
    side: String,
    castling: String,
    ep: String,
    halfmove: String,
    result: Option<SubResult>,
    mega: MegaState,
}

fn parse_board_fields(text: &str, which: char) -> Result<BoardFields, FenError> {
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() != 6 {
        return Err(FenError::Other(format!(
            "board {which} state {text:?}: expected side:castling:ep:halfmove:result:mega"
        )));
    }
    let result = SubResult::parse(parts[4])
        .ok_or_else(|| FenError::Other(format!("board {which} result {:?}", parts[4])))?;
    let mut mc = parts[5].chars();
    let mega = match (mc.next().and_then(MegaState::from_letter), mc.next()) {
        (Some(m), None) => m,
        _ => {
            return Err(FenError::Other(format!(
                "board {which} mega-knight state {:?}",
                parts[5]
            )))
        }
    };
    Ok(BoardFields {
        side: parts[0].to_string(),
        castling: parts[1].to_string(),
        ep: parts[2].to_string(),
        halfmove: parts[3].to_string(),
        result,
        mega,
    })
}

/// A plain one-board FEN of the 16×8 placement (`PLACEMENT SIDE [CASTLING [EP [HALF [FULL]]]]`),
/// as XBoard sends it for Paste Position and Edit Position: no field holds a board state.
fn is_plain_fen(f: &[&str]) -> bool {
    (2..=6).contains(&f.len())
        && matches!(f[1], "w" | "b")
        && f[2..].iter().all(|t| !t.contains(':'))
        && !(f.len() == 6 && matches!(f.get(2), Some(&"a") | Some(&"b")))
}

impl Recursion {
    /// Reads a plain 16×8 FEN (XBoard's Paste / Edit Position) into a full position. What the
    /// plain form leaves out is inferred, and the first reading the full parser accepts wins:
    /// - the step (IR-5) from the move number N: White plays on board A in odd steps, on B in
    ///   even ones, so the sides to move on the boards follow from N and the side to move;
    ///   with a finished board the one unfinished board is played, or the side passes; other
    ///   sides to move are tried after those;
    /// - each sub-game's result from its position (mate or stalemate; a draw by repetition
    ///   cannot be seen), and the mega-knight states from the results (IR-4, IR-6);
    /// - castling: with `-`, none; otherwise each of `KQkq` on each board where the king and
    ///   rook stand ready for it. En passant and the halfmove clock start afresh.
    fn from_plain_fen(f: &[&str]) -> Result<Recursion, FenError> {
        let full = f
            .get(5)
            .and_then(|n| n.parse::<u32>().ok())
            .unwrap_or(1)
            .max(1);
        let castle_all = f.get(2).is_some_and(|c| *c != "-");
        let mut castling = [String::new(), String::new()];
        if let (true, Ok((halves, _))) = (castle_all, split_placement(f[0])) {
            for (b, rights) in castling.iter_mut().enumerate() {
                let half = halves[b].join("/");
                for letter in ["K", "Q", "k", "q"] {
                    if ["w", "b"].iter().any(|side| {
                        Chess::from_fen(&format!("{half} {side} {letter} - 0 1")).is_ok()
                    }) {
                        rights.push_str(letter);
                    }
                }
            }
        }
        for r in castling.iter_mut() {
            if r.is_empty() {
                *r = "-".into();
            }
        }
        let white_board = if full % 2 == 1 { 0 } else { 1 };
        let (first_active, first_sides) = match f[1] {
            "w" => (
                white_board,
                if white_board == 0 {
                    ["w", "b"]
                } else {
                    ["b", "w"]
                },
            ),
            _ => (1 - white_board, ["b", "b"]),
        };
        let mut actives = vec![["a", "b"][first_active], ["a", "b"][1 - first_active], "-"];
        actives.dedup();
        let mut sides = vec![first_sides];
        for s in [["w", "b"], ["b", "w"], ["b", "b"], ["w", "w"]] {
            if !sides.contains(&s) {
                sides.push(s);
            }
        }
        let results = ["*", "1-0", "0-1", "1/2-1/2"];
        let mut first_err = None;
        for side in &sides {
            for active in &actives {
                for ra in results {
                    for rb in results {
                        let rs = [ra, rb];
                        for pending in [false, true] {
                            let mega = |y: usize| match SubResult::parse(rs[1 - y]) {
                                Some(Some(r)) if !pending => state_for(mega_owner(y), r).letter(),
                                _ => MegaState::Neutral.letter(),
                            };
                            let fen = format!(
                                "{} {} {} {}:{}:-:0:{}:{} {}:{}:-:0:{}:{} {}",
                                f[0],
                                f[1],
                                active,
                                side[0],
                                castling[0],
                                ra,
                                mega(0),
                                side[1],
                                castling[1],
                                rb,
                                mega(1),
                                full
                            );
                            match Recursion::from_fen(&fen) {
                                Ok(p) => return Ok(p),
                                Err(e) => {
                                    first_err.get_or_insert(e);
                                }
                            }
                        }
                    }
                }
            }
        }
        Err(first_err.unwrap_or(FenError::Empty))
    }
}

pub(super) fn parse(fen: &str) -> Result<Recursion, FenError> {
    let f: Vec<&str> = fen.split_whitespace().collect();
    if f.is_empty() {
        return Err(FenError::Empty);
    }
    if is_plain_fen(&f) {
        return Recursion::from_plain_fen(&f);
    }
    if f.len() != 6 {
        return Err(FenError::Other(format!(
            "{} fields, expected 6: placement side board A-state B-state fullmove",
            f.len()
        )));
    }
    let (halves, megas) = split_placement(f[0])?;
    let stm = match f[1] {
        "w" => Color::White,
        "b" => Color::Black,
        o => return Err(FenError::Side(o.to_string())),
    };
    let active_field = match f[2] {
        "a" => Some(0),
        "b" => Some(1),
        "-" => None,
        o => {
            return Err(FenError::Other(format!(
                "board to play {o:?}: expected a, b or -"
            )))
        }
    };
    let fields = [
        parse_board_fields(f[3], 'A')?,
        parse_board_fields(f[4], 'B')?,
    ];
    let fullmove: u32 = f[5]
        .parse()
        .ok()
        .filter(|n| (1..=100_000).contains(n))
        .ok_or_else(|| FenError::Counter(f[5].to_string()))?;

    let mut boards = Vec::with_capacity(2);
    for b in 0..2 {
        let bf = &fields[b];
        let ep = if bf.ep == "-" {
            "-".to_string()
        } else {
            let sq = GEOMETRY
                .parse_square_exact(&bf.ep, RankBase::ONE)
                .ok_or_else(|| FenError::EnPassant(bf.ep.clone()))?;
            let (eb, csq) = to_chess_sq(sq);
            if eb != b {
                return Err(FenError::EnPassant(bf.ep.clone()));
            }
            Geometry::CHESS.name(csq, RankBase::ONE)
        };
        let sub = format!(
            "{} {} {} {} {} 1",
            halves[b].join("/"),
            bf.side,
            bf.castling,
            ep,
            bf.halfmove
        );
        let mut board = Chess::from_fen(&sub).map_err(|e| match e {
            FenError::Impossible(m) => {
                FenError::Impossible(format!("board {}: {m}", ['A', 'B'][b]))
            }
            other => other,
        })?;
        let owner = mega_owner(b);
        for &(mb, color, sq) in &megas {
            if mb != b {
                continue;
            }
            if color != owner {
                return Err(FenError::Impossible(format!(
                    "a {} mega-knight on board {} (only {}'s may stand there)",
                    color.name(),
                    ['A', 'B'][b],
                    owner.name()
                )));
            }
            if board.mega_square(owner).is_some() {
                return Err(FenError::Impossible(format!(
                    "two mega-knights on board {}",
                    ['A', 'B'][b]
                )));
            }
            board.set_mega_square(owner, Some(sq))?;
            debug_assert_eq!(board.piece_at(sq), Some((owner, KNIGHT)));
        }
        board.set_mega_state(owner, bf.mega);
        boards.push(board);
    }
    let boards: [Chess; 2] = [boards.remove(0), boards.remove(0)];
    let results = [fields[0].result, fields[1].result];

    // Each board's result must agree with its position (a draw by repetition cannot be
    // seen in a position, so any draw is accepted).
    for b in 0..2 {
        let seen = Recursion::sub_outcome(&boards[b]);
        let name = ['A', 'B'][b];
        match (results[b], seen) {
            (None, Some(_)) => {
                return Err(FenError::Impossible(format!(
                    "board {name} is over but its result is *"
                )))
            }
            (Some(SubResult::Win(c)), s) if s != Some(SubResult::Win(c)) => {
                return Err(FenError::Impossible(format!(
                    "board {name} result {} contradicts the position",
                    SubResult::Win(c).text()
                )))
            }
            _ => {}
        }
    }
    // Mega-knight states follow the other board's result (IR-4, IR-6).
    let mut pending = false;
    for y in 0..2 {
        let x = 1 - y;
        let st = fields[y].mega;
        match results[x] {
            None if st != MegaState::Neutral => {
                return Err(FenError::Impossible(format!(
                    "the mega-knight on board {} is {} while board {} is still going",
                    ['A', 'B'][y],
                    st.name(),
                    ['A', 'B'][x]
                )))
            }
            Some(r) if st != MegaState::Neutral && st != state_for(mega_owner(y), r) => {
                return Err(FenError::Impossible(format!(
                    "the mega-knight on board {} is {} but board {} ended {}",
                    ['A', 'B'][y],
                    st.name(),
                    ['A', 'B'][x],
                    r.text()
                )))
            }
            Some(_) if st == MegaState::Neutral && results[y].is_none() => {
                // Only right after White's move ended board x, before Black's reply.
                if stm == Color::Black && active_field == Some(y) {
                    pending = true;
                } else {
                    return Err(FenError::Impossible(format!(
                        "the mega-knight on board {} is still Neutral",
                        ['A', 'B'][y]
                    )));
                }
            }
            _ => {}
        }
    }
    let mut pos = Recursion {
        boards,
        stm,
        active: active_field,
        results,
        pending,
        fullmove,
        history: Vec::new(),
    };
    // The board to play on must be the one the turn order gives (IR-5).
    let expected: Vec<Option<usize>> = match results {
        [None, None] => {
            let sides = [pos.boards[0].side_to_move(), pos.boards[1].side_to_move()];
            match stm {
                Color::White => match sides {
                    [Color::White, Color::Black] => vec![Some(0)],
                    [Color::Black, Color::White] => vec![Some(1)],
                    _ => vec![],
                },
                Color::Black if sides == [Color::Black, Color::Black] => {
                    vec![Some(0), Some(1)]
                }
                Color::Black => vec![],
            }
        }
        _ if pending => vec![active_field],
        _ => vec![pos.single_active(stm)],
    };
    if !expected.contains(&active_field) {
        return Err(FenError::Impossible(format!(
            "{} cannot play {} here (IR-5)",
            stm.name(),
            match active_field {
                Some(b) => format!("on board {}", ['A', 'B'][b]),
                None => "a pass".to_string(),
            }
        )));
    }
    if pos.is_over() && pos.active.is_some() {
        pos.active = None;
    }
    Ok(pos)
}

pub(super) fn write(pos: &Recursion) -> String {
    let s = crate::core::fen::write_placement(16, 8, |file, rank| {
        let b = (file / 8) as usize;
        let csq = Square(rank * 8 + file % 8);
        pos.boards[b].piece_at(csq).map(|(c, pt)| {
            let l = if pos.boards[b].mega_square(c) == Some(csq) {
                'M'
            } else {
                LETTERS[pt as usize]
            };
            crate::core::fen::colored_letter(l, c)
        })
    });
    format!(
        "{} {} {} {} {} {}",
        s,
        pos.stm.fen_char(),
        match pos.active {
            Some(0) => "a",
            Some(_) => "b",
            None => "-",
        },
        pos.board_fields(0),
        pos.board_fields(1),
        pos.fullmove
    )
}
