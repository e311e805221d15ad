//! `name_map::parse` on arbitrary bytes (seeds: every fixture `name_map*.json`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pypto_formats::name_map;
use pypto_formats_fuzz::{check_error, PATH};

fuzz_target!(|data: &[u8]| {
    match name_map::parse(PATH, data) {
        Err(e) => check_error(&e, PATH),
        Ok(m) => {
            assert!(
                m.entries.windows(2).all(|w| w[0].0 < w[1].0),
                "entries not sorted and unique"
            );
            for (id, name) in &m.entries {
                assert_eq!(m.name(*id), Some(name.as_str()));
            }
            let _ = m.name(i64::MIN);
        }
    }
});
