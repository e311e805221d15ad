//! `deps::parse` on arbitrary bytes (seeds: every fixture `deps.json`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pypto_formats::deps::{self, DimRange};
use pypto_formats_fuzz::{check_error, same_len, PATH};

fuzz_target!(|data: &[u8]| {
    match deps::parse(PATH, data) {
        Err(e) => check_error(&e, PATH),
        Ok(d) => {
            let t = &d.tasks;
            same_len(
                "tasks",
                &[
                    t.task_id.len(),
                    t.kernel_ids.len(),
                    t.has_kernel_ids.len(),
                    t.block_num.len(),
                    t.early_dispatch.len(),
                    t.scope.len(),
                    t.arg_offsets.len() - 1,
                ],
            );
            assert!(t.arg_offsets.windows(2).all(|w| w[0] <= w[1]));
            assert_eq!(t.arg_offsets.last().copied(), Some(d.args.idx.len() as u32));
            assert!(t.block_num.iter().all(|&b| b >= 1));
            let a = &d.args;
            same_len(
                "args",
                &[
                    a.idx.len(),
                    a.arg_type.len(),
                    a.tensor_id.len(),
                    a.dtype.len(),
                    a.shape.len(),
                    a.strides.len(),
                    a.start_offset.len(),
                ],
            );
            let ts = &d.tensors;
            same_len(
                "tensors",
                &[
                    ts.tensor_id.len(),
                    ts.buffer_addr.len(),
                    ts.version.len(),
                    ts.dtype.len(),
                    ts.buffer_numel.len(),
                ],
            );
            let e = &d.edges;
            same_len(
                "edges",
                &[
                    e.pred.len(),
                    e.succ.len(),
                    e.arg.len(),
                    e.source.len(),
                    e.flags.len(),
                    e.overlap.len(),
                    e.tensor_id.len(),
                    e.consumer_dtype.len(),
                    e.consumer_shape.len(),
                    e.consumer_strides.len(),
                    e.consumer_start_offset.len(),
                    e.producer_shape.len(),
                    e.producer_strides.len(),
                    e.producer_start_offset.len(),
                ],
            );
            let dims_ok =
                |r: &DimRange| r.len == 0 || (r.offset as usize + r.len as usize) <= d.dims.len();
            for r in a
                .shape
                .iter()
                .chain(&a.strides)
                .chain(&e.consumer_shape)
                .chain(&e.consumer_strides)
                .chain(&e.producer_shape)
                .chain(&e.producer_strides)
            {
                assert!(dims_ok(r), "dim range {r:?} outside {} dims", d.dims.len());
                assert_eq!(d.dims_of(*r).len(), r.len as usize);
            }
            let dtype_ok = |i: &u32| *i == u32::MAX || (*i as usize) < d.dtype_names.len();
            assert!(a.dtype.iter().all(dtype_ok));
            assert!(ts.dtype.iter().all(dtype_ok));
            assert!(e.consumer_dtype.iter().all(dtype_ok));
            assert!(e
                .source
                .iter()
                .all(|&s| s == u32::MAX || d.source_name(s).is_some()));
            for i in 0..=t.len() {
                let _ = t.is_dummy(i);
            }
            let _ = (d.task_count(), d.edge_count(), d.tensor_count());
        }
    }
});
