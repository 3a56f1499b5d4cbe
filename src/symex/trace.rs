//! The edges a concrete run took, with the iterations of a loop it jumped over (`accel`) kept as
//! the loop's body and a count, so that a run through 2^28 iterations takes a few bytes.
//!
//! Invariant: two traces are equal when they stand for the same sequence of edges, however each
//! was folded; `len` is that sequence's length.

use crate::cfa::EdgeId;
use crate::cfront::ir::VarId;

/// Iterations of one path through a loop, jumped over from its head.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repeat {
    /// How many explicit edges of the trace come before it.
    pub at: usize,
    /// The edges of one iteration, from the loop head back to it.
    pub body: Vec<EdgeId>,
    /// How many times the body was taken.
    pub times: u64,
    /// The variables the iterations changed and their values after the last one.
    pub after: Vec<(VarId, i128)>,
}

/// A run's edges, in order: the explicit ones, with the repeated bodies between them.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    edges: Vec<EdgeId>,
    repeats: Vec<Repeat>,
    /// The explicit edges and the repeats' bodies, counted (`stored`).
    stored: u64,
}

impl Trace {
    /// An empty trace.
    pub fn new() -> Trace {
        Trace::default()
    }

    /// Appends one edge.
    pub fn push(&mut self, e: EdgeId) {
        self.edges.push(e);
        self.stored += 1;
    }

    /// Appends `times` iterations of `body`, after which the variables hold `after`.
    pub fn push_repeat(&mut self, body: Vec<EdgeId>, times: u64, after: Vec<(VarId, i128)>) {
        self.stored += body.len() as u64;
        self.repeats.push(Repeat { at: self.edges.len(), body, times, after });
    }

    /// The explicit edges and the repeats between them.
    pub fn parts(&self) -> (&[EdgeId], &[Repeat]) {
        (&self.edges, &self.repeats)
    }

    /// Whether some iterations were jumped over.
    pub fn has_repeats(&self) -> bool {
        !self.repeats.is_empty()
    }

    /// The number of edges it stands for.
    pub fn len(&self) -> u64 {
        let repeated: u64 = self.repeats.iter().map(|r| (r.body.len() as u64).saturating_mul(r.times)).sum();
        (self.edges.len() as u64).saturating_add(repeated)
    }

    /// Whether it has no edge.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The edges it holds: the explicit ones and each repeated body once (what a run's work was).
    pub fn stored(&self) -> u64 {
        self.stored
    }

    /// Its last edge.
    pub fn last(&self) -> Option<EdgeId> {
        match self.repeats.last() {
            Some(r) if r.at == self.edges.len() => r.body.last().copied(),
            _ => self.edges.last().copied(),
        }
    }

    /// Every edge in order, the repeated bodies unfolded.
    pub fn iter(&self) -> impl Iterator<Item = EdgeId> + '_ {
        let mut from = 0;
        let mut pieces: Vec<Box<dyn Iterator<Item = EdgeId> + '_>> = Vec::new();
        for r in &self.repeats {
            pieces.push(Box::new(self.edges[from..r.at].iter().copied()));
            let body = &r.body;
            pieces.push(Box::new((0..r.times).flat_map(move |_| body.iter().copied())));
            from = r.at;
        }
        pieces.push(Box::new(self.edges[from..].iter().copied()));
        pieces.into_iter().flatten()
    }

    /// Every edge in order, unfolded: only for a trace without repeats, or one known to be short.
    pub fn to_vec(&self) -> Vec<EdgeId> {
        self.iter().collect()
    }

    /// The position of the first edge where the trace and `edges` differ (the shorter one's length
    /// when one is a prefix of the other), `None` when they are the same sequence.
    pub fn first_difference(&self, edges: &[EdgeId]) -> Option<usize> {
        let mut it = self.iter();
        for (k, &e) in edges.iter().enumerate() {
            if it.next() != Some(e) {
                return Some(k);
            }
        }
        it.next().map(|_| edges.len())
    }
}

impl Trace {
    /// The trace of explicit edges `edges` with the repeats `repeats` (in order, each `at` a
    /// position of `edges`).
    pub fn from_parts(edges: Vec<EdgeId>, repeats: Vec<Repeat>) -> Trace {
        let stored = edges.len() as u64 + repeats.iter().map(|r| r.body.len() as u64).sum::<u64>();
        Trace { edges, repeats, stored }
    }
}

impl From<Vec<EdgeId>> for Trace {
    fn from(edges: Vec<EdgeId>) -> Trace {
        Trace { stored: edges.len() as u64, edges, repeats: Vec::new() }
    }
}

impl PartialEq for Trace {
    fn eq(&self, other: &Trace) -> bool {
        if self.edges == other.edges && self.repeats == other.repeats {
            return true;
        }
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Trace {}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(i: usize) -> EdgeId {
        EdgeId::from_idx(i)
    }

    #[test]
    fn a_folded_trace_equals_its_unfolded_edges() {
        let mut t = Trace::new();
        t.push(e(1));
        t.push_repeat(vec![e(2), e(3)], 3, vec![]);
        t.push(e(4));
        let flat = vec![e(1), e(2), e(3), e(2), e(3), e(2), e(3), e(4)];
        assert_eq!(t.to_vec(), flat);
        assert_eq!(t.len(), 8);
        assert_eq!(t.stored(), 4);
        assert_eq!(t.last(), Some(e(4)));
        assert_eq!(t, Trace::from(flat.clone()));
        assert_eq!(t.first_difference(&flat), None);
        assert_eq!(t.first_difference(&flat[..5]), Some(5));
        let mut other = flat.clone();
        other[6] = e(9);
        assert_eq!(t.first_difference(&other), Some(6));
        assert_ne!(t, Trace::from(other));
        // The same edges folded at another place are the same trace.
        let mut u = Trace::new();
        u.push(e(1));
        u.push(e(2));
        u.push(e(3));
        u.push_repeat(vec![e(2), e(3)], 2, vec![]);
        u.push(e(4));
        assert_eq!(t, u);
        // A trace that ends in a repeat ends with its body's last edge.
        let mut r = Trace::new();
        r.push_repeat(vec![e(5), e(6)], 1 << 40, vec![]);
        assert_eq!(r.last(), Some(e(6)));
        assert_eq!(r.len(), 1 << 41);
        assert!(!r.is_empty() && Trace::new().is_empty());
    }
}
