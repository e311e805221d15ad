//! `strace::parse` (serving STRACE model over the Chrome trace reader) on arbitrary bytes;
//! also the bar-name and lane-name helpers on every string the trace interned.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pypto_formats::strace;
use pypto_formats_fuzz::{check_error, PATH};

fuzz_target!(|data: &[u8]| {
    match strace::parse(PATH, data) {
        Err(e) => check_error(&e, PATH),
        Ok(s) => {
            let n = s.trace.events.len();
            assert_eq!(s.processes.len(), s.trace.processes.len());
            for lane in &s.device_lanes {
                assert!((lane.thread as usize) < s.trace.threads.len());
            }
            for &i in s.spans.iter().chain(&s.instants) {
                assert!((i as usize) < n, "event index {i} out of {n}");
            }
            for i in 0..n {
                let _ = (s.event_process_kind(i), s.event_device_lane(i));
            }
            let _ = s.total_duration_us();
            for name in &s.trace.strings {
                if let Some(b) = strace::split_bar_name(name) {
                    let _ = b.is_root();
                }
                let _ = (strace::worker_devices(name), strace::lane_device(name));
            }
        }
    }
});
