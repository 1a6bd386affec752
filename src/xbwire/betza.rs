//! Betza notation of movement atoms, for XBoard's `piece LETTER BETZA` lines: written from a
//! [`PieceDef`]'s atoms, never by hand (but for what atoms cannot say; see the profiles in
//! `mod.rs`).
//!
//! Each atom is its mode (`m` move only, `c` capture only), its directions (`f` forward, `b`
//! backward, `s` sideways; none for all), its letter (leaps `W F D N A H G C Z`; slides `R`
//! and `B`, other slides the leap letter doubled) and a range for a limited slide (`R2`).
//! Atoms alike but for their directions are one (`mfbW`); a wazir and a ferz step alike are
//! a king (`K`), a rook and a bishop slide alike a queen (`Q2`).

use crate::core::{Atom, Mode, PieceDef, Reach, Sym};

/// The Betza notation of a piece type's atoms.
pub fn betza(def: &PieceDef) -> String {
    atoms_betza(def.atoms)
}

/// One atom in Betza's terms.
#[derive(Clone, PartialEq, Eq)]
struct Term {
    mode: &'static str,
    dirs: String,
    letter: String,
    range: u8,
}

impl Term {
    fn of(a: &Atom) -> Term {
        let (x, y) = {
            let (x, y) = (a.dx.unsigned_abs(), a.dy.unsigned_abs());
            (x.min(y), x.max(y))
        };
        let leap = match (x, y) {
            (0, 1) => "W",
            (1, 1) => "F",
            (0, 2) => "D",
            (1, 2) => "N",
            (2, 2) => "A",
            (0, 3) => "H",
            (1, 3) => "C",
            (2, 3) => "Z",
            (3, 3) => "G",
            _ => panic!("no Betza letter for the atom ({}, {})", a.dx, a.dy),
        };
        let (letter, range) = match a.reach {
            Reach::Leap => (leap.to_string(), 0),
            Reach::Slide(r) => (
                match leap {
                    "W" => "R".to_string(),
                    "F" => "B".to_string(),
                    _ => leap.repeat(2),
                },
                r,
            ),
        };
        Term {
            mode: match a.mode {
                Mode::Both => "",
                Mode::MoveOnly => "m",
                Mode::CaptureOnly => "c",
            },
            dirs: match a.sym {
                Sym::All => "",
                Sym::Forward => "f",
                Sym::Backward => "b",
                Sym::Sideways => "s",
            }
            .to_string(),
            letter,
            range,
        }
    }

    /// `self` and `next` as one term, if they are: alike but for their directions, or a
    /// wazir and a ferz (rook and bishop) alike in all directions.
    fn merge(&self, next: &Term) -> Option<Term> {
        let same = self.mode == next.mode && self.range == next.range;
        if same && self.letter == next.letter && !self.dirs.is_empty() && !next.dirs.is_empty() {
            return Some(Term {
                dirs: format!("{}{}", self.dirs, next.dirs),
                ..self.clone()
            });
        }
        let pair = [self.letter.as_str(), next.letter.as_str()];
        let both = match pair {
            ["W", "F"] | ["F", "W"] => "K",
            ["R", "B"] | ["B", "R"] => "Q",
            _ => return None,
        };
        (same && self.dirs.is_empty() && next.dirs.is_empty()).then(|| Term {
            letter: both.to_string(),
            ..self.clone()
        })
    }
}

/// The Betza notation of a list of atoms, in their order.
pub fn atoms_betza(atoms: &[Atom]) -> String {
    let mut terms: Vec<Term> = Vec::new();
    for t in atoms.iter().map(Term::of) {
        match terms.last().and_then(|last| last.merge(&t)) {
            Some(m) => *terms.last_mut().expect("merged with the last") = m,
            None => terms.push(t),
        }
    }
    terms
        .iter()
        .map(|t| {
            let range = if t.range == 0 {
                String::new()
            } else {
                t.range.to_string()
            };
            format!("{}{}{}{range}", t.mode, t.dirs, t.letter)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{chess, immune, micro};

    /// The lines XBoard was sent when they were written by hand (before the writer): every
    /// type that has atoms is written the same from them.
    #[test]
    fn the_hand_written_lines_are_the_atoms() {
        let expect = [
            (&chess::PIECES[..], &["", "N", "B", "R", "Q", "K"][..]),
            (
                &micro::PIECES[..],
                &["", "K", "Q", "RNG", "KN", "BH", "K", "mK", ""][..],
            ),
        ];
        for (defs, lines) in expect {
            for (d, &line) in defs.iter().zip(lines) {
                if !line.is_empty() {
                    assert_eq!(betza(d), line, "{}", d.name);
                }
            }
        }
        // Immune Chess: the type's atoms, then its shots (IM-5) as captures along their lines.
        let immune = [
            "W",
            "mQ",
            "Q2",
            "mR2",
            "cfR",
            "mfbWcfRcfB",
            "W",
            "W",
            "W",
            "Q3",
            "K",
            "Q2",
            "R2",
        ];
        for (c, line) in immune::CELLS.iter().zip(immune) {
            assert_eq!(
                betza(&c.def) + &atoms_betza(c.shots),
                line,
                "{}",
                c.def.name
            );
        }
    }

    #[test]
    fn sideways_and_doubled_leaps() {
        let side = Atom::new(1, 0, Reach::Leap, Mode::MoveOnly, Sym::Sideways);
        let nightrider = Atom::new(1, 2, Reach::Slide(0), Mode::Both, Sym::All);
        assert_eq!(atoms_betza(&[side, nightrider]), "msWNN");
        // A ferz step before a wazir step is a king too; unlike modes are not merged.
        assert_eq!(atoms_betza(&[Atom::FERZ, Atom::WAZIR]), "K");
        let capture = Atom::new(1, 1, Reach::Leap, Mode::CaptureOnly, Sym::All);
        assert_eq!(atoms_betza(&[Atom::WAZIR, capture]), "WcF");
    }
}
