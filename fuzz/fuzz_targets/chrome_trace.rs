//! `chrome_trace::parse_with` on arbitrary bytes (seeds: the fixtures' merged_swimlane and
//! CPM traces). The first byte's low bit picks `keep_args`, so both storage paths run.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pypto_formats::chrome_trace::{self, ParseOptions};
use pypto_formats_fuzz::{check_error, same_len, PATH};

fuzz_target!(|data: &[u8]| {
    let keep_args = data.first().is_some_and(|b| b & 1 == 1);
    match chrome_trace::parse_with(PATH, data, ParseOptions { keep_args }) {
        Err(e) => check_error(&e, PATH),
        Ok(t) => {
            let ev = &t.events;
            let n = ev.len();
            same_len(
                "events",
                &[
                    ev.ph.len(),
                    ev.name.len(),
                    ev.cat.len(),
                    ev.cname.len(),
                    ev.thread.len(),
                    ev.ts_us.len(),
                    ev.dur_us.len(),
                    ev.id.len(),
                    ev.bind_id.len(),
                    ev.task_id.len(),
                    ev.flags.len(),
                ],
            );
            assert_eq!(t.document.event_count, n as u64);
            assert!(ev.ph.iter().all(|&p| chrome_trace::is_known_phase(p)));
            for th in &t.threads {
                assert!((th.process as usize) < t.processes.len());
            }
            for i in 0..n {
                assert!(t.event_thread(i).is_some(), "event {i} without a thread");
                let _ = (
                    t.event_name(i),
                    t.event_pid(i),
                    t.event_tid(i),
                    ev.end_us(i),
                );
                let _ = (
                    ev.task_id_of(i),
                    ev.task_id_snake_of(i),
                    ev.id_of(i),
                    ev.bind_id_of(i),
                );
                let _ = t.event_args(i).count();
            }
            match &t.args {
                Some(a) => {
                    assert!(keep_args);
                    assert_eq!(a.offsets.len(), n + 1);
                    assert!(a.offsets.windows(2).all(|w| w[0] <= w[1]));
                    same_len("args", &[a.key.len(), a.value.len()]);
                    assert_eq!(a.offsets.last().copied(), Some(a.key.len() as u32));
                }
                None => assert!(!keep_args),
            }
        }
    }
});
