//! PGN output. Moves are written in the UCI coordinate spelling of the variant (`e2e4`,
//! `0000` for a pass): the variants have no SAN.

use std::time::{SystemTime, UNIX_EPOCH};

use super::game::{GameRecord, MoveNote};
use crate::core::Color;

/// Today's date as `YYYY.MM.DD` (UTC).
pub fn today() -> String {
    let days = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// One game as PGN (tags, movetext wrapped at 80 columns, a blank line after).
pub fn write_game(g: &GameRecord, event: &str, date: &str, round: usize) -> String {
    let tc = if g.limits[0] == g.limits[1] {
        g.limits[0].pgn_tag()
    } else {
        format!("{}/{}", g.limits[0].pgn_tag(), g.limits[1].pgn_tag())
    };
    let mut out = String::new();
    let mut tag =
        |k: &str, v: &str| out.push_str(&format!("[{k} \"{}\"]\n", crate::pgn::escape(v)));
    tag("Event", event);
    tag("Site", "cellmate match");
    tag("Date", date);
    tag("Round", &round.to_string());
    tag("White", &g.names[0]);
    tag("Black", &g.names[1]);
    tag("Result", g.result.score());
    tag("Variant", g.variant.name());
    tag("SetUp", "1");
    tag("FEN", &g.start_fen);
    tag("TimeControl", &tc);
    tag("PlyCount", &g.moves.len().to_string());
    tag("Termination", g.result.termination.pgn());
    out.push('\n');

    // The side of each move, from the rules (replaying the game).
    let mut sides = Vec::with_capacity(g.moves.len());
    if let Ok(mut pos) = g.variant.from_fen(&g.start_fen) {
        for m in &g.moves {
            sides.push(pos.side_to_move());
            match pos.parse_move(m, crate::core::Dialect::UCI) {
                Ok(mv) => pos.make_move(mv),
                Err(_) => break,
            }
        }
    }
    let mut tokens = Vec::new();
    let mut number = 1;
    for (i, m) in g.moves.iter().enumerate() {
        let side = sides.get(i).copied().unwrap_or(Color::White);
        let after_black = i == 0 || sides.get(i - 1) == Some(&Color::Black);
        if side == Color::White {
            tokens.push(format!("{number}."));
        } else if after_black {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.clone());
        if i + 1 == g.opening_plies {
            tokens.push("{opening}".into());
        }
        if let Some(n) = i.checked_sub(g.opening_plies).and_then(|k| g.notes.get(k)) {
            tokens.push(format!("{{{}}}", note(n)));
        }
        if side == Color::Black {
            number += 1;
        }
    }
    tokens.push(format!("{{{}}}", g.result.reason.replace('}', ")")));
    tokens.push(g.result.score().to_string());
    out.push_str(&crate::pgn::wrap(&tokens));
    out.push('\n');
    out
}

/// A move's comment as cutechess-cli writes it: the score in pawns from the mover's view
/// (`+M3` / `-M3` for a mate in 3 moves), `/` and the depth, and the seconds the move took:
/// `+0.35/12 0.521s`. What the engine did not report is left out (`0.521s`).
fn note(n: &MoveNote) -> String {
    let mut out = String::new();
    if let Some(r) = n.report {
        let s = r.score;
        let sign = match s.signum() {
            1 => "+",
            -1 => "-",
            _ => "",
        };
        let a = s.unsigned_abs();
        if a >= 90_000 {
            out.push_str(&format!("{sign}M{}", a.abs_diff(100_000)));
        } else {
            out.push_str(&format!("{sign}{}.{:02}", a / 100, a % 100));
        }
        if let Some(d) = r.depth {
            out.push_str(&format!("/{d}"));
        }
        out.push(' ');
    }
    let secs = format!("{:.3}", n.elapsed.as_secs_f64());
    out.push_str(secs.trim_end_matches('0').trim_end_matches('.'));
    out.push('s');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::adjudicate::Report;
    use crate::referee::game::{GameResult, Termination};
    use crate::referee::spec::Limit;
    use crate::variants::VariantKind;
    use std::time::Duration;

    #[test]
    fn a_game_in_pgn() {
        let g = GameRecord {
            variant: VariantKind::Chess,
            start_fen: VariantKind::Chess.startpos().fen(),
            from_startpos: true,
            names: ["A \"x\"".into(), "B".into()],
            limits: [Limit::Depth(1); 2],
            moves: vec!["f2f3".into(), "e7e5".into(), "g2g4".into(), "d8h4".into()],
            opening_plies: 1,
            notes: vec![
                MoveNote {
                    report: Some(Report {
                        score: -35,
                        depth: Some(12),
                    }),
                    elapsed: Duration::from_millis(521),
                },
                MoveNote {
                    report: None,
                    elapsed: Duration::from_millis(1000),
                },
                MoveNote {
                    report: Some(Report {
                        score: 99_999,
                        depth: None,
                    }),
                    elapsed: Duration::from_millis(10),
                },
            ],
            result: GameResult {
                winner: Some(Color::Black),
                termination: Termination::Normal,
                reason: "Black mates".into(),
            },
            stalls: Vec::new(),
            longest_silence: [Duration::ZERO; 2],
            least_left_ms: [None; 2],
        };
        let text = write_game(&g, "test", "2024.01.02", 3);
        assert!(text.contains("[White \"A \\\"x\\\"\"]\n"));
        assert!(text.contains("[Result \"0-1\"]\n"));
        assert!(text.contains("[Variant \"chess\"]\n[SetUp \"1\"]\n[FEN \"rnbqkbnr/"));
        assert!(text.contains("[Termination \"normal\"]\n"));
        assert!(text.contains("[Round \"3\"]"));
        assert!(text.ends_with(
            "\n\n1. f2f3 {opening} e7e5 {-0.35/12 0.521s} 2. g2g4 {1s} d8h4 {+M1 0.01s}\n\
             {Black mates} 0-1\n\n"
        ));
        assert_eq!(today().len(), 10);
    }

    #[test]
    fn move_notes_as_cutechess_writes_them() {
        let n = |score: Option<i32>, depth, ms| {
            note(&MoveNote {
                report: score.map(|score| Report { score, depth }),
                elapsed: Duration::from_millis(ms),
            })
        };
        assert_eq!(n(Some(0), Some(1), 0), "0.00/1 0s");
        assert_eq!(n(Some(7), Some(30), 1234), "+0.07/30 1.234s");
        assert_eq!(n(Some(-1250), Some(9), 100), "-12.50/9 0.1s");
        assert_eq!(n(Some(99_997), Some(20), 2000), "+M3/20 2s");
        assert_eq!(n(Some(-99_998), None, 5), "-M2 0.005s");
        // XBoard's mate scores (100000 + N) and the clamped extremes.
        assert_eq!(n(Some(100_003), Some(12), 1), "+M3/12 0.001s");
        assert_eq!(n(Some(-1_000_000), Some(1), 1), "-M900000/1 0.001s");
        assert_eq!(n(Some(i32::MIN), None, 1), "-M2147383648 0.001s");
        assert_eq!(n(None, None, 60_000), "60s");
    }
}
