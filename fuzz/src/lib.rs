//! Shared checks for the fuzz targets: beyond "does not panic", every reader result must be
//! internally consistent, and every error must name the file and a real 1-based position
//! (the house rule in shared/DESIGN.md). A violated check is a crash like a panic.

#![allow(clippy::missing_panics_doc)]

use pypto_formats::{FormatError, Warning};

/// The path every target passes to the readers.
pub const PATH: &str = "fuzz/input.json";

/// An error must carry the path, a 1-based line and column and a message.
pub fn check_error(e: &FormatError, path: &str) {
    assert_eq!(e.path, path, "error names another file: {e}");
    assert!(!e.message.is_empty(), "empty error message: {e:?}");
    assert!(
        e.line >= 1 && e.column >= 1,
        "error without a position (0 = unknown): {e}"
    );
    let shown = e.to_string();
    assert!(shown.starts_with(path), "{shown}");
}

/// A positioned warning (the host phase reader's) must carry the path, a 1-based line and
/// column and a message.
pub fn check_positioned_warning(w: &Warning, path: &str) {
    assert_eq!(w.path, path, "warning names another file: {w}");
    assert!(!w.message.is_empty(), "empty warning message: {w:?}");
    assert!(w.line >= 1 && w.column >= 1, "warning without a position (0 = unknown): {w}");
}

/// All columns of one table have the same length.
pub fn same_len(what: &str, lens: &[usize]) {
    if let Some(&first) = lens.first() {
        assert!(
            lens.iter().all(|&l| l == first),
            "{what}: ragged columns {lens:?}"
        );
    }
}

/// Splits fuzz bytes into lines of (lossy) UTF-8 text.
pub fn lines(data: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(data)
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l).to_owned())
        .collect()
}
