//! Reader of a pass snapshot's `.log` warnings file (compiler-formats.md §1.4), for the IR
//! Pass Trace's warning badge and panel: the text is shown verbatim and every
//! `<file>:<line>:<col>: warning: <message> [<Rule>]` header becomes a jump to that line.
//!
//! A header without a position (`<file>: warning: <message> [<Rule>]`) is kept with no line.
//! The source excerpt lines (` 12 | …`, caret lines) are not warnings and are skipped.

/// One warning header of a `.log` file.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PassWarning {
    /// 1-based line of the header in the `.log` file.
    pub log_line: u32,
    /// The dump file named by the warning (as written, relative to the compile's CWD).
    pub file: String,
    /// 1-based line and column in that file, when given.
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub message: String,
    /// The rule in brackets at the end (`UnusedVariableCheck`), when present.
    pub rule: Option<String>,
}

/// Parses the warning headers of a `.log` file. Never fails: lines that are not headers
/// are skipped.
pub fn parse(text: &str) -> Vec<PassWarning> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        let Some(at) = line.find(": warning: ") else {
            continue;
        };
        let (location, rest) = (line.get(..at).unwrap_or(""), line.get(at + 11..).unwrap_or(""));
        if location.is_empty() || location.starts_with(' ') {
            continue;
        }
        let (message, rule) = split_rule(rest);
        let (file, pos) = split_position(location);
        out.push(PassWarning {
            log_line: i as u32 + 1,
            file: file.to_owned(),
            line: pos.map(|p| p.0),
            column: pos.map(|p| p.1),
            message: message.to_owned(),
            rule: rule.map(str::to_owned),
        });
    }
    out
}

/// `msg [Rule]` → (`msg`, `Rule`).
fn split_rule(rest: &str) -> (&str, Option<&str>) {
    if let Some(body) = rest.strip_suffix(']') {
        if let Some(open) = body.rfind(" [") {
            let rule = body.get(open + 2..).unwrap_or("");
            if !rule.is_empty() && rule.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                return (body.get(..open).unwrap_or(""), Some(rule));
            }
        }
    }
    (rest, None)
}

/// `path:12:5` → (`path`, (12, 5)); a path without `:line:col` has no position.
fn split_position(location: &str) -> (&str, Option<(u32, u32)>) {
    let mut parts = location.rsplitn(3, ':');
    let (Some(c), Some(l), Some(file)) = (parts.next(), parts.next(), parts.next()) else {
        return (location, None);
    };
    match (l.parse::<u32>(), c.parse::<u32>()) {
        (Ok(l), Ok(c)) if !file.is_empty() => (file, Some((l, c))),
        _ => (location, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_with_and_without_position() {
        let log = "passes_dump/03_after_ConvertToSSA.py:41:9: warning: Unused variable 'raw__ssa_v0' in function 'decode' [UnusedVariableCheck]\n  41 |         raw__ssa_v0: pl.Tile = x\n     |         ^~~~~~~~~~~\npasses_dump/03_after_ConvertToSSA.py: warning: Out param write dropped [OutParamWriteDropped]\nC:\\x\\y.py:3:1: warning: no rule here\n";
        let w = parse(log);
        assert_eq!(w.len(), 3);
        assert_eq!(w[0].file, "passes_dump/03_after_ConvertToSSA.py");
        assert_eq!((w[0].line, w[0].column, w[0].log_line), (Some(41), Some(9), 1));
        assert_eq!(w[0].rule.as_deref(), Some("UnusedVariableCheck"));
        assert_eq!(w[0].message, "Unused variable 'raw__ssa_v0' in function 'decode'");
        assert_eq!((w[1].line, w[1].log_line), (None, 4));
        assert_eq!(w[1].rule.as_deref(), Some("OutParamWriteDropped"));
        assert_eq!((w[2].file.as_str(), w[2].line, w[2].rule.as_deref()), ("C:\\x\\y.py", Some(3), None));
    }
}
