//! Reader for `name_map*.json` (runtime-formats.md §3): func id → kernel name, plus the
//! orchestrator name, for labels and the function performance table.
//!
//! Accepted shapes: `{"level", "orchestrator_name", "callable_id_to_name": {...}}`,
//! `{"callable_id_to_name": {...}}` alone, and a flat `{"7": "kernel_add"}` map
//! (`data.get("callable_id_to_name") or data`, like `deps_viewer`). Keys are decimal func ids;
//! entries whose key is not an integer or whose value is not a string are skipped with a
//! warning. The file is small, so a generic JSON value is fine here.

use crate::FormatError;
use pypto_vocab::{Warning, WarningKind};

/// A parsed name map.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NameMap {
    /// `(func_id, name)`, sorted by func id (unique).
    pub entries: Vec<(i64, String)>,
    pub orchestrator_name: Option<String>,
    pub level: Option<i64>,
    pub warnings: Vec<Warning>,
}

impl NameMap {
    /// The name of `func_id`, if mapped.
    pub fn name(&self, func_id: i64) -> Option<&str> {
        self.entries.binary_search_by_key(&func_id, |(id, _)| *id).ok().and_then(|i| self.entries.get(i)).map(|(_, n)| n.as_str())
    }
}

/// Parses a name map. `path` is only used in errors.
pub fn parse(path: &str, bytes: &[u8]) -> Result<NameMap, FormatError> {
    let v: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| crate::json_util::json_error(path, bytes, &e))?;
    let serde_json::Value::Object(top) = v else {
        return Err(FormatError::at(path, 1, 1, "expected a JSON object mapping func ids to names"));
    };
    let mut out = NameMap {
        orchestrator_name: top.get("orchestrator_name").and_then(|x| x.as_str()).map(str::to_owned),
        level: top.get("level").and_then(serde_json::Value::as_i64),
        ..NameMap::default()
    };
    let map = match top.get("callable_id_to_name") {
        Some(serde_json::Value::Object(m)) => m,
        Some(serde_json::Value::Null) => {
            out.warnings.push(crate::json_util::warning_at_key(
                WarningKind::NameMapNull,
                path,
                bytes,
                "callable_id_to_name",
                "`callable_id_to_name` is null: the file names no functions",
            ));
            return Ok(out);
        }
        Some(_) => {
            return Err(FormatError::at_key(
                path,
                bytes,
                "callable_id_to_name",
                "`callable_id_to_name` must be an object mapping func ids to names",
            ));
        }
        None if top.contains_key("orchestrator_name") || top.contains_key("level") => return Ok(out),
        None => &top,
    };
    let mut skipped: Vec<(&str, &str)> = Vec::new();
    for (k, val) in map {
        if matches!(k.as_str(), "level" | "orchestrator_name" | "callable_id_to_name") {
            continue;
        }
        match (k.trim().parse::<i64>(), val.as_str()) {
            (Ok(id), Some(name)) => out.entries.push((id, name.to_owned())),
            (Err(_), _) => skipped.push((k, "the key is not a func id that fits a 64-bit integer")),
            (Ok(_), None) => skipped.push((k, "the value is not a string")),
        }
    }
    if let Some(&(first, _)) = skipped.first() {
        const NAMED: usize = 5;
        let named: Vec<String> = skipped.iter().take(NAMED).map(|(k, why)| format!("\"{k}\" ({why})")).collect();
        let more_entries = skipped.len().saturating_sub(NAMED);
        let more = if more_entries > 0 { format!(", and {more_entries} more") } else { String::new() };
        let list = named.join(", ");
        out.warnings.push(
            crate::json_util::warning_at_key(
                WarningKind::NameMapEntrySkipped,
                path,
                bytes,
                first,
                format!("{} name map entr(y/ies) skipped: {list}{more}", skipped.len()),
            )
            .count("count", skipped.len())
            .text("entries", list)
            .count("more", more_entries),
        );
    }
    out.entries.sort_by_key(|(id, _)| *id);
    out.entries.dedup_by_key(|(id, _)| *id);
    Ok(out)
}
