//! Executions shared between the searches of `vcov compare` while they run.
//!
//! Each configuration's targeted search is a `Participant`. At fixed points of its own progress (the
//! edges it has executed: `SYNC_FIRST`, then four times more each time) it publishes the executions
//! it found since the last point, waits until every other search has reached the same point (or
//! ended), and takes the executions the others published up to that point. A search that ends
//! publishes what is left and waits for no one again.
//!
//! Invariant: what a search is given depends only on the points, never on timing: the same inputs
//! give the same exchange, whatever the number of threads (only a time limit or a signal, which stop
//! a search at a moment and not at a point, make it vary, as they do in a single run).

use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use crate::cfa::EdgeId;
use crate::symex::InputValue;

/// Edges a search executes before its first exchange.
pub const SYNC_FIRST: u64 = 10_000;
/// Each exchange point is this many times the previous one: a fast search waits for a slow one at
/// a few points only.
const SYNC_GROWTH: u64 = 4;

/// An execution one search found: its edges and inputs.
pub type Shared = (Vec<EdgeId>, Vec<InputValue>);

/// The exchange of `n` searches.
#[derive(Debug)]
pub struct Exchange {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Debug)]
struct State {
    /// Per search: the exchange points it has passed (`u64::MAX` once it ended).
    passed: Vec<u64>,
    /// Per search: what it published, each with the point after which it was found (ascending).
    found: Vec<Vec<(u64, Shared)>>,
}

impl Exchange {
    /// An exchange for `n` searches; `participants` hands out their ends.
    pub fn new(n: usize) -> Arc<Exchange> {
        Arc::new(Exchange {
            state: Mutex::new(State { passed: vec![0; n], found: vec![Vec::new(); n] }),
            changed: Condvar::new(),
        })
    }

    /// One participant per search, in order.
    pub fn participants(self: &Arc<Self>) -> Vec<Participant> {
        let n = self.lock().passed.len();
        (0..n)
            .map(|me| Participant { exchange: Arc::clone(self), me, passed: 0, taken: vec![0; n], ended: false })
            .collect()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A search that panicked while holding the lock left consistent data (pushes only).
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One search's end of the exchange.
#[derive(Debug)]
pub struct Participant {
    exchange: Arc<Exchange>,
    me: usize,
    /// Exchange points passed.
    passed: u64,
    /// Per other search: how many of its executions this one took.
    taken: Vec<usize>,
    ended: bool,
}

impl Participant {
    /// Whether a search that executed `edges` edges is at its next exchange point.
    pub fn due(&self, edges: u64) -> bool {
        !self.ended && edges >= point(self.passed)
    }

    /// Publishes `mine` (found since the last point), waits until every other search passed this
    /// point or ended, and returns what the others published up to it: (search, execution), by
    /// search, then in the order found.
    pub fn exchange(&mut self, mine: Vec<Shared>) -> Vec<(usize, Shared)> {
        let at = self.passed;
        let mut state = self.exchange.lock();
        state.found[self.me].extend(mine.into_iter().map(|s| (at, s)));
        state.passed[self.me] = at + 1;
        self.exchange.changed.notify_all();
        while state.passed.iter().any(|&p| p <= at) {
            state = self.exchange.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
        self.passed = at + 1;
        let mut given = Vec::new();
        for (other, found) in state.found.iter().enumerate() {
            if other == self.me {
                continue;
            }
            let start = self.taken[other];
            let upto = start + found[start..].iter().take_while(|(p, _)| *p <= at).count();
            given.extend(found[start..upto].iter().map(|(_, s)| (other, s.clone())));
            self.taken[other] = upto;
        }
        given
    }

    /// Publishes `mine` and leaves: the others no longer wait for this search.
    pub fn end(&mut self, mine: Vec<Shared>) {
        let at = self.passed;
        let mut state = self.exchange.lock();
        state.found[self.me].extend(mine.into_iter().map(|s| (at, s)));
        state.passed[self.me] = u64::MAX;
        self.ended = true;
        self.exchange.changed.notify_all();
    }
}

impl Drop for Participant {
    /// A search that stops without `end` (an error, a panic) must not keep the others waiting.
    fn drop(&mut self) {
        if !self.ended {
            self.end(Vec::new());
        }
    }
}

/// The edges at which exchange point `k` lies.
fn point(k: u64) -> u64 {
    SYNC_FIRST.saturating_mul(SYNC_GROWTH.saturating_pow(k.min(40) as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exec(n: u32) -> Shared {
        (vec![EdgeId(n)], Vec::new())
    }

    #[test]
    fn points_grow_geometrically() {
        assert_eq!(point(0), SYNC_FIRST);
        assert_eq!(point(1), SYNC_FIRST * 4);
        assert_eq!(point(100), point(40));
    }

    #[test]
    fn a_search_gets_what_the_others_found_up_to_the_same_point() {
        let ex = Exchange::new(3);
        let mut ps = ex.participants();
        let mut c = ps.pop().unwrap();
        let mut b = ps.pop().unwrap();
        let mut a = ps.pop().unwrap();
        // `c` ends first, with one execution; `b` passes two points; `a` one.
        c.end(vec![exec(7)]);
        let (got_a, got_b) = std::thread::scope(|s| {
            let hb = s.spawn(move || {
                let first = b.exchange(vec![exec(1)]);
                let second = b.exchange(vec![exec(2)]);
                b.end(vec![exec(3)]);
                (first, second)
            });
            let first = a.exchange(vec![exec(10)]);
            let second = a.exchange(Vec::new());
            a.end(Vec::new());
            ((first, second), hb.join().unwrap())
        });
        let ids = |v: &[(usize, Shared)]| v.iter().map(|(w, s)| (*w, s.0[0].0)).collect::<Vec<_>>();
        // At point 0 each sees the others' point-0 executions (c ended at point 0).
        assert_eq!(ids(&got_a.0), vec![(1, 1), (2, 7)]);
        assert_eq!(ids(&got_b.0), vec![(0, 10), (2, 7)]);
        // At point 1: only what was published at point 1.
        assert_eq!(ids(&got_a.1), vec![(1, 2)]);
        assert!(got_b.1.is_empty());
    }

    #[test]
    fn a_dropped_participant_does_not_block_the_others() {
        let ex = Exchange::new(2);
        let mut ps = ex.participants();
        let b = ps.pop().unwrap();
        let mut a = ps.pop().unwrap();
        drop(b);
        assert!(a.exchange(vec![exec(1)]).is_empty());
        assert!(a.due(point(1)));
        assert!(!a.due(point(1) - 1));
    }
}
