//! The protocol room: the stdin/stdout loop, and UCI and XBoard (CECP v2) on top of it.
//!
//! stdin is read on its own tokio task and its lines sent over a channel to the main loop,
//! which `select!`s over input lines and search-finished messages, so `stop`, `?`, `quit`,
//! `isready` and `ping` are answered while a search runs. Searches run on their own threads
//! ([`searcher`]). All output goes through one [`Output`], a locked writer flushed after every
//! line; logging goes to stderr only.
//!
//! The protocol is chosen by the first non-empty line: `uci` selects UCI; `xboard` or
//! `protover` selects XBoard; anything else starts XBoard in console mode (one `#` comment
//! line says so, then the line is handled as an XBoard command). In console mode, before any
//! `xboard`/`protover`, a later `uci` still switches to UCI. End of input acts as `quit`.

pub mod format;
pub mod options;
pub mod searcher;
pub mod uci;
pub mod xbcommand;
pub mod xboard;

use std::io::Write;
use std::sync::{Arc, Mutex};

use tokio::io::AsyncBufReadExt;
use tokio::sync::mpsc;

/// The engine's name and version as both protocols announce it.
pub fn engine_name() -> String {
    format!("cellmate {}", env!("CARGO_PKG_VERSION"))
}

/// Whether the session goes on after a command.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Flow {
    Continue,
    Quit,
}

/// The one writer all protocol output goes through: whole lines, flushed at once.
#[derive(Clone)]
pub struct Output {
    inner: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Output {
    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output {
            inner: Arc::new(Mutex::new(w)),
        }
    }

    /// Writes lines (a text with `\n`s is written as a block, uninterrupted) and flushes.
    /// Write errors (a closed pipe) are logged, never fatal.
    pub fn line(&self, text: &str) {
        let mut w = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        for l in text.lines() {
            log::debug!("> {l}");
        }
        let res = writeln!(w, "{text}").and_then(|_| w.flush());
        if let Err(e) = res {
            log::warn!("cannot write to the GUI: {e}");
        }
    }
}

/// A sink that keeps what was written (for unit tests).
#[derive(Clone, Default)]
pub struct Capture(pub Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Capture {
    /// Everything written so far, as lines; the buffer is emptied.
    pub fn take_lines(&self) -> Vec<String> {
        let mut buf = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let text = String::from_utf8_lossy(&buf).into_owned();
        buf.clear();
        text.lines().map(str::to_string).collect()
    }
}

enum Mode {
    Undecided,
    Uci(Box<uci::Uci>),
    Xboard(Box<xboard::Xboard>),
}

/// A protocol session: undecided until the first command, then UCI or XBoard.
pub struct Session {
    out: Output,
    done_tx: mpsc::UnboundedSender<u64>,
    mode: Mode,
    /// The settings either protocol starts from.
    settings: options::Settings,
}

impl Session {
    pub fn new(out: Output, done_tx: mpsc::UnboundedSender<u64>) -> Session {
        Session::with_settings(out, done_tx, options::Settings::default())
    }

    /// A session whose protocol starts from `settings` (the command line's evaluation
    /// parameters, say) instead of the defaults.
    pub fn with_settings(
        out: Output,
        done_tx: mpsc::UnboundedSender<u64>,
        settings: options::Settings,
    ) -> Session {
        Session {
            out,
            done_tx,
            mode: Mode::Undecided,
            settings,
        }
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        let line = line.trim();
        if line.is_empty() {
            return Flow::Continue;
        }
        log::debug!("< {line}");
        let first = line.split_whitespace().next().unwrap_or("");
        let switch_to_uci = match &self.mode {
            Mode::Undecided => first == "uci",
            Mode::Xboard(xb) => first == "uci" && !xb.handshake_seen(),
            Mode::Uci(_) => false,
        };
        if switch_to_uci {
            if let Mode::Xboard(xb) = &mut self.mode {
                xb.shutdown();
            }
            self.mode = Mode::Uci(Box::new(uci::Uci::with_settings(
                self.out.clone(),
                self.done_tx.clone(),
                self.settings.clone(),
            )));
        } else if let Mode::Undecided = self.mode {
            if first == "quit" {
                return Flow::Quit;
            }
            if first != "xboard" && first != "protover" {
                self.out.line(&format!(
                    "# {}: XBoard console mode (send 'uci' for UCI, 'help' for commands)",
                    engine_name()
                ));
            }
            self.mode = Mode::Xboard(Box::new(xboard::Xboard::with_settings(
                self.out.clone(),
                self.done_tx.clone(),
                self.settings.clone(),
            )));
        }
        match &mut self.mode {
            Mode::Uci(u) => u.handle(line),
            Mode::Xboard(x) => x.handle(line),
            Mode::Undecided => Flow::Continue,
        }
    }

    /// A search thread has finished.
    pub fn search_done(&mut self, id: u64) {
        match &mut self.mode {
            Mode::Uci(u) => u.search_done(id),
            Mode::Xboard(x) => x.search_done(id),
            Mode::Undecided => {}
        }
    }

    /// Stops any search and waits for it (quit, end of input).
    pub fn shutdown(&mut self) {
        match &mut self.mode {
            Mode::Uci(u) => u.shutdown(),
            Mode::Xboard(x) => x.shutdown(),
            Mode::Undecided => {}
        }
    }
}

/// Reads stdin lines (lossy UTF-8, `\r\n` or `\n`) and sends them to the main loop; dropping
/// the sender at end of input tells the loop to quit.
///
/// A line longer than [`MAX_LINE`] bytes is not kept: its bytes are read and dropped up to its
/// end, and the loop gets [`TOO_LONG`] instead, which no protocol takes for a command (so the
/// reader's memory stays bounded whatever is sent: a 50 MB line once took 256 MB).
async fn read_stdin(tx: mpsc::Sender<String>) {
    let mut reader = tokio::io::BufReader::new(tokio::io::stdin());
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let mut dropped = false;
        let mut ended = false;
        // One line, a buffer at a time.
        loop {
            let chunk = match reader.fill_buf().await {
                Ok(c) => c,
                Err(e) => {
                    log::error!("cannot read stdin: {e}");
                    ended = true;
                    break;
                }
            };
            if chunk.is_empty() {
                ended = true;
                break;
            }
            let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            if !dropped && buf.len() + take <= MAX_LINE {
                buf.extend_from_slice(&chunk[..take]);
            } else {
                dropped = true;
                buf.clear();
            }
            reader.consume(take);
            if done {
                break;
            }
        }
        if ended && buf.is_empty() && !dropped {
            break;
        }
        let line = if dropped {
            TOO_LONG.to_string()
        } else {
            let text = String::from_utf8_lossy(&buf);
            text.trim_end_matches(['\n', '\r']).to_string()
        };
        if tx.send(line).await.is_err() || ended {
            break;
        }
    }
    log::debug!("end of input");
}

/// The longest input line kept (1 MiB: a `position … moves …` of 100,000 plies fits).
pub const MAX_LINE: usize = 1 << 20;

/// What the protocol loop gets for a longer line: an unknown command in both protocols,
/// answered with their error line.
pub const TOO_LONG: &str = "\u{1}input line longer than 1 MiB dropped";

/// The protocol loop on stdin/stdout, until `quit` or end of input.
pub fn run_stdio() -> anyhow::Result<()> {
    run_stdio_with(options::Settings::default())
}

/// [`run_stdio`] with the protocol starting from `settings` instead of the defaults.
pub fn run_stdio_with(settings: options::Settings) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    rt.block_on(async {
        let (line_tx, mut line_rx) = mpsc::channel::<String>(1024);
        let (done_tx, mut done_rx) = mpsc::unbounded_channel::<u64>();
        tokio::spawn(read_stdin(line_tx));
        let mut session = Session::with_settings(Output::stdout(), done_tx, settings);
        loop {
            tokio::select! {
                biased;
                Some(id) = done_rx.recv() => session.search_done(id),
                line = line_rx.recv() => match line {
                    Some(line) => {
                        if session.handle_line(&line) == Flow::Quit {
                            break;
                        }
                    }
                    None => break,
                },
            }
        }
        session.shutdown();
    });
    // The stdin reader may be blocked in a read that never returns: don't wait for it.
    rt.shutdown_background();
    Ok(())
}
