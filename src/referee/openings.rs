//! Openings: positions from a FEN/EPD file, random short openings, and the seeded generator.

use crate::core::Move;
use crate::variants::{AnyPos, VariantKind};

/// SplitMix64: small, fast, and the same sequence on every machine for a seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    /// SplitMix64: the same mixing as the Zobrist keys (`zobrist::mix`).
    pub fn next_u64(&mut self) -> u64 {
        let z = crate::core::zobrist::mix(self.0);
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z
    }
    /// A uniform number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        // Rejection sampling: no modulo bias.
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }
}

/// Mixes numbers into one seed.
pub fn mix(parts: &[u64]) -> u64 {
    let mut r = Rng::new(0x5EED);
    let mut h = 0;
    for &p in parts {
        r = Rng::new(r.next_u64() ^ p);
        h = r.next_u64();
    }
    h
}

/// Where a game starts: a position (`None`: the variant's start) and moves played from it
/// before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub fen: Option<String>,
    pub moves: Vec<Move>,
}

impl Opening {
    pub fn position(&self, kind: VariantKind) -> AnyPos {
        match &self.fen {
            // Checked when the opening was read.
            Some(f) => kind.from_fen(f).expect("opening FEN was validated"),
            None => kind.startpos(),
        }
    }
}

/// Reads one FEN or EPD line: the longest prefix of its fields that the variant reads as a
/// FEN (an EPD's operations, `bm …; id …;`, are dropped). Returns the variant's own FEN.
pub fn read_fen_line(kind: VariantKind, line: &str) -> Result<String, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let mut first_err = None;
    for n in (1..=fields.len()).rev() {
        match kind.from_fen(&fields[..n].join(" ")) {
            Ok(p) => return Ok(p.fen()),
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    Err(format!(
        "not a {} FEN: {line:?} ({})",
        kind.name(),
        first_err.map(|e| e.to_string()).unwrap_or_default()
    ))
}

/// Reads an openings file: one FEN or EPD per line; blank lines and `#` comments are skipped.
/// Positions already over are refused.
pub fn read_openings(kind: VariantKind, text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fen = read_fen_line(kind, line).map_err(|e| format!("line {}: {e}", i + 1))?;
        if let Some(o) = kind.from_fen(&fen).ok().and_then(|p| p.outcome()) {
            return Err(format!(
                "line {}: the game is already over ({})",
                i + 1,
                o.reason()
            ));
        }
        out.push(fen);
    }
    if out.is_empty() {
        return Err("no positions in the openings file".into());
    }
    Ok(out)
}

/// `plies` uniformly random legal moves from `start`, redrawn (up to 1000 times) while they
/// end the game. Fewer moves only if every draw ended it.
pub fn random_moves(start: &AnyPos, plies: usize, rng: &mut Rng) -> Vec<Move> {
    let mut best = Vec::new();
    for _ in 0..1000 {
        let mut pos = start.clone();
        let mut moves = Vec::new();
        while moves.len() < plies && pos.outcome().is_none() {
            let list = pos.legal_moves();
            let m = list[rng.below(list.len() as u64) as usize];
            pos.make_move(m);
            moves.push(m);
        }
        if pos.outcome().is_none() {
            return moves;
        }
        moves.pop();
        if moves.len() > best.len() {
            best = moves;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rng_is_uniform_enough_and_repeatable() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let mut counts = [0u32; 6];
        for _ in 0..6000 {
            let x = a.below(6);
            assert_eq!(x, b.below(6));
            counts[x as usize] += 1;
        }
        assert!(
            counts.iter().all(|&c| (850..1150).contains(&c)),
            "{counts:?}"
        );
        assert_ne!(mix(&[1, 2]), mix(&[2, 1]));
    }

    #[test]
    fn fen_and_epd_lines() {
        let k = VariantKind::Chess;
        assert_eq!(
            read_fen_line(
                k,
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"x\";"
            ),
            Ok("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".to_string())
        );
        assert!(read_fen_line(k, "hello world").is_err());
        let text = "# comment\n\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n";
        assert_eq!(read_openings(k, text).unwrap().len(), 1);
        // Fool's mate: already over.
        let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
        assert!(read_openings(k, mate).is_err());
        assert!(read_openings(k, "# nothing\n").is_err());
    }

    #[test]
    fn random_openings_are_legal_and_seeded() {
        for &k in VariantKind::ALL {
            let start = k.startpos();
            let a = random_moves(&start, 6, &mut Rng::new(3));
            let b = random_moves(&start, 6, &mut Rng::new(3));
            assert_eq!(a, b);
            assert_eq!(a.len(), 6, "{k:?}");
            let mut pos = start.clone();
            for m in a {
                assert!(pos.is_legal(m));
                pos.make_move(m);
            }
            assert!(pos.outcome().is_none());
        }
    }
}
