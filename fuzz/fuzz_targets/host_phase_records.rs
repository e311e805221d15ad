//! `host_phase_records::parse` on arbitrary bytes (seeds: the fixtures'
//! host_phase_records.jsonl). Skipped lines are warnings that must carry positions too.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pypto_formats::host_phase_records;
use pypto_formats_fuzz::{check_error, check_positioned_warning, same_len, PATH};

fuzz_target!(|data: &[u8]| {
    match host_phase_records::parse(PATH, data) {
        Err(e) => check_error(&e, PATH),
        Ok(h) => {
            let passes = h.pass_count();
            same_len(
                "passes",
                &[
                    h.pass_pid.len(),
                    h.pass_inv.len(),
                    h.pass_clock.len(),
                    h.pass_dropped.len(),
                    h.pass_line.len(),
                    h.record_offsets.len().saturating_sub(1),
                ],
            );
            assert!(
                h.record_offsets.len() == passes + 1
                    || (passes == 0 && h.record_offsets.len() <= 1)
            );
            assert!(h.record_offsets.windows(2).all(|w| w[0] <= w[1]));
            same_len(
                "records",
                &[
                    h.phase.len(),
                    h.start_ns.len(),
                    h.end_ns.len(),
                    h.detail.len(),
                    h.tid.len(),
                ],
            );
            if let Some(&last) = h.record_offsets.last() {
                assert_eq!(last as usize, h.record_count());
            }
            assert!(h.phase.iter().all(|&p| (p as usize) < h.phase_names.len()));
            assert!(h.pass_line.windows(2).all(|w| w[0] < w[1]));
            for p in 0..passes {
                for r in h.records_of(p) {
                    let _ = (h.phase_name(r), h.duration_ns(r));
                }
            }
            for w in &h.warnings {
                check_positioned_warning(w, PATH);
            }
        }
    }
});
