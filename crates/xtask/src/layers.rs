//! `cargo xtask check-layers`: the pure layers (`pypto-vocab`, `pypto-columns`,
//! `pypto-formats`, `pypto-analysis`, `pypto-protocol`, `pypto-replies`) must not depend,
//! through normal dependencies at any depth, on the web stack (wasm-bindgen, web-sys, js-sys,
//! gloo*, leptos*). Reads `cargo metadata --format-version 1`.
//!
//! The metadata's resolve graph is the whole workspace's (all targets, features unified), so
//! this check is conservative: a violation report prints the dependency chain to judge it.
//!
//! Then the module rules inside the page and worker crates ([`module_rules`]).

use std::collections::{HashMap, HashSet, VecDeque};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::{module_rules, util};

/// Packages that must stay free of the web stack.
pub const PURE_PACKAGES: &[&str] = &["pypto-vocab", "pypto-columns", "pypto-formats", "pypto-analysis", "pypto-protocol", "pypto-replies"];

/// Whether a crate name belongs to the web stack.
pub fn is_forbidden(name: &str) -> bool {
    name == "wasm-bindgen"
        || name.starts_with("wasm-bindgen-")
        || name == "web-sys"
        || name == "js-sys"
        || name.starts_with("gloo")
        || name.starts_with("leptos")
}

/// The crate layers, then the module rules of the page and worker crates
/// ([`module_rules`]); both always run, so one failure does not hide the other.
pub fn run() -> Result<(), String> {
    let crates = check_crates();
    let modules = match (module_rules::run(), crate::ui_strings::run()) {
        (Ok(()), Ok(())) => Ok(()),
        (Err(e), Ok(())) | (Ok(()), Err(e)) => Err(e),
        (Err(a), Err(b)) => Err(format!("{a}; {b}")),
    };
    match (crates, modules) {
        (Ok(()), Ok(())) => {
            println!("check-layers: ok");
            Ok(())
        }
        (Err(e), Ok(())) | (Ok(()), Err(e)) => Err(e),
        (Err(a), Err(b)) => Err(format!("{a}; {b}")),
    }
}

fn check_crates() -> Result<(), String> {
    util::step("check-layers: cargo metadata");
    let out = Command::new(util::cargo())
        .args(["metadata", "--format-version", "1"])
        .current_dir(util::root())
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(format!("`cargo metadata` failed ({})", out.status));
    }
    let metadata: Value = serde_json::from_slice(&out.stdout).map_err(|e| format!("cargo metadata output: {e}"))?;
    let report = check(&metadata, PURE_PACKAGES)?;
    for line in &report.checked {
        println!("  ok  {line}");
    }
    if !report.missing.is_empty() {
        return Err(format!(
            "package(s) {} not found in the workspace; update PURE_PACKAGES in crates/xtask/src/layers.rs if they were renamed",
            report.missing.join(", ")
        ));
    }
    if report.violations.is_empty() {
        Ok(())
    } else {
        for chain in &report.violations {
            eprintln!("  LAYER VIOLATION: {chain}");
        }
        Err(format!(
            "{} layer violation(s): formats/analysis must not depend on wasm-bindgen, web-sys, js-sys, gloo* or leptos*",
            report.violations.len()
        ))
    }
}

#[derive(Debug, Default)]
pub struct Report {
    /// One line per pure package found: name and how many normal deps it reaches.
    pub checked: Vec<String>,
    /// `a -> b -> web-sys` chains.
    pub violations: Vec<String>,
    /// Pure packages not found among the workspace members (renamed? then update `PURE_PACKAGES`).
    pub missing: Vec<String>,
}

/// Walks the normal-dependency graph of `cargo metadata` from each of `roots`.
pub fn check(metadata: &Value, roots: &[&str]) -> Result<Report, String> {
    let packages = metadata["packages"].as_array().ok_or("metadata has no `packages`")?;
    let names: HashMap<&str, &str> = packages.iter().filter_map(|p| Some((p["id"].as_str()?, p["name"].as_str()?))).collect();
    let nodes = metadata["resolve"]["nodes"].as_array().ok_or("metadata has no `resolve.nodes` (was --no-deps used?)")?;
    let mut graph: HashMap<&str, Vec<&str>> = HashMap::new();
    for node in nodes {
        let Some(id) = node["id"].as_str() else { continue };
        let deps = node["deps"].as_array().map(Vec::as_slice).unwrap_or_default();
        let normal = deps.iter().filter(|d| is_normal(d)).filter_map(|d| d["pkg"].as_str());
        graph.entry(id).or_default().extend(normal);
    }
    let members: Vec<&str> =
        metadata["workspace_members"].as_array().map(|m| m.iter().filter_map(Value::as_str).collect()).unwrap_or_default();

    let mut report = Report::default();
    for root_name in roots {
        let Some(root) = members.iter().copied().find(|id| names.get(id) == Some(root_name)) else {
            report.missing.push((*root_name).to_string());
            continue;
        };
        let (reached, found) = walk(root, &graph, &names);
        for chain in found {
            report.violations.push(chain);
        }
        report.checked.push(format!("{root_name}: {reached} normal dependencies, none from the web stack"));
    }
    if !report.violations.is_empty() {
        report.checked.clear();
    }
    Ok(report)
}

/// A dependency edge counts when one of its kinds is a normal (not dev, not build) dependency.
fn is_normal(dep: &Value) -> bool {
    match dep["dep_kinds"].as_array() {
        Some(kinds) => kinds.iter().any(|k| k["kind"].is_null()),
        None => true, // very old cargo: no kinds, assume normal
    }
}

/// Breadth-first walk; returns the number of reachable packages and a chain per forbidden one.
fn walk<'a>(root: &'a str, graph: &HashMap<&'a str, Vec<&'a str>>, names: &HashMap<&str, &'a str>) -> (usize, Vec<String>) {
    let mut parent: HashMap<&str, &str> = HashMap::new();
    let mut queue = VecDeque::from([root]);
    let mut seen = HashSet::from([root]);
    let mut found = Vec::new();
    while let Some(id) = queue.pop_front() {
        let name = names.get(id).copied().unwrap_or(id);
        if id != root && is_forbidden(name) {
            let mut chain = vec![name];
            let mut cur = id;
            while let Some(&p) = parent.get(cur) {
                chain.push(names.get(p).copied().unwrap_or(p));
                cur = p;
            }
            chain.reverse();
            found.push(chain.join(" -> "));
            continue; // its own dependencies are the web stack's business
        }
        for &dep in graph.get(id).map(Vec::as_slice).unwrap_or_default() {
            if seen.insert(dep) {
                parent.insert(dep, id);
                queue.push_back(dep);
            }
        }
    }
    (seen.len() - 1, found)
}

#[cfg(test)]
#[allow(clippy::expect_used, clippy::unwrap_used)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A tiny `cargo metadata` document: `deps` are (name, kind) with kind None/"dev"/"build".
    type Node<'a> = (&'a str, &'a [(&'a str, Option<&'a str>)]);

    fn metadata(nodes: &[Node], members: &[&str]) -> Value {
        let id = |n: &str| format!("registry+https://example#{n}@1.0.0");
        json!({
            "packages": nodes.iter().map(|(n, _)| json!({"id": id(n), "name": n})).collect::<Vec<_>>(),
            "workspace_members": members.iter().map(|n| id(n)).collect::<Vec<_>>(),
            "resolve": {"root": null, "nodes": nodes.iter().map(|(n, deps)| json!({
                "id": id(n),
                "dependencies": deps.iter().map(|(d, _)| id(d)).collect::<Vec<_>>(),
                "deps": deps.iter().map(|(d, kind)| json!({
                    "name": d.replace('-', "_"), "pkg": id(d),
                    "dep_kinds": [{"kind": kind, "target": null}]
                })).collect::<Vec<_>>(),
            })).collect::<Vec<_>>()},
        })
    }

    #[test]
    fn clean_graph_passes_and_dev_and_build_deps_are_ignored() {
        let m = metadata(
            &[
                ("pypto-formats", &[("serde", None), ("wasm-bindgen-test", Some("dev"))]),
                ("pypto-analysis", &[("pypto-formats", None), ("gloo-helper", Some("build"))]),
                ("pypto-app", &[("leptos", None), ("pypto-analysis", None)]),
                ("serde", &[]),
                ("leptos", &[("web-sys", None)]),
                ("web-sys", &[("js-sys", None)]),
                ("js-sys", &[("wasm-bindgen", None)]),
                ("wasm-bindgen", &[]),
                ("wasm-bindgen-test", &[("wasm-bindgen", None)]),
                ("gloo-helper", &[]),
            ],
            &["pypto-formats", "pypto-analysis", "pypto-app"],
        );
        let report = check(&m, PURE_PACKAGES).unwrap();
        assert!(report.violations.is_empty(), "{report:?}");
        assert_eq!(report.checked.len(), 2);
    }

    #[test]
    fn transitive_violation_is_reported_with_its_chain() {
        let m = metadata(
            &[
                ("pypto-formats", &[("serde", None)]),
                ("pypto-analysis", &[("pypto-formats", None), ("helper", None)]),
                ("helper", &[("getrandom", None)]),
                ("getrandom", &[("js-sys", None)]),
                ("js-sys", &[("wasm-bindgen", None)]),
                ("wasm-bindgen", &[]),
                ("serde", &[]),
            ],
            &["pypto-formats", "pypto-analysis"],
        );
        let report = check(&m, PURE_PACKAGES).unwrap();
        assert_eq!(report.violations, vec!["pypto-analysis -> helper -> getrandom -> js-sys".to_string()]);
    }

    #[test]
    fn direct_leptos_and_gloo_deps_are_violations() {
        let m = metadata(
            &[("pypto-formats", &[("leptos_dom", None), ("gloo-worker", None)]), ("leptos_dom", &[]), ("gloo-worker", &[])],
            &["pypto-formats"],
        );
        let report = check(&m, PURE_PACKAGES).unwrap();
        assert_eq!(report.violations.len(), 2, "{report:?}");
        assert!(report.checked.is_empty());
    }

    #[test]
    fn missing_package_is_reported() {
        let m = metadata(&[("pypto-formats", &[])], &["pypto-formats"]);
        let report = check(&m, PURE_PACKAGES).unwrap();
        assert!(report.violations.is_empty());
        assert_eq!(
            report.missing,
            ["pypto-vocab", "pypto-columns", "pypto-analysis", "pypto-protocol", "pypto-replies"].map(String::from).to_vec()
        );
    }

    #[test]
    fn forbidden_names() {
        for bad in ["wasm-bindgen", "wasm-bindgen-futures", "web-sys", "js-sys", "gloo", "gloo-timers", "leptos", "leptos_macro"] {
            assert!(is_forbidden(bad), "{bad}");
        }
        for good in ["serde", "serde_json", "wasm-encoder", "memchr", "websocket"] {
            assert!(!is_forbidden(good), "{good}");
        }
    }
}
