//! `check-layers`' rule "UI strings", for the engineers who add words to the page: every UI
//! string goes through the Fluent catalogues in `crates/app/i18n/{en,zh-CN}/*.ftl`.
//!
//! It fails when
//! - an area's English and Chinese files differ in message ids (a key lacks a translation), or
//!   an id is defined twice;
//! - code uses a message id (`tr("…"`, `tr_with("…"`, `_id: "…"`) that no catalogue defines;
//! - a `view!` macro shows a literal with words in it — a text node (`<b>"Open"</b>`) or a
//!   `title`/`aria-label`/`placeholder`/`alt` attribute — beyond the per-file counts of
//!   [`KNOWN_UNTRANSLATED`], a ratchet that may only shrink (a count above the real one is
//!   stale and fails too, so the list is kept exact).
//!
//! Not words, and so allowed: symbols and numbers (`·`, `→`, `×2`), units (`µs`, `KiB`),
//! acronyms of at most six capitals (`AIC`, `PNG`), and identifiers and file names
//! (`deps.json`, `aicore_tasks`, `--json`) — the same in every language.

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
/// How the code names a message id: the call or field, then the id in quotes.
const ID_USES: [&str; 5] = ["tr(\"", "tr_with(\"", "_id: \"", "format_in(language, \"", "t(\""];

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
            !(identifier || acronym || number_unit || camel)
        })
}

/// The literals with words that `view!` macros in `text` show as text or in a checked attribute.
pub fn untranslated(file: &str, text: &str) -> Vec<Untranslated> {
    let code = rust_source::blank(text, Blank::Comments);
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(start) = find(&chars, i, "view!") {
        let Some(open) = (start + 5..chars.len()).find(|&k| !chars[k].is_whitespace()) else { break };
        if !matches!(chars[open], '{' | '(' | '[') {
            i = start + 5;
            continue;
        }
        let end = matching(&chars, open);
        let mut k = open + 1;
        while k < end {
            if chars[k] == '"' && !raw_prefix(&chars, k) {
                let close = string_end(&chars, k);
                let literal: String = chars[k + 1..close].iter().collect();
                if shown(&chars, k) && has_words(&literal) {
                    let line = chars[..k].iter().filter(|&&c| c == '\n').count() + 1;
                    out.push(Untranslated { file: file.to_owned(), line, text: literal });
                }
                k = close + 1;
            } else if chars[k] == '\'' && chars.get(k + 2) == Some(&'\'') {
                k += 3;
            } else {
                k += 1;
            }
        }
        i = end.max(start + 5);
    }
    out
}

fn find(chars: &[char], from: usize, needle: &str) -> Option<usize> {
    let n: Vec<char> = needle.chars().collect();
    (from..chars.len().saturating_sub(n.len() - 1)).find(|&k| chars[k..k + n.len()] == n[..] && (k == 0 || !is_ident(chars[k - 1])))
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

fn raw_prefix(chars: &[char], k: usize) -> bool {
    k > 0 && matches!(chars[k - 1], 'r' | '#') && (k < 2 || !is_ident(chars[k - 2]) || chars[k - 2] == 'b')
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

/// Is the literal at `k` shown: a text node (after `>` or `}` of an element's content) or the
/// value of a checked attribute?
fn shown(chars: &[char], k: usize) -> bool {
    let mut p = k;
    while p > 0 && chars[p - 1].is_whitespace() {
        p -= 1;
    }
    if p == 0 {
        return false;
    }
    match chars[p - 1] {
        '>' => p < 2 || chars[p - 2] != '=',
        '}' => true,
        '=' => {
            let mut q = p - 1;
            while q > 0 && chars[q - 1].is_whitespace() {
                q -= 1;
            }
            let name_end = q;
            while q > 0 && (is_ident(chars[q - 1]) || chars[q - 1] == '-') {
                q -= 1;
            }
            let name: String = chars[q..name_end].iter().collect();
            ATTRIBUTES.contains(&name.as_str())
        }
        _ => false,
    }
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
                    if let Some(end) = after.find('"').filter(|&end| end > 0) {
                        used.entry(after[..end].to_owned()).or_insert_with(|| file.clone());
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
