//! `discovery::discover` over generated folder listings: each input line is `path` or
//! `path<TAB>size`; seeds are the fixture trees' listings (see run.sh). Every entry index in
//! the result must point into the listing and belong to at most one dataset.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pypto_formats::discovery;
use pypto_formats_fuzz::lines;

fuzz_target!(|data: &[u8]| {
    let entries: Vec<(String, u64)> = lines(data)
        .into_iter()
        .map(|l| match l.split_once('\t') {
            Some((p, s)) => (p.to_owned(), s.trim().parse().unwrap_or(0)),
            None => (l, 0),
        })
        .collect();
    let d = discovery::discover(&entries);
    let mut seen = vec![false; entries.len()];
    let mut placed = 0u64;
    for ds in &d.datasets {
        for f in &ds.files {
            assert!(f.entry_index < entries.len());
            assert!(
                !seen[f.entry_index],
                "entry {} in two datasets",
                f.entry_index
            );
            seen[f.entry_index] = true;
            placed += 1;
        }
        for chosen in [ds.records, ds.deps, ds.name_map].into_iter().flatten() {
            assert!(ds.files.iter().any(|f| f.entry_index == chosen));
        }
    }
    assert_eq!(
        placed + d.ignored_files,
        entries.len() as u64,
        "files lost or counted twice"
    );
    assert!(d
        .datasets
        .windows(2)
        .all(|w| (&w[0].path, w[0].kind) <= (&w[1].path, w[1].kind)));
    for (p, _) in &entries {
        let name = p.rsplit('/').next().unwrap_or(p);
        let _ = discovery::runtime_role(name);
    }
});
