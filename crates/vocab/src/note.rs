//! What discovery notes about a dataset (which of several candidate files it uses, the pass
//! dump of a case, a pass dump's snapshot count), as data: the CLI prints the English
//! [`Display`](std::fmt::Display) text, the page shows each note in its own language.

use serde::{Deserialize, Serialize};

/// Which kind of file several candidates were found of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum NoteFiles {
    Records,
    Deps,
    NameMap,
}

/// One discovery note.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum DiscoveryNote {
    /// `count` candidate files of a kind; `using` is the file name chosen.
    SeveralFiles { files: NoteFiles, count: usize, using: String },
    /// A pass dump's snapshot count.
    PassSnapshots { count: usize },
    /// The pass dump of a runtime dataset's case.
    PassDump { path: String },
    /// Several pass dumps of the case: the newest is used.
    PassDumps { count: usize, using: String, others: Vec<String> },
}

impl std::fmt::Display for DiscoveryNote {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::SeveralFiles { files: NoteFiles::Records, count, using } => write!(f, "{count} records files; using {using}"),
            Self::SeveralFiles { files: NoteFiles::Deps, count, using } => write!(f, "{count} deps files; using {using}"),
            Self::SeveralFiles { files: NoteFiles::NameMap, count, using } => {
                write!(f, "{count} name_map*.json files; using {using} (lexicographically greatest = newest timestamp)")
            }
            Self::PassSnapshots { count } => write!(f, "{count} pass snapshot(s)"),
            Self::PassDump { path } => write!(f, "pass dump of this case: {path}"),
            Self::PassDumps { count, using, others } => {
                write!(f, "{count} pass dumps of this case; using the newest, {using} (others: {})", others.join(", "))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_read_as_before_and_round_trip() -> Result<(), serde_json::Error> {
        let n = DiscoveryNote::PassDumps { count: 2, using: "a/passes_dump_2".into(), others: vec!["a/passes_dump_1".into()] };
        assert_eq!(n.to_string(), "2 pass dumps of this case; using the newest, a/passes_dump_2 (others: a/passes_dump_1)");
        let json = serde_json::to_string(&n)?;
        assert_eq!(serde_json::from_str::<DiscoveryNote>(&json)?, n);
        assert_eq!(DiscoveryNote::PassSnapshots { count: 3 }.to_string(), "3 pass snapshot(s)");
        Ok(())
    }
}
