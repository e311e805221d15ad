//! The "Compiler runs" comparison's requests, for the page's compare view: two pass-dump
//! datasets (A = the baseline, B = this run) — their pass lists compared, A's snapshot
//! against B's in the IR Pass Trace's diff view, the memory high-water marks per function ×
//! space. This module fetches: the pass lists `passes` builds and keeps, the texts
//! `pass_dumps` reads once, each dump's memory map as `memory_map` builds it; the answers are
//! `pypto_replies::compare_passes`'s.

use std::collections::HashMap;
use std::rc::Rc;

use pypto_analysis::pass_trace::PassList;
use pypto_formats::passes_dump::FRONTEND;
use pypto_protocol::compare_passes::{MemoryCompareRequest, PassCompareRequest, PassCrossDiffRequest};
use pypto_protocol::memory_map::MemoryMapData;
use pypto_protocol::pass_trace::PassDiffData;
use pypto_replies::compare_passes::{self as replies, DumpSide};

use crate::transport::Reply;
use crate::{memory_map, pass_dumps, passes};

/// One dump's pass list and the texts read of it.
struct Loaded {
    id: u32,
    list: PassList,
    texts: HashMap<String, Rc<str>>,
}

impl Loaded {
    /// The pass list of dataset `id` (built once, kept by `passes`), with no text yet.
    async fn list(id: u32, label: &str) -> Result<Loaded, String> {
        let list = passes::list(id).await.map_err(|e| format!("{label}: {e}"))?;
        Ok(Loaded { id, list, texts: HashMap::new() })
    }

    /// Reads `names` (a file that cannot be read stays out: the reply says it was not read).
    async fn read(&mut self, names: impl IntoIterator<Item = String>) {
        for name in names {
            if let Ok(text) = pass_dumps::text(self.id, &name).await {
                self.texts.insert(name, text);
            }
        }
    }

    /// Reads the frontend and every listed snapshot.
    async fn read_all(&mut self) {
        let names: Vec<String> = std::iter::once(FRONTEND.to_owned()).chain(self.list.passes.iter().map(|p| p.file_name.clone())).collect();
        self.read(names).await;
    }

    /// The file at position `pass` (`None` = the frontend), if there is one.
    fn file_at(&self, pass: Option<u32>) -> Option<String> {
        match pass {
            Some(p) => self.list.passes.get(p as usize).map(|e| e.file_name.clone()),
            None => Some(FRONTEND.to_owned()),
        }
    }

    fn side<'s>(&'s self) -> DumpSide<'s, impl Fn(&str) -> Option<&'s str> + 's> {
        DumpSide { dataset_id: self.id, list: &self.list, text: |n: &str| self.texts.get(n).map(|t| &**t) }
    }
}

/// Answers `PassCompare`.
pub(crate) fn compare(request: &PassCompareRequest, reply: Reply<PassCompareRequest>) {
    let &PassCompareRequest { baseline_id, current_id } = request;
    wasm_bindgen_futures::spawn_local(async move {
        let result = async {
            let mut a = Loaded::list(baseline_id, "A").await?;
            let mut b = Loaded::list(current_id, "B").await?;
            a.read_all().await;
            b.read_all().await;
            let data = replies::comparison(&a.side(), &b.side());
            Ok(data)
        };
        reply.answer(result.await);
    });
}

/// Answers `PassCrossDiff` (a diff that could not be made says why in its `error`).
pub(crate) fn cross_diff(request: PassCrossDiffRequest, reply: Reply<PassCrossDiffRequest>) {
    let PassCrossDiffRequest { baseline_id, current_id, a_pass, b_pass, function } = request;
    wasm_bindgen_futures::spawn_local(async move {
        let result = async {
            let mut a = Loaded::list(baseline_id, "A").await?;
            let mut b = Loaded::list(current_id, "B").await?;
            a.read(a.file_at(a_pass)).await;
            b.read(b.file_at(b_pass)).await;
            let data = replies::cross_diff(&a.side(), &b.side(), a_pass, b_pass, function.as_deref());
            Ok::<_, String>(data)
        };
        let mut data = result.await.unwrap_or_else(|e| PassDiffData {
            dataset_id: current_id,
            pass: b_pass.unwrap_or(u32::MAX),
            function,
            error: Some(e),
            ..PassDiffData::default()
        });
        let columns = crate::passes::diff_columns(&mut data);
        reply.send_with(Box::new(data), columns);
    });
}

/// Answers `MemoryCompare`: each dump's map as the Memory Reuse view builds it (a dump without
/// one is an error of the reply, the other side still shown).
pub(crate) fn memory(request: MemoryCompareRequest, reply: Reply<MemoryCompareRequest>) {
    let MemoryCompareRequest { baseline_id, current_id, chip } = request;
    wasm_bindgen_futures::spawn_local(async move {
        let map = |id: u32| {
            let chip = chip.clone();
            async move {
                memory_map::build(id, None, chip.as_deref()).await.unwrap_or_else(|(data, e)| MemoryMapData { error: Some(e), ..data })
            }
        };
        let (a, b) = (map(baseline_id).await, map(current_id).await);
        reply.send(Box::new(replies::memory_comparison(baseline_id, current_id, &a, &b, chip.as_deref())));
    });
}
