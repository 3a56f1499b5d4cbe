//! Which waiting path the explorer runs next: the work list in depth-first or breadth-first order
//! (depth bands, `mix_oldest`; a branch's successors queued by `queue_depth_first`), paths released
//! by the state cache, and the best-first copies of `CompletionOnly` subtrees with their share of
//! the feasibility checks (see the module documentation of `super`). `Explorer::pull` is the loop that takes paths until one ends.

use std::cmp::Ordering;
use std::time::Instant;

use super::outcome::{PathOutcome, Pulled};
use super::{
    Explorer, Guide, Item, Strategy, COPY_CHECKS, MAX_COMPLETING, MAX_COPY_SHIFT, MAX_DEFERRED, MIN_COPY_SHIFT,
    TURN_CHECKS,
};
use crate::symex::state::{List, SymState};

/// A path of a `CompletionOnly` subtree in the best-first queue: the fewer edges to the end of the
/// program, the sooner; then the newer (as depth-first search would).
pub(super) struct Completing<T> {
    key: (u32, u64),
    item: Item<T>,
}

impl<T> PartialEq for Completing<T> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl<T> Eq for Completing<T> {}

impl<T> PartialOrd for Completing<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> Ord for Completing<T> {
    /// Reversed: `BinaryHeap` pops the greatest, the queue the smallest key.
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(&self.key)
    }
}

impl<G: Guide> Explorer<'_, G> {
    /// From now on, depth-first search takes every fourth path from the oldest pending ones
    /// instead of the newest: for a caller whose search stalls in one deep subtree (an endless
    /// environment loop) while paths branching off near the root wait. Which paths there are does
    /// not change, only the order they are taken in.
    pub fn mix_oldest(&mut self) {
        self.mix = true;
    }

    /// Queues the successor paths `children` of a branch for depth-first search (of a best-first
    /// copy with `best_first`); returns the one it goes on with.
    pub(super) fn queue_depth_first(&mut self, best_first: bool, children: Vec<Item<G::Tag>>) -> Option<Item<G::Tag>> {
        // A `CompletionOnly` subtree is searched depth-first as any other; a copy of it from its
        // first branch on is kept, to search it best-first (`serve_completing`) once depth-first
        // search has gone past the band in it.
        if best_first {
            for c in children {
                self.queue_best_first(c);
            }
            return None;
        }
        for c in &children {
            let g = c.group.map(|g| g as usize);
            if let Some(g) = g.filter(|&g| !self.copied[g]) {
                self.copied[g] = true;
                if self.guide.completion_worth(&c.tag) == 0 {
                    continue;
                }
                let mut copy = c.clone();
                copy.id = self.fresh_id();
                copy.best_first = true;
                copy.entry = None;
                copy.chain = List::new();
                self.copy_roots.insert(g as u32, copy);
            }
        }
        // Paths deeper than the current band wait until the band is explored.
        // (Beyond `MAX_DEFERRED` waiting paths, plain DFS: the band must not turn into BFS's
        // frontier.)
        let band = if self.deferred.len() >= MAX_DEFERRED { u32::MAX } else { self.band };
        let (mut now, later): (Vec<_>, Vec<_>) = children.into_iter().partition(|c| c.depth <= band);
        for c in &later {
            // Depth-first search found no completion of the subtree within the band: its copy
            // starts.
            if let Some(copy) = c.group.and_then(|g| self.copy_roots.remove(&g)) {
                self.stats.copies += 1;
                self.queue_best_first(copy);
            }
        }
        self.deferred.extend(later);
        if now.is_empty() {
            return None;
        }
        let first = now.remove(0);
        for c in now.into_iter().rev() {
            self.work.push_back(c);
        }
        Some(first)
    }

    /// Queues a path of a best-first copy, unless its subtree is completed or the queue is full (the
    /// depth-first search covers every path of the copies: nothing is lost).
    pub(super) fn queue_best_first(&mut self, c: Item<G::Tag>) {
        let g = c.group.expect("copies are of subtrees");
        if self.groups[g as usize] || self.n_completing >= MAX_COMPLETING {
            return;
        }
        let key = (self.distance_to_end(&c.st), u64::MAX - c.id);
        self.completing.entry(g).or_default().push(Completing { key, item: c });
        self.n_completing += 1;
    }

    /// The fewest edges from the path's location to the end of the program: to the exit of its
    /// function, then from each return site to the exit of its caller.
    fn distance_to_end(&self, st: &SymState) -> u32 {
        let cfa = self.world.cfa;
        let mut d = self.exit_dist[st.node.idx()];
        for f in &st.frames {
            if let Some(cs) = f.call_site {
                let back = cfa.call_site(cs).return_node.map_or(u32::MAX, |r| self.exit_dist[r.idx()]);
                d = d.saturating_add(back).saturating_add(1);
            }
        }
        d
    }

    /// Runs the waiting path of the best-first copies nearest to the end of the program, unless its
    /// copy has used up `COPY_CHECKS`: then the copy is given up.
    fn serve_completing(&mut self) {
        // (`Completing` orders the nearest greatest.)
        let g = *self
            .completing
            .iter()
            .max_by_key(|(_, q)| q.peek().expect("queues are never empty"))
            .map(|(g, _)| g)
            .expect("called with waiting paths");
        if self.spent[g as usize] > COPY_CHECKS {
            // The copy gave no completion within its checks: the depth-first search goes on alone.
            self.give_up_copy(g);
            return;
        }
        let queue = self.completing.get_mut(&g).expect("present");
        let c = queue.pop().expect("queues are never empty");
        if queue.is_empty() {
            self.completing.remove(&g);
        }
        self.n_completing -= 1;
        let (before, edges_before) = (self.stats.branch_checks, self.stats.edges);
        self.advance(c.item);
        let spent = self.stats.branch_checks - before;
        self.edges_best_first += self.stats.edges - edges_before;
        self.spent[g as usize] = self.spent[g as usize].saturating_add(spent);
        self.stats.copy_checks += spent;
    }

    pub(super) fn enter_completion(&mut self, it: &mut Item<G::Tag>) {
        if it.group.is_none() {
            self.groups.push(false);
            self.copied.push(false);
            self.spent.push(0);
            it.group = Some(self.groups.len() as u32 - 1);
        }
    }

    /// Accepts a completing path: the remaining alternatives of its `CompletionOnly` subtree (if
    /// any) are dropped. Call it before pulling the next path.
    pub fn accept_completion(&mut self, outcome: &PathOutcome<G::Tag>) {
        if outcome.best_first && outcome.group.is_some_and(|g| !self.groups[g as usize]) {
            // The copies found what depth-first search had not: give them more turns.
            self.copy_shift = (self.copy_shift - 1).max(MIN_COPY_SHIFT);
            self.stats.copy_completions += 1;
        }
        if let Some(g) = outcome.group {
            self.groups[g as usize] = true;
            self.copy_roots.remove(&g);
            if let Some(q) = self.completing.remove(&g) {
                self.n_completing -= q.len();
            }
        }
    }

    /// Rejects a completing path (its replay disagreed): the best-first copy of its
    /// `CompletionOnly` subtree, which may well meet more such paths, is given up; the depth-first
    /// search of the subtree goes on.
    pub fn reject_completion(&mut self, outcome: &PathOutcome<G::Tag>) {
        if let Some(g) = outcome.group {
            self.give_up_copy(g);
        }
    }

    /// Gives up the best-first copy of subtree `g` (and the copies get fewer turns).
    fn give_up_copy(&mut self, g: u32) {
        if let Some(q) = self.completing.remove(&g) {
            self.n_completing -= q.len();
            self.copy_shift = (self.copy_shift + 1).min(MAX_COPY_SHIFT);
        }
        self.spent[g as usize] = u64::MAX;
    }

    /// The next ended path, like `Iterator::next`, but giving up after `max_segments` path segments
    /// (runs from one branch to the next) without one, if given.
    pub fn pull(&mut self, max_segments: Option<u64>) -> Pulled<G::Tag> {
        let t = Instant::now();
        if !self.started {
            self.start();
        }
        let mut segments = 0u64;
        let res = loop {
            if let Some(o) = self.pending.pop_front() {
                break Pulled::Path(o);
            }
            if self.stop.is_some() {
                break Pulled::Done;
            }
            if let Some(r) = self.config.budget.exhausted() {
                self.stop = Some(r);
                break Pulled::Done;
            }
            if max_segments.is_some_and(|m| segments >= m) {
                break Pulled::Busy;
            }
            segments += 1;
            if self.work.is_empty() && self.deferred.is_empty() {
                // The depth-first search is over: the copies would repeat it.
                self.completing.clear();
                self.n_completing = 0;
            }
            // The copies take one in `2^copy_shift` checks, in turns of at least `TURN_CHECKS`
            // (a switch costs the solver its incremental state).
            let weighted = self.stats.copy_checks.saturating_mul((1 << self.copy_shift) - 1);
            self.serving_best_first = if self.serving_best_first {
                weighted < self.checks_rest + TURN_CHECKS
            } else {
                self.checks_rest >= weighted + TURN_CHECKS
            };
            if self.n_completing > 0 && self.serving_best_first {
                self.serve_completing();
                continue;
            }
            // Paths back from waiting first: each is pruned at once, or explored if its entry was
            // tainted.
            for e in self.cache.take_released() {
                for it in self.waiting.remove(&e).unwrap_or_default().into_iter().rev() {
                    self.n_waiting -= 1;
                    self.work.push_back(it);
                }
            }
            if self.work.is_empty() && self.deferred.is_empty() && !self.waiting.is_empty() {
                // Nothing else is left: the entries they wait for wait on them (a cycle).
                for (_, items) in std::mem::take(&mut self.waiting).into_iter().rev() {
                    self.work.extend(items.into_iter().rev());
                }
                self.n_waiting = 0;
            }
            if self.work.is_empty() && !self.deferred.is_empty() {
                // The band is explored: double it and go on with the paths that waited, oldest first.
                self.band = self.band.saturating_mul(2);
                let deferred = std::mem::take(&mut self.deferred);
                self.work.extend(deferred.into_iter().rev());
            }
            let item = match self.config.strategy {
                Strategy::Dfs if self.mix => {
                    // Every fourth path from the oldest pending ones (see `mix_oldest`).
                    self.picks += 1;
                    if self.picks.is_multiple_of(4) {
                        self.work.pop_front()
                    } else {
                        self.work.pop_back()
                    }
                }
                Strategy::Dfs => self.work.pop_back(),
                Strategy::Bfs => self.work.pop_front(),
            };
            match item {
                Some(it) => {
                    let before = self.stats.branch_checks;
                    self.advance(it);
                    self.checks_rest += self.stats.branch_checks - before;
                }
                None => break Pulled::Done,
            }
        };
        self.stats.time += t.elapsed();
        res
    }
}

impl<G: Guide> Iterator for Explorer<'_, G> {
    type Item = PathOutcome<G::Tag>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.pull(None) {
            Pulled::Path(o) => Some(o),
            Pulled::Busy | Pulled::Done => None,
        }
    }
}
