//! The IR Pass Trace view (toolkit-features.md group N) of a `passes_dump` dataset: the pass
//! list (+added / −removed lines, no-op and warning badges, Changed / No-op / All filters,
//! j/k and arrow keys) and the selected pass's diff against the snapshot before it, computed
//! by the worker: side-by-side (both panes scroll together) or stacked, unchanged runs folded
//! (expand one / all), changed tokens marked, both files' line numbers, light Python syntax
//! colouring, a function filter, and the pass's `.log` warnings (each position jumps to its
//! line). A snapshot that is not valid Python (cut mid-statement, unbalanced brackets,
//! undecodable bytes: the worker checks each) or cut short where Python would read it (empty,
//! a last line without its newline) marks its pass in the list, and its diff — still
//! shown, as read — gets a banner naming file, line, column and problem (each jumps to its
//! line), also when it is the snapshot a pass is compared with. Rows are virtualised: only the
//! visible ones are in the DOM. The selected pass, layout and function filter are `nav` state
//! (so in the URL hash); "▦ map" opens the Memory Reuse view on a snapshot (a `nav` command).
//! Opened from another view (`nav`'s [`CompilerTarget`]: the swimlane's selected kernel, a
//! memory-map tile) it filters to that function — a kernel's by `pypto_vocab::kernel_function`'s
//! rule — and jumps to the tile's defining line, and says so in a note (`compiler-note`,
//! `data-function`, `data-rule`, `data-outcome` = `one` | `several` | `none` | `dump`).
//!
//! Test ids: `pass-trace`, `pass-item` (`data-index`, `data-added`, `data-removed`,
//! `data-noop`, `data-warning`, `data-problem`, `data-snapshot-problem` = the first problem as
//! `file:line:column: message`, `data-selected`), `pass-filter-*`, `pass-layout-*`,
//! `pass-function`, `pass-expand-all`, `pass-diff` (`data-rows`, `data-display-rows`,
//! `data-added`, `data-removed`), `diff-fold`, `pass-warning-jump`, `snapshot-problems` (the
//! banner; items with `data-side` = `after` | `before`, `data-file`, `data-line`,
//! `data-column`), `snapshot-problem-jump`.

use std::sync::Arc;

use crate::i18n::{self, t, tr};
use crate::nav::KeyMap;
use crate::shortcuts::{self, Action, Scope};
use leptos::prelude::*;
use pypto_protocol::datasets::CANCELLED;
use pypto_protocol::pass_trace::{PassDiffRequest, PassListData, PassListRequest, SnapshotProblem};
use pypto_protocol::{DatasetKind, ViewKind};
use wasm_bindgen::JsCast;

use crate::compiler_note::{target_note, CompilerNote, TargetNote};
use crate::diff_view::{DiffPanes, Layout};
use crate::nav::{CompilerTarget, MemoryNav, Nav};
use crate::session::DatasetRow;
use crate::view_spec::{no_init, nothing_docked, ViewSpec};
use crate::worker_client::{WorkerClient, WorkerError};

/// The registry's entry.
pub const SPEC: ViewSpec = ViewSpec {
    kind: ViewKind::PassTrace,
    title_id: "view-ir-pass-trace",
    tooltip_id: "",
    dataset_kind: DatasetKind::PassDump,
    default: true,
    switchable: true,
    // (asked for a runtime dataset — after "IR Pass Trace" — it is not available there)
    available: |row: &DatasetRow| row.kind() == DatasetKind::PassDump,
    init: no_init,
    component: || view! { <PassTraceView/> }.into_any(),
    docked: nothing_docked,
};

/// The frontend snapshot's file name (the first pass's before side).
const FRONTEND: &str = "00_frontend.py";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Filter {
    Changed,
    NoOp,
    All,
}

#[component]
#[allow(clippy::too_many_lines)] // the view's signals, handlers and markup read best in one place
pub fn PassTraceView() -> impl IntoView {
    let (nav, client) = (Nav::get(), WorkerClient::get());
    let dataset_id = nav.datasets.with_untracked(|d| d.first().copied()).unwrap_or(0);
    let list: RwSignal<Option<Arc<PassListData>>> = RwSignal::new(None);
    let selected: RwSignal<Option<u32>> = RwSignal::new(None);
    let filter = RwSignal::new(Filter::All);
    // Layout and function filter start from nav (a link's) and are written back to it.
    let at_open = nav.pass_trace.get_untracked();
    let panes = DiffPanes::new(if at_open.stacked { Layout::Stacked } else { Layout::SideBySide });
    let DiffPanes { diff, layout, expand_all, .. } = panes;
    let function: RwSignal<Option<String>> = RwSignal::new(at_open.function);
    let (list_slot, diff_slot) = (client.slot(), client.slot());
    // The pass list (a big dump's is computed in a job the progress bar's Cancel stops: then
    // "List again" asks anew).
    let list_cancelled = RwSignal::new(false);
    let ask_list = move || {
        list_cancelled.set(false);
        let reply = client.ask_in(list_slot, PassListRequest { dataset_id });
        leptos::task::spawn_local(async move {
            match reply.await {
                Ok(l) => {
                    list.try_set(Some(Arc::new(l)));
                }
                Err(WorkerError::Cancelled) => {
                    list_cancelled.try_set(true);
                }
                Err(_) => {}
            }
        });
    };
    ask_list();
    let linked_pass = StoredValue::new(at_open.pass);
    // Opened from another view: what to show first, and the note saying what was found.
    let target = StoredValue::new(nav.compiler_target.try_update(Option::take).flatten());
    let note: RwSignal<Option<TargetNote>> = RwSignal::new(None);
    let pending_line: StoredValue<Option<(String, u32)>> = StoredValue::new(None);

    // nav's pass (a link's), else the first changed pass, on open.
    Effect::new(move |_| {
        if let Some(l) = list.get() {
            if selected.get_untracked().is_none() && !l.passes.is_empty() {
                let linked = linked_pass.get_value().and_then(|f| l.passes.iter().position(|p| p.file_name == f));
                selected.set(Some(linked.map_or(l.first_changed.unwrap_or(0), |i| i as u32)));
            }
        }
    });
    // The view's state in nav (and so in the URL hash), once a pass is chosen.
    Effect::new(move |_| {
        let (sel, lay, func) = (selected.get(), layout.get(), function.get());
        let pass = list.with(|l| l.as_ref().and_then(|l| sel.and_then(|i| l.passes.get(i as usize)).map(|p| p.file_name.clone())));
        if pass.is_some() {
            nav.pass_trace.set(crate::nav::PassTraceNav { pass, stacked: lay == Layout::Stacked, function: func });
        }
    });
    // A new pass or function (or "Diff again" after a Cancel): ask for its diff.
    let diff_again = RwSignal::new(0u32);
    Effect::new(move |_| {
        diff_again.track();
        if let Some(pass) = selected.get() {
            let function = function.get();
            let asked_ms = crate::browser::now_ms();
            let reply = client.ask_columns(diff_slot, PassDiffRequest { dataset_id, pass, function });
            leptos::task::spawn_local(async move {
                if let Ok((d, columns)) = reply.await {
                    let arrived_ms = crate::browser::now_ms();
                    let d = crate::diff_view::with_columns(*d, &columns);
                    let decoded_ms = crate::browser::now_ms();
                    let rows = d.kinds.len();
                    panes.show(d);
                    // The rows are drawn by the effects the new diff wakes: timed to the next task.
                    set_timeout(
                        move || {
                            let line = format!(
                                "pypto-diff page: {rows} rows; reply in {:.0} ms after the ask, its columns put back in {:.0} ms, first rows drawn {:.0} ms later",
                                arrived_ms - asked_ms,
                                decoded_ms - arrived_ms,
                                crate::browser::now_ms() - decoded_ms
                            );
                            web_sys::console::info_1(&line.into());
                        },
                        std::time::Duration::ZERO,
                    );
                }
            });
        }
    });

    let visible_passes = Memo::new(move |_| {
        let f = filter.get();
        list.with(|l| {
            l.as_ref()
                .map(|l| {
                    l.passes
                        .iter()
                        .enumerate()
                        .filter(|(_, p)| match f {
                            Filter::Changed => !p.no_op,
                            Filter::NoOp => p.no_op,
                            Filter::All => true,
                        })
                        .map(|(i, _)| i as u32)
                        .collect::<Vec<u32>>()
                })
                .unwrap_or_default()
        })
    });
    let step = move |delta: i32| {
        let vis = visible_passes.get_untracked();
        if vis.is_empty() {
            return;
        }
        let cur = selected.get_untracked();
        let pos = cur.and_then(|c| vis.iter().position(|&v| v == c));
        let next = match pos {
            Some(p) => {
                if delta < 0 {
                    p.saturating_sub(1)
                } else {
                    (p + 1).min(vis.len() - 1)
                }
            }
            None => 0,
        };
        if let Some(&v) = vis.get(next) {
            if Some(v) != cur {
                selected.set(Some(v));
            }
            if let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.query_selector(&format!("[data-testid=pass-item][data-pos='{v}']")).ok().flatten())
            {
                el.scroll_into_view_with_bool(false);
            }
        }
    };
    let keys = window_event_listener(leptos::ev::keydown, move |ev| {
        let tag = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()).map(|e| e.tag_name()).unwrap_or_default();
        if tag == "INPUT" || tag == "SELECT" || tag == "TEXTAREA" {
            return;
        }
        if ev.ctrl_key() || ev.meta_key() || ev.alt_key() {
            return;
        }
        match shortcuts::action(Scope::PassTrace, &ev.key(), &ev.code(), &KeyMap::default()) {
            Some(Action::NextItem) => {
                ev.prevent_default();
                step(1);
            }
            Some(Action::PreviousItem) => {
                ev.prevent_default();
                step(-1);
            }
            _ => {}
        }
    });
    on_cleanup(move || keys.remove());

    let jump_to = move |side: u8, line: u32| panes.jump_to(side, line);

    // The target, once the first diff lists the functions; its line once its function's diff is here.
    Effect::new(move |_| {
        let Some(d) = diff.get() else { return };
        if let Some(t) = target.try_update_value(Option::take).flatten() {
            let (chosen, shown) = target_note(&t, &d.functions);
            if let CompilerTarget::Line { line, .. } = &t {
                pending_line.set_value(Some((chosen.clone().unwrap_or_default(), *line)));
            }
            note.set(Some(shown));
            if chosen.is_some() && chosen != d.function {
                function.set(chosen);
                return;
            }
        }
        let due = pending_line.with_value(|p| p.as_ref().is_some_and(|(f, _)| f.is_empty() || d.function.as_deref() == Some(f.as_str())));
        if due {
            if let Some((_, line)) = pending_line.try_update_value(Option::take).flatten() {
                jump_to(2, line);
            }
        }
    });

    let pass_items = move || {
        let l = list.get();
        let sel = selected.get();
        visible_passes
            .get()
            .into_iter()
            .filter_map(|i| {
                let p = l.as_ref()?.passes.get(i as usize)?.clone();
                let is_sel = sel == Some(i);
                // "memory map" on the AllocateMemoryAddr snapshot and on the selected one
                let map_file = (p.name == "AllocateMemoryAddr" || is_sel).then(|| p.file_name.clone());
                let damaged = !p.problems.is_empty();
                let first_problem = p.problems.first().map(i18n::snapshot_problem_text).unwrap_or_default();
                let problem_title = format!("{}\n{}", tr("pt-damaged-title"), p.problems.iter().map(i18n::snapshot_problem_text).collect::<Vec<_>>().join("\n"));
                Some(view! {
                    <li data-testid="pass-item" data-pos=i.to_string() data-index=p.index.to_string() data-name=p.name.clone()
                        data-added=p.added.to_string() data-removed=p.removed.to_string()
                        data-noop=p.no_op.to_string() data-warning=p.has_warning.to_string() data-selected=is_sel.to_string()
                        data-problem=damaged.to_string() data-snapshot-problem=damaged.then_some(first_problem)
                        class:selected=is_sel class:noop=p.no_op class:damaged=damaged
                        on:click=move |_| selected.set(Some(i))>
                        <span class="pass-num">{format!("{:02}", p.index)}</span>
                        <span class="pass-name" title=p.file_name.clone()>{p.name.clone()}</span>
                        {damaged.then(|| view! { <span class="badge badge-problem" title=problem_title>{t("pt-invalid")}</span> })}
                        {p.has_warning.then(|| view! { <span class="badge badge-warn" title=t("pt-warnings-log")>"⚠"</span> })}
                        {map_file.map(|f| view! {
                            <button class="pass-mm" data-testid="pass-memory-map" title=t("pt-open-the-memory-reuse-map")
                                on:click=move |ev| {
                                    ev.stop_propagation();
                                    nav.memory.update(|m| *m = MemoryNav { snapshot: Some(f.clone()), chip: m.chip.take(), ..MemoryNav::default() });
                                    nav.show(ViewKind::MemoryReuse);
                                }>{t("pt-map")}</button>
                        })}
                        {if p.no_op {
                            view! { <span class="badge badge-noop">{t("pt-no-op")}</span> }.into_any()
                        } else {
                            view! { <span class="pass-counts"><span class="plus">{format!("+{}", p.added)}</span> <span class="minus">{format!("−{}", p.removed)}</span></span> }.into_any()
                        }}
                    </li>
                })
            })
            .collect::<Vec<_>>()
    };

    let filter_btn = move |f: Filter, label: fn() -> String, id: &'static str| {
        view! { <button data-testid=id class:active=move || filter.get() == f on:click=move |_| filter.set(f)>{label}</button> }
    };
    let layout_btn = move |l: Layout, label: fn() -> String, id: &'static str| {
        view! { <button data-testid=id class:active=move || layout.get() == l on:click=move |_| layout.set(l)>{label}</button> }
    };

    let problems = move || {
        list.with(|l| {
            l.as_ref().map(|l| {
                let frontend = l.frontend_problems.iter().map(i18n::snapshot_problem_text);
                let items: Vec<String> = l.problems.iter().chain(l.unreadable.iter()).cloned().chain(frontend).collect();
                (!items.is_empty()).then(|| {
                    view! { <ul class="pass-problems" data-testid="pass-problems">{items.into_iter().map(|p| view! { <li>{p}</li> }).collect_view()}</ul> }
                })
            })
        })
    };

    let header = move || {
        diff.with(|d| {
            d.as_ref().map(|d| {
                let title = if d.before_file.is_empty() { d.after_file.clone() } else { format!("{} → {}", d.before_file, d.after_file) };
                let cancelled = d.error.as_deref().is_some_and(|e| e.ends_with(CANCELLED));
                view! {
                    <span class="diff-title">{title}</span>
                    {(!cancelled).then(|| view! {
                        <span class="pass-counts"><span class="plus">{format!("+{}", d.added)}</span> " " <span class="minus">{format!("−{}", d.removed)}</span></span>
                    })}
                    {d.error.clone().map(|e| if e.ends_with(CANCELLED) {
                        view! {
                            <span class="cancelled" data-testid="diff-cancelled">{t("pt-diff-cancelled")}" "
                                <button data-testid="diff-again" on:click=move |_| diff_again.update(|n| *n += 1)>{t("pt-diff-again")}</button>
                            </span>
                        }.into_any()
                    } else {
                        view! { <span class="error">{e}</span> }.into_any()
                    })}
                }
            })
        })
    };

    // The selected pass's snapshot problems (side 2) and those of the snapshot it is compared
    // with (side 1: the previous pass's, or the frontend's).
    let shown_problems = move || -> Vec<(u8, SnapshotProblem)> {
        let sel = selected.get();
        list.with(|l| {
            let Some((l, p)) = l.as_ref().and_then(|l| Some((l, l.passes.get(sel? as usize)?))) else { return Vec::new() };
            let before: &[SnapshotProblem] = if p.previous_file == FRONTEND {
                &l.frontend_problems
            } else {
                l.passes.iter().find(|q| q.file_name == p.previous_file).map_or(&[], |q| q.problems.as_slice())
            };
            p.problems.iter().map(|x| (2, x.clone())).chain(before.iter().map(|x| (1, x.clone()))).collect()
        })
    };
    let problem_banner = move || {
        let problems = shown_problems();
        (!problems.is_empty()).then(|| {
            let after = problems.iter().any(|(side, _)| *side == 2);
            let lead = if after { tr("pt-damaged-after") } else { tr("pt-damaged-before") };
            let items = problems
                .into_iter()
                .map(|(side, p)| {
                    let label = format!("{}:{}:{}", p.file, p.line, p.column);
                    let line = p.line;
                    let note = if side == 1 && after { format!(" {}", tr("pt-damaged-compared-with")) } else { String::new() };
                    view! {
                        <li data-side=if side == 1 { "before" } else { "after" } data-file=p.file.clone()
                            data-line=p.line.to_string() data-column=p.column.to_string()>
                            <button data-testid="snapshot-problem-jump" title=t("pt-show-this-line-in-the")
                                on:click=move |_| jump_to(side, line)>{label}</button>
                            {format!(" {}{note}", i18n::snapshot_problem_message(&p))}
                        </li>
                    }
                })
                .collect_view();
            view! {
                <div class="snapshot-problems" data-testid="snapshot-problems" role="alert">
                    <strong>{lead}</strong>
                    <ul>{items}</ul>
                </div>
            }
        })
    };

    let functions = move || diff.with(|d| d.as_ref().map(|d| d.functions.clone()).unwrap_or_default());
    // The function the shown diff is restricted to (a chosen function the pass lacks shows
    // the whole file; the choice applies again to passes that have it).
    let shown_function = move || diff.with(|d| d.as_ref().and_then(|d| d.function.clone()));
    let on_function = move |ev: leptos::ev::Event| {
        let v = event_target_value(&ev);
        function.set(if v.is_empty() { None } else { Some(v) });
    };

    let warnings = move || {
        diff.with(|d| {
            let d = d.as_ref()?;
            let log = d.log.clone()?;
            let jumps = d
                .warnings
                .iter()
                .map(|w| {
                    let line = w.line;
                    let label = match (w.line, w.column) {
                        (Some(l), Some(c)) => format!("{}:{l}:{c}", d.after_file),
                        (Some(l), None) => format!("{}:{l}", d.after_file),
                        _ => d.after_file.clone(),
                    };
                    let msg = w.message.clone();
                    view! {
                        <li>
                            <button data-testid="pass-warning-jump" disabled=line.is_none()
                                on:click=move |_| if let Some(l) = line { jump_to(2, l) }>{label}</button>
                            " " {msg}
                        </li>
                    }
                })
                .collect_view();
            Some(view! {
                <div class="pass-warnings" data-testid="pass-warnings">
                    <h3>{t("pt-warnings")}</h3>
                    <ul>{jumps}</ul>
                    <pre class="pass-log">{log}</pre>
                </div>
            })
        })
    };

    view! {
        <div class="pass-trace" data-testid="pass-trace">
            <div class="pass-side">
                <div class="pass-filters">
                    {filter_btn(Filter::Changed, || tr("pt-filter-changed"), "pass-filter-changed")}
                    {filter_btn(Filter::NoOp, || tr("pt-filter-noop"), "pass-filter-noop")}
                    {filter_btn(Filter::All, || tr("pt-filter-all"), "pass-filter-all")}
                </div>
                {problems}
                {move || list_cancelled.get().then(|| view! {
                    <div class="cancelled pass-list-cancelled" data-testid="list-cancelled">{t("pt-list-cancelled")}" "
                        <button class="retry" data-testid="list-again" on:click=move |_| ask_list()>{t("pt-list-again")}</button>
                    </div>
                })}
                <ol class="pass-list" data-testid="pass-list">{pass_items}</ol>
                {warnings}
            </div>
            <div class="pass-main">
                <div class="diff-toolbar">
                    {header}
                    <span class="spacer"></span>
                    <select data-testid="pass-function" aria-label=t("pt-function-filter") on:change=on_function prop:value=move || shown_function().unwrap_or_default()>
                        <option value="">{t("pt-all-functions")}</option>
                        {move || functions().into_iter().map(|f| view! { <option value=f.clone() selected=shown_function().as_deref() == Some(f.as_str())>{f.clone()}</option> }).collect_view()}
                    </select>
                    {layout_btn(Layout::SideBySide, || tr("pt-layout-side"), "pass-layout-side")}
                    {layout_btn(Layout::Stacked, || tr("pt-layout-stacked"), "pass-layout-stacked")}
                    <button data-testid="pass-expand-all" on:click=move |_| expand_all.update(|v| *v = !*v)>
                        {move || if expand_all.get() { tr("pt-fold-unchanged") } else { tr("pt-expand-all") }}
                    </button>
                    {panes.png_button("pass-diff-png", "pass-trace")}
                </div>
                <CompilerNote note=note/>
                {problem_banner}
                {panes.view("pass-diff")}
            </div>
        </div>
    }
}
