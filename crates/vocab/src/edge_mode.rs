//! [`EdgeMode`]: `deps_viewer`'s `--edge-mode`, the task graph's edge selections
//! (runtime-formats.md §5.3).

use serde::{Deserialize, Serialize};

/// `deps_viewer`'s `--edge-mode`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EdgeMode {
    #[default]
    Full,
    Reduced,
    Omitted,
    ReducedDataflow,
    OmittedDataflow,
}

impl EdgeMode {
    /// Every mode, in the reference's option order (the graph's buttons and number keys).
    pub const ALL: [EdgeMode; 5] = [Self::Full, Self::Reduced, Self::Omitted, Self::ReducedDataflow, Self::OmittedDataflow];

    /// The option value (`full`, `reduced`, `omitted`, `reduced_dataflow`, `omitted_dataflow`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Full => "full",
            Self::Reduced => "reduced",
            Self::Omitted => "omitted",
            Self::ReducedDataflow => "reduced_dataflow",
            Self::OmittedDataflow => "omitted_dataflow",
        }
    }

    /// Parses an option value.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.as_str() == name)
    }

    /// Position in [`EdgeMode::ALL`].
    pub fn index(self) -> usize {
        Self::ALL.iter().position(|m| *m == self).unwrap_or(0)
    }

    /// True for the two dataflow-verified modes.
    pub fn is_dataflow(self) -> bool {
        matches!(self, Self::ReducedDataflow | Self::OmittedDataflow)
    }

    /// True for the modes that show the kept edges (`reduced*`).
    pub fn shows_kept(self) -> bool {
        matches!(self, Self::Reduced | Self::ReducedDataflow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_match_serde() {
        for (i, m) in EdgeMode::ALL.into_iter().enumerate() {
            assert_eq!(EdgeMode::from_name(m.as_str()), Some(m));
            assert_eq!(m.index(), i);
            assert_eq!(serde_json::to_string(&m).unwrap_or_default(), format!("\"{}\"", m.as_str()));
        }
        assert_eq!(EdgeMode::from_name("nope"), None);
    }
}
