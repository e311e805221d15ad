//! The Chip Swimlane "Performance Analysis" panel of the VS Code extension
//! (toolkit-features.md I3, G6, I7, I9, I10), one analysis per module, for the worker (panel
//! tables) and the CLI report. The critical-path section (I8) is [`crate::critical_path`].
//! Where the extension's documentation is vague, each module doc states the rule used here.

pub mod early_dispatch;
pub mod gap_blocker;
pub mod overview;
pub mod paths;
pub mod setup_leaderboard;
pub mod single_dep_chains;
