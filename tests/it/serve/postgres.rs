//! The PostgreSQL store (src/serve/postgres.rs) on a real server: a throwaway cluster made by
//! `initdb` in a temporary directory, listening on a free loopback port with `trust`
//! authentication, stopped and removed when the test ends, also when it fails ([`Cluster`]'s
//! drop). As root (CI), `initdb` and `pg_ctl` run as the `postgres` user, since PostgreSQL
//! refuses to run as root.
//!
//! When PostgreSQL is not installed the tests say so on standard error, one line each, and
//! pass; with `CELLMATE_REQUIRE_POSTGRES=1` (set by .ci/run when it has PostgreSQL) they fail
//! instead.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Barrier};

use cellmate::serve::postgres::PostgresStore;
use cellmate::serve::store::GameStore;
use postgres::NoTls;

use super::{kill_9_journey, moves, Server};

/// A PostgreSQL server of the test's own; stopped (immediately) and its files removed when
/// dropped.
struct Cluster {
    dir: PathBuf,
    bin: PathBuf,
    /// Run PostgreSQL's programs as the `postgres` user (the test runs as root).
    as_postgres: bool,
    port: u16,
    started: bool,
}

/// The directory of PostgreSQL's `initdb` and `pg_ctl`: on PATH, else Debian's
/// /usr/lib/postgresql/<version>/bin (the newest).
fn bin_dir() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    if let Some(dir) = on_path
        .into_iter()
        .find(|d| d.join("initdb").is_file() && d.join("pg_ctl").is_file())
    {
        return Some(dir);
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| {
            let e = e.ok()?;
            let v = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").is_file().then_some((v, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Says on standard error (not captured by the test harness) that a test did not run, and
/// why; fails instead when `CELLMATE_REQUIRE_POSTGRES=1`.
fn skipped(test: &str, why: &str) {
    if std::env::var("CELLMATE_REQUIRE_POSTGRES").as_deref() == Ok("1") {
        panic!("{test}: PostgreSQL required (CELLMATE_REQUIRE_POSTGRES=1) but {why}");
    }
    let _ = writeln!(std::io::stderr(), "serve::postgres::{test}: skipped: {why}");
}

fn show(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

impl Cluster {
    /// A new cluster, started; `Err` says why there can be none here (PostgreSQL not
    /// installed, or no `postgres` user to run it as root). A cluster that fails to start is a
    /// failure, not a skip.
    fn start() -> Result<Cluster, String> {
        let bin = bin_dir().ok_or(
            "no PostgreSQL here (initdb neither on PATH nor in /usr/lib/postgresql/*/bin; \
             apt-get install postgresql)",
        )?;
        let as_postgres = is_root();
        if as_postgres
            && !Command::new("id")
                .arg("postgres")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        {
            return Err("running as root and there is no `postgres` user to run initdb as".into());
        }
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir = std::env::temp_dir().join(format!("cellmate-pg-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut cluster = Cluster {
            dir,
            bin,
            as_postgres,
            port: 0,
            started: false,
        };
        if as_postgres {
            let chown = Command::new("chown")
                .args(["postgres:", cluster.dir.to_str().unwrap()])
                .output()
                .unwrap();
            assert!(chown.status.success(), "chown: {}", show(&chown));
        }
        let data = cluster.data();
        let init = cluster
            .command("initdb")
            .args(["-D", &data, "-U", "postgres", "--auth=trust", "-E", "UTF8"])
            .arg("--no-sync")
            .output()
            .unwrap();
        assert!(init.status.success(), "initdb: {}", show(&init));
        // A free port: bound and let go (another process could take it in between; then
        // pg_ctl fails and says so).
        cluster.port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let options = format!(
            "-h 127.0.0.1 -p {} -k {} -c fsync=off -c full_page_writes=off",
            cluster.port,
            cluster.dir.display()
        );
        let log = cluster.dir.join("server.log");
        let started = cluster
            .command("pg_ctl")
            .args(["-D", &data, "-l", log.to_str().unwrap(), "-w", "-t", "60"])
            .args(["-o", &options, "start"])
            .output()
            .unwrap();
        // Stopped when dropped even if pg_ctl gave up waiting (the server may run all the same).
        cluster.started = true;
        assert!(
            started.status.success(),
            "pg_ctl start: {}\n{}",
            show(&started),
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        Ok(cluster)
    }

    fn data(&self) -> String {
        self.dir.join("data").to_str().unwrap().to_string()
    }

    /// One of PostgreSQL's programs, as the `postgres` user when the test runs as root.
    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path);
            c
        } else {
            Command::new(path)
        }
    }

    /// A new empty database; its URL.
    fn database(&self, name: &str) -> String {
        let admin = format!("postgres://postgres@127.0.0.1:{}/postgres", self.port);
        let mut c = postgres::Client::connect(&admin, NoTls).unwrap();
        c.batch_execute(&format!("CREATE DATABASE {name}")).unwrap();
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        if self.started {
            let data = self.data();
            let _ = self
                .command("pg_ctl")
                .args(["-D", &data, "-m", "immediate", "-w", "stop"])
                .output();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn cluster_or_skip(test: &str) -> Option<Cluster> {
    match Cluster::start() {
        Ok(c) => Some(c),
        Err(why) => {
            skipped(test, &why);
            None
        }
    }
}

/// The store contract of `super::store` on PostgreSQL; four servers creating the schema on an
/// empty database at once (none fails); the store called on a tokio runtime's own threads, as
/// `cellmate serve` calls it, and on a current-thread runtime.
#[test]
fn postgres_store_keeps_the_contract() {
    let Some(cluster) = cluster_or_skip("postgres_store_keeps_the_contract") else {
        return;
    };
    let url = cluster.database("contract");
    super::store::contract(&|| Box::new(PostgresStore::open(&url).unwrap()));

    let url = cluster.database("race");
    let start = Arc::new(Barrier::new(4));
    let opened: Vec<_> = (0..4)
        .map(|_| {
            let (url, start) = (url.clone(), Arc::clone(&start));
            std::thread::spawn(move || {
                start.wait();
                PostgresStore::open(&url).map(|_| ())
            })
        })
        .collect();
    for o in opened {
        if let Err(e) = o.join().unwrap() {
            panic!("a server creating the schema beside three others: {e}");
        }
    }

    // From inside a multi-threaded runtime (a task, not in block_in_place: the store steps
    // off the runtime itself), the store opened, used and dropped there.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let id = runtime.block_on(async {
        let url = url.clone();
        tokio::spawn(async move {
            let store = PostgresStore::open(&url).unwrap();
            let id = store
                .create(&cellmate::serve::store::NewGame {
                    variant: "chess",
                    start_fen: "8/8/8/8/8/8/8/K6k w - - 0 1",
                    engine: "{}",
                    clock: None,
                })
                .unwrap();
            assert_eq!(store.list().unwrap().len(), 1);
            drop(store);
            id
        })
        .await
        .unwrap()
    });
    let current = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    current.block_on(async {
        let store = PostgresStore::open(&url).unwrap();
        assert!(store.load(&id).unwrap().is_some());
    });
}

/// `cellmate serve --db postgres://…`: a game survives SIGKILL in the middle of a search (the
/// journey of `a_game_survives_kill_9_in_the_middle_of_a_search`); two servers on the same
/// database at once: a game created through one is listed, loaded and played on by the other,
/// and the first sees the move. A URL that names no server ends `serve` with one line.
#[test]
fn serve_on_postgres_survives_kill_9_and_two_servers_share_the_games() {
    let Some(cluster) =
        cluster_or_skip("serve_on_postgres_survives_kill_9_and_two_servers_share_the_games")
    else {
        return;
    };
    let url = cluster.database("serve");
    let id = kill_9_journey(&["--db", &url]);

    let a = Server::start(&["--db", &url]);
    let b = Server::start(&["--db", &url]);
    let mut page = b.against_depth_1();
    page.send(r#"{"type":"move","move":"d2d4"}"#);
    let on_b = page.state_at(1)["game"].as_str().unwrap().to_string();
    page.state_at(2);
    drop(page);
    assert_ne!(on_b, id);
    let game = a.json(&format!("/game/{on_b}/json"));
    assert_eq!(moves(&game).len(), 2, "{game}");
    assert_eq!(game["engine"]["depth"], 1);
    // Played on from the other server: the engine answers there, and the first server sees it.
    let mut page = a.board(Some(&on_b));
    page.state_at(2);
    page.send(r#"{"type":"move","move":"c2c4"}"#);
    page.state_at(4);
    assert_eq!(moves(&b.json(&format!("/game/{on_b}/json"))).len(), 4);
    assert_eq!(moves(&b.json(&format!("/game/{id}/json"))).len(), 4);
    drop((a, b));

    // No server there: one line, exit status 1, no panic.
    let port = cluster.port;
    drop(cluster);
    super::unreachable_store(
        &format!("postgres://postgres@127.0.0.1:{port}/serve"),
        false,
        &format!("postgres@127.0.0.1:{port}/serve"),
    );
}
