//! XBoard input lines read into typed commands ([`parse`]), before `Xboard::handle` acts on
//! them. The reading is pure text work: nothing here knows the game. What only the game can
//! decide stays with the session: whether a word that is no command is a move
//! ([`XbCommand::Bare`]), what square a mouse command names, whether a `setboard` relays a
//! pass, whether a FEN is good; and `memory`, `cores` and `option` values, which the option
//! table reads (its messages are the error lines).
//!
//! Command words are case-sensitive, as in CECP. A command's argument text (`rest` below) is
//! the line after the command word, trimmed; extra words after a number are ignored.

use crate::variants::VariantKind;

/// One XBoard input line, read.
#[derive(Clone, Debug, PartialEq)]
pub enum XbCommand {
    Xboard,
    /// `protover N` (the version is not read).
    Protover,
    /// Commands taken and ignored (`accepted`, `rejected`, `random`, `computer`, `name`,
    /// `rating`, `ics`, `nps`, `draw`, `bk`), by name.
    Ignored(String),
    New,
    Variant(VariantKind),
    Force,
    Go,
    Playother,
    White,
    Black,
    /// `level MPS BASE INC`: BASE in minutes (`5`, `0.5`) or `m:ss`, INC in seconds.
    Level {
        mps: u32,
        base_ms: u64,
        inc_ms: u64,
    },
    /// `st SECONDS` (possibly fractional, above 0), in milliseconds.
    St(u64),
    /// `sd DEPTH`, above 0.
    Sd(u32),
    /// `time CS`: the engine's clock in centiseconds, as sent (possibly negative).
    Time(i64),
    /// `otim CS`: the opponent's clock in centiseconds, as sent.
    Otim(i64),
    /// `usermove MOVE`: the move text.
    Usermove(String),
    /// `lift SQ`, `put SQ`, `hover SQ`: the square text.
    Mouse(Mouse, String),
    /// `?`: move now.
    MoveNow,
    /// `ping N`: the text to send back after `pong `.
    Ping(String),
    /// `result RESULT {COMMENT}`: the text after `result` (not read).
    Result(String),
    /// `setboard FEN`: the FEN in XBoard's spelling.
    Setboard(String),
    Hint,
    Undo,
    Remove,
    Hard,
    Easy,
    Post,
    Nopost,
    Analyze,
    Exit,
    /// `.`: the analysis status line (`stat01`).
    Stat,
    /// `memory MB`: the value text, if any.
    Memory(Option<String>),
    /// `cores N`: the value text, if any.
    Cores(Option<String>),
    /// `option NAME=VALUE` or `option NAME`: the texts either side of the first `=`, as sent.
    Option {
        name: String,
        value: Option<String>,
    },
    Quit,
    /// `d`: the board with all its state.
    Display,
    Fen,
    Xbfen,
    Help,
    /// A line that is no command (the whole line): a move if the position reads it as one
    /// (protocol version 1, console use), else an unknown command.
    Bare(String),
}

/// The mouse commands of `feature highlight=1`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Mouse {
    Lift,
    Put,
    Hover,
}

/// A command with arguments it cannot take: `Error (KIND): LINE (DETAIL)`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// `level`, `st`, `sd`, `time`, `otim`: what was expected.
    BadArgument(&'static str),
    /// `variant NAME` of no variant the engine plays.
    UnsupportedVariant,
}

impl ParseError {
    /// The error line's KIND.
    pub fn kind(self) -> &'static str {
        match self {
            ParseError::BadArgument(_) => "bad argument",
            ParseError::UnsupportedVariant => "unsupported variant",
        }
    }

    /// The error line's DETAIL, if it has one.
    pub fn detail(self) -> Option<&'static str> {
        match self {
            ParseError::BadArgument(expected) => Some(expected),
            ParseError::UnsupportedVariant => None,
        }
    }
}

/// Seconds (possibly fractional, `0.1`) as milliseconds.
fn seconds_ms(s: &str) -> Option<u64> {
    let v: f64 = s.parse().ok()?;
    (0.0..1e9).contains(&v).then(|| (v * 1000.0).round() as u64)
}

/// `level` base time: minutes `m` (possibly fractional) or `m:ss`.
fn base_ms(s: &str) -> Option<u64> {
    match s.split_once(':') {
        Some((m, sec)) => {
            let m: u64 = m.parse().ok()?;
            let sec: u64 = sec.parse().ok()?;
            (m < 1_000_000 && sec < 60).then(|| m * 60_000 + sec * 1000)
        }
        None => seconds_ms(s).map(|ms| ms * 60),
    }
}

/// Reads `level MPS BASE INC` (the words after `level`) as moves, base and increment in
/// milliseconds.
pub fn parse_level(args: &[&str]) -> Option<(u32, u64, u64)> {
    let [mps, base, inc] = args else {
        return None;
    };
    Some((mps.parse().ok()?, base_ms(base)?, seconds_ms(inc)?))
}

/// Reads one input line (surrounding whitespace is ignored).
pub fn parse(line: &str) -> Result<XbCommand, ParseError> {
    use XbCommand as C;
    let line = line.trim();
    let mut parts = line.split_whitespace();
    let cmd = parts.next().unwrap_or("");
    let args: Vec<&str> = parts.collect();
    let rest = line[cmd.len()..].trim();
    let first = args.first().copied();
    let bad = ParseError::BadArgument;
    Ok(match cmd {
        "xboard" => C::Xboard,
        "protover" => C::Protover,
        "accepted" | "rejected" | "random" | "computer" | "name" | "rating" | "ics" | "nps"
        | "draw" | "bk" => C::Ignored(cmd.to_string()),
        "new" => C::New,
        "variant" => {
            C::Variant(VariantKind::from_name(rest).ok_or(ParseError::UnsupportedVariant)?)
        }
        "force" => C::Force,
        "go" => C::Go,
        "playother" => C::Playother,
        "white" => C::White,
        "black" => C::Black,
        "level" => {
            let (mps, base_ms, inc_ms) =
                parse_level(&args).ok_or(bad("expected level MPS BASE INC"))?;
            C::Level {
                mps,
                base_ms,
                inc_ms,
            }
        }
        "st" => C::St(
            first
                .and_then(seconds_ms)
                .filter(|&ms| ms > 0)
                .ok_or(bad("expected seconds"))?,
        ),
        "sd" => C::Sd(
            first
                .and_then(|s| s.parse().ok())
                .filter(|&d| d > 0)
                .ok_or(bad("expected a depth"))?,
        ),
        "time" | "otim" => {
            let cs = first
                .and_then(|s| s.parse().ok())
                .ok_or(bad("expected centiseconds"))?;
            if cmd == "time" {
                C::Time(cs)
            } else {
                C::Otim(cs)
            }
        }
        "usermove" => C::Usermove(rest.to_string()),
        "lift" => C::Mouse(Mouse::Lift, rest.to_string()),
        "put" => C::Mouse(Mouse::Put, rest.to_string()),
        "hover" => C::Mouse(Mouse::Hover, rest.to_string()),
        "?" => C::MoveNow,
        "ping" => C::Ping(rest.to_string()),
        "result" => C::Result(rest.to_string()),
        "setboard" => C::Setboard(rest.to_string()),
        "hint" => C::Hint,
        "undo" => C::Undo,
        "remove" => C::Remove,
        "hard" => C::Hard,
        "easy" => C::Easy,
        "post" => C::Post,
        "nopost" => C::Nopost,
        "analyze" => C::Analyze,
        "exit" => C::Exit,
        "." => C::Stat,
        "memory" => C::Memory(first.map(str::to_string)),
        "cores" => C::Cores(first.map(str::to_string)),
        "option" => {
            let (name, value) = match rest.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (rest, None),
            };
            C::Option {
                name: name.to_string(),
                value,
            }
        }
        "quit" => C::Quit,
        "d" => C::Display,
        "fen" => C::Fen,
        "xbfen" => C::Xbfen,
        "help" => C::Help,
        _ => C::Bare(line.to_string()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use XbCommand as C;

    fn s(t: &str) -> String {
        t.to_string()
    }

    /// Each line reads as its command.
    fn reads<const N: usize>(table: [(&str, XbCommand); N]) {
        for (line, want) in table {
            assert_eq!(parse(line), Ok(want), "{line:?}");
        }
    }

    #[test]
    fn level_reader() {
        assert_eq!(parse_level(&["40", "5", "0"]), Some((40, 300_000, 0)));
        assert_eq!(parse_level(&["0", "0:10", "0.1"]), Some((0, 10_000, 100)));
        assert_eq!(parse_level(&["0", "2:30", "2"]), Some((0, 150_000, 2000)));
        assert_eq!(parse_level(&["0", "0.5", "0"]), Some((0, 30_000, 0)));
        assert_eq!(parse_level(&["0", "2:75", "0"]), None);
        assert_eq!(parse_level(&["x", "5", "0"]), None);
        assert_eq!(parse_level(&["40", "5"]), None);
        assert_eq!(parse_level(&["40", "5", "-1"]), None);
    }

    #[test]
    fn commands_without_arguments() {
        let table = [
            ("xboard", C::Xboard),
            ("protover 2", C::Protover),
            ("protover", C::Protover),
            ("accepted usermove", C::Ignored(s("accepted"))),
            ("rejected ping", C::Ignored(s("rejected"))),
            ("random", C::Ignored(s("random"))),
            ("computer", C::Ignored(s("computer"))),
            ("name Some Body", C::Ignored(s("name"))),
            ("rating 2000 1800", C::Ignored(s("rating"))),
            ("ics -", C::Ignored(s("ics"))),
            ("nps 1000", C::Ignored(s("nps"))),
            ("draw", C::Ignored(s("draw"))),
            ("bk", C::Ignored(s("bk"))),
            ("new", C::New),
            ("force", C::Force),
            ("go", C::Go),
            ("playother", C::Playother),
            ("white", C::White),
            ("black", C::Black),
            ("?", C::MoveNow),
            ("hint", C::Hint),
            ("undo", C::Undo),
            ("remove", C::Remove),
            ("hard", C::Hard),
            ("easy", C::Easy),
            ("post", C::Post),
            ("nopost", C::Nopost),
            ("analyze", C::Analyze),
            ("exit", C::Exit),
            (".", C::Stat),
            ("quit", C::Quit),
            ("d", C::Display),
            ("fen", C::Fen),
            ("xbfen", C::Xbfen),
            ("help", C::Help),
            ("  go  ", C::Go),
            ("\tquit\r\n", C::Quit),
            // Arguments after a command that takes none are ignored, as before.
            ("undo 3", C::Undo),
            ("new game", C::New),
        ];
        reads(table);
    }

    #[test]
    fn commands_with_arguments() {
        let table = [
            (
                "variant recursion",
                C::Variant(VariantKind::from_name("recursion").unwrap()),
            ),
            ("variant normal", C::Variant(VariantKind::Chess)),
            (
                "level 40 5 0",
                C::Level {
                    mps: 40,
                    base_ms: 300_000,
                    inc_ms: 0,
                },
            ),
            (
                "level 0 2:30 0.5",
                C::Level {
                    mps: 0,
                    base_ms: 150_000,
                    inc_ms: 500,
                },
            ),
            ("st 5", C::St(5000)),
            ("st 0.1", C::St(100)),
            ("st 2 extra", C::St(2000)),
            ("sd 7", C::Sd(7)),
            ("sd 4294967295", C::Sd(u32::MAX)),
            ("time 30000", C::Time(30_000)),
            ("time -5", C::Time(-5)),
            ("time 9223372036854775807", C::Time(i64::MAX)),
            ("otim 1234 x", C::Otim(1234)),
            ("usermove e2e4", C::Usermove(s("e2e4"))),
            ("usermove  e2e7,e7e2 ", C::Usermove(s("e2e7,e7e2"))),
            ("usermove", C::Usermove(s(""))),
            ("lift e2", C::Mouse(Mouse::Lift, s("e2"))),
            ("put e4", C::Mouse(Mouse::Put, s("e4"))),
            ("hover p16", C::Mouse(Mouse::Hover, s("p16"))),
            ("lift", C::Mouse(Mouse::Lift, s(""))),
            ("ping 12", C::Ping(s("12"))),
            ("ping", C::Ping(s(""))),
            ("ping a  b", C::Ping(s("a  b"))),
            (
                "result 1-0 {White mates}",
                C::Result(s("1-0 {White mates}")),
            ),
            (
                "setboard rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq - 0 1",
                C::Setboard(s("rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq - 0 1")),
            ),
            ("setboard", C::Setboard(s(""))),
            ("memory 64", C::Memory(Some(s("64")))),
            ("memory x y", C::Memory(Some(s("x")))),
            ("memory", C::Memory(None)),
            ("cores 2", C::Cores(Some(s("2")))),
            ("cores", C::Cores(None)),
            (
                "option Move Overhead=30",
                C::Option {
                    name: s("Move Overhead"),
                    value: Some(s("30")),
                },
            ),
            (
                "option Hash = 64",
                C::Option {
                    name: s("Hash "),
                    value: Some(s(" 64")),
                },
            ),
            (
                "option a=b=c",
                C::Option {
                    name: s("a"),
                    value: Some(s("b=c")),
                },
            ),
            (
                "option Clear Hash",
                C::Option {
                    name: s("Clear Hash"),
                    value: None,
                },
            ),
            (
                "option",
                C::Option {
                    name: s(""),
                    value: None,
                },
            ),
        ];
        reads(table);
    }

    #[test]
    fn words_that_are_no_command() {
        // (line, the text kept: the whole line, trimmed)
        let table = [
            ("e2e4", "e2e4"),
            (" e7e8q ", "e7e8q"),
            ("@@@@", "@@@@"),
            ("e2e4 now", "e2e4 now"),
            ("frobnicate 3", "frobnicate 3"),
            // Command words are case-sensitive.
            ("Quit", "Quit"),
            ("GO", "GO"),
            ("", ""),
        ];
        for (line, text) in table {
            assert_eq!(parse(line), Ok(C::Bare(s(text))), "{line:?}");
        }
    }

    #[test]
    fn bad_arguments() {
        let level = ParseError::BadArgument("expected level MPS BASE INC");
        let seconds = ParseError::BadArgument("expected seconds");
        let depth = ParseError::BadArgument("expected a depth");
        let cs = ParseError::BadArgument("expected centiseconds");
        let table = [
            ("variant", ParseError::UnsupportedVariant),
            ("variant nosuchgame", ParseError::UnsupportedVariant),
            ("level", level),
            ("level 40 5", level),
            ("level 40 5 0 1", level),
            ("level x 5 0", level),
            ("level -1 5 0", level),
            ("level 0 2:75 0", level),
            ("level 0 5 -1", level),
            ("st", seconds),
            ("st 0", seconds),
            ("st 0.0001", seconds),
            ("st -1", seconds),
            ("st 1e9", seconds),
            ("st x", seconds),
            ("sd", depth),
            ("sd 0", depth),
            ("sd -3", depth),
            ("sd 4294967296", depth),
            ("sd 2.5", depth),
            ("time", cs),
            ("time 1.5", cs),
            ("time 9223372036854775808", cs),
            ("otim", cs),
            ("otim x", cs),
        ];
        for (line, want) in table {
            assert_eq!(parse(line), Err(want), "{line:?}");
        }
        assert_eq!(
            (level.kind(), level.detail()),
            ("bad argument", Some("expected level MPS BASE INC"))
        );
        assert_eq!(
            (
                ParseError::UnsupportedVariant.kind(),
                ParseError::UnsupportedVariant.detail()
            ),
            ("unsupported variant", None)
        );
    }
}
