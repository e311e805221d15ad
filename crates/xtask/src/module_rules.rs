//! `cargo xtask check-layers`, second part: which module of the page crate (`crates/app/src`)
//! and of the worker crate (`crates/worker/src`) may name which. Reads the sources; for the
//! engineers moving code between modules.
//!
//! Rules:
//! - (a) **views apart**: a view module (`crates/app/src/views/<A>.rs` or `views/<A>/…`) never
//!   reaches another view: no path to `crate::views::<B>` for `B` ≠ `A`, whether written
//!   `crate::views::b…`, in a group (`crate::views::{a, b}`), through `super::…`, or through an
//!   alias (`use crate::views;` then `views::b::f()`). `B` is anything under `views` but `A`,
//!   the registry's own items too (the registry imports every view). The registry
//!   `views/mod.rs` itself is exempt.
//! - (b) **core without views**: the app's core (`session.rs`, `nav.rs`, `worker_client.rs`,
//!   `embed.rs` of `crates/app/src`, or anything under `session/`, `nav/`, `worker_client/`,
//!   `embed/`) never names
//!   `crate::views` at all.
//! - (c) **one request dispatch**: in the worker, only `crates/worker/src/dispatch.rs` names
//!   `ToWorker::` variants (the one `match` on requests); `transport.rs` may name the
//!   `ToWorker` type (to decode it); no other worker file names `ToWorker`.
//! - (d) **no import cycle**: the worker crate's top-level modules, linked by the
//!   `crate::<module>` paths of their code ([`module_imports`]), form no cycle; a cycle found
//!   is reported module by module with where each names the next ([`import_cycle`]). Generic
//!   over a crate's source directory ([`CYCLE_FREE`]), not allow-listed.
//!
//! Paths are read from the code with comments and literals blanked ([`rust_source::blank`]):
//! every path expression, `use` tree and `as` alias counts, with `super`/`self` resolved from
//! the file's module (inline `mod x { … }` included). Not resolved: glob-imported names and
//! re-exports, which this codebase does not use to reach views.
//!
//! Ratchet (rules a–c): [`KNOWN_VIOLATIONS`] lists the violations present when the rules came in, as
//! (file, what it names) pairs. A violation not in it fails; an entry that no longer occurs
//! fails too ("stale"), so the list only shrinks.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use crate::rust_source::{self, Blank};
use crate::util;

/// The directories read, relative to the repository root.
pub const ROOTS: &[&str] = &[APP_SRC, WORKER_SRC];
const APP_SRC: &str = "crates/app/src";
const WORKER_SRC: &str = "crates/worker/src";
/// The app modules (file or directory) that form its core (rule b).
const CORE_MODULES: &[&str] = &["session", "nav", "worker_client", "embed"];
const DISPATCH_FILE: &str = "crates/worker/src/dispatch.rs";
const TRANSPORT_FILE: &str = "crates/worker/src/transport.rs";

/// Today's violations, (file, what it names), to be removed as the refactor fixes them.
/// `what` is `crate::views::<view>` (rules a, b), `ToWorker::<Variant>` or `ToWorker` (rule c).
pub const KNOWN_VIOLATIONS: &[(&str, &str)] = &[];

/// One of the rules; see the module doc.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rule {
    ViewsApart,
    CoreWithoutViews,
    OneDispatch,
}

impl Rule {
    pub const ALL: [Rule; 3] = [Rule::ViewsApart, Rule::CoreWithoutViews, Rule::OneDispatch];

    pub fn describe(self) -> &'static str {
        match self {
            Rule::ViewsApart => "(a) a view module never imports another view module",
            Rule::CoreWithoutViews => "(b) the app's core (session, nav, worker_client, embed) never imports a view",
            Rule::OneDispatch => "(c) only worker dispatch.rs names ToWorker variants (transport.rs may name the type)",
        }
    }
}

/// A (file, what) pair the rules reject, with every line it occurs on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub rule: Rule,
    pub file: String,
    pub what: String,
    pub lines: Vec<usize>,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let lines: Vec<String> = self.lines.iter().map(ToString::to_string).collect();
        write!(f, "{}:{}: names `{}`, against rule {}", self.file, lines.join(","), self.what, self.rule.describe())
    }
}

/// Per rule: how many files it applies to and how many allow-listed violations still occur.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleCount {
    pub rule: Rule,
    pub files: usize,
    pub known: usize,
}

#[derive(Debug, Default)]
pub struct Report {
    pub counts: Vec<RuleCount>,
    /// Violations not in the allow-list.
    pub new: Vec<Violation>,
    /// Allow-list entries that no longer occur (or are listed twice).
    pub stale: Vec<(String, String)>,
}

impl Report {
    pub fn known_total(&self) -> usize {
        self.counts.iter().map(|c| c.known).sum()
    }
}

/// Checks `files` ((path relative to the repository root, text) pairs; files outside the two
/// crates are ignored) against the rules, `known` being the allow-list.
pub fn check(files: &[(String, String)], known: &[(&str, &str)]) -> Report {
    let mut found: BTreeMap<(String, String), Violation> = BTreeMap::new();
    let mut files_per_rule: BTreeMap<Rule, usize> = BTreeMap::new();
    for (file, text) in files {
        let Some(rule) = rule_for(file) else { continue };
        *files_per_rule.entry(rule).or_default() += 1;
        for (what, line) in file_violations(rule, file, text) {
            let entry = found.entry((file.clone(), what.clone())).or_insert_with(|| Violation {
                rule,
                file: file.clone(),
                what,
                lines: Vec::new(),
            });
            if !entry.lines.contains(&line) {
                entry.lines.push(line);
            }
        }
    }
    let mut report = Report::default();
    let mut listed: BTreeSet<(String, String)> = BTreeSet::new();
    let mut known_per_rule: BTreeMap<Rule, usize> = BTreeMap::new();
    for &(file, what) in known {
        let key = (file.to_string(), what.to_string());
        if !listed.insert(key.clone()) {
            report.stale.push(key); // listed twice
            continue;
        }
        match found.get(&key) {
            Some(v) => *known_per_rule.entry(v.rule).or_default() += 1,
            None => report.stale.push(key),
        }
    }
    report.new = found.into_iter().filter(|(key, _)| !listed.contains(key)).map(|(_, v)| v).collect();
    report.counts = Rule::ALL
        .iter()
        .map(|&rule| RuleCount {
            rule,
            files: files_per_rule.get(&rule).copied().unwrap_or(0),
            known: known_per_rule.get(&rule).copied().unwrap_or(0),
        })
        .collect();
    report
}

/// Which rule applies to a file (at most one: views, core and worker files are disjoint).
fn rule_for(file: &str) -> Option<Rule> {
    if file.starts_with(&format!("{WORKER_SRC}/")) && Path::new(file).extension().is_some_and(|e| e == "rs") {
        return Some(Rule::OneDispatch);
    }
    let module = app_module(file)?;
    match module.first().map(String::as_str) {
        Some("views") if module.len() >= 2 => Some(Rule::ViewsApart),
        Some(first) if CORE_MODULES.contains(&first) => Some(Rule::CoreWithoutViews),
        _ => None,
    }
}

/// The module path of an app source file: `views/swimlane/mod.rs` → `[views, swimlane]`,
/// `lib.rs` → `[]`. `None` outside `crates/app/src`.
fn app_module(file: &str) -> Option<Vec<String>> {
    module_of(file, APP_SRC)
}

/// The module path of a source file of the crate whose sources are under `src_dir`:
/// `views/swimlane/mod.rs` → `[views, swimlane]`, `lib.rs` / `main.rs` → `[]`. `None`
/// outside `src_dir`.
fn module_of(file: &str, src_dir: &str) -> Option<Vec<String>> {
    let rel = file.strip_prefix(src_dir)?.strip_prefix('/')?.strip_suffix(".rs")?;
    let mut parts: Vec<String> = rel.split('/').map(String::from).collect();
    if parts.last().is_some_and(|p| p == "mod") || (parts.len() == 1 && (parts[0] == "lib" || parts[0] == "main")) {
        parts.pop();
    }
    Some(parts)
}

/// The (what, line) violations of one file under `rule`.
fn file_violations(rule: Rule, file: &str, text: &str) -> Vec<(String, usize)> {
    let code = rust_source::blank(text, Blank::CommentsAndLiterals);
    let paths = paths(&code);
    match rule {
        Rule::OneDispatch => request_names(&paths, file),
        Rule::ViewsApart | Rule::CoreWithoutViews => {
            let module = app_module(file).unwrap_or_default();
            view_references(&paths, &module)
                .into_iter()
                .filter_map(|(target, line)| {
                    let view = target.get(1);
                    let what = match (rule, view) {
                        (Rule::ViewsApart, Some(b)) if *b != module[1] => format!("crate::views::{b}"),
                        (Rule::CoreWithoutViews, Some(b)) => format!("crate::views::{b}"),
                        (Rule::CoreWithoutViews, None) => "crate::views".to_string(),
                        _ => return None,
                    };
                    Some((what, line))
                })
                .collect()
        }
    }
}

/// Rule (c): every `ToWorker` (type) and `ToWorker::X` (variant) a worker file names that it
/// may not.
fn request_names(paths: &[PathRef], file: &str) -> Vec<(String, usize)> {
    if file == DISPATCH_FILE {
        return Vec::new();
    }
    // `use pypto_protocol::ToWorker as Request;` makes `Request` a name for it.
    let mut names: BTreeSet<&str> = BTreeSet::from(["ToWorker"]);
    for p in paths.iter().filter(|p| p.in_use && p.segs.last().is_some_and(|s| s == "ToWorker")) {
        if let Some(alias) = &p.alias {
            names.insert(alias);
        }
    }
    let mut out = Vec::new();
    for p in paths {
        let Some(k) = p.segs.iter().position(|s| names.contains(s.as_str())) else { continue };
        // A segment after the name is a variant (`ToWorker::OpenUrl`); none, the type.
        match p.segs.get(k + 1) {
            Some(variant) => out.push((format!("ToWorker::{variant}"), p.line)),
            None if file != TRANSPORT_FILE => out.push(("ToWorker".to_string(), p.line)),
            None => {}
        }
    }
    out
}

/// Every path of the file that resolves into `crate::views`, resolved (`[views, …]`), with its
/// line.
fn view_references(paths: &[PathRef], file_module: &[String]) -> Vec<(Vec<String>, usize)> {
    // Aliases: names a `use` brings in for something under `views` (`use crate::views;`,
    // `use super::super::views as v;`, `use crate::views::{self as all}`).
    let mut aliases: HashMap<String, Vec<String>> = HashMap::new();
    for p in paths.iter().filter(|p| p.in_use) {
        let Some(target) = resolve(&p.segs, &p.module(file_module), &HashMap::new()) else { continue };
        let name = p.alias.clone().or_else(|| p.segs.last().cloned());
        if let Some(name) = name.filter(|n| n != "*" && target.first().is_some_and(|s| s == "views")) {
            aliases.insert(name, target);
        }
    }
    paths
        .iter()
        .filter_map(|p| {
            let target = resolve(&p.segs, &p.module(file_module), &aliases)?;
            (target.first().is_some_and(|s| s == "views")).then_some((target, p.line))
        })
        .collect()
}

/// The crate-absolute path (without `crate`) of `segs` seen from `module`, or `None` when it
/// does not start at `crate`, `self`, `super` or a known alias.
fn resolve(segs: &[String], module: &[String], aliases: &HashMap<String, Vec<String>>) -> Option<Vec<String>> {
    let first = segs.first()?;
    let mut base: Vec<String> = match first.as_str() {
        "crate" => Vec::new(),
        "self" => module.to_vec(),
        "super" => {
            let up = segs.iter().take_while(|s| *s == "super").count();
            module.get(..module.len().checked_sub(up)?)?.to_vec()
        }
        // A bare alias alone (`views`) is the `use` itself or a local name; `views::x` is a use.
        name if segs.len() >= 2 => aliases.get(name)?.clone(),
        _ => return None,
    };
    let skip = if first == "super" { segs.iter().take_while(|s| *s == "super").count() } else { 1 };
    base.extend(segs[skip..].iter().cloned());
    Some(base)
}

/// A path as written: its segments (a `use` group expanded, trailing `self` dropped), the line
/// of its last segment, its `as` alias, whether it is in a `use` item, and the inline modules
/// (`mod x { … }`) it sits in.
#[derive(Debug, Clone, PartialEq, Eq)]
struct PathRef {
    segs: Vec<String>,
    line: usize,
    alias: Option<String>,
    in_use: bool,
    inline_modules: Vec<String>,
}

impl PathRef {
    /// The module this path is written in.
    fn module(&self, file_module: &[String]) -> Vec<String> {
        file_module.iter().chain(&self.inline_modules).cloned().collect()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Ident(String),
    PathSep,
    Open,
    Close,
    Comma,
    Star,
    Other,
}

fn tokens(code: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < c.len() {
        let ch = c[i];
        let tok = if ch == '\n' {
            line += 1;
            i += 1;
            continue;
        } else if ch.is_whitespace() {
            i += 1;
            continue;
        } else if ch.is_ascii_alphabetic() || ch == '_' || ch.is_ascii_digit() {
            let start = i;
            while i < c.len() && (c[i].is_ascii_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            if ch.is_ascii_digit() {
                Tok::Other
            } else {
                Tok::Ident(c[start..i].iter().collect())
            }
        } else {
            i += 1;
            match ch {
                ':' if c.get(i) == Some(&':') => {
                    i += 1;
                    Tok::PathSep
                }
                '{' => Tok::Open,
                '}' => Tok::Close,
                ',' => Tok::Comma,
                '*' => Tok::Star,
                _ => Tok::Other,
            }
        };
        out.push((tok, line));
    }
    out
}

/// Every path in `code` (comments and literals already blanked).
fn paths(code: &str) -> Vec<PathRef> {
    let toks = tokens(code);
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut inline: Vec<(String, usize)> = Vec::new(); // (module name, depth inside its braces)
    let mut i = 0;
    while i < toks.len() {
        match &toks[i].0 {
            Tok::Open => {
                depth += 1;
                if let (Some((Tok::Ident(kw), _)), Some((Tok::Ident(name), _))) =
                    (i.checked_sub(2).and_then(|j| toks.get(j)), i.checked_sub(1).and_then(|j| toks.get(j)))
                {
                    if kw == "mod" {
                        inline.push((name.clone(), depth));
                    }
                }
                i += 1;
            }
            Tok::Close => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
            }
            Tok::Ident(_) if i == 0 || toks[i - 1].0 != Tok::PathSep => {
                let in_use = i > 0 && matches!(&toks[i - 1].0, Tok::Ident(kw) if kw == "use");
                let mut leaves = Vec::new();
                i = parse_tree(&toks, i, &[], &mut leaves);
                let inline_modules: Vec<String> = inline.iter().map(|(n, _)| n.clone()).collect();
                out.extend(leaves.into_iter().map(|(segs, line, alias)| PathRef {
                    segs,
                    line,
                    alias,
                    in_use,
                    inline_modules: inline_modules.clone(),
                }));
            }
            _ => i += 1,
        }
    }
    out
}

type Leaf = (Vec<String>, usize, Option<String>);

/// Parses a path or `use` tree at `i` with `prefix` before it; pushes its leaves; returns the
/// index after it (always past `i`).
fn parse_tree(toks: &[(Tok, usize)], mut i: usize, prefix: &[String], out: &mut Vec<Leaf>) -> usize {
    let Some((tok, line)) = toks.get(i) else { return i + 1 };
    match tok {
        Tok::Open => parse_group(toks, i, prefix, out),
        Tok::Star => {
            out.push((prefix.iter().cloned().chain(["*".to_string()]).collect(), *line, None));
            i + 1
        }
        Tok::Ident(first) => {
            let mut segs: Vec<String> = prefix.to_vec();
            segs.push(first.clone());
            let mut line = *line;
            i += 1;
            while toks.get(i).is_some_and(|t| t.0 == Tok::PathSep) {
                match toks.get(i + 1) {
                    Some((Tok::Ident(s), l)) => {
                        segs.push(s.clone());
                        line = *l;
                        i += 2;
                    }
                    Some((Tok::Open, _)) => return parse_group(toks, i + 1, &segs, out),
                    Some((Tok::Star, l)) => {
                        segs.push("*".to_string());
                        out.push((segs, *l, None));
                        return i + 2;
                    }
                    _ => break, // `::<` (turbofish) and the like end the path
                }
            }
            let mut alias = None;
            if let (Some((Tok::Ident(kw), _)), Some((Tok::Ident(name), _))) = (toks.get(i), toks.get(i + 1)) {
                if kw == "as" {
                    alias = Some(name.clone());
                    i += 2;
                }
            }
            if segs.len() > 1 && segs.last().is_some_and(|s| s == "self") {
                segs.pop();
            }
            out.push((segs, line, alias));
            i
        }
        _ => i + 1,
    }
}

/// A `use` group `{…}` opening at `i`, each member prefixed by `prefix`.
fn parse_group(toks: &[(Tok, usize)], open: usize, prefix: &[String], out: &mut Vec<Leaf>) -> usize {
    let mut i = open + 1;
    loop {
        match toks.get(i).map(|t| &t.0) {
            None => return i,
            Some(Tok::Close) => return i + 1,
            Some(Tok::Ident(_) | Tok::Open | Tok::Star) => i = parse_tree(toks, i, prefix, out),
            Some(_) => i += 1,
        }
    }
}

/// Rule (d), as printed.
const RULE_D: &str = "(d) the worker crate's modules form no import cycle";

/// The crates (source directories) whose modules must form no import cycle (rule d). The
/// check is generic over a crate's source directory; the page crate (`crates/app/src`) is
/// not listed yet.
pub const CYCLE_FREE: &[&str] = &[WORKER_SRC];

/// The root module's name in the import graph (`lib.rs`, `main.rs`).
const ROOT_MODULE: &str = "crate";

/// An import cycle among a crate's top-level modules: `modules[0]` imports `modules[1]` …
/// and the last imports `modules[0]`; `at[i]` is where `modules[i]` names the next one (file,
/// line of its first such path).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportCycle {
    pub modules: Vec<String>,
    pub at: Vec<(String, usize)>,
}

impl std::fmt::Display for ImportCycle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (module, (file, line)) in self.modules.iter().zip(&self.at) {
            write!(f, "{module} ({file}:{line}) → ")?;
        }
        write!(f, "{}", self.modules.first().map_or("", String::as_str))
    }
}

/// The import graph of the crate under `src_dir` (files elsewhere in `files` are ignored):
/// per top-level module (`foo` for `foo.rs`, `foo/mod.rs` and `foo/…`; [`ROOT_MODULE`] for
/// `lib.rs` / `main.rs`), the other top-level modules its code names, each with the first
/// (file, line) naming it. A module is named by a `crate::m…` path (in a `use` tree too), a
/// `super::…` / `self::…` path that resolves to `m`, or in the root file a `m::…` path of a
/// module `m` of the crate; a path to an item of the root file (`crate::f`) names the root.
/// Comments and literals do not count ([`rust_source::blank`]).
pub fn module_imports(files: &[(String, String)], src_dir: &str) -> ImportGraph {
    let top = |module: &[String]| module.first().cloned().unwrap_or_else(|| ROOT_MODULE.to_string());
    let crate_files: Vec<(&String, &String, Vec<String>)> =
        files.iter().filter_map(|(file, text)| Some((file, text, module_of(file, src_dir)?))).collect();
    let modules: BTreeSet<String> = crate_files.iter().filter_map(|(_, _, m)| m.first().cloned()).collect();
    let mut graph = ImportGraph::new();
    for (file, text, module) in &crate_files {
        let from = top(module);
        let edges = graph.entry(from.clone()).or_default();
        let code = rust_source::blank(text, Blank::CommentsAndLiterals);
        for p in paths(&code) {
            let here = p.module(module);
            let target = match resolve(&p.segs, &here, &HashMap::new()) {
                Some(target) => target,
                // In the root file, `m::…` names module `m`.
                None if here.is_empty() && p.segs.len() >= 2 && p.segs.first().is_some_and(|s| modules.contains(s)) => p.segs.clone(),
                None => continue,
            };
            let to = match target.first() {
                Some(m) if modules.contains(m) => m.clone(),
                // `crate::f` (an item of the root), or `crate` itself.
                Some(_) => ROOT_MODULE.to_string(),
                None => continue,
            };
            if to != from {
                edges.entry(to).or_insert_with(|| ((*file).clone(), p.line));
            }
        }
    }
    graph
}

/// An import graph: module → (module it names → where it first does).
type ImportGraph = BTreeMap<String, BTreeMap<String, (String, usize)>>;

/// The first import cycle (modules in name order, depth first) of the crate under
/// `src_dir`, if any.
pub fn import_cycle(files: &[(String, String)], src_dir: &str) -> Option<ImportCycle> {
    let graph = module_imports(files, src_dir);
    // Absent = not visited, `true` = on the current path, `false` = done.
    let mut on_path: BTreeMap<&str, bool> = BTreeMap::new();
    for m in graph.keys() {
        if on_path.contains_key(m.as_str()) {
            continue;
        }
        let mut path = Vec::new();
        if let Some(cycle) = cycle_from(m, &graph, &mut on_path, &mut path) {
            let at = cycle
                .iter()
                .enumerate()
                .map(|(i, from)| {
                    let to = cycle.get((i + 1) % cycle.len()).copied().unwrap_or_default();
                    graph.get(*from).and_then(|e| e.get(to)).cloned().unwrap_or_default()
                })
                .collect();
            return Some(ImportCycle { modules: cycle.into_iter().map(String::from).collect(), at });
        }
    }
    None
}

/// Depth-first from `m` (`path` = the modules above it): the first cycle through a module
/// on the path.
fn cycle_from<'a>(
    m: &'a str,
    graph: &'a ImportGraph,
    on_path: &mut BTreeMap<&'a str, bool>,
    path: &mut Vec<&'a str>,
) -> Option<Vec<&'a str>> {
    on_path.insert(m, true);
    path.push(m);
    for next in graph.get(m).into_iter().flat_map(BTreeMap::keys) {
        match on_path.get(next.as_str()) {
            Some(true) => {
                let from = path.iter().position(|x| *x == next.as_str()).unwrap_or(0);
                return Some(path.get(from..).unwrap_or_default().to_vec());
            }
            Some(false) => {}
            None => {
                if let Some(cycle) = cycle_from(next, graph, on_path, path) {
                    return Some(cycle);
                }
            }
        }
    }
    path.pop();
    on_path.insert(m, false);
    None
}

/// `cargo xtask check-layers`' module rules: reads the two crates, prints a line per rule.
pub fn run() -> Result<(), String> {
    util::step("check-layers: module rules");
    let root = util::root();
    let mut files = Vec::new();
    for dir in ROOTS {
        let found = rust_source::read_tree(&root, dir)?;
        if found.is_empty() {
            return Err(format!("no .rs files under {dir}; update ROOTS in crates/xtask/src/module_rules.rs if it moved"));
        }
        files.extend(found);
    }
    let report = check(&files, KNOWN_VIOLATIONS);
    let cycles: Vec<(&str, Option<ImportCycle>)> = CYCLE_FREE.iter().map(|dir| (*dir, import_cycle(&files, dir))).collect();
    let failed = !report.new.is_empty() || !report.stale.is_empty() || cycles.iter().any(|(_, c)| c.is_some());
    for c in &report.counts {
        let new = report.new.iter().filter(|v| v.rule == c.rule).count();
        let files = if c.files == 1 { "file" } else { "files" };
        let line = format!("{}: {} {files}, {} known violations left", c.rule.describe(), c.files, c.known);
        if new == 0 {
            println!("  ok  {line}");
        } else {
            println!("  FAIL  {line}, {new} new");
        }
    }
    for (dir, cycle) in &cycles {
        let modules = module_imports(&files, dir).len();
        match cycle {
            None => println!("  ok  {RULE_D}: {dir}, {modules} modules"),
            Some(c) => {
                println!("  FAIL  {RULE_D}: {dir}, {modules} modules");
                eprintln!("  MODULE IMPORT CYCLE in {dir}: {c}");
            }
        }
    }
    for v in &report.new {
        eprintln!("  MODULE RULE VIOLATION: {v}");
    }
    for (file, what) in &report.stale {
        eprintln!("  stale allow-list entry (\"{file}\", \"{what}\"): no longer occurs (or is listed twice); remove it from KNOWN_VIOLATIONS in crates/xtask/src/module_rules.rs");
    }
    if failed {
        return Err(format!(
            "module rules: {} new violation(s), {} stale allow-list entr{}, {} import cycle(s) (see above)",
            report.new.len(),
            report.stale.len(),
            if report.stale.len() == 1 { "y" } else { "ies" },
            cycles.iter().filter(|(_, c)| c.is_some()).count()
        ));
    }
    println!("  ok  module rules: {} rules, {} known violations left", Rule::ALL.len() + 1, report.known_total());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter().map(|(f, t)| ((*f).to_string(), (*t).to_string())).collect()
    }

    /// The (file, what, lines) of the new violations of `list` with an empty allow-list.
    fn found(list: &[(&str, &str)]) -> Vec<(String, String, Vec<usize>)> {
        check(&files(list), &[]).new.into_iter().map(|v| (v.file, v.what, v.lines)).collect()
    }

    fn one(file: &str, what: &str, lines: &[usize]) -> (String, String, Vec<usize>) {
        (file.to_string(), what.to_string(), lines.to_vec())
    }

    const VIEW_A: &str = "crates/app/src/views/a.rs";

    #[test]
    fn a_view_may_not_use_another_view() {
        let text = "use crate::views::b::Thing;\nuse crate::views::a::Own;\nfn f() { crate::views::c::go(); }\n";
        assert_eq!(found(&[(VIEW_A, text)]), vec![one(VIEW_A, "crate::views::b", &[1]), one(VIEW_A, "crate::views::c", &[3])]);
    }

    #[test]
    fn files_under_a_view_directory_belong_to_that_view() {
        let file = "crates/app/src/views/a/deep/x.rs";
        let text = "use crate::views::a::y;\nfn f() { crate::views::b::f(); }\n";
        assert_eq!(found(&[(file, text)]), vec![one(file, "crate::views::b", &[2])]);
    }

    #[test]
    fn grouped_imports_are_expanded() {
        let file = "crates/app/src/views/a/mod.rs";
        let text = "use crate::views::{a::x, b::{c, d},\n    e};\nuse crate::{state::AppState, views::f};\n";
        assert_eq!(
            found(&[(file, text)]),
            vec![one(file, "crate::views::b", &[1]), one(file, "crate::views::e", &[2]), one(file, "crate::views::f", &[3])]
        );
    }

    #[test]
    fn super_paths_are_resolved_from_the_file_module() {
        let file = "crates/app/src/views/a/p/q.rs";
        let text =
            "use super::super::{highlight, DATA};\nuse super::super::super::b;\nfn f() { super::super::super::c::go(); self::x(); }\n";
        assert_eq!(found(&[(file, text)]), vec![one(file, "crate::views::b", &[2]), one(file, "crate::views::c", &[3])]);
        // From views/a.rs, `super::b` is a sibling view.
        assert_eq!(found(&[(VIEW_A, "use super::b::X;\n")]), vec![one(VIEW_A, "crate::views::b", &[1])]);
    }

    #[test]
    fn inline_modules_shift_super() {
        let text = "fn f() {}\n#[cfg(test)]\nmod tests {\n    use super::*;\n    fn g() { if true { super::f(); } }\n}\nuse super::b;\n";
        assert_eq!(found(&[(VIEW_A, text)]), vec![one(VIEW_A, "crate::views::b", &[7])]);
    }

    #[test]
    fn aliases_of_views_are_followed() {
        let text = "use crate::views;\nuse crate::views::{self as all};\nfn f() { views::b::go(); all::c::go(); views::a::own(); }\n";
        assert_eq!(found(&[(VIEW_A, text)]), vec![one(VIEW_A, "crate::views::b", &[3]), one(VIEW_A, "crate::views::c", &[3])]);
    }

    #[test]
    fn comments_and_strings_do_not_count() {
        let text =
            "//! crate::views::b\n/// uses crate::views::c\nfn f() { g(\"crate::views::d\"); } // crate::views::e\n/* crate::views::f */\n";
        assert!(found(&[(VIEW_A, text)]).is_empty());
    }

    #[test]
    fn the_registry_and_other_app_files_are_exempt() {
        let text = "pub mod b;\nuse crate::views::b::X;\nfn f() { b::go(); crate::views::c::go(); }\n";
        assert!(
            found(&[("crates/app/src/views/mod.rs", text), ("crates/app/src/state.rs", text), ("crates/app/src/lib.rs", text)]).is_empty()
        );
    }

    #[test]
    fn the_core_may_not_name_views_at_all() {
        let core = [
            "crates/app/src/worker_client.rs",
            "crates/app/src/session.rs",
            "crates/app/src/nav/mod.rs",
            "crates/app/src/session/store.rs",
            "crates/app/src/embed/mod.rs",
            "crates/app/src/embed/protocol.rs",
        ];
        for file in core {
            let text = "use crate::views;\nfn f() { crate::views::b::go(); }\n";
            assert_eq!(found(&[(file, text)]), vec![one(file, "crate::views", &[1]), one(file, "crate::views::b", &[2])], "{file}");
        }
        assert!(found(&[("crates/app/src/navigation.rs", "use crate::views::b;\n")]).is_empty());
    }

    const SESSION: &str = "crates/worker/src/session.rs";

    #[test]
    fn only_dispatch_names_request_variants() {
        let text = "use pypto_protocol::{FromWorker, ToWorker};\nfn h(m: ToWorker) { match m { ToWorker::OpenUrl { url } => {}\n ToWorker::Timeline { .. } => {} } FromWorker::Ready; }\n";
        assert!(found(&[(DISPATCH_FILE, text)]).is_empty());
        assert_eq!(
            found(&[(SESSION, text)]),
            vec![one(SESSION, "ToWorker", &[1, 2]), one(SESSION, "ToWorker::OpenUrl", &[2]), one(SESSION, "ToWorker::Timeline", &[3])]
        );
    }

    #[test]
    fn transport_may_name_the_type_only() {
        let text = "use pypto_protocol::{FromWorker, ToWorker};\nfn d(v: JsValue) -> ToWorker { from_value::<ToWorker>(v) }\nfn t() { ToWorker::DebugPanic; }\n";
        assert_eq!(found(&[(TRANSPORT_FILE, text)]), vec![one(TRANSPORT_FILE, "ToWorker::DebugPanic", &[3])]);
    }

    #[test]
    fn request_aliases_groups_and_comments() {
        let text = "//! answers `ToWorker::PerfPaths`\n/// `ToWorker::Search`\nuse pypto_protocol::ToWorker as Req;\nuse pypto_protocol::ToWorker::{OpenUrl, Search};\nfn f() { Req::DebugPanic; g(\"ToWorker::X\"); }\n";
        assert_eq!(
            found(&[(SESSION, text)]),
            vec![
                one(SESSION, "ToWorker", &[3]),
                one(SESSION, "ToWorker::DebugPanic", &[5]),
                one(SESSION, "ToWorker::OpenUrl", &[4]),
                one(SESSION, "ToWorker::Search", &[4]),
            ]
        );
        assert!(found(&[("crates/worker/src/graph.rs", "//! `ToWorker::DepGraph` requests\nfn f() {}\n")]).is_empty());
    }

    #[test]
    fn ratchet_known_violations_pass_and_are_counted() {
        let list = files(&[(VIEW_A, "use crate::views::b::X;\n"), (SESSION, "fn f() { ToWorker::OpenUrl; }\n")]);
        let report = check(&list, &[(VIEW_A, "crate::views::b"), (SESSION, "ToWorker::OpenUrl")]);
        assert!(report.new.is_empty() && report.stale.is_empty(), "{report:?}");
        assert_eq!(report.known_total(), 2);
        let counts: Vec<(Rule, usize, usize)> = report.counts.iter().map(|c| (c.rule, c.files, c.known)).collect();
        assert_eq!(counts, vec![(Rule::ViewsApart, 1, 1), (Rule::CoreWithoutViews, 0, 0), (Rule::OneDispatch, 1, 1)]);
    }

    #[test]
    fn ratchet_a_new_violation_fails() {
        let list = files(&[(VIEW_A, "use crate::views::b::X;\nuse crate::views::c::Y;\n")]);
        let report = check(&list, &[(VIEW_A, "crate::views::b")]);
        assert_eq!(report.new.len(), 1);
        let message = report.new[0].to_string();
        assert!(message.starts_with("crates/app/src/views/a.rs:2: names `crate::views::c`, against rule (a)"), "{message}");
        assert!(report.stale.is_empty());
    }

    #[test]
    fn ratchet_a_stale_or_doubled_entry_fails() {
        let list = files(&[(VIEW_A, "use crate::views::b::X;\n")]);
        let report =
            check(&list, &[(VIEW_A, "crate::views::b"), (VIEW_A, "crate::views::gone"), ("crates/app/src/old.rs", "crate::views::b")]);
        assert!(report.new.is_empty());
        assert_eq!(
            report.stale,
            vec![
                (VIEW_A.to_string(), "crate::views::gone".to_string()),
                ("crates/app/src/old.rs".to_string(), "crate::views::b".to_string())
            ]
        );
        let doubled = check(&list, &[(VIEW_A, "crate::views::b"), (VIEW_A, "crate::views::b")]);
        assert_eq!(doubled.stale.len(), 1);
        assert_eq!(doubled.known_total(), 1);
    }

    #[test]
    fn module_paths() {
        let m = |f: &str| app_module(f).map(|v| v.join("::"));
        assert_eq!(m("crates/app/src/lib.rs").as_deref(), Some(""));
        assert_eq!(m("crates/app/src/views/mod.rs").as_deref(), Some("views"));
        assert_eq!(m("crates/app/src/views/swimlane/panel/paths.rs").as_deref(), Some("views::swimlane::panel::paths"));
        assert_eq!(m("crates/worker/src/lib.rs"), None);
    }

    const WORKER: &str = "crates/worker/src";

    fn cycle_of(list: &[(&str, &str)]) -> Option<ImportCycle> {
        import_cycle(&files(list), WORKER)
    }

    fn cycle(modules: &[&str], at: Vec<(String, usize)>) -> ImportCycle {
        ImportCycle { modules: names(modules), at }
    }

    fn at(file: &str, line: usize) -> (String, usize) {
        (format!("{WORKER}/{file}"), line)
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn an_import_cycle_is_found_with_where_each_module_names_the_next() {
        let list = [
            ("crates/worker/src/a.rs", "use crate::b::X;\n"),
            ("crates/worker/src/b.rs", "fn f() {\n    crate::c::g();\n}\n"),
            ("crates/worker/src/c.rs", "use crate::{a, d};\n"),
            ("crates/worker/src/d.rs", "fn d() {}\n"),
        ];
        assert_eq!(cycle_of(&list), Some(cycle(&["a", "b", "c"], vec![at("a.rs", 1), at("b.rs", 2), at("c.rs", 1)])));
        let message = import_cycle(&files(&list), WORKER).map(|c| c.to_string()).unwrap_or_default();
        assert_eq!(message, "a (crates/worker/src/a.rs:1) → b (crates/worker/src/b.rs:2) → c (crates/worker/src/c.rs:1) → a");
    }

    #[test]
    fn layers_without_a_cycle_pass() {
        // A diamond: top → {left, right} → leaf, and the root above all.
        let list = [
            ("crates/worker/src/lib.rs", "mod top;\nmod leaf;\npub fn start() { top::go(); leaf::x(); }\n"),
            ("crates/worker/src/top.rs", "use crate::{left, right};\n"),
            ("crates/worker/src/left.rs", "use crate::leaf::X;\n"),
            ("crates/worker/src/right.rs", "fn f() { crate::leaf::y(); }\n"),
            ("crates/worker/src/leaf.rs", "pub fn x() {}\n"),
        ];
        assert_eq!(cycle_of(&list), None);
        let graph = module_imports(&files(&list), WORKER);
        let edges = |m: &str| graph.get(m).map(|e| e.keys().cloned().collect::<Vec<_>>()).unwrap_or_default();
        assert_eq!(edges("crate"), names(&["leaf", "top"]));
        assert_eq!(edges("top"), names(&["left", "right"]));
        assert_eq!(edges("leaf"), Vec::<String>::new());
    }

    #[test]
    fn comments_strings_and_other_crates_do_not_make_a_cycle() {
        let list = [
            (
                "crates/worker/src/a.rs",
                "//! answers through [`crate::b`]\n/// crate::b::X\nfn f() { g(\"crate::b::x\"); }\nuse pypto_b::b;\n",
            ),
            ("crates/worker/src/b.rs", "use crate::a;\n/* crate::a */\n"),
        ];
        assert_eq!(cycle_of(&list), None);
    }

    #[test]
    fn super_self_and_nested_files_count_as_their_top_level_module() {
        let list = [
            ("crates/worker/src/a/mod.rs", "mod inner;\nuse self::inner::Y;\n"),
            ("crates/worker/src/a/inner.rs", "use super::Z;\nfn f() { super::super::b::go(); }\n"),
            ("crates/worker/src/b.rs", "use crate::a::inner::Y;\n"),
        ];
        assert_eq!(cycle_of(&list), Some(cycle(&["a", "b"], vec![at("a/inner.rs", 2), at("b.rs", 1)])));
        // Within a module: no cycle.
        assert_eq!(cycle_of(&list[..2]), None);
    }

    #[test]
    fn naming_an_item_of_the_root_file_is_an_import_of_the_root() {
        let list = [
            ("crates/worker/src/lib.rs", "mod a;\nmod b;\npub fn start() {\n    a::go();\n}\n"),
            ("crates/worker/src/a.rs", "use crate::b::x;\n"),
            ("crates/worker/src/b.rs", "fn f() { crate::start(); }\n"),
        ];
        assert_eq!(cycle_of(&list), Some(cycle(&["a", "b", "crate"], vec![at("a.rs", 1), at("b.rs", 1), at("lib.rs", 4)])));
    }

    #[test]
    fn the_cycle_check_is_per_crate_source_directory() {
        let list = [
            ("crates/app/src/a.rs", "use crate::b::X;\n"),
            ("crates/app/src/b.rs", "use crate::a::Y;\n"),
            ("crates/worker/src/a.rs", "use crate::b::X;\n"),
            ("crates/worker/src/b.rs", "fn b() {}\n"),
        ];
        assert_eq!(cycle_of(&list), None);
        let app = import_cycle(&files(&list), APP_SRC).map(|c| c.modules);
        assert_eq!(app, Some(names(&["a", "b"])));
        assert_eq!(CYCLE_FREE, &[WORKER_SRC], "rule (d) is not enabled for the page crate yet");
    }
}
