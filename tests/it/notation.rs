//! Immune Chess's own notation (IM-7) both ways, the `notation` command and PGN writing.
//!
//! - Round trips coordinates → notation → coordinates on games the engine plays (from the start
//!   and from random positions) and on random playouts, move by move and as whole games.
//! - Every kind of move and every disambiguation rule in crafted positions, with the exact text.
//! - The command on a small game, in every output form, and on bad input.

use std::io::Write;
use std::process::{Command, Output, Stdio};

use cellmate::core::rng::XorShift as Rng;
use cellmate::core::{Dialect, Move, MoveError, MoveList, Variant};
use cellmate::engine::{Control, Engine, Limits};
use cellmate::notation::{self, Notation, Word};
use cellmate::variants::immune::{Immune, START_FEN};
use cellmate::variants::{AnyPos, VariantKind};

fn pos(fen: &str) -> Immune {
    Immune::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The seed text of a move given in UCI coordinates.
fn seed(p: &Immune, uci: &str) -> String {
    let m = p
        .parse_move(uci, Dialect::UCI)
        .unwrap_or_else(|e| panic!("{uci}: {e}"));
    p.seed_text(m)
}

/// The UCI text of the move a seed text names.
fn uci(p: &Immune, seed_text: &str) -> Result<String, MoveError> {
    p.parse_move(seed_text, Dialect::UCI)
        .map(|m| p.move_text(m, Dialect::UCI))
}

fn words(texts: &[String]) -> Vec<Word> {
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| Word {
            line: i + 1,
            text: t.clone(),
        })
        .collect()
}

/// A random legal Immune position: `width`×`height`, some White cells and Invaders, Monocytes
/// below their zone, Dendritic cells with random counts (often 9, so that `*` comes up).
fn random_fen(rng: &mut Rng, width: usize, height: usize) -> String {
    loop {
        let mut cells = vec![None::<char>; width * height];
        let whites = 4 + rng.below(10);
        let invaders = 3 + rng.below(14);
        let letters = [
            'C', 'M', 'H', 'B', 'T', 'A', 'E', 'N', 'S', 'O', 'D', 'L', 'O', 'D',
        ];
        let mut counts = Vec::new();
        for i in 0..whites + invaders {
            let sq = rng.below(width * height);
            if cells[sq].is_some() {
                continue;
            }
            let c = if i < whites {
                letters[rng.below(letters.len())]
            } else {
                'i'
            };
            if c == 'O' && sq / width >= height - 2 {
                continue;
            }
            if c == 'D' {
                let n = [0, 5, 8, 9, 9][rng.below(5)];
                if n > 0 {
                    counts.push((sq, n));
                }
            }
            cells[sq] = Some(c);
        }
        let placement = cellmate::core::fen::write_placement(width as u8, height as u8, |f, r| {
            cells[r as usize * width + f as usize]
        });
        counts.sort();
        let counts_text = if counts.is_empty() {
            "-".to_string()
        } else {
            counts
                .iter()
                .map(|&(sq, n)| {
                    format!(
                        "{}{}:{n}",
                        (b'a' + (sq % width) as u8) as char,
                        sq / width + 1
                    )
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let side = if rng.below(2) == 0 { "w" } else { "b" };
        let fen = format!("{placement} {side} {counts_text} 0 1");
        if let Ok(p) = Immune::from_fen(&fen) {
            if p.outcome().is_none() {
                return fen;
            }
        }
    }
}

/// Checks one move both ways at its position: seed text → move, coordinates → move.
fn check_move(p: &Immune, m: Move) -> String {
    let text = p.seed_text(m);
    assert_eq!(
        p.parse_move(&text, Dialect::UCI),
        Ok(m),
        "{text} in {}",
        p.fen()
    );
    let coords = p.move_text(m, Dialect::UCI);
    assert_eq!(p.parse_move(&coords, Dialect::UCI), Ok(m), "{coords}");
    text
}

/// Checks a whole game: coordinates → seed → coordinates through the library, both as one
/// conversion and through `notation::read` / `notation::write`.
fn check_game(start_fen: &str, moves: &[Move]) {
    let start = AnyPos::Immune(pos(start_fen));
    let coords = notation::write(&start, moves, Notation::Coords(Dialect::UCI));
    let seeds = notation::write(&start, moves, Notation::Seed);
    assert_eq!(
        notation::read(&start, &words(&seeds), Dialect::UCI),
        Ok(moves.to_vec())
    );
    assert_eq!(
        notation::read(&start, &words(&coords), Dialect::UCI),
        Ok(moves.to_vec())
    );
    let there = notation::convert(
        VariantKind::Immune,
        Some(start_fen),
        &coords.join("\n"),
        Dialect::UCI,
        Notation::Seed,
    )
    .unwrap();
    assert_eq!(there.moves, seeds);
    let back = notation::convert(
        VariantKind::Immune,
        Some(start_fen),
        &there.numbered(),
        Dialect::UCI,
        Notation::Coords(Dialect::UCI),
    )
    .unwrap();
    assert_eq!(back.moves, coords);
    // And through PGN: the PGN written reads back to the same game.
    let again = notation::convert(
        VariantKind::Immune,
        None,
        &there.pgn(),
        Dialect::UCI,
        Notation::Coords(Dialect::UCI),
    )
    .unwrap();
    assert_eq!(again.moves, coords);
}

/// Tallies which marks the seed texts used.
#[derive(Default, Debug)]
struct Kinds {
    moves: usize,
    captures: usize,
    shots: usize,
    promotions: usize,
    removals: usize,
    disambiguated: usize,
}

impl Kinds {
    fn add(&mut self, text: &str) {
        let head = text.split(['-', '[', '+']).next().unwrap();
        if head
            .chars()
            .any(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        {
            self.disambiguated += 1;
        }
        if text.contains('+') {
            self.shots += 1;
        } else if text.contains('[') {
            self.captures += 1;
        } else {
            self.moves += 1;
        }
        self.promotions += text.ends_with('^') as usize;
        self.removals += text.ends_with('*') as usize;
    }
}

#[test]
fn engine_games_round_trip() {
    let engine = Engine::new(16, 1);
    let limits = Limits {
        depth: Some(2),
        ..Default::default()
    };
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut fens = vec![START_FEN.to_string()];
    for _ in 0..3 {
        fens.push(random_fen(&mut rng, 10, 10));
    }
    fens.push(random_fen(&mut rng, 12, 12));
    let mut kinds = Kinds::default();
    let mut plies = 0;
    for fen in &fens {
        let mut p = pos(fen);
        let mut moves = Vec::new();
        for ply in 0..40 {
            if p.outcome().is_some() {
                break;
            }
            // Two random plies first from the start, so that games differ.
            let m = if fen == START_FEN && ply < 2 {
                let mut list = MoveList::new();
                p.legal_moves(&mut list);
                list[rng.below(list.len())]
            } else {
                engine.clear();
                let r = engine.search(&p, &limits, &Control::new(false), &|_| {});
                r.best.expect("a move")
            };
            kinds.add(&check_move(&p, m));
            p.make_move(m);
            moves.push(m);
            plies += 1;
        }
        check_game(fen, &moves);
    }
    assert!(plies >= 120, "{plies}");
    assert!(kinds.captures > 0 && kinds.moves > 0, "{kinds:?}");
}

#[test]
fn random_playouts_round_trip_every_kind() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let mut kinds = Kinds::default();
    for game in 0..60 {
        let fen = if game % 10 == 0 {
            START_FEN.to_string()
        } else if game % 7 == 0 {
            random_fen(&mut rng, 16, 16)
        } else {
            random_fen(&mut rng, 10, 10)
        };
        let mut p = pos(&fen);
        let mut moves = Vec::new();
        for _ in 0..80 {
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            // Every legal move reads back; one of them is played (captures preferred, so that
            // Dendritic cells reach their tenth).
            for &m in &list {
                check_move(&p, m);
            }
            let captures: Vec<Move> = list.iter().copied().filter(|&m| p.is_tactical(m)).collect();
            let m = if !captures.is_empty() && rng.below(2) == 0 {
                captures[rng.below(captures.len())]
            } else {
                list[rng.below(list.len())]
            };
            kinds.add(&p.seed_text(m));
            p.make_move(m);
            moves.push(m);
        }
        check_game(&fen, &moves);
    }
    assert!(kinds.moves > 100, "{kinds:?}");
    assert!(kinds.captures > 50, "{kinds:?}");
    assert!(kinds.shots > 5, "{kinds:?}");
    assert!(kinds.promotions > 0, "{kinds:?}");
    assert!(kinds.removals > 0, "{kinds:?}");
    assert!(kinds.disambiguated > 20, "{kinds:?}");
}

// ----- every kind of move, exact text -----

#[test]
fn each_kind_of_move() {
    // Move and capture.
    let p = pos("i9/10/10/10/4i5/10/4M5/10/10/10 w - 0 1");
    assert_eq!(seed(&p, "e4e5"), "M-e5");
    assert_eq!(seed(&p, "e4e6"), "M[e6");
    assert_eq!(uci(&p, "M[e6"), Ok("e4e6".into()));
    // The mark must match the square: `-` onto an enemy, `[` onto an empty square are wrong.
    assert!(matches!(uci(&p, "M-e6"), Err(MoveError::Illegal(_))));
    assert!(matches!(uci(&p, "M[e5"), Err(MoveError::Illegal(_))));

    // Shots, for the B-cell and the Killer T; the shooter stays.
    let p = pos("i9/10/4i5/10/10/10/10/10/4B5/10 w - 0 1");
    assert_eq!(seed(&p, "e2e8,e8e2"), "B+e8");
    assert_eq!(uci(&p, "B+e8"), Ok("e2e8,e8e2".into()));
    assert!(matches!(uci(&p, "B[e8"), Err(MoveError::Illegal(_))));
    let p = pos("i9/10/10/10/10/10/1i8/10/10/4T5 w - 0 1");
    assert_eq!(seed(&p, "e1b4,b4e1"), "KT+b4");
    assert_eq!(seed(&p, "e1e2"), "KT-e2");

    // Promotion: by a step and by a capture; `^` may be left out, but not written falsely.
    let p = pos("i9/3i6/4O5/10/10/10/10/10/10/10 w - 0 1");
    assert_eq!(seed(&p, "e8e9m"), "MO-e9^");
    assert_eq!(seed(&p, "e8d9m"), "MO[d9^");
    assert_eq!(seed(&p, "e8e7"), "MO-e7");
    assert_eq!(uci(&p, "MO-e9"), Ok("e8e9m".into()));
    assert_eq!(uci(&p, "MO[d9^"), Ok("e8d9m".into()));
    assert!(matches!(uci(&p, "MO-e7^"), Err(MoveError::Illegal(_))));

    // The Dendritic cell's tenth capture: `*`; as with `^`, may be left out, not made up.
    let p = pos("9i/10/10/10/4i5/4D5/10/10/10/M9 w e5:9 0 1");
    assert_eq!(seed(&p, "e5e6"), "D[e6*");
    assert_eq!(uci(&p, "D[e6*"), Ok("e5e6".into()));
    assert_eq!(uci(&p, "D[e6"), Ok("e5e6".into()));
    assert_eq!(seed(&p, "e5e4"), "D-e4");
    assert!(matches!(uci(&p, "D-e4*"), Err(MoveError::Illegal(_))));
    let p = pos("9i/10/10/10/4i5/4D5/10/10/10/M9 w e5:8 0 1");
    assert_eq!(seed(&p, "e5e6"), "D[e6");
    assert!(matches!(uci(&p, "D[e6*"), Err(MoveError::Illegal(_))));

    // Pieces that only move: Complement, Helper T.
    let p = pos("i9/10/10/10/10/10/10/10/10/3CH4M w - 0 1");
    assert_eq!(seed(&p, "d1a4"), "C-a4");
    assert_eq!(seed(&p, "e1e3"), "HT-e3");
    // Every other abbreviation of the seed.
    let p = pos("i9/10/10/10/10/10/10/10/10/ANESL5 w - 0 1");
    assert_eq!(seed(&p, "a1a2"), "BA-a2");
    assert_eq!(seed(&p, "b1b2"), "N-b2");
    assert_eq!(seed(&p, "c1c2"), "E-c2");
    assert_eq!(seed(&p, "d1d4"), "MA-d4");
    assert_eq!(seed(&p, "e1e3"), "NK-e3");
    for text in ["BA-a2", "N-b2", "E-c2", "MA-d4", "NK-e3"] {
        assert!(uci(&p, text).is_ok(), "{text}");
    }
}

#[test]
fn invaders_are_written_i_and_read_bare_too() {
    let p = pos("10/10/10/10/4i5/10/10/10/10/M9 b - 0 1");
    assert_eq!(seed(&p, "e6e7"), "I-e7");
    assert_eq!(uci(&p, "I-e7"), Ok("e6e7".into()));
    // Black has no other piece, so the abbreviation may be left out.
    assert_eq!(uci(&p, "-e7"), Ok("e6e7".into()));
    assert_eq!(uci(&p, "e6-e7"), Ok("e6e7".into()));
    // Not for White.
    let w = pos("10/10/10/10/4i5/10/10/10/10/M9 w - 0 1");
    assert!(matches!(uci(&w, "-a2"), Err(MoveError::Syntax(_))));
    assert_eq!(uci(&w, "M-a2"), Ok("a1a2".into()));
}

// ----- disambiguation: file first, rank when they share the file -----

#[test]
fn disambiguation_by_file_then_rank() {
    // Macrophages on c3, e3 and c5.
    let p = pos("9i/10/10/10/10/2M7/10/2M1M5/10/10 w - 0 1");
    // Two can reach d3, on different files: the file.
    assert_eq!(seed(&p, "c3d3"), "Mc-d3");
    assert_eq!(seed(&p, "e3d3"), "Me-d3");
    // Two can reach c4, on the same file: the rank.
    assert_eq!(seed(&p, "c3c4"), "M3-c4");
    assert_eq!(seed(&p, "c5c4"), "M5-c4");
    // All three reach d4 and e5: c3 shares its file with c5 and its rank with e3, so both;
    // c5 shares its file only (rank); e3 shares neither file (file).
    assert_eq!(seed(&p, "c3d4"), "Mc3-d4");
    assert_eq!(seed(&p, "c5d4"), "M5-d4");
    assert_eq!(seed(&p, "e3d4"), "Me-d4");
    assert_eq!(seed(&p, "c3e5"), "Mc3-e5");
    assert_eq!(seed(&p, "c5e5"), "M5-e5");
    assert_eq!(seed(&p, "e3e5"), "Me-e5");
    // Only one reaches a7: nothing added.
    assert_eq!(seed(&p, "c5a7"), "M-a7");
    // Reading: too little is ambiguous, more than needed is fine.
    for (text, want) in [
        ("Mc3-d4", "c3d4"),
        ("M5-d4", "c5d4"),
        ("Me-d4", "e3d4"),
        ("Mc5-d4", "c5d4"),
        ("Me3-d4", "e3d4"),
        ("Mc-a7", "c5a7"),
        ("M-a7", "c5a7"),
    ] {
        assert_eq!(uci(&p, text), Ok(want.into()), "{text}");
    }
    for text in ["M-d4", "Mc-d4", "M3-d4", "M-c4", "M-d3"] {
        assert!(
            matches!(uci(&p, text), Err(MoveError::Illegal(_))),
            "{text}"
        );
    }

    // Invaders: by file, by rank.
    let p = pos("10/10/10/10/4i5/3i1i4/4i5/10/10/M9 b - 0 1");
    assert_eq!(seed(&p, "d5e5"), "Id-e5");
    assert_eq!(seed(&p, "f5e5"), "If-e5");
    assert_eq!(seed(&p, "e6e5"), "I6-e5");
    assert_eq!(seed(&p, "e4e5"), "I4-e5");
    assert_eq!(uci(&p, "6-e5"), Ok("e6e5".into()));

    // Shots: three Killer Ts on rank 1 shoot e4 (two diagonally, one straight).
    let p = pos("9i/10/10/10/10/10/4i5/10/10/1T2T2T2 w - 0 1");
    assert_eq!(seed(&p, "b1e4,e4b1"), "KTb+e4");
    assert_eq!(seed(&p, "e1e4,e4e1"), "KTe+e4");
    assert_eq!(seed(&p, "h1e4,e4h1"), "KTh+e4");
    // Only a move of the same kind counts: the Killer Ts' steps to b2 and e2 need nothing.
    assert_eq!(seed(&p, "b1b2"), "KT-b2");

    // Promotions and tenth captures keep their suffix after the disambiguation.
    let p = pos("9i/10/3O1O4/10/10/10/10/10/10/10 w - 0 1");
    assert_eq!(seed(&p, "d8e9m"), "MOd-e9^");
    assert_eq!(seed(&p, "f8e9m"), "MOf-e9^");
    let p = pos("9i/10/10/10/4i5/3D1D4/10/10/10/10 w d5:9,f5:2 0 1");
    assert_eq!(seed(&p, "d5e6"), "Dd[e6*");
    assert_eq!(seed(&p, "f5e6"), "Df[e6");
    assert_eq!(uci(&p, "Dd[e6*"), Ok("d5e6".into()));
    assert!(matches!(uci(&p, "Df[e6*"), Err(MoveError::Illegal(_))));
}

// ----- library errors -----

#[test]
fn bad_moves_name_their_line_and_reason() {
    let game = |text: &str| {
        notation::convert(
            VariantKind::Immune,
            Some(SPARSE),
            text,
            Dialect::UCI,
            Notation::Seed,
        )
    };
    let e = game("1. e8e7 e2e3\n2. e7e6\nM-e9\n").unwrap_err();
    assert_eq!((e.line, e.move_number, e.text.as_str()), (3, 4, "M-e9"));
    assert!(
        e.reason.starts_with("no legal move of White fits it"),
        "{e}"
    );
    assert!(
        e.to_string().starts_with("line 3: move 4 \"M-e9\": "),
        "{e}"
    );
    let e = game("e8e7\nMO-e3").unwrap_err();
    assert!(
        e.reason
            .starts_with("ambiguous: it could be MOe-e3 or MOf-e3"),
        "{e}"
    );
    let e = game("e8e7 hello").unwrap_err();
    assert_eq!((e.line, e.move_number), (1, 2));
    assert!(e.reason.starts_with("not a move"), "{e}");
    let e = game("e8e7 e8e7").unwrap_err();
    assert!(e.reason.starts_with("not a legal move of White"), "{e}");
    // After the end.
    let e = notation::convert(
        VariantKind::Immune,
        Some("10/10/10/10/10/10/10/10/10/Mi8 w - 0 1"),
        "M[b1 I-j9",
        Dialect::UCI,
        Notation::Seed,
    );
    assert_eq!(
        e.as_ref()
            .map(|c| c.moves.clone())
            .map_err(|e| e.text.clone()),
        Err("I-j9".into())
    );
    assert!(e.unwrap_err().reason.starts_with("the game is over"));
    // A FEN that is not one.
    let e = notation::convert(
        VariantKind::Immune,
        Some("xyz"),
        "",
        Dialect::UCI,
        Notation::Seed,
    )
    .unwrap_err();
    assert!(e.reason.starts_with("invalid immune FEN"), "{e}");
    // The seed's notation is Immune Chess's only.
    assert!(notation::convert(
        VariantKind::Chess,
        None,
        "e2e4",
        Dialect::UCI,
        Notation::Seed
    )
    .is_err());
}

#[test]
fn result_comes_from_the_input_or_the_rules() {
    let won = notation::convert(
        VariantKind::Immune,
        Some("10/10/10/10/10/10/10/10/10/Mi8 w - 0 1"),
        "M[b1",
        Dialect::UCI,
        Notation::Coords(Dialect::UCI),
    )
    .unwrap();
    assert_eq!(won.moves, vec!["a1b1".to_string()]);
    assert_eq!(won.result, "1-0");
    let open = notation::convert(
        VariantKind::Immune,
        Some(SPARSE),
        "e8e7 0-1",
        Dialect::UCI,
        Notation::Seed,
    )
    .unwrap();
    assert_eq!(open.result, "0-1");
    assert!(open.pgn().ends_with("1. I-e7 0-1\n"));
}

// ----- the command -----

fn run(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cellmate"))
        .arg("notation")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot run cellmate");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn out(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// The first Immune setup tried (Invaders on ranks 8-10): room to move for short test games.
/// (The default start, IM-2, packs 70 Invaders.)
const SPARSE: &str =
    "iiiiiiiiii/iiiiiiiiii/iiiiiiiiii/10/10/10/10/10/AENHOOHNEA/BTLMCDSLTB b - 0 1";

const GAME: &str = "1. e8e7 e2e3\n2. e7e6 d2d4\n3. e6e5 e3e4\n4. e5e4\n";
const SEED: &str = "I-e7\nMOe-e3\nI-e6\nHT-d4\nI-e5\nMO-e4\nI[e4\n";

#[test]
fn cli_converts_a_small_game() {
    assert_eq!(out(&run(&["--fen", SPARSE], GAME)), SEED);
    assert_eq!(
        out(&run(
            &["--variant", "immune", "--fen", SPARSE, "--to", "seed"],
            GAME
        )),
        SEED
    );
    assert_eq!(
        out(&run(&["--fen", SPARSE, "--to", "coords"], SEED)),
        "e8e7\ne2e3\ne7e6\nd2d4\ne6e5\ne3e4\ne5e4\n"
    );
    assert_eq!(
        out(&run(&["--fen", SPARSE, "--numbered"], GAME)),
        "1. I-e7 MOe-e3\n2. I-e6 HT-d4\n3. I-e5 MO-e4\n4. I[e4\n"
    );
    // XBoard's ranks, from 0, both ways.
    assert_eq!(
        out(&run(&["--fen", SPARSE, "--xboard", "--to", "coords"], SEED)),
        "e7e6\ne1e2\ne6e5\nd1d3\ne5e4\ne2e3\ne4e3\n"
    );
    assert_eq!(
        out(&run(
            &["--fen", SPARSE, "--xboard"],
            "e7e6 e1e2 e6e5 d1d3 e5e4 e2e3 e4e3"
        )),
        SEED
    );
    // From a FEN.
    let fen = "9i/10/10/10/4i5/4D5/10/10/10/M9 w e5:9 0 1";
    assert_eq!(
        out(&run(&["--fen", fen], "e5e6 j10j9 a1a3")),
        "D[e6*\nI-j9\nM-a3\n"
    );
}

#[test]
fn cli_writes_pgn() {
    let pgn = out(&run(&["--fen", SPARSE, "--pgn"], GAME));
    assert!(pgn.starts_with("[Event \"?\"]\n"), "{pgn}");
    assert!(
        pgn.contains(&format!(
            "[Result \"*\"]\n[Variant \"immune\"]\n[SetUp \"1\"]\n[FEN \"{SPARSE}\"]\n\n"
        )),
        "{pgn}"
    );
    assert!(
        pgn.ends_with("\n\n1. e8e7 e2e3 2. e7e6 d2d4 3. e6e5 e3e4 4. e5e4 *\n"),
        "{pgn}"
    );
    let seed_pgn = out(&run(&["--fen", SPARSE, "--pgn", "--to", "seed"], GAME));
    assert!(
        seed_pgn.ends_with("\n\n1. I-e7 MOe-e3 2. I-e6 HT-d4 3. I-e5 MO-e4 4. I[e4 *\n"),
        "{seed_pgn}"
    );
    // A PGN reads back, in either notation, its tags kept.
    assert_eq!(out(&run(&["--fen", SPARSE], &seed_pgn)), SEED);
    assert_eq!(out(&run(&["--fen", SPARSE, "--pgn"], &seed_pgn)), pgn);
    // From a FEN: SetUp and FEN tags; the FEN tag is the start when reading it back.
    let fen = "9i/10/10/10/4i5/4D5/10/10/10/M9 w e5:9 0 1";
    let pgn = out(&run(&["--pgn", "--fen", fen], "e5e6 j10j9 a1a3"));
    assert!(
        pgn.contains(&format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n")),
        "{pgn}"
    );
    assert!(pgn.ends_with("1... e5e6 2. j10j9 a1a3 *\n"), "{pgn}");
    assert_eq!(out(&run(&[], &pgn)), "D[e6*\nI-j9\nM-a3\n");
    // Other variants: coordinates.
    let chess = out(&run(&["--variant", "chess", "--pgn"], "e2e4 e7e5"));
    assert!(!chess.contains("[Variant"), "{chess}");
    assert!(chess.ends_with("1. e2e4 e7e5 *\n"), "{chess}");
}

#[test]
fn cli_bad_input_is_one_error_and_exit_code_1() {
    let o = run(&["--fen", SPARSE], "e8e7\ne2e3\n\ne7e6 M-j9\nd2d4\n");
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("cellmate: line 4: move 4 \"M-j9\": no legal move of White fits it"),
        "{err}"
    );
    let o = run(&["--fen", SPARSE], "e8e7 MO-e3");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("ambiguous"));
    let o = run(&["--fen", "not a fen"], "e8e7");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("invalid immune FEN"));
    let o = run(&["--variant", "chess", "--to", "seed"], "e2e4");
    assert_eq!(o.status.code(), Some(1));
    let o = run(&["--variant", "nonesuch"], "e2e4");
    assert_eq!(o.status.code(), Some(1));
    let o = run(&["--fen", SPARSE], "e8e7 1-0 e2e3");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("after the result"));
}

#[test]
fn shots_and_promotions_through_the_command() {
    let fen = "i3i5/3i6/4O5/10/10/10/10/10/4B5/10 w - 0 1";
    let o = out(&run(&["--fen", fen], "e8d9m a10a9 e2e10,e10e2"));
    assert_eq!(o, "MO[d9^\nI-a9\nB+e10\n");
    let coords = out(&run(&["--fen", fen, "--to", "coords"], &o));
    assert_eq!(coords, "e8d9m\na10a9\ne2e10,e10e2\n");
    let xboard = out(&run(&["--fen", fen, "--to", "coords", "--xboard"], &o));
    assert_eq!(xboard, "e7d8m\na9a8\ne1e9,e9e1\n");
    assert_eq!(out(&run(&["--fen", fen, "--xboard"], &xboard)), o);
    // The shot's first leg alone and a promotion without its letter are read as well.
    let o = out(&run(&["--fen", fen], "e8d9 a10a9 e2e10"));
    assert_eq!(o, "MO[d9^\nI-a9\nB+e10\n");
}
