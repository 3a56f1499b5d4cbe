//! The proof pass: an over-approximation of the program explored in full decides the lines the
//! search has not covered.

use super::*;

/// What the proof pass showed: the lines, whether no violation happens inside the region, and the
/// over-approximation it explored.
pub(super) struct Proof {
    pub(super) lines: Vec<u32>,
    pub(super) vars: Vec<VarId>,
    pub(super) extern_writes: bool,
    pub(super) assumed: Approx,
    pub(super) no_violation: bool,
}

impl SearchOutcome {
    /// Records `proof` (adding to an earlier one) and settles its lines in `guide`.
    pub(super) fn add_proof(&mut self, guide: &mut CoverageGuide, proof: Proof) {
        guide.mark_proven(&proof.lines);
        if proof.no_violation && guide.violations_open {
            guide.violations_open = false;
            self.no_violation_proof = Some(proof.assumed);
        }
        self.proven.extend(proof.lines);
        self.proven.sort_unstable();
        self.proven.dedup();
        for v in proof.vars {
            if !self.abstracted.contains(&v) {
                self.abstracted.push(v);
            }
        }
        self.proof_extern_writes |= proof.extern_writes;
        self.proof_assumed = self.proof_assumed.union(proof.assumed);
    }
}

/// The proof pass: explores an over-approximation of the program, with its counters
/// (`symex::counters`) abstracted away and, if `extern_writes`, functions without body writing
/// arbitrary values through the pointers they receive, as a targeted search for the lines `concrete`
/// has not covered (and the violations it looks for). If it ends without a cut, a limit or an
/// approximation other than the abstraction and the accepted assumptions, the lines no terminating
/// path of the abstraction covered are not coverable, and if no path of it violated the property,
/// no execution inside the region does; returns them with what was abstracted and the assumptions
/// the proof relied on. (Paths ending at undefined behaviour are not terminating executions: they
/// do not stand in the proof's way.)
pub(super) fn prove_not_coverable(
    analysis: &Analysis,
    prog: &Program,
    config: &SearchConfig,
    concrete: &CoverageGuide,
    extern_writes: bool,
    max_edges: u64,
) -> Option<Proof> {
    let havoc = symex::counters(prog, analysis.cfa);
    if havoc.is_empty() && !extern_writes {
        return None;
    }
    let explore =
        ExploreConfig { havoc: havoc.clone().into(), havoc_extern_writes: extern_writes, ..config.explore.clone() };
    // What the exploration over-approximates rather than assumes.
    let modelled = if extern_writes { Approx::UNMODELLED } else { Approx::NONE };
    let mut explorer = symex::explore(prog, analysis.cfa, explore, concrete.clone());
    let looks_for_violations = concrete.violations_open;
    while let Some(outcome) = explorer.next() {
        if explorer.edges_executed() > max_edges {
            return None;
        }
        if outcome.end == PathEnd::Violation {
            // The abstraction cannot show that no violation happens: it stops looking for them.
            explorer.guide_mut().violations_open = false;
        }
        if outcome.end == PathEnd::Exit {
            explorer.accept_completion(&outcome);
            let edges = outcome.path.edges();
            let coverage = analysis.coverage_of(&Execution { origin: String::new(), edges, terminating: true });
            explorer.guide_mut().mark_covered(&coverage.lines);
        }
        if explorer.guide().nothing_left() {
            return None;
        }
    }
    let summary = explorer.summary();
    let sound = summary.exhausted
        && summary.lossy_cuts() == 0
        && summary.stop.is_none()
        && Approx::ABSTRACT.union(config.assume).union(modelled).contains(summary.approx);
    if !sound {
        return None;
    }
    let g = explorer.guide();
    let lines: Vec<u32> = g.uncovered.ones().map(|l| l as u32).collect();
    let no_violation = looks_for_violations && g.violations_open;
    let assumed = summary.approx.without(Approx::ABSTRACT).without(modelled);
    (!lines.is_empty() || no_violation).then_some(Proof { lines, vars: havoc, extern_writes, assumed, no_violation })
}
