//! `passes_dump::validate` over file names split from the input (one per line; seeds: the
//! listings of every fixtures/passes directory, see run.sh).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pypto_formats::passes_dump;
use pypto_formats_fuzz::lines;

fuzz_target!(|data: &[u8]| {
    let owned = lines(data);
    let names: Vec<&str> = owned.iter().map(String::as_str).collect();
    let l = passes_dump::validate(&names);
    assert_eq!(l.has_frontend, names.contains(&passes_dump::FRONTEND));
    assert!(l
        .snapshots
        .windows(2)
        .all(|w| (w[0].index, &w[0].file_name) <= (w[1].index, &w[1].file_name)));
    for s in &l.snapshots {
        assert!(names.contains(&s.file_name.as_str()));
        assert!(!s.pass_name.is_empty());
    }
    if !l.has_frontend {
        assert!(!l.is_valid());
    }
    let _ = l.memory_snapshot();
});
