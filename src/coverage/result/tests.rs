//! Unit tests of the rules that decide a coverage result's claims.

use super::*;
fn execution(id: usize, lines: &[u32]) -> ExecutionRecord {
    ExecutionRecord {
        id,
        origin: Origin::Generated,
        lines: lines.to_vec(),
        terminating: true,
        violates_property: false,
        inputs: Vec::new(),
        memory: Vec::new(),
    }
}

#[test]
fn each_line_gets_the_status_the_search_allows() {
    // Lines 1-6 to cover; 1-5 over-approximated; 1 and 2 covered (2 first by execution 2);
    // 3 proven not coverable; 4 and 5 left; 6 never explored.
    let lines = [1, 2, 3, 4, 5, 6];
    let over = [1, 2, 3, 4, 5];
    let under = [1, 2];
    let execs = [execution(1, &[1]), execution(2, &[1, 2])];
    let status = |state| line_status(&lines, &over, &under, &[3], &execs, state);
    for state in [SearchState::NotSearched, SearchState::Complete, SearchState::Limited, SearchState::Incomplete] {
        let s = status(state);
        assert_eq!(s[&1], LineStatus::Covered(1));
        assert_eq!(s[&2], LineStatus::Covered(2));
        assert_eq!(s[&3], LineStatus::NotCoverable, "{state:?}");
        assert_eq!(s[&6], LineStatus::Unexplored);
    }
    assert_eq!(status(SearchState::Complete)[&4], LineStatus::NotCoverable);
    assert_eq!(status(SearchState::Incomplete)[&4], LineStatus::Unknown);
    assert_eq!(status(SearchState::Limited)[&5], LineStatus::OverOnly);
    assert_eq!(status(SearchState::NotSearched)[&5], LineStatus::OverOnly);
}

fn ruled(all: &[u32], by_undefined_call: &[u32], by_null_access: &[u32]) -> crate::coverage::RuledOut {
    crate::coverage::RuledOut {
        all: all.to_vec(),
        by_undefined_call: by_undefined_call.to_vec(),
        by_null_access: by_null_access.to_vec(),
    }
}

#[test]
fn a_proof_over_the_whole_program_argues_for_the_lines_the_search_left() {
    let status: BTreeMap<u32, LineStatus> =
        [(2, LineStatus::NotCoverable), (3, LineStatus::NotCoverable), (4, LineStatus::NotCoverable)]
            .into_iter()
            .collect();
    let program: BTreeMap<u32, NotCoverableBy> = [
        (2, NotCoverableBy::Induction { k: 0, invariants: 2 }),
        (3, NotCoverableBy::Induction { k: 3, invariants: 0 }),
        (4, NotCoverableBy::Bmc { steps: 7 }),
    ]
    .into_iter()
    .collect();
    let facts = ProofFacts {
        proven: &[4],
        counters: true,
        extern_writes: false,
        proof_assumed: Approx::NONE,
        search_assumed: Approx::NONE,
        complete: false,
    };
    let by = not_coverable_by(&status, Some(facts), &program, &[], &[], &ruled(&[], &[], &[]));
    assert_eq!((by[&2], by[&3]), (program[&2], program[&3]));
    // The search's own proof comes first.
    let abstraction = NotCoverableBy::Abstraction { counters: true, extern_writes: false, assumed: Approx::NONE };
    assert_eq!(by[&4], abstraction);
    // Without a search, too.
    let by = not_coverable_by(&status, None, &program, &[], &[], &ruled(&[], &[], &[]));
    assert_eq!((by[&3], by[&4]), (program[&3], program[&4]));
    // A complete search decided the lines itself.
    let by = not_coverable_by(
        &status,
        Some(ProofFacts { complete: true, ..facts }),
        &program,
        &[],
        &[],
        &ruled(&[], &[], &[]),
    );
    assert_eq!(by[&2], NotCoverableBy::ExhaustiveSearch { assumed: Approx::NONE });
}

#[test]
fn every_not_coverable_line_names_its_argument_and_assumptions() {
    let none = BTreeMap::new();
    let status: BTreeMap<u32, LineStatus> = [
        (1, LineStatus::Covered(1)),
        (2, LineStatus::NotCoverable),
        (3, LineStatus::NotCoverable),
        (4, LineStatus::Unknown),
        (5, LineStatus::NotCoverable),
    ]
    .into_iter()
    .collect();
    let facts = ProofFacts {
        proven: &[3],
        counters: false,
        extern_writes: false,
        proof_assumed: Approx::NONE,
        search_assumed: Approx::LAZY_MEMORY,
        complete: true,
    };
    let by = not_coverable_by(&status, Some(facts), &none, &[5], &[], &ruled(&[], &[], &[]));
    assert_eq!(by.len(), 3);
    assert_eq!(by[&2], NotCoverableBy::ExhaustiveSearch { assumed: Approx::LAZY_MEMORY });
    let abstraction = NotCoverableBy::Abstraction { counters: false, extern_writes: false, assumed: Approx::NONE };
    assert_eq!(by[&3], abstraction);
    assert_eq!(by[&5], NotCoverableBy::NoExit);
    // A proof that took what functions without body write as arbitrary says so.
    let facts = ProofFacts { extern_writes: true, ..facts };
    let by = not_coverable_by(&status, Some(facts), &none, &[5], &[], &ruled(&[], &[], &[]));
    assert_eq!(by[&3], NotCoverableBy::Abstraction { counters: false, extern_writes: true, assumed: Approx::NONE });
    let facts = ProofFacts { counters: true, ..facts };
    let by = not_coverable_by(&status, Some(facts), &none, &[5], &[], &ruled(&[], &[], &[]));
    assert_eq!(by[&3], NotCoverableBy::Abstraction { counters: true, extern_writes: true, assumed: Approx::NONE });
    // Without a search only the lines a static argument decides are not coverable.
    let unsearched: BTreeMap<u32, LineStatus> =
        [(1, LineStatus::OverOnly), (5, LineStatus::NotCoverable)].into_iter().collect();
    let by = not_coverable_by(&unsearched, None, &none, &[5], &[], &ruled(&[], &[], &[]));
    assert_eq!(by.into_iter().collect::<Vec<_>>(), [(5, NotCoverableBy::NoExit)]);
    // The static arguments, in their order: no way out, then the frontier, then the values
    // (past an undefined call first), with or without a search.
    let by = not_coverable_by(&status, None, &none, &[5], &[3, 5], &ruled(&[2], &[], &[]));
    assert_eq!((by[&2], by[&3], by[&5]), (NotCoverableBy::Values, NotCoverableBy::Frontier, NotCoverableBy::NoExit));
    let by = not_coverable_by(&status, Some(facts), &none, &[5], &[], &ruled(&[2], &[2], &[]));
    assert_eq!(by[&2], NotCoverableBy::PastUndefinedCall);
    assert!(by[&2].by_values() && NotCoverableBy::Values.by_values() && !by[&5].by_values());
    let by = not_coverable_by(&status, Some(facts), &none, &[5], &[], &ruled(&[2], &[], &[2]));
    assert_eq!(by[&2], NotCoverableBy::PastNullAccess);
    assert!(by[&2].by_values());
}

#[test]
fn one_precedence_decides_why_a_result_is_not_exact() {
    let done = SearchEnd { exhausted: true, ..SearchEnd::default() };
    let none = Dropped::default();
    assert_eq!(InexactReason::first(Some(&done), none, None), None);
    assert_eq!(InexactReason::first(None, none, None), Some(InexactReason::FromFiles));
    // A search that did not run out of paths, with nothing else to say.
    let open = SearchEnd::default();
    assert_eq!(InexactReason::first(Some(&open), none, None), Some(InexactReason::EndedEarly));
    // The obstacles, in order: cuts, approximations, a refused path, pruned paths.
    let mut e = SearchEnd { pruned: 3, ..done.clone() };
    assert_eq!(InexactReason::first(Some(&e), none, None), Some(InexactReason::PrunedAsCovered(3)));
    let refused = Rejected { violation: false, why: crate::symex::Rejection::NoModel, at: None };
    e.rejected = Some(refused.clone());
    assert_eq!(InexactReason::first(Some(&e), none, None), Some(InexactReason::Rejected(refused)));
    e.unaccepted = Approx::LAZY_MEMORY;
    assert_eq!(InexactReason::first(Some(&e), none, None), Some(InexactReason::Approximated(Approx::LAZY_MEMORY)));
    e.cuts = (2, None, Some(7));
    assert_eq!(
        InexactReason::first(Some(&e), none, None),
        Some(InexactReason::Cut { count: 2, first: None, line: Some(7) })
    );
    // Then the first bug, the limit on executions and a stop come before every obstacle.
    e.stopped_at_bug = true;
    assert_eq!(InexactReason::first(Some(&e), none, None), Some(InexactReason::StoppedAtBug));
    e.max_executions = Some(4);
    assert_eq!(InexactReason::first(Some(&e), none, None), Some(InexactReason::MaxExecutions(4)));
    e.stop = Some(StopReason::Time);
    assert_eq!(InexactReason::first(Some(&e), none, None), Some(InexactReason::Stopped(StopReason::Time)));
    assert_eq!(e.stopped_by(), Some(StoppedBy::TimeLimit));
    // A search that decided every line is exact whatever else happened.
    e.all_decided = true;
    assert_eq!(InexactReason::first(Some(&e), none, None), None);
    // Dropped executions come after the search's reason, in their order.
    let dropped = Dropped { unreproducible: 1, rejected_by_gcc: 2, pending: 3 };
    assert_eq!(InexactReason::first(Some(&done), dropped, None), Some(InexactReason::Unreproducible(1)));
    let dropped = Dropped { unreproducible: 0, ..dropped };
    assert_eq!(InexactReason::first(Some(&done), dropped, None), Some(InexactReason::RejectedByGcc(2)));
    let dropped = Dropped { rejected_by_gcc: 0, ..dropped };
    assert_eq!(InexactReason::first(Some(&done), dropped, None), Some(InexactReason::ConfirmationPending(3)));
    assert_eq!(InexactReason::first(Some(&open), dropped, None), Some(InexactReason::EndedEarly));
}

#[test]
fn the_search_state_follows_the_search_and_what_was_dropped() {
    let done = SearchEnd { exhausted: true, ..SearchEnd::default() };
    let none = Dropped::default();
    let one = Dropped { pending: 1, ..none };
    assert_eq!(search_state(None, none), SearchState::NotSearched);
    assert_eq!(search_state(Some(&done), none), SearchState::Complete);
    assert_eq!(search_state(Some(&done), one), SearchState::Incomplete);
    let limited = SearchEnd { max_executions: Some(2), ..done.clone() };
    assert_eq!(search_state(Some(&limited), one), SearchState::Limited);
    assert_eq!(limited.stopped_by(), Some(StoppedBy::MaxExecutions));
    let cut = SearchEnd { cuts: (1, None, None), ..done };
    assert_eq!(search_state(Some(&cut), none), SearchState::Incomplete);
    assert_eq!(cut.stopped_by(), None);
}

#[test]
fn a_search_is_complete_assuming_only_what_alone_keeps_it_from_being_complete() {
    let done = SearchEnd { exhausted: true, ..SearchEnd::default() };
    assert_eq!(done.complete_assuming(), None, "complete already");
    let fresh = SearchEnd { unaccepted: Approx::LAZY_MEMORY, ..done.clone() };
    assert_eq!(fresh.complete_assuming(), Some(Approx::LAZY_MEMORY));
    let both = SearchEnd { unaccepted: Approx::LAZY_MEMORY.union(Approx::EXTERN_WRITE), ..done.clone() };
    assert_eq!(both.complete_assuming(), Some(Approx::LAZY_MEMORY.union(Approx::EXTERN_WRITE)));
    // No assumption removes any other obstacle.
    let refused = Rejected { violation: false, why: crate::symex::Rejection::NoModel, at: None };
    for other in [
        SearchEnd { rejected: Some(refused), ..fresh.clone() },
        SearchEnd { unaccepted: Approx::ABSTRACT, ..done.clone() },
        SearchEnd { cuts: (1, None, None), ..fresh.clone() },
        SearchEnd { exhausted: false, ..fresh.clone() },
        SearchEnd { max_executions: Some(3), ..fresh.clone() },
        SearchEnd { stop: Some(StopReason::Time), ..fresh.clone() },
        SearchEnd { stopped_at_bug: true, ..fresh.clone() },
        SearchEnd { pruned: 2, ..fresh.clone() },
    ] {
        assert_eq!(other.complete_assuming(), None, "{other:?}");
    }
}

#[test]
fn sources_have_their_labels() {
    let sources: Vec<&str> = [
        ExecutionSource::Files,
        ExecutionSource::Search(Generate::Blind),
        ExecutionSource::Search(Generate::Guided),
        ExecutionSource::Search(Generate::Targeted),
    ]
    .iter()
    .map(|s| s.name())
    .collect();
    assert_eq!(sources, ["files", "blind", "guided", "targeted"]);
}

#[test]
fn names_are_the_reports_words() {
    let names: Vec<&str> = [
        LineStatus::Covered(1),
        LineStatus::OverOnly,
        LineStatus::NotCoverable,
        LineStatus::Unexplored,
        LineStatus::Unknown,
    ]
    .iter()
    .map(|s| s.name())
    .collect();
    assert_eq!(names, ["covered", "over_only", "not_coverable", "unexplored", "unknown"]);
}

#[test]
fn a_contradicted_proof_is_the_last_reason_and_exactness_relies_on_the_assumptions() {
    let done =
        ClaimBasis { search: Some(SearchEnd { exhausted: true, ..SearchEnd::default() }), ..ClaimBasis::default() };
    assert_eq!(Exactness::of(&done, Approx::NONE), Exactness::Exact);
    assert_eq!(Exactness::of(&done, Approx::LAZY_MEMORY), Exactness::ExactAssuming(Approx::LAZY_MEMORY));
    let wrong = ClaimBasis { contradicted: Some(9), ..done.clone() };
    assert_eq!(Exactness::of(&wrong, Approx::LAZY_MEMORY), Exactness::Inexact(InexactReason::ProofContradicted(9)));
    let dropped = ClaimBasis { dropped: Dropped { pending: 1, ..Dropped::default() }, ..wrong };
    assert_eq!(Exactness::of(&dropped, Approx::NONE), Exactness::Inexact(InexactReason::ConfirmationPending(1)));
    assert_eq!(Exactness::of(&ClaimBasis::default(), Approx::NONE), Exactness::Inexact(InexactReason::FromFiles));
}

#[test]
fn each_status_is_decided_or_undecided_and_counted_once() {
    let all = [
        LineStatus::Covered(1),
        LineStatus::NotCoverable,
        LineStatus::Unknown,
        LineStatus::OverOnly,
        LineStatus::Unexplored,
        LineStatus::Covered(2),
    ];
    let decided: Vec<bool> = all.iter().map(|s| s.is_decided()).collect();
    let undecided: Vec<bool> = all.iter().map(|s| s.is_undecided()).collect();
    assert_eq!(decided, [true, true, false, false, false, true]);
    assert_eq!(undecided, [false, false, true, true, false, false]);
    let c = StatusCounts::of(&all);
    assert_eq!((c.covered, c.not_coverable, c.unknown, c.over_only, c.unexplored), (2, 1, 1, 1, 1));
    assert_eq!((c.decided(), c.undecided(), c.over()), (3, 2, 5));
}

#[test]
fn the_property_is_decided_by_one_precedence() {
    let none = PropertyFacts { violations_in_region: true, exhausted: true, ..PropertyFacts::default() };
    let exhaustive = PropertyStatus::NoneInRegion { by: NoViolationBy::ExhaustiveSearch, assumed: Approx::NONE };
    assert_eq!(PropertyStatus::of(&none), exhaustive);
    let found = PropertyFacts { bugs: true, bug_in_region: true, stop: Some(StopReason::Time), ..none.clone() };
    assert_eq!(PropertyStatus::of(&found), PropertyStatus::FoundInRegion);
    let outside = PropertyFacts { bug_in_region: false, ..found };
    assert_eq!(PropertyStatus::of(&outside), PropertyStatus::FoundOutsideRegion);
    let unreachable = PropertyFacts { violations_in_region: false, stop: Some(StopReason::Time), ..none.clone() };
    let no_location = PropertyStatus::NoneInRegion { by: NoViolationBy::NoErrorLocation, assumed: Approx::NONE };
    assert_eq!(PropertyStatus::of(&unreachable), no_location);
    let proven = PropertyFacts { no_violation_proof: Some(Approx::LAZY_MEMORY), exhausted: false, ..none.clone() };
    let by_proof = PropertyStatus::NoneInRegion { by: NoViolationBy::Abstraction, assumed: Approx::LAZY_MEMORY };
    assert_eq!(PropertyStatus::of(&proven), by_proof);
    // The reasons a search that found nothing decides nothing, in order.
    let mut f = PropertyFacts { exhausted: false, ..none.clone() };
    let not = |f: &PropertyFacts| match PropertyStatus::of(f) {
        PropertyStatus::NotDecided(why) => why,
        other => panic!("{other:?}"),
    };
    assert_eq!(not(&f), InexactReason::EndedEarly);
    f.assumed_violations = 2;
    assert_eq!(not(&f), InexactReason::AssumedViolation(2));
    let refused = Rejected { violation: true, why: crate::symex::Rejection::NoModel, at: None };
    f.violation_rejected = Some(refused.clone());
    assert_eq!(not(&f), InexactReason::Rejected(refused));
    f.unaccepted = Approx::EXTERN_WRITE;
    assert_eq!(not(&f), InexactReason::Approximated(Approx::EXTERN_WRITE));
    f.cuts = (3, None, Some(9));
    assert_eq!(not(&f), InexactReason::Cut { count: 3, first: None, line: Some(9) });
    f.max_executions = Some(5);
    assert_eq!(not(&f), InexactReason::MaxExecutions(5));
    f.violations_given_up = Some(100_000);
    assert_eq!(not(&f), InexactReason::ViolationsGivenUp(100_000));
    f.stop = Some(StopReason::Memory);
    assert_eq!(not(&f), InexactReason::Stopped(StopReason::Memory));
}
