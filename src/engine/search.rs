//! The searcher: iterative deepening with aspiration windows over a PVS alpha-beta search,
//! quiescence, transposition table, moves ordered by a [`super::picker::MovePicker`] (killers,
//! history), null-move pruning where the variant allows it, late-move reductions and a few
//! forward prunings. Lazy SMP: helper threads search the same root sharing the table.
//!
//! Scores are centipawns from the side to move's view; mates are `±(MATE - plies)`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use arrayvec::ArrayVec;

use crate::core::{Color, Move, MoveList, Outcome, Variant};

use super::eval::{EvalParams, Evaluate};
use super::params::SearchParams;
use super::picker::{cont_key, order_root, ContKey, Lead, MovePicker, OrderTables, Picked, NO_KEY};
use super::score::{to_score, INF, MATE, MATE_BOUND, MAX_PLY};
use super::thread::spawn_search_scoped;
use super::time::{elapsed_ms, TimeBudget};
use super::tt::{prefetch_line, Bound, TranspositionTable};
use super::{Control, Info, Limits, SearchResult};

/// Quiescence plies below the horizon after which the static evaluation stands.
pub const QS_MAX: usize = 16;
/// The same when in check (evasions are searched up to here).
pub const QS_MAX_IN_CHECK: usize = 24;
pub use super::picker::advance_hint;

/// The score of a node whose side to move has no legal move, `ply` plies from the root;
/// `draw` is what a draw scores for the side to move (see `Worker::draw_score`).
///
/// The variant's `outcome()` says who won; a variant without one falls back to chess's rule.
#[inline]
pub fn no_legal_move_score<V: Variant>(pos: &V, ply: usize, draw: i32) -> i32 {
    // The rules decide what "no legal move" means: mate and stalemate in chess, the end of
    // both boards in Infinite Recursion, a loss in Immune Chess.
    match pos.outcome() {
        Some(Outcome::Win { winner, .. }) if winner == pos.side_to_move() => MATE - ply as i32,
        Some(Outcome::Win { .. }) => -MATE + ply as i32,
        Some(Outcome::Draw { .. }) => draw,
        None if pos.in_check() => -MATE + ply as i32,
        None => draw,
    }
}

/// State shared by all threads of one search.
pub(crate) struct Shared<'a> {
    pub tt: &'a TranspositionTable,
    pub control: &'a Control,
    pub limits: &'a Limits,
    pub budget: TimeBudget,
    /// Set when the main thread is done (or out of time): every thread stops.
    pub abort: AtomicBool,
    /// Nodes of each thread, published every so often (exactly at iteration ends).
    pub nodes: Vec<AtomicU64>,
    pub multipv: usize,
    /// Centipawns a draw costs the root's side to move.
    pub contempt: i32,
    /// The evaluation's parameters.
    pub eval: EvalParams,
    /// The search's constants, and the late-move reductions they give.
    pub params: SearchParams,
    pub lmr: Box<[[u8; 64]; 64]>,
    pub start: Instant,
    /// The move-ordering tables of earlier searches, which the workers take and give back.
    pub order: &'a Mutex<Vec<OrderTables>>,
}

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// The time budget: the one a ponder hit set, else the one computed from the limits.
    pub fn budget(&self) -> TimeBudget {
        self.control.budget_override().unwrap_or(self.budget)
    }
}

#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev_score: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
    /// The nodes this thread spent under the move over the whole search (the time manager
    /// reads the best move's share).
    pub nodes: u64,
}

/// One search thread.
pub(crate) struct Worker<'a, V: Evaluate> {
    id: usize,
    pos: V,
    shared: &'a Shared<'a>,
    pub nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// Killers and history, for the move pickers.
    order: OrderTables,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    evals: [i32; MAX_PLY + 1],
    /// Whether the move leading to each ply was a null move.
    null_before: [bool; MAX_PLY + 1],
    /// Whether the move leading to each ply gave check by a piece lost by exchange
    /// evaluation: such a check is not extended.
    no_ext: [bool; MAX_PLY + 1],
    /// The continuation key of the move made at each ply ([`NO_KEY`] for a null move).
    keys: [ContKey; MAX_PLY + 1],
    /// The move a singular-extension search leaves out at each ply ([`Move::NONE`]: none).
    excluded: [Move; MAX_PLY + 1],
    /// The depth of the iteration under way (singular extensions stop at twice it in plies).
    root_depth: i32,
    pub root_moves: Vec<RootMove>,
    /// The side to move at the root (a draw's score is seen from it).
    root_side: Color,
    /// The result of the last completed iteration: (depth, root moves).
    pub completed: Option<(u32, Vec<RootMove>)>,
    /// Static evaluations of this search's positions by key ([`Worker::static_eval`]).
    eval_cache: Vec<EvalEntry>,
}

/// An entry of a worker's evaluation cache: a position's key and its static evaluation.
#[derive(Clone, Copy, Default)]
struct EvalEntry {
    key: u64,
    eval: i32,
    filled: bool,
}

/// Entries in a worker's evaluation cache (a power of two; 16 bytes each: 1 MiB a thread).
const EVAL_CACHE_ENTRIES: usize = 1 << 16;

impl<'a, V: Evaluate> Worker<'a, V> {
    pub fn new(id: usize, pos: &V, shared: &'a Shared<'a>) -> Worker<'a, V> {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let searchmoves = &shared.limits.searchmoves;
        let mut root_moves: Vec<RootMove> = list
            .iter()
            .filter(|m| searchmoves.is_empty() || searchmoves.contains(m))
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                prev_score: -INF,
                pv: vec![mv],
                seldepth: 0,
                nodes: 0,
            })
            .collect();
        order_root(pos, &mut root_moves, |r| r.mv);
        Worker {
            id,
            pos: pos.clone(),
            shared,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            order: OrderTables::take::<V>(
                &mut shared.order.lock().unwrap_or_else(|e| e.into_inner()),
                MAX_PLY + 2,
                {
                    let g = pos.geometry();
                    g.width as usize * g.height as usize
                },
            ),
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            evals: [0; MAX_PLY + 1],
            null_before: [false; MAX_PLY + 1],
            no_ext: [false; MAX_PLY + 1],
            keys: [NO_KEY; MAX_PLY + 1],
            excluded: [Move::NONE; MAX_PLY + 1],
            root_depth: 0,
            root_moves,
            root_side: pos.side_to_move(),
            completed: None,
            eval_cache: vec![EvalEntry::default(); EVAL_CACHE_ENTRIES],
        }
    }

    /// Whether to stop now: stop flag, abort, hard time and node limits (checked every 1024
    /// nodes; the node limit of a single thread exactly).
    #[inline(always)]
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        let sh = self.shared;
        if self.id == 0 {
            if let Some(limit) = sh.limits.nodes {
                if self.nodes >= limit && sh.nodes.len() == 1 {
                    self.stopped = true;
                    return true;
                }
            }
        }
        if self.nodes & 1023 == 0 {
            sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if sh.abort.load(Ordering::Relaxed) || sh.control.stopped() {
                self.stopped = true;
            } else if self.id == 0 {
                if let Some(limit) = sh.limits.nodes {
                    if sh.total_nodes() >= limit {
                        self.stopped = true;
                    }
                }
                if let Some(hard) = sh.budget().hard {
                    if !sh.control.pondering() && elapsed_ms(sh.control) >= hard {
                        self.stopped = true;
                    }
                }
            }
        }
        self.stopped
    }

    /// Iterative deepening; the main thread (id 0) reports and watches the clock.
    pub fn iterate(&mut self, report: &(dyn Fn(&Info) + Sync)) {
        if self.root_moves.is_empty() {
            return;
        }
        let sh = self.shared;
        let max_depth = sh
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8);
        let multipv = sh.multipv.clamp(1, self.root_moves.len());
        // Helpers search a ply deeper every other thread, so threads spread over depths.
        let offset = if self.id > 0 { (self.id % 2) as u32 } else { 0 };
        let mut depth = 1;
        // How many iterations in a row kept the same best move, and the last best score: the
        // soft limit stretches while the best move changes or its score falls.
        let mut stable = 0usize;
        let mut last_best: Option<(Move, i32)> = None;
        while depth <= max_depth {
            let d = (depth + offset).min(max_depth);
            for rm in &mut self.root_moves {
                rm.prev_score = rm.score;
            }
            self.seldepth = 0;
            for pv_idx in 0..multipv {
                self.aspiration(d as i32, pv_idx);
                if self.stopped {
                    break;
                }
                self.root_moves[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
            }
            if self.stopped {
                break;
            }
            self.completed = Some((d, self.root_moves.clone()));
            if self.id != 0 {
                depth += 1;
                continue;
            }
            sh.nodes[0].store(self.nodes, Ordering::Relaxed);
            for i in 0..multipv {
                report(&self.info(d, i));
            }
            let best = self.root_moves[0].score;
            let best_move = self.root_moves[0].mv;
            let mut drop = 0;
            match last_best {
                Some((m, s)) => {
                    stable = if m == best_move { stable + 1 } else { 0 };
                    drop = (s - best).clamp(0, 150);
                }
                None => stable = 0,
            }
            last_best = Some((best_move, best));
            if !sh.control.pondering() {
                if let Some(soft) = sh.budget().soft {
                    let hard = sh.budget().hard;
                    let soft = if self.root_moves.len() == 1 {
                        soft / 16
                    } else if hard.is_some_and(|h| h > soft) {
                        soft_limit(soft, stable, drop, self.best_move_share(), hard)
                    } else {
                        // A fixed time per move (`movetime`, `st`) is spent as it is.
                        soft
                    };
                    if elapsed_ms(sh.control) >= soft {
                        break;
                    }
                }
                // A mate found well within the depth searched will not change.
                if sh.budget().timed()
                    && best.abs() >= MATE_BOUND
                    && (MATE - best.abs()) as u32 * 2 + 4 <= d
                {
                    break;
                }
            }
            depth += 1;
        }
    }

    /// The best root move's share of this thread's nodes so far, in thousandths (every node
    /// is counted under some root move, so the thread's count is their sum).
    fn best_move_share(&self) -> u64 {
        (self.root_moves[0].nodes * 1000)
            .checked_div(self.nodes)
            .unwrap_or(1000)
    }

    /// Gives the worker's move-ordering tables back for the next search.
    pub fn finish(self) {
        let mut spare = self.shared.order.lock().unwrap_or_else(|e| e.into_inner());
        spare.push(self.order);
    }

    /// Progress of line `i` after an iteration at `depth`.
    pub fn info(&self, depth: u32, i: usize) -> Info {
        let sh = self.shared;
        let nodes = sh.total_nodes().max(self.nodes);
        let ms = sh.start.elapsed().as_millis() as u64;
        let rm = &self.root_moves[i];
        let score = if rm.score == -INF {
            rm.prev_score
        } else {
            rm.score
        };
        Info {
            depth,
            seldepth: rm.seldepth.max(depth as usize) as u32,
            multipv: i + 1,
            score: to_score(score),
            nodes,
            nps: nodes * 1000 / ms.max(1),
            time_ms: ms,
            hashfull: sh.tt.hashfull(),
            pv: rm.pv.clone(),
        }
    }

    /// One iteration for PV line `pv_idx`, with an aspiration window around the last score.
    fn aspiration(&mut self, depth: i32, pv_idx: usize) {
        self.root_depth = depth;
        // This line's score in the last iteration (scores of other lines were reset since).
        let prev = self.root_moves[pv_idx].prev_score;
        let mut delta = self.shared.params.asp_delta;
        let (mut alpha, mut beta) = if depth >= 5 && prev.abs() < MATE_BOUND {
            ((prev - delta).max(-INF), (prev + delta).min(INF))
        } else {
            (-INF, INF)
        };
        loop {
            let score = self.root_search(depth, alpha, beta, pv_idx);
            self.root_moves[pv_idx..].sort_by_key(|r| std::cmp::Reverse(r.score));
            if self.stopped {
                return;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INF);
            } else if score >= beta {
                beta = (score + delta).min(INF);
            } else {
                return;
            }
            delta += delta / 2;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// Searches the root moves from `pv_idx` on; returns the best score (fail-soft).
    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32, pv_idx: usize) -> i32 {
        let mut best = -INF;
        for rm in &mut self.root_moves[pv_idx..] {
            rm.score = -INF;
        }
        let in_check = self.pos.in_check();
        for i in pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let tactical = self.pos.is_tactical(m);
            let nodes_before = self.nodes;
            self.nodes += 1;
            self.keys[0] = cont_key(&self.pos, m);
            self.pos.make_move(m);
            self.null_before[1] = false;
            let mut score;
            if i == pv_idx {
                score = -self.search(depth - 1, -beta, -alpha, 1);
            } else {
                let quiet =
                    !tactical && !in_check && !self.pos.in_check() && i - pv_idx >= 4 && depth >= 3;
                let r = if quiet { 1 } else { 0 };
                score = -self.search(depth - 1 - r, -alpha - 1, -alpha, 1);
                if score > alpha && r > 0 {
                    score = -self.search(depth - 1, -alpha - 1, -alpha, 1);
                }
                if score > alpha && score < beta {
                    score = -self.search(depth - 1, -beta, -alpha, 1);
                }
            }
            self.pos.unmake_move();
            self.root_moves[i].nodes += self.nodes - nodes_before;
            if self.stopped {
                return best;
            }
            if score > best {
                best = score;
            }
            if i == pv_idx || score > alpha {
                let mut pv = vec![m];
                pv.extend_from_slice(&self.pv[1][1..self.pv_len[1]]);
                let rm = &mut self.root_moves[i];
                rm.score = score;
                rm.pv = pv;
                rm.seldepth = self.seldepth;
                if score > alpha {
                    alpha = score;
                    // Keep the best so far first: an aborted iteration can still use it.
                    self.root_moves[pv_idx..=i].rotate_right(1);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Hints the CPU to load what the node just reached reads first: its transposition table
    /// bucket and its slot of the evaluation cache. Issued at once after the move is made,
    /// so the loads overlap the check test and the child's first steps (a profile of `bench`
    /// had the table's first read waiting on memory for about a sixth of the time, most of it
    /// in quiescence, which had no hint at all).
    #[inline(always)]
    fn prefetch(&self) {
        let key = self.pos.hash();
        self.shared.tt.prefetch(key);
        prefetch_line(&self.eval_cache[key as usize & (EVAL_CACHE_ENTRIES - 1)]);
    }

    /// The position's static evaluation, kept below the mate scores: evaluation parameters
    /// given by hand (`--micro-terms` and the like take up to ±100000 each) could otherwise
    /// score a position beyond a mate or beyond the window's `INF`, where the aspiration
    /// loop never settles.
    ///
    /// The evaluation is a function of the position alone (its key covers every bit of
    /// state), so a position met again in this search, by transposition or by the main
    /// search and quiescence in turn, reads it from the worker's cache.
    #[inline(always)]
    fn static_eval(&mut self) -> i32 {
        let key = self.pos.hash();
        let slot = &mut self.eval_cache[key as usize & (EVAL_CACHE_ENTRIES - 1)];
        if slot.filled && slot.key == key {
            return slot.eval;
        }
        let eval = self
            .pos
            .evaluate_with(&self.shared.eval)
            .clamp(1 - MATE_BOUND, MATE_BOUND - 1);
        *slot = EvalEntry {
            key,
            eval,
            filled: true,
        };
        eval
    }

    /// A draw's score for the side to move: −contempt for the root's side, +contempt for
    /// the other.
    #[inline]
    fn draw_score(&self) -> i32 {
        if self.pos.side_to_move() == self.root_side {
            -self.shared.contempt
        } else {
            self.shared.contempt
        }
    }

    /// Alpha-beta below the root (`ply` ≥ 1).
    fn search(&mut self, mut depth: i32, mut alpha: i32, mut beta: i32, ply: usize) -> i32 {
        let sp = &self.shared.params;
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = ply;
        if self.check_stop() {
            return 0;
        }
        let in_check = self.pos.in_check();
        // Check extension, except for a check that loses the checking piece by exchange
        // (as Stockfish 10–12 did: `givesCheck && see_ge(move)`).
        if in_check && !self.no_ext[ply] {
            depth += 1;
        }
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, 0);
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.pos.is_search_draw() {
            return self.draw_score();
        }
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.static_eval() };
        }
        // Mate-distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let excluded = self.excluded[ply];
        let key = self.pos.hash();
        // The search that leaves a move out neither reads the table's score nor writes it.
        let tt = if excluded.is_none() {
            self.shared.tt.probe(key, ply)
        } else {
            None
        };
        let tt_move = tt.map_or(Move::NONE, |h| h.mv);
        if let Some(h) = tt {
            if !pv_node
                && h.depth >= depth
                && match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score >= beta,
                    Bound::Upper => h.score <= alpha,
                    Bound::None => false,
                }
            {
                return h.score;
            }
        }

        let eval = if in_check {
            -INF
        } else {
            let e = self.static_eval();
            match tt {
                Some(h)
                    if h.score.abs() < MATE_BOUND
                        && ((h.bound == Bound::Lower && h.score > e)
                            || (h.bound == Bound::Upper && h.score < e)) =>
                {
                    h.score
                }
                _ => e,
            }
        };
        self.evals[ply] = eval;
        let improving = !in_check && ply >= 2 && eval > self.evals[ply - 2];

        if !pv_node && !in_check && beta.abs() < MATE_BOUND && excluded.is_none() {
            // Reverse futility: far above beta at low depth.
            if depth <= 7 && eval - sp.rfp_margin * (depth - improving as i32) >= beta {
                return eval;
            }
            // Null move, only where the variant calls it sound.
            if depth >= 3 && eval >= beta && !self.null_before[ply] && self.pos.null_move_ok() {
                let r = 3 + depth / 4 + ((eval - beta) / sp.nmp_eval_div).min(3);
                self.pos.make_null_move();
                self.keys[ply] = NO_KEY;
                self.null_before[ply + 1] = true;
                self.no_ext[ply + 1] = false;
                let score = -self.search(depth - 1 - r, -beta, -beta + 1, ply + 1);
                self.null_before[ply + 1] = false;
                self.pos.unmake_move();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        // Internal iterative reduction: no move to try first, search a bit shallower.
        if tt_move.is_none() && depth >= 4 && excluded.is_none() {
            depth -= 1;
        }

        // Singular extension: a table move that holds a lower (or exact) bound from nearly
        // this depth, when every other move fails low at half the depth against a margin
        // below its score, is searched a ply deeper (two in a non-PV node well below it).
        // Multi-cut: if the others hold beta too, the node fails high without the move; if
        // only the table's score does, the move is searched a ply shallower.
        let mut tt_ext = 0;
        let singular_candidate = tt.filter(|h| {
            (ply as i32) < 2 * self.root_depth
                && depth >= 7
                && !h.mv.is_none()
                && matches!(h.bound, Bound::Lower | Bound::Exact)
                && h.depth >= depth - 3
                && h.score.abs() < MATE_BOUND
        });
        if let Some(h) = singular_candidate {
            let sbeta = h.score - sp.se_margin * depth / 16;
            self.excluded[ply] = h.mv;
            let score = self.search((depth - 1) / 2, sbeta - 1, sbeta, ply);
            self.excluded[ply] = Move::NONE;
            self.pv_len[ply] = ply;
            if self.stopped {
                return 0;
            }
            if score < sbeta {
                tt_ext = if !pv_node && score < sbeta - sp.se_double {
                    2
                } else {
                    1
                };
            } else if sbeta >= beta {
                return sbeta;
            } else if h.score >= beta {
                tt_ext = -1;
            }
        }

        let lead = Lead {
            keys: [
                self.keys[ply - 1],
                if ply >= 2 { self.keys[ply - 2] } else { NO_KEY },
            ],
        };
        let mut picker = MovePicker::new();
        picker.fill(&self.pos, tt_move, ply, lead, &self.order);
        if picker.is_empty() {
            return no_legal_move_score(&self.pos, ply, self.draw_score());
        }
        let lmr = &self.shared.lmr;
        let mut best = -INF;
        let mut best_move = Move::NONE;
        let mut move_count = 0;
        let mut quiets_tried: ArrayVec<(Move, ContKey), 64> = ArrayVec::new();
        let orig_alpha = alpha;
        while let Some(picked) = picker.next() {
            let m = picked.mv;
            if m == excluded {
                continue;
            }
            let tactical = self.pos.is_tactical(m);
            let quiet = !tactical;

            // Bad captures at low depth.
            if !pv_node
                && !in_check
                && best > -MATE_BOUND
                && tactical
                && depth <= 6
                && !self.pos.see_ge(m, -sp.see_capture * depth)
            {
                continue;
            }

            // Late-move pruning and futility pruning of quiet moves that do not give check,
            // before the move is made where the variant can tell a check without making it.
            // Past the late-move count every quiet move left that does not give check is
            // dropped at once; those that do are still searched, as are the tactical ones.
            let lmp = (3 + depth * depth) / if improving { 1 } else { 2 };
            if quiet && !pv_node && !in_check && best > -MATE_BOUND {
                let late = depth <= 8 && move_count >= lmp;
                let futile = depth <= 6 && eval + sp.fut_base + sp.fut_margin * depth <= alpha;
                if (late || futile) && self.pos.gives_check(m) == Some(false) {
                    move_count += 1;
                    if late {
                        let pos = &self.pos;
                        picker.retain_late(|m| {
                            pos.is_tactical(m) || pos.gives_check(m) != Some(false)
                        });
                    }
                    continue;
                }
            }

            let key = cont_key(&self.pos, m);
            self.keys[ply] = key;
            self.pos.make_move(m);
            let gives_check = self.pos.in_check();
            // The check extension's exchange test, for a move the variant says gives check:
            // asked only once the move is seen to check (the exchange is the position's
            // before the move), so the other moves never ask the variant.
            self.no_ext[ply + 1] = gives_check && {
                self.pos.unmake_move();
                let loses = self.pos.gives_check(m) == Some(true) && !self.pos.see_ge(m, 0);
                self.pos.make_move(m);
                loses
            };
            self.prefetch();
            move_count += 1;

            if quiet && !pv_node && !in_check && !gives_check && best > -MATE_BOUND {
                // The same pruning where the variant cannot tell a check before the move.
                if (depth <= 8 && move_count > lmp)
                    || (depth <= 6 && eval + sp.fut_base + sp.fut_margin * depth <= alpha)
                {
                    self.pos.unmake_move();
                    continue;
                }
            }

            let new_depth = depth - 1 + if m == tt_move { tt_ext } else { 0 };
            let mut score;
            if move_count == 1 {
                score = -self.search(new_depth, -beta, -alpha, ply + 1);
            } else {
                let mut r = 0;
                if depth >= 3 && move_count > 1 + pv_node as i32 && quiet && !gives_check {
                    r = lmr[depth.min(63) as usize][move_count.min(63) as usize] as i32;
                    r -= pv_node as i32;
                    r -= picked.before_history() as i32;
                    r += !improving as i32;
                    if !picked.before_history() {
                        r -= (picked.history() / sp.lmr_hist_div).clamp(-2, 2);
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                score = -self.search(new_depth - r, -alpha - 1, -alpha, ply + 1);
                if score > alpha && r > 0 {
                    score = -self.search(new_depth, -alpha - 1, -alpha, ply + 1);
                }
                if score > alpha && score < beta {
                    score = -self.search(new_depth, -beta, -alpha, ply + 1);
                }
            }
            self.pos.unmake_move();
            if self.stopped {
                return 0;
            }

            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        if quiet {
                            let bonus = sp.history_bonus(depth);
                            let stm = self.pos.side_to_move();
                            self.order
                                .cutoff(ply, stm, (m, key), &quiets_tried, lead, bonus);
                        }
                        break;
                    }
                }
            }
            if quiet && !quiets_tried.is_full() {
                quiets_tried.push((m, key));
            }
        }

        if move_count == 0 {
            // Everything was pruned (only possible after a best score was set): fail low;
            // or the only move was the one left out (then it is singular).
            return alpha;
        }
        if !excluded.is_none() {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared
            .tt
            .store(key, best_move, best, depth, bound, ply);
        best
    }

    /// `m` heads the principal variation at `ply`, followed by the child's.
    #[inline]
    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let len = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][ply + 1..len].copy_from_slice(&tail[0][ply + 1..len]);
        self.pv_len[ply] = len.max(ply + 1);
    }

    /// Quiescence: tactical moves only (all evasions in check), `qdepth` plies below the
    /// horizon; out of check those that lose by static exchange ([`Evaluate::see_ge`]) are
    /// skipped, and where the variant has a delta margin ([`Evaluate::QS_DELTA`]) those that
    /// win too little to come within it of alpha. Deep exchanges on big boards (16×16, many
    /// capturers) can run for dozens of plies: past [`QS_MAX`] the static evaluation stands,
    /// past [`QS_MAX_IN_CHECK`] even in check.
    fn qsearch(&mut self, mut alpha: i32, beta: i32, ply: usize, qdepth: usize) -> i32 {
        self.pv_len[ply] = ply;
        if self.check_stop() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.pos.is_search_draw() {
            return self.draw_score();
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.static_eval() };
        }
        if qdepth >= QS_MAX_IN_CHECK || (qdepth >= QS_MAX && !in_check) {
            return self.static_eval();
        }
        let pv_node = beta - alpha > 1;
        let key = self.pos.hash();
        let tt = self.shared.tt.probe(key, ply);
        let tt_move = tt.map_or(Move::NONE, |h| h.mv);
        if let Some(h) = tt {
            if !pv_node
                && match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score >= beta,
                    Bound::Upper => h.score <= alpha,
                    Bound::None => false,
                }
            {
                return h.score;
            }
        }
        let mut best = -INF;
        // The standing evaluation plus the variant's delta margin, out of check.
        let mut delta_base = None;
        if !in_check {
            let stand = self.static_eval();
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
            delta_base = V::QS_DELTA.map(|delta| stand + delta);
        }
        let orig_alpha = alpha;

        let mut picker = MovePicker::new();
        picker.fill_quiescence(&self.pos, tt_move, in_check, &self.order);
        if in_check && picker.is_empty() {
            return no_legal_move_score(&self.pos, ply, self.draw_score());
        }
        let mut best_move = Move::NONE;
        while let Some(Picked { mv: m, .. }) = picker.next() {
            // Out of check a tactical move must not lose by exchange and, where the variant
            // has a delta margin, must win at least what lifts the standing evaluation to
            // alpha less that margin: delta pruning by static exchange.
            if !in_check
                && !self
                    .pos
                    .see_ge(m, delta_base.map_or(0, |base| (alpha + 1 - base).max(0)))
            {
                continue;
            }
            self.pos.make_move(m);
            self.prefetch();
            let score = -self.qsearch(-beta, -alpha, ply + 1, qdepth + 1);
            self.pos.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(key, best_move, best, 0, bound, ply);
        best
    }
}

/// The soft time limit after an iteration: `soft` scaled by how many iterations in a row kept
/// the best move (`stable`: a new best move stretches it to 1.6 times, five kept iterations
/// shrink it to 0.7) and by how far the best score fell in the last one (`drop` centipawns:
/// up to 1.5 times at 150) and by the best move's share of the root's nodes over the search
/// (`share` in thousandths: `(1.5 − share)·1.3`, 0.78 at nine tenths, 1.5 at a third: a move
/// the search barely looked away from is played sooner), never past the hard limit.
fn soft_limit(soft: u64, stable: usize, drop: i32, share: u64, hard: Option<u64>) -> u64 {
    const STABILITY: [u128; 6] = [160, 125, 105, 90, 80, 70];
    // In 128 bits: a clock of any `u64` size (a GUI may send one) cannot overflow it.
    let scaled = soft as u128 * STABILITY[stable.min(5)] / 100 * (300 + drop.max(0) as u128) / 300
        * (1500 - share.min(1000) as u128)
        * 13
        / 10_000;
    scaled.min(hard.unwrap_or(u64::MAX) as u128) as u64
}

/// The engine's settings a search reads (see [`super::Engine`]).
#[derive(Copy, Clone, Debug)]
pub(crate) struct Settings {
    pub threads: usize,
    pub multipv: usize,
    pub contempt: i32,
    pub eval: EvalParams,
    pub search: SearchParams,
}

/// Searches `pos` with `threads` threads (lazy SMP); the main thread's result is returned.
/// The threads order their moves by the tables of `order` (what earlier searches learned)
/// and leave theirs there.
pub(crate) fn run<V: Evaluate>(
    pos: &V,
    tt: &TranspositionTable,
    order: &Mutex<Vec<OrderTables>>,
    settings: Settings,
    limits: &Limits,
    control: &Control,
    report: &(dyn Fn(&Info) + Sync),
) -> SearchResult {
    let Settings {
        threads,
        multipv,
        contempt,
        eval,
        search,
    } = settings;
    let threads = threads.max(1);
    tt.new_search();
    let shared = Shared {
        tt,
        control,
        limits,
        budget: TimeBudget::new(limits, pos.clock_shape()),
        abort: AtomicBool::new(false),
        nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
        multipv: multipv.max(1),
        contempt,
        eval,
        params: search,
        lmr: search.lmr_table(),
        start: Instant::now(),
        order,
    };
    let shared = &shared;
    let result = std::thread::scope(|s| {
        let mut helpers = Vec::new();
        for id in 1..threads {
            let h = spawn_search_scoped(s, format!("search-{id}"), move || {
                let mut w = Worker::new(id, pos, shared);
                w.iterate(&|_| {});
                shared.nodes[id].store(w.nodes, Ordering::Relaxed);
                w.finish();
            });
            match h {
                Ok(h) => helpers.push(h),
                Err(_) => break,
            }
        }
        let main_work = move || {
            let mut w = Worker::new(0, pos, shared);
            w.iterate(report);
            shared.nodes[0].store(w.nodes, Ordering::Relaxed);
            // Never answer early while pondering or in an infinite search.
            while !control.stopped() && (control.pondering() || limits.infinite) {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            shared.abort.store(true, Ordering::SeqCst);
            let r = result_of(&w);
            w.finish();
            r
        };
        // When the system refuses the thread (its address space taken by a big table), the
        // main worker runs on the caller's thread: a search thread of its own already.
        let r = match spawn_search_scoped(s, "search-0", main_work) {
            Ok(main) => main.join().expect("search thread panicked"),
            Err(e) => {
                log::warn!("cannot start the main search thread ({e}): searching on this one");
                main_work()
            }
        };
        shared.abort.store(true, Ordering::SeqCst);
        for h in helpers {
            let _ = h.join();
        }
        r
    });
    SearchResult {
        nodes: shared.total_nodes(),
        ..result
    }
}

fn result_of<V: Evaluate>(w: &Worker<'_, V>) -> SearchResult {
    let (depth, moves) = match &w.completed {
        Some((d, rm)) => (*d, rm.clone()),
        None => (0, w.root_moves.clone()),
    };
    let Some(first) = moves.first() else {
        return SearchResult {
            best: None,
            ponder: None,
            score: to_score(no_legal_move_score(&w.pos, 0, 0)),
            depth: 0,
            nodes: w.nodes,
        };
    };
    // An aborted iteration's best move, if it was searched to the end and beat the rest.
    let mut best = first.clone();
    if let Some(cur) = w.root_moves.first() {
        if cur.score > -INF && cur.mv != best.mv && cur.score > best.score {
            best = cur.clone();
        }
    }
    let mut ponder = best.pv.get(1).copied();
    if ponder.is_none() {
        ponder = ponder_from_tt(&w.pos, best.mv, w.shared.tt);
    }
    SearchResult {
        best: Some(best.mv),
        ponder,
        score: to_score(if best.score == -INF { 0 } else { best.score }),
        depth,
        nodes: w.nodes,
    }
}

/// A legal reply to `best` from the table, for pondering.
fn ponder_from_tt<V: Variant>(pos: &V, best: Move, tt: &TranspositionTable) -> Option<Move> {
    let mut p = pos.clone();
    p.make_move(best);
    let m = tt.probe(p.hash(), 1)?.mv;
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    list.contains(&m).then_some(m)
}

#[cfg(test)]
mod tests {
    use super::soft_limit;

    /// The soft limit's three factors, exactly: stability, the score's drop and the best
    /// move's share of the root's nodes (thousandths), and the hard limit over them.
    #[test]
    fn the_soft_limit_follows_stability_drop_and_the_best_moves_share() {
        // A new best move (1.6), no drop, every node under it (0.65): 1000 → 1040.
        assert_eq!(soft_limit(1000, 0, 0, 1000, None), 1040);
        // Five stable iterations (0.7), the best move a third of the nodes (1.0829).
        assert_eq!(soft_limit(1000, 5, 0, 333, None), 700 * 1167 * 13 / 10_000);
        // A drop of 150 cp (1.5) and half the nodes (1.3).
        assert_eq!(soft_limit(1000, 2, 150, 500, None), 1050 * 3 / 2 * 13 / 10);
        // A share above the whole (impossible, but never below 0.65).
        assert_eq!(soft_limit(1000, 0, 0, 5000, None), 1040);
        // The hard limit caps it.
        assert_eq!(soft_limit(1000, 0, 150, 0, Some(1500)), 1500);
        // The largest clock neither overflows nor wraps round to a small limit.
        assert_eq!(soft_limit(u64::MAX, 0, 150, 0, None), u64::MAX);
        assert_eq!(
            soft_limit(u64::MAX, 5, 0, 1000, None),
            8_393_268_553_537_845_984 // 0.7 · 0.65 of the clock
        );
    }
}
