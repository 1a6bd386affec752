//! Search reports as protocol text. PV moves are spelled by replaying them on a clone of the
//! search's root, so each move is written in the position it is played in; the PV is cut at the
//! first move that is not legal there (a search bug must not become garbage on the wire).

use crate::core::{Dialect, Move, MoveList, Variant};
use crate::engine::{Info, Score};

/// The PV's moves as text, replayed from `root`.
pub fn pv_texts<V: Variant>(root: &V, pv: &[Move], dialect: Dialect) -> Vec<String> {
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(pv.len());
    let mut list = MoveList::new();
    for &m in pv {
        list.clear();
        pos.legal_moves(&mut list);
        if !list.contains(&m) {
            log::warn!("PV move {m:?} is not legal in {}; PV cut", pos.fen());
            break;
        }
        out.push(pos.move_text(m, dialect));
        pos.make_move(m);
    }
    out
}

/// `cp X` or `mate N`.
pub fn uci_score(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}

/// XBoard's score: centipawns, or 100000 + N for mate in N and -100000 - N for mated in N.
pub fn xboard_score(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => cp as i64,
        Score::Mate(n) if n > 0 => 100_000 + n as i64,
        Score::Mate(n) => -100_000 + n as i64,
    }
}

/// `info depth … pv …` for UCI.
pub fn uci_info<V: Variant>(root: &V, info: &Info) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {}",
        info.depth,
        info.seldepth.max(info.depth),
        info.multipv.max(1),
        uci_score(info.score),
        info.nodes,
        info.nps,
        info.hashfull,
        info.time_ms
    );
    let pv = pv_texts(root, &info.pv, Dialect::UCI);
    if !pv.is_empty() {
        s.push_str(" pv ");
        s.push_str(&pv.join(" "));
    }
    s
}

/// XBoard thinking output: `DEPTH SCORE TIME_CS NODES PV`.
pub fn xboard_thinking<V: Variant>(root: &V, info: &Info) -> String {
    let pv = pv_texts(root, &info.pv, Dialect::XBOARD);
    xboard_thinking_line(info, &pv)
}

/// XBoard thinking output with the PV already spelled.
pub fn xboard_thinking_line(info: &Info, pv: &[String]) -> String {
    format!(
        "{} {} {} {} {}",
        info.depth,
        xboard_score(info.score),
        info.time_ms / 10,
        info.nodes,
        pv.join(" ")
    )
    .trim_end()
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::chess::Chess;

    fn info(pv: Vec<Move>, score: Score) -> Info {
        Info {
            depth: 3,
            seldepth: 5,
            multipv: 1,
            score,
            nodes: 1234,
            nps: 5678,
            time_ms: 250,
            hashfull: 7,
            pv,
        }
    }

    #[test]
    fn pv_is_replayed_and_cut_at_illegal() {
        let pos = Chess::startpos();
        let e4 = pos.parse_move("e2e4", Dialect::UCI).unwrap();
        let mut after = pos.clone();
        after.make_move(e4);
        let e5 = after.parse_move("e7e5", Dialect::UCI).unwrap();
        // e2e4 again is illegal after e2e4 e7e5: the PV stops there.
        let texts = pv_texts(&pos, &[e4, e5, e4], Dialect::UCI);
        assert_eq!(texts, vec!["e2e4", "e7e5"]);
        let line = uci_info(&pos, &info(vec![e4, e5], Score::Cp(31)));
        assert_eq!(
            line,
            "info depth 3 seldepth 5 multipv 1 score cp 31 nodes 1234 nps 5678 hashfull 7 time 250 pv e2e4 e7e5"
        );
        let line = xboard_thinking(&pos, &info(vec![e4], Score::Mate(-2)));
        assert_eq!(line, "3 -100002 25 1234 e2e4");
        assert_eq!(xboard_score(Score::Mate(3)), 100_003);
        assert_eq!(uci_score(Score::Mate(-1)), "mate -1");
        let line = uci_info(&pos, &info(vec![], Score::Cp(0)));
        assert!(!line.contains(" pv"));
    }
}

/// At most this many characters of a bad input are quoted back in an error line.
pub const QUOTE_MAX: usize = 100;

/// A bad input as an error line quotes it: its first [`QUOTE_MAX`] characters with control
/// characters escaped (`\x00`, `\u{9b}`), `...` when cut. An error line stays one short line
/// whatever was sent (a 1 MB line, NUL bytes).
pub fn quote(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == QUOTE_MAX {
            out.push_str("...");
            break;
        }
        match c {
            c if (c as u32) < 0x80 && c.is_control() => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if c.is_control() => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod quote_tests {
    use super::*;

    #[test]
    fn quotes_are_short_and_escaped() {
        assert_eq!(quote("foo bar"), "foo bar");
        assert_eq!(quote("a\0b\x1bc\u{9b}"), "a\\x00b\\x1bc\\u{9b}");
        let long = "x".repeat(1_000_000);
        assert_eq!(quote(&long), format!("{}...", "x".repeat(QUOTE_MAX)));
        assert_eq!(quote(&"é".repeat(QUOTE_MAX)), "é".repeat(QUOTE_MAX));
    }
}
