//! Finding tasks: CPAchecker output folders (from a directory's file names), SV-COMP task
//! definitions, and CSV tables (`program,automaton[,name]` for coverage; the columns of
//! `svcomp/tasks.csv`, `task,program,expected_verdict,data_model`, for verify). Tasks are named
//! after their folder or file, with as many parent folders as it takes to tell them apart.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::{Inputs, Mode, Task};
use crate::cfront::types::DataModel;

/// The automaton file CPAchecker writes into its output folder.
pub const AUTOMATON_FILE: &str = "AssumptionAutomaton.txt";

/// A task found, before the batch names it.
#[derive(Clone, PartialEq, Debug)]
pub struct Found {
    /// What the child gets.
    pub inputs: Inputs,
    /// A name given explicitly (the `name` column of a table).
    pub name: Option<String>,
    /// Where the task's definition lives: its name is the last component (a file without its
    /// extension; the folder for an `AssumptionAutomaton.txt`), with parents added to tell it apart.
    pub origin: PathBuf,
}

/// The coverage task of a folder with the file names `files`, if it holds an
/// `AssumptionAutomaton.txt`: its program is `program.c`, or else the only `.c` or `.i` file.
pub fn coverage_task_in_dir(dir: &Path, files: &[String]) -> Result<Option<Found>, String> {
    if !files.iter().any(|f| f == AUTOMATON_FILE) {
        return Ok(None);
    }
    let program = if files.iter().any(|f| f == "program.c") {
        "program.c".to_string()
    } else {
        let sources: Vec<&String> = files.iter().filter(|f| f.ends_with(".c") || f.ends_with(".i")).collect();
        match sources.as_slice() {
            [one] => (*one).clone(),
            [] => return Err(format!("{}: {AUTOMATON_FILE} but no program.c (nor a .c or .i file)", dir.display())),
            _ => return Err(format!("{}: {AUTOMATON_FILE} and several programs but no program.c", dir.display())),
        }
    };
    Ok(Some(Found {
        inputs: Inputs::Coverage { program: dir.join(program), automaton: dir.join(AUTOMATON_FILE) },
        name: None,
        origin: dir.join(AUTOMATON_FILE),
    }))
}

/// The verification task of the task definition `path` with the text `text`.
pub fn verify_task_from_yml(path: &Path, text: &str) -> Result<Found, String> {
    let task = crate::verify::task::parse_task(path, text).map_err(|e| e.to_string())?;
    Ok(Found {
        inputs: Inputs::Verify {
            task_file: Some(path.to_path_buf()),
            program: None,
            data_model: None,
            expected: task.expected_verdict,
        },
        name: None,
        origin: path.to_path_buf(),
    })
}

/// The tasks of the CSV table `text` of the file `path`, whose relative paths are resolved against
/// `path`'s folder. Coverage: `program,automaton[,name]`, with or without that header. Verify: a
/// header naming `task` and/or `program`, and optionally `expected_verdict` (`true`/`false`/empty),
/// `data_model` (`ILP32`/`LP64`) and `name`; other columns are ignored.
pub fn tasks_from_csv(path: &Path, text: &str, mode: Mode) -> Result<Vec<Found>, String> {
    let base = path.parent().unwrap_or(Path::new(""));
    let mut reader =
        csv::ReaderBuilder::new().has_headers(false).flexible(true).trim(csv::Trim::All).from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for (i, rec) in reader.records().enumerate() {
        let rec = rec.map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        if rec.iter().all(str::is_empty) {
            continue;
        }
        rows.push((i + 1, rec.iter().map(str::to_string).collect::<Vec<_>>()));
    }
    let Some((_, first)) = rows.first() else { return Ok(Vec::new()) };
    let has_header = first.iter().any(|c| ["program", "automaton", "task", "name"].contains(&c.as_str()));
    let columns: Vec<String> = match (has_header, mode) {
        (true, _) => first.clone(),
        (false, Mode::Coverage) => vec!["program".into(), "automaton".into(), "name".into()],
        (false, Mode::Verify) => {
            return Err(format!(
                "{}:1: a table of verification tasks needs a header (task,program,expected_verdict,data_model)",
                path.display()
            ))
        }
    };
    let col = |name: &str| columns.iter().position(|c| c == name);
    let resolve = |s: &str| if s.is_empty() { None } else { Some(base.join(s)) };
    let mut res = Vec::new();
    for (line, row) in rows.iter().skip(usize::from(has_header)) {
        let at = |msg: String| format!("{}:{line}: {msg}", path.display());
        let get = |name: &str| col(name).and_then(|i| row.get(i)).map(String::as_str).unwrap_or("");
        let name = Some(get("name").to_string()).filter(|n| !n.is_empty());
        let found = match mode {
            Mode::Coverage => {
                let (Some(program), Some(automaton)) = (resolve(get("program")), resolve(get("automaton"))) else {
                    return Err(at("a coverage task needs a program and an automaton".into()));
                };
                Found { origin: automaton.clone(), inputs: Inputs::Coverage { program, automaton }, name }
            }
            Mode::Verify => {
                let task_file = resolve(get("task"));
                let program = if task_file.is_some() { None } else { resolve(get("program")) };
                let expected = match get("expected_verdict").to_ascii_lowercase().as_str() {
                    "" => None,
                    "true" => Some(true),
                    "false" => Some(false),
                    other => return Err(at(format!("expected_verdict is `{other}`, not true, false or empty"))),
                };
                let data_model = match get("data_model") {
                    "" => None,
                    other => match DataModel::from_name(other) {
                        Some(dm) => Some(dm),
                        None => return Err(at(format!("data_model is `{other}`, not ILP32, LP64 or empty"))),
                    },
                };
                let Some(origin) = task_file.clone().or_else(|| program.clone()) else {
                    return Err(at("a verification task needs a task definition or a program".into()));
                };
                Found { origin, inputs: Inputs::Verify { task_file, program, data_model, expected }, name }
            }
        };
        res.push(found);
    }
    Ok(res)
}

/// Names the tasks: an explicit name as given (made safe for a file name), otherwise the last
/// component of the origin (a file's stem; the folder of an `AssumptionAutomaton.txt`), with parent
/// folders joined by `__` in front until no two tasks share a name. Two tasks with the same inputs
/// are one task (the first is kept).
pub fn name_tasks(found: Vec<Found>) -> Result<Vec<Task>, String> {
    let mut seen = BTreeSet::new();
    let found: Vec<Found> = found.into_iter().filter(|f| seen.insert(format!("{:?}", f.inputs))).collect();
    let parts: Vec<Vec<String>> = found.iter().map(|f| name_parts(&f.origin)).collect();
    let mut depth = vec![1usize; found.len()];
    let name_at = |i: usize, depth: &[usize]| -> String {
        if let Some(n) = &found[i].name {
            return sanitize(n);
        }
        let k = depth[i].min(parts[i].len()).max(1);
        let mut p: Vec<&str> = parts[i][..k].iter().map(String::as_str).collect();
        p.reverse();
        sanitize(&p.join("__"))
    };
    loop {
        let mut by_name: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for i in 0..found.len() {
            by_name.entry(name_at(i, &depth)).or_default().push(i);
        }
        let mut grew = false;
        for (name, idxs) in &by_name {
            if idxs.len() < 2 {
                continue;
            }
            let mut group_grew = false;
            for &i in idxs {
                if found[i].name.is_none() && depth[i] < parts[i].len() {
                    depth[i] += 1;
                    group_grew = true;
                }
            }
            grew |= group_grew;
            if !group_grew {
                return Err(format!("two tasks are named `{name}`; give them names (the `name` column)"));
            }
        }
        if !grew {
            break;
        }
    }
    Ok((0..found.len()).map(|i| Task { name: name_at(i, &depth), inputs: found[i].inputs.clone() }).collect())
}

/// The components of a task's origin from the most specific: the file's stem (dropped for
/// `AssumptionAutomaton.txt`, whose folder names the run), then the folders up to the root.
fn name_parts(origin: &Path) -> Vec<String> {
    let mut res = Vec::new();
    if origin.file_name().is_some_and(|n| n != AUTOMATON_FILE) {
        if let Some(stem) = origin.file_stem() {
            res.push(stem.to_string_lossy().into_owned());
        }
    }
    let mut dir = origin.parent();
    while let Some(d) = dir {
        match d.file_name() {
            Some(n) => res.push(n.to_string_lossy().into_owned()),
            None => break,
        }
        dir = d.parent();
    }
    if res.is_empty() {
        res.push("task".into());
    }
    res
}

/// `name` with every character outside `[A-Za-z0-9._+-]` replaced by `_`, and no leading dot (no
/// hidden files, no `..`).
fn sanitize(name: &str) -> String {
    let mut res: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || "._+-".contains(c) { c } else { '_' }).collect();
    if res.starts_with('.') || res.is_empty() {
        res.insert(0, '_');
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(origins: &[&str]) -> Vec<String> {
        let found = origins
            .iter()
            .map(|o| Found {
                inputs: Inputs::Coverage { program: "p.c".into(), automaton: o.into() },
                name: None,
                origin: o.into(),
            })
            .collect();
        name_tasks(found).unwrap().into_iter().map(|t| t.name).collect()
    }

    #[test]
    fn folders_name_runs_and_parents_tell_them_apart() {
        assert_eq!(
            names(&["c/kbtab-value-10s/AssumptionAutomaton.txt", "c/toy/AssumptionAutomaton.txt", "e2e/calls/aa.txt"]),
            ["kbtab-value-10s", "toy", "aa"]
        );
        assert_eq!(
            names(&[
                "a/x/run/AssumptionAutomaton.txt",
                "b/x/run/AssumptionAutomaton.txt",
                "c/other/AssumptionAutomaton.txt"
            ]),
            ["a__x__run", "b__x__run", "other"]
        );
        assert_eq!(names(&["d/my task (1).txt"]), ["my_task__1_"]);
        assert_eq!(names(&["/.hidden/AssumptionAutomaton.txt"]), ["_.hidden"]);
    }

    #[test]
    fn the_same_inputs_twice_are_one_task_and_equal_explicit_names_are_refused() {
        assert_eq!(names(&["x/AssumptionAutomaton.txt", "x/AssumptionAutomaton.txt"]), ["x"]);
        let two = |n: &str, a: &str| Found {
            inputs: Inputs::Coverage { program: "p.c".into(), automaton: a.into() },
            name: Some(n.into()),
            origin: a.into(),
        };
        let e = name_tasks(vec![two("same", "a.txt"), two("same", "b.txt")]).unwrap_err();
        assert!(e.contains("`same`"), "{e}");
    }

    #[test]
    fn a_cpachecker_folder_needs_its_automaton_and_one_program() {
        let files = |f: &[&str]| f.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let d = Path::new("out");
        assert_eq!(coverage_task_in_dir(d, &files(&["program.c", "coverage.info"])), Ok(None));
        let found = coverage_task_in_dir(d, &files(&["AssumptionAutomaton.txt", "x.i", "program.c"])).unwrap().unwrap();
        assert_eq!(
            found.inputs,
            Inputs::Coverage { program: "out/program.c".into(), automaton: "out/AssumptionAutomaton.txt".into() }
        );
        let found = coverage_task_in_dir(d, &files(&["AssumptionAutomaton.txt", "x.i"])).unwrap().unwrap();
        assert!(matches!(found.inputs, Inputs::Coverage { program, .. } if program == Path::new("out/x.i")));
        assert!(coverage_task_in_dir(d, &files(&["AssumptionAutomaton.txt"])).unwrap_err().contains("no program.c"));
        assert!(coverage_task_in_dir(d, &files(&["AssumptionAutomaton.txt", "a.c", "b.c"]))
            .unwrap_err()
            .contains("several programs"));
    }

    #[test]
    fn coverage_tables_with_and_without_header() {
        let p = Path::new("lists/runs.csv");
        let t =
            tasks_from_csv(p, "program,automaton,name\nx/p.c,x/aa.txt,first\n\ny/p.c, /abs/aa.txt\n", Mode::Coverage)
                .unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].inputs, Inputs::Coverage { program: "lists/x/p.c".into(), automaton: "lists/x/aa.txt".into() });
        assert_eq!(t[0].name.as_deref(), Some("first"));
        assert_eq!(t[1].inputs, Inputs::Coverage { program: "lists/y/p.c".into(), automaton: "/abs/aa.txt".into() });
        assert_eq!(t[1].name, None);
        let t = tasks_from_csv(p, "x/p.c,x/aa.txt\n", Mode::Coverage).unwrap();
        assert_eq!(t.len(), 1);
        let e = tasks_from_csv(p, "program,automaton\nx/p.c,\n", Mode::Coverage).unwrap_err();
        assert!(e.starts_with("lists/runs.csv:2: "), "{e}");
    }

    #[test]
    fn verification_tables_read_the_svcomp_columns() {
        let p = Path::new("svcomp/tasks.csv");
        let text = "task,program,expected_verdict,data_model,provenance\n\
                    c/a/x.yml,c/a/x.c,false,ILP32,copy\n\
                    ,c/b/y.c,true,LP64,\n\
                    ,c/b/z.c,,,\n";
        let t = tasks_from_csv(p, text, Mode::Verify).unwrap();
        assert_eq!(
            t[0].inputs,
            Inputs::Verify {
                task_file: Some("svcomp/c/a/x.yml".into()),
                program: None,
                data_model: Some(DataModel::Ilp32),
                expected: Some(false)
            }
        );
        assert_eq!(
            t[1].inputs,
            Inputs::Verify {
                task_file: None,
                program: Some("svcomp/c/b/y.c".into()),
                data_model: Some(DataModel::Lp64),
                expected: Some(true)
            }
        );
        assert!(matches!(t[2].inputs, Inputs::Verify { expected: None, data_model: None, .. }));
        assert!(tasks_from_csv(p, "c/a/x.yml\n", Mode::Verify).unwrap_err().contains("needs a header"));
        let e = tasks_from_csv(p, "task,expected_verdict\nx.yml,maybe\n", Mode::Verify).unwrap_err();
        assert!(e.starts_with("svcomp/tasks.csv:2: expected_verdict is `maybe`"), "{e}");
    }

    #[test]
    fn task_definitions_give_the_expected_verdict() {
        let yml = "format_version: '2.0'\ninput_files: 'b.c'\nproperties:\n  - property_file: ../properties/unreach-call.prp\n    expected_verdict: false\n";
        let f = verify_task_from_yml(Path::new("t/b.yml"), yml).unwrap();
        assert!(matches!(f.inputs, Inputs::Verify { expected: Some(false), .. }));
        assert!(verify_task_from_yml(Path::new("t/b.yml"), "input_files: [").is_err());
    }
}
