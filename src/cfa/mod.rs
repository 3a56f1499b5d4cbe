//! Control-flow automata built the way CPAchecker builds them, so that assumption automata written by
//! CPAchecker can be matched edge by edge.
//!
//! One automaton per defined function; `main`'s begins with CPAchecker's global prefix (the file-scope
//! declarations as edges). Every edge carries CPAchecker's raw text for it, its source lines, and its
//! meaning as a side-effect-free operation on the typed IR (calls and assignments hoisted as CPAchecker
//! hoists them).
//!
//! Invariant: node and edge ids are dense and fixed once `build` returns.
//! Invariant: expressions on edges have no side effects; a call appears only as the whole right-hand
//! side of `ExternCall` or through `Call`/`Return` edges.
//! Invariant: only this module and `product` import `petgraph`.

mod build;
mod distance;
mod dump;
mod effects;
mod graph;
mod javaset;
mod library;
mod link;
mod live;
pub mod print;

use crate::base::Diagnostic;
use crate::cfront::ir::{Expr, ExprKind, FuncId, Init, Program, VarId};
use crate::id_type;

pub use distance::exit_distances;
pub use dump::{kind_name, to_dot, to_text};
pub use live::{expr_vars, init_vars, root_var, LiveLocals};

id_type! {
    /// A CFA location.
    pub struct NodeId;
}
id_type! {
    /// A CFA edge.
    pub struct EdgeId;
}
id_type! {
    /// A call of a function with a body: its call, return and summary edges.
    pub struct CallSiteId;
}

/// What kind of location a node is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NodeKind {
    /// An ordinary location.
    Normal,
    /// A function's entry.
    Entry,
    /// A function's exit (after the return statements).
    Exit,
    /// A location where paths end without reaching the program's exit (`abort()`, blank-only loops,
    /// the false side of `__VERIFIER_assume`).
    Termination,
}

/// One CFA location.
#[derive(Clone, Debug)]
pub struct Node {
    /// The function it belongs to.
    pub func: FuncId,
    /// Its kind.
    pub kind: NodeKind,
    /// The head of a loop (while/do/for condition, or a backward goto target).
    pub loop_head: bool,
    /// For the head of a `while` or `for` loop: the loop statement's span (its first byte is the
    /// keyword), where correctness witnesses place the loop's invariants.
    pub loop_stmt: Option<crate::base::Span>,
    /// The label of a label node.
    pub label: Option<Box<str>>,
    /// Position in the postorder of its function (the exit has the lowest numbers).
    pub postorder: u32,
}

/// The kind of a blank edge, for matching and display.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BlankKind {
    /// A structural edge (`""`) without description: joins, back edges, switch exits.
    Plain,
    /// `INIT GLOBAL VARS`
    InitGlobals,
    /// The dummy edge at the start of a function body.
    FunctionStart,
    /// The `""` edge from the end of a body to the exit (`default return`).
    DefaultReturn,
    /// The `""` edge entering a `while`, `do` or `for`.
    LoopEntry,
    /// A `""` fall-through into a `case` or `default`.
    FallThrough,
    /// A `case` whose test is constant true.
    CaseTrue,
    /// `skipped unnecessary edges`: an `if` whose branches were all blank, removed by the simplifier.
    Skipped,
    /// A label edge (its text is the whole labelled statement).
    Label(Box<str>),
    /// A `goto`.
    Goto(Box<str>),
    /// A constant condition (`while (1)`).
    ConstCondition,
    /// `switch (e)`
    Switch,
    /// `break;` or `continue;`
    Jump,
    /// The edge to a switch's default case (its text is the whole switch).
    SwitchDefault,
    /// Inline assembly (no effect is modelled).
    Asm,
    /// `skip` after a resolved function-pointer call.
    Skip,
    /// The `""` edge (description `do`) CPAchecker ≥ 2.3 puts between a `do` loop's condition and its
    /// body, which the loop entry also enters; not there in older versions (`Era::Since23`).
    DoBody,
}

/// The file-scope entity a global declaration edge declares.
#[derive(Clone, Debug)]
pub enum GlobalKind {
    /// A variable, initialised here (zero when no initializer and not `extern`).
    Var {
        /// The variable.
        var: VarId,
        /// Its initializer.
        init: Option<Init>,
    },
    /// A type.
    Type,
    /// A function declaration or definition header (not a line to cover).
    Function(FuncId),
}

/// The meaning of an edge.
#[derive(Clone, Debug)]
pub enum EdgeKind {
    /// No effect.
    Blank(BlankKind),
    /// A file-scope declaration in `main`'s prefix.
    Global(GlobalKind),
    /// A local variable comes into existence, uninitialised unless `init` is given.
    Decl {
        /// The variable.
        var: VarId,
        /// Initializer.
        init: Option<Init>,
    },
    /// A local type declaration.
    TypeDecl,
    /// `lhs = rhs`
    Assign {
        /// The assigned lvalue.
        lhs: Expr,
        /// The value, already of `lhs`'s type.
        rhs: Expr,
    },
    /// An expression evaluated for nothing (`x;`); kept for its lines.
    Eval(Expr),
    /// A call of a function without a body here (or an unresolved pointer call).
    ExternCall {
        /// Where the result goes.
        lhs: Option<Expr>,
        /// The callee: a function designator or a function pointer.
        callee: Expr,
        /// Arguments.
        args: Vec<Expr>,
    },
    /// Continue only if `cond` is non-zero (`truth`) or zero (`!truth`).
    Assume {
        /// A scalar condition.
        cond: Expr,
        /// Which outcome the edge takes.
        truth: bool,
    },
    /// Call edge into a function with a body.
    Call(CallSiteId),
    /// Return edge from a callee's exit to the call's return site.
    Return(CallSiteId),
    /// Summary edge from a call site to its return site (never taken by CPAchecker's analyses).
    Summary(CallSiteId),
    /// `return e;`: stores the result and leads to the exit.
    ReturnStmt(Option<Expr>),
}

/// One CFA edge.
#[derive(Clone, Debug)]
pub struct Edge {
    /// Source location.
    pub src: NodeId,
    /// Target location.
    pub dst: NodeId,
    /// What it does.
    pub kind: EdgeKind,
    /// CPAchecker 1.x's raw statement for the edge (what `MATCH "..."` of a 1.x automaton compares
    /// with).
    pub text: Box<str>,
    /// CPAchecker ≥ 2.0's raw statement for the edge, where it differs from `text` (assume edges and
    /// what a condition hoists: see `docs/cpachecker-edge-texts.md`).
    pub text2: Option<Box<str>>,
    /// Which CPAchecker versions build the edge.
    pub era: Era,
    /// First and last source line, `None` for edges without a place in the source.
    pub lines: Option<(u32, u32)>,
}

impl Edge {
    /// The raw statement CPAchecker of generation `generation` gives the edge.
    pub fn text_in(&self, generation: Generation) -> &str {
        match (generation, &self.text2) {
            (Generation::V2 | Generation::V23, Some(t)) => t,
            _ => &self.text,
        }
    }

    /// Whether CPAchecker of generation `generation` builds the edge (`Era`); an automaton does not
    /// step on an edge its generation lacks.
    pub fn exists_in(&self, generation: Generation) -> bool {
        match self.era {
            Era::All => true,
            Era::Since23 => generation == Generation::V23,
            Era::Before23 => generation != Generation::V23,
        }
    }
}

/// Which CPAchecker versions build an edge.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Era {
    /// Every version.
    #[default]
    All,
    /// 2.3 and later only: the body edge of a `do` loop (`BlankKind::DoBody`).
    Since23,
    /// Versions before 2.3 only: the temporary of a cast of `p->f` (dropped by default in 2023-03).
    Before23,
}

/// A generation of CPAchecker, as far as the CFA edges and their raw texts go (what `MATCH "..."`
/// compares with); see `docs/cpachecker-edge-texts.md`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Generation {
    /// CPAchecker 1.x (1.5 wrote the corpus automata): an assume edge's text is its own condition,
    /// re-printed (`[x == 0]`).
    #[default]
    V1,
    /// CPAchecker 2.0 to 2.2 (2020-05 to 2023): an assume edge's text is the whole condition it comes
    /// from, as written in the source (`[x]`, `[!(x)]`, `[a && b]`).
    V2,
    /// CPAchecker 2.3 to 4.x: the texts of 2.0, and a `do` loop's condition reaches its body over a
    /// blank edge of its own (`BlankKind::DoBody`).
    V23,
}

impl Generation {
    /// Every generation, in the order in which an automaton is tried among equals: 1.x, then the
    /// newer of the two that share ≥ 2.0's texts.
    pub const ALL: [Generation; 3] = [Generation::V1, Generation::V23, Generation::V2];

    /// The name in reports: `1.x` or `2.x+` (2.0–2.2 and 2.3+ share their texts and differ only in
    /// `do` loops; `detail` tells them apart).
    pub fn label(self) -> &'static str {
        match self {
            Generation::V1 => "1.x",
            Generation::V2 | Generation::V23 => "2.x+",
        }
    }

    /// The versions: `1.x`, `2.0-2.2` or `2.3+`.
    pub fn detail(self) -> &'static str {
        match self {
            Generation::V1 => "1.x",
            Generation::V2 => "2.0-2.2",
            Generation::V23 => "2.3+",
        }
    }

    /// The generations that write `label`'s texts: what `--cpachecker-texts 1` or `2` allows.
    pub fn with_texts_of(self) -> &'static [Generation] {
        match self {
            Generation::V1 => &[Generation::V1],
            Generation::V2 | Generation::V23 => &[Generation::V23, Generation::V2],
        }
    }
}

/// A call of a function with a body.
#[derive(Clone, Debug)]
pub struct CallSite {
    /// The calling function.
    pub caller: FuncId,
    /// The called function.
    pub callee: FuncId,
    /// Where the result is stored.
    pub lhs: Option<Expr>,
    /// Arguments, converted to the parameter types.
    pub args: Vec<Expr>,
    /// The call edge.
    pub call_edge: EdgeId,
    /// The return edge, absent when the callee cannot return.
    pub return_edge: Option<EdgeId>,
    /// The node after the call, absent when the callee cannot return.
    pub return_node: Option<NodeId>,
}

impl CallSite {
    /// The first argument that makes the call undefined behaviour: a pointer to a struct or union of
    /// one tag where the callee, defined with a prototype, takes a pointer to one of another tag
    /// (records without a tag, or of one tag in different scopes, are not judged). An argument has the
    /// parameter type of the function type the call goes through (or its promoted type, for an
    /// unprototyped one), so this happens only for a call through a function pointer whose type is
    /// not compatible with the function's (C11 6.3.2.3p8, 6.5.2.2p6 and p9) — CPAchecker's
    /// resolution of pointer calls tries every function of the same parameter sizes, `ppp_release`
    /// for a channel's `start_xmit`. Other differences are not judged: `None` means "not known to be
    /// undefined".
    pub fn incompatible_argument(&self, prog: &Program) -> Option<usize> {
        use crate::cfront::types::TypeKind;
        let types = &prog.types;
        let TypeKind::Func(ft) = types.kind(prog.func(self.callee).ty) else { return None };
        if ft.unprototyped {
            return None;
        }
        let record = |t| match types.kind(types.pointee(t)?) {
            TypeKind::Record(r) => types.record(*r).tag.as_deref(),
            _ => None,
        };
        ft.params
            .iter()
            .zip(&self.args)
            .position(|(&param, arg)| matches!((record(param), record(arg.ty)), (Some(p), Some(a)) if p != a))
    }
}

/// A function's automaton.
#[derive(Clone, Debug)]
pub struct FuncCfa {
    /// The function.
    pub func: FuncId,
    /// Entry node.
    pub entry: NodeId,
    /// Exit node.
    pub exit: NodeId,
    /// The variable holding the return value, if the function returns one.
    pub ret_var: Option<VarId>,
    /// Whether it is a model of vcov's C library (`library.rs`), not a function of the program.
    pub library: bool,
}

/// The control-flow automata of a whole program.
#[derive(Clone, Debug)]
pub struct Cfa {
    nodes: Vec<Node>,
    edges: Vec<Edge>,
    out: Vec<Vec<EdgeId>>,
    inc: Vec<Vec<EdgeId>>,
    /// Automata of the defined functions, in definition order.
    pub funcs: Vec<FuncCfa>,
    func_index: Vec<Option<usize>>,
    /// All calls of functions with bodies.
    pub call_sites: Vec<CallSite>,
    /// The program's entry function.
    pub main: FuncId,
    /// The call sites whose call edge is an `ExternCall` the engines run a model of the C library
    /// for (`library.rs`), by that edge.
    library_calls: rustc_hash::FxHashMap<EdgeId, CallSiteId>,
    /// The call sites of callbacks from models (`library.rs`), by pointer-call edge and callee.
    callbacks: rustc_hash::FxHashMap<(EdgeId, FuncId), CallSiteId>,
    /// The edges that give the library's variables their storage, in order (`library_init`).
    library_init: Vec<EdgeId>,
}

/// The pointer a call with callee expression `callee` calls through: `fp` of `fp(..)` and of
/// `(*fp)(..)`; `None` for a call of a function by its name.
pub fn called_pointer<'e>(types: &crate::cfront::types::Types, callee: &'e Expr) -> Option<&'e Expr> {
    match &callee.strip_implicit().kind {
        ExprKind::Func(_) => None,
        ExprKind::Deref(inner) if types.pointee(inner.ty).is_some() => Some(inner.as_ref()),
        _ => Some(callee),
    }
}

/// Which lines an edge counts for.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum LineRule {
    /// Every line a statement or condition spans (the rule of the Verification Coverage reference
    /// scripts and their `EXPECTED.json`); labels, gotos, loop entries and `switch` heads count with
    /// their first line only, global declarations with the line they start on.
    #[default]
    Spanned,
    /// Only the first line of each edge (CPAchecker 1.5's own `coverage.info`).
    FirstLine,
}

/// Options of CFA construction.
#[derive(Clone, Debug)]
pub struct CfaConfig {
    /// The entry function. [default: `main`]
    pub entry: String,
}

impl Default for CfaConfig {
    fn default() -> Self {
        CfaConfig { entry: "main".into() }
    }
}

/// Why a CFA cannot be built.
#[derive(Debug, thiserror::Error)]
pub enum CfaError {
    /// The program has no definition of the entry function.
    #[error("{path}: the program does not define the entry function '{name}'")]
    NoEntry {
        /// The program file.
        path: String,
        /// The function looked for.
        name: String,
    },
}

/// Builds the CFA of `prog`; temporaries CPAchecker introduces are added to `prog.vars`.
///
/// The builder recurses once per nesting level of statements (up to the front end's limit), so it
/// runs on a thread of its own with room for that, as the parser does, whatever the caller's stack
/// (a fuzzer's sanitizer-sized frames overflowed 8 MiB at 3,500 nested `if`s).
pub fn build(prog: &mut Program, config: &CfaConfig) -> Result<(Cfa, Vec<Diagnostic>), CfaError> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(BUILD_STACK)
            .spawn_scoped(s, || link::build_program(prog, config))
            .expect("spawn CFA builder thread")
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p))
    })
}

/// The stack of the CFA builder's thread (reserved, touched only as deep as the program nests).
const BUILD_STACK: usize = 256 << 20;

impl Cfa {
    /// Number of nodes.
    pub fn n_nodes(&self) -> usize {
        self.nodes.len()
    }

    /// Number of edges.
    pub fn n_edges(&self) -> usize {
        self.edges.len()
    }

    /// The node `n`.
    pub fn node(&self, n: NodeId) -> &Node {
        &self.nodes[n.idx()]
    }

    /// The edge `e`.
    pub fn edge(&self, e: EdgeId) -> &Edge {
        &self.edges[e.idx()]
    }

    /// All edges in id order.
    pub fn edges(&self) -> impl Iterator<Item = (EdgeId, &Edge)> {
        self.edges.iter().enumerate().map(|(i, e)| (EdgeId::from_idx(i), e))
    }

    /// Edges leaving `n`, in creation order (CPAchecker's order of leaving edges).
    pub fn out_edges(&self, n: NodeId) -> &[EdgeId] {
        &self.out[n.idx()]
    }

    /// The edges an execution can take from `n` in a frame entered by `call_site` (`None`: `main`'s):
    /// no summary edges, and of the return edges only the one back to that call site.
    pub fn frame_out_edges(&self, n: NodeId, call_site: Option<CallSiteId>) -> Vec<EdgeId> {
        self.out_edges(n)
            .iter()
            .copied()
            .filter(|&e| match self.edge(e).kind {
                EdgeKind::Summary(_) => false,
                EdgeKind::Return(cs) => Some(cs) == call_site,
                _ => true,
            })
            .collect()
    }

    /// Edges entering `n`.
    pub fn in_edges(&self, n: NodeId) -> &[EdgeId] {
        &self.inc[n.idx()]
    }

    /// The automaton of `f`, if `f` is defined.
    pub fn func(&self, f: FuncId) -> Option<&FuncCfa> {
        self.func_index.get(f.idx()).copied().flatten().map(|i| &self.funcs[i])
    }

    /// The entry node of the program (`main`'s entry, before the global prefix).
    pub fn entry(&self) -> NodeId {
        self.func(self.main).expect("main is defined").entry
    }

    /// The call site `cs`.
    pub fn call_site(&self, cs: CallSiteId) -> &CallSite {
        &self.call_sites[cs.idx()]
    }

    /// The library call site of `ExternCall` edge `e`: the engines run the model of vcov's C library
    /// it names (entering its automaton) instead of treating the callee as a function without body.
    pub fn library_call(&self, e: EdgeId) -> Option<CallSiteId> {
        self.library_calls.get(&e).copied()
    }

    /// Whether node `n` belongs to a model of vcov's C library rather than to the program.
    pub fn in_library(&self, n: NodeId) -> bool {
        self.is_library_func(self.node(n).func)
    }

    /// Whether `f` is a model of vcov's C library.
    pub fn is_library_func(&self, f: FuncId) -> bool {
        self.func(f).is_some_and(|f| f.library)
    }

    /// Whether edge `e` runs inside a model of vcov's C library or returns into one (from a
    /// callback): an edge the program's CFA according to CPAchecker does not have.
    pub fn is_library_edge(&self, e: EdgeId) -> bool {
        let edge = self.edge(e);
        self.in_library(edge.src) || self.in_library(edge.dst)
    }

    /// The call site by which the model's pointer call on edge `e` calls back function `f` of the
    /// program (`qsort`'s comparison), if `f` may be called there.
    pub fn callback(&self, e: EdgeId, f: FuncId) -> Option<CallSiteId> {
        self.callbacks.get(&(e, f)).copied()
    }

    /// The pointer that edge `e` calls through when it is a model's call that may call back into
    /// the program (`callback`).
    pub fn callback_pointer<'c>(&'c self, types: &crate::cfront::types::Types, e: EdgeId) -> Option<&'c Expr> {
        if !self.has_callbacks() || !self.is_library_edge(e) {
            return None;
        }
        let EdgeKind::ExternCall { callee, .. } = &self.edge(e).kind else { return None };
        called_pointer(types, callee)
    }

    /// Whether some model may call back into the program (`callback`).
    pub fn has_callbacks(&self) -> bool {
        !self.callbacks.is_empty()
    }

    /// Whether an execution whose call stack holds the functions `frames` runs inside a model of the
    /// C library (a callback from one included): what it does there is hidden from the guide and
    /// from the path, as the model is.
    pub fn in_model(&self, mut frames: impl Iterator<Item = FuncId>) -> bool {
        self.has_callbacks() && frames.any(|f| self.is_library_func(f))
    }

    /// The edges that allocate and initialize the variables of vcov's C library (its tables), which
    /// the executor and the interpreter take, in this order, before the program's entry.
    pub fn library_init(&self) -> &[EdgeId] {
        &self.library_init
    }

    /// Fills `library_calls`, `callbacks` and `library_init` (once, when the CFA is built).
    fn index_library_calls(&mut self) {
        self.library_init = (0..self.edges.len())
            .map(EdgeId::from_idx)
            .filter(|&e| matches!(self.edge(e).kind, EdgeKind::Global(_)) && self.is_library_edge(e))
            .collect();
        for (i, cs) in self.call_sites.iter().enumerate() {
            let EdgeKind::ExternCall { callee, .. } = &self.edges[cs.call_edge.idx()].kind else { continue };
            if matches!(callee.strip_implicit().kind, ExprKind::Func(_)) {
                self.library_calls.insert(cs.call_edge, CallSiteId::from_idx(i));
            } else {
                self.callbacks.insert((cs.call_edge, cs.callee), CallSiteId::from_idx(i));
            }
        }
    }

    /// Whether the edge counts for line coverage (it has a source place and does not declare a function).
    pub fn counts_for_lines(&self, e: EdgeId) -> bool {
        let edge = self.edge(e);
        edge.lines.is_some() && !matches!(edge.kind, EdgeKind::Global(GlobalKind::Function(_)) | EdgeKind::Summary(_))
    }

    /// The first and last line edge `e` counts for under `rule`, if it counts at all.
    pub fn counted_lines(&self, e: EdgeId, rule: LineRule) -> Option<(u32, u32)> {
        if !self.counts_for_lines(e) {
            return None;
        }
        let (a, b) = self.edge(e).lines?;
        Some(match rule {
            LineRule::Spanned => (a, b),
            LineRule::FirstLine => (a, a),
        })
    }

    /// For each of `lines` (ascending), the edges that count for it under `rule`: an execution
    /// covers the line only by taking one of them.
    pub fn edges_counting_for(&self, lines: &[u32], rule: LineRule) -> Vec<Vec<EdgeId>> {
        let mut res = vec![Vec::new(); lines.len()];
        for (id, _) in self.edges() {
            if let Some((a, b)) = self.counted_lines(id, rule) {
                let from = lines.partition_point(|&l| l < a);
                for (i, _) in lines.iter().enumerate().skip(from).take_while(|(_, &l)| l <= b) {
                    res[i].push(id);
                }
            }
        }
        res
    }

    /// The lines of every edge that counts for coverage: CPAchecker's lines to cover, ascending.
    pub fn lines_to_cover(&self, rule: LineRule) -> Vec<u32> {
        let all: Vec<EdgeId> = self.edges().map(|(id, _)| id).collect();
        self.lines_of_edges(&all, rule)
    }

    /// The lines the given edges count for, ascending and without duplicates.
    pub fn lines_of_edges(&self, edges: &[EdgeId], rule: LineRule) -> Vec<u32> {
        let mut lines = Vec::new();
        for &e in edges {
            if let Some((a, b)) = self.counted_lines(e, rule) {
                lines.extend(a..=b);
            }
        }
        lines.sort_unstable();
        lines.dedup();
        lines
    }

    /// The branches of the program: for every node with assume edges that count for coverage, those
    /// edges in order (`lcov`'s branch blocks).
    pub fn branches(&self) -> Vec<Vec<EdgeId>> {
        let mut res = Vec::new();
        for n in 0..self.n_nodes() {
            let edges: Vec<EdgeId> = self.out[n]
                .iter()
                .copied()
                .filter(|&e| matches!(self.edge(e).kind, EdgeKind::Assume { .. }) && self.counts_for_lines(e))
                .collect();
            if edges.len() >= 2 {
                res.push(edges);
            }
        }
        res
    }
}

#[cfg(test)]
mod tests;
