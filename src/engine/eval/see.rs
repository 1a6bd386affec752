//! Static exchange evaluation shared by the variants: the swap list.
//!
//! A variant describes its exchanges on one square by what each capture gains and what then
//! stands on the square ([`Take`]); [`exchange_ge`] plays the exchange out, each side taking
//! with its cheapest capture or stopping, and answers whether the first move wins at least a
//! threshold. Variants whose captures do not land on the square fit the same model: a shot
//! or an infection takes what stands there and leaves nothing that can be taken (its
//! [`Take::stands`] is `None`), a capturer that leaves the board with its capture pays its own
//! value ([`Take::extra`]).

pub mod immune;
pub mod micro;

/// One capture in an exchange on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Take {
    /// What the capturing side gains besides the piece it takes: a promotion's gain, or minus
    /// the capturer's value when it leaves the board with the capture.
    pub extra: i32,
    /// The value of what then stands on the square and can be taken in turn; `None` when
    /// nothing that can be taken stands there (a shot, an infection, a capturer that left).
    pub stands: Option<i32>,
}

/// The longest exchange played out; a longer one stops there (no board has that many
/// capturers of one square).
const MAX_SWAPS: usize = 64;

/// Whether a move that gains `first` (what it takes, its promotion) and leaves `stands` on
/// the exchange square wins at least `threshold` for its side, when the two sides then take on
/// the square in turn, each with the capture `next` gives (the cheapest one of the side whose
/// turn it is; `None` when it has none), and each side may stop taking instead.
pub fn exchange_ge(
    first: i32,
    stands: Option<i32>,
    threshold: i32,
    mut next: impl FnMut() -> Option<Take>,
) -> bool {
    // The first move is made: the result is at most what it gains.
    if first < threshold {
        return false;
    }
    let mut gain = [0i32; MAX_SWAPS];
    gain[0] = first;
    let mut d = 0;
    let mut on_square = stands;
    while let Some(v) = on_square {
        if d + 1 == MAX_SWAPS {
            break;
        }
        let Some(t) = next() else { break };
        d += 1;
        // The taker's balance if the exchange stopped after its capture.
        gain[d] = v + t.extra - gain[d - 1];
        on_square = t.stands;
    }
    // Each side takes only when taking is better for it than stopping.
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0] >= threshold
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::core::Dialect;
    use crate::engine::eval::Evaluate;

    /// The exchange of `mv` (UCI text) in `fen` is worth exactly `value`: `see_ge` holds at
    /// `value` and not one above.
    pub fn exact<V: Evaluate>(fen: &str, mv: &str, value: i32) {
        let pos = V::from_fen(fen).expect(fen);
        let m = pos.parse_move(mv, Dialect::UCI).expect(mv);
        assert!(pos.see_ge(m, value), "{fen} {mv} >= {value}");
        assert!(!pos.see_ge(m, value + 1), "{fen} {mv} < {}", value + 1);
    }

    /// Captures from a list, one per call.
    fn takes(list: &[Take]) -> impl FnMut() -> Option<Take> + '_ {
        let mut i = 0;
        move || {
            i += 1;
            list.get(i - 1).copied()
        }
    }

    const fn plain(stands: i32) -> Take {
        Take {
            extra: 0,
            stands: Some(stands),
        }
    }

    #[test]
    fn swap_list_stops_where_taking_loses() {
        // A 300 takes a 100 defended by a 100: 100 - 300 + 100 ... the defender takes (gains
        // 300), the attacker's side has nothing more: -200.
        assert!(exchange_ge(100, Some(300), -200, takes(&[plain(100)])));
        assert!(!exchange_ge(100, Some(300), -199, takes(&[plain(100)])));
        // Undefended: the 100 is won.
        assert!(exchange_ge(100, Some(300), 100, takes(&[])));
        assert!(!exchange_ge(100, Some(300), 101, takes(&[])));
        // A 100 takes a 300 defended by a 900: the defender does not take back (it would lose
        // 900 for 100 against a second attacker), so the 300 is won.
        let list = [plain(900), plain(100)];
        assert!(exchange_ge(300, Some(100), 300, takes(&list)));
        // Nothing stands after the first move (a shot): no recapture is asked for.
        assert!(exchange_ge(100, None, 100, || panic!(
            "no capture to look for"
        )));
        // A capture that leaves nothing (an infection) ends the exchange; one that pays its
        // own value (a capturer that leaves the board) counts it.
        let gone = Take {
            extra: -350,
            stands: None,
        };
        assert!(exchange_ge(100, Some(300), -200, takes(&[gone])));
        assert!(exchange_ge(100, Some(300), 100, takes(&[gone])));
    }
}
