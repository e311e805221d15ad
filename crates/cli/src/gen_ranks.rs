//! `pypto-viewer gen <out> --ranks N [--clock-anchors] [--host-offsets-us A,B,…]`: a multi-rank
//! tree `out/dfx_outputs/rank<i>/d0/` of [`crate::gen`] captures, rank `i` with seed
//! `seed + i` (the other options are `gen`'s, the same for every rank). `--clock-anchors`
//! makes every capture host-orchestrated with clock anchors that calibrate
//! ([`crate::gen::HostClock`]), rank `i`'s host origin [`HOST_ORIGIN_NS`] + its host offset
//! (`--host-offsets-us`, one per rank; default `i × 1500` µs), so aligning the ranks by their
//! clock anchors must shift rank `i` by its offset minus the smallest one. `--clock-anchors`
//! without `--ranks` writes one such capture into `out` (offset 0). For the multi-rank
//! alignment tests and demos.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::gen::{self, GenOptions, GenSummary, HostClock};

/// Usage lines of the multi-rank options.
pub const USAGE: &str = "  pypto-viewer gen <out-dir> --ranks N [--clock-anchors] [--host-offsets-us A,B,…] [gen options]\n                  (out-dir/dfx_outputs/rank<i>/d0, seed + i; --clock-anchors: host-orchestrated, calibrated)";

/// Host origin of a rank with offset 0 (`CLOCK_MONOTONIC` ns: about 83 minutes of uptime).
pub const HOST_ORIGIN_NS: u64 = 5_000_000_000_000;

/// Default host offset step between consecutive ranks, µs.
pub const DEFAULT_OFFSET_STEP_US: u64 = 1500;

/// The multi-rank options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RankOptions {
    /// `None`: one capture in the output directory itself.
    pub ranks: Option<u32>,
    pub clock_anchors: bool,
    /// Per rank; empty: `i × DEFAULT_OFFSET_STEP_US`.
    pub host_offsets_us: Vec<u64>,
}

impl RankOptions {
    /// The host offset of rank `i`, µs.
    pub fn host_offset_us(&self, i: u32) -> u64 {
        self.host_offsets_us.get(i as usize).copied().unwrap_or(u64::from(i) * DEFAULT_OFFSET_STEP_US)
    }
}

/// Whether `args` ask for this module (`--ranks` or `--clock-anchors`).
pub fn wanted(args: &[&str]) -> bool {
    args.iter().any(|a| matches!(*a, "--ranks" | "--clock-anchors" | "--host-offsets-us"))
}

/// Splits the multi-rank options off `args` and parses the rest as `gen`'s.
pub fn parse_args(args: &[&str]) -> Result<(String, GenOptions, RankOptions), String> {
    let mut r = RankOptions::default();
    let mut rest = Vec::new();
    let mut it = args.iter().copied();
    while let Some(a) = it.next() {
        match a {
            "--ranks" => {
                let v = it.next().ok_or("--ranks needs a value")?;
                r.ranks = Some(v.parse().ok().filter(|n| (1..=256).contains(n)).ok_or_else(|| format!("--ranks: 1..256, got {v:?}"))?);
            }
            "--clock-anchors" => r.clock_anchors = true,
            "--host-offsets-us" => {
                let v = it.next().ok_or("--host-offsets-us needs a value")?;
                r.host_offsets_us = v
                    .split(',')
                    .map(|x| x.trim().parse::<u64>().map_err(|_| format!("--host-offsets-us: cannot parse {x:?}")))
                    .collect::<Result<_, _>>()?;
            }
            _ => rest.push(a),
        }
    }
    if !r.host_offsets_us.is_empty() && !r.clock_anchors {
        return Err("--host-offsets-us needs --clock-anchors".into());
    }
    if let Some(n) = r.ranks {
        if !r.host_offsets_us.is_empty() && r.host_offsets_us.len() != n as usize {
            return Err(format!("--host-offsets-us: {} offsets for {n} ranks", r.host_offsets_us.len()));
        }
    }
    let (dir, mut o) = gen::parse_args(&rest)?;
    if r.clock_anchors {
        o.host_clock = Some(HostClock { origin_ns: HOST_ORIGIN_NS + r.host_offset_us(0) * 1000 });
        gen::validate(&o)?;
    }
    Ok((dir, o, r))
}

/// The directory of rank `i` under `out`.
pub fn rank_dir(out: &Path, i: u32) -> PathBuf {
    out.join("dfx_outputs").join(format!("rank{i}")).join("d0")
}

/// Writes the captures: `(directory, what was written)` per rank (one, in `out`, without
/// `--ranks`).
pub fn generate(out: &Path, o: &GenOptions, r: &RankOptions) -> Result<Vec<(PathBuf, GenSummary)>, String> {
    let Some(ranks) = r.ranks else {
        return Ok(vec![(out.to_path_buf(), gen::generate(out, o)?)]);
    };
    let mut written = Vec::with_capacity(ranks as usize);
    for i in 0..ranks {
        let dir = rank_dir(out, i);
        let host_clock = r.clock_anchors.then(|| HostClock { origin_ns: HOST_ORIGIN_NS + r.host_offset_us(i) * 1000 });
        let rank = GenOptions { seed: o.seed.wrapping_add(u64::from(i)), host_clock, ..o.clone() };
        written.push((dir.clone(), gen::generate(&dir, &rank)?));
    }
    Ok(written)
}

/// `gen` with multi-rank options (arguments after the subcommand name).
pub fn run(args: &[&str]) -> ExitCode {
    let (dir, o, r) = match parse_args(args) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("pypto-viewer gen: {e}\nusage:\n{}\n{USAGE}", gen::USAGE);
            return ExitCode::from(2);
        }
    };
    match generate(Path::new(&dir), &o, &r) {
        Ok(written) => {
            for (i, (path, s)) in written.iter().enumerate() {
                let host = if r.clock_anchors {
                    format!(
                        ", host origin {} ns (offset {} µs), clock anchors",
                        HOST_ORIGIN_NS + r.host_offset_us(i as u32) * 1000,
                        r.host_offset_us(i as u32)
                    )
                } else {
                    String::new()
                };
                println!(
                    "wrote {}: {} tasks, {} AICore rows, level {}, seed {}{host}",
                    path.display(),
                    s.tasks,
                    s.aicore_rows,
                    o.level,
                    o.seed.wrapping_add(i as u64)
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pypto-viewer gen: {e}");
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::float_cmp)]
    use super::*;
    use pypto_analysis::alignment;
    use pypto_analysis::runtime_model::{CpmInputs, RuntimeModel};
    use pypto_analysis::timebase::Alignment;
    use pypto_formats::{deps, records};
    use pypto_vocab::{AlignedBy, TimelineAlign};

    fn tmp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("pypto-gen-ranks-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    fn model(dir: &Path) -> RuntimeModel {
        let r = records::parse("r", &std::fs::read(dir.join("chip_swimlane_records.json")).unwrap()).unwrap();
        let d = deps::parse("d", &std::fs::read(dir.join("deps.json")).unwrap()).unwrap();
        RuntimeModel::build_owned(r, Some(d), None, CpmInputs::default()).0
    }

    #[test]
    fn clock_anchored_ranks_align_by_their_injected_host_offsets() {
        let out = tmp("anchors");
        let args = ["x", "--ranks", "3", "--clock-anchors", "--host-offsets-us", "700,0,2250", "--tasks", "120", "--level", "4"];
        let (_, o, r) = parse_args(&args).unwrap();
        let written = generate(&out, &o, &r).unwrap();
        assert_eq!(written.iter().map(|w| w.0.clone()).collect::<Vec<_>>(), (0..3).map(|i| rank_dir(&out, i)).collect::<Vec<_>>());
        let models: Vec<RuntimeModel> = written.iter().map(|(d, _)| model(d)).collect();
        for (m, offset) in models.iter().zip([700, 0, 2250]) {
            let tb = m.tasks.timebase.as_ref().unwrap();
            assert!(matches!(tb.alignment, Alignment::HostCalibrated { drift_ns: 0, .. }), "{tb:?}");
            assert_eq!(alignment::calibrated_host_origin_ns(m), Some(HOST_ORIGIN_NS + offset * 1000));
            assert!(m.host_mode && !m.orch.is_empty(), "host orchestrator records");
            // The earliest device event is at the host origin: µs 0 on the rank's own axis.
            assert!(m.orch.iter().flat_map(|x| x.start_us.iter()).fold(f64::INFINITY, f64::min) == 0.0);
        }
        let labelled: Vec<(&str, &RuntimeModel)> = ["r0", "r1", "r2"].into_iter().zip(&models).collect();
        let plan = alignment::plan(&labelled, &TimelineAlign::Auto);
        assert_eq!(
            plan.placements.iter().map(|p| (p.offset_us, p.by)).collect::<Vec<_>>(),
            [(700.0, AlignedBy::ClockAnchors), (0.0, AlignedBy::ClockAnchors), (2250.0, AlignedBy::ClockAnchors)]
        );
        // Distinct seeds: the ranks' captures differ.
        let bytes = |i: u32| std::fs::read(rank_dir(&out, i).join("deps.json")).unwrap();
        assert_ne!(bytes(0), bytes(1));
        let _ = std::fs::remove_dir_all(&out);
    }

    #[test]
    fn ranks_without_anchors_are_device_captures_aligned_at_first_dispatch() {
        let out = tmp("plain");
        let (_, o, r) = parse_args(&["x", "--ranks", "2", "--tasks", "80", "--seed", "5"]).unwrap();
        assert_eq!(o.host_clock, None);
        let written = generate(&out, &o, &r).unwrap();
        // Rank 0 is the plain capture of the same options: byte for byte.
        let single = tmp("plain-single");
        gen::generate(&single, &o).unwrap();
        for f in ["chip_swimlane_records.json", "deps.json"] {
            assert_eq!(std::fs::read(rank_dir(&out, 0).join(f)).unwrap(), std::fs::read(single.join(f)).unwrap(), "{f}");
        }
        let models: Vec<RuntimeModel> = written.iter().map(|(d, _)| model(d)).collect();
        let labelled: Vec<(&str, &RuntimeModel)> = ["a", "b"].into_iter().zip(&models).collect();
        let plan = alignment::plan(&labelled, &TimelineAlign::Auto);
        assert!(plan.placements.iter().all(|p| p.by == AlignedBy::FirstDispatch), "{plan:?}");
        assert_eq!(plan.label, "aligned at first dispatch: no dataset has calibrated clock anchors");
        for d in [out, single] {
            let _ = std::fs::remove_dir_all(d);
        }
    }

    #[test]
    fn parses_the_rank_options() {
        let (dir, o, r) = parse_args(&["out", "--ranks", "2", "--clock-anchors", "--level", "3"]).unwrap();
        assert_eq!((dir.as_str(), o.level, r.ranks, r.clock_anchors), ("out", 3, Some(2), true));
        assert_eq!((r.host_offset_us(0), r.host_offset_us(1)), (0, DEFAULT_OFFSET_STEP_US));
        assert!(parse_args(&["out", "--ranks", "0"]).is_err());
        assert!(parse_args(&["out", "--ranks", "2", "--clock-anchors", "--host-offsets-us", "1,2,3"]).is_err());
        assert!(parse_args(&["out", "--host-offsets-us", "1"]).is_err());
        assert!(parse_args(&["out", "--clock-anchors", "--clock-hz", "3000000"]).is_err());
        assert!(wanted(&["out", "--ranks", "2"]) && !wanted(&["out", "--tasks", "2"]));
    }
}
