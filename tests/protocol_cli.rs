//! The command line: `perft`, `bench`, and the protocol loop's exit paths.

use std::process::{Command, Output, Stdio};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cellmate"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("cannot run cellmate")
}

fn stdout(o: &Output) -> Vec<String> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn perft_divide_from_start() {
    let o = run(&["perft", "--variant", "chess", "--depth", "3", "--divide"]);
    assert!(o.status.success());
    let lines = stdout(&o);
    // Divide lines, a blank line, then the totals.
    let blank = lines.iter().position(|l| l.is_empty()).expect("blank line");
    let divide = &lines[..blank];
    let sum: u64 = divide
        .iter()
        .map(|l| l.split_once(": ").unwrap().1.parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 8902);
    assert_eq!(divide.len(), 20, "{lines:#?}");
    assert!(lines.contains(&"e2e4: 600".to_string()));
    assert!(lines.contains(&"Nodes searched: 8902".to_string()));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Time: ") && l.ends_with(" ms")));
    assert!(lines.iter().any(|l| l.starts_with("Nodes/s: ")));
}

#[test]
fn perft_from_fen_and_xboard_variant_name() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let o = run(&[
        "perft",
        "--variant",
        "normal",
        "--fen",
        kiwipete,
        "--depth",
        "2",
    ]);
    assert!(o.status.success());
    assert!(stdout(&o).contains(&"Nodes searched: 2039".to_string()));
    // The variant defaults to chess.
    let o = run(&["perft", "--depth", "1"]);
    assert!(stdout(&o).contains(&"Nodes searched: 20".to_string()));
}

#[test]
fn perft_errors_go_to_stderr_with_failure() {
    for args in [
        vec!["perft", "--variant", "shogi", "--depth", "1"],
        vec!["perft", "--fen", "garbage", "--depth", "1"],
        vec!["perft", "--depth", "x"],
        vec!["perft"],
    ] {
        let o = run(&args);
        assert!(!o.status.success(), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        assert!(!o.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn bench_prints_nodes_and_nps() {
    let o = run(&["bench", "--depth", "2"]);
    assert!(o.status.success());
    let lines = stdout(&o);
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert!(lines[0]
        .strip_prefix("Nodes: ")
        .unwrap()
        .parse::<u64>()
        .is_ok());
    assert!(lines[1]
        .strip_prefix("NPS: ")
        .unwrap()
        .parse::<u64>()
        .is_ok());
}

#[test]
fn empty_input_exits_quietly() {
    let o = run(&[]);
    assert!(o.status.success());
    assert!(o.stdout.is_empty());
}
