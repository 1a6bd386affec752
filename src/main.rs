//! The `cellmate` binary.
//!
//! - `cellmate`: the protocol loop on stdin/stdout. The first command chooses the protocol:
//!   `uci` → UCI; `xboard` or `protover` → XBoard; anything else → XBoard console mode (see
//!   [`cellmate::protocol`]).
//! - `cellmate perft [--variant V] [--fen F] --depth N [--divide]`: move-path enumeration.
//! - `cellmate bench [--depth N]`: a fixed-depth search; prints `Nodes: N` and `NPS: M`.
//! - `cellmate notation [--variant V] [--to seed|coords] [--fen F] [--xboard] [--numbered|--pgn]`:
//!   reads a game on stdin and writes it in another notation (see [`cellmate::notation`]).
//! - `cellmate match --engine SPEC --engine SPEC [...]`: a refereed match between two engines
//!   (see `docs/match.md` and [`cellmate::referee`]).
//! - `cellmate tune --pgn FILE [--variant V] [--skip-plies N] [--ridge R] [--bootstrap N]`: fits material
//!   values to the results of the games in FILE (see `docs/strength.md`, [`cellmate::tune`]).
//! - `cellmate gui [--port N] [--host ADDR] [--workers N] [--hash MB] ...`: a board in the browser on 127.0.0.1 (see
//!   `docs/gui.md` and [`cellmate::gui`]).
//!
//! Logging goes to stderr (`RUST_LOG=debug` shows the protocol traffic), never stdout.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use cellmate::core::Dialect;
use cellmate::engine::params::SearchParams;
use cellmate::game::Game;
use cellmate::protocol::options::variant_list;
use cellmate::variants::VariantKind;

/// Writes to stdout. A closed pipe (`cellmate bench | head -1`) ends the program quietly with
/// status 0, as Unix tools do, where `println!` would panic.
macro_rules! out {
    ($($arg:tt)*) => { write_out(format_args!($($arg)*)) };
}
macro_rules! outln {
    () => { write_out(format_args!("\n")) };
    ($($arg:tt)*) => { write_out(format_args!("{}\n", format_args!($($arg)*))) };
}

fn write_out(args: std::fmt::Arguments) {
    use std::io::Write;
    let mut o = std::io::stdout().lock();
    if let Err(e) = o.write_fmt(args).and_then(|()| o.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("cellmate: cannot write to stdout: {e}");
        std::process::exit(1);
    }
}

#[derive(Parser)]
#[command(
    name = "cellmate",
    version,
    about = "A chess-variant engine (UCI and XBoard)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Microorganism Chess piece values for this process, for tuning by games: nine
    /// centipawn integers separated by ':' in type order (red blood cell, Neuron, White
    /// blood cell, Paramecium, Bacterium, Amoeba, Platelet, Virus, Prion).
    #[arg(long, global = true, value_name = "V:V:…")]
    micro_values: Option<String>,
    /// Microorganism Chess gift values for this process, for tuning by games: what a
    /// Bacterium gains for each type it has absorbed, nine centipawn integers in the same order.
    #[arg(long, global = true, value_name = "G:G:…")]
    micro_gifts: Option<String>,
    /// Microorganism Chess evaluation terms for this process, for tuning by games: eight
    /// integers, an expanded piece's bonus, a wall member's, a pending infection's share of
    /// its victim (per cent), an enemy rider's share of its host (per cent), a red blood
    /// cell's bonus seven steps on, a Neuron's for a full ring of its own pieces, and in a
    /// full ending a point of nearness to the enemy Neuron and a step of it from the centre.
    #[arg(long, global = true, value_name = "T:T:…")]
    micro_terms: Option<String>,
    /// A chess network file (`cellmate nnue-train`) whose output this process adds to the
    /// chess table's evaluation instead of the built-in network's, for testing networks by
    /// games.
    #[arg(
        long,
        global = true,
        value_name = "FILE",
        conflicts_with = "no_network"
    )]
    eval_file: Option<String>,
    /// Evaluates chess with the hand-made table alone, without the built-in network.
    #[arg(long, global = true)]
    no_network: bool,
    /// The search's constants for this process, for tuning by games: `name=value` pairs
    /// separated by commas or colons (rfp_margin, nmp_eval_div, see_capture, fut_base, fut_margin,
    /// lmr_base, lmr_div, lmr_hist_div, se_margin, se_double, hist_mul, hist_sub, hist_max,
    /// asp_delta; src/engine/params.rs); the others keep their defaults.
    #[arg(long, global = true, value_name = "NAME=V,…")]
    search_params: Option<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Counts the leaf nodes of the move tree to a depth.
    Perft {
        /// Variant name (UCI or XBoard spelling).
        #[arg(long, default_value = "chess")]
        variant: String,
        /// Position (default: the variant's start position).
        #[arg(long)]
        fen: Option<String>,
        /// Plies to count, at most 64.
        #[arg(long, value_parser = clap::value_parser!(u32).range(0..=cellmate::core::MAX_PERFT_DEPTH as i64))]
        depth: u32,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
    },
    /// Writes training positions for the chess network: self-play at fixed nodes from the
    /// openings, one `FEN | score | result` line per quiet position (docs/strength.md, "The
    /// chess network").
    Datagen {
        /// Opening positions, one FEN or EPD a line (cycled).
        #[arg(long)]
        openings: String,
        /// Output file (appended to).
        #[arg(long)]
        out: String,
        #[arg(long, default_value_t = 1000)]
        games: u64,
        #[arg(long, default_value_t = 5000)]
        nodes: u64,
        /// Random plies after each opening, at least…
        #[arg(long, default_value_t = 4)]
        random_min: usize,
        /// …and at most.
        #[arg(long, default_value_t = 8)]
        random_max: usize,
        #[arg(long, default_value_t = 1)]
        threads: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Label searches of this many nodes: only every --label-every-th quiet position of
        /// a game is written, with the score of a search of its own (the games' moves stay
        /// --nodes searches).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        label_nodes: Option<u64>,
        /// With --label-nodes: one quiet position in this many is written.
        #[arg(long, default_value_t = 4, requires = "label_nodes",
              value_parser = clap::value_parser!(u64).range(1..))]
        label_every: u64,
    },
    /// Trains the chess network on `cellmate datagen` positions and writes it (docs/strength.md,
    /// "The chess network").
    NnueTrain(Box<TrainArgs>),
    /// Searches a fixed depth and reports speed.
    Bench {
        #[arg(long)]
        depth: Option<u32>,
    },
    /// Reads a game on stdin (coordinates or Immune Chess's own notation, one move a line or
    /// separated by spaces; move numbers, PGN tags, comments and a result are skipped) and
    /// writes it converted, one move a line. A bad move stops it with an error (exit code 1).
    Notation(NotationArgs),
    /// Plays a match between two engines, refereed by the built-in rules (docs/match.md).
    Match(Box<MatchArgs>),
    /// Serves a board in the browser: play any variant against the engine, or watch it play
    /// itself (docs/gui.md). Listens on 127.0.0.1 only unless --host says otherwise.
    Gui {
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Address to listen on (default loopback only; `0.0.0.0` opens it to the network).
        #[arg(long, default_value = "127.0.0.1")]
        host: std::net::IpAddr,
        /// A page origin allowed to open the board's WebSocket besides its own
        /// (`https://chess.example.org`, for a deployment behind a proxy); repeatable.
        #[arg(long = "allow-origin")]
        allow_origin: Vec<String>,
        /// Searches run at once, all pages together (default: the logical CPUs); more wait.
        #[arg(long)]
        workers: Option<usize>,
        /// The one hash table of all searches, in MB.
        #[arg(long, default_value_t = cellmate::gui::HASH_MB)]
        hash: usize,
        /// Connections served at once; more are answered 503.
        #[arg(long, default_value_t = cellmate::gui::MAX_CONNECTIONS)]
        max_connections: usize,
        /// Seconds a board page may stay quiet (no message, no search) before it is closed.
        #[arg(long, default_value_t = cellmate::gui::IDLE_TIMEOUT.as_secs())]
        idle_timeout: u64,
    },
    /// Hosts the board for many players (docs/hosting.md): axum on tokio, games stored in
    /// SQLite (each at /game/<id>, reopened after a restart), one bounded search pool.
    Serve {
        /// Address and port to listen on (`0.0.0.0:8080` opens it to the network; port 0: any).
        #[arg(long, default_value = "127.0.0.1:8080")]
        bind: std::net::SocketAddr,
        /// A page origin allowed to open the board's WebSocket besides its own
        /// (`https://chess.example.org`, behind a reverse proxy); repeatable.
        #[arg(long = "allow-origin")]
        allow_origin: Vec<String>,
        /// Board pages open at once; more are answered 503.
        #[arg(long, default_value_t = cellmate::gui::MAX_CONNECTIONS)]
        max_sessions: usize,
        /// Searches run at once, all players together (default: the logical CPUs); more wait.
        #[arg(long)]
        workers: Option<usize>,
        /// The one hash table of all searches, in MB.
        #[arg(long, default_value_t = cellmate::gui::HASH_MB)]
        hash: usize,
        /// Seconds a board page may stay quiet (no message, no search) before it is closed.
        #[arg(long, default_value_t = cellmate::gui::IDLE_TIMEOUT.as_secs())]
        idle_timeout: u64,
        /// Where the games are kept: a PostgreSQL URL (`postgres://user@host:port/dbname`,
        /// shared by several servers), else a SQLite file (created if missing; `:memory:`
        /// keeps nothing). Read from the environment variable CELLMATE_DB when the option is
        /// not given, so that a password stays out of the process list.
        #[arg(
            long,
            env = "CELLMATE_DB",
            default_value = "cellmate.db",
            hide_env_values = true
        )]
        db: String,
        /// Seconds a client may take to send a request head; a slower one is dropped.
        #[arg(long, default_value_t = cellmate::serve::HEAD_TIMEOUT.as_secs())]
        head_timeout: u64,
        /// WebSocket messages a second one client (IP address) earns; one over the limit is
        /// refused with an error and not executed.
        #[arg(long, default_value_t = cellmate::serve::limit::RATE)]
        rate: f64,
        /// WebSocket messages one client may send at once (its bucket's size).
        #[arg(long, default_value_t = cellmate::serve::limit::BURST)]
        burst: f64,
        /// Board pages one client (IP address) may have open at once; one more gets 429.
        #[arg(long, default_value_t = cellmate::serve::limit::MAX_SESSIONS_PER_CLIENT)]
        max_sessions_per_client: usize,
        /// A reverse proxy's address whose X-Forwarded-For names the client (else every
        /// client behind it is the proxy); repeatable. Off by default.
        #[arg(long = "trust-proxy")]
        trust_proxy: Vec<std::net::IpAddr>,
    },
    /// Fits material values to game results (Texel method) over the quiet positions of the
    /// games in a PGN file written by `cellmate match --pgn`.
    Tune {
        #[arg(long)]
        pgn: String,
        /// Only games of this variant (default: the first game's).
        #[arg(long)]
        variant: Option<String>,
        /// Plies skipped at the start of each game (the random opening).
        #[arg(long, default_value_t = 10)]
        skip_plies: usize,
        /// L2 penalty on the coefficients (keeps features never seen at 0).
        #[arg(long, default_value_t = 1e-4)]
        ridge: f64,
        /// Refits on games resampled with replacement, this many times, and reports the
        /// spread of each value (0: none).
        #[arg(long, default_value_t = 0)]
        bootstrap: usize,
        /// Fits the whole chess evaluation (every parameter of its table) instead of
        /// material values: Adam steps on the squared error of the results.
        #[arg(long)]
        eval: bool,
        /// With --eval: full passes over the positions.
        #[arg(long, default_value_t = 2000)]
        epochs: usize,
        /// With --eval: the step size, centipawns.
        #[arg(long, default_value_t = 1.0)]
        rate: f64,
        /// With --eval: write the fitted table's rows (chess_params.rs's form) to this file.
        #[arg(long)]
        rust: Option<String>,
        /// With --eval: the weight of the squared distance of each value from its starting
        /// value (per position, in squared pawns), which keeps rarely seen values near it.
        #[arg(long, default_value_t = 0.0)]
        l2: f64,
    },
    /// Scores one engine over the games of PGN files (`cellmate match --pgn`, split runs of one
    /// match): the match summary's score, Elo and optional SPRT lines, for all games together.
    Score {
        /// PGN files; every game between the same two engines.
        #[arg(required = true)]
        pgn: Vec<std::path::PathBuf>,
        /// The engine scored (its name in the White and Black tags); default: White of the
        /// first game.
        #[arg(long)]
        engine: Option<String>,
        /// Also the sequential test's standing: `elo0=0,elo1=5[,alpha=0.05,beta=0.05]`.
        #[arg(long)]
        sprt: Option<String>,
        /// Count a game that repeats an earlier one move for move (same start, same players
        /// in the same colours, same moves) only once.
        #[arg(long)]
        distinct: bool,
    },
    /// Lists the search's constants (`--search-params`), one a line: name, the value this
    /// process uses (the default unless `--search-params` changed it), lowest and highest
    /// allowed; what a tuner reads (scripts/spsa.py --tune search).
    SearchParams,
    /// Writes balanced openings for matches (`--openings`), one FEN a line: each ply drawn
    /// among the moves a shallow search finds within a margin of the best, the end position
    /// kept when a deeper search scores it near equality (docs/strength.md, "Openings").
    Openings {
        /// Variant name (UCI or XBoard spelling).
        #[arg(long, default_value = "chess")]
        variant: String,
        #[command(flatten)]
        spec: cellmate::book::BookSpec,
    },
}

#[derive(clap::Args)]
struct NotationArgs {
    /// Variant name (UCI or XBoard spelling); default: the input's Variant tag, else immune.
    #[arg(long)]
    variant: Option<String>,
    /// Output notation: `seed` (the inventor's: M-e4, B+e9 …; Immune Chess only) or
    /// `coords` (e2e4, shots e2e7,e7e2). Default: seed for an Immune Chess move list,
    /// coords for PGN and other variants.
    #[arg(long, value_parser = ["seed", "coords"])]
    to: Option<String>,
    /// Start position (default: the input's FEN tag, else the variant's start).
    #[arg(long)]
    fen: Option<String>,
    /// Coordinates with XBoard's rank numbering (from 0 on boards of 10 or more ranks),
    /// read and written.
    #[arg(long)]
    xboard: bool,
    /// Write numbered pairs, one a line (`1. I-e7 M-e4`).
    #[arg(long, conflicts_with = "pgn")]
    numbered: bool,
    /// Write the game as PGN (tags Variant, SetUp, FEN, Result; the input's tags kept).
    #[arg(long)]
    pgn: bool,
}

fn notation(args: NotationArgs) -> Result<(), String> {
    use cellmate::notation::{self, Notation};
    use std::io::Read;
    let mut input = String::new();
    std::io::stdin()
        .read_to_string(&mut input)
        .map_err(|e| format!("reading stdin: {e}"))?;
    let tagged = notation::split(&input)
        .ok()
        .and_then(|t| t.tag("Variant").map(str::to_string));
    let name = args.variant.or(tagged).unwrap_or_else(|| "immune".into());
    let kind = VariantKind::from_name(&name).ok_or_else(|| {
        format!(
            "unknown variant {name:?} (known: {})",
            variant_list(VariantKind::name, ", ")
        )
    })?;
    let dialect = notation::coords_dialect(kind, args.xboard);
    let to = match args.to.as_deref() {
        Some("seed") => Notation::Seed,
        Some(_) => Notation::Coords(dialect),
        None if kind.has_own_notation() && !args.pgn => Notation::Seed,
        None => Notation::Coords(dialect),
    };
    let game = notation::convert(kind, args.fen.as_deref(), &input, dialect, to)
        .map_err(|e| e.to_string())?;
    let text = if args.pgn {
        game.pgn()
    } else if args.numbered {
        game.numbered()
    } else {
        game.lines()
    };
    out!("{text}");
    Ok(())
}

/// `cellmate nnue-train`'s arguments.
#[derive(clap::Args)]
struct TrainArgs {
    /// Datagen files.
    #[arg(required = true)]
    data: Vec<String>,
    /// The network file, written after each epoch that lowers the held-out loss.
    #[arg(long)]
    out: String,
    /// Start from this network file instead of random weights.
    #[arg(long)]
    init: Option<String>,
    #[arg(long, default_value_t = 30)]
    epochs: usize,
    #[arg(long, default_value_t = 16384)]
    batch: usize,
    #[arg(long, default_value_t = 0.001)]
    rate: f32,
    /// The share of the search's score in the target (the rest is the game's result); below
    /// 1 the network learns each training game's result and the held-out loss rises after
    /// an epoch or two (docs/strength.md, "The chess network").
    #[arg(long, default_value_t = 1.0)]
    lambda: f32,
    /// The rate is multiplied by this every --drop-every epochs.
    #[arg(long, default_value_t = 0.3)]
    drop: f32,
    #[arg(long, default_value_t = 10)]
    drop_every: usize,
    #[arg(long, default_value_t = 2)]
    threads: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Mirror half the positions' files (a ↔ h) each epoch.
    #[arg(long)]
    mirror: bool,
}

impl TrainArgs {
    fn spec(&self) -> cellmate::nnue_train::TrainSpec {
        cellmate::nnue_train::TrainSpec {
            epochs: self.epochs,
            batch: self.batch,
            rate: self.rate,
            lambda: self.lambda,
            drop: self.drop,
            drop_every: self.drop_every,
            threads: self.threads,
            seed: self.seed,
            mirror: self.mirror,
        }
    }
}

#[derive(clap::Args)]
struct MatchArgs {
    /// An engine, twice: `cmd=PATH[,proto=uci|xboard][,name=N][,arg=A]…[,option.NAME=V]…
    /// [,tc=…|depth=N|nodes=N|st=S]`, or `builtin=random`. Results are the first engine's.
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Variant name (UCI or XBoard spelling).
    #[arg(long, default_value = "chess")]
    variant: String,
    /// Total games; each opening is played twice, colours swapped.
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Clock: BASE[+INC] in seconds, e.g. `10` or `10+0.1` (the default limit is 10+0.1).
    #[arg(long, conflicts_with_all = ["depth", "nodes", "st"])]
    tc: Option<String>,
    /// Fixed depth per move (UCI `go depth`, XBoard `sd`).
    #[arg(long, conflicts_with_all = ["nodes", "st"])]
    depth: Option<u32>,
    /// Fixed nodes per move (UCI `go nodes`; XBoard has none).
    #[arg(long, conflicts_with = "st")]
    nodes: Option<u64>,
    /// Fixed seconds per move (UCI `go movetime`, XBoard `st`).
    #[arg(long)]
    st: Option<String>,
    /// Start positions: one FEN or EPD per line, used in order and cycled.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// The file's line (1-based, counting positions only) the first pair of games starts from;
    /// the ones before it come after the last. Splits a long match into runs on fresh openings.
    #[arg(long, default_value_t = 1, requires = "openings", value_parser = clap::value_parser!(u64).range(1..))]
    openings_start: u64,
    /// Random legal plies played before the engines take over (after the file's position).
    #[arg(long, default_value_t = 0)]
    random_plies: usize,
    /// Seed for random openings and the built-in random mover.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Append every game to this PGN file.
    #[arg(long)]
    pgn: Option<std::path::PathBuf>,
    /// Sequential test, stopping early: `elo0=0,elo1=5,alpha=0.05,beta=0.05`.
    #[arg(long)]
    sprt: Option<String>,
    /// Milliseconds a clock may overrun before the flag falls.
    #[arg(long, default_value_t = 100)]
    time_margin: u64,
    /// Seconds an engine without a clock (depth, nodes) may take for one move.
    #[arg(long, default_value_t = 60)]
    stall_timeout: u64,
    /// Seconds of silence while an engine thinks (its clock running) counted as a stall.
    #[arg(long, default_value = "2")]
    stall_gap: f64,
    /// Write one line per stall (game, ply, side, engine, silence) to this file.
    #[arg(long)]
    stall_report: Option<std::path::PathBuf>,
    /// Adjudicate a draw after this many plies (0: never).
    #[arg(long, default_value_t = 0)]
    max_plies: usize,
    /// Adjudicate a draw by the engines' scores, as cutechess-cli: `movenumber=40,movecount=8,score=10`
    /// (from move 40, both engines within ±10 cp for 8 moves each; a capture restarts the count).
    #[arg(long)]
    draw: Option<String>,
    /// Adjudicate a loss by the engines' scores, as cutechess-cli: `movecount=3,score=600[,twosided=true]`
    /// (an engine at or below -600 cp for 3 of its moves; two-sided: the other agrees).
    #[arg(long)]
    resign: Option<String>,
    /// No progress line on stderr.
    #[arg(long)]
    quiet: bool,
}

fn run_match(a: MatchArgs) -> Result<(), String> {
    use cellmate::referee::{self, spec::EngineSpec, spec::Limit, stats::Sprt, MatchConfig};
    let kind = VariantKind::from_name(&a.variant).ok_or_else(|| {
        format!(
            "unknown variant {:?} (known: {})",
            a.variant,
            variant_list(VariantKind::name, ", ")
        )
    })?;
    let [e1, e2] = <[String; 2]>::try_from(a.engines)
        .map_err(|v| format!("give exactly two --engine options, not {}", v.len()))?;
    let mut cfg = MatchConfig::new([EngineSpec::parse(&e1)?, EngineSpec::parse(&e2)?], kind);
    if let Some(tc) = &a.tc {
        cfg.limit = Limit::parse_tc(tc)?;
    } else if let Some(d) = a.depth {
        cfg.limit = Limit::parse_key("depth", &d.to_string())?.expect("a limit key");
    } else if let Some(n) = a.nodes {
        cfg.limit = Limit::parse_key("nodes", &n.to_string())?.expect("a limit key");
    } else if let Some(st) = &a.st {
        cfg.limit = Limit::parse_key("st", st)?.expect("a limit key");
    }
    cfg.games = a.games;
    if let Some(path) = &a.openings {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        cfg.openings = referee::openings::read_openings(kind, &text)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let first = usize::try_from(a.openings_start - 1).unwrap_or(usize::MAX);
        if first >= cfg.openings.len() {
            return Err(format!(
                "--openings-start {}: {} has {} openings",
                a.openings_start,
                path.display(),
                cfg.openings.len()
            ));
        }
        cfg.openings.rotate_left(first);
    }
    cfg.random_plies = a.random_plies;
    cfg.seed = a.seed;
    cfg.concurrency = a.concurrency.max(1);
    cfg.pgn = a.pgn;
    cfg.sprt = a.sprt.as_deref().map(Sprt::parse).transpose()?;
    cfg.time_margin = std::time::Duration::from_millis(a.time_margin);
    cfg.stall_timeout = std::time::Duration::from_secs(a.stall_timeout.max(1));
    if !(a.stall_gap.is_finite() && a.stall_gap > 0.0) {
        return Err(format!(
            "--stall-gap must be a positive number of seconds, not {}",
            a.stall_gap
        ));
    }
    cfg.stall_gap = std::time::Duration::from_secs_f64(a.stall_gap.min(1e9));
    cfg.stall_report = a.stall_report;
    cfg.max_plies = (a.max_plies > 0).then_some(a.max_plies);
    cfg.draw_rule = a
        .draw
        .as_deref()
        .map(referee::adjudicate::DrawRule::parse)
        .transpose()?;
    cfg.resign_rule = a
        .resign
        .as_deref()
        .map(referee::adjudicate::ResignRule::parse)
        .transpose()?;
    cfg.progress = !a.quiet;
    if let Some(w) = cfg.repeat_warning() {
        eprintln!("{w}");
    }
    let report = referee::run(&cfg)?;
    out!("{}", referee::summary(&cfg, &report));
    Ok(())
}

fn openings(variant: &str, spec: &cellmate::book::BookSpec) -> Result<(), String> {
    let kind = known_variant(variant)?;
    outln!(
        "# {} openings: {} plies, moves within {} cp of the best at depth {}, kept within ±{} cp at depth {}, seed {}",
        kind.name(),
        spec.plies,
        spec.pick_margin,
        spec.pick_depth,
        spec.margin,
        spec.check_depth,
        spec.seed
    );
    let found = cellmate::book::openings(&kind.startpos(), spec, &mut |o| {
        outln!("{}", o.fen);
        eprintln!("{:+5} {}", o.score, o.moves.join(" "));
    });
    if found.len() < spec.count {
        return Err(format!(
            "only {} of {} openings found in {} tries",
            found.len(),
            spec.count,
            spec.max_tries()
        ));
    }
    Ok(())
}

fn score(
    files: &[std::path::PathBuf],
    engine: Option<&str>,
    sprt: Option<&str>,
    distinct: bool,
) -> Result<(), String> {
    use cellmate::referee::{self, stats::Sprt};
    let sprt = sprt.map(Sprt::parse).transpose()?;
    let mut games = Vec::new();
    // Games seen: start, players, moves. A repeat is counted, and skipped with `distinct`.
    let mut seen = std::collections::HashSet::new();
    let mut repeats = 0;
    let mut variant: Option<String> = None;
    for path in files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        for (i, chunk) in cellmate::notation::split_games(&text).iter().enumerate() {
            let g = cellmate::notation::split(chunk)
                .map_err(|e| format!("{}: game {}: {e}", path.display(), i + 1))?;
            let tag = |t: &str| g.tag(t).unwrap_or("?").to_string();
            let v = tag("Variant");
            match &variant {
                Some(first) if *first != v => {
                    return Err(format!(
                        "{}: game {}: variant {v}, not {first}",
                        path.display(),
                        i + 1
                    ))
                }
                _ => variant = Some(v),
            }
            let players = [tag("White"), tag("Black")];
            let moves: Vec<&str> = g.moves.iter().map(|w| w.text.as_str()).collect();
            if !seen.insert((tag("FEN"), players.clone(), moves.join(" "))) {
                repeats += 1;
                if distinct {
                    continue;
                }
            }
            let result = g.tag("Result").or(g.result.as_deref()).unwrap_or("*");
            let [white, black] = players;
            games.push([white, black, result.to_string()]);
        }
    }
    let t = referee::stats::tally(&games, engine)?;
    out!(
        "{} vs {} ({}, {} games from {} file{})\n",
        t.names[0],
        t.names[1],
        variant.as_deref().unwrap_or("?"),
        t.wdl.games(),
        files.len(),
        if files.len() == 1 { "" } else { "s" }
    );
    out!("{}", referee::score_lines(&t.names, &t.wdl));
    if let Some(sprt) = sprt {
        out!(
            "{}",
            referee::sprt_line(&sprt, sprt.llr(&t.wdl), sprt.state(&t.wdl))
        );
    }
    if t.unfinished > 0 {
        out!("Unfinished: {} (no result, not counted)\n", t.unfinished);
    }
    if repeats > 0 {
        out!(
            "Repeats: {repeats} games repeat an earlier one move for move ({})\n",
            if distinct {
                "not counted"
            } else {
                "counted; --distinct counts each once"
            }
        );
    }
    Ok(())
}

fn known_variant(variant: &str) -> Result<VariantKind, String> {
    VariantKind::from_name(variant).ok_or_else(|| {
        format!(
            "unknown variant {variant:?} (known: {})",
            variant_list(VariantKind::name, ", ")
        )
    })
}

fn perft(variant: &str, fen: Option<&str>, depth: u32, divide: bool) -> Result<(), String> {
    let kind = known_variant(variant)?;
    let game = match fen {
        Some(f) => Game::from_fen(kind, f).map_err(|e| format!("invalid FEN {f:?}: {e}"))?,
        None => Game::new(kind),
    };
    let start = Instant::now();
    let total = if divide {
        let (lines, total) = game.perft_divide(depth, Dialect::UCI);
        for (m, n) in lines {
            outln!("{m}: {n}");
        }
        outln!();
        total
    } else {
        game.perft(depth)
    };
    let ms = start.elapsed().as_millis() as u64;
    outln!("Nodes searched: {total}");
    outln!("Time: {ms} ms");
    outln!("Nodes/s: {}", total.saturating_mul(1000) / ms.max(1));
    Ok(())
}

fn tune(
    pgn: &str,
    variant: Option<&str>,
    skip_plies: usize,
    ridge: f64,
    rounds: usize,
) -> Result<(), String> {
    let kind = match variant {
        Some(v) => Some(VariantKind::from_name(v).ok_or_else(|| format!("unknown variant {v:?}"))?),
        None => None,
    };
    let text = std::fs::read_to_string(pgn).map_err(|e| format!("{pgn}: {e}"))?;
    let data = cellmate::tune::read_games(&text, kind, skip_plies);
    if data.samples.is_empty() {
        return Err(format!("{pgn}: no positions to fit"));
    }
    let fit = cellmate::tune::fit(&data.samples, ridge);
    let spread = (rounds > 0).then(|| cellmate::tune::bootstrap(&data, ridge, rounds, 1));
    out!("{}", cellmate::tune::report(&data, &fit, spread.as_deref()));
    Ok(())
}

/// `cellmate tune --eval`: the Texel method over every chess evaluation parameter
/// ([`cellmate::texel`]).
fn tune_eval(
    pgn: &str,
    skip_plies: usize,
    epochs: usize,
    rate: f64,
    l2: f64,
    rust: Option<&str>,
) -> Result<(), String> {
    use cellmate::engine::eval::chess_params::ChessParams;
    use cellmate::texel;
    let text = std::fs::read_to_string(pgn).map_err(|e| format!("{pgn}: {e}"))?;
    let data = texel::read(&text, skip_plies);
    if data.samples.is_empty() {
        return Err(format!("{pgn}: no positions to fit"));
    }
    let held = data.samples.iter().filter(|s| s.held_out).count();
    outln!(
        "games {} (skipped {}), positions {} (held out {held})",
        data.games,
        data.skipped,
        data.samples.len()
    );
    let old = ChessParams::DEFAULT;
    let mut v = texel::values(&old);
    let k = texel::fit_k(&data.samples, &v);
    let (tr, ho) = (
        texel::loss(&data.samples, &v, k, false),
        texel::loss(&data.samples, &v, k, true),
    );
    outln!("k {k:.6}; start: train {tr:.6}, held out {ho:.6}");
    texel::fit(
        &data.samples,
        &mut v,
        k,
        (epochs, rate, l2),
        100,
        |e, tr, ho| {
            outln!("epoch {e}: train {tr:.6}, held out {ho:.6}");
        },
    );
    let new = texel::rounded(&v, &old, &data.samples);
    let rows = texel::rust_rows(&new);
    match rust {
        Some(path) => std::fs::write(path, rows).map_err(|e| format!("{path}: {e}"))?,
        None => out!("{rows}"),
    }
    Ok(())
}

fn datagen(openings: &str, out: &str, mut spec: cellmate::datagen::Spec) -> Result<(), String> {
    let text = std::fs::read_to_string(openings).map_err(|e| format!("{openings}: {e}"))?;
    spec.openings = cellmate::referee::openings::read_openings(VariantKind::Chess, &text)?;
    if spec.openings.is_empty() {
        return Err(format!("{openings}: no position"));
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .map_err(|e| format!("{out}: {e}"))?;
    let n = cellmate::datagen::run(&spec, &mut file).map_err(|e| format!("{out}: {e}"))?;
    outln!("{n} positions written to {out}");
    Ok(())
}

/// A chess network file (`--eval-file`, `nnue-train --init`); the error names the file.
fn read_network(path: &str) -> Result<cellmate::engine::eval::nnue::Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    cellmate::engine::eval::nnue::Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))
}

fn nnue_train(
    data: &[String],
    out: &str,
    init: Option<&str>,
    spec: &cellmate::nnue_train::TrainSpec,
) -> Result<(), String> {
    use cellmate::nnue_train as nt;
    let samples = nt::read(data)?;
    outln!("{} positions read", samples.len());
    if samples.is_empty() {
        return Err("no position to train on".to_string());
    }
    let start = match init {
        Some(path) => Some(nt::Weights::from_network(&read_network(path)?)),
        None => None,
    };
    let held = nt::held_out(&samples);
    if held.is_empty() {
        outln!(
            "no position held out (the {}th block of {} is): every epoch is written",
            nt::HOLD_OUT,
            nt::BLOCK
        );
    } else {
        outln!(
            "held-out loss of the hand-made table: {:.6}",
            nt::table_loss(&held, spec.lambda)
        );
    }
    let nothing_held = held.is_empty();
    let mut failed = None;
    // The epoch with the lowest held-out loss is the one kept.
    let mut best = f64::INFINITY;
    nt::train(&samples, spec, start, &mut |epoch, train, held, w| {
        let kept = nothing_held || held < best;
        outln!(
            "epoch {epoch}: training loss {train:.6}, held-out loss {held:.6}{}",
            if kept { ", written" } else { "" }
        );
        if kept {
            best = held;
            if let Err(e) = std::fs::write(out, w.quantise().to_bytes()) {
                failed = Some(format!("{out}: {e}"));
            }
        }
    });
    match failed {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // A host logs what it does (games stored, pages refused); the engine only its warnings.
    let level = match cli.command {
        Some(Command::Serve { .. }) => "info",
        _ => "warn",
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(level))
        .target(env_logger::Target::Stderr)
        .init();
    use cellmate::engine::eval::{micro::MicroParams, ChessNet, EvalParams};
    type Setter = fn(&mut MicroParams, &str) -> Result<(), String>;
    let mut eval = EvalParams::DEFAULT;
    for (flag, text, set) in [
        (
            "--micro-values",
            &cli.micro_values,
            MicroParams::set_values as Setter,
        ),
        ("--micro-gifts", &cli.micro_gifts, MicroParams::set_gifts),
        ("--micro-terms", &cli.micro_terms, MicroParams::set_terms),
    ] {
        if let Some(text) = text {
            if let Err(e) = set(&mut eval.micro, text) {
                eprintln!("error: {flag}: {e}");
                return ExitCode::from(2);
            }
        }
    }
    if cli.no_network {
        eval.chess_net = ChessNet::Off;
    }
    if let Some(path) = &cli.eval_file {
        match read_network(path) {
            Ok(net) => eval.chess_net = ChessNet::File(Box::leak(Box::new(net))),
            Err(e) => {
                eprintln!("error: --eval-file: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let mut search = SearchParams::DEFAULT;
    if let Some(text) = &cli.search_params {
        if let Err(e) = search.set(text) {
            eprintln!("error: --search-params: {e}");
            return ExitCode::from(2);
        }
    }
    let res = match cli.command {
        None => cellmate::protocol::run_stdio_with(cellmate::protocol::options::Settings {
            eval,
            search,
            ..Default::default()
        })
        .map_err(|e| e.to_string()),
        Some(Command::Perft {
            variant,
            fen,
            depth,
            divide,
        }) => perft(&variant, fen.as_deref(), depth, divide),
        Some(Command::Bench { depth }) => {
            use cellmate::engine::bench;
            let (nodes, nps) = bench::bench(depth.unwrap_or(bench::DEFAULT_DEPTH));
            outln!("Nodes: {nodes}");
            outln!("NPS: {nps}");
            Ok(())
        }
        Some(Command::Datagen {
            openings,
            out,
            games,
            nodes,
            random_min,
            random_max,
            threads,
            seed,
            label_nodes,
            label_every,
        }) => datagen(
            &openings,
            &out,
            cellmate::datagen::Spec {
                openings: Vec::new(),
                nodes,
                games,
                random_min,
                random_max: random_max.max(random_min),
                threads,
                seed: seed.max(1),
                eval,
                label: label_nodes.map(|nodes| cellmate::datagen::Label {
                    nodes,
                    every: label_every as usize,
                }),
            },
        ),
        Some(Command::NnueTrain(args)) => {
            nnue_train(&args.data, &args.out, args.init.as_deref(), &args.spec())
        }
        Some(Command::Notation(args)) => notation(args),
        Some(Command::Match(args)) => run_match(*args),
        Some(Command::Gui {
            port,
            host,
            allow_origin,
            workers,
            hash,
            max_connections,
            idle_timeout,
        }) => {
            let defaults = cellmate::gui::Config::default();
            let config = cellmate::gui::Config {
                allow_origins: allow_origin,
                max_connections,
                idle_timeout: std::time::Duration::from_secs(idle_timeout),
                workers: workers.unwrap_or(defaults.workers),
                hash_mb: hash,
                eval,
            };
            cellmate::gui::serve((host, port).into(), &config)
                .map_err(|e| format!("gui on {host}:{port}: {e}"))
        }
        Some(Command::Serve {
            bind,
            allow_origin,
            max_sessions,
            workers,
            hash,
            idle_timeout,
            db,
            head_timeout,
            rate,
            burst,
            max_sessions_per_client,
            trust_proxy,
        }) => {
            let config = cellmate::gui::Config {
                allow_origins: allow_origin,
                max_connections: max_sessions,
                idle_timeout: std::time::Duration::from_secs(idle_timeout),
                workers: workers.unwrap_or_else(cellmate::engine::thread::max_threads),
                hash_mb: hash,
                eval,
            };
            let settings = cellmate::serve::Settings {
                db,
                head_timeout: std::time::Duration::from_secs(head_timeout),
                limits: cellmate::serve::limit::Limits {
                    rate,
                    burst,
                    max_sessions: max_sessions_per_client,
                    trusted_proxies: trust_proxy,
                },
            };
            if !(rate.is_finite() && rate > 0.0 && burst.is_finite() && burst >= 1.0) {
                Err(format!(
                    "serve: --rate must be above 0 and --burst at least 1 (got {rate}, {burst})"
                ))
            } else {
                cellmate::serve::run(bind, &config, &settings).map_err(|e| format!("serve: {e}"))
            }
        }
        Some(Command::Tune {
            pgn,
            variant,
            skip_plies,
            eval: true,
            epochs,
            rate,
            rust,
            l2,
            ..
        }) => {
            if variant.is_some_and(|v| VariantKind::from_name(&v) != Some(VariantKind::Chess)) {
                Err("--eval fits the chess evaluation only".to_string())
            } else {
                tune_eval(&pgn, skip_plies, epochs, rate, l2, rust.as_deref())
            }
        }
        Some(Command::Tune {
            pgn,
            variant,
            skip_plies,
            ridge,
            bootstrap,
            ..
        }) => tune(&pgn, variant.as_deref(), skip_plies, ridge, bootstrap),
        Some(Command::Openings { variant, spec }) => openings(&variant, &spec),
        Some(Command::SearchParams) => {
            for ((name, lo, hi), v) in SearchParams::ranges().zip(search.values()) {
                outln!("{name} {v} {lo} {hi}");
            }
            Ok(())
        }
        Some(Command::Score {
            pgn,
            engine,
            sprt,
            distinct,
        }) => score(&pgn, engine.as_deref(), sprt.as_deref(), distinct),
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cellmate: {e}");
            ExitCode::FAILURE
        }
    }
}
