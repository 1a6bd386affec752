//! Per-client limits of `cellmate serve` (docs/hosting.md, "Per-client limits"): a token
//! bucket of WebSocket messages and a count of board pages open, both per client address.
//!
//! A client is its IP address (an IPv6 address by its /64 network, where one host may hold
//! many addresses; an IPv4-mapped IPv6 address as the IPv4 one). Behind a reverse proxy every
//! client is the proxy, unless its address is trusted to name the client in `X-Forwarded-For`
//! ([`Clients::client`]).
//!
//! The bucket holds `burst` messages and gains `rate` a second. A message takes one; when
//! fewer than one is left the message is refused (not executed), and still costs one, down to
//! `-burst`: a client that keeps sending while refused earns nothing back until it pauses. A
//! socket refused [`Limits::close_after`] messages in a row is closed.
//!
//! Entries do not grow without bound: a client's entry is kept while it has a page open and
//! until its bucket would be full again, then dropped on the next sweep (at most one a second,
//! done while the table is locked anyway).

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The limits' settings (`serve`'s `--rate`, `--burst`, `--max-sessions-per-client`,
/// `--trust-proxy`).
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Messages a second one client earns back.
    pub rate: f64,
    /// Messages one client may send at once, and its bucket's size.
    pub burst: f64,
    /// Board pages (WebSockets) one client may have open at once.
    pub max_sessions: usize,
    /// Proxies whose `X-Forwarded-For` names the client.
    pub trusted_proxies: Vec<IpAddr>,
}

/// Messages a second a client earns back by default. A player's page sends one message per
/// click (a move, a menu, a button) and a few when it opens: a few a second at the most,
/// also with several tabs; a script that floods sends thousands.
pub const RATE: f64 = 20.0;
/// Messages a client may send at once by default (a page that opens and sets itself up sends
/// fewer than ten).
pub const BURST: f64 = 100.0;
/// Board pages one client may have open at once by default: a player's tabs and a household
/// behind one address, far from `--max-sessions`.
pub const MAX_SESSIONS_PER_CLIENT: usize = 16;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            rate: RATE,
            burst: BURST,
            max_sessions: MAX_SESSIONS_PER_CLIENT,
            trusted_proxies: Vec::new(),
        }
    }
}

impl Limits {
    /// A socket that has had this many messages refused since its last one taken is closed:
    /// ten bursts.
    pub fn close_after(&self) -> u64 {
        (10.0 * self.burst).ceil().max(1.0) as u64
    }

    /// The error a refused message gets (the page shows it in its error line).
    pub fn refusal(&self) -> String {
        format!(
            "too many messages from your address (more than {} a second, {} at once): this one \
             was not executed; wait a few seconds",
            self.rate, self.burst
        )
    }
}

/// One client's bucket and pages.
#[derive(Debug)]
struct Entry {
    tokens: f64,
    /// When `tokens` was last brought up to date.
    at: Instant,
    sessions: usize,
}

impl Entry {
    /// A client seen first at `now`: a full bucket, no page.
    fn full(limits: &Limits, now: Instant) -> Entry {
        Entry {
            tokens: limits.burst,
            at: now,
            sessions: 0,
        }
    }

    fn refill(&mut self, limits: &Limits, now: Instant) {
        let gained = now.saturating_duration_since(self.at).as_secs_f64() * limits.rate;
        self.tokens = (self.tokens + gained).min(limits.burst);
        self.at = now;
    }
}

/// Every client's bucket and pages.
pub struct Clients {
    limits: Limits,
    table: Mutex<Table>,
}

struct Table {
    entries: HashMap<IpAddr, Entry>,
    swept: Instant,
}

/// How often idle entries are dropped at the most.
const SWEEP_EVERY: Duration = Duration::from_secs(1);

impl Clients {
    pub fn new(limits: Limits) -> Clients {
        Clients {
            limits,
            table: Mutex::new(Table {
                entries: HashMap::new(),
                swept: Instant::now(),
            }),
        }
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The client of a request that came from `peer` with these `X-Forwarded-For` values:
    /// `peer` itself unless it is a trusted proxy; then the last address of the header that is
    /// not a trusted proxy (the one the nearest proxy saw; those before it are the client's
    /// word). A header that does not parse leaves `peer`.
    pub fn client<'h>(&self, peer: IpAddr, forwarded: impl Iterator<Item = &'h str>) -> IpAddr {
        let trusted = |ip: &IpAddr| self.limits.trusted_proxies.contains(&canonical(*ip));
        if !trusted(&peer) {
            return key(peer);
        }
        let hops: Vec<&str> = forwarded.flat_map(|v| v.split(',')).collect();
        let mut client = peer;
        for hop in hops.iter().rev() {
            match hop.trim().parse::<IpAddr>() {
                Ok(ip) => {
                    client = ip;
                    if !trusted(&ip) {
                        break;
                    }
                }
                Err(_) => return key(peer),
            }
        }
        key(client)
    }

    /// Counts one more page of `client`; false (nothing counted) when it has `max_sessions`
    /// open. Each page counted is given back by [`Clients::close`].
    pub fn open(&self, client: IpAddr, now: Instant) -> bool {
        let mut t = self.lock();
        self.sweep(&mut t, now);
        let limits = &self.limits;
        let e = t.entries.entry(client).or_insert(Entry::full(limits, now));
        if e.sessions >= limits.max_sessions {
            return false;
        }
        e.sessions += 1;
        true
    }

    /// Gives back a page counted by [`Clients::open`].
    pub fn close(&self, client: IpAddr) {
        let mut t = self.lock();
        if let Some(e) = t.entries.get_mut(&client) {
            e.sessions = e.sessions.saturating_sub(1);
        }
    }

    /// Takes one message of `client` from its bucket: true if it may be executed.
    pub fn take(&self, client: IpAddr, now: Instant) -> bool {
        let mut t = self.lock();
        self.sweep(&mut t, now);
        let limits = &self.limits;
        let e = t.entries.entry(client).or_insert(Entry::full(limits, now));
        e.refill(limits, now);
        let ok = e.tokens >= 1.0;
        e.tokens = (e.tokens - 1.0).max(-limits.burst);
        ok
    }

    /// Clients with an entry now (open pages, or a bucket not yet full again).
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drops the entries of clients with no page open whose bucket would be full again.
    fn sweep(&self, t: &mut Table, now: Instant) {
        if now.saturating_duration_since(t.swept) < SWEEP_EVERY {
            return;
        }
        t.swept = now;
        let limits = &self.limits;
        t.entries.retain(|_, e| {
            if e.sessions > 0 {
                return true;
            }
            e.refill(limits, now);
            e.tokens < limits.burst
        });
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// An IPv4-mapped IPv6 address as IPv4; any other as it is.
fn canonical(ip: IpAddr) -> IpAddr {
    ip.to_canonical()
}

/// The key of a client address: IPv4 as it is, IPv6 by its /64 network.
fn key(ip: IpAddr) -> IpAddr {
    match canonical(ip) {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn limits(rate: f64, burst: f64, max_sessions: usize) -> Limits {
        Limits {
            rate,
            burst,
            max_sessions,
            trusted_proxies: vec![ip("10.0.0.1"), ip("10.0.0.2")],
        }
    }

    #[test]
    fn a_burst_then_the_rate_and_a_flood_earns_nothing_back() {
        let c = Clients::new(limits(2.0, 3.0, 4));
        let t0 = Instant::now();
        let a = ip("192.0.2.1");
        let taken: Vec<bool> = (0..5).map(|_| c.take(a, t0)).collect();
        assert_eq!(taken, [true, true, true, false, false]);
        // Another client is not touched.
        assert!(c.take(ip("192.0.2.2"), t0));
        // Two refused messages cost two: after 1 s (2 earned) the bucket is at 0.
        let t1 = t0 + Duration::from_secs(1);
        assert!(!c.take(a, t1));
        // The debt is at most a burst: after a long flood a message is taken again once
        // (3 + 1) / 2 = 2 s have passed without one.
        for _ in 0..100 {
            assert!(!c.take(a, t1));
        }
        assert!(!c.take(a, t1 + Duration::from_millis(1900)));
        // That one cost one more: -0.2 at 1.9 s, then 1.6 s more earn 3.2.
        assert!(c.take(a, t1 + Duration::from_millis(3500)));
        assert_eq!(c.limits().close_after(), 30);
    }

    #[test]
    fn pages_per_client_are_capped_and_given_back() {
        let c = Clients::new(limits(2.0, 3.0, 2));
        let t0 = Instant::now();
        let a = ip("192.0.2.1");
        assert!(c.open(a, t0));
        assert!(c.open(a, t0));
        assert!(!c.open(a, t0));
        assert!(c.open(ip("192.0.2.2"), t0));
        c.close(a);
        assert!(c.open(a, t0));
        assert!(!c.open(a, t0));
    }

    #[test]
    fn idle_clients_are_dropped() {
        let c = Clients::new(limits(10.0, 5.0, 2));
        let t0 = Instant::now();
        for i in 0..200u8 {
            c.take(IpAddr::from([198, 51, 100, i]), t0);
        }
        assert!(c.open(ip("192.0.2.1"), t0));
        assert_eq!(c.len(), 201);
        // After 1 s every bucket is full again (1 token to earn at 10 a second): only the
        // client with a page open is kept.
        c.take(ip("192.0.2.1"), t0 + Duration::from_secs(2));
        assert_eq!(c.len(), 1);
        c.close(ip("192.0.2.1"));
        c.take(ip("192.0.2.3"), t0 + Duration::from_secs(4));
        assert_eq!(c.len(), 1, "only the client that just sent");
    }

    #[test]
    fn the_client_behind_a_trusted_proxy() {
        let c = Clients::new(limits(1.0, 1.0, 1));
        let xff = |peer: &str, h: &[&str]| c.client(ip(peer), h.iter().copied());
        // Not a trusted proxy: the header is the client's word, not taken.
        assert_eq!(xff("192.0.2.9", &["203.0.113.5"]), ip("192.0.2.9"));
        assert_eq!(xff("10.0.0.1", &["203.0.113.5"]), ip("203.0.113.5"));
        // The last untrusted hop; what the client wrote before it is ignored.
        assert_eq!(
            xff("10.0.0.1", &["1.2.3.4, 203.0.113.5", "10.0.0.2"]),
            ip("203.0.113.5")
        );
        assert_eq!(xff("10.0.0.1", &[]), ip("10.0.0.1"));
        assert_eq!(xff("10.0.0.1", &["not an address"]), ip("10.0.0.1"));
        assert_eq!(
            xff("::ffff:10.0.0.1", &["2001:db8:1:2:3:4:5:6"]),
            ip("2001:db8:1:2::")
        );
    }
}
