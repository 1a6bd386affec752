//! XBoard hosting of the engine's own variants: the exact `setup`/`piece` lines, the XBoard
//! dialect read back for every legal move of random playouts, bad `usermove`s, Immune Chess
//! mirrored (Invaders as XBoard's White), and the shadow of XBoard's board.

use crate::protocol_support::Engine;
use cellmate::core::rng::XorShift as Rng;
use cellmate::core::{Color, Dialect, MoveKind, Outcome, RankBase, Square};
use cellmate::variants::{AnyPos, VariantKind};
use cellmate::xbwire::{
    applied_text, choice, claim, clicks, dialect, fen_from_xboard, geometry, highlight,
    mirror_text, move_text, parse_move, safe_moves, setup_lines, shadow, Clicks, Lifted,
};

fn dots(n: usize) -> String {
    ".".repeat(n)
}

/// A 66-slot half table from `(slot, letter)` pairs.
fn half(pairs: &[(usize, char)]) -> String {
    let mut v: Vec<char> = dots(66).chars().collect();
    for &(s, c) in pairs {
        v[s] = c;
    }
    v.into_iter().collect()
}

fn expected_recursion() -> Vec<String> {
    let w = half(&[
        (0, 'P'),
        (1, 'N'),
        (2, 'B'),
        (3, 'R'),
        (4, 'Q'),
        (12, 'M'),
        (65, 'K'),
    ]);
    let b = w.to_ascii_lowercase();
    let mut v = vec![format!(
        "setup ({w}{b}) 16x8+0_lion rnbkqbnrrmbkqbnr/pppppppppppppppp/16/16/16/16/\
         PPPPPPPPPPPPPPPP/RMBKQBNRRNBKQBNR w KQkq - 0 1"
    )];
    for l in [
        "piece P& fmWfceFifmnD",
        "piece N& N",
        "piece B& B",
        "piece R& R",
        "piece Q& Q",
        "piece M& N",
        "piece K& K",
    ] {
        v.push(l.into());
    }
    v
}

fn expected_micro() -> Vec<String> {
    let w = half(&[
        (0, 'P'),
        (1, 'B'),
        (2, 'A'),
        (4, 'W'),
        (8, 'C'),
        (17, 'R'),
        (19, 'V'),
        (25, 'T'),
        (65, 'N'),
    ]);
    let b = w.to_ascii_lowercase();
    let mut v = vec![format!(
        "setup ({w}{b}) 16x16+0_fairy wabtrvtcntvrtbaw/pppppppppppppppp/16/16/16/16/16/16/\
         16/16/16/16/16/16/PPPPPPPPPPPPPPPP/WABTRVTCNTVRTBAW w - - 0 1"
    )];
    for l in [
        "piece P& fmWfcFifmR4",
        "piece B& KN",
        "piece A& BH",
        "piece W& Q",
        "piece C& RNG",
        "piece R& cK",
        "piece V& mK",
        "piece T& K",
        "piece N& K",
    ] {
        v.push(l.into());
    }
    v
}

/// Immune Chess mirrored: the Invaders are XBoard's White (`I`, at the bottom, to move), the
/// immune cells XBoard's Black (lower case, at the top).
fn expected_immune() -> Vec<String> {
    let w = half(&[(26, 'I')]);
    let b = half(&[
        (4, 'c'),
        (8, 'm'),
        (3, 'h'),
        (25, 'b'),
        (11, 't'),
        (9, 'a'),
        (6, 'e'),
        (10, 'n'),
        (7, 's'),
        (5, 'o'),
        (30, 'd'),
        (14, 'l'),
    ]);
    let mut v = vec![format!(
        "setup ({w}{b}) 10x10+0_fairy benhoohneb/atlmcdslta/IIIIIIIIII/IIIIIIIIII/\
         IIIIIIIIII/IIIIIIIIII/IIIIIIIIII/IIIIIIIIII/IIIIIIIIII/10 w - - 0 1"
    )];
    for l in [
        "piece I W",
        "piece c mQ",
        "piece m Q2",
        "piece h mR2",
        "piece b cfR",
        "piece t mfbWcfRcfB",
        "piece a W",
        "piece e W",
        "piece n W",
        "piece s Q3",
        "piece o K",
        "piece d Q2",
        "piece l R2",
    ] {
        v.push(l.into());
    }
    v
}

#[test]
fn setup_and_piece_lines_per_variant() {
    for (kind, want) in [
        (VariantKind::Recursion, expected_recursion()),
        (VariantKind::Microorganism, expected_micro()),
        (VariantKind::Immune, expected_immune()),
    ] {
        let got = setup_lines(&kind.startpos()).unwrap();
        assert_eq!(got, want, "{kind:?}");
        // Every FEN letter is in the table (a missing one truncates XBoard's position).
        let setup = &got[0];
        let table = &setup[7..setup.find(')').unwrap()];
        assert_eq!(table.len(), 132);
        let fen = setup.split(' ').nth(3).unwrap();
        for c in fen.chars().filter(|c| c.is_ascii_alphabetic()) {
            assert!(table.contains(c), "{kind:?}: {c} not in the table");
        }
    }
    assert!(setup_lines(&VariantKind::Chess.startpos()).is_none());
}

#[test]
fn engine_sends_setup_after_variant() {
    for (name, want) in [
        ("recursion", expected_recursion()),
        ("microorganism", expected_micro()),
        ("immune", expected_immune()),
    ] {
        let mut e = Engine::start();
        e.send("xboard");
        e.send("protover 2");
        e.read_until(|l| l == "feature done=1");
        e.send(&format!("variant {name}"));
        let last = want.last().unwrap().clone();
        let got = e.read_until(|l| l == last);
        assert_eq!(got, want, "{name}");
        e.finish();
    }
}

/// Every legal move of random playouts, written in the XBoard dialect, reads back as itself;
/// texts are unique per position.
fn round_trip(kind: VariantKind, rank_offset: u8, games: usize, plies: usize, seed: u64) -> usize {
    let mut rng = Rng(seed);
    let mut checked = 0;
    for _ in 0..games {
        let mut pos: AnyPos = kind.startpos();
        for _ in 0..plies {
            if pos.outcome().is_some() {
                break;
            }
            let d = dialect(&pos, rank_offset);
            let list = pos.legal_moves();
            let mut seen = std::collections::HashSet::new();
            for &m in &list {
                let text = move_text(&pos, m, d);
                assert!(
                    seen.insert(text.clone()),
                    "{kind:?}: {text} twice in {}",
                    pos.fen()
                );
                assert_eq!(
                    parse_move(&pos, &text, d),
                    Ok(m),
                    "{kind:?}: {text} in {}",
                    pos.fen()
                );
                checked += 1;
            }
            let m = list[(rng.next() % list.len() as u64) as usize];
            pos.make_move(m);
        }
    }
    checked
}

#[test]
fn recursion_round_trip() {
    assert!(round_trip(VariantKind::Recursion, 0, 6, 160, 11) > 1000);
}

#[test]
fn immune_round_trip_zero_based() {
    let pos = VariantKind::Immune.startpos();
    assert_eq!(dialect(&pos, 0).rank_base, RankBase::ZERO);
    assert_eq!(dialect(&pos, 1).rank_base, RankBase::ZERO);
    assert!(round_trip(VariantKind::Immune, 0, 6, 200, 12) > 1000);
}

#[test]
fn micro_round_trip_rank_offset_off_and_on() {
    let pos = VariantKind::Microorganism.startpos();
    assert_eq!(dialect(&pos, 0).rank_base, RankBase::ONE);
    assert_eq!(dialect(&pos, 1).rank_base, RankBase::ZERO);
    for off in [0, 1] {
        assert!(round_trip(VariantKind::Microorganism, off, 3, 150, 13 + off as u64) > 1000);
    }
}

#[test]
fn xboard_spellings() {
    let d1 = Dialect::XBOARD;
    // Immune on 10 ranks: zero-based and mirrored (our e1 is XBoard's e9), a shot out and back.
    let im = VariantKind::Immune
        .from_fen("10/10/4i5/10/10/10/10/10/10/4B5 w - 0 1")
        .unwrap();
    let d0 = dialect(&im, 0);
    let shot = parse_move(&im, "e9e2,e2e9", d0).unwrap();
    assert_eq!(move_text(&im, shot, d0), "e9e2,e2e9");
    assert_eq!(im.move_text(shot, d0), "e0e7,e7e0");
    // Recursion en passant: two legs over the victim.
    let rc = VariantKind::Recursion.startpos();
    let mut rc = rc;
    for t in [
        "e2e4", "m7m6", "m2m3", "a7a6", "e4e5", "m6m5", "m3m4", "d7d5",
    ] {
        let m = parse_move(&rc, t, d1).unwrap();
        rc.make_move(m);
    }
    let ep = parse_move(&rc, "e5d5,d5d6", d1).unwrap();
    assert_eq!(rc.move_text(ep, Dialect::UCI), "e5d6");
    // A Black two-leg move relayed garbled by XBoard (`XX,ZW`) is still read.
    let mc = VariantKind::Microorganism
        .from_fen("n15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/N6tt7 b - 0 1 -")
        .unwrap();
    let bond = mc
        .legal_moves()
        .into_iter()
        .find(|m| m.kind() == cellmate::core::MoveKind::Bond)
        .unwrap();
    // Nothing moves: out and back over the first empty square beyond the partner.
    let text = move_text(&mc, bond, d1);
    assert!(
        ["g1e1,e1g1", "h1j1,j1h1"].contains(&text.as_str()),
        "{text}"
    );
    assert_eq!(parse_move(&mc, &text, d1), Ok(bond));
    // As XBoard relays it for Black: from twice, then the middle square and a neighbour.
    let garbled = format!("{0}{0},{1}x1", &text[0..2], &text[2..4]);
    assert_eq!(parse_move(&mc, &garbled.replace('x', "a"), d1), Ok(bond));
}

#[test]
fn bad_usermoves_are_illegal() {
    for (name, bad) in [
        ("recursion", ["e7e5", "i2i4", "@@@@"]),
        ("microorganism", ["a1a9", "V@g5", "h1h2"]),
        ("immune", ["e2e4", "e9e8,e8e9", "a7a5"]),
    ] {
        let mut e = Engine::start();
        e.send("xboard");
        e.send("protover 2");
        e.read_until(|l| l == "feature done=1");
        e.send(&format!("variant {name}"));
        e.send("force");
        for b in bad {
            e.send(&format!("usermove {b}"));
            let l = e.read_until(|l| l.starts_with("Illegal move"));
            assert_eq!(l.last().unwrap(), &format!("Illegal move: {b}"), "{name}");
        }
        e.finish();
    }
}

/// Immune under XBoard: every legal move of random playouts is XBoard's mirror image of the
/// rules' zero-based text, reads back both ways, and the shadow of XBoard's board (which
/// applies the texts as XBoard does) stays the mirrored real board, except after the Dendritic
/// cell's 10th capture (documented: XBoard keeps showing it).
#[test]
fn immune_mirror_round_trip_and_shadow() {
    let mut rng = Rng(77);
    let mut moves = 0;
    for _ in 0..8 {
        let mut pos: AnyPos = VariantKind::Immune.startpos();
        let d = dialect(&pos, 0);
        let g = cellmate::core::Geometry {
            width: 10,
            height: 10,
        };
        let mut sh = shadow(&pos, d).expect("a shadow for immune");
        for _ in 0..300 {
            if pos.outcome().is_some() {
                break;
            }
            let list = pos.legal_moves();
            let side = if pos.side_to_move() == Color::Black {
                Color::White
            } else {
                Color::Black
            };
            for &m in &list {
                let xb = move_text(&pos, m, d);
                let own = pos.move_text(m, d);
                assert_eq!(xb, mirror_text(g, &own, d.rank_base));
                assert_eq!(mirror_text(g, &xb, d.rank_base), own);
                assert_eq!(parse_move(&pos, &xb, d), Ok(m), "{xb} in {}", pos.fen());
                // XBoard's side to move (the Invaders are its White) owns the square moved from.
                assert!(sh.accepts(&xb, side), "{xb} refused in {}", sh.placement());
                moves += 1;
            }
            let m = list[(rng.next() % list.len() as u64) as usize];
            let xb = move_text(&pos, m, d);
            let last = matches!(&pos, AnyPos::Immune(p) if p.is_last_capture(m));
            pos.make_move(m);
            sh.apply(&xb);
            if last {
                sh = shadow(&pos, d).unwrap();
            }
            let setup = &setup_lines(&pos).unwrap()[0];
            assert_eq!(
                sh.placement(),
                setup.split(' ').nth(3).unwrap(),
                "after {xb}"
            );
        }
    }
    assert!(moves > 3000, "{moves}");
}

#[test]
fn immune_first_moves_and_fens_are_mirrored() {
    let pos = VariantKind::Immune.startpos();
    let d = dialect(&pos, 0);
    // The Invaders' first move a9a10 (a8a9 zero-based) is XBoard's White a1a0.
    let m = pos.parse_move("a8a9", d).unwrap();
    assert_eq!(move_text(&pos, m, d), "a1a0");
    assert_eq!(parse_move(&pos, "a1a0", d), Ok(m));
    // XBoard's setboard FEN (White to move, Invaders upper case at the bottom) reads back.
    let xb = "btlmcdsltb/aenhoohnea/10/10/10/10/10/IIIIIIIIII/IIIIIIIIII/IIIIIIIIII w - - 0 1";
    let ours = fen_from_xboard(VariantKind::Immune, xb);
    // (XBoard's castling field dropped: an Immune FEN has none.)
    assert_eq!(
        ours,
        "iiiiiiiiii/iiiiiiiiii/iiiiiiiiii/10/10/10/10/10/AENHOOHNEA/BTLMCDSLTB b - 0 1"
    );
    assert_eq!(
        VariantKind::Immune.from_fen(&ours).unwrap().fen(),
        "iiiiiiiiii/iiiiiiiiii/iiiiiiiiii/10/10/10/10/10/AENHOOHNEA/BTLMCDSLTB b - 0 1"
    );
    // Other variants are not mirrored (chess keeps all six fields).
    assert_eq!(fen_from_xboard(VariantKind::Chess, xb), xb);
    assert_eq!(
        fen_from_xboard(VariantKind::Recursion, xb),
        xb,
        "only Microorganism and Immune lose the castling field"
    );
}

#[test]
fn immune_result_claims_are_swapped() {
    let white = Outcome::Win {
        winner: Color::White,
        reason: "White destroyed every Invader".into(),
    };
    let black = Outcome::Win {
        winner: Color::Black,
        reason: "White has no piece left that can capture".into(),
    };
    let draw = Outcome::draw("Threefold repetition");
    assert_eq!(
        claim(VariantKind::Immune, &white),
        "0-1 {Black destroyed every Invader}"
    );
    assert_eq!(
        claim(VariantKind::Immune, &black),
        "1-0 {Black has no piece left that can capture}"
    );
    assert_eq!(
        claim(VariantKind::Immune, &draw),
        "1/2-1/2 {Threefold repetition}"
    );
    assert_eq!(
        claim(VariantKind::Microorganism, &black),
        "0-1 {White has no piece left that can capture}"
    );
}

/// The engine under XBoard in Immune: moves and setboard in XBoard's mirrored terms, its own
/// winning move and claim too (the Invaders, XBoard's White, win: `1-0`).
#[test]
fn immune_engine_speaks_mirrored() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.read_until(|l| l == "feature done=1");
    e.send("variant immune");
    e.send("force");
    e.send("usermove a1a0");
    e.send("ping 1");
    let got = e.read_until(|l| l == "pong 1");
    assert!(!got.iter().any(|l| l.starts_with("Illegal")), "{got:?}");
    assert!(e.xb_fen().starts_with("i9/1iiiiiiiii/iiiiiiiiii/"));
    // XBoard's White (an Invader) on e4 takes the immune cells' last capturing piece on e5.
    e.send("setboard I9/10/10/10/4b5/4I5/10/10/10/10 w - - 0 1");
    e.send("sd 3");
    e.send("go");
    let got = e.read_until(|l| l.starts_with("1-0") || l.starts_with("0-1"));
    assert!(got.contains(&"move e4e5".to_string()), "{got:?}");
    assert_eq!(
        got.last().unwrap(),
        "1-0 {Black has no piece left that can capture}"
    );
    e.finish();
}

/// Plays texts in the XBoard dialect on a position and on the shadow, as the engine does.
fn play_xb(pos: &mut AnyPos, sh: &mut cellmate::xbwire::shadow::Shadow, text: &str, d: Dialect) {
    let m = parse_move(pos, text, d).unwrap_or_else(|e| panic!("{text}: {e:?} in {}", pos.fen()));
    sh.apply(&applied_text(pos, m, text, d));
    pos.make_move(m);
}

/// A White Virus infects a Black pawn; when the hatch is due XBoard is told `XYv` and shows
/// the new Virus on Y but nothing on X, where the Virus really is back. From then on the engine
/// does not choose a move from X (XBoard would refuse it) while it has another move.
const MICRO_INFECT: &str = "15n/16/16/16/16/16/16/16/16/16/16/6p9/6V9/16/16/N15 w - 0 1 -";

/// The Microorganism game of these tests up to its due hatch: the infection `g3g4` (zero-based
/// ranks), then Neurons shuffling while it ripens. The position, XBoard's board, the dialect
/// and the moves played in XBoard's spelling.
fn micro_until_hatch() -> (
    AnyPos,
    cellmate::xbwire::shadow::Shadow,
    Dialect,
    Vec<String>,
) {
    let mut pos = VariantKind::Microorganism.from_fen(MICRO_INFECT).unwrap();
    let d = dialect(&pos, 1);
    let mut sh = shadow(&pos, d).unwrap();
    let mut texts = vec!["g3g4".to_string()];
    play_xb(&mut pos, &mut sh, "g3g4", d);
    let mut ply = 0;
    while !pos
        .legal_moves()
        .iter()
        .any(|m| m.kind() == MoveKind::Hatch)
    {
        assert!(ply < 20, "no hatch due after {ply} plies");
        let t = match (pos.side_to_move(), ply % 4 < 2) {
            (Color::White, true) => "a0b0",
            (Color::White, false) => "b0a0",
            (Color::Black, true) => "p15o15",
            (Color::Black, false) => "o15p15",
        };
        texts.push(t.into());
        play_xb(&mut pos, &mut sh, t, d);
        ply += 1;
    }
    (pos, sh, d, texts)
}

/// The engine under XBoard in Microorganism Chess (ranks from 1 on XBoard's side: `Rank
/// Offset` 1), forced, at [`MICRO_INFECT`].
fn micro_engine_at_infect() -> Engine {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.read_until(|l| l == "feature done=1");
    e.send("variant microorganism");
    e.send("option Rank Offset=1");
    e.send("force");
    e.send(&format!("setboard {MICRO_INFECT}"));
    e
}

fn micro_after_hatch() -> (AnyPos, cellmate::xbwire::shadow::Shadow, Dialect, String) {
    let (mut pos, mut sh, d, _) = micro_until_hatch();
    let list = pos.legal_moves();
    let h = *list
        .iter()
        .find(|m| m.kind() == MoveKind::Hatch)
        .expect("a due hatch");
    let text = move_text(&pos, h, d);
    assert_eq!(&text[..2], "g4", "{text}");
    assert!(text.ends_with('v'), "{text}");
    play_xb(&mut pos, &mut sh, &text, d);
    // XBoard's board: nothing on g4, a White Virus on the new square; really a Virus on both.
    assert_eq!(sh.at(6, 4), None);
    let AnyPos::Microorganism(p) = &pos else {
        unreachable!()
    };
    assert!(!p.cell(cellmate::core::Square(4 * 16 + 6)).is_empty());
    let reply = if pos
        .legal_moves()
        .iter()
        .any(|&m| move_text(&pos, m, d) == "p15o15")
    {
        "p15o15"
    } else {
        "o15p15"
    };
    play_xb(&mut pos, &mut sh, reply, d);
    (pos, sh, d, text)
}

#[test]
fn micro_shadow_avoids_the_piece_xboard_lost() {
    let (pos, sh, d, _) = micro_after_hatch();
    let legal = pos.legal_moves();
    let from_g4: Vec<_> = legal
        .iter()
        .filter(|m| m.from() == cellmate::core::Square(4 * 16 + 6))
        .collect();
    assert!(!from_g4.is_empty(), "the Virus on g4 can move");
    for m in &from_g4 {
        assert!(!sh.accepts(&move_text(&pos, **m, d), Color::White));
    }
    let safe = safe_moves(&pos, d, Some(&sh));
    assert!(!safe.is_empty());
    assert!(safe
        .iter()
        .all(|m| m.from() != cellmate::core::Square(4 * 16 + 6)));
    // Without the shadow the moves from g4 would be candidates.
    assert!(safe_moves(&pos, d, None)
        .iter()
        .any(|m| m.from() == cellmate::core::Square(4 * 16 + 6)));
}

/// The same through the engine: after the moves, `go` never gives a move from g4.
#[test]
fn micro_engine_avoids_the_piece_xboard_lost() {
    let (_, _, _, hatch) = micro_after_hatch();
    let mut e = micro_engine_at_infect();
    // Replay the same game: infection, Neuron shuffles, the hatch, Black's reply.
    let (mut pos, mut sh, d, mut texts) = micro_until_hatch();
    texts.push(hatch.clone());
    play_xb(&mut pos, &mut sh, &hatch, d);
    let reply = if pos
        .legal_moves()
        .iter()
        .any(|&m| move_text(&pos, m, d) == "p15o15")
    {
        "p15o15"
    } else {
        "o15p15"
    };
    texts.push(reply.into());
    for t in &texts {
        e.send(&format!("usermove {t}"));
    }
    e.send("sd 4");
    e.send("go");
    let got = e.read_until(|l| l.starts_with("move "));
    assert!(!got.iter().any(|l| l.starts_with("Illegal")), "{got:?}");
    let mv = got.last().unwrap()["move ".len()..].to_string();
    assert!(
        !mv.starts_with("g4"),
        "{mv} moves the piece XBoard does not show"
    );
    e.finish();
}

// ---------------------------------------------------------------------------------------------
// Move entry with the mouse (`lift`/`put`, `highlight`, `choice`), simulated the way XBoard
// 4.9.1 handles the markers (`backend.c`: `MarkByFEN`, `LeftClick`).

/// A `highlight COLORFEN` read as XBoard's `MarkByFEN` does: the marker letter per square
/// (`[rank][file]`, rank 0 at the bottom), upper case only (lower case marks no target).
fn read_highlight(line: &str, width: usize, height: usize) -> Vec<Vec<Option<char>>> {
    let fen = line.strip_prefix("highlight ").expect(line);
    let mut grid = vec![vec![None; width]; height];
    let rows: Vec<&str> = fen.split('/').collect();
    assert_eq!(rows.len(), height, "{line}");
    for (i, row) in rows.iter().enumerate() {
        let r = height - 1 - i;
        let (mut f, mut run) = (0, 0);
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                run = run * 10 + d as usize;
                continue;
            }
            f += run;
            run = 0;
            assert!("YRGCBMWDT".contains(c), "{c} in {line}");
            grid[r][f] = Some(c);
            f += 1;
        }
        assert_eq!(f + run, width, "{line}");
    }
    grid
}

/// What XBoard sends after the clicks that `grid` allows for reaching `to` from the lifted
/// square (through `via`, a cyan square, if given): `None` when the marks do not let a person
/// enter the move. `choice` answers a `put` on a blue square.
fn entered(
    g: cellmate::core::Geometry,
    d: Dialect,
    c: &Clicks,
    first: &[Vec<Option<char>>],
    second: Option<&[Vec<Option<char>>]>,
    choice_for: impl Fn(Square) -> Option<char>,
) -> Option<String> {
    let at = |grid: &[Vec<Option<char>>], s: Square| grid[g.rank(s) as usize][g.file(s) as usize];
    let n = |s: Square| g.name(s, d.rank_base);
    let (prefix, grid) = match c.via {
        Some(v) => {
            if at(first, v) != Some('C') {
                return None;
            }
            (format!("{}{},{}", n(c.from), n(v), n(v)), second?)
        }
        None => (n(c.from), first),
    };
    let suffix = match at(grid, c.to)? {
        'Y' | 'R' | 'T' if c.suffix.is_none() => None,
        // A second click on a cyan square ends the move there, without a suffix.
        'C' if c.via.is_none() && c.suffix.is_none() => None,
        'B' => Some(choice_for(c.to)?),
        // XBoard's promotion popup or sweep offers the pieces: the person picks the suffix.
        'M' => c.suffix,
        _ => return None,
    };
    Some(format!(
        "{prefix}{}{}",
        n(c.to),
        suffix.map(String::from).unwrap_or_default()
    ))
}

/// Every legal move of random playouts can be entered with the mouse in XBoard, exactly in the
/// engine's XBoard spelling (so XBoard applies it as the engine expects), except passes; and
/// every marked target belongs to a legal move.
fn every_move_by_mouse(
    kind: VariantKind,
    rank_offset: u8,
    games: usize,
    plies: usize,
    seed: u64,
) -> [usize; 15] {
    let mut rng = Rng(seed);
    let mut kinds = [0usize; 15];
    for _ in 0..games {
        let mut pos: AnyPos = kind.startpos();
        let d = dialect(&pos, rank_offset);
        let mut sh = shadow(&pos, d);
        for _ in 0..plies {
            if pos.outcome().is_some() {
                break;
            }
            let g = geometry(&pos);
            let (w, h) = (g.width as usize, g.height as usize);
            let list = pos.legal_moves();
            let mut firsts = std::collections::HashMap::new();
            for &m in &list {
                let text = move_text(&pos, m, d);
                let Some(c) = clicks(g, &text, d) else {
                    assert_eq!(m.kind(), MoveKind::Pass, "{text} cannot be clicked");
                    kinds[m.kind() as usize] += 1;
                    continue;
                };
                let lift = Lifted {
                    from: c.from,
                    via: None,
                };
                let first = firsts
                    .entry(c.from)
                    .or_insert_with(|| read_highlight(&highlight(&pos, d, sh.as_ref(), lift), w, h))
                    .clone();
                let second = c.via.map(|v| {
                    read_highlight(
                        &highlight(
                            &pos,
                            d,
                            sh.as_ref(),
                            Lifted {
                                from: c.from,
                                via: Some(v),
                            },
                        ),
                        w,
                        h,
                    )
                });
                let lifted = Lifted {
                    from: c.from,
                    via: c.via,
                };
                let got = entered(g, d, &c, &first, second.as_deref(), |to| {
                    choice(&pos, d, lifted, to)
                });
                assert_eq!(
                    got.as_deref(),
                    Some(text.as_str()),
                    "{kind:?} in {}",
                    pos.fen()
                );
                assert_eq!(parse_move(&pos, &text, d), Ok(m));
                kinds[m.kind() as usize] += 1;
            }
            // No mark without a move: every upper-case target of a lifted square is a move's.
            let all: Vec<Clicks> = list
                .iter()
                .filter_map(|&m| clicks(g, &move_text(&pos, m, d), d))
                .collect();
            for (&from, grid) in &firsts {
                for (r, row) in grid.iter().enumerate() {
                    for (f, mark) in row.iter().enumerate() {
                        if mark.is_some() {
                            let to = Square((r * w + f) as u8);
                            assert!(
                                all.iter().any(|c| c.from == from
                                    && (c.to == to && c.via.is_none() || c.via == Some(to))),
                                "{kind:?}: a mark without a move in {}",
                                pos.fen()
                            );
                        }
                    }
                }
            }
            let m = list[(rng.next() % list.len() as u64) as usize];
            let text = move_text(&pos, m, d);
            pos.make_move(m);
            if let Some(s) = sh.as_mut() {
                s.apply(&text);
            }
        }
    }
    kinds
}

#[test]
fn chess_every_move_by_mouse() {
    let k = every_move_by_mouse(VariantKind::Chess, 0, 4, 120, 5);
    assert!(k.iter().sum::<usize>() > 3000, "{k:?}");
}

#[test]
fn recursion_every_move_by_mouse() {
    let k = every_move_by_mouse(VariantKind::Recursion, 0, 3, 120, 6);
    assert!(k[MoveKind::Castle as usize] > 0, "{k:?}");
    assert!(k.iter().sum::<usize>() > 3000, "{k:?}");
}

#[test]
fn immune_every_move_by_mouse() {
    let k = every_move_by_mouse(VariantKind::Immune, 0, 4, 200, 7);
    assert!(k[MoveKind::Shot as usize] > 0, "{k:?}");
    assert!(k.iter().sum::<usize>() > 3000, "{k:?}");
}

#[test]
fn micro_every_move_by_mouse() {
    let mut k = [0; 15];
    for (off, seed) in [(1, 8), (0, 9), (1, 10)] {
        let r = every_move_by_mouse(VariantKind::Microorganism, off, 1, 200, seed);
        for (a, b) in k.iter_mut().zip(r) {
            *a += b;
        }
    }
    eprintln!("micro move kinds entered: {k:?}");
    for kind in [
        MoveKind::Bond,
        MoveKind::Expand,
        MoveKind::Contract,
        MoveKind::Kill,
        MoveKind::Infect,
        MoveKind::Ride,
    ] {
        assert!(k[kind as usize] > 0, "no {kind:?}: {k:?}");
    }
    assert!(k.iter().sum::<usize>() > 3000, "{k:?}");
}

/// A hatch entered with the mouse: lifting the infected piece marks the squares where the new
/// Virus can go in blue; `put` on one is answered `choice v`, so XBoard sends `XYv`.
#[test]
fn micro_hatch_by_mouse() {
    let (_, _, _, hatch) = micro_after_hatch();
    let mut e = micro_engine_at_infect();
    let (_, _, _, texts) = micro_until_hatch();
    for t in &texts {
        e.send(&format!("usermove {t}"));
    }
    e.xb_sync(1);
    // The hatch is due: the eight neighbours of g4 (ranks from 0), all blue.
    e.send("lift g4");
    let got = e.xb_sync(2);
    assert_eq!(
        got,
        ["highlight 16/16/16/16/16/16/16/16/16/16/5BBB8/5B1B8/5BBB8/16/16/16"]
    );
    e.send("put f3");
    assert_eq!(e.xb_sync(3), ["choice v"]);
    // What XBoard then sends is the engine's own spelling of the hatch.
    assert_eq!(hatch, "g4f3v");
    e.send(&format!("usermove {hatch}"));
    assert!(e.xb_sync(4).is_empty());
    e.finish();
}

/// XBoard's Edit → Paste Position sends a six-field FEN (`w - - 0 1`, as seen in a real XBoard
/// 4.9.1 debug log); Microorganism and Immune FENs have no castling field.
#[test]
fn xboard_six_field_fens_are_read() {
    assert_eq!(
        fen_from_xboard(
            VariantKind::Microorganism,
            "15n/16/16/16/16/16/16/16/16/16/16/6p9/6V9/16/16/N15 w - - 0 1"
        ),
        "15n/16/16/16/16/16/16/16/16/16/16/6p9/6V9/16/16/N15 w - 0 1"
    );
    // Our own FEN with its hidden state keeps its fields.
    assert_eq!(
        fen_from_xboard(
            VariantKind::Microorganism,
            "n15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/N6tt7 b - 0 1 -"
        ),
        "n15/16/16/16/16/16/16/16/16/16/16/16/16/16/16/N6tt7 b - 0 1 -"
    );
    assert_eq!(
        fen_from_xboard(
            VariantKind::Immune,
            "4b5/10/10/10/10/10/10/4I5/10/10 b - - 0 1"
        ),
        "10/10/4i5/10/10/10/10/10/10/4B5 w - 0 1"
    );
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.read_until(|l| l == "feature done=1");
    e.send("variant microorganism");
    e.send("force");
    e.xb_sync(1);
    e.send("setboard 15n/16/16/16/16/16/16/16/16/16/16/6p9/6V9/16/16/N15 w - - 0 1");
    assert_eq!(
        e.xb_fen(),
        "15n/16/16/16/16/16/16/16/16/16/16/6p9/6V9/16/16/N15 w - 0 1 -"
    );
    e.finish();
}

/// IR-5: a pass entered in XBoard by a click on the clock comes, in Edit Game mode after Paste
/// Position, as a bare `setboard` of the position after the pass (seen in `make gui-check`).
/// The engine reads it as the pass: the game keeps its history (`undo` goes back) and what
/// the plain FEN cannot carry (board A's castling rights). A plain FEN of any other position
/// is a new position, read with the step taken from its move number.
#[test]
fn recursion_pass_relayed_as_setboard() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.read_until(|l| l == "feature done=1");
    e.send("variant recursion");
    e.send("force");
    e.send(
        "setboard rnbkqbnrr6m/pppppppp8/16/16/16/12k3/PPPPPPPP8/RMBKQBNR4K3 w a \
         w:KQkq:-:0:*:n b:-:-:0:*:n 1",
    );
    e.send("usermove e2e4");
    e.send("usermove i8i1");
    let placement = "rnbkqbnr7m/pppppppp8/16/16/4P11/12k3/PPPP1PPP8/RMBKQBNRr3K3";
    e.send(&format!("setboard {placement} b - - 0 2"));
    let got = e.xb_sync(1);
    assert!(
        !got.iter()
            .any(|l| l.starts_with("Error") || l.starts_with("Illegal")),
        "{got:?}"
    );
    assert_eq!(
        e.xb_fen(),
        format!("{placement} b a b:KQkq:-:0:*:f w:-:-:1:0-1:n 2")
    );
    e.send("undo");
    assert_eq!(
        e.xb_fen(),
        format!("{placement} w - b:KQkq:-:0:*:f w:-:-:1:0-1:n 2")
    );
    // Not the position after the pass (White to move again): a new position.
    e.send(&format!("setboard {placement} w - - 0 2"));
    assert_eq!(
        e.xb_fen(),
        format!("{placement} w - b:-:-:0:*:f w:-:-:0:0-1:n 2")
    );
    e.finish();
}

/// `option Rank_Offset=1` after `variant microorganism` (as XBoard's Engine Settings dialog
/// sends it): the shadow of XBoard's board reads the next move texts 0-based too. It kept the
/// numbering of `variant` time and moved the Neuron `i0` for `usermove i1i5` (found by
/// `make host-check`: the side engine's shadow differed from XBoard's board).
#[test]
fn micro_shadow_follows_a_later_rank_offset() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.read_until(|l| l == "feature done=1");
    e.send("variant microorganism");
    e.send("option Rank_Offset=1");
    e.send("force");
    e.send("usermove i1i5");
    e.send("xbfen");
    let lines = e.xb_sync(1);
    let board = lines
        .iter()
        .find_map(|l| l.strip_prefix("# board "))
        .unwrap();
    let shadow = lines
        .iter()
        .find_map(|l| l.strip_prefix("# shadow "))
        .unwrap();
    assert!(lines.iter().all(|l| !l.starts_with("Error")), "{lines:#?}");
    assert_eq!(board.split(' ').next().unwrap(), shadow, "{lines:#?}");
    assert!(shadow.ends_with("/8P7/16/16/16/PPPPPPPP1PPPPPPP/WABTRVTCNTVRTBAW"));
    e.finish();
}
