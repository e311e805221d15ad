//! The folder manifest for static hosting (`?src=<url>`): servers give no directory listing,
//! so `pypto-viewer manifest <dir>` writes `pypto-viewer-manifest.json` listing every file,
//! and the page fetches it, then the files. Used by the CLI (write) and the worker (read).
//!
//! Format: `{"format":"pypto-viewer-manifest","version":1,"files":[{"path":"a/b.json",
//! "size_bytes":123}, ...]}`; paths are relative to the manifest's directory, '/'-separated,
//! sorted. The reader rejects absolute paths, `..` and `.` segments, empty segments and
//! backslashes, so a manifest can never point outside its directory.

use crate::json_util::{json_error, ObjectOnly};
use crate::FormatError;
use serde::Deserialize;

/// The manifest's file name.
pub const FILE_NAME: &str = "pypto-viewer-manifest.json";
/// The `format` value.
pub const FORMAT: &str = "pypto-viewer-manifest";
/// The supported `version`.
pub const VERSION: u32 = 1;

/// Serialises a manifest; entries are sorted by path (duplicates kept once).
pub fn to_json(entries: &[(String, u64)]) -> String {
    let mut sorted: Vec<&(String, u64)> = entries.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    sorted.dedup_by(|a, b| a.0 == b.0);
    let mut s = String::with_capacity(64 + sorted.len() * 64);
    s.push_str("{\"format\":\"");
    s.push_str(FORMAT);
    s.push_str("\",\"version\":1,\"files\":[");
    for (i, (path, size)) in sorted.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str("\n{\"path\":");
        s.push_str(&serde_json::Value::String(path.clone()).to_string());
        s.push_str(",\"size_bytes\":");
        s.push_str(&size.to_string());
        s.push('}');
    }
    s.push_str("\n]}\n");
    s
}

impl crate::json_util::Described for RawManifest {
    const WHAT: &'static str = "a pypto-viewer manifest object";
}

#[derive(Deserialize)]
#[serde(expecting = "a pypto-viewer manifest object")]
struct RawManifest {
    format: String,
    version: u32,
    files: Vec<RawEntry>,
}

#[derive(Deserialize)]
#[serde(expecting = "a manifest entry {\"path\": string, \"size_bytes\": integer}")]
struct RawEntry {
    path: String,
    size_bytes: u64,
}

/// Why a manifest path is unsafe, if it is.
pub fn check_path(p: &str) -> Option<&'static str> {
    if p.is_empty() {
        return Some("empty path");
    }
    if p.contains('\\') {
        return Some("backslash in path (use '/')");
    }
    if p.starts_with('/') || p.as_bytes().get(1) == Some(&b':') {
        return Some("absolute path");
    }
    for seg in p.split('/') {
        match seg {
            "" => return Some("empty path segment"),
            "." | ".." => return Some("'.' or '..' segment"),
            _ => {}
        }
    }
    None
}

/// Parses a manifest into `(path, size_bytes)` entries (file order).
pub fn parse(path: &str, bytes: &[u8]) -> Result<Vec<(String, u64)>, FormatError> {
    let ObjectOnly(m): ObjectOnly<RawManifest> = serde_json::from_slice(bytes).map_err(|e| json_error(path, bytes, &e))?;
    if m.format != FORMAT {
        return Err(FormatError::at_key(path, bytes, "format", format!("`format` is {:?}; expected {FORMAT:?}", m.format)));
    }
    if m.version != VERSION {
        return Err(FormatError::at_key(
            path,
            bytes,
            "version",
            format!("manifest version {} is not supported (expected {VERSION})", m.version),
        ));
    }
    let mut out = Vec::with_capacity(m.files.len());
    for e in m.files {
        if let Some(why) = check_path(&e.path) {
            let lit = serde_json::Value::String(e.path.clone()).to_string();
            // The literal as we would write it; a path written with escapes (`\u002e`) is not
            // found that way, and then the error points at `files`.
            let (line, column) = match find(bytes, lit.as_bytes()) {
                (0, _) => match crate::json_util::position_of_key(bytes, "files") {
                    (0, _) => (1, 1),
                    at => at,
                },
                at => at,
            };
            return Err(FormatError::at(path, line, column, format!("unsafe manifest path {lit}: {why}")));
        }
        out.push((e.path, e.size_bytes));
    }
    Ok(out)
}

fn find(bytes: &[u8], needle: &[u8]) -> (u64, u64) {
    if needle.is_empty() || needle.len() > bytes.len() {
        return (0, 0);
    }
    bytes.windows(needle.len()).position(|w| w == needle).map_or((0, 0), |at| crate::json_util::position_of_offset(bytes, at))
}
