//! `manifest::parse` on arbitrary bytes (seeds: manifests written by `manifest::to_json` over
//! the fixture tree, see run.sh); an accepted manifest never holds an unsafe path, and a
//! written manifest reads back to the same entries.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pypto_formats::manifest;
use pypto_formats_fuzz::{check_error, PATH};

fuzz_target!(|data: &[u8]| {
    match manifest::parse(PATH, data) {
        Err(e) => check_error(&e, PATH),
        Ok(entries) => {
            for (p, _) in &entries {
                assert_eq!(manifest::check_path(p), None, "unsafe path accepted: {p:?}");
            }
            // Round trip: what we write, we read back (sorted, deduplicated).
            let json = manifest::to_json(&entries);
            let back = manifest::parse(PATH, json.as_bytes()).expect("own output reads back");
            let mut want = entries.clone();
            want.sort_by(|a, b| a.0.cmp(&b.0));
            want.dedup_by(|a, b| a.0 == b.0);
            assert_eq!(back, want);
        }
    }
});
