//! The contract of every `GameStore` (src/serve/store.rs), one set of checks run on each store:
//! SQLite here, PostgreSQL in `super::postgres`. A game is created without moves, its moves
//! appended from a ply on (a take-back stores fewer), its engine settings and clock columns
//! kept, loaded as stored, listed in the order the games were created; another handle on the
//! same database sees it all; several threads write at once.

use cellmate::serve::sqlite::SqliteStore;
use cellmate::serve::store::{GameStore, NewGame, StoredMove};

fn mv(text: &str, played_ms: i64, clock_ms: Option<i64>) -> StoredMove {
    StoredMove {
        text: text.into(),
        played_ms,
        clock_ms,
    }
}

fn new<'a>(variant: &'a str, engine: &'a str, clock: Option<&'a str>) -> NewGame<'a> {
    NewGame {
        variant,
        start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        engine,
        clock,
    }
}

/// Checks the contract on an empty database; `open` opens a new handle on it (a reopened
/// SQLite file, another PostgreSQL pool).
pub(super) fn contract(open: &dyn Fn() -> Box<dyn GameStore>) {
    let s = open();
    assert!(s.list().unwrap().is_empty(), "a new database has no game");

    // create: 16 lower-case hex digits, a new id each time, no moves yet.
    let before = cellmate::serve::store::now_ms();
    let engine = r#"{"white":false,"black":true,"depth":1,"note":"é'\"\\"}"#;
    let clock = r#"{"base_ms":60000,"inc_ms":1000}"#;
    let id = s.create(&new("chess", engine, Some(clock))).unwrap();
    assert_eq!(id.len(), 16, "{id}");
    assert!(
        id.chars()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()),
        "{id}"
    );
    let g = s.load(&id).unwrap().expect("a created game loads");
    assert_eq!(g.id, id);
    assert_eq!(
        (g.variant.as_str(), g.engine.as_str(), g.clock.as_deref()),
        ("chess", engine, Some(clock))
    );
    assert_eq!(g.start_fen, new("", "", None).start_fen);
    assert!(g.moves.is_empty());
    assert!(
        (before..before + 60_000).contains(&g.created_ms),
        "created_ms {} (now {before})",
        g.created_ms
    );

    // append: two moves, then one more with new engine settings; times and clocks as given.
    let t = 1_780_000_000_000_i64;
    let (e4, e5, nf3) = (
        mv("e2e4", t, Some(61_000)),
        mv("e7e5", t + 1_500, Some(59_500)),
        mv("g1f3", t + 4_000, None),
    );
    s.append(&id, 0, &[e4.clone(), e5.clone()], engine).unwrap();
    s.append(&id, 2, std::slice::from_ref(&nf3), r#"{"black":false}"#)
        .unwrap();
    let g = s.load(&id).unwrap().unwrap();
    assert_eq!(g.moves, [e4.clone(), e5.clone(), nf3.clone()]);
    assert_eq!(g.engine, r#"{"black":false}"#);

    // A take-back stores fewer moves; one taken back and replaced by another.
    s.append(&id, 1, &[], "{}").unwrap();
    assert_eq!(
        s.load(&id).unwrap().unwrap().moves,
        std::slice::from_ref(&e4)
    );
    let c5 = mv("c7c5", t + 9_000, Some(1));
    s.append(&id, 1, &[c5.clone(), nf3.clone()], "{}").unwrap();
    let g = s.load(&id).unwrap().unwrap();
    assert_eq!(g.moves, [e4.clone(), c5.clone(), nf3.clone()]);
    assert_eq!(g.engine, "{}");

    // No such game: nothing loads, nothing is appended (nor created).
    assert!(s.load("0123456789abcdef").unwrap().is_none());
    assert!(s
        .append("0123456789abcdef", 0, std::slice::from_ref(&e4), "{}")
        .is_err());

    // An untimed game: no clock, moves without clock_ms.
    let other = s.create(&new("immune", "{}", None)).unwrap();
    assert_ne!(other, id);
    s.append(&other, 0, &[mv("a2a3", t, None)], "{}").unwrap();
    let g = s.load(&other).unwrap().unwrap();
    assert_eq!((g.variant.as_str(), g.clock), ("immune", None));
    assert_eq!(g.moves, [mv("a2a3", t, None)]);
    let third = s.create(&new("recursion", "{}", None)).unwrap();

    // list: every game, the oldest first, with its number of moves.
    let listed = |s: &dyn GameStore| -> Vec<(String, String, usize)> {
        (s.list().unwrap().into_iter())
            .map(|g| (g.id, g.variant, g.plies))
            .collect()
    };
    let want = vec![
        (id.clone(), "chess".to_string(), 3),
        (other.clone(), "immune".to_string(), 1),
        (third.clone(), "recursion".to_string(), 0),
    ];
    assert_eq!(listed(&*s), want);

    // Another handle on the same database (a restarted server, another process) sees it all,
    // and what it writes is seen by the first.
    let again = open();
    assert_eq!(listed(&*again), want);
    assert_eq!(
        again.load(&id).unwrap().unwrap(),
        s.load(&id).unwrap().unwrap()
    );
    again
        .append(&third, 0, std::slice::from_ref(&e4), "{}")
        .unwrap();
    assert_eq!(
        s.load(&third).unwrap().unwrap().moves,
        std::slice::from_ref(&e4)
    );
    drop(again);

    // Several threads at once, each its own game, a move at a time (a pool's connections, or
    // one connection's lock): every move kept, in order.
    let ids: Vec<String> = std::thread::scope(|scope| {
        let s = &*s;
        let workers: Vec<_> = (0..4)
            .map(|w| {
                scope.spawn(move || {
                    let id = s.create(&new("chess", "{}", None)).unwrap();
                    let mut moves = Vec::new();
                    for i in 0..10 {
                        moves.push(mv(&format!("m{w}{i}"), t + i, Some(i)));
                        s.append(&id, i as usize, &moves[i as usize..], "{}")
                            .unwrap();
                    }
                    id
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    for (w, id) in ids.iter().enumerate() {
        let g = s.load(id).unwrap().unwrap();
        let texts: Vec<_> = g.moves.iter().map(|m| m.text.clone()).collect();
        let want: Vec<_> = (0..10).map(|i| format!("m{w}{i}")).collect();
        assert_eq!(texts, want);
    }
    assert_eq!(s.list().unwrap().len(), 3 + ids.len());
}

/// The contract on a SQLite file (reopened for the second handle).
#[test]
fn sqlite_store_keeps_the_contract() {
    let db = super::Db::new("contract");
    let path = db.0.join("games.db");
    let path = path.to_str().unwrap().to_string();
    contract(&|| Box::new(SqliteStore::open(&path).unwrap()));
}
