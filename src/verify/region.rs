//! The region an explicit-path search explored, as a tree of CFA edges, and the assumption automaton
//! in CPAchecker's format that describes it (`vcov verify --aa-out`).
//!
//! The search reports every edge a path tries (`Region::child`, before the feasibility check), every
//! edge it gets past (`Region::passed`) and how each path ended (`Region::ended`); a node of the tree
//! is one prefix of a path. `automaton` writes the tree as an observer automaton, one state per
//! (folded) node, with a `MATCH` transition per leaving CFA edge of the node's location:
//! - an edge some path got past leads to its child's state;
//! - an edge no path tried, or one whose path was still waiting, was dropped, or violated the
//!   property (the search stops at a violation), leads to `__FALSE`: the search did not explore
//!   what lies behind it;
//! - an edge on which a path was cut (unwinding bound, unsupported construct, possible undefined
//!   behaviour) is `ASSUME {false} GOTO __FALSE`: the region excludes it (so a later `vcov verify
//!   --condition` verifies it again, and `vcov coverage` counts none of its lines);
//! - an edge into a state the state cache found covered by an explored one leads to the state of
//!   the node where the covering state was registered (`Region::entry`, `Region::covered_by`): its
//!   futures are among that state's, explored from there (a cycle when that node lies before, as
//!   at a loop head; where that exploration did not finish, its own transitions go to `__FALSE`);
//! - an edge that was infeasible after the prefix, or one the condition's claim pruned, or a covered
//!   one whose covering node is not known, leads to `__TRUE` (as CPAchecker's automata send the
//!   edges its analysis ruled out there);
//! - with a condition, a path pruned on its claim, or still waiting inside its explored region, goes
//!   on in a copy of the condition's state there (`C` + its name), so a chain keeps what the first
//!   verifier claimed.
//!
//! Every state ends with `TRUE -> GOTO __FALSE`, so that an edge the automaton does not expect leaves
//! the region rather than entering `__TRUE`. Equal subtrees give equal states (the tree is folded
//! bottom-up, a link to a covering node counting as that node, before the links become transitions),
//! so the size is that of the explored behaviours, not of the paths.
//!
//! Invariant: a path the automaton leads into `__TRUE` is one whose every continuation was explored
//! without a violation (a covered state: see `symex::cache`), or one the condition's first verifier
//! claims; a covered path led to its covering node's state goes on only where that state's paths
//! were explored; every other unexplored continuation goes to `__FALSE` or is excluded by
//! `ASSUME {false}`.
//! Invariant: where sibling edges share a text and their targets differ in a way one transition
//! cannot say, the text leads to `__FALSE` (sound, at the price of exploring it again).

use std::collections::HashMap;
use std::fmt::{self, Write};

use rustc_hash::FxHashMap;

use crate::automaton::write::{self, To};
use crate::automaton::{Automaton, AutomatonKind, MatchMode, StateId, Target as AutTarget, FALSE_STATE, TRUE_STATE};
use crate::cfa::{Cfa, EdgeId, EdgeKind, Generation, LineRule, NodeId};
use crate::symex::{CutReason, PathEnd};

/// Which CPAchecker's texts the automaton is written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dialect {
    /// CPAchecker 1.x: assume edges with their normalised text (`[x == 0]`); the default.
    #[default]
    V1,
    /// CPAchecker 2.3 and later: assume edges with the whole condition as written.
    V2,
}

impl Dialect {
    /// The CFA generation whose edge texts the automaton uses.
    pub fn generation(self) -> Generation {
        match self {
            Dialect::V1 => Generation::V1,
            Dialect::V2 => Generation::V23,
        }
    }

    /// `1.x` or `2.x`, for the header comment.
    pub fn label(self) -> &'static str {
        match self {
            Dialect::V1 => "1.x",
            Dialect::V2 => "2.x",
        }
    }
}

const NONE: u32 = u32::MAX;

/// A path got past the node's edge.
const PASSED: u16 = 1;
/// The edge was infeasible after the path's conditions.
const INFEASIBLE: u16 = 2;
/// A path was cut on the edge.
const CUT: u16 = 4;
/// The guide pruned the path on the edge (the condition's claim).
const PRUNED: u16 = 8;
/// The state after the edge was covered by an explored one (state cache).
const COVERED: u16 = 16;
/// The edge violated the property.
const VIOLATION: u16 = 32;
/// The path was dropped (a completion of its subtree was found elsewhere).
const DROPPED: u16 = 64;
/// A path was cut on the edge where undefined behaviour can happen (the rest may go on).
const CUT_UB: u16 = 128;

#[derive(Clone, Copy, Debug)]
struct Node {
    /// The edge into the node (`EdgeId(NONE)` for the root).
    edge: EdgeId,
    /// First child and next sibling (`NONE` when there is none).
    first: u32,
    next: u32,
    flags: u16,
}

/// The tree of path prefixes an exploration tried.
#[derive(Clone, Debug)]
pub struct Region {
    nodes: Vec<Node>,
    /// For every node, the condition's automaton state after its edge while the path is inside the
    /// condition's explored region (`NONE` otherwise, and without a condition): where the written
    /// automaton goes on in the condition's own states, for a path pruned on the condition's claim
    /// or one still waiting when the search stopped.
    cond: Vec<u32>,
    /// The node at which each state-cache entry was registered (`Region::entry`).
    entries: FxHashMap<u32, u32>,
    /// For a node whose state was covered by an entry's, the node of that entry: the written
    /// automaton goes on there (its continuations include the covered state's).
    links: FxHashMap<u32, u32>,
}

impl Default for Region {
    fn default() -> Self {
        Region {
            nodes: vec![Node { edge: EdgeId::from_idx(NONE as usize), first: NONE, next: NONE, flags: PASSED }],
            cond: vec![NONE],
            entries: FxHashMap::default(),
            links: FxHashMap::default(),
        }
    }
}

impl Region {
    /// The root: the program's entry, before any edge.
    pub const ROOT: u32 = 0;

    /// Nodes in the tree (the root included).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether only the root is there.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// The node after `edge` from `parent`, made when new.
    pub fn child(&mut self, parent: u32, edge: EdgeId) -> u32 {
        let mut c = self.nodes[parent as usize].first;
        while c != NONE {
            if self.nodes[c as usize].edge == edge {
                return c;
            }
            c = self.nodes[c as usize].next;
        }
        let id = self.nodes.len() as u32;
        let next = self.nodes[parent as usize].first;
        self.nodes.push(Node { edge, first: NONE, next, flags: 0 });
        self.cond.push(NONE);
        self.nodes[parent as usize].first = id;
        id
    }

    /// A path got past the edge into `node`.
    pub fn passed(&mut self, node: u32) {
        self.nodes[node as usize].flags |= PASSED;
    }

    /// A path ended at `node` (on the edge into it) with `end`.
    pub fn ended(&mut self, node: u32, end: &PathEnd) {
        let flag = match end {
            PathEnd::Exit | PathEnd::Halt => PASSED,
            PathEnd::Violation => VIOLATION,
            PathEnd::Infeasible => INFEASIBLE,
            PathEnd::Pruned => PRUNED,
            PathEnd::Covered => COVERED,
            PathEnd::Dropped => DROPPED,
            PathEnd::Cut(CutReason::Undefined(_)) => CUT_UB,
            PathEnd::Cut(_) => CUT,
        };
        self.nodes[node as usize].flags |= flag;
    }

    /// A path registered state-cache entry `entry` after the edge into `node`.
    pub fn entry(&mut self, entry: u32, node: u32) {
        self.entries.entry(entry).or_insert(node);
    }

    /// The path that ended at `node` was covered by state-cache entry `entry`: its continuations
    /// are among those of the entry's node.
    pub fn covered_by(&mut self, node: u32, entry: u32) {
        if let Some(&m) = self.entries.get(&entry) {
            self.links.entry(node).or_insert(m);
        }
    }

    /// After the edge into `node`, the condition's automaton is in its explored state `q`.
    pub fn set_condition_state(&mut self, node: u32, q: StateId) {
        self.cond[node as usize] = q.0;
    }

    /// The lines of the edges some path got past, under the default line rule, sorted.
    pub fn visited_lines(&self, cfa: &Cfa) -> Vec<u32> {
        let mut edges: Vec<bool> = vec![false; cfa.n_edges()];
        for n in &self.nodes[1..] {
            if n.flags & PASSED != 0 {
                edges[n.edge.idx()] = true;
            }
        }
        let passed: Vec<EdgeId> = (0..edges.len()).filter(|&i| edges[i]).map(EdgeId::from_idx).collect();
        cfa.lines_of_edges(&passed, LineRule::default())
    }

    fn children(&self, n: u32) -> impl Iterator<Item = u32> + '_ {
        let mut c = self.nodes[n as usize].first;
        std::iter::from_fn(move || {
            (c != NONE).then(|| {
                let res = c;
                c = self.nodes[c as usize].next;
                res
            })
        })
    }

    fn location(&self, cfa: &Cfa, n: u32) -> NodeId {
        if n == Self::ROOT {
            cfa.entry()
        } else {
            cfa.edge(self.nodes[n as usize].edge).dst
        }
    }
}

/// Where one transition of a written state leads.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Target {
    /// The state of a folded node.
    State(u32),
    /// `__TRUE`: every continuation was explored (covered) or claimed.
    True,
    /// `__FALSE`: not explored.
    False,
    /// `GOTO __TRUE`: infeasible after the prefix (no path takes it).
    Infeasible,
    /// `ASSUME {false} GOTO __FALSE`: a path was cut here.
    Cut,
    /// A state of the condition's automaton (pruned on its claim there).
    Condition(StateId),
    /// The state of the region's node whose state-cache entry covered the state after the edge
    /// (by node; the folded state is known once every node is folded).
    Ref(u32),
}

/// The target of the transition on one child's edge; `link`: the node whose entry covered it.
fn target_of(flags: u16, state: Option<u32>, link: Option<u32>) -> Target {
    if flags & (VIOLATION | DROPPED) != 0 {
        Target::False
    } else if flags & CUT != 0 {
        // Cut at an unwinding bound or an unsupported construct: the path went no further.
        Target::Cut
    } else if flags & CUT_UB != 0 {
        // Where a path got past the edge and another was cut on it (undefined behaviour split off),
        // the edge must be taken again by a later search, which then meets the cut again.
        if flags & PASSED != 0 {
            Target::False
        } else {
            Target::Cut
        }
    } else if flags & (COVERED | PRUNED) != 0 {
        match link {
            // Covered: it goes on where its covering state was explored (and, where that was not
            // explored to the end, into `__FALSE` as that state's own continuations do).
            Some(m) if flags & PRUNED == 0 => Target::Ref(m),
            _ => Target::True,
        }
    } else if flags & PASSED != 0 {
        state.map_or(Target::False, Target::State)
    } else if flags & INFEASIBLE != 0 {
        Target::Infeasible
    } else {
        // Tried, but the path is still waiting in the work list.
        Target::False
    }
}

/// One target for edges that share a text (see the module's invariant).
fn combine(targets: &[Target]) -> Target {
    let has = |t: Target| targets.contains(&t);
    let mut states = targets.iter().copied().filter(|t| matches!(t, Target::State(_) | Target::Ref(_)));
    let first_state = states.next();
    let more_states = states.any(|s| Some(s) != first_state);
    if has(Target::False) || more_states {
        return Target::False;
    }
    if has(Target::Cut) {
        // A cut must be met again: nothing may lead past it into `__TRUE` or an explored state
        // that a later search could prune before taking the edge.
        return if first_state.is_some() || has(Target::True) { Target::False } else { Target::Cut };
    }
    if let Some(s) = first_state {
        return s;
    }
    if has(Target::True) {
        Target::True
    } else {
        Target::Infeasible
    }
}

/// The automaton `automaton` wrote.
#[derive(Clone, Debug)]
pub struct AutomatonText {
    /// The text, in CPAchecker's automaton language.
    pub text: String,
    /// States written (`__TRUE` and `__FALSE` not counted).
    pub states: usize,
}

/// The assumption automaton of `region` (explored on `cfa`) in `dialect`'s edge texts, with
/// `comment` (lines without `//`) at its top. With `condition` (the automaton of the run's
/// condition, whose texts must be `dialect`'s), a path pruned on its claim goes on in a copy of its
/// states (named `C` + the state's name); without it, or when the condition has `LOCAL` variables,
/// it goes to `__TRUE`.
pub fn automaton(
    region: &Region,
    cfa: &Cfa,
    dialect: Dialect,
    comment: &str,
    condition: Option<&Automaton>,
) -> AutomatonText {
    let condition = condition.filter(|c| c.locals.is_empty());
    let (texts, edge_text) = edge_texts(cfa, dialect.generation());
    let (mut sigs, state_of) = Folder::new(region, cfa, &edge_text, condition.is_some()).fold();
    // Links to covering nodes become their folded states (a cycle where the covering node lies
    // before).
    for sig in &mut sigs {
        for (_, t) in sig.iter_mut() {
            if let Target::Ref(m) = *t {
                let st = state_of[m as usize];
                *t = if st != NONE { Target::State(st) } else { Target::False };
            }
        }
    }
    let (order, name) = name_states(&sigs, state_of[Region::ROOT as usize]);
    let mut text = String::new();
    for line in comment.lines() {
        let _ = writeln!(text, "// {line}");
    }
    let copied = condition.map(|c| copied_states(c, &sigs)).unwrap_or_default();
    // Writing to a `String` does not fail.
    let _ = write_states(&mut text, &texts, &sigs, &order, &name, condition, &copied);
    AutomatonText { text, states: order.len() + copied.len() }
}

/// The automaton after its header comment: the states of `order` (named by `name`, `ARG0` first)
/// with their transitions on `texts`, and the copies of the condition's states `copied`.
fn write_states(
    text: &mut String,
    texts: &[&str],
    sigs: &[Signature],
    order: &[u32],
    name: &[u32],
    condition: Option<&Automaton>,
    copied: &[StateId],
) -> fmt::Result {
    write::header(text, AutomatonKind::Observer, "AssumptionAutomaton")?;
    write::initial(text, "ARG0")?;
    for special in [TRUE_STATE, FALSE_STATE] {
        write::state(text, special, None, false, None)?;
        write::transition_line(text, "TRUE", None, To::Goto(special))?;
        text.push('\n');
    }
    for (k, &s) in order.iter().enumerate() {
        write::state(text, &format!("ARG{k}"), Some(MatchMode::UseFirst), false, None)?;
        for &(t, target) in &sigs[s as usize] {
            let (assume, to) = match target {
                Target::State(q) => (None, format!("ARG{}", name[q as usize])),
                // An infeasible edge goes where CPAchecker's automata send the edges their analysis
                // ruled out: no path takes it, so nothing behind it is left to verify.
                Target::True | Target::Infeasible => (None, TRUE_STATE.to_string()),
                // (A link was resolved to its state above.)
                Target::False | Target::Ref(_) => (None, FALSE_STATE.to_string()),
                Target::Cut => (Some("false"), FALSE_STATE.to_string()),
                Target::Condition(q) => {
                    let c = condition.expect("a condition's state only with the condition");
                    (None, copied_name(c, q))
                }
            };
            let trigger = format_args!("MATCH {}", write::string(texts[t as usize]));
            write::transition_line(text, trigger, assume, To::Goto(to))?;
        }
        write::transition_line(text, "TRUE", None, To::Goto(FALSE_STATE))?;
        text.push('\n');
    }
    if let Some(c) = condition {
        for &q in copied {
            write_copied_state(text, c, q)?;
        }
    }
    write::end(text)
}

/// The distinct texts of the CFA's edges in `generation`, and per edge the index of its text
/// (`NONE` for a summary edge or one the generation does not build).
fn edge_texts(cfa: &Cfa, generation: Generation) -> (Vec<&str>, Vec<u32>) {
    let mut text_ids: HashMap<&str, u32> = HashMap::new();
    let mut texts: Vec<&str> = Vec::new();
    let mut edge_text: Vec<u32> = vec![NONE; cfa.n_edges()];
    for (i, slot) in edge_text.iter_mut().enumerate() {
        let e = cfa.edge(EdgeId::from_idx(i));
        if matches!(e.kind, EdgeKind::Summary(_)) || !e.exists_in(generation) {
            continue;
        }
        let t = e.text_in(generation);
        *slot = *text_ids.entry(t).or_insert_with(|| {
            texts.push(t);
            texts.len() as u32 - 1
        });
    }
    (texts, edge_text)
}

/// The transitions of a folded state: per distinct text of its leaving edges (in the CFA's order
/// of edges), where it leads.
type Signature = Box<[(u32, Target)]>;

/// The folding of the region's tree into states, bottom-up: equal subtrees one state.
struct Folder<'r> {
    region: &'r Region,
    cfa: &'r Cfa,
    /// Per CFA edge, its text (`edge_texts`).
    edge_text: &'r [u32],
    /// Whether a path pruned on the condition's claim goes on in the condition's state.
    with_condition: bool,
    /// The states, and each signature's state (looked up with a reused buffer, so only a new
    /// state allocates).
    sigs: Vec<Signature>,
    sig_ids: FxHashMap<Signature, u32>,
    /// Per node of the tree, its state.
    state_of: Vec<u32>,
    /// The children of the node being folded, with their edges.
    kids: Vec<(EdgeId, u32)>,
    /// The transitions of the node being folded, and per one the targets of its edges.
    groups: Vec<(u32, Target)>,
    group_targets: Vec<Vec<Target>>,
}

impl<'r> Folder<'r> {
    fn new(region: &'r Region, cfa: &'r Cfa, edge_text: &'r [u32], with_condition: bool) -> Folder<'r> {
        Folder {
            region,
            cfa,
            edge_text,
            with_condition,
            sigs: Vec::new(),
            sig_ids: FxHashMap::default(),
            state_of: vec![NONE; region.nodes.len()],
            kids: Vec::new(),
            groups: Vec::new(),
            group_targets: Vec::new(),
        }
    }

    /// Folds every node, children first: the states' signatures and each node's state.
    fn fold(mut self) -> (Vec<Signature>, Vec<u32>) {
        // Post-order without recursion (paths are deep).
        let mut stack: Vec<(u32, bool)> = vec![(Region::ROOT, false)];
        while let Some((n, expanded)) = stack.pop() {
            if !expanded {
                stack.push((n, true));
                for c in self.region.children(n) {
                    stack.push((c, false));
                }
                continue;
            }
            self.fold_node(n);
        }
        (self.sigs, self.state_of)
    }

    /// The child of the node being folded on edge `e`, if one was tried.
    fn child(&self, e: EdgeId) -> Option<u32> {
        self.kids.iter().find(|(x, _)| *x == e).map(|&(_, c)| c)
    }

    /// Folds node `n`, whose children are folded.
    fn fold_node(&mut self, n: u32) {
        let (region, cfa) = (self.region, self.cfa);
        let out = cfa.out_edges(region.location(cfa, n));
        self.kids.clear();
        self.kids.extend(region.children(n).map(|c| (region.nodes[c as usize].edge, c)));
        // An edge this generation does not build is taken without a step: the node is its child.
        if let [only] = out {
            if self.edge_text[only.idx()] == NONE && !matches!(cfa.edge(*only).kind, EdgeKind::Summary(_)) {
                if let Some(c) = self.child(*only) {
                    if region.nodes[c as usize].flags & PASSED != 0 && self.state_of[c as usize] != NONE {
                        self.state_of[n as usize] = self.state_of[c as usize];
                        return;
                    }
                }
            }
        }
        // Of the return edges at a function's exit only the one to the call on top of the stack can
        // be taken: once one was tried, the others are no continuation of this prefix.
        let return_tried = self.kids.iter().any(|&(e, _)| matches!(cfa.edge(e).kind, EdgeKind::Return(_)));
        self.groups.clear();
        let mut n_groups = 0;
        for &e in out {
            let t = self.edge_text[e.idx()];
            if t == NONE || (return_tried && matches!(cfa.edge(e).kind, EdgeKind::Return(_)) && self.child(e).is_none())
            {
                continue;
            }
            let target = match self.child(e) {
                Some(c) => self.child_target(c),
                None => Target::False,
            };
            match self.groups.iter().position(|(x, _)| *x == t) {
                Some(g) => self.group_targets[g].push(target),
                None => {
                    if self.group_targets.len() <= n_groups {
                        self.group_targets.push(Vec::new());
                    }
                    self.group_targets[n_groups].clear();
                    self.group_targets[n_groups].push(target);
                    self.groups.push((t, target));
                    n_groups += 1;
                }
            }
        }
        for (g, (_, target)) in self.groups.iter_mut().enumerate() {
            if self.group_targets[g].len() > 1 {
                *target = combine(&self.group_targets[g]);
            }
        }
        let id = match self.sig_ids.get(&self.groups[..]) {
            Some(&id) => id,
            None => {
                let id = self.sigs.len() as u32;
                let sig: Signature = self.groups.clone().into_boxed_slice();
                self.sigs.push(sig.clone());
                self.sig_ids.insert(sig, id);
                id
            }
        };
        self.state_of[n as usize] = id;
    }

    /// The target of the transition on the edge of child `c` (folded).
    fn child_target(&self, c: u32) -> Target {
        let st = self.state_of[c as usize];
        let flags = self.region.nodes[c as usize].flags;
        let q = self.region.cond[c as usize];
        match target_of(flags, (st != NONE).then_some(st), self.region.links.get(&c).copied()) {
            // Pruned on the claim, or still waiting inside the condition's region: the
            // condition's state says what is claimed from there.
            Target::True | Target::False
                if self.with_condition && q != NONE && flags & (VIOLATION | DROPPED | CUT | CUT_UB | COVERED) == 0 =>
            {
                Target::Condition(StateId(q))
            }
            t => t,
        }
    }
}

/// The states reachable from `root`, named breadth-first (`ARG0` is the initial one): their order,
/// and per state its number in it.
fn name_states(sigs: &[Signature], root: u32) -> (Vec<u32>, Vec<u32>) {
    let mut name: Vec<u32> = vec![NONE; sigs.len()];
    let mut order = vec![root];
    name[root as usize] = 0;
    let mut i = 0;
    while i < order.len() {
        for &(_, t) in &sigs[order[i] as usize] {
            if let Target::State(s) = t {
                if name[s as usize] == NONE {
                    name[s as usize] = order.len() as u32;
                    order.push(s);
                }
            }
        }
        i += 1;
    }
    (order, name)
}

/// The states of the condition `c` the region leads to, and those they lead to, in order.
fn copied_states(c: &Automaton, sigs: &[Signature]) -> Vec<StateId> {
    let mut copied: Vec<StateId> = Vec::new();
    let mut seen = vec![false; c.states.len()];
    for sig in sigs {
        for &(_, t) in sig.iter() {
            if let Target::Condition(q) = t {
                if !std::mem::replace(&mut seen[q.idx()], true) {
                    copied.push(q);
                }
            }
        }
    }
    let mut i = 0;
    while i < copied.len() {
        for tr in &c.state(copied[i]).transitions {
            if let AutTarget::Goto(q) = tr.target {
                if !is_special(c, q) && !std::mem::replace(&mut seen[q.idx()], true) {
                    copied.push(q);
                }
            }
        }
        i += 1;
    }
    copied.sort();
    copied
}

fn is_special(c: &Automaton, q: StateId) -> bool {
    Some(q) == c.true_state() || Some(q) == c.false_state()
}

/// The name of the copy of the condition's state `q` (`__TRUE` and `__FALSE` are the automaton's
/// own).
fn copied_name(c: &Automaton, q: StateId) -> String {
    if is_special(c, q) {
        c.state(q).name.clone()
    } else {
        format!("C{}", c.state(q).name)
    }
}

/// The copy of the condition's state `q`, its transitions as they are (the automaton printer's
/// triggers and actions), targets renamed.
fn write_copied_state(text: &mut String, c: &Automaton, q: StateId) -> fmt::Result {
    let st = c.state(q);
    write::state(text, &copied_name(c, q), Some(st.mode), st.is_target, None)?;
    for tr in &st.transitions {
        write::transition(text, tr, |t| copied_name(c, t))?;
    }
    text.push('\n');
    Ok(())
}

/// `lines` as ranges (`3-7,9`), for the header comment.
pub fn line_ranges(lines: &[u32]) -> String {
    let mut res = String::new();
    let mut i = 0;
    while i < lines.len() {
        let mut j = i;
        while j + 1 < lines.len() && lines[j + 1] == lines[j] + 1 {
            j += 1;
        }
        if !res.is_empty() {
            res.push(',');
        }
        if i == j {
            let _ = write!(res, "{}", lines[i]);
        } else {
            let _ = write!(res, "{}-{}", lines[i], lines[j]);
        }
        i = j + 1;
    }
    res
}

/// The lines `line_ranges` wrote.
pub fn parse_line_ranges(s: &str) -> Option<Vec<u32>> {
    let mut res = Vec::new();
    for part in s.split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => res.extend(a.trim().parse::<u32>().ok()?..=b.trim().parse::<u32>().ok()?),
            None => res.push(part.trim().parse().ok()?),
        }
    }
    Some(res)
}

#[cfg(test)]
mod tests {
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;

    use super::*;
    use crate::base::SourceFile;
    use crate::cfront::{self, types::DataModel};
    use crate::symex::{ExploreConfig, Property};
    use crate::verify::condition::{RegionGuide, Snapshots};
    use crate::verify::{explicit_guided, Verdict};

    /// Explores `src` (the ErrorLabel property, `config` otherwise) while recording the region, and
    /// returns the verdict and the automaton in `dialect`.
    fn explore(src: &str, config: ExploreConfig, dialect: Dialect) -> (Verdict, String) {
        let (mut prog, _) =
            cfront::parse_program(SourceFile::new("test.c", src.to_string()), DataModel::Ilp32).expect("parses");
        let (cfa, _) = crate::cfa::build(&mut prog, &Default::default()).expect("CFA");
        let region = Rc::new(RefCell::new(Region::default()));
        let guide = RegionGuide::new(None, Some(region.clone()), None::<Snapshots>, Rc::new(Cell::default()));
        let config = ExploreConfig { property: Property::ErrorLabel, ..config };
        let decision = explicit_guided(&prog, &cfa, config, &Default::default(), guide);
        let text = automaton(&region.borrow(), &cfa, dialect, "test", None).text;
        (decision.verdict, text)
    }

    /// The transitions of `text` without its header, one state per line: `NAME: text -> target | ...`.
    fn states(text: &str) -> String {
        let mut res = String::new();
        for block in text.split("\n\n").filter(|b| b.starts_with("STATE USEFIRST ARG")) {
            let mut lines = block.lines();
            let name = lines.next().unwrap().trim_start_matches("STATE USEFIRST ").trim_end_matches(" :");
            let ts: Vec<&str> =
                lines.map(|l| l.trim().trim_end_matches(';')).filter(|l| *l != "TRUE -> GOTO __FALSE").collect();
            res.push_str(&format!("{name}: {}\n", ts.join(" | ")));
        }
        res
    }

    /// Every line is one of the forms CPAchecker's grammar (`parser.cup`, `Scanner.jflex`, 1.5 and
    /// today) reads in the shapes vcov writes them.
    fn check_grammar(text: &str) {
        let forms = [
            r#"^// .*$"#,
            r#"^OBSERVER AUTOMATON AssumptionAutomaton$"#,
            r#"^INITIAL STATE ARG0;$"#,
            r#"^STATE (USEFIRST )?(ARG[0-9]+|__TRUE|__FALSE) :$"#,
            r#"^    TRUE -> GOTO (__TRUE|__FALSE);$"#,
            r#"^    MATCH "([^"\\\n\r\t]|\\[\\"nrt])*" -> (ASSUME \{false\} )?GOTO (ARG[0-9]+|__TRUE|__FALSE);$"#,
            r#"^END AUTOMATON$"#,
            r#"^$"#,
        ];
        let forms: Vec<regex::Regex> = forms.iter().map(|f| regex::Regex::new(f).unwrap()).collect();
        for line in text.lines() {
            assert!(forms.iter().any(|f| f.is_match(line)), "not a form of the grammar: {line:?}");
        }
        assert!(text.ends_with("END AUTOMATON\n"));
    }

    /// Parses `text` with vcov's parser: no error, no warning, and printing it parses to the same.
    fn check_parses(text: &str) -> crate::automaton::Automaton {
        let (aut, diags) = crate::automaton::parse(&SourceFile::new("aa.txt", text.to_string())).expect("parses");
        assert!(diags.is_empty(), "{diags:?}");
        let printed = aut.to_string();
        let (again, _) = crate::automaton::parse(&SourceFile::new("again.txt", printed.clone())).expect("reparses");
        assert_eq!(again.to_string(), printed);
        aut
    }

    const BRANCHES: &str = "int __VERIFIER_nondet_int(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = 0;
  if (x > 0) { y = 1; } else { y = 2; }
  if (y == 3) { ERROR: return 1; }
  return 0;
}
";

    #[test]
    fn a_finished_search_gives_its_tree_with_infeasible_edges_excluded() {
        let (verdict, text) = explore(BRANCHES, ExploreConfig::default(), Dialect::V1);
        assert_eq!(verdict, Verdict::True);
        check_grammar(&text);
        check_parses(&text);
        let s = states(&text);
        // The infeasible `[y == 3]` leads to `__TRUE` on both branches (no path takes it), and the
        // two branches share their states after the join (folded).
        assert!(s.contains(r#"MATCH "[y == 3]" -> GOTO __TRUE | MATCH "[!(y == 3)]" -> GOTO ARG"#), "{s}");
        assert_eq!(s.matches("[y == 3]").count(), 1, "{s}");
        assert!(s.contains(r#"MATCH "[x > 0]" -> GOTO ARG"#), "{s}");
        // Nothing was left unexplored.
        assert!(!s.contains("-> GOTO __FALSE"), "{s}");
        // Written twice: the same text.
        assert_eq!(explore(BRANCHES, ExploreConfig::default(), Dialect::V1).1, text);
    }

    /// A loop whose state at its head repeats: the state cache covers the second arrival.
    const LOOP: &str = "int __VERIFIER_nondet_int(void);
int main(void) {
  int lk = 0;
  while (1) {
    int c = __VERIFIER_nondet_int();
    if (c == 0) { break; }
    lk = 1;
    if (lk != 1) { ERROR: return 1; }
    lk = 0;
  }
  return 0;
}
";

    #[test]
    fn a_covered_state_goes_back_to_where_its_covering_state_was_explored() {
        let (verdict, text) = explore(LOOP, ExploreConfig::default(), Dialect::V1);
        assert_eq!(verdict, Verdict::True);
        check_grammar(&text);
        check_parses(&text);
        let s = states(&text);
        // Where the transition on `text` leads from the state whose transitions mention `text`.
        let after = |text: &str| -> String {
            let pat = format!(r#"MATCH "{text}" -> GOTO "#);
            let line = s.lines().find(|l| l.contains(&pat)).unwrap_or_else(|| panic!("{text} in {s}"));
            line.split(&pat).nth(1).unwrap().split(' ').next().unwrap().to_string()
        };
        let blank_after = |state: &str| -> String {
            let line = s.lines().find(|l| l.starts_with(&format!("{state}:"))).unwrap();
            line.split(r#"MATCH "" -> GOTO "#).nth(1).unwrap_or_else(|| panic!("{line}")).to_string()
        };
        // The path around the loop ends covered at its head, by the state of the head's first
        // arrival: after `lk = 0;` the automaton goes back to the head's state (a cycle), not
        // into `__TRUE`.
        let head = blank_after(&after("int lk = 0;"));
        assert_eq!(blank_after(&after("lk = 0;")), head, "{s}");
        assert!(!s.contains("-> GOTO __FALSE"), "nothing left unexplored: {s}");
        assert_eq!(s.matches("lk = 1;").count(), 1, "the loop's body is written once: {s}");
    }

    #[test]
    fn a_violation_ends_the_region_on_its_edge() {
        let src = BRANCHES.replace("y == 3", "y == 2");
        let (verdict, text) = explore(&src, ExploreConfig::default(), Dialect::V1);
        assert_eq!(verdict, Verdict::False);
        check_grammar(&text);
        let s = states(&text);
        // The search stops at the violation: its label edge and what it left waiting are `__FALSE`.
        assert!(s.contains(r#"MATCH "ERROR: return 1;" -> GOTO __FALSE"#), "{s}");
    }

    #[test]
    fn a_cut_is_excluded_and_2x_texts_are_the_conditions_as_written() {
        let src = "int __VERIFIER_nondet_int(void);
int main(void) {
  int i = 0;
  while (i < 10 && __VERIFIER_nondet_int()) { i++; }
  if (!(i <= 10)) { ERROR: return 1; }
  return 0;
}
";
        let config = ExploreConfig { unwind: Some(2), ..ExploreConfig::default() };
        let (verdict, v1) = explore(src, config.clone(), Dialect::V1);
        assert!(matches!(verdict, Verdict::Unknown(_)));
        check_grammar(&v1);
        check_parses(&v1);
        assert!(v1.contains("-> ASSUME {false} GOTO __FALSE;"), "{v1}");
        let (_, v2) = explore(src, config, Dialect::V2);
        check_grammar(&v2);
        check_parses(&v2);
        assert!(v1.contains(r#"MATCH "[i < 10]""#) && !v1.contains(r#"MATCH "[i < 10 && "#), "{v1}");
        assert!(v2.contains(r#"MATCH "[i < 10 && __VERIFIER_nondet_int()]""#), "{v2}");
    }

    #[test]
    fn texts_are_escaped_as_cpachecker_reads_them() {
        // A tab too, as every writer of the automaton language escapes it.
        let s = write::string("a\"b\\c\nd\re\tf`").to_string();
        assert_eq!(s, "\"a\\\"b\\\\c\\nd\\re\\tf`\"");
    }

    #[test]
    fn line_ranges_round_trip() {
        for lines in [vec![], vec![3], vec![3, 4, 5, 9, 11, 12]] {
            assert_eq!(parse_line_ranges(&line_ranges(&lines)).unwrap(), lines);
        }
        assert_eq!(line_ranges(&[3, 4, 5, 9]), "3-5,9");
    }
}
