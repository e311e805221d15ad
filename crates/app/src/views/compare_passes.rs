//! The comparison of two pass dumps (issue 19, "compiler runs"): A is the baseline compile, B
//! this one. For the developer who changed a pass, a schedule or a tile size and wants to see
//! where the two compiles part ways:
//!
//! - **Passes**: both pass lists aligned by pass name (a pass only one compile ran is a row with
//!   one side empty), each side's +added / −removed lines against its own previous snapshot,
//!   whether the pass's effect differs (it changed the program differently in A and B: the
//!   worker's rule in `pypto_analysis::pass_compare`) and how far A's snapshot is from B's
//!   after it (the cross diff's size). Filters: all, effect differs, output differs; `j`/`k` or
//!   the arrow keys step. The selected row's snapshots are diffed **A against B in the IR Pass
//!   Trace's diff view** (`diff_view`: side by side or stacked, folds, changed tokens, a
//!   function filter); the first row is the two frontends (`00_frontend.py`).
//! - **Memory**: per function × memory space, the high-water marks of each compile's
//!   `AllocateMemoryAddr` memory map, A, B, Δ, Δ% and the chip's capacity (a table: sort, CSV).
//!
//! The selected row is `nav`'s (`cpass=` in links).
//!
//! Test ids: `compare-passes` (`data-rows`, `data-effect-differences`,
//! `data-output-differences`), `compare-pass-row` (`data-row`, `data-a`, `data-b`,
//! `data-effect-differs`, `data-snapshots-differ`, `data-cross-added`, `data-cross-removed`,
//! `data-selected`), `compare-pass-filter-*`, `compare-pass-tab-*`, `compare-pass-function`,
//! `compare-pass-diff` (the diff panes: `data-added`, `data-removed`, …), `compare-memory`
//! (table), `compare-pass-summary`.

use std::sync::Arc;

use crate::i18n::{self, t, tr, tr_with, Arg};
use crate::nav::KeyMap;
use crate::shortcuts::{self, Action, Scope};
use leptos::prelude::*;
use pypto_protocol::compare_passes::{
    MemoryCompareRequest, MemoryComparison, PassCompareRequest, PassComparison, PassCrossDiffRequest, PassPairRow, PassPairing,
};
use pypto_protocol::{DatasetKind, ViewKind};
use wasm_bindgen::JsCast;

use crate::diff_view::{DiffPanes, Layout};
use crate::nav::Nav;
use crate::session::DatasetRow;
use crate::table::{Cell, Column, DataTable, TableData};
use crate::view_spec::{no_init, nothing_docked, ViewSpec};
use crate::worker_client::WorkerClient;

/// The registry's entry: a comparison's view (available for no single dataset; the view area
/// shows it for two compared pass dumps).
pub const SPEC: ViewSpec = ViewSpec {
    kind: ViewKind::ComparePasses,
    title_id: "view-pass-comparison",
    tooltip_id: "view-pass-comparison-tip",
    dataset_kind: DatasetKind::PassDump,
    default: false,
    switchable: false,
    available: |_: &DatasetRow| false,
    init: no_init,
    component: || view! { <ComparePassesView/> }.into_any(),
    docked: nothing_docked,
};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Filter {
    All,
    Effect,
    Output,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Tab {
    Passes,
    Memory,
}

/// The row position of the frontends (`00_frontend.py` against `00_frontend.py`): before the
/// pass rows.
const FRONTEND_ROW: u32 = u32::MAX;

/// One side's cell of a pass row: `NN Name +a −r`, or `—` when the side lacks the pass.
fn side_view(side: Option<&pypto_protocol::compare_passes::PassSideRow>) -> AnyView {
    match side {
        None => view! { <span class="cmp-pass-side cmp-pass-missing">"—"</span> }.into_any(),
        Some(p) => {
            let counts = if p.no_op {
                view! { <span class="badge badge-noop">{t("cmpp-no-op")}</span> }.into_any()
            } else {
                view! { <span class="pass-counts"><span class="plus">{format!("+{}", p.added)}</span> " " <span class="minus">{format!("−{}", p.removed)}</span></span> }.into_any()
            };
            view! {
                <span class="cmp-pass-side" title=p.file_name.clone()>
                    <span class="pass-num">{format!("{:02}", p.index)}</span>" "
                    <span class="pass-name">{p.name.clone()}</span>" "{counts}
                </span>
            }
            .into_any()
        }
    }
}

/// Whether row `r` passes `filter`.
fn shown_by(filter: Filter, r: &PassPairRow) -> bool {
    match filter {
        Filter::All => true,
        Filter::Effect => r.effect_differs,
        Filter::Output => r.snapshots_differ,
    }
}

/// The memory table: function, space, A, B, Δ, Δ%, capacity.
pub fn memory_table(m: &MemoryComparison) -> TableData {
    let columns = vec![
        Column::text("function", "col-function", 220.0),
        Column::text("space", "col-space", 70.0),
        Column::num("a", "col-a-high-water-b", 130.0).tip("coltip-bytes-max-offset-size-over-the-space-s-tiles"),
        Column::num("b", "col-b-high-water-b", 130.0),
        Column::num("delta", "col-delta-b", 100.0),
        Column::num("delta_pct", "col-deltapct", 70.0),
        Column::num("limit", "col-capacity-b", 110.0).tip("coltip-the-chip-s-capacity-of-the-space"),
    ];
    let rows = m
        .rows
        .iter()
        .map(|r| {
            let bytes = |v: Option<i64>| v.map_or_else(|| Cell::text("-"), Cell::int);
            let class = match r.delta_bytes.signum() {
                1 => Some("dt-worse"),
                -1 => Some("dt-better"),
                _ => None,
            };
            let pct = match (r.a_hwm_bytes, r.b_hwm_bytes) {
                (Some(a), Some(_)) if a != 0 => Some(r.delta_bytes as f64 / a as f64 * 100.0),
                _ => None,
            };
            let delta = Cell { text: format!("{:+}", r.delta_bytes), value: Some(r.delta_bytes as f64), class };
            let pct = pct.map_or_else(|| Cell::text("-"), |p| Cell { text: format!("{p:+.1}%"), value: Some(p), class });
            vec![
                Cell::text(r.function.clone()),
                Cell::text(r.space.clone()),
                bytes(r.a_hwm_bytes),
                bytes(r.b_hwm_bytes),
                delta,
                pct,
                bytes(r.limit_bytes),
            ]
        })
        .collect();
    TableData { columns, rows }
}

/// The comparison of the two shown pass dumps.
#[component]
#[allow(clippy::too_many_lines)] // the view's signals, handlers and markup read best in one place
pub fn ComparePassesView() -> impl IntoView {
    let (nav, client) = (Nav::get(), WorkerClient::get());
    let Some((a, b)) = nav.compared_untracked() else { return ().into_any() };
    let comparison: RwSignal<Option<Arc<PassComparison>>> = RwSignal::new(None);
    let memory: RwSignal<Option<Arc<MemoryComparison>>> = RwSignal::new(None);
    let error: RwSignal<Option<String>> = RwSignal::new(None);
    let filter = RwSignal::new(Filter::All);
    let tab = RwSignal::new(Tab::Passes);
    let function: RwSignal<Option<String>> = RwSignal::new(None);
    let panes = DiffPanes::new(Layout::SideBySide);
    let (list_slot, diff_slot, memory_slot) = (client.slot(), client.slot(), client.slot());
    let reply = client.ask_in(list_slot, PassCompareRequest { baseline_id: a, current_id: b });
    leptos::task::spawn_local(async move {
        match reply.await {
            Ok(c) => {
                comparison.try_set(Some(Arc::new(c)));
            }
            Err(crate::worker_client::WorkerError::Failed(m)) => {
                error.try_set(Some(m));
            }
            Err(_) => {}
        }
    });
    // The memory table, when its tab opens first.
    Effect::new(move |_| {
        if tab.get() == Tab::Memory && memory.with_untracked(Option::is_none) {
            let reply = client.ask_in(memory_slot, MemoryCompareRequest { baseline_id: a, current_id: b, chip: None });
            leptos::task::spawn_local(async move {
                if let Ok(m) = reply.await {
                    memory.try_set(Some(Arc::from(m)));
                }
            });
        }
    });
    // nav's row (a link's), else the first row whose output differs, else the frontends.
    let selected = Memo::new(move |_| {
        let asked = nav.compare.with(|c| c.pass);
        comparison.with(|c| {
            let c = c.as_ref()?;
            asked.filter(|&r| r == FRONTEND_ROW || (r as usize) < c.rows.len()).or(c.first_output_difference).or(Some(FRONTEND_ROW))
        })
    });
    let select = move |row: u32| nav.compare.update(|c| c.pass = Some(row));
    // The selected row's snapshots, A against B.
    Effect::new(move |_| {
        let Some(row) = selected.get() else { return };
        let function = function.get();
        let snapshots = if row == FRONTEND_ROW {
            Some((None, None))
        } else {
            comparison.with_untracked(|c| c.as_ref().and_then(|c| c.rows.get(row as usize)).map(|r| (r.a_snapshot, r.b_snapshot)))
        };
        let Some((a_pass, b_pass)) = snapshots else { return };
        let reply = client.ask_columns(diff_slot, PassCrossDiffRequest { baseline_id: a, current_id: b, a_pass, b_pass, function });
        leptos::task::spawn_local(async move {
            if let Ok((d, columns)) = reply.await {
                panes.show(crate::diff_view::with_columns(*d, &columns));
            }
        });
    });
    let visible = Memo::new(move |_| {
        let f = filter.get();
        comparison.with(|c| {
            c.as_ref()
                .map(|c| c.rows.iter().enumerate().filter(|(_, r)| shown_by(f, r)).map(|(i, _)| i as u32).collect::<Vec<u32>>())
                .unwrap_or_default()
        })
    });
    let step = move |forward: bool| {
        let rows = visible.get_untracked();
        let mut all: Vec<u32> = vec![FRONTEND_ROW];
        all.extend(rows);
        let cur = selected.get_untracked();
        let pos = cur.and_then(|c| all.iter().position(|&r| r == c));
        let next = match pos {
            Some(p) if forward => (p + 1).min(all.len() - 1),
            Some(p) => p.saturating_sub(1),
            None => 0,
        };
        if let Some(&r) = all.get(next) {
            select(r);
            if let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.query_selector(&format!("[data-testid=compare-pass-row][data-row='{r}']")).ok().flatten())
            {
                el.scroll_into_view_with_bool(false);
            }
        }
    };
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        if tab.get_untracked() != Tab::Passes {
            return;
        }
        let tag = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).map(|e| e.tag_name()).unwrap_or_default();
        if tag == "INPUT" || tag == "SELECT" || tag == "TEXTAREA" {
            return;
        }
        match shortcuts::action(Scope::PassTrace, &ev.key(), &ev.code(), &KeyMap::default()) {
            Some(Action::NextItem) => {
                ev.prevent_default();
                step(true);
            }
            Some(Action::PreviousItem) => {
                ev.prevent_default();
                step(false);
            }
            _ => {}
        }
    });
    on_cleanup(move || keys.remove());

    let rows_view = move || {
        let Some(c) = comparison.get() else { return Vec::new() };
        let sel = selected.get();
        let frontend = {
            let is_sel = sel == Some(FRONTEND_ROW);
            let counts =
                if c.frontends_differ { format!("+{} −{}", c.frontend_cross_added, c.frontend_cross_removed) } else { tr("cmpp-same") };
            view! {
                <li data-testid="compare-pass-row" data-row=FRONTEND_ROW.to_string() data-a="00_frontend.py" data-b="00_frontend.py"
                    data-effect-differs="false" data-snapshots-differ=c.frontends_differ.to_string()
                    data-selected=is_sel.to_string() class:selected=is_sel tabindex="0" role="option" aria-selected=is_sel.to_string()
                    on:click=move |_| select(FRONTEND_ROW)
                    on:keydown=move |ev| if ev.key() == "Enter" || ev.key() == " " { ev.prevent_default(); select(FRONTEND_ROW) }>
                    <span class="cmp-pass-side"><span class="pass-name">{t("cmpp-00-frontend")}</span></span>
                    <span class="cmp-pass-side"><span class="pass-name">{t("cmpp-00-frontend")}</span></span>
                    <span class="cmp-pass-diffs" class:differs=c.frontends_differ>{counts}</span>
                </li>
            }
            .into_any()
        };
        let mut out = vec![frontend];
        out.extend(visible.get().into_iter().filter_map(|i| {
            let r = c.rows.get(i as usize)?.clone();
            let is_sel = sel == Some(i);
            let pairing = match r.pairing {
                PassPairing::Same => "same",
                PassPairing::Renamed => "renamed",
                PassPairing::OnlyBaseline => "only-a",
                PassPairing::OnlyCurrent => "only-b",
            };
            let cross = if r.snapshots_differ { format!("+{} −{}", r.cross_added, r.cross_removed) } else { tr("cmpp-same") };
            let tooltip = match r.pairing {
                PassPairing::OnlyBaseline => tr("cmpp-only-a-title"),
                PassPairing::OnlyCurrent => tr("cmpp-only-b-title"),
                PassPairing::Renamed => tr("cmpp-renamed-title"),
                PassPairing::Same => String::new(),
            };
            Some(
                view! {
                    <li data-testid="compare-pass-row" data-row=i.to_string() data-pairing=pairing
                        data-a=r.a.as_ref().map(|p| p.file_name.clone()) data-b=r.b.as_ref().map(|p| p.file_name.clone())
                        data-effect-differs=r.effect_differs.to_string() data-snapshots-differ=r.snapshots_differ.to_string()
                        data-cross-added=r.cross_added.to_string() data-cross-removed=r.cross_removed.to_string()
                        data-selected=is_sel.to_string() class:selected=is_sel class:effect-differs=r.effect_differs
                        class=format!("pairing-{pairing}") title=tooltip tabindex="0" role="option" aria-selected=is_sel.to_string()
                        on:click=move |_| select(i)
                        on:keydown=move |ev| if ev.key() == "Enter" || ev.key() == " " { ev.prevent_default(); select(i) }>
                        {side_view(r.a.as_ref())}
                        {side_view(r.b.as_ref())}
                        {r.effect_differs.then(|| view! { <span class="badge badge-effect" title=t("cmpp-the-pass-changed-the-program")>{t("cmpp-effect")}</span> })}
                        <span class="cmp-pass-diffs" class:differs=r.snapshots_differ title=t("cmpp-a-s-snapshot-after-this")>{cross}</span>
                    </li>
                }
                .into_any(),
            )
        }));
        out
    };

    let summary = move || {
        comparison.get().map(|c| {
            let first = |row: Option<u32>| {
                row.and_then(|r| c.rows.get(r as usize))
                    .and_then(|r| r.b.as_ref().or(r.a.as_ref()))
                    .map_or_else(|| tr("cmpp-summary-none"), |p| format!("{:02} {}", p.index, p.name))
            };
            let text = tr_with(
                "cmpp-summary",
                &[
                    ("effect", Arg::from(c.effect_differences)),
                    ("first_effect", Arg::from(first(c.first_effect_difference))),
                    ("output", Arg::from(c.output_differences)),
                    ("first_output", Arg::from(first(c.first_output_difference))),
                    ("only_a", Arg::from(c.only_baseline)),
                    ("only_b", Arg::from(c.only_current)),
                ],
            );
            if c.frontends_differ {
                text + &tr("cmpp-summary-frontends-differ")
            } else {
                text
            }
        })
    };
    let problems = move || {
        comparison.with(|c| {
            let c = c.as_ref()?;
            let items: Vec<String> = [("A", &c.baseline), ("B", &c.current)]
                .into_iter()
                .flat_map(|(side, p)| {
                    p.problems
                        .iter()
                        .chain(&p.unreadable)
                        .cloned()
                        .chain(p.snapshot_problems.iter().map(i18n::snapshot_problem_text))
                        .map(move |m| format!("{side}: {m}"))
                })
                .collect();
            (!items.is_empty())
                .then(|| view! { <ul class="pass-problems">{items.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}</ul> })
        })
    };

    let functions = move || panes.diff.with(|d| d.as_ref().map(|d| d.functions.clone()).unwrap_or_default());
    let shown_function = move || panes.diff.with(|d| d.as_ref().and_then(|d| d.function.clone()));
    let on_function = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        function.set(if v.is_empty() { None } else { Some(v) });
    };
    let header = move || {
        panes.diff.with(|d| {
            d.as_ref().map(|d| {
                view! {
                    <span class="diff-title">{format!("{} ⇄ {}", d.before_file, d.after_file)}</span>
                    <span class="pass-counts"><span class="plus">{format!("+{}", d.added)}</span> " " <span class="minus">{format!("−{}", d.removed)}</span></span>
                    {d.error.clone().map(|e| view! { <span class="error">{e}</span> })}
                }
            })
        })
    };
    let filter_btn = move |f: Filter, label: fn() -> String, id: &'static str| {
        view! { <button data-testid=id class:active=move || filter.get() == f on:click=move |_| filter.set(f)>{label}</button> }
    };
    let layout_btn = move |l: Layout, label: fn() -> String, id: &'static str| {
        view! { <button data-testid=id class:active=move || panes.layout.get() == l on:click=move |_| panes.layout.set(l)>{label}</button> }
    };
    let tab_btn = move |t: Tab, label: fn() -> String, id: &'static str| {
        view! { <button data-testid=id role="tab" aria-selected=move || (tab.get() == t).to_string() class:active=move || tab.get() == t on:click=move |_| tab.set(t)>{label}</button> }
    };
    let memory_view = move || {
        let Some(m) = memory.get() else { return view! { <p class="hint">{t("cmpp-mapping-both-compiles-memory")}</p> }.into_any() };
        let notes: Vec<String> = m.errors.iter().cloned().chain(m.notes.iter().map(crate::note_words::memory_note)).collect();
        let table = {
            let m = m.clone();
            Signal::derive(move || memory_table(&m))
        };
        view! {
            <p class="hint">{tr_with("cmpp-memory-files", &[("a", Arg::from(&m.a_file)), ("b", Arg::from(&m.b_file)), ("chip", Arg::from(&m.chip))])}</p>
            {(!notes.is_empty()).then(|| view! { <ul class="compare-notes">{notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view()}</ul> })}
            <div class="compare-table compare-memory-table" style=format!("height:{}px", (64 + m.rows.len().max(1) * 24).min(600))>
                <DataTable data=table testid="compare-memory" csv_name="compare_memory" title=t("cmpp-high-water-per-function-space")/>
            </div>
        }
        .into_any()
    };

    view! {
        <div class="compare-passes" data-testid="compare-passes"
            data-rows=move || comparison.with(|c| c.as_ref().map_or(0, |c| c.rows.len())).to_string()
            data-effect-differences=move || comparison.with(|c| c.as_ref().map_or(0, |c| c.effect_differences)).to_string()
            data-output-differences=move || comparison.with(|c| c.as_ref().map_or(0, |c| c.output_differences)).to_string()>
            <div class="compare-passes-bar">
                <div class="view-switcher" role="tablist">
                    {tab_btn(Tab::Passes, || tr("cmpp-tab-passes"), "compare-pass-tab-passes")}
                    {tab_btn(Tab::Memory, || tr("cmpp-tab-memory"), "compare-pass-tab-memory")}
                </div>
                <span class="hint" data-testid="compare-pass-summary">{summary}</span>
            </div>
            {move || error.get().map(|e| view! { <p class="error-message">{tr_with("cmpp-error", &[("message", Arg::from(e))])}</p> })}
            {move || if tab.get() == Tab::Memory {
                view! { <div class="compare-memory-page">{memory_view}</div> }.into_any()
            } else {
                view! {
                    <div class="pass-trace">
                        <div class="pass-side compare-pass-side">
                            <div class="pass-filters">
                                {filter_btn(Filter::All, || tr("pt-filter-all"), "compare-pass-filter-all")}
                                {filter_btn(Filter::Effect, || tr("cmpp-filter-effect"), "compare-pass-filter-effect")}
                                {filter_btn(Filter::Output, || tr("cmpp-filter-output"), "compare-pass-filter-output")}
                            </div>
                            <div class="cmp-pass-head"><span>{t("cmpp-a-baseline")}</span><span>{t("cmpp-b-this-run")}</span><span>"A ⇄ B"</span></div>
                            {problems}
                            <ol class="pass-list compare-pass-list" data-testid="compare-pass-list" role="listbox" aria-label=t("cmpp-passes-of-a-and-b")>{rows_view}</ol>
                        </div>
                        <div class="pass-main">
                            <div class="diff-toolbar">
                                {header}
                                <span class="spacer"></span>
                                <select data-testid="compare-pass-function" aria-label=t("cmpp-function") on:change=on_function prop:value=move || shown_function().unwrap_or_default()>
                                    <option value="">{t("cmpp-all-functions")}</option>
                                    {move || functions().into_iter().map(|f| view! { <option value=f.clone() selected=shown_function().as_deref() == Some(f.as_str())>{f.clone()}</option> }).collect_view()}
                                </select>
                                {layout_btn(Layout::SideBySide, || tr("pt-layout-side"), "compare-pass-layout-side")}
                                {layout_btn(Layout::Stacked, || tr("pt-layout-stacked"), "compare-pass-layout-stacked")}
                                <button data-testid="compare-pass-expand-all" on:click=move |_| panes.expand_all.update(|v| *v = !*v)>
                                    {move || if panes.expand_all.get() { tr("pt-fold-unchanged") } else { tr("pt-expand-all") }}
                                </button>
                                {panes.png_button("compare-pass-diff-png", "pass-compare")}
                            </div>
                            {panes.view("compare-pass-diff")}
                        </div>
                    </div>
                }.into_any()
            }}
        </div>
    }
    .into_any()
}
