//! Which CPAchecker generation wrote an automaton, told from the automaton itself: its `MATCH "..."`
//! texts are compared with the edge texts each generation gives the program's CFA
//! (`cfa::Generation`), and the product is built with the one that fits.
//!
//! One generation per automaton: every transition is matched with the texts of the same generation,
//! never one generation for one transition and another for the next.

use std::collections::HashSet;

use super::Product;
use crate::automaton::{Automaton, MatchTrigger, Trigger};
use crate::cfa::{Cfa, Era, Generation};

/// How the generation of an automaton's texts was chosen.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Source {
    /// Given by the user (`--cpachecker-texts`).
    Forced,
    /// Told from the automaton's `MATCH` texts.
    Detected,
    /// The automaton has no `MATCH "..."` text to tell it by; every generation gives the same product.
    NoTexts,
}

impl Source {
    /// The name in reports: `forced`, `detected` or `no-texts`.
    pub fn label(self) -> &'static str {
        match self {
            Source::Forced => "forced",
            Source::Detected => "detected",
            Source::NoTexts => "no-texts",
        }
    }

    /// How it was chosen, in words for the text summary.
    pub fn describe(self) -> &'static str {
        match self {
            Source::Forced => "given by --cpachecker-texts",
            Source::Detected => "told from its MATCH texts",
            Source::NoTexts => "it has no MATCH text to tell by",
        }
    }
}

/// The `MATCH "..."` texts of `aut` (in triggers and assertions) with the line of their transition,
/// in file order.
pub fn exact_texts(aut: &Automaton) -> Vec<(u32, &str)> {
    fn visit<'a>(t: &'a Trigger, line: u32, res: &mut Vec<(u32, &'a str)>) {
        match t {
            Trigger::Match(MatchTrigger::Exact(s)) => res.push((line, s)),
            Trigger::Not(a) => visit(a, line, res),
            Trigger::And(a, b) | Trigger::Or(a, b) | Trigger::BoolEq(a, b) | Trigger::BoolNe(a, b) => {
                visit(a, line, res);
                visit(b, line, res);
            }
            _ => {}
        }
    }
    let mut res = Vec::new();
    for st in &aut.states {
        for tr in &st.transitions {
            visit(&tr.trigger, tr.line, &mut res);
            for a in &tr.assertions {
                visit(a, tr.line, &mut res);
            }
        }
    }
    res
}

/// The edge texts of `cfa` in `generation`.
fn edge_texts(cfa: &Cfa, generation: Generation) -> HashSet<&str> {
    cfa.edges().map(|(_, e)| e.text_in(generation)).collect()
}

/// How many of `texts` are the text of some edge of `cfa` in `generation`.
pub fn texts_found(cfa: &Cfa, texts: &[(u32, &str)], generation: Generation) -> usize {
    let set = edge_texts(cfa, generation);
    texts.iter().filter(|(_, t)| set.contains(t)).count()
}

/// The first of `texts` (line and text) that is the text of no edge of `cfa` in any generation.
pub fn foreign_text(cfa: &Cfa, texts: &[(u32, &str)]) -> Option<(u32, String)> {
    let sets: Vec<HashSet<&str>> = Generation::ALL.iter().map(|&g| edge_texts(cfa, g)).collect();
    texts.iter().find(|(_, t)| sets.iter().all(|s| !s.contains(t))).map(|&(l, t)| (l, t.to_string()))
}

/// The product of `aut` and `cfa`, with the generation `forced` (one of those that write its
/// texts), or else with the generation that fits the automaton best.
///
/// The generations in which every `MATCH` text is an edge text are tried first; if none of them
/// reaches every state the automaton leads to, the others are, most texts found first. Among those
/// tried, the best misses the fewest states, then leaves the fewest `MATCH` transitions of reached
/// states unused, then takes a fallback (`TRUE -> …`) the fewest times: CPAchecker wrote a `MATCH`
/// for every edge its analysis explored, so in the right generation the fallbacks fire only where
/// the analysis stopped. Ties go to the older generation (2.3+ before 2.0–2.2). Generations that
/// give the program the same edges and texts are built once. An automaton without `MATCH` texts
/// gets 1.x.
pub fn detect(aut: &Automaton, cfa: &Cfa, func_names: Vec<String>, forced: Option<Generation>) -> Product {
    let build = |generation: Generation, source: Source| {
        let mut p = Product::build(aut, cfa, func_names.clone(), generation);
        p.source = source;
        p
    };
    let texts = exact_texts(aut);
    let (all, source) = match forced {
        Some(g) => (g.with_texts_of(), Source::Forced),
        None if texts.is_empty() => (&[Generation::V1][..], Source::NoTexts),
        None => (&Generation::ALL[..], Source::Detected),
    };
    let candidates = distinct_generations(cfa, all);
    if let [g] = candidates[..] {
        return build(g, source);
    }
    let found: Vec<(Generation, usize)> = candidates.iter().map(|&g| (g, texts_found(cfa, &texts, g))).collect();
    let complete: Vec<Generation> = found.iter().filter(|&&(_, n)| n == texts.len()).map(|&(g, _)| g).collect();
    let mut rest: Vec<(Generation, usize)> = found.iter().copied().filter(|&(_, n)| n < texts.len()).collect();
    rest.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    let rest: Vec<Generation> = rest.into_iter().map(|(g, _)| g).collect();
    // The best product so far and its score (missed states, unused MATCH transitions, fallbacks).
    let mut best: Option<((usize, usize, usize), Product)> = None;
    for group in [complete, rest] {
        for g in group {
            let p = build(g, source);
            let m = p.match_stats(aut);
            let score = (m.missed.len(), m.unused_transitions.len(), p.fallback_firings());
            if best.as_ref().is_none_or(|(b, _)| score < *b) {
                best = Some((score, p));
            }
        }
        if best.as_ref().is_some_and(|((missed, _, _), _)| *missed == 0) {
            break;
        }
    }
    best.expect("at least one generation").1
}

/// `generations` without those that give `cfa` the same edges and texts as one before them: ≥ 2.0
/// texts differ from 1.x only where an edge has a second text, and 2.3+ from 2.0–2.2 only where an
/// edge is built by one of them only (`cfa::Era`).
fn distinct_generations(cfa: &Cfa, generations: &[Generation]) -> Vec<Generation> {
    let has_text2 = cfa.edges().any(|(_, e)| e.text2.is_some());
    let has_era = cfa.edges().any(|(_, e)| e.era != Era::All);
    let same = |a: Generation, b: Generation| {
        let texts = has_text2 && (a == Generation::V1) != (b == Generation::V1);
        let edges = has_era && (a == Generation::V23) != (b == Generation::V23);
        !texts && !edges
    };
    let mut res: Vec<Generation> = Vec::new();
    for &g in generations {
        if !res.iter().any(|&r| same(r, g)) {
            res.push(g);
        }
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::base::SourceFile;

    /// `check(program, automaton, expect)`: builds the CFA of `program`, detects the generation of
    /// `automaton` and prints it with how it was chosen and the states reached.
    fn check(program: &str, automaton: &str, forced: Option<Generation>, expect: &str) {
        let (mut prog, _) = crate::cfront::parse_program(
            SourceFile::new("p.c", program.to_string()),
            crate::cfront::types::DataModel::Ilp32,
        )
        .expect("program");
        let (cfa, _) = crate::cfa::build(&mut prog, &crate::cfa::CfaConfig::default()).expect("cfa");
        let (aut, _) = crate::automaton::parse(&SourceFile::new("a.spc", automaton.to_string())).expect("automaton");
        let names = prog.funcs.iter().map(|f| f.name.clone()).collect();
        let p = detect(&aut, &cfa, names, forced);
        let m = p.match_stats(&aut);
        let res = format!(
            "{} {} reached {}/{} unused {:?} foreign {:?}",
            p.generation.label(),
            p.source.label(),
            m.states_reached,
            m.states,
            m.unused_transitions.iter().map(|(_, l)| l).collect::<Vec<_>>(),
            foreign_text(&cfa, &exact_texts(&aut)),
        );
        assert_eq!(res, expect);
    }

    const PROGRAM: &str = "int f(void);\nint main(void) {\n int x = f();\n if (x) x = 2;\n return 0;\n}\n";

    /// An assumption automaton of `PROGRAM` as CPAchecker writes one: the global prefix, the
    /// declaration, the branch with `then_text` (explored further) and `else_text` (not explored).
    fn automaton(then_text: &str, else_text: &str) -> String {
        let chain = ["", "int f(void);", "int main(void)", "", "int x = f();", "int x = f();"];
        let mut res = String::from(
            "OBSERVER AUTOMATON AssumptionAutomaton\n\nINITIAL STATE ARG0;\n\nSTATE __TRUE :\n    TRUE -> GOTO __TRUE;\n\n\
             STATE __FALSE :\n    TRUE -> GOTO __FALSE;\n\n",
        );
        for (i, text) in chain.iter().enumerate() {
            res += &format!(
                "STATE USEFIRST ARG{i} :\n    MATCH \"{text}\" -> GOTO ARG{};\n    TRUE -> GOTO __TRUE;\n\n",
                i + 1
            );
        }
        res += &format!(
            "STATE USEFIRST ARG6 :\n    MATCH \"{then_text}\" -> GOTO ARG7;\n    MATCH \"{else_text}\" -> GOTO __FALSE;\n    \
             TRUE -> GOTO __TRUE;\n\nSTATE USEFIRST ARG7 :\n    MATCH \"x = 2;\" -> GOTO __FALSE;\n    TRUE -> GOTO __TRUE;\n\n\
             END AUTOMATON\n"
        );
        res
    }

    #[test]
    fn each_generation_is_told_by_its_texts() {
        check(PROGRAM, &automaton("[!(x == 0)]", "[x == 0]"), None, "1.x detected reached 8/8 unused [] foreign None");
        check(PROGRAM, &automaton("[x]", "[!(x)]"), None, "2.x+ detected reached 8/8 unused [] foreign None");
    }

    #[test]
    fn a_forced_generation_is_used_even_when_it_does_not_fit() {
        check(
            PROGRAM,
            &automaton("[x]", "[!(x)]"),
            Some(Generation::V2),
            "2.x+ forced reached 8/8 unused [] foreign None",
        );
        // 1.x texts for `if (x)` are `[!(x == 0)]` (then) and `[x == 0]` (else): matched by the
        // polarity of their texts alone, the branches swap, and `x = 2;` is never seen after `[x]`.
        check(
            PROGRAM,
            &automaton("[x]", "[!(x)]"),
            Some(Generation::V1),
            "1.x forced reached 8/8 unused [41] foreign None",
        );
    }

    #[test]
    fn texts_of_no_generation_are_named() {
        // `[!(x)]` is a 2.x text, `[x != 0]` no generation's: 2.x is tried first, and the only
        // unmatched assume transition of its polarity takes the then-branch.
        check(
            PROGRAM,
            &automaton("[x != 0]", "[!(x)]"),
            None,
            "2.x+ detected reached 8/8 unused [] foreign Some((36, \"[x != 0]\"))",
        );
    }

    #[test]
    fn generations_are_never_mixed_in_one_automaton() {
        // The then-branch in 1.x texts, the else-branch in 2.x texts: both generations find all but
        // one text, 1.x is tried first and fits, and the 2.x transition never fires in it.
        check(PROGRAM, &automaton("[!(x == 0)]", "[!(x)]"), None, "1.x detected reached 8/8 unused [37] foreign None");
    }

    #[test]
    fn an_automaton_without_texts_gets_the_default() {
        let aut =
            "OBSERVER AUTOMATON A\nINITIAL STATE __TRUE;\nSTATE __TRUE :\n    TRUE -> GOTO __TRUE;\nEND AUTOMATON\n";
        check(PROGRAM, aut, None, "1.x no-texts reached 0/0 unused [] foreign None");
    }
}
