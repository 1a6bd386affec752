//! Microorganism Chess rules, each test named by its spec id.

use super::*;
use crate::core::{perft, perft_divide};

/// A placement from (square, letter) pairs.
fn placement(pieces: &[(&str, char)]) -> String {
    let squares: Vec<(Square, char)> = pieces
        .iter()
        .map(|&(s, l)| (GEOMETRY.parse_square_exact(s, RankBase::ONE).unwrap(), l))
        .collect();
    crate::core::fen::write_placement(16, 16, |f, r| {
        squares
            .iter()
            .find(|(q, _)| *q == Square(r * 16 + f))
            .map(|&(_, l)| l)
    })
}

fn fen(pieces: &[(&str, char)], side: &str, state: &str) -> String {
    format!("{} {side} - 0 1 {state}", placement(pieces))
}

fn pos(fen: &str) -> Micro {
    Micro::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn at(pieces: &[(&str, char)], side: &str, state: &str) -> Micro {
    pos(&fen(pieces, side, state))
}

fn moves(p: &Micro) -> Vec<String> {
    let mut l = MoveList::new();
    p.legal_moves(&mut l);
    let mut v: Vec<String> = l.iter().map(|&m| p.move_text(m, Dialect::UCI)).collect();
    v.sort();
    v
}

fn moves_from(p: &Micro, from: &str) -> Vec<String> {
    moves(p)
        .into_iter()
        .filter(|m| {
            m.starts_with(from) && !m[from.len()..].starts_with(|c: char| c.is_ascii_digit())
        })
        .collect()
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn play(p: &mut Micro, text: &str) {
    let m = p
        .parse_move(text, Dialect::UCI)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{}", p.display()));
    p.make_move(m);
}

fn state(p: &Micro) -> String {
    p.fen().rsplit(' ').next().unwrap().to_string()
}

/// Squares of a file or rank, except one.
fn line(squares: impl Iterator<Item = String>, except: &str) -> Vec<String> {
    squares.filter(|s| s != except).collect()
}

// ---------- MC-1, MC-2: board and setup ----------

/// MC-2: perft of the start position. Depth 1 by hand: 16 red blood cells × 4 advances = 64;
/// each Amoeba one (3,0) leap (b1b4, o1o4) = 2; each Bacterium two knight leaps = 4; each Prion
/// rides one of its five neighbours = 10; the Paramecium two knight and two (3,3) leaps = 4;
/// White blood cells, Platelets, Viruses and the Neuron are boxed in. 64+2+4+10+4 = 84.
#[test]
fn mc_2_start_position_perft() {
    let mut p = Micro::startpos();
    assert_eq!(p.fen(), START_FEN);
    let d = perft_divide(&mut p, 1);
    assert_eq!(d.len(), 84);
    assert_eq!(perft(&mut p, 2), 84 * 84);
    let d3 = perft_divide(&mut p, 3);
    let total: u64 = d3.iter().map(|x| x.1).sum();
    assert_eq!(total, 616_748);
    // Divide, by hand for two first moves (Black's 84 replies never touch White's camp):
    // after a2a3 White loses three advances of that cell but gains a1a2, b1a2 and c1a2: 84;
    // after e1d1 (the prion rides the d1 platelet) it loses five rides but gains the kill
    // R@d1 and the moves onto e1 by the virus, the ridden platelet and the b1 amoeba: 83.
    let text = |m: Move| p.move_text(m, Dialect::UCI);
    let count = |t: &str| d3.iter().find(|x| text(x.0) == t).unwrap().1;
    assert_eq!(count("a2a3"), 84 * 84);
    assert_eq!(count("e1d1"), 84 * 83);
}

#[test]
fn mc_1_board_is_16x16_with_two_digit_ranks() {
    let p = Micro::startpos();
    assert_eq!(p.geometry(), GEOMETRY);
    let mut q = p.clone();
    play(&mut q, "a2a6");
    play(&mut q, "p15p11");
    assert!(q
        .fen()
        .starts_with("wabtrvtcntvrtbaw/ppppppppppppppp1/16/16/16/15p/16/16/16/16/P15/16/"));
    assert!(moves(&q).contains(&"a6a7".to_string()));
}

// ---------- MC-3: red blood cell ----------

const NEURONS: [(&str, char); 2] = [("a1", 'N'), ("p16", 'n')];

fn with_neurons(extra: &[(&str, char)]) -> Vec<(&'static str, char)> {
    let mut v: Vec<(&str, char)> = NEURONS.to_vec();
    for &(s, c) in extra {
        v.push((Box::leak(s.to_string().into_boxed_str()), c));
    }
    v
}

#[test]
fn mc_3_red_blood_cell_advances_one_to_four() {
    let p = at(&with_neurons(&[("e2", 'P')]), "w", "-");
    assert_eq!(
        moves_from(&p, "e2"),
        sorted(&["e2e3", "e2e4", "e2e5", "e2e6"])
    );
    let p = at(&with_neurons(&[("e5", 'P')]), "w", "-");
    assert_eq!(moves_from(&p, "e5"), sorted(&["e5e6"]));
    let p = at(&with_neurons(&[("e2", 'P'), ("e5", 'p')]), "w", "-");
    assert_eq!(moves_from(&p, "e2"), sorted(&["e2e3", "e2e4"]));
    let p = at(
        &with_neurons(&[("e5", 'P'), ("d6", 't'), ("e6", 't')]),
        "w",
        "-",
    );
    assert_eq!(moves_from(&p, "e5"), sorted(&["e5d6"]));
    let p = at(&with_neurons(&[("h15", 'p')]), "b", "-");
    assert_eq!(
        moves_from(&p, "h15"),
        sorted(&["h15h14", "h15h13", "h15h12", "h15h11"])
    );
}

#[test]
fn mc_3_en_passant_on_every_square_passed() {
    let mut p = at(
        &with_neurons(&[("e2", 'P'), ("d4", 'p'), ("f6", 'p')]),
        "w",
        "-",
    );
    play(&mut p, "e2e6");
    assert!(p.fen().contains(" b e3,e4,e5 "), "{}", p.fen());
    assert_eq!(moves_from(&p, "d4"), sorted(&["d4d3", "d4e3"]));
    assert_eq!(moves_from(&p, "f6"), sorted(&["f6e5", "f6f5"]));
    let mut q = p.clone();
    play(&mut q, "d4e3");
    assert!(q
        .cell(GEOMETRY.parse_square_exact("e6", RankBase::ONE).unwrap())
        .is_empty());
    assert_eq!(
        q.cell(GEOMETRY.parse_square_exact("e3", RankBase::ONE).unwrap())
            .kind,
        RBC
    );
    // Only on the very next ply.
    play(&mut p, "p16o16");
    play(&mut p, "a1a2");
    assert_eq!(moves_from(&p, "d4"), sorted(&["d4d3"]));
}

#[test]
fn mc_3_promotion_choices() {
    let p = at(&with_neurons(&[("e15", 'P')]), "w", "-");
    assert_eq!(
        moves_from(&p, "e15"),
        sorted(&["e15e16w", "e15e16a", "e15e16b", "e15e16t", "e15e16r", "e15e16v", "e15e16c"])
    );
    let mut q = p.clone();
    play(&mut q, "e15e16b");
    let c = q.cell(GEOMETRY.parse_square_exact("e16", RankBase::ONE).unwrap());
    assert_eq!((c.kind, c.absorbed), (BACTERIUM, 0));
}

// ---------- MC-4: neuron ----------

#[test]
fn mc_4_neuron_steps_and_avoids_attacked_squares() {
    let p = at(&[("h8", 'N'), ("p16", 'n')], "w", "-");
    assert_eq!(moves(&p).len(), 8);
    let p = at(&[("h8", 'N'), ("p16", 'n'), ("a9", 'c')], "w", "-");
    assert_eq!(moves(&p), sorted(&["h8g7", "h8g8", "h8h7", "h8i7", "h8i8"]));
}

/// The ray table's slide is the square-by-square walk: every square and direction over
/// random occupancies, sparse to full — the empty squares up to the first occupied one, which
/// is included and named.
#[test]
fn slide_is_the_walk() {
    let t = tables();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for density in [0u64, 1, 4, 16, 64] {
        let mut occ = U256::EMPTY;
        for q in 0..=255u8 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            if seed % 64 < density {
                occ.insert(Square(q));
            }
        }
        for s in 0..256 {
            for d in 0..8 {
                let (mut walk, mut first) = (U256::EMPTY, None);
                let mut cur = t.next[d][s];
                while cur != OFF {
                    walk.insert(Square(cur as u8));
                    if occ.contains(Square(cur as u8)) {
                        first = Some(Square(cur as u8));
                        break;
                    }
                    cur = t.next[d][cur as usize];
                }
                assert_eq!(slide(d, s, occ), (walk, first), "square {s}, direction {d}");
            }
        }
    }
}

// ---------- MC-5: white blood cell ----------

#[test]
fn mc_5_white_blood_cell_stays_in_its_half() {
    let p = at(&[("d4", 'W'), ("p1", 'N'), ("p16", 'n')], "w", "-");
    let mut want: Vec<String> = Vec::new();
    for r in [1, 2, 3, 5, 6, 7, 8] {
        want.push(format!("d4d{r}"));
    }
    for f in "abcefghijklmnop".chars() {
        want.push(format!("d4{f}4"));
    }
    for s in [
        "e5", "f6", "g7", "h8", "c5", "b6", "a7", "e3", "f2", "g1", "c3", "b2", "a1",
    ] {
        want.push(format!("d4{s}"));
    }
    want.sort();
    assert_eq!(moves_from(&p, "d4"), want);
    // It attacks only within its half: a Neuron on d9 is not in check, one on d8 is.
    let p = at(&[("d4", 'W'), ("p1", 'N'), ("d9", 'n')], "b", "-");
    assert!(!p.in_check());
    let p = at(&[("d4", 'W'), ("p1", 'N'), ("d8", 'n')], "b", "-");
    assert!(p.in_check());
}

/// MC-5 (issue 22): a White blood cell outside its half (after a promotion) attacks nothing;
/// one in its half attacks only along lines inside it. Found by an independent implementation
/// of the rules: the engine gave false checks along lines through the enemy half.
#[test]
fn mc_5_white_blood_cell_attacks_only_within_its_half() {
    // White's on c11 (outside ranks 1-8): it neither moves nor attacks f8 on its diagonal.
    let p = pos("16/16/16/16/16/2W13/16/6n9/16/16/16/16/16/16/16/8N7 b - 0 1 -");
    assert_eq!(
        moves(&p),
        sorted(&["g9f10", "g9g10", "g9h10", "g9f9", "g9h9", "g9f8", "g9g8", "g9h8"])
    );
    let mut w = pos("16/16/16/16/16/2W13/16/6n9/16/16/16/16/16/16/16/8N7 w - 0 1 -");
    assert!(moves_from(&w, "c11").is_empty());
    play(&mut w, "i1i2");
    assert!(!w.in_check());
    // Black promotes on c1: its White blood cell is outside ranks 9-16, so the White Neuron on
    // k9 (the same diagonal, through White's half) is not in check and may step to l10.
    let mut p = pos("8n7/16/16/16/16/16/16/10N5/16/16/16/16/16/16/2p13/16 b - 0 1 -");
    play(&mut p, "c2c1w");
    assert!(!p.in_check());
    assert!(moves(&p).contains(&"k9l10".to_string()));
    // The same for White promoting on c16 against the Black Neuron on k8.
    let mut p = pos("16/2P13/16/16/16/16/16/16/10n5/16/16/16/16/16/16/8N7 w - 0 1 -");
    play(&mut p, "c15c16w");
    assert!(!p.in_check());
    assert!(moves(&p).contains(&"k8l7".to_string()));
    // Inside its half it still attacks along a line inside it: c3 to the Black Neuron on h8;
    // the Black one promoted on c1 (outside its half) gives the White Neuron on h6 no check.
    let p = pos("16/16/16/16/16/16/16/16/7n8/16/16/16/16/2W13/16/8N7 b - 0 1 -");
    assert!(p.in_check());
    let p = pos("8n7/16/16/16/16/16/16/16/16/16/7N8/16/16/16/16/2w13 w - 0 1 -");
    assert!(!p.in_check());
}

/// MC-7 with MC-5: a Bacterium that absorbed a White blood cell slides as a queen without the
/// half-board limit (a limit, not a power), wherever it stands.
#[test]
fn mc_7_absorbed_white_blood_cell_has_no_half_limit() {
    let p = pos("8n7/16/16/16/16/16/16/16/16/16/7N8/16/16/16/16/2b13 w - 0 1 c1:+W");
    assert!(p.in_check(), "{}", p.display());
}

// ---------- MC-6, MC-9: paramecium and jumps ----------

#[test]
fn mc_6_paramecium_rook_knight_and_three_three() {
    let p = at(&[("h8", 'C'), ("b1", 'N'), ("o16", 'n')], "w", "-");
    let mut want = line(
        "abcdefghijklmnop".chars().map(|f| format!("h8{f}8")),
        "h8h8",
    );
    want.extend(line((1..=16).map(|r| format!("h8h{r}")), "h8h8"));
    for s in [
        "f7", "f9", "g6", "g10", "i6", "i10", "j7", "j9", "e5", "k5", "e11", "k11",
    ] {
        want.push(format!("h8{s}"));
    }
    want.sort();
    assert_eq!(moves_from(&p, "h8"), want);
}

#[test]
fn mc_9_jumps_go_over_pieces_and_walls() {
    let p = at(
        &[
            ("h8", 'C'),
            ("i9", 't'),
            ("j10", 't'),
            ("b1", 'N'),
            ("o16", 'n'),
        ],
        "w",
        "i9:wall;j10:wall",
    );
    assert!(moves_from(&p, "h8").contains(&"h8k11".to_string()));
}

// ---------- MC-7: bacterium ----------

#[test]
fn mc_7_bacterium_starts_as_king_and_knight() {
    let p = at(&[("h8", 'B'), ("b1", 'N'), ("o16", 'n')], "w", "-");
    assert_eq!(
        moves_from(&p, "h8"),
        sorted(&[
            "h8g7", "h8g8", "h8g9", "h8h7", "h8h9", "h8i7", "h8i8", "h8i9", "h8f7", "h8f9", "h8g6",
            "h8g10", "h8i6", "h8i10", "h8j7", "h8j9"
        ])
    );
}

#[test]
fn mc_7_bacterium_absorbs_for_good() {
    // Eats a Paramecium: rook, knight and (3,3) moves.
    let mut p = at(
        &[("c3", 'B'), ("d5", 'c'), ("a1", 'N'), ("p16", 'n')],
        "w",
        "-",
    );
    play(&mut p, "c3d5");
    assert_eq!(state(&p), "d5:+C");
    play(&mut p, "p16o16");
    let m = moves_from(&p, "d5");
    for want in ["d5d16", "d5p5", "d5g8", "d5a2", "d5e7"] {
        assert!(m.contains(&want.to_string()), "{want} in {m:?}");
    }
    // A red blood cell adds nothing.
    let mut p = at(
        &[("c3", 'B'), ("d4", 'p'), ("a1", 'N'), ("p16", 'n')],
        "w",
        "-",
    );
    play(&mut p, "c3d4");
    assert_eq!(state(&p), "-");
    // A White blood cell gives queen moves without its half-board limit.
    let mut p = at(
        &[("c3", 'B'), ("d5", 'w'), ("a1", 'N'), ("p16", 'n')],
        "w",
        "-",
    );
    play(&mut p, "c3d5");
    play(&mut p, "p16p15");
    assert!(moves_from(&p, "d5").contains(&"d5d15".to_string()));
    // A captured Bacterium gives everything it had.
    let mut p = at(
        &[
            ("c3", 'B'),
            ("d5", 'b'),
            ("e6", 'p'),
            ("a1", 'N'),
            ("p16", 'n'),
        ],
        "w",
        "d5:+AV",
    );
    play(&mut p, "c3d5");
    assert_eq!(state(&p), "d5:+AV");
    play(&mut p, "p16p15");
    let m = moves_from(&p, "d5");
    for want in ["d5e6", "d5e6v", "d5d6a", "d5g5"] {
        assert!(m.contains(&want.to_string()), "{want} in {m:?}");
    }
}

// ---------- MC-8: amoeba ----------

#[test]
fn mc_8_amoeba_bishop_three_zero_and_expansion() {
    let p = at(&[("h8", 'A'), ("b1", 'N'), ("o16", 'n')], "w", "-");
    let mut want: Vec<String> = Vec::new();
    for s in [
        "i9", "j10", "k11", "l12", "m13", "n14", "o15", "p16", "g9", "f10", "e11", "d12", "c13",
        "b14", "a15", "i7", "j6", "k5", "l4", "m3", "n2", "o1", "g7", "f6", "e5", "d4", "c3", "b2",
        "a1", "e8", "k8", "h5", "h11", "h9", "h7", "g8", "i8",
    ] {
        want.push(format!("h8{s}"));
    }
    want.sort();
    assert_eq!(moves_from(&p, "h8"), want);
}

#[test]
fn mc_8_expanded_amoeba_moves_rigidly_and_captures_two() {
    let mut p = at(
        &[
            ("d4", 'A'),
            ("e4", 'A'),
            ("e5", 'p'),
            ("f5", 'p'),
            ("a1", 'N'),
            ("p16", 'n'),
        ],
        "w",
        "d4:cell=e4",
    );
    let m = moves_from(&p, "d4");
    assert!(m.contains(&"d4e5".to_string()), "{m:?}");
    assert!(
        m.contains(&"d4e4".to_string()),
        "contraction giving up d4: {m:?}"
    );
    assert!(moves_from(&p, "e4").contains(&"e4d4".to_string()));
    // Both cells shift by (1,1): two captures in one move.
    play(&mut p, "d4e5");
    assert_eq!(state(&p), "e5:cell=f5");
    assert_eq!((p.occupied() & p.color_set(Color::Black)).count(), 1);
    // The other spelling (from the other cell) names the same move.
    let q = at(
        &[("d4", 'A'), ("e4", 'A'), ("a1", 'N'), ("p16", 'n')],
        "w",
        "d4:cell=e4",
    );
    let a = q.parse_move("d4e5", Dialect::UCI).unwrap();
    let b = q.parse_move("e4f5", Dialect::UCI).unwrap();
    assert_eq!(a, b);
    // Moving along its own length: the leading cell names the move (d4e4 is a contraction).
    let along = q.parse_move("e4h4", Dialect::UCI).unwrap();
    assert_eq!(along.kind(), MoveKind::Normal);
    assert_eq!(
        q.parse_move("d4e4", Dialect::UCI).unwrap().kind(),
        MoveKind::Contract
    );
}

#[test]
fn mc_8_capturing_either_cell_captures_the_whole_amoeba() {
    let mut p = at(
        &[
            ("d4", 'A'),
            ("e4", 'A'),
            ("e9", 'c'),
            ("a1", 'N'),
            ("p16", 'n'),
        ],
        "b",
        "d4:cell=e4",
    );
    play(&mut p, "e9e4");
    assert!(p
        .cell(GEOMETRY.parse_square_exact("d4", RankBase::ONE).unwrap())
        .is_empty());
    assert_eq!(state(&p), "-");
}

#[test]
fn mc_8_expanded_amoeba_gives_check() {
    let p = at(
        &[("d4", 'A'), ("e4", 'A'), ("a1", 'N'), ("g6", 'n')],
        "b",
        "d4:cell=e4",
    );
    assert!(p.in_check());
}

// ---------- MC-10: platelet ----------

#[test]
fn mc_10_bond_walls_and_breaking() {
    let mut p = at(
        &[
            ("d4", 'T'),
            ("e5", 'T'),
            ("d10", 'c'),
            ("a1", 'N'),
            ("p16", 'n'),
        ],
        "w",
        "-",
    );
    let m = moves_from(&p, "d4");
    assert!(m.contains(&"d4e5".to_string()), "{m:?}");
    play(&mut p, "d4e5");
    assert_eq!(state(&p), "d4:wall;e5:wall");
    // Wall members cannot be captured.
    let m = moves_from(&p, "d10");
    assert!(!m.contains(&"d10d4".to_string()) && m.contains(&"d10d5".to_string()));
    // Two wall members do not bond again.
    play(&mut p, "p16o16");
    assert!(!moves_from(&p, "d4").contains(&"d4e5".to_string()));
    // A move out of the wall breaks the whole wall.
    play(&mut p, "d4d3");
    assert_eq!(state(&p), "-");
}

#[test]
fn mc_10_wall_member_still_checks_and_lone_platelet_joins() {
    let p = at(
        &[("d4", 'T'), ("e4", 'T'), ("c5", 'n'), ("a1", 'N')],
        "b",
        "d4:wall;e4:wall",
    );
    assert!(p.in_check());
    let p = at(
        &[
            ("d4", 'T'),
            ("e4", 'T'),
            ("f5", 'T'),
            ("a1", 'N'),
            ("p16", 'n'),
        ],
        "w",
        "d4:wall;e4:wall",
    );
    assert!(moves_from(&p, "f5").contains(&"f5e4".to_string()));
}

// ---------- MC-11: virus ----------

#[test]
fn mc_11_virus_moves_and_infects_only() {
    let p = at(
        &[("e5", 'V'), ("f6", 't'), ("a1", 'N'), ("p16", 'n')],
        "w",
        "-",
    );
    assert_eq!(
        moves_from(&p, "e5"),
        sorted(&["e5d4", "e5d5", "e5d6", "e5e4", "e5e6", "e5f4", "e5f5", "e5f6"])
    );
    let m = p.parse_move("e5f6", Dialect::UCI).unwrap();
    assert_eq!(m.kind(), MoveKind::Infect);
}

#[test]
fn mc_11_infection_freezes_then_hatch_is_compulsory() {
    let mut p = at(
        &[
            ("e5", 'V'),
            ("f6", 't'),
            ("a10", 'p'),
            ("a1", 'N'),
            ("p16", 'n'),
        ],
        "w",
        "-",
    );
    play(&mut p, "e5f6");
    assert_eq!(state(&p), "f6:infected=V/1");
    // The victim cannot move.
    assert!(moves_from(&p, "f6").is_empty());
    play(&mut p, "a10a9");
    play(&mut p, "a1a2");
    assert_eq!(state(&p), "f6:infected=V/0");
    play(&mut p, "a9a8");
    // White's second turn after the infection: only the hatch.
    assert_eq!(
        moves(&p),
        sorted(&["V@e5", "V@e6", "V@e7", "V@f5", "V@f7", "V@g5", "V@g6", "V@g7"])
    );
    play(&mut p, "V@g7");
    assert_eq!(state(&p), "-");
    let f6 = p.cell(GEOMETRY.parse_square_exact("f6", RankBase::ONE).unwrap());
    let g7 = p.cell(GEOMETRY.parse_square_exact("g7", RankBase::ONE).unwrap());
    assert_eq!(
        (f6.kind, f6.color(), g7.kind, g7.color()),
        (VIRUS, Color::White, VIRUS, Color::White)
    );
    assert_eq!(p.halfmove_clock(), 0);
}

#[test]
fn mc_11_no_empty_square_only_the_virus_returns() {
    let mut around = vec![("f6", 't'), ("a1", 'N'), ("p16", 'n')];
    for s in ["e5", "e6", "e7", "f5", "f7", "g5", "g6", "g7"] {
        around.push((s, 'P'));
    }
    let p = at(&around, "w", "f6:infected=V/0");
    assert_eq!(moves(&p), sorted(&["V@f6"]));
}

#[test]
fn mc_11_hatch_that_leaves_the_neuron_attacked_waits() {
    let mut p = at(
        &[("f6", 't'), ("a1", 'N'), ("a10", 'c'), ("p16", 'n')],
        "w",
        "f6:infected=V/0",
    );
    assert!(p.in_check());
    assert_eq!(moves(&p), sorted(&["a1b1", "a1b2"]));
    play(&mut p, "a1b1");
    play(&mut p, "a10a9");
    assert!(
        moves(&p).iter().all(|m| m.starts_with("V@")),
        "{:?}",
        moves(&p)
    );
}

#[test]
fn mc_11_a_neuron_is_never_infected_but_is_checked() {
    let p = at(&[("e5", 'V'), ("f6", 'n'), ("a1", 'N')], "b", "-");
    assert!(p.in_check());
    // With White to move the Black Neuron would be in check: no such position exists, so
    // an infection of a Neuron never arises.
    let f = fen(&[("e5", 'V'), ("f6", 'n'), ("a1", 'N')], "w", "-");
    assert!(matches!(Micro::from_fen(&f), Err(FenError::Impossible(_))));
}

#[test]
fn mc_11_bacterium_infects_and_returns_as_itself() {
    let mut p = at(
        &[
            ("e5", 'B'),
            ("f6", 'c'),
            ("a10", 'p'),
            ("a1", 'N'),
            ("p16", 'n'),
        ],
        "w",
        "e5:+V",
    );
    play(&mut p, "e5f6v");
    assert_eq!(state(&p), "f6:infected=B+V/1");
    play(&mut p, "a10a9");
    play(&mut p, "a1a2");
    play(&mut p, "a9a8");
    play(&mut p, "V@g7");
    // Back as a Bacterium that absorbed the Paramecium on top of the Virus.
    assert_eq!(state(&p), "f6:+CV");
    assert_eq!(
        p.cell(GEOMETRY.parse_square_exact("f6", RankBase::ONE).unwrap())
            .kind,
        BACTERIUM
    );
}

// ---------- MC-12: prion ----------

#[test]
fn mc_12_prion_rides_either_side_and_kills() {
    let mut p = at(
        &[
            ("e5", 'R'),
            ("d4", 'T'),
            ("f6", 'p'),
            ("e6", 'r'),
            ("d5", 'T'),
            ("a1", 'N'),
            ("p16", 'n'),
        ],
        "w",
        "d5:wall;d4:wall",
    );
    // Not onto a lone prion, not onto a wall member.
    assert_eq!(moves_from(&p, "e5"), sorted(&["e5f6"]));
    play(&mut p, "e5f6");
    assert_eq!(state(&p), "d4:wall;d5:wall;f6:rider=R");
    // The host's owner moves it; the prion goes along.
    play(&mut p, "f6f5");
    assert_eq!(state(&p), "d4:wall;d5:wall;f5:rider=R");
    // The prion's owner kills the host.
    assert!(moves(&p).contains(&"R@f5".to_string()));
    play(&mut p, "R@f5");
    let f5 = p.cell(GEOMETRY.parse_square_exact("f5", RankBase::ONE).unwrap());
    assert_eq!((f5.kind, f5.color()), (PRION, Color::White));
}

#[test]
fn mc_12_rider_passes_to_the_capturer_and_never_checks() {
    let mut p = at(
        &[("f6", 'p'), ("f2", 'C'), ("a1", 'N'), ("p16", 'n')],
        "w",
        "f6:rider=r",
    );
    play(&mut p, "f2f6");
    assert_eq!(state(&p), "f6:rider=r");
    assert_eq!(
        p.cell(GEOMETRY.parse_square_exact("f6", RankBase::ONE).unwrap())
            .kind,
        PARAMECIUM
    );
    let p = at(&[("e5", 'R'), ("f6", 'n'), ("a1", 'N')], "b", "-");
    assert!(!p.in_check());
}

/// Number of Prions on the board, alone or riding.
fn prions(p: &Micro) -> usize {
    let alone = p
        .fen()
        .split(' ')
        .next()
        .unwrap()
        .matches(['R', 'r'])
        .count();
    alone + state(p).matches("rider=").count()
}

/// MC-12 (issue 22): the rider of a captured host is lost when the capturer cannot be ridden
/// (a Neuron) or already carries a Prion.
#[test]
fn mc_12_rider_lost_to_a_neuron_or_a_capturer_that_carries_one() {
    let mut p = at(&[("a1", 'N'), ("b2", 'p'), ("p16", 'n')], "w", "b2:rider=r");
    assert_eq!(prions(&p), 1);
    play(&mut p, "a1b2");
    assert_eq!((state(&p).as_str(), prions(&p)), ("-", 0));
    let mut p = at(
        &[("f6", 'p'), ("f2", 'C'), ("a1", 'N'), ("p16", 'n')],
        "w",
        "f2:rider=R;f6:rider=r",
    );
    assert_eq!(prions(&p), 2);
    play(&mut p, "f2f6");
    assert_eq!((state(&p).as_str(), prions(&p)), ("f6:rider=R", 1));
}

/// MC-12 (issue 22): an expanded amoeba that captures two ridden hosts in one move takes the
/// rider of the lower square (rank first, then file); the other rider leaves the board.
#[test]
fn mc_12_double_capture_takes_the_rider_of_the_lower_square() {
    // Side by side (e5 is lower than f5 by file), then one above the other (f5 below f6).
    for (cells, victims, mv, (lo, hi), want) in [
        (
            "d4:cell=e4",
            ["e5", "f5"],
            "d4e5",
            ("r", "R"),
            "e5:cell=f5,rider=r",
        ),
        (
            "d4:cell=e4",
            ["e5", "f5"],
            "e4f5",
            ("R", "r"),
            "e5:cell=f5,rider=R",
        ),
        (
            "e4:cell=e5",
            ["f5", "f6"],
            "e4f5",
            ("R", "r"),
            "f5:cell=f6,rider=R",
        ),
        (
            "e4:cell=e5",
            ["f5", "f6"],
            "e5f6",
            ("r", "R"),
            "f5:cell=f6,rider=r",
        ),
    ] {
        let other = &cells[cells.len() - 2..];
        let lower = &cells[..2];
        let mut p = at(
            &[
                (lower, 'A'),
                (other, 'A'),
                (victims[0], 'p'),
                (victims[1], 'p'),
                ("a1", 'N'),
                ("p16", 'n'),
            ],
            "w",
            &format!(
                "{cells};{}:rider={lo};{}:rider={hi}",
                victims[0], victims[1]
            ),
        );
        play(&mut p, mv);
        assert_eq!(
            (state(&p), prions(&p)),
            (want.to_string(), 1),
            "{cells} {mv}"
        );
    }
}

/// MC-12 (issue 22): a ridden Virus cannot infect and a ridden piece cannot itself ride (a
/// ridden Bacterium loses both options while it carries the Prion); its other moves stay.
#[test]
fn mc_12_a_ridden_piece_neither_infects_nor_rides() {
    let free = at(
        &[("e4", 'V'), ("e5", 'c'), ("a1", 'N'), ("p16", 'n')],
        "w",
        "-",
    );
    assert!(moves_from(&free, "e4").contains(&"e4e5".to_string()));
    let ridden = at(
        &[("e4", 'V'), ("e5", 'c'), ("a1", 'N'), ("p16", 'n')],
        "w",
        "e4:rider=r",
    );
    let m = moves_from(&ridden, "e4");
    assert!(
        !m.contains(&"e4e5".to_string()) && m.contains(&"e4d4".to_string()),
        "{m:?}"
    );
    // A Bacterium with the Virus's and the Prion's gifts, next to an enemy and a friend.
    let pieces = [
        ("e4", 'B'),
        ("e5", 'c'),
        ("d4", 'T'),
        ("a1", 'N'),
        ("p16", 'n'),
    ];
    let free = moves_from(&at(&pieces, "w", "e4:+RV"), "e4");
    for m in ["e4e5v", "e4d4r", "e4e5r"] {
        assert!(free.contains(&m.to_string()), "{m} missing from {free:?}");
    }
    let ridden = moves_from(&at(&pieces, "w", "e4:+RV,rider=r"), "e4");
    assert!(
        ridden.iter().all(|m| !m.ends_with(['v', 'r'])),
        "{ridden:?}"
    );
    assert!(
        ridden.contains(&"e4e5".to_string()),
        "it still captures: {ridden:?}"
    );
}

// ---------- MC-13: endings ----------

#[test]
fn mc_13_endings() {
    let p = at(&[("a1", 'N'), ("p16", 'n')], "w", "-");
    assert_eq!(p.outcome().unwrap().reason(), "Only the Neurons are left");
    // Checkmate: two paramecia.
    let p = at(
        &[("a1", 'N'), ("p16", 'n'), ("o2", 'C'), ("p1", 'C')],
        "b",
        "-",
    );
    let o = p.outcome().unwrap();
    assert_eq!((o.score(), o.reason()), ("1-0", "White mates"));
    // Stalemate.
    let p = at(
        &[("a1", 'N'), ("p16", 'n'), ("b9", 'c'), ("i2", 'c')],
        "w",
        "-",
    );
    assert_eq!(p.outcome().unwrap().reason(), "Stalemate");
    // 100 plies without capture, pawn move or hatch.
    let f = format!(
        "{} w - 100 80 -",
        placement(&[("a1", 'N'), ("p16", 'n'), ("h8", 'C')])
    );
    assert_eq!(pos(&f).outcome().unwrap().reason(), "100-ply rule");
}

// ---------- interactions of powers ----------

#[test]
fn interaction_prion_riding_an_amoeba_that_expands() {
    let mut p = at(&[("h8", 'A'), ("b1", 'N'), ("o16", 'n')], "w", "h8:rider=R");
    play(&mut p, "h8h9");
    assert_eq!(state(&p), "h8:cell=h9,rider=R");
    play(&mut p, "o16n16");
    // The whole amoeba moves with its rider; a kill may leave the prion on either cell.
    assert!(moves(&p).contains(&"R@h8".to_string()) && moves(&p).contains(&"R@h9".to_string()));
    play(&mut p, "h8j10");
    assert_eq!(state(&p), "j10:cell=j11,rider=R");
}

#[test]
fn interaction_virus_infects_a_prions_host() {
    let mut p = at(
        &[
            ("e5", 'V'),
            ("f6", 'p'),
            ("a10", 'p'),
            ("a1", 'N'),
            ("p16", 'n'),
        ],
        "w",
        "f6:rider=r",
    );
    play(&mut p, "e5f6");
    assert_eq!(state(&p), "f6:rider=r;f6:infected=V/1");
    play(&mut p, "a10a9");
    play(&mut p, "a1a2");
    play(&mut p, "a9a8");
    play(&mut p, "V@e5");
    // The prion now rides the returned virus.
    assert_eq!(state(&p), "f6:rider=r");
    assert_eq!(
        p.cell(GEOMETRY.parse_square_exact("f6", RankBase::ONE).unwrap())
            .kind,
        VIRUS
    );
}

#[test]
fn interaction_bacterium_with_virus_and_amoeba_powers() {
    let mut p = at(
        &[("e5", 'B'), ("f6", 'p'), ("a1", 'N'), ("p16", 'n')],
        "w",
        "e5:+AV",
    );
    let m = moves_from(&p, "e5");
    for want in ["e5f6", "e5f6v", "e5e6a", "e5h5", "e5c7"] {
        assert!(m.contains(&want.to_string()), "{want} in {m:?}");
    }
    play(&mut p, "e5e6a");
    assert_eq!(state(&p), "e5:+AV,cell=e6");
    play(&mut p, "p16o16");
    // Expanded, it neither infects nor rides; it moves rigidly with all its moves.
    let m = moves(&p);
    assert!(!m.iter().any(|x| x.ends_with('v')), "{m:?}");
    for want in ["e6e7", "e5e6", "e6e5", "e5g6"] {
        assert!(m.contains(&want.to_string()), "{want} in {m:?}");
    }
}

#[test]
fn interaction_wall_member_next_to_an_infected_piece() {
    let p = at(
        &[
            ("d4", 'T'),
            ("e4", 'T'),
            ("f4", 'T'),
            ("e5", 'v'),
            ("a1", 'N'),
            ("p16", 'n'),
        ],
        "w",
        "d4:wall;e4:wall;f4:infected=v/1",
    );
    // The infected platelet neither moves nor joins the wall; the wall may not bond with it.
    assert!(moves_from(&p, "f4").is_empty());
    assert!(!moves_from(&p, "e4").contains(&"e4f4".to_string()));
    // A virus cannot infect a wall member.
    let p = at(
        &[
            ("d4", 'T'),
            ("e4", 'T'),
            ("e5", 'v'),
            ("a1", 'N'),
            ("p16", 'n'),
        ],
        "b",
        "d4:wall;e4:wall",
    );
    let m = moves_from(&p, "e5");
    assert!(
        !m.contains(&"e5e4".to_string()) && !m.contains(&"e5d4".to_string()),
        "{m:?}"
    );
}

#[test]
fn interaction_promotion_of_a_ridden_pawn() {
    let mut p = at(
        &[("e15", 'P'), ("a1", 'N'), ("p16", 'n')],
        "w",
        "e15:rider=r",
    );
    play(&mut p, "e15e16w");
    assert_eq!(state(&p), "e16:rider=r");
    assert_eq!(
        p.cell(GEOMETRY.parse_square_exact("e16", RankBase::ONE).unwrap())
            .kind,
        WBC
    );
}

#[test]
fn fen_errors_are_typed() {
    assert!(Micro::from_fen("").is_err());
    assert!(Micro::from_fen("garbage w - 0 1").is_err());
    let two = fen(&[("a1", 'N'), ("b1", 'N'), ("p16", 'n')], "w", "-");
    assert!(matches!(
        Micro::from_fen(&two),
        Err(FenError::Impossible(_))
    ));
    let bad_state = fen(&NEURONS, "w", "c3:wall");
    assert!(Micro::from_fen(&bad_state).is_err());
    let neuron_infected = fen(&NEURONS, "w", "a1:infected=v/1");
    assert!(Micro::from_fen(&neuron_infected).is_err());
}

#[test]
fn mc_8_a_piece_on_the_second_cells_path_is_pinned() {
    // The black amoeba on l4+m4 slides (-1,-1) three times: l4→i1 takes the Neuron only if
    // m4→j1 is possible, which the red blood cell on k2 blocks. Found by a random playout.
    let p = at(
        &[
            ("i1", 'N'),
            ("j1", 'T'),
            ("k2", 'P'),
            ("l4", 'a'),
            ("m4", 'a'),
            ("p16", 'n'),
        ],
        "w",
        "l4:cell=m4",
    );
    assert!(!p.in_check());
    // Only k2k3 keeps a path blocked (the l4 cell's).
    assert_eq!(moves_from(&p, "k2"), sorted(&["k2k3"]));
}

/// Found by tests/it/playouts.rs: a Virus infected the upper cell (l4) of an expanded Bacterium
/// (l3–l4). The FEN was right, but reading it copied the lower cell onto the upper one and
/// dropped the infection from both cells: the piece came back active, giving check, and the
/// FEN was refused as "White is in check but it is Black's move".
#[test]
fn infection_of_the_upper_cell_of_an_expanded_piece_reads_back() {
    let before = "6r4r3b/8v5t1/10w1n3/w2p1p2p7/2p1v11/3p2pp6p1/11p4/pp2P6P4/2t9P2p/\
                  2P5P5PP/P12P2/3P12/1P6RPVb4/4T6b4/2V6N6/5V8R1 w - 3 236 l3:+WA,cell=l4";
    let mut p = Micro::from_fen(before).unwrap();
    let m = p.parse_move("k4l4", Dialect::UCI).unwrap();
    p.make_move(m);
    let fen = p.fen();
    assert!(fen.ends_with("l3:+WA,cell=l4;l4:infected=V/1"), "{fen}");
    let again = Micro::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(again.fen(), fen);
    assert_eq!(again.hash(), p.hash());
    assert_eq!(again.infected_set(), p.infected_set());
    assert!(!again.in_check());
}

/// MC-12 as data: exactly the Neuron and the Prion have `NO_RIDER` (a Bacterium that ate a
/// Prion rides but may still be ridden: the gift is `RIDE` only); and MC-7: the types whose
/// gift is empty (Red blood cell, Neuron, Bacterium) are the ones a Bacterium never records.
#[test]
fn mc_12_no_rider_and_mc_7_empty_gifts_are_data() {
    let no_rider: Vec<u8> = (0..TYPES as u8)
        .filter(|&t| PIECES[t as usize].powers.has(Powers::NO_RIDER))
        .collect();
    assert_eq!(no_rider, [NEURON, PRION]);
    assert!(GIFTS.iter().all(|g| !g.powers.has(Powers::NO_RIDER)));
    assert_eq!(GIVES_NOTHING, (1 << RBC) | (1 << NEURON) | (1 << BACTERIUM));
}

/// The attack test's classes are derived from the pieces' atoms and powers (MC-4 … MC-12):
/// king-step attackers by capture or by infection (the Virus, MC-11), leap attackers beyond the
/// king steps (the pawn's diagonals, MC-3; knight and longer jumps), and the royal Neuron,
/// never infected.
#[test]
fn attack_classes_come_from_the_pieces() {
    let t = tables();
    assert_eq!(t.king_attackers, [NEURON, BACTERIUM, PLATELET, VIRUS]);
    assert_eq!(t.leap_attackers, [RBC, PARAMECIUM, BACTERIUM, AMOEBA]);
    assert_eq!((ROYAL_TYPE, PAWN_TYPE), (NEURON, RBC));
}
