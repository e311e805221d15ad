//! How a timeline of several runtime datasets (a multi-rank group, two compared runs) places
//! them on one time axis: the mode the page asks for ([`TimelineAlign`]) and, per dataset,
//! what was done ([`AlignedBy`]). The rules are `pypto_analysis::alignment`'s.

use serde::{Deserialize, Serialize};

use crate::TaskId;

/// The alignment a timeline of several datasets is asked with. A timeline of one dataset is
/// never shifted, whatever the mode.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimelineAlign {
    /// Clock anchors when every dataset's records calibrate to host time, else first dispatch.
    #[default]
    Auto,
    /// Each dataset shifted so that its first dispatch is at 0.
    FirstDispatch,
    /// Per dataset (in the request's order), shifted so that this task's first start is at 0;
    /// `None` or a task the dataset lacks: its first dispatch.
    Task(Vec<Option<TaskId>>),
    /// Each dataset on its own axis (µs since its own base or host origin).
    None,
}

impl TimelineAlign {
    /// The mode's key in links and the page's chooser: `auto`, `first`, `task`, `none`.
    pub fn key(&self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::FirstDispatch => "first",
            Self::Task(_) => "task",
            Self::None => "none",
        }
    }
}

/// How one dataset of a timeline was placed on the shared axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AlignedBy {
    /// Not shifted: its own axis (a single dataset, mode `None`, or nothing to align at).
    NotAligned,
    /// Its host origin's distance from the earliest host origin (clock anchors calibrated).
    ClockAnchors,
    /// Its first dispatch (level 1: its first `AICore` receive / start) at 0.
    FirstDispatch,
    /// The first start of this task at 0.
    Task(TaskId),
}

impl AlignedBy {
    /// A short key for tests and the DOM: `none`, `anchors`, `first`, `task`.
    pub fn key(self) -> &'static str {
        match self {
            Self::NotAligned => "none",
            Self::ClockAnchors => "anchors",
            Self::FirstDispatch => "first",
            Self::Task(_) => "task",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_travel_as_json_and_default_to_auto() {
        let task = TimelineAlign::Task(vec![Some(TaskId::from_parts(2, 17)), None]);
        let json = serde_json::to_string(&task).unwrap_or_default();
        assert_eq!(json, r#"{"task":["8589934609",null]}"#);
        assert_eq!(serde_json::from_str::<TimelineAlign>(&json).ok(), Some(task));
        assert_eq!(serde_json::from_str::<TimelineAlign>(r#""first_dispatch""#).ok(), Some(TimelineAlign::FirstDispatch));
        assert_eq!(TimelineAlign::default(), TimelineAlign::Auto);
        let keys: Vec<&str> = [TimelineAlign::Auto, TimelineAlign::FirstDispatch, TimelineAlign::Task(vec![]), TimelineAlign::None]
            .iter()
            .map(TimelineAlign::key)
            .collect();
        assert_eq!(keys, ["auto", "first", "task", "none"]);
        assert_eq!(AlignedBy::Task(TaskId(3)).key(), "task");
    }
}
