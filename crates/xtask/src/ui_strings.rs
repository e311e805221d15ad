//! `check-layers`' rule "UI strings", for the engineers who add words to the page: every UI
//! string goes through the Fluent catalogues in `crates/app/i18n/{en,zh-CN}/*.ftl`.
//!
//! It fails when
//! - an area's English and Chinese files differ in message ids (a key lacks a translation), or
//!   an id is defined twice;
//! - code uses a message id (`tr("…"`, `tr_with("…"`, `_id: "…"`) that no catalogue defines;
//! - the page shows a literal with words in it (see [`untranslated`]): in a `view!` macro a
//!   text node (`<b>"Open"</b>`), a `title`/`aria-label`/`placeholder`/`alt` value, or any
//!   literal inside a `{…}` child block or such an attribute's expression — a branch
//!   (`{move || if all { "Fold unchanged" } else { "Expand all" }}`), a helper's argument
//!   (`{filter_btn(Filter::All, "All")}`), a `format!` string, a nested `view!`; and anywhere
//!   in the app the text argument of a text sink (`.fill_text(…)` on a canvas,
//!   `.set_text_content(…)`, `session.problem(…)`) — beyond the per-file counts of
//!   [`KNOWN_UNTRANSLATED`], a ratchet that may only shrink (a count above the real one is
//!   stale and fails too, so the list is kept exact).
//!
//! Not shown, and so not looked at: other attributes' values (`class`, `style`, `id`,
//! `data-testid`, `href`, `type`, event handlers), compared literals and match patterns
//! (`ev.key() == "Enter"`, `"a" | "b" =>`), the arguments of message-id calls (`tr_with("id",
//! &[("count", …)])`) and of quiet calls (`.contains("…")`, `set_attribute`, logging).
//! Not words, and so allowed: symbols and numbers (`·`, `→`, `×2`), units (`µs`, `KiB`),
//! acronyms of at most six capitals (`AIC`, `PNG`), CamelCase names (`ArrowDown`), kebab-case
//! ids and classes (`pass-filter-changed`), and identifiers and file names (`deps.json`,
//! `aicore_tasks`, `--json`) — the same in every language.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::rust_source::{self, Blank};
use crate::util;

/// Files with literals not yet in the catalogue, and how many (may only go down).
pub const KNOWN_UNTRANSLATED: &[(&str, usize)] = &[];

const CATALOGUE_DIR: &str = "crates/app/i18n";
const LANGUAGES: [&str; 2] = ["en", "zh-CN"];
const SOURCE_DIR: &str = "crates/app/src";
const ATTRIBUTES: [&str; 4] = ["title", "aria-label", "placeholder", "alt"];
const UNITS: &[&str] = &["us", "µs", "ms", "ns", "KiB", "MiB", "GiB", "KB", "MB", "GB", "px", "x", "B"];
/// How the code names a message id: the call or field, then (after any whitespace or line
/// breaks, as rustfmt writes a long call: `tr_with(\n    "id",`) the id in quotes.
const ID_USES: [&str; 5] = ["tr(", "tr_with(", "_id:", "format_in(language,", "t("];

/// Message ids defined by a catalogue file, in order (lines `id = …`).
pub fn message_ids(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|line| {
            let (id, _) = line.split_once('=')?;
            let id = id.trim_end();
            let first = id.chars().next()?;
            (first.is_ascii_alphabetic() && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')).then_some(id)
        })
        .collect()
}

/// One literal a `view!` shows that is not in the catalogue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Untranslated {
    pub file: String,
    pub line: usize,
    pub text: String,
}

/// Does `text` hold a word a reader would want translated?
pub fn has_words(text: &str) -> bool {
    text.split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '(' | ')' | '[' | ']' | '…' | '·' | '!' | '?' | '"' | '\''))
        .filter(|w| !w.is_empty())
        .any(|w| {
            let letters = w.chars().filter(|c| c.is_alphabetic()).count();
            if letters < 2 || UNITS.contains(&w) {
                return false;
            }
            let identifier = w.contains(['_', '.', '/', '=', '<', '>', '#', '%', '{', '}']) || w.starts_with('-') || w.starts_with('$');
            let acronym = w.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit()) && w.len() <= 6;
            let number_unit = w.starts_with(|c: char| c.is_ascii_digit());
            // CamelCase (`ArrowDown`, `AllocateMemoryAddr`, `rXtY`): a name, not a word.
            let camel = w.chars().skip(1).any(|c| c.is_ascii_uppercase()) && w.chars().any(|c| c.is_ascii_lowercase());
            // kebab-case (`pass-filter-changed`, `badge-noop`): a test id, class or message id.
            let kebab = w.contains('-') && !w.chars().any(char::is_uppercase);
            !(identifier || acronym || number_unit || camel || kebab)
        })
}

/// Calls whose first argument is shown to the user wherever they are (canvas text, DOM text,
/// the sidebar's problems): `.fill_text(…`, `.set_text_content(…`, `.problem(…`.
const TEXT_SINKS: [&str; 6] = ["fill_text", "fill_text_fitted", "fill_text_aligned", "set_text_content", "set_inner_text", "problem"];
/// Calls whose arguments are message ids and their arguments' names, never shown words.
const ID_CALLS: [&str; 4] = ["tr", "t", "tr_with", "format_in"];
/// Calls and macros whose string arguments are not shown: matching, DOM plumbing, logging.
const QUIET_CALLS: [&str; 24] = [
    "contains",
    "starts_with",
    "ends_with",
    "strip_prefix",
    "strip_suffix",
    "split",
    "split_once",
    "replace",
    "find",
    "get",
    "get_attribute",
    "set_attribute",
    "remove_attribute",
    "query_selector",
    "get_element_by_id",
    "create_element",
    "warn",
    "warn_1",
    "log_1",
    "error_1",
    "expect",
    "panic",
    "assert",
    "debug_assert",
];

/// The literals with words that `text` shows: in `view!` macros a text node, a
/// `title`/`aria-label`/`placeholder`/`alt` value, and any literal inside a `{…}` child block
/// or such an attribute's expression, outside `let` initialisers (`{move || if on { "Expand all" } else { "Fold" }}`,
/// `{button(Filter::All, "All")}`) unless it is compared, a match pattern or the argument of
/// a message-id call or of a quiet call ([`QUIET_CALLS`]); and anywhere, the first argument of
/// a text sink ([`TEXT_SINKS`]). Code after `#[cfg(test)]` is not looked at.
pub fn untranslated(file: &str, text: &str) -> Vec<Untranslated> {
    let code = rust_source::blank(text, Blank::Comments);
    let mut chars: Vec<char> = code.chars().collect();
    if let Some(tests) = find(&chars, 0, "#[cfg(test)]") {
        chars.truncate(tests);
    }
    let mut scan = Scan { chars: &chars, found: Vec::new() };
    let mut i = 0;
    while let Some(start) = find(&chars, i, "view!") {
        let Some(open) = (start + 5..chars.len()).find(|&k| !chars[k].is_whitespace()) else { break };
        if !matches!(chars[open], '{' | '(' | '[') {
            i = start + 5;
            continue;
        }
        let end = matching(&chars, open);
        scan.markup(open + 1, end);
        i = end.max(start + 5);
    }
    for sink in TEXT_SINKS {
        let mut from = 0;
        while let Some(at) = find(&chars, from, sink) {
            from = at + sink.len();
            let open = at + sink.len();
            if at == 0 || chars[at - 1] != '.' || chars.get(open) != Some(&'(') {
                continue;
            }
            let close = matching(&chars, open);
            let first_arg_end = (open + 1..close).find(|&k| chars[k] == ',' && depth_between(&chars, open + 1, k) == 0).unwrap_or(close);
            scan.expression(open + 1, first_arg_end);
        }
    }
    scan.found.sort_unstable();
    scan.found.dedup();
    scan.found
        .into_iter()
        .map(|k| {
            let close = string_end(&chars, k);
            let line = chars[..k].iter().filter(|&&c| c == '\n').count() + 1;
            Untranslated { file: file.to_owned(), line, text: chars[k + 1..close].iter().collect() }
        })
        .collect()
}

/// The bracket depth at `to` counted from `from` (strings skipped).
fn depth_between(chars: &[char], from: usize, to: usize) -> i32 {
    let mut depth = 0;
    let mut k = from;
    while k < to {
        match chars[k] {
            '"' => k = string_end(chars, k),
            '{' | '(' | '[' => depth += 1,
            '}' | ')' | ']' => depth -= 1,
            _ => {}
        }
        k += 1;
    }
    depth
}

/// Walks `view!` markup and the Rust expressions shown in it, collecting the start index of
/// every shown literal with words.
struct Scan<'a> {
    chars: &'a [char],
    found: Vec<usize>,
}

impl Scan<'_> {
    fn check(&mut self, k: usize, close: usize) {
        let literal: String = self.chars[k + 1..close].iter().collect();
        if has_words(&literal) {
            self.found.push(k);
        }
    }

    /// `view!` content between `from` and `to`: elements, attributes, text, blocks.
    fn markup(&mut self, from: usize, to: usize) {
        let c = self.chars;
        let (mut k, mut in_tag, mut attr) = (from, false, None::<String>);
        while k < to {
            match c[k] {
                '"' if raw_prefix(c, k) => k = raw_end(c, k) + 1,
                '"' => {
                    let close = string_end(c, k);
                    if !in_tag || attr.as_deref().is_some_and(|a| ATTRIBUTES.contains(&a)) {
                        self.check(k, close);
                    }
                    k = close + 1;
                }
                '\'' if c.get(k + 2) == Some(&'\'') => k += 3,
                '<' if !in_tag => {
                    in_tag = true;
                    attr = None;
                    k += 1;
                }
                '>' if in_tag && !matches!(c.get(k.wrapping_sub(1)), Some('=' | '-')) => {
                    in_tag = false;
                    attr = None;
                    k += 1;
                }
                '=' if in_tag
                    && !matches!(c.get(k + 1), Some('=' | '>'))
                    && !matches!(c.get(k.wrapping_sub(1)), Some('=' | '!' | '<' | '>')) =>
                {
                    let mut q = k;
                    while q > from && c[q - 1].is_whitespace() {
                        q -= 1;
                    }
                    let name_end = q;
                    while q > from && (is_ident(c[q - 1]) || matches!(c[q - 1], '-' | ':')) {
                        q -= 1;
                    }
                    let name: String = c[q..name_end].iter().collect();
                    attr = Some(name.rsplit(':').next().unwrap_or_default().to_owned());
                    k += 1;
                }
                ch if in_tag && (ch.is_alphabetic() || ch == '_') && !is_ident(c[k - 1]) => {
                    // A call in an attribute's unbraced expression: `title=move || tr("…")`.
                    let end = (k..to).find(|&j| !is_ident(c[j])).unwrap_or(to);
                    let word: String = c[k..end].iter().collect();
                    k = match (end..to).find(|&j| !c[j].is_whitespace()) {
                        Some(open) if c[open] == '(' && (ID_CALLS.contains(&word.as_str()) || QUIET_CALLS.contains(&word.as_str())) => {
                            matching(c, open).min(to) + 1
                        }
                        _ => end,
                    };
                }
                '{' | '(' | '[' => {
                    let close = matching(c, k).min(to);
                    let shown = if in_tag { attr.as_deref().is_some_and(|a| ATTRIBUTES.contains(&a)) } else { c[k] == '{' };
                    if shown {
                        self.expression(k + 1, close);
                    }
                    k = close + 1;
                }
                _ => k += 1,
            }
        }
    }

    /// A Rust expression whose value is shown, between `from` and `to`.
    fn expression(&mut self, from: usize, to: usize) {
        let c = self.chars;
        let mut k = from;
        while k < to {
            match c[k] {
                '"' if raw_prefix(c, k) => k = raw_end(c, k) + 1,
                '"' => {
                    let close = string_end(c, k);
                    if !compared_or_pattern(c, k, close) {
                        self.check(k, close);
                    }
                    k = close + 1;
                }
                '\'' if c.get(k + 2) == Some(&'\'') => k += 3,
                '\'' if c.get(k + 1) == Some(&'\\') => k = (k + 2..to).find(|&j| c[j] == '\'').map_or(to, |j| j + 1),
                ch if (ch.is_alphabetic() || ch == '_') && (k == 0 || !is_ident(c[k - 1])) => {
                    let end = (k..to).find(|&j| !is_ident(c[j])).unwrap_or(to);
                    let word: String = c[k..end].iter().collect();
                    let bang = c.get(end) == Some(&'!');
                    let open = (end + usize::from(bang)..to).find(|&j| !c[j].is_whitespace());
                    match open {
                        // A `let` binds a value the view may or may not show: not looked at.
                        _ if word == "let" && !bang => k = statement_end(c, end, to),
                        Some(open) if word == "view" && bang && matches!(c[open], '{' | '(' | '[') => {
                            let close = matching(c, open).min(to);
                            self.markup(open + 1, close);
                            k = close + 1;
                        }
                        Some(open) if c[open] == '(' && (ID_CALLS.contains(&word.as_str()) || QUIET_CALLS.contains(&word.as_str())) => {
                            k = matching(c, open).min(to) + 1;
                        }
                        _ => k = end,
                    }
                }
                _ => k += 1,
            }
        }
    }
}

/// The index of the `;` ending the statement that goes on at `from` (or `to`).
fn statement_end(c: &[char], from: usize, to: usize) -> usize {
    let mut k = from;
    while k < to {
        match c[k] {
            '"' => k = string_end(c, k) + 1,
            '{' | '(' | '[' => k = matching(c, k) + 1,
            ';' => return k,
            _ => k += 1,
        }
    }
    to
}

/// Is the literal `k..=close` compared (`== "x"`, `"x" != y`) or a match pattern (`"x" =>`,
/// `"x" | "y"`)?
fn compared_or_pattern(c: &[char], k: usize, close: usize) -> bool {
    let mut p = k;
    while p > 0 && c[p - 1].is_whitespace() {
        p -= 1;
    }
    let before: String = c[p.saturating_sub(2)..p].iter().collect();
    let mut q = close + 1;
    while q < c.len() && c[q].is_whitespace() {
        q += 1;
    }
    let after: String = c[q..(q + 2).min(c.len())].iter().collect();
    before == "==" || before == "!=" || after == "==" || after == "!=" || after == "=>" || (after.starts_with('|') && after != "||")
}

/// The index of the quote closing the raw string whose opening quote is at `k` (`r#"…"#`).
fn raw_end(c: &[char], k: usize) -> usize {
    let hashes = c[..k].iter().rev().take_while(|&&h| h == '#').count();
    let mut j = k + 1;
    while j < c.len() {
        if c[j] == '"' && c[j + 1..].iter().take(hashes).filter(|&&h| h == '#').count() == hashes {
            return j + hashes;
        }
        j += 1;
    }
    c.len()
}

fn find(chars: &[char], from: usize, needle: &str) -> Option<usize> {
    let n: Vec<char> = needle.chars().collect();
    (from..chars.len().saturating_sub(n.len() - 1)).find(|&k| chars[k..k + n.len()] == n[..] && (k == 0 || !is_ident(chars[k - 1])))
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn raw_prefix(chars: &[char], k: usize) -> bool {
    let hashes = chars[..k].iter().rev().take_while(|&&h| h == '#').count();
    let Some(r) = k.checked_sub(hashes + 1) else { return false };
    chars[r] == 'r' && (r == 0 || !is_ident(chars[r - 1]) || (chars[r - 1] == 'b' && (r < 2 || !is_ident(chars[r - 2]))))
}

/// The index of the bracket closing the one at `open` (skipping string literals).
fn matching(chars: &[char], open: usize) -> usize {
    let mut depth = 0usize;
    let mut k = open;
    while k < chars.len() {
        match chars[k] {
            '"' => k = string_end(chars, k),
            '{' | '(' | '[' => depth += 1,
            '}' | ')' | ']' => {
                depth -= 1;
                if depth == 0 {
                    return k;
                }
            }
            _ => {}
        }
        k += 1;
    }
    chars.len()
}

/// The index of the quote closing the string literal opened at `k`.
fn string_end(chars: &[char], k: usize) -> usize {
    let mut j = k + 1;
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 2,
            '"' => return j,
            _ => j += 1,
        }
    }
    chars.len()
}

/// Message ids named as plain literals (table column titles and tooltips, paired columns).
const ID_PREFIXES: [&str; 2] = ["\"col-", "\"coltip-"];

/// Every message id code names, with the first file using it.
pub fn used_ids(files: &[(String, String)]) -> BTreeMap<String, String> {
    let mut used = BTreeMap::new();
    for (file, text) in files {
        let code = rust_source::blank(text, Blank::Comments);
        for prefix in ID_PREFIXES {
            let mut rest = code.as_str();
            while let Some(at) = rest.find(prefix) {
                let after = &rest[at + 1..];
                if let Some(end) = after.find('"') {
                    let id = &after[..end];
                    if id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                        used.entry(id.to_owned()).or_insert_with(|| file.clone());
                    }
                }
                rest = &rest[at + prefix.len()..];
            }
        }
        for pattern in ID_USES {
            let mut rest = code.as_str();
            while let Some(at) = rest.find(pattern) {
                let before_ok = pattern.starts_with(['.', '_']) || at == 0 || !rest[..at].ends_with(|c: char| is_ident(c));
                let after = &rest[at + pattern.len()..];
                if before_ok {
                    if let Some(quoted) = after.trim_start().strip_prefix('"') {
                        if let Some(end) = quoted.find('"').filter(|&end| end > 0) {
                            used.entry(quoted[..end].to_owned()).or_insert_with(|| file.clone());
                        }
                    }
                }
                rest = after;
            }
        }
    }
    used
}

/// The result of the rule.
#[derive(Debug, Default)]
pub struct Report {
    pub problems: Vec<String>,
    pub messages: usize,
    pub untranslated: Vec<Untranslated>,
}

/// Checks catalogues (area name → text per language) against the app's sources.
pub fn check(catalogues: &BTreeMap<String, [String; 2]>, files: &[(String, String)], known: &[(&str, usize)]) -> Report {
    let mut report = Report::default();
    let mut defined = BTreeSet::new();
    for (area, [en, zh]) in catalogues {
        let (en_ids, zh_ids) = (message_ids(en), message_ids(zh));
        for (lang, ids) in [("en", &en_ids), ("zh-CN", &zh_ids)] {
            let mut seen = BTreeSet::new();
            for id in ids {
                if !seen.insert(*id) {
                    report.problems.push(format!("{CATALOGUE_DIR}/{lang}/{area}.ftl: {id} is defined twice"));
                }
            }
        }
        let (en_set, zh_set): (BTreeSet<&str>, BTreeSet<&str>) = (en_ids.iter().copied().collect(), zh_ids.iter().copied().collect());
        for id in en_set.difference(&zh_set) {
            report.problems.push(format!("{CATALOGUE_DIR}/zh-CN/{area}.ftl lacks {id} (in en)"));
        }
        for id in zh_set.difference(&en_set) {
            report.problems.push(format!("{CATALOGUE_DIR}/en/{area}.ftl lacks {id} (in zh-CN)"));
        }
        for id in en_set {
            if !defined.insert(id.to_owned()) {
                report.problems.push(format!("{id} is defined in two areas (second: {area}.ftl)"));
            }
        }
    }
    report.messages = defined.len();
    for (id, file) in used_ids(files) {
        if !defined.contains(&id) {
            report.problems.push(format!("{file}: message id {id:?} is in no catalogue"));
        }
    }
    let mut per_file: BTreeMap<&str, usize> = BTreeMap::new();
    for (file, text) in files {
        let found = untranslated(file, text);
        if !found.is_empty() {
            per_file.insert(file, found.len());
        }
        report.untranslated.extend(found);
    }
    for (file, count) in &per_file {
        let allowed = known.iter().find(|(f, _)| f == file).map_or(0, |(_, n)| *n);
        if *count > allowed {
            for u in report.untranslated.iter().filter(|u| &u.file == file) {
                report.problems.push(format!("{}:{}: {:?} bypasses the catalogue", u.file, u.line, u.text));
            }
            report.problems.push(format!("{file}: {count} untranslated literals, {allowed} allowed (move them to crates/app/i18n)"));
        }
    }
    for (file, allowed) in known {
        let count = per_file.get(file).copied().unwrap_or(0);
        if count < *allowed {
            report.problems.push(format!(
                "KNOWN_UNTRANSLATED in crates/xtask/src/ui_strings.rs: {file} allows {allowed}, has {count}: lower it to {count}"
            ));
        }
    }
    report
}

/// Reads the catalogues and the app's sources and checks them.
pub fn run() -> Result<(), String> {
    util::step("check-layers: UI strings");
    let root = util::root();
    let mut catalogues = BTreeMap::new();
    let en_dir = root.join(CATALOGUE_DIR).join("en");
    let mut areas: Vec<String> = std::fs::read_dir(&en_dir)
        .map_err(|e| format!("read {}: {e}", en_dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter_map(|n| n.strip_suffix(".ftl").map(str::to_owned))
        .collect();
    areas.sort();
    for area in areas {
        let read = |lang: &str| {
            let path = Path::new(&root).join(CATALOGUE_DIR).join(lang).join(format!("{area}.ftl"));
            std::fs::read_to_string(&path).map_err(|e| format!("read {}: {e}", path.display()))
        };
        catalogues.insert(area.clone(), [read(LANGUAGES[0])?, read(LANGUAGES[1])?]);
    }
    let files = rust_source::read_tree(&root, SOURCE_DIR)?;
    let report = check(&catalogues, &files, KNOWN_UNTRANSLATED);
    let known: usize = KNOWN_UNTRANSLATED.iter().map(|(_, n)| n).sum();
    for p in &report.problems {
        eprintln!("  UI STRINGS: {p}");
    }
    if report.problems.is_empty() {
        println!(
            "  ok  UI strings: {} messages in en and zh-CN, every id used exists, {} known untranslated literals left in {} files",
            report.messages,
            known,
            KNOWN_UNTRANSLATED.len()
        );
        Ok(())
    } else {
        Err(format!("UI strings: {} problem(s) (see above)", report.problems.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_told_from_names_units_and_symbols() {
        for w in ["Open demo", "tasks", "Zoom in", "Compare with…"] {
            assert!(has_words(w), "{w}");
        }
        for n in
            ["ArrowDown", "rXtY", "µs", "AIC", "PNG · SVG", "deps.json", "aicore_tasks", "--json", "×2", "→", "12 KiB", "{}", " · ", "t0"]
        {
            assert!(!has_words(n), "{n}");
        }
    }

    #[test]
    fn text_nodes_and_titles_in_view_macros_are_found_and_nothing_else() {
        let src = r#"
fn a() -> impl IntoView {
    let x = "Not shown";
    view! {
        <div class="box" title="Hover help">
            <b>"Open demo"</b>
            {move || count()} " tasks"
            <span data-testid="x">{tr("app-open")}</span>
            <i>"µs"</i>
            <input placeholder="Search functions"/>
        </div>
    }
}
"#;
        let found = untranslated("a.rs", src);
        let texts: Vec<&str> = found.iter().map(|u| u.text.as_str()).collect();
        assert_eq!(texts, ["Hover help", "Open demo", " tasks", "Search functions"]);
        assert_eq!(found[1].line, 6);
    }

    #[test]
    fn literals_in_blocks_helpers_and_sinks_are_found() {
        let src = r#"
fn a() -> impl IntoView {
    view! {
        <div class=move || if on.get() { "pass-btn active" } else { "pass-btn" }>
            {filter_btn(Filter::Changed, "Changed", "pass-filter-changed")}
            <button title=move || if all.get() { "Fold the rest" } else { "Show all" }>
                {move || if all.get() { "Fold unchanged" } else { "Expand all" }}
            </button>
            {move || match mode.get() { Mode::A => "Side by side", Mode::B => "stacked" }}
            <p>{format!("{} tasks shown", n)}</p>
            {rows.into_iter().map(|r| view! { <li class="row-item">{r.name} " (not run)"</li> }).collect_view()}
        </div>
    }
}
fn draw(&mut self) {
    self.text.fill_text(if busy { "Loading the timeline…" } else { "12 µs" }, 1.0, 2.0, "italic 11px system-ui", ink);
    hud.set_text_content(Some(&format!("{n} edges on screen")));
    session.problem("the map cannot draw".to_owned());
}
"#;
        let texts: Vec<String> = untranslated("a.rs", src).into_iter().map(|u| u.text).collect();
        assert_eq!(
            texts,
            [
                "Changed",
                "Fold the rest",
                "Show all",
                "Fold unchanged",
                "Expand all",
                "Side by side",
                "stacked",
                "{} tasks shown",
                " (not run)",
                "Loading the timeline…",
                "{n} edges on screen",
                "the map cannot draw"
            ]
        );
    }

    #[test]
    fn ids_comparisons_patterns_plumbing_and_other_attributes_are_not_found() {
        let src = r##"
fn a() -> impl IntoView {
    view! {
        <div class=("active", move || sel.get()) style="width: auto" data-testid="pass-filter-all" id="main"
             href="https://example.com/docs page" type="button" role="status"
             on:keydown=move |ev| if ev.key() == "Enter" { go("Go now") }>
            {move || tr_with("app-rows", &[("count", Arg::from(n)), ("name", Arg::from(name))])}
            {t("app-open")}
            {move || match key.as_str() { "Enter" | "Space" => tr("app-key"), _ => String::new() }}
            {move || if el.get_attribute("data-mode wide").as_deref() == mode { "·" } else { "→" }}
            {move || format!("{}px", w)}
            {move || warn("shown nowhere at all")}
            {move || { let style = format!("background: rgb({r},{g})"); view! { <span style=style title=tr_with("sw-legend", &[("count", Arg::from(n))])></span> } }}
            {r#"raw text is not checked"#}
            {move || name.get()} {move || fmt_count(n)} " · " "12 KiB" "AIC" "rXtY" "deps.json"
        </div>
    }
}
#[cfg(test)]
mod tests { fn f() { view! { <b>"Test only"</b> } } }
"##;
        let found = untranslated("a.rs", src);
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn ids_after_a_line_break_or_spaces_are_found() {
        let src = "fn f() {\n    tr_with(\n        \"app-next-line\",\n        &[(\"count\", Arg::from(n))],\n    );\n    \
                   tr( \"app-spaced\");\n    let c = Column { title_id:\n \"col-x\" };\n    format_in(language,\n \"app-fmt\", &[]);\n    \
                   attr(\"not-an-id\");\n    t(\n\"app-t\");\n    tr(name);\n}\n";
        let used = used_ids(&[("crates/app/src/a.rs".to_owned(), src.to_owned())]);
        let ids: Vec<&str> = used.keys().map(String::as_str).collect();
        assert_eq!(ids, ["app-fmt", "app-next-line", "app-spaced", "app-t", "col-x"]);
    }

    #[test]
    fn catalogues_must_agree_and_ids_must_exist_and_the_ratchet_is_exact() {
        let mut cats = BTreeMap::new();
        cats.insert("app".to_owned(), ["app-open = Open\napp-two = Two\n".to_owned(), "app-open = 打开\n".to_owned()]);
        let files = vec![(
            "crates/app/src/a.rs".to_owned(),
            "fn f() { tr(\"app-open\"); tr(\"app-gone\"); view! { <b>\"Hello there\"</b> } }".to_owned(),
        )];
        let report = check(&cats, &files, &[]);
        let all = report.problems.join("\n");
        assert!(all.contains("zh-CN/app.ftl lacks app-two"), "{all}");
        assert!(all.contains("\"app-gone\" is in no catalogue"), "{all}");
        assert!(all.contains("\"Hello there\" bypasses"), "{all}");
        assert!(!all.contains("\"app-open\""), "{all}");
        let allowed = check(&cats, &files, &[("crates/app/src/a.rs", 1)]);
        assert!(!allowed.problems.join("\n").contains("bypasses"));
        let stale = check(&cats, &files, &[("crates/app/src/a.rs", 2)]);
        assert!(stale.problems.join("\n").contains("lower it to 1"));
    }
}
