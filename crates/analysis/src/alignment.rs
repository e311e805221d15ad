//! Where each dataset of a multi-dataset timeline (a multi-rank group, two compared runs) sits
//! on the shared time axis: one offset in µs per dataset, added to every bar of it
//! ([`crate::timeline::TimelineBuilder::aligned`]), and one human label for the timeline. For
//! the worker (which plans from its resident models before a job lays the timeline out), the
//! CLI and the tests.
//!
//! Each dataset's own axis is µs since its `base_cycles`, or, in host mode, since its host
//! origin ([`crate::timebase`]). The modes ([`TimelineAlign`]):
//!
//! - `Auto`: when every dataset's records calibrate to host time
//!   ([`Alignment::HostCalibrated`]: its µs are host `CLOCK_MONOTONIC` ns since its own host
//!   origin, / 1000), dataset `k` is shifted by `(origin_k − min origin) / 1000` µs, so all
//!   sit on the shared host clock ("aligned by clock anchors (host `CLOCK_MONOTONIC`)");
//!   otherwise as `FirstDispatch`, the label naming a dataset without calibrated anchors.
//! - `FirstDispatch`: dataset `k` is shifted by `−first_k`, `first_k` = its earliest AICPU
//!   dispatch over the joined rows with AICPU timing, or without any (level 1) its earliest
//!   AICore bar start (receive, else start). A dataset with no task row is not shifted.
//! - `Task(ids)`: dataset `k` is shifted by `−start`, `start` = the earliest AICore start of
//!   task `ids[k]` (else the earliest marker of it: dummy, alloc, predicated skip); a dataset
//!   whose entry is `None` or lacks that task is placed at its first dispatch (said in the
//!   label).
//! - `None`: no shift.
//!
//! A timeline of one dataset is never shifted and has no label, whatever the mode.

use crate::runtime_model::RuntimeModel;
use crate::timebase::Alignment;
use crate::worker_view::bar_start_us;
use pypto_vocab::{AlignedBy, TaskId, TimelineAlign};

/// How one dataset is placed: its shift and why.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Placement {
    /// Added to every time of the dataset's bars on the timeline.
    pub offset_us: f64,
    pub by: AlignedBy,
}

impl Placement {
    /// Not shifted.
    pub const UNSHIFTED: Self = Self { offset_us: 0.0, by: AlignedBy::NotAligned };
}

/// The placements of a timeline's datasets (in model order) and the timeline's label.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AlignmentPlan {
    pub placements: Vec<Placement>,
    /// Empty for a timeline of one dataset.
    pub label: String,
}

impl AlignmentPlan {
    /// `datasets` datasets, none shifted, no label.
    pub fn unshifted(datasets: usize) -> Self {
        Self { placements: vec![Placement::UNSHIFTED; datasets], label: String::new() }
    }

    /// The shift of dataset `d` (0 when the plan does not name it).
    pub fn offset_us(&self, d: u32) -> f64 {
        self.placements.get(d as usize).map_or(0.0, |p| p.offset_us)
    }
}

/// The host origin (ns) of a dataset whose device time is calibrated to host time.
pub fn calibrated_host_origin_ns(m: &RuntimeModel) -> Option<u64> {
    let tb = m.tasks.timebase.as_ref()?;
    match tb.alignment {
        Alignment::HostCalibrated { .. } => tb.host_origin_ns,
        _ => None,
    }
}

/// The dataset's first dispatch (µs on its own axis): the earliest AICPU dispatch of the rows
/// with AICPU timing, else (level 1) the earliest AICore bar start; `None` without task rows.
pub fn first_dispatch_us(m: &RuntimeModel) -> Option<f64> {
    let t = &m.tasks;
    let dispatch = (0..t.len()).filter(|&r| t.has_aicpu(r)).filter_map(|r| t.dispatch_us(r)).min_by(f64::total_cmp);
    dispatch.or_else(|| (0..t.len()).map(|r| bar_start_us(t, r)).min_by(f64::total_cmp))
}

/// The first start of task `id` (µs on the dataset's own axis): its earliest AICore start,
/// else its earliest marker start; `None` when the dataset has no bar of it.
pub fn task_start_us(m: &RuntimeModel, id: u64) -> Option<f64> {
    let rows = m.kinds.rows_of(id).filter_map(|r| m.tasks.start_us(r as usize)).min_by(f64::total_cmp);
    rows.or_else(|| m.kinds.markers_of(id).filter_map(|k| m.kinds.markers.start_us.get(k as usize).copied()).min_by(f64::total_cmp))
}

/// The short names of datasets for labels: their paths without the leading directories they
/// all share (`case/dfx_outputs/rank1/d0` → `rank1/d0`); a path that would be left empty
/// keeps its last component.
pub fn short_names(paths: &[&str]) -> Vec<String> {
    let split: Vec<Vec<&str>> = paths.iter().map(|p| p.split('/').filter(|s| !s.is_empty()).collect()).collect();
    let shortest = split.iter().map(Vec::len).min().unwrap_or(0);
    let common = (0..shortest).take_while(|&i| split.iter().all(|s| s.get(i) == split.first().and_then(|f| f.get(i)))).count();
    split
        .iter()
        .zip(paths)
        .map(|(parts, path)| {
            let keep = common.min(parts.len().saturating_sub(1));
            let rest = parts.get(keep..).unwrap_or_default().join("/");
            if rest.is_empty() {
                (*path).to_owned()
            } else {
                rest
            }
        })
        .collect()
}

/// `a`, `a and b`, `a, b and 2 more`.
fn listed(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [a] => (*a).to_owned(),
        [a, b] => format!("{a} and {b}"),
        [a, b, rest @ ..] => format!("{a}, {b} and {} more", rest.len()),
    }
}

/// Plans the placements of `datasets` (`(path, model)`, in the timeline's order) for `mode`.
pub fn plan(datasets: &[(&str, &RuntimeModel)], mode: &TimelineAlign) -> AlignmentPlan {
    if datasets.len() < 2 {
        return AlignmentPlan::unshifted(datasets.len());
    }
    let paths: Vec<&str> = datasets.iter().map(|(p, _)| *p).collect();
    let names = short_names(&paths);
    match mode {
        TimelineAlign::None => AlignmentPlan {
            placements: vec![Placement::UNSHIFTED; datasets.len()],
            label: "not aligned: each dataset on its own time axis".to_owned(),
        },
        TimelineAlign::Auto => {
            let origins: Vec<Option<u64>> = datasets.iter().map(|(_, m)| calibrated_host_origin_ns(m)).collect();
            if let Some(origins) = origins.iter().copied().collect::<Option<Vec<u64>>>() {
                by_clock_anchors(&origins)
            } else {
                let without: Vec<&str> = names.iter().zip(&origins).filter(|(_, o)| o.is_none()).map(|(n, _)| n.as_str()).collect();
                let verb = if without.len() == 1 { "has" } else { "have" };
                let why = if without.len() == datasets.len() {
                    "no dataset has calibrated clock anchors".to_owned()
                } else {
                    format!("{} {verb} no calibrated clock anchors", listed(&without))
                };
                at_first_dispatch(datasets, &names, Some(&why))
            }
        }
        TimelineAlign::FirstDispatch => at_first_dispatch(datasets, &names, None),
        TimelineAlign::Task(ids) => at_tasks(datasets, &names, ids),
    }
}

fn by_clock_anchors(origins: &[u64]) -> AlignmentPlan {
    let earliest = origins.iter().copied().min().unwrap_or(0);
    let placements = origins
        .iter()
        .map(|&o| Placement { offset_us: (i128::from(o) - i128::from(earliest)) as f64 / 1000.0, by: AlignedBy::ClockAnchors })
        .collect();
    AlignmentPlan { placements, label: "aligned by clock anchors (host CLOCK_MONOTONIC)".to_owned() }
}

/// The first-dispatch placement of one dataset (unshifted when it has no task row).
fn first_dispatch_placement(m: &RuntimeModel) -> Placement {
    first_dispatch_us(m).map_or(Placement::UNSHIFTED, |first| Placement { offset_us: -first, by: AlignedBy::FirstDispatch })
}

/// What the label adds about datasets left unshifted (nothing to align at).
fn unshifted_note(names: &[String], placements: &[Placement]) -> String {
    let left: Vec<&str> = names.iter().zip(placements).filter(|(_, p)| p.by == AlignedBy::NotAligned).map(|(n, _)| n.as_str()).collect();
    if left.is_empty() {
        String::new()
    } else {
        format!("; {} not shifted (no task rows)", listed(&left))
    }
}

fn at_first_dispatch(datasets: &[(&str, &RuntimeModel)], names: &[String], why: Option<&str>) -> AlignmentPlan {
    let placements: Vec<Placement> = datasets.iter().map(|(_, m)| first_dispatch_placement(m)).collect();
    let mut label = "aligned at first dispatch".to_owned();
    if let Some(why) = why {
        label = format!("{label}: {why}");
    }
    label.push_str(&unshifted_note(names, &placements));
    AlignmentPlan { placements, label }
}

fn at_tasks(datasets: &[(&str, &RuntimeModel)], names: &[String], ids: &[Option<TaskId>]) -> AlignmentPlan {
    let mut placements = Vec::with_capacity(datasets.len());
    let mut missing: Vec<String> = Vec::new();
    for (k, ((_, m), name)) in datasets.iter().zip(names).enumerate() {
        let id = ids.get(k).copied().flatten();
        if let Some((id, start)) = id.and_then(|id| task_start_us(m, id.raw()).map(|s| (id, s))) {
            placements.push(Placement { offset_us: -start, by: AlignedBy::Task(id) });
        } else {
            missing.push(match id {
                Some(id) => format!("{name} has no task {id}"),
                None => format!("{name} names no task"),
            });
            placements.push(first_dispatch_placement(m));
        }
    }
    let mut tasks: Vec<TaskId> = placements
        .iter()
        .filter_map(|p| match p.by {
            AlignedBy::Task(id) => Some(id),
            _ => None,
        })
        .collect();
    tasks.dedup();
    let mut label = match tasks.as_slice() {
        [] => "aligned at first dispatch".to_owned(),
        [one] => format!("aligned at task {one}"),
        _ => {
            let each: Vec<String> = names
                .iter()
                .zip(&placements)
                .filter_map(|(n, p)| match p.by {
                    AlignedBy::Task(id) => Some(format!("{id} ({n})")),
                    _ => None,
                })
                .collect();
            format!("aligned at tasks {}", each.join(", "))
        }
    };
    if !missing.is_empty() {
        label = format!("{label}; {}: at first dispatch", missing.join(", "));
    }
    label.push_str(&unshifted_note(names, &placements));
    AlignmentPlan { placements, label }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timebase::Timebase;
    use pypto_formats::records::CoreType;

    /// A model of `rows` `(task id, receive, start, end, dispatch)` µs rows (dispatch 0: no
    /// AICPU timing), with `origin_ns` as a calibrated host origin when given.
    fn model(rows: &[(u64, f64, f64, f64, f64)], origin_ns: Option<u64>) -> RuntimeModel {
        let mut m = RuntimeModel::default();
        for &(id, receive, start, end, dispatch) in rows {
            let finish = if dispatch > 0.0 { end + 1.0 } else { 0.0 };
            m.tasks.push_us(id, 0, CoreType::Aiv, [start, end, dispatch, finish, receive]);
        }
        m.kinds = crate::task_kinds::classify_with(&pypto_formats::records::ChipRecords::default(), &m.tasks, None, &[], &[]);
        if let Some(origin) = origin_ns {
            let alignment =
                Alignment::HostCalibrated { origin_ns: i128::from(origin), start_mid_ns: 0, start_cycles: 0, span_cycles: 1, drift_ns: 0 };
            m.tasks.timebase = Some(Timebase { alignment, host_origin_ns: Some(origin), ..Timebase::device(0, 50_000_000) });
        }
        m
    }

    fn offsets(p: &AlignmentPlan) -> Vec<f64> {
        p.placements.iter().map(|x| x.offset_us).collect()
    }

    #[test]
    fn one_dataset_is_never_shifted() {
        let m = model(&[(1, 5.0, 6.0, 9.0, 4.0)], Some(1_000));
        for mode in [TimelineAlign::Auto, TimelineAlign::FirstDispatch, TimelineAlign::Task(vec![Some(TaskId(1))]), TimelineAlign::None] {
            assert_eq!(plan(&[("a", &m)], &mode), AlignmentPlan::unshifted(1), "{mode:?}");
        }
        assert_eq!(plan(&[], &TimelineAlign::Auto), AlignmentPlan::unshifted(0));
    }

    #[test]
    fn auto_uses_the_clock_anchors_when_every_dataset_calibrates() {
        let a = model(&[(1, 5.0, 6.0, 9.0, 4.0)], Some(2_000_500_000));
        let b = model(&[(1, 50.0, 60.0, 90.0, 40.0)], Some(2_000_000_000));
        let c = model(&[(1, 1.0, 2.0, 3.0, 0.5)], Some(2_001_250_750));
        let p = plan(&[("run/rank0/d0", &a), ("run/rank1/d0", &b), ("run/rank2/d0", &c)], &TimelineAlign::Auto);
        assert_eq!(offsets(&p), [500.0, 0.0, 1250.75]);
        assert!(p.placements.iter().all(|x| x.by == AlignedBy::ClockAnchors));
        assert_eq!(p.label, "aligned by clock anchors (host CLOCK_MONOTONIC)");
    }

    #[test]
    fn auto_falls_back_to_first_dispatch_and_names_who_lacks_anchors() {
        let a = model(&[(1, 5.0, 6.0, 9.0, 4.0), (2, 3.0, 3.5, 4.0, 2.5)], Some(1_000));
        let b = model(&[(1, 50.0, 60.0, 90.0, 40.0)], None);
        let p = plan(&[("run/rank0/d0", &a), ("run/rank1/d0", &b)], &TimelineAlign::Auto);
        assert_eq!(offsets(&p), [-2.5, -40.0]);
        assert!(p.placements.iter().all(|x| x.by == AlignedBy::FirstDispatch));
        assert_eq!(p.label, "aligned at first dispatch: rank1/d0 has no calibrated clock anchors");
        let c = model(&[(1, 50.0, 60.0, 90.0, 40.0)], None);
        let p = plan(&[("x/a", &b), ("x/b", &c)], &TimelineAlign::Auto);
        assert_eq!(p.label, "aligned at first dispatch: no dataset has calibrated clock anchors");
    }

    #[test]
    fn first_dispatch_takes_the_earliest_dispatch_or_at_level_1_the_earliest_bar_start() {
        let l4 = model(&[(1, 5.0, 6.0, 9.0, 4.0), (2, 1.0, 2.0, 3.0, 7.0)], Some(1));
        // Level 1: no AICPU timing; the earliest receive (bar start) wins over a later start.
        let l1 = model(&[(1, 8.0, 9.0, 10.0, 0.0), (2, 3.0, 11.0, 12.0, 0.0)], None);
        let empty = RuntimeModel::default();
        let p = plan(&[("r/a", &l4), ("r/b", &l1), ("r/c", &empty)], &TimelineAlign::FirstDispatch);
        assert_eq!(offsets(&p), [-4.0, -3.0, 0.0]);
        assert_eq!(p.placements.iter().map(|x| x.by.key()).collect::<Vec<_>>(), ["first", "first", "none"]);
        assert_eq!(p.label, "aligned at first dispatch; c not shifted (no task rows)");
    }

    #[test]
    fn task_mode_puts_the_tasks_first_start_at_0_and_says_who_lacks_it() {
        let a = model(&[(1, 5.0, 6.0, 9.0, 4.0), (7, 10.0, 12.0, 13.0, 9.0), (7, 10.0, 11.0, 13.0, 9.0)], None);
        let b = model(&[(7, 30.0, 31.0, 33.0, 29.0)], None);
        let c = model(&[(1, 1.0, 2.0, 3.0, 0.5)], None);
        let t7 = Some(TaskId(7));
        let p = plan(&[("r/a", &a), ("r/b", &b), ("r/c", &c)], &TimelineAlign::Task(vec![t7, t7, t7]));
        assert_eq!(offsets(&p), [-11.0, -31.0, -0.5]);
        assert_eq!(
            p.placements.iter().map(|x| x.by).collect::<Vec<_>>(),
            [AlignedBy::Task(TaskId(7)), AlignedBy::Task(TaskId(7)), AlignedBy::FirstDispatch]
        );
        assert_eq!(p.label, "aligned at task t7; c has no task t7: at first dispatch");
        let p = plan(&[("r/a", &a), ("r/b", &b)], &TimelineAlign::Task(vec![Some(TaskId(1)), t7]));
        assert_eq!(offsets(&p), [-6.0, -31.0]);
        assert_eq!(p.label, "aligned at tasks t1 (a), t7 (b)");
        let p = plan(&[("r/a", &a), ("r/b", &b)], &TimelineAlign::Task(vec![t7]));
        assert_eq!(p.label, "aligned at task t7; b names no task: at first dispatch");
    }

    #[test]
    fn none_keeps_every_axis_and_says_so() {
        let a = model(&[(1, 5.0, 6.0, 9.0, 4.0)], Some(5));
        let p = plan(&[("a", &a), ("b", &a)], &TimelineAlign::None);
        assert_eq!(offsets(&p), [0.0, 0.0]);
        assert_eq!(p.label, "not aligned: each dataset on its own time axis");
    }

    #[test]
    fn short_names_drop_the_shared_directories() {
        assert_eq!(short_names(&["case/dfx_outputs/rank0/d0", "case/dfx_outputs/rank1/d0"]), ["rank0/d0", "rank1/d0"]);
        assert_eq!(short_names(&["a/x", "a/x"]), ["x", "x"]);
        assert_eq!(short_names(&["", "b"]), ["", "b"]);
        assert_eq!(listed(&["a", "b", "c", "d"]), "a, b and 2 more");
    }
}
