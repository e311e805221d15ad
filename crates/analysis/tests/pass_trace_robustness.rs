//! Malformed snapshots never panic the pass-trace and memory-map code: every fixture dump cut
//! at many points, with bytes flipped to brackets, quotes, backslashes and newlines, goes
//! through the tokenizer, the function regions, the memory map and the line diff.

#![allow(clippy::unwrap_used)]

use pypto_analysis::memory_map::{self, BackendChoice};
use pypto_analysis::{function_filter, pass_trace};
use std::path::Path;

fn exercise(text: &str, previous: &str) {
    let _ = function_filter::function_regions("x.py", text);
    let (chip, backend) = BackendChoice::resolve(None, None, None);
    let _ = memory_map::build("35_after_AllocateMemoryAddr.py", text, chip, backend);
    let _ = memory_map::tile_lines("x.py", text);
    let (b, a) = (pass_trace::split_lines(previous), pass_trace::split_lines(text));
    let d = pass_trace::diff_lines(&b, &a);
    let _ = pass_trace::fold(&d.rows, 3);
    if let (Some(x), Some(y)) = (b.first(), a.first()) {
        let _ = pass_trace::refine_line(x, y);
    }
}

#[test]
fn cut_and_mutated_dumps_do_not_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/passes");
    let files = [
        "generated-paged_attention/passes_dump/35_after_AllocateMemoryAddr.py",
        "generated-paged_attention-ruff-partial/passes_dump/35_after_AllocateMemoryAddr.py",
        "generated-tile_softmax/_jit_tile_softmax_20261129_165255/passes_dump/00_frontend.py",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for f in files {
        let text = std::fs::read_to_string(root.join(f)).unwrap();
        let mut cut = 0;
        while cut < text.len() {
            let at = (0..=cut).rev().find(|&i| text.is_char_boundary(i)).unwrap();
            exercise(&text[..at], &text);
            cut += 211;
        }
        for _ in 0..150 {
            let mut bytes = text.clone().into_bytes();
            for _ in 0..4 {
                let i = (next() % bytes.len() as u64) as usize;
                if bytes[i].is_ascii() {
                    bytes[i] = b"()[]{}'\"\\\n:=,.@#"[(next() % 16) as usize];
                }
            }
            let mutated = String::from_utf8(bytes).unwrap();
            exercise(&mutated, &text);
        }
    }
}
