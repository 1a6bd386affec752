//! The `cellmate` binary.
//!
//! - `cellmate`: the protocol loop on stdin/stdout. The first command chooses the protocol:
//!   `uci` → UCI; `xboard` or `protover` → XBoard; anything else → XBoard console mode (see
//!   [`cellmate::protocol`]).
//! - `cellmate perft [--variant V] [--fen F] --depth N [--divide]`: move-path enumeration.
//! - `cellmate bench [--depth N]`: a fixed-depth search; prints `Nodes: N` and `NPS: M`.
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
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("cellmate: {e}");
            ExitCode::FAILURE
        }
    }
}
