//! The command line: `perft`, `bench`, and the protocol loop's exit paths.

use std::process::{Command, Output, Stdio};

use crate::protocol_support::Engine;

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

/// Runs the protocol loop with `args`, sends UCI `commands` (ending with a `go`), and returns
/// stdout's lines up to `bestmove`; then ends the input and checks the exit.
fn run_uci(args: &[&str], commands: &str) -> Vec<String> {
    let mut engine = Engine::start_with_args(args);
    for line in commands.lines() {
        engine.send(line);
    }
    let lines = engine.read_until(|l| l.starts_with("bestmove"));
    engine.finish();
    lines
}

/// The number after `key` in the last line that has it (`info … score cp N`, `… nodes N`).
fn last_value(lines: &[String], key: &str) -> i64 {
    let line = lines
        .iter()
        .rev()
        .find(|l| l.contains(key))
        .unwrap_or_else(|| panic!("no `{key}` in {lines:#?}"));
    let after = line.split(key).nth(1).unwrap();
    after.split_whitespace().next().unwrap().parse().unwrap()
}

/// The score of a depth-1 search, from the last `info … score cp N` line.
fn depth1_score(lines: &[String]) -> i64 {
    last_value(lines, " score cp ")
}

/// The Microorganism start with White's White blood cell (a1) missing, White to move, and
/// the FEN's state field `state`; no capture is possible in the first move, so the material
/// difference is the same after every move.
fn micro_depth1_score(args: &[&str], state: &str) -> i64 {
    let go = format!(
        "uci\nsetoption name UCI_Variant value microorganism\nposition fen \
         wabtrvtcntvrtbaw/pppppppppppppppp/16/16/16/16/16/16/16/16/16/16/16/16/\
         PPPPPPPPPPPPPPPP/1ABTRVTCNTVRTBAW w - 0 1 {state}\ngo depth 1\n"
    );
    depth1_score(&run_uci(args, &go))
}

/// A malformed table: one error line on stderr, exit status 2, no engine started.
fn assert_refused(flag: &str, bad: &str) {
    let o = run(&[flag, bad]);
    assert_eq!(o.status.code(), Some(2), "{bad}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with(&format!("error: {flag}: ")), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(o.stdout.is_empty());
}

/// `--micro-values` (for tuning by games, scripts/spsa.py) replaces the Microorganism piece
/// values of the process: a White blood cell worth 1464 instead of its 464 lowers White's
/// score by exactly 1000 (White's is the one missing).
#[test]
fn micro_values_flag_sets_the_piece_values() {
    let default = micro_depth1_score(&[], "-");
    let same = micro_depth1_score(&["--micro-values", "100:0:464:984:499:753:55:351:332"], "-");
    let dearer = micro_depth1_score(
        &["--micro-values", "100:0:1464:984:499:753:55:351:332"],
        "-",
    );
    assert_eq!(same, default);
    assert_eq!(default - dearer, 1000);
    for bad in [
        "100:0:500",
        "100:0:500:1100:450:650:180:350:x",
        "1:2:3:4:5:6:7:8:9:10",
    ] {
        assert_refused("--micro-values", bad);
    }
}

/// `--micro-gifts` replaces what a Bacterium gains for each absorbed type (MC-7): White's
/// Bacterium on c1 has absorbed a White blood cell's gift (`c1:+W`); a gift worth 1540
/// instead of its 540 raises White's score by exactly 1000.
#[test]
fn micro_gifts_flag_sets_the_gift_values() {
    let default = micro_depth1_score(&[], "c1:+W");
    let same = micro_depth1_score(&["--micro-gifts", "0:0:540:580:0:410:16:217:75"], "c1:+W");
    let dearer = micro_depth1_score(&["--micro-gifts", "0:0:1540:580:0:410:16:217:75"], "c1:+W");
    assert_eq!(same, default);
    assert_eq!(dearer - default, 1000);
    assert_refused("--micro-gifts", "0:0:500");
}

/// `--micro-terms` replaces the evaluation's other terms: with a Black Virus's infection of
/// White's red blood cell on e2 pending (MC-11), a pending infection worth 189 % of its
/// victim instead of 89 % lowers White's score by exactly one red blood cell (100).
#[test]
fn micro_terms_flag_sets_the_evaluation_terms() {
    let state = "e2:infected=v/1";
    let default = micro_depth1_score(&[], state);
    let same = micro_depth1_score(&["--micro-terms", "38:37:89:74:73:119:20:50"], state);
    let dearer = micro_depth1_score(&["--micro-terms", "38:37:189:74:73:119:20:50"], state);
    assert_eq!(same, default);
    assert_eq!(default - dearer, 100);
    for bad in [
        "40:25:50",
        "40:25:50:33:98:48",
        "40:25:50:33:98:48:1:2:3",
        "40:25:50:33:98:48:1:y",
    ] {
        assert_refused("--micro-terms", bad);
    }
}

/// The largest and smallest tables `--micro-terms`, `--micro-values` and `--micro-gifts`
/// accept (±100000 each) still give a search that ends: the static evaluation is kept below
/// the mate scores, so a Microorganism ending (one of the baseline row's) reports the highest
/// score short of mate and a best move. Before, the aspiration loop never settled on an
/// evaluation beyond its window and the engine ignored `stop` and `quit`.
#[test]
fn extreme_micro_tables_still_give_a_move() {
    let fen = "4r2n8/7tt2V4/16/16/16/12v3/6w9/2v13/8W7/16/5W10/16/16/9T6/4R1VTT7/7N3R4 b - 0 348 \
               h2:wall;i2:wall;j3:wall;m11:rider=r;h15:wall;i15:wall";
    let go = format!(
        "uci\nsetoption name UCI_Variant value microorganism\nposition fen {fen}\ngo depth 6\n"
    );
    let highest = cellmate::engine::score::MATE_BOUND as i64 - 1;
    for v in ["100000", "-100000"] {
        let terms = format!("--micro-terms={}", [v; 8].join(":"));
        let table = [v; 9].join(":");
        let values = format!("--micro-values={table}");
        let gifts = format!("--micro-gifts={table}");
        for args in [vec![terms.as_str()], vec![values.as_str(), gifts.as_str()]] {
            let lines = run_uci(&args, &go);
            assert!(
                lines.last().unwrap().starts_with("bestmove "),
                "{args:?}: {lines:#?}"
            );
            assert_eq!(depth1_score(&lines).abs(), highest, "{args:?}");
        }
    }
}

/// A reader that stops early (`cellmate perft … | head -1`): the closed pipe ends the program
/// quietly with status 0, no panic message.
#[test]
fn closed_stdout_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cellmate"))
        .args(["perft", "--depth", "2", "--divide"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot run cellmate");
    drop(child.stdout.take()); // the reader goes away before the first line
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stderr), "");
}

/// `--eval-file` (testing a chess network by games, docs/strength.md, "The chess network")
/// adds the network's output to the table's evaluation instead of the built-in network's: a
/// network of zero weights and an output bias worth 1200 cp for the side to move lowers the
/// score of a depth-1 search from the start (every reply quiet) by exactly 1200 from the
/// table's alone (`--no-network`). The default is the built-in network: the same score as
/// its bytes given as a file. A file that is not a network is refused, and so is
/// `--eval-file` with `--no-network`.
#[test]
fn eval_file_flag_adds_the_networks_output() {
    use cellmate::engine::eval::nnue::{Network, HIDDEN, INPUTS, QA, QB, SCALE};
    let out_b = 1200 * QA * QB / SCALE;
    assert_eq!(out_b * SCALE, 1200 * QA * QB, "the bias is exact");
    let net = Network::new(
        Box::new([[0; HIDDEN]; INPUTS]),
        [0; HIDDEN],
        [0; 2 * HIDDEN],
        out_b,
    );
    let path = std::env::temp_dir().join(format!("cellmate-net-{}.nnue", std::process::id()));
    std::fs::write(&path, net.to_bytes()).unwrap();
    let go = "uci\nposition startpos\ngo depth 1\n";
    let table = depth1_score(&run_uci(&["--no-network"], go));
    let with_net = depth1_score(&run_uci(&["--eval-file", path.to_str().unwrap()], go));
    assert_eq!(table - with_net, 1200);
    std::fs::write(&path, cellmate::engine::eval::nnue::builtin().to_bytes()).unwrap();
    let builtin_file = depth1_score(&run_uci(&["--eval-file", path.to_str().unwrap()], go));
    assert_eq!(depth1_score(&run_uci(&[], go)), builtin_file);
    let o = run(&["--no-network", "--eval-file", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("cannot be used with"), "{err}");
    std::fs::write(&path, b"CMNN").unwrap();
    assert_refused("--eval-file", path.to_str().unwrap());
    assert_refused("--eval-file", "/nonexistent/net.nnue");
    let _ = std::fs::remove_file(&path);
}

/// `datagen`'s label search (`--label-nodes`, `--label-every`) refuses a count of zero, and
/// `--label-every` without `--label-nodes`: each an argument error (exit code 2) naming the
/// flag, and no file written.
#[test]
fn datagen_label_flags_are_checked() {
    let path = std::env::temp_dir().join(format!("cellmate-label-{}.txt", std::process::id()));
    let out = path.to_str().unwrap();
    for (extra, named) in [
        (&["--label-nodes", "0"][..], "--label-nodes"),
        (
            &["--label-nodes", "100", "--label-every", "0"][..],
            "--label-every",
        ),
        (&["--label-every", "3"][..], "--label-nodes"),
    ] {
        let mut args = vec![
            "datagen",
            "--openings",
            "tests/data/openings/chess.epd",
            "--out",
            out,
            "--games",
            "1",
        ];
        args.extend_from_slice(extra);
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.starts_with("error: ") && err.contains(named),
            "{extra:?}: {err}"
        );
        assert!(!path.exists(), "{extra:?}");
    }
}

/// The node count of the last `info … nodes N` line.
fn last_nodes(lines: &[String]) -> u64 {
    last_value(lines, " nodes ") as u64
}

/// The nodes of a one-thread search of `fen` to `depth` in the library with `params`, as a
/// UCI session without contempt and with 16 MB searches it.
fn library_nodes(fen: &str, depth: u32, params: cellmate::engine::params::SearchParams) -> u64 {
    use cellmate::core::Variant;
    use cellmate::engine::{Control, Engine, Limits};
    let mut engine = Engine::new(16, 1);
    engine.contempt = 0;
    engine.search = params;
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let pos = cellmate::variants::chess::Chess::from_fen(fen).unwrap();
    engine
        .search(&pos, &limits, &Control::new(false), &|_| {})
        .nodes
}

/// `--search-params` (for tuning the search's constants by games, scripts/spsa.py) reaches
/// the process's searches: a UCI search to depth 8 counts exactly the nodes the library's
/// search with the same constants counts, for the defaults and for changed ones (which count
/// other nodes); a bad pair refuses to start.
#[test]
fn search_params_flag_sets_the_search_constants() {
    use cellmate::engine::params::SearchParams;
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 1 8";
    let go = format!(
        "uci\nsetoption name Hash value 16\nsetoption name Contempt value 0\n\
         position fen {fen}\ngo depth 8\n"
    );
    let default = library_nodes(fen, 8, SearchParams::DEFAULT);
    assert_eq!(last_nodes(&run_uci(&[], &go)), default);
    let mut changed = SearchParams::DEFAULT;
    let text = "lmr_div=150:rfp_margin=60,asp_delta=35";
    changed.set(text).unwrap();
    let nodes = library_nodes(fen, 8, changed);
    assert_ne!(nodes, default);
    assert_eq!(last_nodes(&run_uci(&["--search-params", text], &go)), nodes);
    for bad in ["lmr_div=0", "nope=1", "rfp_margin=ten", "rfp_margin"] {
        assert_refused("--search-params", bad);
    }
}

/// `cellmate search-params` lists the constants a tuner may set, one `name value lo hi` a
/// line in the library's order, with the values this process would search with: the defaults,
/// or those `--search-params` gave.
#[test]
fn search_params_command_lists_names_values_and_ranges() {
    use cellmate::engine::params::SearchParams;
    let listing = |args: &[&str]| {
        let o = run(args);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        assert!(o.stderr.is_empty(), "{args:?}");
        stdout(&o)
    };
    let lines = listing(&["search-params"]);
    assert_eq!(lines.len(), 14);
    assert_eq!(lines[0], "rfp_margin 75 0 1000");
    assert_eq!(lines[6], "lmr_div 225 50 2000");
    assert_eq!(lines[13], "asp_delta 20 1 1000");
    let expect: Vec<String> = SearchParams::ranges()
        .zip(SearchParams::DEFAULT.values())
        .map(|((n, lo, hi), v)| format!("{n} {v} {lo} {hi}"))
        .collect();
    assert_eq!(lines, expect);
    let changed = listing(&[
        "--search-params",
        "lmr_div=150:asp_delta=35",
        "search-params",
    ]);
    assert_eq!(changed[6], "lmr_div 150 50 2000");
    assert_eq!(changed[13], "asp_delta 35 1 1000");
    assert_eq!(changed[..6], lines[..6]);
    assert_eq!(changed[7..13], lines[7..13]);
}

/// Every constant at the bottom of its range, and every one at the top, still gives a search
/// that ends with a move, in the middlegame and in a king and pawn ending.
#[test]
fn extreme_search_params_still_give_a_move() {
    use cellmate::engine::params::SearchParams;
    for top in [false, true] {
        let pairs: Vec<String> = SearchParams::ranges()
            .map(|(n, lo, hi)| format!("{n}={}", if top { hi } else { lo }))
            .collect();
        let flag = format!("--search-params={}", pairs.join(":"));
        for fen in [
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 1 8",
            "8/5k2/8/3p4/3P4/4K3/8/8 w - - 0 1",
        ] {
            let go = format!("uci\nposition fen {fen}\ngo depth 12\n");
            let lines = run_uci(&[flag.as_str()], &go);
            assert!(
                lines.last().unwrap().starts_with("bestmove "),
                "{flag}: {lines:#?}"
            );
        }
    }
}
