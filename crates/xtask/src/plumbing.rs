//! `cargo xtask plumbing`: how much hand-written browser plumbing the page, worker and render
//! crates hold (`crates/app/src`, `crates/worker/src`, `crates/render/src`), so a refactor
//! that moves it behind a few helpers can state the count before and after.
//!
//! A line counts (once, however many patterns it holds) when, with comments blanked, it
//! contains any of [`PATTERNS`]:
//! - JS callbacks made by hand: `Closure::new`, `Closure::<`, `Closure::once`,
//!   `once_into_js`, `Closure::wrap`, and leaking one on purpose: `.forget()`;
//! - event listeners: `add_event_listener`, `remove_event_listener` (the `…_with_callback`
//!   and other variants included, being the same prefix), and the worker's
//!   `set_onmessage`, `set_onerror`;
//! - timers and frames: `set_timeout`, `set_interval`, `request_animation_frame`;
//! - object URLs: `create_object_url`, `revoke_object_url`;
//! - `ResizeObserver::new`.
//!
//! String literals are not blanked (a pattern in a string is rare and then still plumbing).

use crate::rust_source::{self, Blank};
use crate::util;

/// The substrings that mark a line as browser plumbing (see the module doc).
pub const PATTERNS: &[&str] = &[
    "Closure::new",
    "Closure::<",
    "Closure::once",
    "once_into_js",
    "Closure::wrap",
    "add_event_listener",
    "remove_event_listener",
    "set_timeout",
    "set_interval",
    "request_animation_frame",
    "create_object_url",
    "revoke_object_url",
    "ResizeObserver::new",
    "set_onmessage",
    "set_onerror",
    ".forget()",
];

/// The directories read, relative to the repository root.
pub const ROOTS: &[&str] = &["crates/app/src", "crates/worker/src", "crates/render/src"];

/// The number of lines of `text` that hold a pattern outside comments.
pub fn count_lines(text: &str) -> usize {
    rust_source::blank(text, Blank::Comments).lines().filter(|line| PATTERNS.iter().any(|p| line.contains(p))).count()
}

/// Per file with plumbing, (path, count), by count (most first), then path.
pub fn table(files: &[(String, String)]) -> Vec<(String, usize)> {
    let mut rows: Vec<(String, usize)> =
        files.iter().map(|(path, text)| (path.clone(), count_lines(text))).filter(|(_, n)| *n > 0).collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    rows
}

pub fn run() -> Result<(), String> {
    util::step(&format!("plumbing: lines with {} outside comments", PATTERNS.join(" ")));
    let root = util::root();
    let mut files = Vec::new();
    for dir in ROOTS {
        files.extend(rust_source::read_tree(&root, dir)?);
    }
    let rows = table(&files);
    for (path, n) in &rows {
        println!("{n:6}  {path}");
    }
    let total: usize = rows.iter().map(|(_, n)| n).sum();
    println!("{total:6}  total ({} of {} files under {})", rows.len(), files.len(), ROOTS.join(", "));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lines_not_matches_and_skips_comments() {
        let text = "\
let cb = Closure::<dyn FnMut()>::new(move || {}); // Closure::new twice on this line
// a comment: el.add_event_listener_with_callback(...)
/// doc: set_timeout
/* block
   request_animation_frame */
el.add_event_listener_with_callback(\"click\", cb.as_ref().unchecked_ref())?;
cb.forget();
let url = web_sys::Url::create_object_url_with_blob(&blob)?; web_sys::Url::revoke_object_url(&url)?;
let ok = 1; // nothing here
";
        assert_eq!(count_lines(text), 4);
    }

    #[test]
    fn every_pattern_counts() {
        for p in PATTERNS {
            assert_eq!(count_lines(&format!("x{p}y\n")), 1, "{p}");
        }
        assert_eq!(count_lines("forget(); Closure ::new; set_timeoutx\n"), 1); // set_timeout is a prefix match
        assert_eq!(count_lines("mem::forget(x); closure::new()\n"), 0);
    }

    #[test]
    fn a_url_in_a_string_is_not_a_comment() {
        assert_eq!(count_lines("f(\"http://x\", Closure::once(g));\n"), 1);
    }

    #[test]
    fn table_is_sorted_by_count_then_path_and_drops_zeros() {
        let files = vec![
            ("b.rs".to_string(), "a.forget();\n".to_string()),
            ("c.rs".to_string(), "nothing\n".to_string()),
            ("a.rs".to_string(), "a.forget();\n".to_string()),
            ("d.rs".to_string(), "set_interval\nset_timeout\n".to_string()),
        ];
        assert_eq!(table(&files), vec![("d.rs".to_string(), 2), ("a.rs".to_string(), 1), ("b.rs".to_string(), 1)]);
    }
}
