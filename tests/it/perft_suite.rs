//! The standard 126-position perft suite (`tests/data/perftsuite.epd`): every position to every
//! depth whose node count is at most 1,000,000 in the default run; all depths (up to 525 million
//! nodes) with `cargo test --release --test it perft_suite:: -- --ignored` / `make perft`.

use cellmate::core::{perft, Variant};
use cellmate::variants::chess::Chess;

struct Entry {
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn suite() -> Vec<Entry> {
    include_str!("../data/perftsuite.epd")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let mut w = p.split_whitespace();
                    let d = w.next().unwrap().trim_start_matches('D').parse().unwrap();
                    let n = w.next().unwrap().parse().unwrap();
                    (d, n)
                })
                .collect();
            Entry { fen, counts }
        })
        .collect()
}

fn run(limit: u64) -> usize {
    let mut checked = 0;
    for e in suite() {
        let mut pos = Chess::from_fen(&e.fen).unwrap_or_else(|err| panic!("{}: {err}", e.fen));
        for &(d, n) in &e.counts {
            if n > limit {
                continue;
            }
            assert_eq!(perft(&mut pos, d), n, "{} depth {}", e.fen, d);
            assert_eq!(pos.fen(), Chess::from_fen(&e.fen).unwrap().fen());
            checked += 1;
        }
    }
    checked
}

#[test]
fn suite_has_126_positions() {
    assert_eq!(suite().len(), 126);
}

#[test]
fn perft_suite_up_to_a_million_nodes() {
    let checked = run(1_000_000);
    // Every position is checked to at least depth 4 under this limit.
    assert!(checked >= 126 * 4, "only {checked} counts checked");
}

#[test]
#[ignore = "full depths: minutes; run with `make perft`"]
fn perft_suite_full_depths() {
    assert_eq!(
        run(u64::MAX),
        suite().iter().map(|e| e.counts.len()).sum::<usize>()
    );
}
