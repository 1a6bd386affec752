//! The page's piece guide: one piece type of a variant alone on an empty board, its moves as
//! the rules generate them, and one sentence about it (for Immune Chess, what the cell does in
//! the body: the game was made to teach immunology).
//!
//! The moves are not kept in a table: the guide builds a FEN with the piece on a central
//! square and only what the rules need besides it, far away (the kings of chess and Infinite
//! Recursion, the Neurons of Microorganism Chess, an Invader and a Macrophage in Immune Chess,
//! whose game is over without them), and asks the rules for its legal moves from that square.
//! Moves onto those companions' squares are left out.

use serde_json::{json, Value};

use super::session::{legal_json, view_json};
use crate::core::Variant;
use crate::variants::{with_pos, VariantKind};

/// One sentence per piece type: (variant, FEN letter, sentence).
const ABOUT: &[(&str, char, &str)] = &[
    ("chess", 'K', "The king steps one square any way; it must never be left in check, and a king that cannot escape check is mated, which ends the game."),
    ("chess", 'Q', "The queen slides any distance along ranks, files and diagonals: the strongest piece, worth about nine pawns."),
    ("chess", 'R', "The rook slides any distance along ranks and files, and castles with its king."),
    ("chess", 'B', "The bishop slides any distance along diagonals and keeps to the colour it starts on."),
    ("chess", 'N', "The knight leaps to the far corner of a 2 by 3 rectangle, over anything in between."),
    ("chess", 'P', "The pawn steps straight forward (two squares from its starting rank), captures one square diagonally forward and promotes on the last rank."),
    ("recursion", 'K', "The king of each board: a board is chess on its own, and mating its king wins that board."),
    ("recursion", 'Q', "The queen slides along ranks, files and diagonals, on its own board only."),
    ("recursion", 'R', "The rook slides along ranks and files, on its own board only."),
    ("recursion", 'B', "The bishop slides along diagonals, on its own board only."),
    ("recursion", 'N', "The knight leaps as in chess, on its own board only."),
    ("recursion", 'P', "The pawn moves as in chess, and promotes to a queen, rook, bishop or knight (never a mega-knight)."),
    ("recursion", 'M', "The mega-knight is the whole game on the other board: it moves as a knight, and its state (Neutral, Armed, Disarmed, Frozen) follows that board's result."),
    ("microorganism", 'N', "The Neuron is the royal piece, a king without castling: the nerve cell that runs the body, lost when it is mated."),
    ("microorganism", 'P', "The red blood cell moves like a chess pawn (up to four squares from its starting rank), carrying oxygen forward."),
    ("microorganism", 'W', "The white blood cell moves like a queen but stays in its own half, guarding the body it lives in."),
    ("microorganism", 'C', "The Paramecium, a swimmer covered in cilia, slides like a rook and leaps like a knight and by three squares diagonally."),
    ("microorganism", 'B', "The Bacterium steps like a king and leaps like a knight, and absorbs the powers of what it eats."),
    ("microorganism", 'A', "The Amoeba slides along diagonals and leaps three squares straight, and can stretch itself over two cells."),
    ("microorganism", 'T', "The platelet steps like a king and bonds with other platelets into walls, as platelets clot a wound."),
    ("microorganism", 'V', "The virus steps like a king onto empty squares and captures by infecting a piece, hatching from it later."),
    ("microorganism", 'R', "The prion, a misfolded protein, steps onto a piece to ride it and in the end kills its host (no host on an empty board)."),
    ("immune", 'C', "The complement system is a set of blood proteins that punch holes in invaders' membranes; here it slides like a queen, never captures and can never be captured."),
    ("immune", 'M', "A macrophage (\"big eater\") swallows invaders and dead cells whole; here a queen of range 2."),
    ("immune", 'H', "A helper T cell directs the other immune cells with signals but kills nothing itself; here a rook of range 2 that never captures."),
    ("immune", 'B', "A B cell makes antibodies, proteins that stick to one invader and mark it, from afar; here it never moves and shoots straight forward (no target on an empty board)."),
    ("immune", 'T', "A killer (cytotoxic) T cell finds infected cells and makes them die; here it steps forward or back and shoots forward (no target on an empty board)."),
    ("immune", 'A', "A basophil releases histamine from its granules, the alarm behind allergies and inflammation; here it steps one square orthogonally."),
    ("immune", 'E', "An eosinophil fights parasites such as worms with toxic granules; here it steps one square orthogonally."),
    ("immune", 'N', "A neutrophil is the most common white blood cell and the first to reach an infection; here it steps one square orthogonally."),
    ("immune", 'S', "A mast cell sits in the tissues and bursts out histamine when it meets an invader; here a queen of range 3."),
    ("immune", 'O', "A monocyte circles in the blood and becomes a macrophage in the tissues; here it steps like a king and becomes a Macrophage on the last two ranks."),
    ("immune", 'D', "A dendritic cell catches pieces of invaders and shows them to the T cells; here a queen of range 2 that leaves after its tenth capture."),
    ("immune", 'L', "A natural killer cell kills infected and cancerous cells without being told which; here a rook of range 2."),
    ("immune", 'i', "The Invader is the germ the immune cells fight: it moves first and steps one square orthogonally."),
];

/// The guide's position: the piece on its square, the companions, and the FEN.
struct Setup {
    square: &'static str,
    companions: Vec<&'static str>,
    fen: String,
}

/// A placement of `width` files and `height` ranks with `cells` (square name, letter).
fn placement(width: usize, height: usize, cells: &[(&str, char)]) -> String {
    let mut rows = Vec::new();
    for rank in (1..=height).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..width {
            let name = format!("{}{rank}", (b'a' + file as u8) as char);
            match cells.iter().find(|c| c.0 == name) {
                Some(&(_, l)) => {
                    if empty > 0 {
                        row += &empty.to_string();
                        empty = 0;
                    }
                    row.push(l);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row += &empty.to_string();
        }
        rows.push(row);
    }
    rows.join("/")
}

fn setup(kind: VariantKind, letter: char) -> Setup {
    let black = letter.is_ascii_lowercase();
    let side = if black { "b" } else { "w" };
    // (the piece's square, the companions, the board's size, the FEN's other fields)
    let (square, mut others, width, height, rest): (_, Vec<(&str, char)>, _, _, String) =
        match kind.name() {
            "chess" => (
                "d4",
                vec![("h1", 'K'), ("a8", 'k')],
                8,
                8,
                format!("{side} - - 0 1"),
            ),
            // Board B (files i-p) and a pawn on board A keep both boards in play.
            "recursion" => (
                "d4",
                vec![
                    ("h1", 'K'),
                    ("a8", 'k'),
                    ("h7", 'p'),
                    ("i1", 'K'),
                    ("p8", 'k'),
                    ("j2", 'P'),
                    ("o7", 'p'),
                ],
                16,
                8,
                format!("{side} a {side}:-:-:0:*:n b:-:-:0:*:n 1"),
            ),
            "microorganism" => (
                "h6",
                vec![("p1", 'N'), ("a16", 'n')],
                16,
                16,
                format!("{side} - 0 1 -"),
            ),
            _ => (
                "e5",
                vec![("a10", 'i'), ("j1", 'M')],
                10,
                10,
                format!("{side} - 0 1"),
            ),
        };
    // The piece replaces the first companion of its own letter (a king shown is that board's
    // only king).
    if let Some(i) = others.iter().position(|&(_, l)| l == letter) {
        others.remove(i);
    }
    let mut cells = others.clone();
    cells.push((square, letter));
    Setup {
        square,
        companions: others.iter().map(|c| c.0).collect(),
        fen: format!("{} {rest}", placement(width, height, &cells)),
    }
}

/// The guide's pieces of a variant: [{letter, name, about}], the names as the rules give them.
fn pieces(kind: VariantKind) -> Vec<Value> {
    ABOUT
        .iter()
        .filter(|a| a.0 == kind.name())
        .map(|a| {
            let s = setup(kind, a.1);
            let name = kind.from_fen(&s.fen).ok().and_then(|pos| {
                let v = with_pos!(&pos, |p| p.describe());
                v.squares
                    .iter()
                    .find(|q| q.square == s.square)
                    .map(|q| q.piece.name.to_string())
            });
            json!({"letter": a.1.to_string(), "name": name, "about": a.2})
        })
        .collect()
}

/// The reply to `{"type":"guide","variant":V,"letter":L}`: the variant's pieces, and with a
/// letter that piece's square, name, the legal moves from there (`legal`, as the state gives
/// them) and the view of the board with the piece alone.
pub fn guide(kind: VariantKind, letter: Option<&str>) -> Result<Value, String> {
    let mut out = json!({"type": "guide", "variant": kind.name(), "pieces": pieces(kind)});
    let Some(letter) = letter else {
        return Ok(out);
    };
    let l = letter
        .chars()
        .next()
        .filter(|_| letter.chars().count() == 1)
        .filter(|&c| ABOUT.iter().any(|a| a.0 == kind.name() && a.1 == c))
        .ok_or_else(|| format!("no piece {letter:?} in the {} guide", kind.name()))?;
    let s = setup(kind, l);
    let pos = kind
        .from_fen(&s.fen)
        .map_err(|e| format!("the guide's position {}: {e}", s.fen))?;
    let legal: Vec<Value> = legal_json(&pos)
        .into_iter()
        .filter(|m| m["from"]["name"] == s.square)
        .filter(|m| !s.companions.iter().any(|c| m["to"]["name"] == *c))
        .collect();
    let mut view = view_json(&with_pos!(&pos, |p| p.describe()));
    let piece = view["squares"]
        .as_array()
        .and_then(|sq| sq.iter().find(|q| q["square"] == s.square))
        .cloned()
        .unwrap_or(Value::Null);
    view["squares"] = json!([piece.clone()]);
    view["boards"] = json!([]);
    out["letter"] = json!(l.to_string());
    out["square"] = json!(s.square);
    out["name"] = piece["piece"]["name"].clone();
    out["about"] = json!(ABOUT
        .iter()
        .find(|a| a.0 == kind.name() && a.1 == l)
        .map(|a| a.2));
    out["legal"] = json!(legal);
    out["view"] = view;
    out["fen"] = json!(s.fen);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every piece of every variant's guide has a position the rules accept, its name, and
    /// moves, but for the B-cell (its shots need a target) and the prion (it moves only onto a
    /// host).
    #[test]
    fn every_guide_piece_has_moves() {
        for &kind in VariantKind::ALL {
            let list = guide(kind, None).unwrap();
            let pieces = list["pieces"].as_array().unwrap();
            assert!(!pieces.is_empty(), "{}", kind.name());
            for p in pieces {
                assert!(p["name"].is_string(), "{p}");
                let l = p["letter"].as_str().unwrap();
                let g = guide(kind, Some(l)).unwrap_or_else(|e| panic!("{}: {e}", kind.name()));
                assert!(g["name"].is_string(), "{} {l}", kind.name());
                let n = g["legal"].as_array().unwrap().len();
                let needs_target =
                    matches!((kind.name(), l), ("immune", "B") | ("microorganism", "R"));
                if !needs_target {
                    assert!(n > 0, "{} {l}: no moves in {}", kind.name(), g["fen"]);
                }
            }
        }
        let q = guide(VariantKind::Chess, Some("Q")).unwrap();
        assert_eq!(q["legal"].as_array().unwrap().len(), 27);
        assert!(guide(VariantKind::Chess, Some("X")).is_err());
    }
}
