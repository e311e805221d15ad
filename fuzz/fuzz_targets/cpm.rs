//! `cpm::read_path` on arbitrary bytes (seeds: the fixtures' CPM_static / CPM_observed files).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pypto_formats::cpm;
use pypto_formats_fuzz::{check_error, same_len, PATH};

fuzz_target!(|data: &[u8]| {
    match cpm::read_path(PATH, data) {
        Err(e) => check_error(&e, PATH),
        Ok(p) => {
            same_len(
                "path",
                &[p.task_ids.len(), p.first_ts_us.len(), p.last_end_us.len()],
            );
            let mut ids = p.task_ids.clone();
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(ids.len(), p.task_ids.len(), "duplicate task on the path");
            assert!(p.off_path_bars <= p.task_bars);
            assert!(p.task_ids.len() as u64 + p.off_path_tasks <= p.task_bars);
            for &t in &p.task_ids {
                assert!(p.contains(t));
            }
        }
    }
});
