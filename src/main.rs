//! The `cellmate` binary.
//!
//! - `cellmate`: the protocol loop on stdin/stdout. The first command chooses the protocol:
//!   `uci` → UCI; `xboard` or `protover` → XBoard; anything else → XBoard console mode (see
//!   [`cellmate::protocol`]).
//! - `cellmate perft [--variant V] [--fen F] --depth N [--divide]`: move-path enumeration.
//! - `cellmate bench [--depth N]`: a fixed-depth search; prints `Nodes: N` and `NPS: M`.
//! - `cellmate notation [--variant V] [--to seed|coords] [--fen F] [--xboard] [--numbered|--pgn]`:
//!   reads a game on stdin and writes it in another notation (see [`cellmate::notation`]).
//!
//! Logging goes to stderr (`RUST_LOG=debug` shows the protocol traffic), never stdout.

use std::process::ExitCode;
use std::time::Instant;

use clap::{Parser, Subcommand};

use cellmate::core::Dialect;
use cellmate::protocol::game::{Game, VariantKind};
use cellmate::protocol::options::variant_list;

#[derive(Parser)]
#[command(
    name = "cellmate",
    version,
    about = "A chess-variant engine (UCI and XBoard)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
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
        #[arg(long)]
        depth: u32,
        /// Print the count below each root move.
        #[arg(long)]
        divide: bool,
    },
    /// Searches a fixed depth and reports speed.
    Bench {
        #[arg(long)]
        depth: Option<u32>,
    },
    /// Reads a game on stdin (coordinates or Immune Chess's own notation, one move a line or
    /// separated by spaces; move numbers, PGN tags, comments and a result are skipped) and
    /// writes it converted, one move a line. A bad move stops it with an error (exit code 1).
    Notation {
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
    },
}

struct NotationArgs {
    variant: Option<String>,
    to: Option<String>,
    fen: Option<String>,
    xboard: bool,
    numbered: bool,
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
        None if kind == VariantKind::Immune && !args.pgn => Notation::Seed,
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
    print!("{text}");
    Ok(())
}

fn perft(variant: &str, fen: Option<&str>, depth: u32, divide: bool) -> Result<(), String> {
    let kind = VariantKind::from_name(variant).ok_or_else(|| {
        format!(
            "unknown variant {variant:?} (known: {})",
            variant_list(VariantKind::name, ", ")
        )
    })?;
    let game = match fen {
        Some(f) => Game::from_fen(kind, f).map_err(|e| format!("invalid FEN {f:?}: {e}"))?,
        None => Game::new(kind),
    };
    let start = Instant::now();
    let total = if divide {
        let (lines, total) = game.perft_divide(depth, Dialect::UCI);
        for (m, n) in lines {
            println!("{m}: {n}");
        }
        println!();
        total
    } else {
        game.perft(depth)
    };
    let ms = start.elapsed().as_millis() as u64;
    println!("Nodes searched: {total}");
    println!("Time: {ms} ms");
    println!("Nodes/s: {}", total.saturating_mul(1000) / ms.max(1));
    Ok(())
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    let res = match cli.command {
        None => cellmate::protocol::run_stdio().map_err(|e| e.to_string()),
        Some(Command::Perft {
            variant,
            fen,
            depth,
            divide,
        }) => perft(&variant, fen.as_deref(), depth, divide),
        Some(Command::Bench { depth }) => {
            use cellmate::engine::bench;
            let (nodes, nps) = bench::bench(depth.unwrap_or(bench::DEFAULT_DEPTH));
            println!("Nodes: {nodes}");
            println!("NPS: {nps}");
            Ok(())
        }
        Some(Command::Notation {
            variant,
            to,
            fen,
            xboard,
            numbered,
            pgn,
        }) => notation(NotationArgs {
            variant,
            to,
            fen,
            xboard,
            numbered,
            pgn,
        }),
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cellmate: {e}");
            ExitCode::FAILURE
        }
    }
}
