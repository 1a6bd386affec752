//! Deterministic fuzzing (docs/reliability.md): a seeded generator mutates valid FENs, move
//! texts and protocol lines (bit and byte flips, truncation, deletion, repeated separators,
//! fields spliced in from other variants and protocols, huge numbers, two-digit ranks, unicode,
//! empty and swapped fields) and feeds them to the parsers of every variant and to both
//! protocols, in-process.
//!
//! Properties, per input:
//! - FEN: nothing panics; an accepted FEN round-trips (`fen()` → `from_fen` → `fen()` equal,
//!   equal hashes) and is a usable position (its legal moves are generated, the first few are
//!   made and unmade, restoring FEN and hash).
//! - Move text, per variant and dialect, read the protocols' way (`Game::play_all` of a good
//!   first move and then the text): nothing panics; an accepted text names a legal move, the
//!   variant's `parse_move` reads it the same, the move's own text reads back as the same move
//!   and the game is the position after it; a refused text is named by the error and leaves
//!   the game exactly as it was (the good first move undone too).
//! - Protocol lines, UCI and XBoard sessions: nothing panics (a panic hook counts panics in
//!   search threads, which would otherwise go unseen), and every 64 lines the engine still answers `isready` / `ping`.
//! - Protocol values over the full advertised ranges, in both protocols and every variant
//!   (`fuzz_support/ranges.rs`): one input in 8 is a probe of a parameter's class of value;
//!   the classes covered are printed and must all be covered. In-process and binary fuzzers run
//!   under an address-space limit (`FUZZ_ADDRESS_MB`, default 1024).
//! - Every input: bounded time. A watchdog aborts the run if no input finishes for 60 s (the
//!   message names the input index, which regenerates the input); the slowest input must take
//!   under [`SLOW`].
//!
//! `cargo test` runs [`SHORT`] inputs per target; `make fuzz` runs the `#[ignore]`d long forms
//! with `FUZZ_INPUTS` inputs each (default 1,000,000) and prints a time report per target.
//! `FUZZ_SEED` changes the seed (default fixed).

use std::panic;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use cellmate::core::{Dialect, MoveError, MoveList, Variant};
use cellmate::game::Game;
use cellmate::protocol::{Capture, Flow, Output, Session};
use cellmate::variants::chess::Chess;
use cellmate::variants::immune::Immune;
use cellmate::variants::micro::Micro;
use cellmate::variants::recursion::Recursion;
use cellmate::variants::VariantKind;

/// Inputs per target in the default `cargo test` run.
const SHORT: u64 = 20_000;
/// Lines per protocol through the binary in the default `cargo test` run.
const BINARY_SHORT: u64 = 5_000;
/// The slowest single input allowed.
const SLOW: Duration = Duration::from_secs(5);

fn long_inputs() -> u64 {
    std::env::var("FUZZ_INPUTS")
        .ok()
        .and_then(|s| s.replace('_', "").parse().ok())
        .unwrap_or(1_000_000)
}

fn base_seed() -> u64 {
    std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5EED_CE11_0A7E)
}

#[path = "fuzz_support/ranges.rs"]
mod ranges;

// ---------------------------------------------------------------------------------------------
// The generator

/// splitmix64: every input gets its own generator from (seed, index), so input `i` of a run
/// can be regenerated alone.
struct Rng(u64);
impl Rng {
    fn for_input(seed: u64, target: u64, i: u64) -> Rng {
        let mut r = Rng(seed ^ target.wrapping_mul(0xA24B_AED4_963E_E407));
        r.0 ^= i.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        r.next();
        r
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn one_in(&mut self, n: u64) -> bool {
        self.next().is_multiple_of(n)
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

impl ranges::Pick for Rng {
    fn below(&mut self, n: usize) -> usize {
        Rng::below(self, n)
    }
    fn u64(&mut self) -> u64 {
        self.next()
    }
}

const BYTES: &[u8] = b"/ -:*@,+=0123456789abcdefghijklmnopqrstuvwxyzKQkqRBNPpwWAT.~_|\t\0\x7f";
const NUMBERS: &[&str] = &[
    "0",
    "00",
    "1",
    "-1",
    "+1",
    "8",
    "9",
    "10",
    "15",
    "16",
    "17",
    "99",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "18446744073709551616",
    "99999999999999999999999",
    "1e9",
    "0x10",
    "1.5",
];
const UNICODE: &[&str] = &[
    "é", "ß", "Ｋ", "\u{200b}", "\u{feff}", "🂡", "ǅ", "İ", "ﬀ", "\u{0}", "\u{fffd}", "κ", "٣", "²",
];
const SEPARATORS: &[&str] = &[
    "/", " ", ":", "-", ",", "@", "*", "//", "  ", "::", "--", "\t",
];

/// Splits at `sep` (keeping empty parts).
fn fields(s: &str, sep: char) -> Vec<String> {
    s.split(sep).map(str::to_string).collect()
}

/// One random mutation of `s`; `donors` are other valid inputs (other variants, protocols).
fn mutate_once(rng: &mut Rng, s: &str, donors: &[String]) -> String {
    let mut b = s.as_bytes().to_vec();
    let pos = |rng: &mut Rng, b: &Vec<u8>| rng.below(b.len() + 1);
    match rng.below(14) {
        0 if !b.is_empty() => {
            let i = rng.below(b.len());
            b[i] ^= 1 << rng.below(8);
        }
        1 if !b.is_empty() => {
            let i = rng.below(b.len());
            b[i] = *rng.pick(BYTES);
        }
        2 => b.truncate(pos(rng, &b)),
        3 if !b.is_empty() => {
            let i = rng.below(b.len());
            let n = 1 + rng.below(8.min(b.len() - i));
            b.drain(i..i + n);
        }
        4 => {
            // Repeated separators, or a repeated stretch.
            let i = pos(rng, &b);
            if rng.one_in(2) {
                let sep = rng.pick(SEPARATORS).as_bytes();
                for _ in 0..1 + rng.below(3) {
                    b.splice(i..i, sep.iter().copied());
                }
            } else if i < b.len() {
                let n = 1 + rng.below(12.min(b.len() - i));
                let copy = b[i..i + n].to_vec();
                b.splice(i..i, copy);
            }
        }
        5 | 6 => {
            // Splice a field (space, slash or colon separated) from a donor.
            let sep = *rng.pick(&[' ', ' ', '/', ':']);
            let mut mine = fields(s, sep);
            let donor = fields(&donors[rng.below(donors.len())], sep);
            let theirs = rng.pick(&donor).clone();
            let j = rng.below(mine.len());
            match rng.below(3) {
                0 => mine[j] = theirs,
                1 => mine.insert(j, theirs),
                _ => mine.push(theirs),
            }
            return mine.join(&sep.to_string());
        }
        7 => {
            // A number: replace a digit run, or insert one.
            let digits: Vec<usize> = (0..b.len()).filter(|&i| b[i].is_ascii_digit()).collect();
            let n = rng.pick(NUMBERS).as_bytes();
            if !digits.is_empty() && !rng.one_in(3) {
                let mut i = *rng.pick(&digits);
                while i > 0 && b[i - 1].is_ascii_digit() {
                    i -= 1;
                }
                let mut e = i;
                while e < b.len() && b[e].is_ascii_digit() {
                    e += 1;
                }
                b.splice(i..e, n.iter().copied());
            } else {
                let i = pos(rng, &b);
                b.splice(i..i, n.iter().copied());
            }
        }
        8 => {
            // A two-digit rank or file number in a square.
            let i = pos(rng, &b);
            let sq = format!(
                "{}{}",
                (b'a' + rng.below(20) as u8) as char,
                rng.pick(&["10", "11", "16", "17", "26", "99", "0", "00"])
            );
            b.splice(i..i, sq.bytes());
        }
        9 => {
            let i = pos(rng, &b);
            b.splice(i..i, rng.pick(UNICODE).bytes());
        }
        10 => {
            // Empty a field.
            let sep = *rng.pick(&[' ', '/', ':']);
            let mut mine = fields(s, sep);
            let j = rng.below(mine.len());
            mine[j].clear();
            return mine.join(&sep.to_string());
        }
        11 => {
            // Swap two fields.
            let mut mine = fields(s, ' ');
            let (i, j) = (rng.below(mine.len()), rng.below(mine.len()));
            mine.swap(i, j);
            return mine.join(" ");
        }
        12 => {
            // Case flips.
            for c in b.iter_mut() {
                if rng.one_in(4) {
                    c.make_ascii_uppercase();
                } else if rng.one_in(4) {
                    c.make_ascii_lowercase();
                }
            }
        }
        _ => {
            let i = pos(rng, &b);
            for _ in 0..1 + rng.below(4) {
                b.insert(i, 0x20 + rng.below(95) as u8);
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// 0 to 4 mutations (mostly 1 or 2), or now and then a donor unchanged.
fn mutate(rng: &mut Rng, s: &str, donors: &[String]) -> String {
    let mut out = if rng.one_in(40) {
        rng.pick(donors).clone()
    } else {
        s.to_string()
    };
    let n = *rng.pick(&[0, 1, 1, 1, 2, 2, 3, 4]);
    for _ in 0..n {
        out = mutate_once(rng, &out, donors);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Harness: panic counting, per-input timing, a watchdog for hangs

static PANICS: AtomicUsize = AtomicUsize::new(0);

fn count_panics() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            // A panic on a test's own thread fails that test anyway; search threads' panics
            // would go unseen without this count. The hook is the process's: beside the
            // in-process fuzzers it also counts the search threads of the other tests of the
            // one test binary (tests/it), which is wanted (theirs would go unseen too); the
            // protocol fuzzers run alone in a child process (`in_limited_child`).
            let name = std::thread::current().name().unwrap_or("").to_string();
            if name.starts_with("search") {
                PANICS.fetch_add(1, Ordering::SeqCst);
            }
            previous(info);
        }));
    });
}

/// Runs `inputs` inputs of one target; `one(i, rng)` handles input `i` and says whether it was
/// accepted. Reports and checks the time.
fn run(name: &str, target: u64, inputs: u64, mut one: impl FnMut(u64, &mut Rng) -> bool) {
    count_panics();
    let seed = base_seed();
    let done = Arc::new(AtomicU64::new(0));
    let finished = Arc::new(AtomicU64::new(0));
    {
        let (done, finished, name) = (done.clone(), finished.clone(), name.to_string());
        std::thread::spawn(move || {
            let mut last = u64::MAX;
            loop {
                std::thread::sleep(Duration::from_secs(60));
                if finished.load(Ordering::SeqCst) == 1 {
                    return;
                }
                let now = done.load(Ordering::SeqCst);
                if now == last {
                    eprintln!(
                        "fuzz {name}: input {now} (seed {seed:#x}) has run for over 60 s: hang"
                    );
                    std::process::abort();
                }
                last = now;
            }
        });
    }
    // Stops the watchdog however this run ends (a failed check unwinds through here).
    struct Finished(Arc<AtomicU64>);
    impl Drop for Finished {
        fn drop(&mut self) {
            self.0.store(1, Ordering::SeqCst);
        }
    }
    let finished = Finished(finished);
    let start = Instant::now();
    let mut accepted = 0u64;
    let mut slowest = (Duration::ZERO, 0u64);
    for i in 0..inputs {
        let mut rng = Rng::for_input(seed, target, i);
        let t = Instant::now();
        if one(i, &mut rng) {
            accepted += 1;
        }
        let took = t.elapsed();
        if took > slowest.0 {
            slowest = (took, i);
        }
        done.store(i + 1, Ordering::Relaxed);
    }
    drop(finished);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "fuzz {name:<28} {inputs:>9} inputs {accepted:>9} accepted {secs:>8.2} s \
         {:>9.0} inputs/s  slowest {:.2} ms (input {})",
        inputs as f64 / secs.max(1e-9),
        slowest.0.as_secs_f64() * 1e3,
        slowest.1
    );
    assert!(
        slowest.0 < SLOW,
        "fuzz {name}: input {} (seed {seed:#x}) took {:?}",
        slowest.1,
        slowest.0
    );
    assert_eq!(
        PANICS.load(Ordering::SeqCst),
        0,
        "fuzz {name}: a search thread of this test process panicked (its message is above)"
    );
}

// ---------------------------------------------------------------------------------------------
// Corpora: positions from short seeded random playouts

/// FENs of positions reached by random playouts of 0..`max` plies from the start.
fn sample_positions<V: Variant>(n: usize, max: usize, seed: u64) -> Vec<V> {
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut p = V::startpos();
        let plies = rng.below(max + 1);
        for _ in 0..plies {
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            p.make_move(list[rng.below(list.len())]);
        }
        // Drop the undo stack: the corpus is positions, not games.
        out.push(V::from_fen(&p.fen()).expect("own FEN"));
    }
    out
}

/// Valid FENs of every variant, plus hand-made edge cases.
fn all_fens() -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    v.extend(
        sample_positions::<Chess>(24, 120, 1)
            .iter()
            .map(|p| p.fen()),
    );
    v.extend(
        sample_positions::<Recursion>(24, 200, 2)
            .iter()
            .map(|p| p.fen()),
    );
    v.extend(
        sample_positions::<Micro>(24, 120, 3)
            .iter()
            .map(|p| p.fen()),
    );
    v.extend(
        sample_positions::<Immune>(24, 160, 4)
            .iter()
            .map(|p| p.fen()),
    );
    v.extend(
        [
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1",
            "8/P6k/8/8/8/8/6Kp/8 b - - 99 200",
        ]
        .map(String::from),
    );
    v
}

// ---------------------------------------------------------------------------------------------
// FEN

/// An accepted FEN round-trips, and the position it gives can be played from.
fn check_fen<V: Variant>(input: &str) -> bool {
    let Ok(mut p) = V::from_fen(input) else {
        return false;
    };
    let fen = p.fen();
    let again = V::from_fen(&fen)
        .unwrap_or_else(|e| panic!("{input:?} read, but its FEN {fen:?} is refused: {e}"));
    assert_eq!(again.fen(), fen, "FEN round trip of {input:?}");
    assert_eq!(
        again.hash(),
        p.hash(),
        "hash after FEN round trip of {input:?}"
    );
    let key = p.hash();
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let _ = p.outcome();
    for &m in list.iter().take(4) {
        p.make_move(m);
        let _ = p.fen();
        p.unmake_move();
        assert_eq!(p.fen(), fen, "make/unmake from {input:?}");
        assert_eq!(p.hash(), key, "make/unmake from {input:?}");
    }
    true
}

fn fuzz_fen<V: Variant>(target: u64, inputs: u64) {
    let own: Vec<String> = sample_positions::<V>(64, 150, target)
        .iter()
        .map(|p| p.fen())
        .collect();
    let donors = all_fens();
    run(&format!("fen {}", V::NAME), target, inputs, |_, rng| {
        let base = rng.pick(&own);
        let input = mutate(rng, base, &donors);
        check_fen::<V>(&input)
    });
}

// ---------------------------------------------------------------------------------------------
// Move text

/// A position after one move `first` from `game`'s position, with the texts of its moves.
struct MoveCase<V: Variant> {
    game: Game,
    first: String,
    after: V,
    legal: MoveList,
    texts: Vec<String>,
}

fn fuzz_moves<V: Variant>(target: u64, inputs: u64, dialect: Dialect) {
    let kind = VariantKind::from_name(V::NAME).expect("variant name");
    let mut rng = Rng(target);
    let mut cases: Vec<MoveCase<V>> = Vec::new();
    for p in sample_positions::<V>(48, 150, target) {
        let mut list = MoveList::new();
        p.legal_moves(&mut list);
        if list.is_empty() {
            continue;
        }
        let m = list[rng.below(list.len())];
        let first = p.move_text(m, dialect);
        let game = Game::from_fen(kind, &p.fen()).expect("own FEN");
        let mut after = p.clone();
        after.make_move(m);
        let mut list = MoveList::new();
        after.legal_moves(&mut list);
        let texts = list.iter().map(|&m| after.move_text(m, dialect)).collect();
        cases.push(MoveCase {
            game,
            first,
            after,
            legal: list,
            texts,
        });
    }
    // Donors: move texts of every variant in both dialects, and odd spellings.
    let mut donors: Vec<String> = vec![
        "0000",
        "@@@@",
        "e2e4",
        "e7e8q",
        "a16a15",
        "p16p15",
        "e2e7,e7e2",
        "V@g5",
        "P@e4",
        "O-O",
        "o-o-o",
        "e1g1",
        "e1h1",
        "Nf3",
        "exd5",
        "a7a8=Q",
        "",
        " ",
        "e2e4 ",
        "e2-e4",
        "e2xe4",
    ]
    .into_iter()
    .map(String::from)
    .collect();
    for d in [Dialect::UCI, Dialect::XBOARD] {
        donors.extend(texts_of::<Chess>(d));
        donors.extend(texts_of::<Recursion>(d));
        donors.extend(texts_of::<Micro>(d));
        donors.extend(texts_of::<Immune>(d));
    }
    let name = format!(
        "move {} {}",
        V::NAME,
        if dialect == Dialect::UCI {
            "uci"
        } else {
            "xboard"
        }
    );
    run(&name, target, inputs, |_, rng| {
        let case = rng.pick(&cases);
        let base = if case.texts.is_empty() || rng.one_in(8) {
            rng.pick(&donors).clone()
        } else {
            rng.pick(&case.texts).clone()
        };
        let text = mutate(rng, &base, &donors);
        // One read through the protocols' path: the game's own move first, then the text.
        let mut game = case.game.clone();
        let before = game.fen();
        let played = game.play_all(&[case.first.as_str(), text.as_str()], dialect);
        match played {
            Ok(()) => {
                let m = game.history().last().expect("two moves played").mv;
                assert!(case.legal.contains(&m), "{text:?} read as an illegal move");
                assert_eq!(case.after.parse_move(&text, dialect), Ok(m), "{text:?}");
                let own = case.after.move_text(m, dialect);
                assert_eq!(case.after.parse_move(&own, dialect), Ok(m), "{own:?}");
                let mut expected = case.after.clone();
                expected.make_move(m);
                assert_eq!(game.fen(), expected.fen(), "{text:?} played");
                true
            }
            Err(e) => {
                let refused = match &e {
                    MoveError::Syntax(t) | MoveError::Illegal(t) => t,
                };
                assert_eq!(refused.trim(), text.trim(), "the error names another move");
                assert_eq!(game.fen(), before, "refused {text:?} changed the game");
                assert_eq!(game.history().len(), 0, "refused {text:?} left moves");
                false
            }
        }
    });
}

/// Move texts of a few positions of a variant.
fn texts_of<V: Variant>(dialect: Dialect) -> Vec<String> {
    let mut out = Vec::new();
    for p in sample_positions::<V>(4, 100, 77) {
        let mut list = MoveList::new();
        p.legal_moves(&mut list);
        out.extend(list.iter().take(24).map(|&m| p.move_text(m, dialect)));
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Protocol lines

/// Valid lines of a protocol (its commands with FENs and moves of every variant).
fn protocol_lines(uci: bool) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    let fens = all_fens();
    let variants = [
        "chess",
        "recursion",
        "microorganism",
        "immune",
        "normal",
        "shogi",
    ];
    if uci {
        v.extend(
            [
                "uci",
                "isready",
                "ucinewgame",
                "position startpos",
                "position startpos moves e2e4 e7e5 g1f3",
                "go depth 1",
                "go nodes 200",
                "go movetime 5",
                "go wtime 100 btime 100 winc 0 binc 0 movestogo 3",
                "go infinite",
                "go ponder wtime 50 btime 50",
                "go depth 2 searchmoves e2e4 d2d4",
                "go mate 1",
                "go perft 1",
                "stop",
                "ponderhit",
                "d",
                "debug on",
                "setoption name Hash value 2",
                "setoption name Threads value 1",
                "setoption name MultiPV value 2",
                "setoption name Move Overhead value 10",
                "setoption name Clear Hash",
                "setoption name Ponder value true",
            ]
            .map(String::from),
        );
        for var in variants {
            v.push(format!("setoption name UCI_Variant value {var}"));
        }
        for f in &fens {
            v.push(format!("position fen {f}"));
        }
    } else {
        v.extend(
            [
                "xboard",
                "protover 2",
                "new",
                "force",
                "go",
                "playother",
                "white",
                "black",
                "level 40 5 0",
                "level 0 0:30 1.5",
                "st 1",
                "sd 2",
                "time 500",
                "otim 500",
                "?",
                "ping 1",
                "draw",
                "result 1-0 {White mates}",
                "hint",
                "undo",
                "remove",
                "hard",
                "easy",
                "post",
                "nopost",
                "analyze",
                "exit",
                ".",
                "memory 2",
                "cores 1",
                "option MultiPV=2",
                "option Hash=2",
                "accepted setboard",
                "rejected usermove",
                "computer",
                "name someone",
                "rating 2000 1900",
                "bk",
                "d",
                "fen",
                "help",
                "usermove e2e4",
                "e7e5",
                "usermove @@@@",
            ]
            .map(String::from),
        );
        for var in variants {
            v.push(format!("variant {var}"));
        }
        for f in &fens {
            v.push(format!("setboard {f}"));
        }
    }
    let dialect = if uci { Dialect::UCI } else { Dialect::XBOARD };
    for moves in [
        texts_of::<Chess>(dialect),
        texts_of::<Recursion>(dialect),
        texts_of::<Micro>(dialect),
        texts_of::<Immune>(dialect),
    ] {
        for (i, chunk) in moves.chunks(3).enumerate() {
            if uci {
                v.push(format!("position startpos moves {}", chunk.join(" ")));
                // Fewer of these: every `go` costs a search (milliseconds in the 16×16 games).
                if i % 4 == 0 {
                    v.push(format!("go depth 1 searchmoves {}", chunk.join(" ")));
                }
            } else {
                v.push(format!("usermove {}", chunk[0]));
                v.push(chunk[0].clone());
            }
        }
    }
    v
}

/// What the binary advertises: its UCI options, and its XBoard options and variants.
fn advertised() -> (Vec<ranges::Adv>, Vec<ranges::Adv>, Vec<String>) {
    let ask = |lines: &[&str], until: &str| -> Vec<String> {
        use std::io::Write;
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_cellmate"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let mut stdin = c.stdin.take().unwrap();
        for l in lines {
            writeln!(stdin, "{l}").unwrap();
        }
        let out = std::io::BufRead::lines(std::io::BufReader::new(c.stdout.take().unwrap()))
            .map_while(Result::ok)
            .take_while(|l| l != until)
            .collect();
        let _ = writeln!(stdin, "quit");
        let _ = c.wait();
        out
    };
    let uci = ranges::uci_options(&ask(&["uci", "isready"], "readyok"));
    let (xb, variants) =
        ranges::xboard_features(&ask(&["xboard", "protover 2", "ping 9"], "pong 9"));
    (uci, xb, variants)
}

/// The probe classes of a protocol, from what the binary advertises.
fn probe_ranges(uci: bool) -> ranges::Ranges {
    let (uci_opts, xb_opts, variants) = advertised();
    if uci {
        return ranges::Ranges::uci(&uci_opts);
    }
    let range = |name: &str| {
        uci_opts
            .iter()
            .find_map(|o| match o {
                ranges::Adv::Spin { name: n, min, max } if n == name => Some((*min, *max)),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no {name} option advertised"))
    };
    ranges::Ranges::xboard(&xb_opts, &variants, range("Hash"), range("Threads"))
}

/// One input in this many is a probe of the advertised ranges (the others mutated lines); the
/// probes fall on inputs `3 mod 8`, never on a liveness check's (`63 mod 64`, `127 mod 128`).
const PROBE_ONE_IN: u64 = 8;

/// Runs the calling fuzz test again in a child process of its own under the address-space
/// limit ([`ranges::address_mb`]) and checks it passed; `false` in that child (then the caller
/// fuzzes). The test's name is its thread's (libtest names each test's thread).
fn in_limited_child(inputs: u64) -> bool {
    if std::env::var_os("FUZZ_CHILD").is_some() {
        return false;
    }
    let name = std::thread::current()
        .name()
        .filter(|n| *n != "main")
        .expect("run under libtest with a thread per test")
        .to_string();
    let out = ranges::limited(std::env::current_exe().unwrap())
        .args([
            &name,
            "--exact",
            "--nocapture",
            "--include-ignored",
            "--test-threads=1",
        ])
        .env("FUZZ_CHILD", "1")
        .env("FUZZ_INPUTS", inputs.to_string())
        .output()
        .expect("the fuzz child starts");
    print!("{}", String::from_utf8_lossy(&out.stdout));
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success(),
        "fuzz {name} under a {} MB address space: {}",
        ranges::address_mb(),
        out.status
    );
    true
}

fn fuzz_protocol(target: u64, inputs: u64, uci: bool) {
    if in_limited_child(inputs) {
        return;
    }
    // In the child: the count its parent was given, passed as FUZZ_INPUTS.
    let inputs = long_inputs();
    let mut probes = probe_ranges(uci);
    let own = protocol_lines(uci);
    let mut donors = own.clone();
    donors.extend(protocol_lines(!uci));
    donors.extend(all_fens());
    let opener = if uci { "uci" } else { "xboard" };
    let new_session = || {
        let capture = Capture::default();
        let (done_tx, done_rx) = tokio::sync::mpsc::unbounded_channel();
        let session = Session::new(Output::new(Box::new(capture.clone())), done_tx);
        (capture, session, done_rx)
    };
    // A small hash: clearing the default 16 MB table takes milliseconds, and `ucinewgame`,
    // `new` and option changes do it often. Sent in both protocols' words, whichever is on.
    let small_hash = |session: &mut Session| {
        session.handle_line("setoption name Hash value 1");
        session.handle_line("memory 1");
    };
    let (mut capture, mut session, mut done_rx) = new_session();
    session.handle_line(opener);
    small_hash(&mut session);
    let mut pings = 0u64;
    let name = format!("protocol {}", if uci { "uci" } else { "xboard" });
    run(&name, target, inputs, |i, rng| {
        // A fresh session now and then, opened by a possibly mangled first line.
        if i % 4096 == 4095 {
            session.shutdown();
            (capture, session, done_rx) = new_session();
            let first = if rng.one_in(4) {
                mutate(rng, opener, &donors)
            } else {
                opener.to_string()
            };
            if !first.trim().to_ascii_lowercase().starts_with("quit") {
                session.handle_line(&first);
            }
            small_hash(&mut session);
        }
        if i % PROBE_ONE_IN == 3 {
            let probe = probes.probe(rng);
            let mut refused = false;
            for (k, l) in probe.lines.iter().enumerate() {
                capture.take_lines();
                assert_eq!(
                    session.handle_line(l),
                    Flow::Continue,
                    "{l:?} ended the session"
                );
                if k == probe.probed {
                    refused = capture.take_lines().iter().any(|l| is_refusal(l));
                }
            }
            while let Ok(id) = done_rx.try_recv() {
                session.search_done(id);
            }
            probes.record(&probe.label, refused);
            return !refused;
        }
        let base = rng.pick(&own).clone();
        let line = mutate(rng, &base, &donors);
        let quits = line
            .split_whitespace()
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("quit"));
        let flow = session.handle_line(&line);
        assert!(
            flow == Flow::Continue || quits,
            "{line:?} ended the session"
        );
        while let Ok(id) = done_rx.try_recv() {
            session.search_done(id);
        }
        let refused = capture.take_lines().iter().any(|l| is_refusal(l));
        if flow == Flow::Quit {
            (capture, session, done_rx) = new_session();
            session.handle_line(opener);
            small_hash(&mut session);
        }
        if i % 64 == 63 {
            // Still alive: `isready` (UCI) or `ping` (XBoard; deferred while thinking, so a
            // `?` makes it move first).
            pings += 1;
            capture.take_lines();
            session.handle_line("isready");
            let pong = format!("pong {pings}");
            session.handle_line(&format!("ping {pings}"));
            let answered = |lines: &[String]| lines.iter().any(|l| l == "readyok" || *l == pong);
            let mut lines = capture.take_lines();
            if !answered(&lines) {
                session.handle_line("?");
                let t = Instant::now();
                while !answered(&lines) && t.elapsed() < Duration::from_secs(10) {
                    std::thread::sleep(Duration::from_millis(1));
                    while let Ok(id) = done_rx.try_recv() {
                        session.search_done(id);
                    }
                    lines.extend(capture.take_lines());
                }
            }
            assert!(
                answered(&lines),
                "input {i}: no readyok or {pong} after {line:?}: {lines:?}"
            );
        }
        !refused
    });
    session.shutdown();
    probes.report(&name);
}

/// "Refused": an error answer (UCI `info string` complaints, XBoard `Error`/`Illegal`).
fn is_refusal(l: &str) -> bool {
    l.starts_with("Error")
        || l.starts_with("Illegal")
        || l.starts_with("info string Unknown")
        || l.starts_with("info string Invalid")
        || l.starts_with("info string Illegal")
}

// ---------------------------------------------------------------------------------------------
// Protocol lines through the binary's stdin

/// The engine binary as a child process: its stdout lines arrive on a channel (read by a
/// thread, lossy UTF-8, as the engine reads its own input), its stderr is collected.
struct Child {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    rx: std::sync::mpsc::Receiver<String>,
    stderr: Arc<std::sync::Mutex<String>>,
}

impl Child {
    fn spawn() -> Child {
        use std::io::{BufRead, BufReader, Read};
        use std::process::Stdio;
        // Under the address-space limit of a small machine, as the in-process fuzzers.
        let mut child = ranges::limited(env!("CARGO_BIN_EXE_cellmate"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut err = child.stderr.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            while out.read_until(b'\n', &mut buf).is_ok_and(|n| n > 0) {
                let line = String::from_utf8_lossy(&buf)
                    .trim_end_matches(['\n', '\r'])
                    .to_string();
                buf.clear();
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(std::sync::Mutex::new(String::new()));
        let collected = stderr.clone();
        std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = err.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                let mut s = collected.lock().unwrap();
                if s.len() < 1 << 20 {
                    s.push_str(&String::from_utf8_lossy(&chunk[..n]));
                }
            }
        });
        Child {
            stdin: child.stdin.take(),
            child,
            rx,
            stderr,
        }
    }

    /// Writes a line; `false` when the engine's input is closed (it exited).
    fn send(&mut self, line: &str) -> bool {
        use std::io::Write;
        let Some(stdin) = self.stdin.as_mut() else {
            return false;
        };
        stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush())
            .is_ok()
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the binary fuzzer saw.
#[derive(Default, Debug)]
struct BinaryStats {
    lines_out: u64,
    errors: u64,
    quits: u64,
    checks: u64,
}

/// An output line that reports an error must be one line in the protocol's form: UCI `info
/// string …`, XBoard `Error (…): …`, `Illegal move…` (or a `telluser`/`#` line). `None`: not
/// an error line; `Some(false)`: an error line in the wrong form.
fn error_form(line: &str, uci: bool) -> Option<bool> {
    let lower = line.to_ascii_lowercase();
    let erroneous = [
        "error",
        "invalid",
        "unknown",
        "illegal",
        "panic",
        "unsupported",
    ]
    .iter()
    .any(|w| lower.contains(w));
    if !erroneous {
        return None;
    }
    Some(if uci {
        line.starts_with("info string ")
    } else {
        line.starts_with("Error (")
            || line.starts_with("Illegal move")
            || line.starts_with("telluser")
            || line.starts_with('#')
    })
}

/// Lines between two liveness checks of the binary fuzzer (each waits for the engine to catch
/// up: a round trip through the scheduler).
const BATCH: u64 = 128;
/// One line in this many is a `quit` (then a fresh process).
const QUIT_ONE_IN: u64 = 2000;

/// Feeds `inputs` mutated protocol lines to the real binary's stdin. Properties: the process
/// never exits unless told `quit` (then with status 0), every [`BATCH`] lines it still answers
/// (`isready` → `readyok` in UCI, `ping N` → `pong N` in XBoard, after a `?` if it is
/// thinking), every error line is one line in the protocol's form, and its stderr never shows
/// a panic or an `ERROR` log line. A fresh process every 16384 lines, opened by a possibly
/// mangled first line (then either protocol's error form is accepted).
fn fuzz_binary(target: u64, inputs: u64, uci: bool) {
    let own = protocol_lines(uci);
    let mut donors = own.clone();
    donors.extend(protocol_lines(!uci));
    donors.extend(all_fens());
    let opener = if uci { "uci" } else { "xboard" };
    let small_hash = if uci {
        "setoption name Hash value 1"
    } else {
        "memory 1"
    };
    let start = |first: &str| -> Child {
        let mut c = Child::spawn();
        c.send(first);
        if uci {
            c.send("isready");
        } else {
            c.send("protover 2");
        }
        c.send(small_hash);
        c
    };
    let mut probes = probe_ranges(uci);
    let mut child = start(opener);
    // Whether the process's first line was the opener: then only this protocol's forms.
    let mut strict = true;
    let mut stats = BinaryStats::default();
    let mut pings = 0u64;
    let mut recent: Vec<String> = Vec::new();
    // A `QUIT`-like line was sent since the last check: an exit is allowed at the next one.
    let mut may_quit = false;
    let name = format!("binary {}", if uci { "uci" } else { "xboard" });
    let check_stderr = |c: &Child, recent: &[String]| {
        let err = c.stderr.lock().unwrap();
        assert!(
            !err.contains("panicked") && !err.contains(" ERROR "),
            "stderr after {recent:?}:\n{err}"
        );
    };
    // Drains output; checks every line. `want`: lines to wait for, any of them (up to `wait`);
    // none: only what is already there.
    let drain = |c: &mut Child,
                 stats: &mut BinaryStats,
                 strict: bool,
                 recent: &[String],
                 want: &[String],
                 wait: Duration|
     -> Result<bool, ()> {
        let deadline = Instant::now() + wait;
        loop {
            let got = match want.first() {
                Some(_) => {
                    c.rx.recv_timeout(deadline.saturating_duration_since(Instant::now()))
                }
                None => c.rx.try_recv().map_err(|e| match e {
                    std::sync::mpsc::TryRecvError::Empty => {
                        std::sync::mpsc::RecvTimeoutError::Timeout
                    }
                    std::sync::mpsc::TryRecvError::Disconnected => {
                        std::sync::mpsc::RecvTimeoutError::Disconnected
                    }
                }),
            };
            match got {
                Ok(line) => {
                    stats.lines_out += 1;
                    let form = if strict {
                        error_form(&line, uci)
                    } else {
                        error_form(&line, true)
                            .zip(error_form(&line, false))
                            .map(|(a, b)| a || b)
                    };
                    if let Some(ok) = form {
                        stats.errors += 1;
                        assert!(
                            ok,
                            "error line not in the protocol's form: {line:?} after {recent:?}"
                        );
                    }
                    if want.contains(&line) {
                        return Ok(true);
                    }
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => return Ok(false),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return Err(()),
            }
        }
    };
    run(&name, target, inputs, |i, rng| {
        if i % 16384 == 16383 {
            check_stderr(&child, &recent);
            let first = if rng.one_in(4) {
                mutate(rng, opener, &donors).replace(['\n', '\r'], " ")
            } else {
                opener.to_string()
            };
            strict = first == opener;
            child = start(&first);
            recent.clear();
            recent.push(first);
        }
        if strict && i % PROBE_ONE_IN == 3 {
            // A probe of the advertised ranges; its probed line is followed by a sync
            // (`isready` / `ping`, answered at once: no search runs before it), so the error
            // lines before the answer are its own.
            let probe = probes.probe(rng);
            let mut refused = false;
            // A sync before the probe too: what earlier lines answered is read first.
            let mut sync = |child: &mut Child, stats: &mut BinaryStats, recent: &[String]| {
                pings += 1;
                let want = if uci {
                    child.send("isready");
                    "readyok".to_string()
                } else {
                    // XBoard defers a pong while it thinks: `?` makes it move first (and is
                    // nothing when it does not think).
                    child.send("?");
                    child.send(&format!("ping {pings}"));
                    format!("pong {pings}")
                };
                let got = drain(
                    child,
                    stats,
                    strict,
                    recent,
                    std::slice::from_ref(&want),
                    Duration::from_secs(10),
                );
                assert_eq!(got, Ok(true), "input {i}: no {want} after {recent:?}");
            };
            sync(&mut child, &mut stats, &recent);
            for (k, l) in probe.lines.iter().enumerate() {
                if recent.len() >= 8 {
                    recent.remove(0);
                }
                recent.push(l.clone());
                assert!(
                    child.send(l),
                    "input {i}: the engine's input closed at {l:?}"
                );
                if k == probe.probed {
                    let errors = stats.errors;
                    sync(&mut child, &mut stats, &recent);
                    refused = stats.errors > errors;
                }
            }
            probes.record(&probe.label, refused);
            return !refused;
        }
        let base = rng.pick(&own).clone();
        let mut line = mutate(rng, &base, &donors).replace(['\n', '\r'], " ");
        // Now and then a `quit` (the corpus has none): the process must exit with status 0.
        if rng.one_in(QUIT_ONE_IN) {
            line = rng
                .pick(&["quit", "quit now", "\tquit", " quit "])
                .to_string();
        }
        if recent.len() >= 8 {
            recent.remove(0);
        }
        recent.push(line.clone());
        let first_word = line.split_whitespace().next().unwrap_or("");
        let quits = first_word == "quit";
        // `QUIT`, `Quit`: UCI takes them for `quit`, XBoard (case-sensitive) does not.
        if first_word.eq_ignore_ascii_case("quit") && !quits {
            may_quit = true;
        }
        let sent = child.send(&line);
        if quits {
            // A `quit`: the process must exit with status 0 (within 10 s).
            let never = ["\u{0}".to_string()];
            let r = drain(
                &mut child,
                &mut stats,
                strict,
                &recent,
                &never,
                Duration::from_secs(10),
            );
            if r.is_err() {
                let status = child.child.wait().expect("exit status");
                assert!(
                    status.success(),
                    "input {i}: quit with {status} after {recent:?}"
                );
                check_stderr(&child, &recent);
                stats.quits += 1;
                child = start(opener);
                strict = true;
                recent.clear();
                return true;
            }
        }
        let alive = drain(&mut child, &mut stats, strict, &recent, &[], Duration::ZERO).is_ok();
        if !sent || !alive || i % BATCH == BATCH - 1 {
            // Still there? `isready` (UCI) / `ping N` (XBoard; deferred while it thinks, so a
            // `?` makes it move). It may only exit after a `quit`, handled above.
            stats.checks += 1;
            pings += 1;
            // After a mangled first line the protocol is unknown: ask both ways.
            let pong = format!("pong {pings}");
            let want: Vec<String> = match (strict, uci) {
                (true, true) => vec!["readyok".into()],
                (true, false) => vec![pong.clone()],
                (false, _) => vec!["readyok".into(), pong.clone()],
            };
            let mut asked = true;
            if want.iter().any(|w| w == "readyok") {
                asked &= child.send("isready");
            }
            if want.contains(&pong) {
                asked &= child.send(&format!("ping {pings}"));
            }
            let mut answer = drain(
                &mut child,
                &mut stats,
                strict,
                &recent,
                &want,
                Duration::from_millis(50),
            );
            if answer == Ok(false) && asked {
                child.send("?");
                answer = drain(
                    &mut child,
                    &mut stats,
                    strict,
                    &recent,
                    &want,
                    Duration::from_secs(10),
                );
            }
            match answer {
                Ok(true) => {}
                Ok(false) => panic!("input {i}: no {want:?} after {recent:?}"),
                Err(()) => {
                    let status = child.child.wait().expect("exit status");
                    assert!(
                        may_quit,
                        "input {i}: the engine exited ({status}) after {recent:?}"
                    );
                    assert!(status.success(), "input {i}: quit with {status}");
                    check_stderr(&child, &recent);
                    stats.quits += 1;
                    child = start(opener);
                    strict = true;
                    recent.clear();
                }
            }
            may_quit = false;
        }
        true
    });
    check_stderr(&child, &recent);
    println!(
        "fuzz {name}: {} output lines, {} error lines (all one line in the protocol's form), \
         {} liveness checks, {} quits (each exit status 0)",
        stats.lines_out, stats.errors, stats.checks, stats.quits
    );
    // A `quit` on a batch's last line replaces that batch's check.
    assert!(stats.checks + stats.quits >= inputs / BATCH);
    probes.report(&name);
}

// ---------------------------------------------------------------------------------------------
// Targets: a short form for `cargo test`, a long `#[ignore]`d form for `make fuzz`

macro_rules! targets {
    ($( $short:ident, $long:ident, $n:expr, |$inputs:ident| $body:expr; )+) => {
        $(
            #[test]
            fn $short() {
                let $inputs: u64 = $n;
                $body
            }
            #[test]
            #[ignore = "long: make fuzz"]
            fn $long() {
                let $inputs = long_inputs();
                $body
            }
        )+
    };
}

targets! {
    fen_chess, long_fen_chess, SHORT, |n| fuzz_fen::<Chess>(1, n);
    fen_recursion, long_fen_recursion, SHORT, |n| fuzz_fen::<Recursion>(2, n);
    fen_microorganism, long_fen_microorganism, SHORT, |n| fuzz_fen::<Micro>(3, n);
    fen_immune, long_fen_immune, SHORT, |n| fuzz_fen::<Immune>(4, n);
    move_chess_uci, long_move_chess_uci, SHORT, |n| fuzz_moves::<Chess>(5, n, Dialect::UCI);
    move_chess_xboard, long_move_chess_xboard, SHORT,
        |n| fuzz_moves::<Chess>(6, n, Dialect::XBOARD);
    move_recursion_uci, long_move_recursion_uci, SHORT,
        |n| fuzz_moves::<Recursion>(7, n, Dialect::UCI);
    move_recursion_xboard, long_move_recursion_xboard, SHORT,
        |n| fuzz_moves::<Recursion>(8, n, Dialect::XBOARD);
    move_microorganism_uci, long_move_microorganism_uci, SHORT,
        |n| fuzz_moves::<Micro>(9, n, Dialect::UCI);
    move_microorganism_xboard, long_move_microorganism_xboard, SHORT,
        |n| fuzz_moves::<Micro>(10, n, Dialect::XBOARD);
    move_immune_uci, long_move_immune_uci, SHORT, |n| fuzz_moves::<Immune>(11, n, Dialect::UCI);
    move_immune_xboard, long_move_immune_xboard, SHORT,
        |n| fuzz_moves::<Immune>(12, n, Dialect::XBOARD);
    protocol_uci, long_protocol_uci, SHORT, |n| fuzz_protocol(13, n, true);
    protocol_xboard, long_protocol_xboard, SHORT, |n| fuzz_protocol(14, n, false);
    binary_uci, long_binary_uci, BINARY_SHORT, |n| fuzz_binary(15, n, true);
    binary_xboard, long_binary_xboard, BINARY_SHORT, |n| fuzz_binary(16, n, false);
}

/// Error lines are told apart from others, and their form is checked per protocol.
#[test]
fn error_lines_are_classified() {
    assert_eq!(
        error_form("info string Unknown command: foo", true),
        Some(true)
    );
    assert_eq!(error_form("Unknown command: foo", true), Some(false));
    assert_eq!(
        error_form("Error (unknown command): foo", false),
        Some(true)
    );
    assert_eq!(error_form("Illegal move: e2e5", false), Some(true));
    assert_eq!(
        error_form("info string Invalid position", false),
        Some(false)
    );
    assert_eq!(
        error_form("thread 'main' panicked at src/x.rs", true),
        Some(false)
    );
    assert_eq!(error_form("bestmove e2e4", true), None);
    assert_eq!(error_form("pong 3", false), None);
}

/// The mutator does mutate, and makes inputs that are refused and inputs that are accepted:
/// a fuzzer whose inputs all bounce off the first check would test nothing.
#[test]
fn mutations_reach_both_sides() {
    let donors = all_fens();
    let (mut ok, mut bad, mut changed) = (0, 0, 0);
    for i in 0..2000 {
        let mut rng = Rng::for_input(1, 99, i);
        let input = mutate(&mut rng, Chess::startpos().fen().as_str(), &donors);
        changed += usize::from(input != Chess::startpos().fen());
        if check_fen::<Chess>(&input) {
            ok += 1;
        } else {
            bad += 1;
        }
    }
    assert!(changed > 1500, "{changed}");
    assert!(ok > 100 && bad > 500, "{ok} accepted, {bad} refused");
}
