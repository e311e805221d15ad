//! Recursive directory walk for the CLI: relative '/'-separated paths and sizes of every
//! regular file, skipping hidden entries (names starting with '.') and symlinked
//! directories; sorted by path.

use std::path::Path;

/// Lists `(relative path, size_bytes)` of every non-hidden file under `root`.
pub fn walk(root: &Path) -> std::io::Result<Vec<(String, u64)>> {
    let mut out = Vec::new();
    let mut stack = vec![(root.to_path_buf(), String::new())];
    while let Some((dir, rel)) = stack.pop() {
        for entry in std::fs::read_dir(&dir)? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let ty = entry.file_type()?;
            let child = if rel.is_empty() { name.clone() } else { format!("{rel}/{name}") };
            if ty.is_dir() {
                stack.push((entry.path(), child));
            } else if ty.is_file() || ty.is_symlink() && entry.path().is_file() {
                out.push((child, entry.metadata()?.len()));
            }
        }
    }
    out.sort();
    Ok(out)
}
