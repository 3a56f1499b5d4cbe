//! Which automaton transition fires on which CFA edge.
//!
//! CPAchecker's `MATCH "s"` is string equality with the edge's raw text. vcov rebuilds those texts,
//! and tries in order: exact equality, equality of C tokens (whitespace and comments ignored), then
//! kind-aware rules (label and goto names, assume polarity with a loose comparison of the condition),
//! and last a contextual rule for assume pairs. A fuzzy tier is only consulted when the exact pass
//! would fall back to a transition without `MATCH` (typically `TRUE -> GOTO __TRUE`) or to none.

use std::cell::RefCell;
use std::collections::HashMap;

use regex::Regex;

use crate::automaton::{Automaton, MatchMode, MatchTrigger, StateId, Trigger};
use crate::base::c_tokens;
use crate::cfa::{BlankKind, Cfa, EdgeId, EdgeKind, Generation, GlobalKind, NodeId, NodeKind};

/// How closely a transition's text matched the edge.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Tier {
    /// The texts are equal.
    Exact,
    /// The texts are equal as C token sequences.
    Tokens,
    /// Same label, same goto target, or an assume with the same polarity and loosely equal condition.
    Loose,
    /// The only assume transition of its polarity, for the only assume edge of that polarity.
    Context,
}

/// The transitions that fire on one edge.
#[derive(Clone, Debug, Default)]
pub struct Fired {
    /// Indices into the state's transitions (more than one only for `USEALL` states).
    pub transitions: Vec<usize>,
    /// How the first of them matched; `None` if it has no `MATCH` (or none fired).
    pub tier: Option<Tier>,
}

/// Evaluates triggers of one automaton against the edges of one CFA, with caches; `MATCH` texts are
/// compared with the edge texts of one CPAchecker generation.
pub struct Matcher<'a> {
    aut: &'a Automaton,
    cfa: &'a Cfa,
    generation: Generation,
    edge_tokens: RefCell<HashMap<EdgeId, String>>,
    text_tokens: RefCell<HashMap<String, String>>,
    regexes: RefCell<HashMap<String, Option<Regex>>>,
    /// Function names by function id, for `MATCH FUNCTIONCALL`.
    func_names: Vec<String>,
    main_exit: NodeId,
}

impl<'a> Matcher<'a> {
    /// A matcher for `aut` against `cfa` with the edge texts of `generation`; `func_names` are the
    /// program's function names by id.
    pub fn new(aut: &'a Automaton, cfa: &'a Cfa, func_names: Vec<String>, generation: Generation) -> Self {
        let main_exit = cfa.func(cfa.main).expect("main").exit;
        Matcher {
            aut,
            cfa,
            generation,
            edge_tokens: RefCell::default(),
            text_tokens: RefCell::default(),
            regexes: RefCell::default(),
            func_names,
            main_exit,
        }
    }

    /// The generation whose edge texts `MATCH` compares with.
    pub fn generation(&self) -> Generation {
        self.generation
    }

    /// Whether the matcher's generation has edge `e`.
    fn exists(&self, e: EdgeId) -> bool {
        self.cfa.edge(e).exists_in(self.generation)
    }

    /// The edge's text in the matcher's generation.
    fn text(&self, e: EdgeId) -> &'a str {
        self.cfa.edge(e).text_in(self.generation)
    }

    /// The transitions of state `q` that fire on each of `edges` (all leaving the same node).
    ///
    /// No transition fires on an edge the generation lacks (`Edge::exists_in`), nor on a declaration
    /// of the global prefix that no `MATCH` fits: the automaton stays where it is, as it would
    /// without the edge.
    pub fn fire_all(&self, q: StateId, edges: &[EdgeId]) -> Vec<Fired> {
        let state = self.aut.state(q);
        let mut res: Vec<Fired> =
            edges.iter().map(|&e| if self.exists(e) { self.fire_exact(q, e) } else { Fired::default() }).collect();
        for (i, &e) in edges.iter().enumerate() {
            if res[i].tier.is_some() || !self.exists(e) {
                continue;
            }
            for tier in [Tier::Tokens, Tier::Loose] {
                if let Some(t) =
                    state.transitions.iter().position(|t| has_match(&t.trigger) && self.eval(&t.trigger, e, tier))
                {
                    res[i] = Fired { transitions: vec![t], tier: Some(tier) };
                    break;
                }
            }
        }
        self.contextual(q, edges, &mut res);
        // A declaration of the global prefix no `MATCH` fits is passed without a step rather than by
        // the fallback: CPAchecker's automata match every edge of the prefix, so such an edge is a
        // declaration of this machine's system headers that the headers CPAchecker read lacked
        // (glibc 2.36's `arc4random`), with no effect on the program.
        let expects_match = state.transitions.iter().any(|t| has_match(&t.trigger));
        for (i, &e) in edges.iter().enumerate() {
            if res[i].tier.is_none()
                && expects_match
                && matches!(self.cfa.edge(e).kind, EdgeKind::Global(GlobalKind::Type | GlobalKind::Function(_)))
            {
                res[i] = Fired::default();
            }
        }
        res
    }

    /// CPAchecker's semantics with exact text matching: the first transition whose trigger holds
    /// (all of them for `USEALL`).
    fn fire_exact(&self, q: StateId, e: EdgeId) -> Fired {
        let state = self.aut.state(q);
        let mut fired = Fired::default();
        for (i, t) in state.transitions.iter().enumerate() {
            if self.eval(&t.trigger, e, Tier::Exact) {
                if fired.transitions.is_empty() && has_match(&t.trigger) {
                    fired.tier = Some(Tier::Exact);
                }
                fired.transitions.push(i);
                if state.mode == MatchMode::UseFirst {
                    break;
                }
            }
        }
        if fired.tier.is_none() && !fired.transitions.is_empty() {
            // Only a fallback fired; the fuzzy tiers may still find the intended MATCH.
            let fallback = fired.transitions.clone();
            return Fired { transitions: fallback, tier: None };
        }
        fired
    }

    /// An assume edge left unmatched takes the only assume transition of its polarity when its node has
    /// no other unmatched assume edge of that polarity.
    fn contextual(&self, q: StateId, edges: &[EdgeId], res: &mut [Fired]) {
        let state = self.aut.state(q);
        for polarity in [true, false] {
            let open: Vec<usize> = (0..edges.len())
                .filter(|&i| {
                    res[i].tier.is_none()
                        && self.exists(edges[i])
                        && assume_polarity(self.text(edges[i])) == Some(polarity)
                })
                .collect();
            if open.len() != 1 {
                continue;
            }
            let used: Vec<usize> =
                res.iter().filter(|f| f.tier.is_some()).flat_map(|f| f.transitions.clone()).collect();
            let cands: Vec<usize> = state
                .transitions
                .iter()
                .enumerate()
                .filter(|(i, t)| {
                    !used.contains(i)
                        && match &t.trigger {
                            Trigger::Match(MatchTrigger::Exact(s)) => assume_polarity(s) == Some(polarity),
                            _ => false,
                        }
                })
                .map(|(i, _)| i)
                .collect();
            if cands.len() == 1 {
                res[open[0]] = Fired { transitions: cands, tier: Some(Tier::Context) };
            }
        }
    }

    /// Whether `trig` holds on edge `e` when `MATCH` texts are compared at `tier`.
    fn eval(&self, trig: &Trigger, e: EdgeId, tier: Tier) -> bool {
        match trig {
            Trigger::True => true,
            Trigger::False => false,
            Trigger::Match(m) => self.matches(m, e, tier),
            Trigger::Not(x) => !self.eval(x, e, tier),
            Trigger::And(a, b) => self.eval(a, e, tier) && self.eval(b, e, tier),
            Trigger::Or(a, b) => self.eval(a, e, tier) || self.eval(b, e, tier),
            Trigger::BoolEq(a, b) => self.eval(a, e, tier) == self.eval(b, e, tier),
            Trigger::BoolNe(a, b) => self.eval(a, e, tier) != self.eval(b, e, tier),
            Trigger::CoversLines(lines) => {
                self.cfa.edge(e).lines.is_some_and(|(a, b)| lines.iter().any(|l| (a..=b).contains(l)))
            }
            // Conditions over other analyses' states cannot be decided on the CFA alone.
            _ => false,
        }
    }

    fn matches(&self, m: &MatchTrigger, e: EdgeId, tier: Tier) -> bool {
        let edge = self.cfa.edge(e);
        match m {
            MatchTrigger::Exact(s) => match tier {
                Tier::Exact => s == self.text(e),
                Tier::Tokens => self.tokens_of_edge(e) == self.tokens_of_text(s),
                Tier::Loose => self.loose(s, e),
                Tier::Context => false,
            },
            MatchTrigger::Regex(r) => self.regex(r).is_some_and(|re| re.is_match(self.text(e))),
            MatchTrigger::Label(l) => self.cfa.node(edge.dst).label.as_deref() == Some(l.as_str()),
            MatchTrigger::LabelRegex(r) => {
                let label = self.cfa.node(edge.dst).label.clone();
                label.is_some_and(|l| self.regex(r).is_some_and(|re| re.is_match(&l)))
            }
            MatchTrigger::Call(f) => match &edge.kind {
                EdgeKind::Call(cs) => self.func_names[self.cfa.call_site(*cs).callee.idx()] == *f,
                EdgeKind::ExternCall { callee, .. } => match callee.strip_implicit().kind {
                    crate::cfront::ir::ExprKind::Func(id) => self.func_names[id.idx()] == *f,
                    _ => false,
                },
                _ => false,
            },
            MatchTrigger::Exit => edge.dst == self.main_exit,
            MatchTrigger::Entry => self.cfa.node(edge.src).kind == NodeKind::Entry,
            MatchTrigger::Pattern(_) | MatchTrigger::Assert => false,
        }
    }

    /// Kind-aware comparison: labels and gotos by name, assumes by polarity and a loose condition.
    fn loose(&self, s: &str, e: EdgeId) -> bool {
        let edge = self.cfa.edge(e);
        match &edge.kind {
            EdgeKind::Blank(BlankKind::Goto(name)) => goto_target(s) == Some(name),
            EdgeKind::Blank(BlankKind::Label(name)) => label_name(s) == Some(name),
            EdgeKind::Assume { .. } => {
                assume_polarity(s).is_some()
                    && assume_polarity(s) == assume_polarity(self.text(e))
                    && loose_condition(s) == loose_condition(self.text(e))
            }
            _ => false,
        }
    }

    fn tokens_of_edge(&self, e: EdgeId) -> String {
        self.edge_tokens.borrow_mut().entry(e).or_insert_with(|| token_key(self.text(e))).clone()
    }

    fn tokens_of_text(&self, s: &str) -> String {
        self.text_tokens.borrow_mut().entry(s.to_string()).or_insert_with(|| token_key(s)).clone()
    }

    fn regex(&self, r: &str) -> Option<Regex> {
        self.regexes.borrow_mut().entry(r.to_string()).or_insert_with(|| Regex::new(&format!("^(?:{r})$")).ok()).clone()
    }
}

/// Whether a trigger contains a `MATCH`.
pub(super) fn has_match(t: &Trigger) -> bool {
    let mut found = false;
    t.for_each_match(&mut |_| found = true);
    found
}

/// `Some(true)` for `[e]`, `Some(false)` for `[!(e)]`, `None` for texts that are not assume texts.
pub fn assume_polarity(s: &str) -> Option<bool> {
    if !(s.starts_with('[') && s.ends_with(']')) {
        return None;
    }
    Some(!s.starts_with("[!("))
}

fn goto_target(s: &str) -> Option<&str> {
    if let Some(rest) = s.strip_prefix("Goto: ") {
        return Some(rest.trim());
    }
    let rest = s.trim().strip_prefix("goto")?;
    Some(rest.trim().trim_end_matches(';').trim())
}

fn label_name(s: &str) -> Option<&str> {
    let t = s.trim_start();
    let end = t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    let (name, rest) = t.split_at(end);
    (!name.is_empty() && rest.trim_start().starts_with(':') && name != "default" && name != "case").then_some(name)
}

/// The condition of an assume text with parentheses, whitespace and integer suffixes removed.
fn loose_condition(s: &str) -> String {
    let inner = s.trim_start_matches('[').trim_end_matches(']');
    let inner = inner.strip_prefix("!(").and_then(|x| x.strip_suffix(')')).unwrap_or(inner);
    c_tokens(inner)
        .into_iter()
        .filter(|t| *t != "(" && *t != ")")
        .map(|t| {
            if t.starts_with(|c: char| c.is_ascii_digit()) {
                let digits = t.trim_end_matches(['u', 'U', 'l', 'L']);
                parse_c_int(digits).map(|v| v.to_string()).unwrap_or_else(|| digits.to_string())
            } else {
                t.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn parse_c_int(s: &str) -> Option<u128> {
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u128::from_str_radix(h, 16).ok()
    } else if s.len() > 1 && s.starts_with('0') {
        u128::from_str_radix(&s[1..], 8).ok()
    } else {
        s.parse().ok()
    }
}

/// The C tokens of `s` joined by single spaces (whitespace and comments dropped).
pub fn token_key(s: &str) -> String {
    c_tokens(s).join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_keys_ignore_layout() {
        assert_eq!(token_key("c_m_lock  =    0;"), token_key("c_m_lock = 0 ;"));
        assert_eq!(token_key("L: /* CIL Label */ ;"), "L : ;");
        assert_ne!(token_key("a = b;"), token_key("a == b;"));
        assert_eq!(token_key("x->f >>= 2"), "x -> f >>= 2");
    }

    #[test]
    fn kind_specific_forms() {
        assert_eq!(goto_target("Goto: while_0_break"), Some("while_0_break"));
        assert_eq!(goto_target("goto L;"), Some("L"));
        assert_eq!(label_name("while_9_continue: /* CIL Label */ ;"), Some("while_9_continue"));
        assert_eq!(label_name("L_SLAVE_RUN_GET: \n req_type = 1;"), Some("L_SLAVE_RUN_GET"));
        assert_eq!(label_name("default: x;"), None);
        assert_eq!(label_name("x = a ? b : c;"), None);
        assert_eq!(assume_polarity("[!(i == 0)]"), Some(false));
        assert_eq!(assume_polarity("[i == 0]"), Some(true));
        assert_eq!(assume_polarity("i = 0;"), None);
        assert_eq!(loose_condition("[((int)m) == 0x10U]"), loose_condition("[(int)m == 16]"));
    }
}
