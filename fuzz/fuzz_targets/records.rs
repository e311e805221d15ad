//! `records::parse` on arbitrary bytes (seeds: every fixture `chip_swimlane_records.json`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pypto_formats::records;
use pypto_formats_fuzz::{check_error, same_len, PATH};

fuzz_target!(|data: &[u8]| {
    match records::parse(PATH, data) {
        Err(e) => check_error(&e, PATH),
        Ok(r) => {
            assert!(!r.format.is_empty());
            let a = &r.aicore;
            same_len(
                "aicore",
                &[
                    a.core_id.len(),
                    a.task_id.len(),
                    a.reg_task_id.len(),
                    a.start_cycles.len(),
                    a.end_cycles.len(),
                    a.receive_to_start_cycles.len(),
                    a.run_epoch.len(),
                ],
            );
            let c = &r.aicpu;
            same_len(
                "aicpu",
                &[
                    c.core_id.len(),
                    c.reg_task_id.len(),
                    c.dispatch_cycles.len(),
                    c.finish_cycles.len(),
                    c.run_epoch.len(),
                ],
            );
            for t in &r.sched_threads {
                same_len(
                    "sched",
                    &[
                        t.kind.len(),
                        t.start_cycles.len(),
                        t.end_cycles.len(),
                        t.loop_iter.len(),
                        t.tasks_processed.len(),
                        t.pop_hit.len(),
                        t.pop_miss.len(),
                        t.task_id.len(),
                        t.shared_at_start.len(),
                        t.shared_at_end.len(),
                        t.run_epoch.len(),
                    ],
                );
            }
            for t in &r.orch_threads {
                same_len(
                    "orch",
                    &[
                        t.submit_idx.len(),
                        t.task_id.len(),
                        t.start_cycles.len(),
                        t.end_cycles.len(),
                        t.run_epoch.len(),
                    ],
                );
            }
            for t in &r.host_orch_threads {
                same_len(
                    "host orch",
                    &[
                        t.submit_idx.len(),
                        t.task_id.len(),
                        t.start_host_ns.len(),
                        t.end_host_ns.len(),
                    ],
                );
            }
            let u = &r.host_uploads;
            same_len(
                "uploads",
                &[
                    u.phase.len(),
                    u.start_host_ns.len(),
                    u.end_host_ns.len(),
                    u.detail_bytes.len(),
                ],
            );
            assert!(u.phase.iter().all(|&p| (p as usize) < u.phase_names.len()));
            match &r.v1_tasks {
                Some(v) => {
                    same_len(
                        "v1 tasks",
                        &[
                            v.task_id.len(),
                            v.func_id.len(),
                            v.core_id.len(),
                            v.core_type.len(),
                            v.ring_id.len(),
                            v.start_us.len(),
                            v.end_us.len(),
                            v.dispatch_us.len(),
                            v.finish_us.len(),
                        ],
                    );
                    for o in &v.orch_threads {
                        assert!(o.phase.iter().all(|&p| (p as usize) < o.phase_names.len()));
                    }
                }
                None => assert!(r.metadata.clock_freq_hz > 0, "raw records without a clock"),
            }
            let _ = r.is_host_mode();
            let _ = r.aicore_row_count();
            for core in [0, 1, u32::MAX] {
                let _ = r.metadata.core_type(core);
                let _ = r.metadata.thread_of_core(core);
            }
        }
    }
});
