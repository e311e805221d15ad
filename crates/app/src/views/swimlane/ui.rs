//! The swimlane's chrome (Leptos): toolbar (search, label mode, critical path, dependency
//! depth, setup options, fit, PNG export, settings), the canvas host, the legend, the details
//! panel with the tensor table, search results, markers, measure and range statistics; and
//! [`SwimlaneView`], which owns the renderer ([`Lane`]), asks for the timeline `nav` names and
//! follows `nav`'s focus, window and highlight.

use crate::i18n::{t, tr, tr_with, Arg};
use leptos::prelude::*;
use pypto_protocol::timeline::TimelineAlign;
use pypto_protocol::{FileRole, TaskId, ViewKind};
use wasm_bindgen::JsCast;

use super::markers::{self, MARKER_COLORS};
use super::{has_file, mount, Lane, SwimlaneRenderer, SwimlaneUi, TimelineKey};
use crate::browser;
use crate::nav::{KeyMap, LabelMode, Nav, Outcome, PathMode};
use crate::session::Session;
use crate::settings::Settings;
use pypto_render::{axis, palette};

fn input_value(ev: &web_sys::Event) -> String {
    ev.target()
        .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        .map(|i| i.value())
        .or_else(|| ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok()).map(|s| s.value()))
        .unwrap_or_default()
}

fn checked(ev: &web_sys::Event) -> bool {
    ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()).is_some_and(|i| i.checked())
}

/// Runs the search for `query`, or steps through the current results (`step` = ±1).
fn search_step(lane: Lane, query: &str, step: isize) {
    let ui = lane.ui;
    let query = query.trim().to_string();
    if query.is_empty() {
        ui.clear_search();
        return;
    }
    let same = ui.search.with_untracked(|s| s.query == query && !s.hits.is_empty());
    if !same {
        ui.search(query);
        return;
    }
    let mut target = None;
    ui.search.update(|s| {
        // Hits are capped at `SEARCH_LIMIT`, far below `isize::MAX`: the conversions never saturate.
        let n = isize::try_from(s.hits.len()).unwrap_or(isize::MAX);
        let cur = s.current.map_or(if step > 0 { -1 } else { 0 }, |c| isize::try_from(c).unwrap_or(isize::MAX));
        let next = (cur + step).rem_euclid(n.max(1)) as usize;
        s.current = Some(next);
        target = s.hits.get(next).map(|h| h.bar);
    });
    if let Some(bar) = target {
        lane.jump_to(bar);
    }
}

#[component]
#[allow(clippy::too_many_lines)] // one toolbar: its controls share the signals
fn Toolbar(lane: Lane) -> impl IntoView {
    let (nav, prefs) = (Nav::get(), Settings::get());
    let swim = lane.ui;
    let settings = nav.swimlane;
    let trace_mode = move || super::trace::is_trace_mode(nav);
    let query = RwSignal::new(String::new());
    // A search started elsewhere (a Performance Analysis row) shows its query in the box.
    Effect::new(move |_| {
        let q = swim.search.with(|s| s.query.clone());
        if !q.is_empty() && q != query.get_untracked() {
            query.set(q);
        }
    });
    let on_key = move |ev: web_sys::KeyboardEvent| {
        if ev.key() == "Enter" {
            ev.prevent_default();
            search_step(lane, &query.get_untracked(), if ev.shift_key() { -1 } else { 1 });
        }
    };
    let status = move || {
        swim.search.with(|s| {
            if s.query.is_empty() {
                String::new()
            } else if s.hits.is_empty() {
                crate::i18n::tr("sw-no-match")
            } else {
                format!("{} / {}", s.current.map_or(0, |c| c + 1), s.total)
            }
        })
    };
    let paths = move || swim.paths.get();
    let session = Session::get();
    // The shown dataset for export file names (the first, `+n` for the others of a timeline).
    let export_dataset = move || {
        let ids = nav.datasets.get_untracked();
        let first = crate::exports::dataset_name(session, ids.first().copied());
        if ids.len() > 1 {
            format!("{first}+{}", ids.len() - 1)
        } else {
            first
        }
    };
    view! {
        <div class="swimlane-toolbar">
            <input id="swimlane-search" type="search" placeholder=t("sw-search-function-or-rxty-enter")
                prop:value=move || query.get() on:input=move |ev| query.set(input_value(&ev)) on:keydown=on_key/>
            <button id="search-prev" title=t("sw-previous-shift-enter") on:click=move |_| search_step(lane, &query.get_untracked(), -1)>"◀"</button>
            <button id="search-next" title=t("sw-next-enter") on:click=move |_| search_step(lane, &query.get_untracked(), 1)>"▶"</button>
            <span id="search-status" class="search-status">{status}</span>
            // Chip-only controls; a Chrome trace has no task ids, paths or dependencies (K6).
            <Show when=move || !trace_mode() fallback=|| view! { <super::trace::TraceControls/> }>
            <label>{t("sw-labels")}" "
                <select id="label-mode" prop:value=move || settings.with(|s| s.label_mode.key()) on:change=move |ev| {
                    let mode = LabelMode::parse(&input_value(&ev)).unwrap_or(LabelMode::Function);
                    settings.update(|s| s.label_mode = mode);
                    // The user's choice is also the remembered one (a link's is only shown).
                    prefs.label_mode.set(mode);
                }>
                    <option value="name">{t("sw-function")}</option>
                    <option value="id">{t("sw-rxty")}</option>
                    <option value="both">{t("sw-both")}</option>
                </select>
            </label>
            <label>{t("sw-critical-path")}" "
                <select id="path-mode" prop:value=move || settings.with(|s| s.path.key())
                    on:change=move |ev| {
                        let mode = PathMode::parse(&input_value(&ev)).unwrap_or(PathMode::None);
                        settings.update(|s| s.path = mode);
                    }>
                    <option value="none">{t("sw-none")}</option>
                    <option value="static" disabled=move || !paths().0>{t("sw-static")}</option>
                    <option value="observed" disabled=move || !paths().1>{t("sw-observed")}</option>
                </select>
            </label>
            <label>{t("sw-deps")}" "
                <select id="dep-depth" prop:value=move || settings.with(|s| s.depth.to_string()) on:change=move |ev| {
                    let depth = input_value(&ev).parse().unwrap_or(1);
                    settings.update(|s| s.depth = depth);
                    lane.refresh_dependencies();
                }>
                    <option value="0">{t("sw-0-none")}</option>
                    <option value="1">"1"</option>
                    <option value="2">"2"</option>
                    <option value="3">"3"</option>
                    <option value="-1">{t("sw-all")}</option>
                </select>
            </label>
            <AlignChooser/>
            <label><input id="show-setup" type="checkbox" prop:checked=move || settings.with(|s| s.show_setup)
                on:change=move |ev| { let v = checked(&ev); settings.update(|s| s.show_setup = v); }/>" "{t("sw-setup")}</label>
            <label><input id="setup-in-duration" type="checkbox" prop:checked=move || settings.with(|s| s.setup_in_duration)
                on:change=move |ev| { let v = checked(&ev); settings.update(|s| s.setup_in_duration = v); }/>" "{t("sw-setup-in-duration")}</label>
            </Show>
            <button id="fit-view" title=t("sw-fit-the-selection-or-everything") on:click=move |_| { lane.with(SwimlaneRenderer::fit); lane.redraw(); }>{t("sw-fit")}</button>
            <button id="export-png" data-testid="swimlane-export-png" title=t("sw-export-the-current-view-as")
                on:click=move |_| { let name = export_dataset(); lane.with(|r| super::export::export_png(r, &name)); }>"PNG"</button>
            <button id="export-svg" data-testid="swimlane-export-svg" title=t("sw-export-svg")
                on:click=move |_| { let name = export_dataset(); lane.with(|r| super::export::export_svg(r, &name)); }>"SVG"</button>
            <Show when=move || !trace_mode()><super::perfetto::PerfettoExportButton lane=lane/></Show>
            <button id="swimlane-settings-toggle" on:click=move |_| swim.show_settings.update(|v| *v = !*v)>"⚙"</button>
            <Show when=move || !trace_mode()>
                <button id="perf-panel-toggle" data-testid="perf-panel-toggle" class:active=move || nav.panel.with(|p| p.open)
                    title=t("sw-performance-analysis-overview-kernel-statistics")
                    on:click=move |_| nav.panel.update(|p| p.open = !p.open)>{t("sw-performance-analysis")}</button>
                <super::compiler_links::CompilerButtons/>
            </Show>
        </div>
        <Show when=move || swim.show_settings.get()>
            <KeySettings/>
        </Show>
    }
}

/// For a timeline of several datasets: how they share the axis (a `<select>` that re-asks the
/// timeline through `nav`, so the link keeps it) and the timeline's alignment label.
#[component]
fn AlignChooser() -> impl IntoView {
    let (nav, swim) = (Nav::get(), SwimlaneUi::get());
    let settings = nav.swimlane;
    let datasets = move || swim.key.with(|k| k.as_ref().map_or(0, |k| k.datasets.len()));
    let selected_task = move || swim.details.with(|d| d.as_ref().and_then(|d| d.task));
    let on_change = move |ev: web_sys::Event| {
        let align = match input_value(&ev).as_str() {
            "first" => TimelineAlign::FirstDispatch,
            "none" => TimelineAlign::None,
            // The selected task, in every dataset (ranks run the same program); two compared
            // runs: the task in its run, its match in the other.
            "task" => match (selected_task(), swim.compare_match.get_untracked()) {
                (Some(task), Some(m)) if m.task == task && datasets() == 2 => {
                    TimelineAlign::Task(if m.side == 0 { vec![Some(task), m.other] } else { vec![m.other, Some(task)] })
                }
                (Some(task), _) => TimelineAlign::Task(vec![Some(task); datasets()]),
                (None, _) => return,
            },
            _ => TimelineAlign::Auto,
        };
        settings.update(|s| s.align = align);
    };
    let task_option = move || match settings.with(|s| s.align.clone()) {
        TimelineAlign::Task(ids) => ids
            .iter()
            .flatten()
            .next()
            .map_or_else(|| tr("sw-align-selected-task"), |id| tr_with("sw-align-task", &[("task", Arg::from(id.to_string()))])),
        _ => tr("sw-align-selected-task"),
    };
    let task_title = move || {
        selected_task().map_or_else(|| tr("sw-align-task-first"), |t| tr_with("sw-align-task-title", &[("task", Arg::from(t.to_string()))]))
    };
    let label = move || swim.alignment.with(|a| a.label.clone());
    view! {
        <Show when=move || { datasets() > 1 }>
            <label title=t("sw-how-the-datasets-share-the")>{t("sw-align")}" "
                <select id="align-mode" data-testid="align-mode" prop:value=move || settings.with(|s| s.align.key()) on:change=on_change>
                    <option value="auto" title=t("sw-by-the-clock-anchors-when")>{t("sw-auto")}</option>
                    <option value="first" title=t("sw-shift-each-dataset-so-that")>{t("sw-first-dispatch")}</option>
                    <option value="task" title=task_title disabled=move || selected_task().is_none()>{task_option}</option>
                    <option value="none" title=t("sw-each-dataset-on-its-own")>{t("sw-none")}</option>
                </select>
            </label>
            <span id="alignment-label" class="alignment-label" title=label>{label}</span>
        </Show>
    }
}

#[component]
fn KeySettings() -> impl IntoView {
    let (nav, prefs) = (Nav::get(), Settings::get());
    let settings = nav.swimlane;
    let key_input = move |id: &'static str, label_id: &'static str, get: fn(&KeyMap) -> String, put: fn(&mut KeyMap, String)| {
        view! {
            <label>{t(label_id)}" "
                <input id=id class="key-input" maxlength="12" prop:value=move || settings.with(|s| get(&s.keys))
                    on:change=move |ev| { let v = input_value(&ev); settings.update(|s| put(&mut s.keys, v)); }/>
            </label>
        }
    };
    view! {
        <div id="swimlane-settings" class="swimlane-settings">
            <strong>{t("sw-keys")}" "</strong>
            {key_input("key-zoom-in", "keys-zoom-in", |k| k.zoom_in.clone(), |k, v| k.zoom_in = v)}
            {key_input("key-zoom-out", "keys-zoom-out", |k| k.zoom_out.clone(), |k, v| k.zoom_out = v)}
            {key_input("key-pan-left", "keys-pan-left", |k| k.pan_left.clone(), |k, v| k.pan_left = v)}
            {key_input("key-pan-right", "keys-pan-right", |k| k.pan_right.clone(), |k, v| k.pan_right = v)}
            <span class="hint">{t("sw-wheel-scrolls-ctrl-wheel-zooms")}</span>
            <button id="reset-settings" data-testid="reset-settings"
                title=t("sw-forget-the-remembered-key-bindings")
                on:click=move |_| prefs.reset(nav)>{t("sw-reset-settings")}</button>
        </div>
    }
}

#[component]
fn Legend() -> impl IntoView {
    let (swim, prefs) = (SwimlaneUi::get(), crate::settings::Settings::get());
    view! {
        // Scrolls when it overflows: focusable, so keyboard users can scroll it too.
        <div id="swimlane-legend" class="legend" tabindex="0" role="region" aria-label=t("sw-legend-label")>
            {move || swim.legend.get().into_iter().take(64).map(|e| {
                let [r, g, b, _] = palette::color_for_key(prefs.scheme.get(), e.color_key);
                let style = format!("background: rgb({r},{g},{b})");
                view! { <span class="legend-entry" title=tr_with("sw-legend-bars", &[("count", Arg::from(e.bars))])><span class="swatch" style=style></span>{e.name}</span> }
            }).collect_view()}
        </div>
    }
}

#[component]
fn ContextMenuView(lane: Lane) -> impl IntoView {
    move || {
        lane.ui.context_menu.get().map(|menu| {
            let style = format!("left: {}px; top: {}px", menu.x, menu.y);
            view! {
                <div class="context-menu" style=style>
                    <button id="menu-task-markers" on:click=move |_| super::markers_for_bar(lane, menu.bar, false)>{t("sw-markers-at-task-start-end")}</button>
                    <button id="menu-group-markers" on:click=move |_| super::markers_for_bar(lane, menu.bar, true)>{t("sw-markers-at-spmd-group-bounds")}</button>
                </div>
            }
        })
    }
}

#[component]
fn Details() -> impl IntoView {
    let (session, nav, swim) = (Session::get(), Nav::get(), SwimlaneUi::get());
    // "Show in graph": a task's details, a dataset with a deps.json, not a Chrome trace.
    let graph_button = move |task: Option<TaskId>| {
        let task = task?;
        let dataset = nav.datasets.with_untracked(|d| d.first().copied());
        if !has_file(session, dataset, FileRole::Deps) || super::trace::is_trace_mode(nav) {
            return None;
        }
        Some(view! {
            <button data-testid="swim-show-in-graph" on:click=move |_| nav.show_with(ViewKind::TaskGraph, super::graph_focus(task))>{t("sw-show-in-graph")}</button>
        })
    };
    move || {
        if let Some(d) = swim.details.get() {
            let graph_button = graph_button(d.task);
            // The page's preview has its own title class, so `.details-title` always means
            // the worker's full details.
            let title_class = if d.complete { "details-title" } else { "details-title-preview" };
            // The details as shown, as CSV (field, value; the tensor arguments are `Arg k` rows).
            let csv = crate::exports::fields_csv(Some(&d.title), &d.fields);
            let csv_name = {
                let dataset = crate::exports::dataset_name(session, nav.datasets.with_untracked(|d| d.first().copied()));
                let subject = d.task.map_or_else(|| d.title.clone(), |t| t.to_string());
                crate::exports::file_name("task-details", &[&dataset, &subject], "csv")
            };
            view! {
                <div data-complete=d.complete.to_string()>
                    <button class="details-csv" data-testid="task-details-csv" title=t("sw-download-these-details-as-csv")
                        on:click=move |_| crate::exports::download_csv(&csv_name, &csv)>"CSV"</button>
                    <h3 class=title_class>{d.title.clone()}</h3>
                    <table class="details">
                        {d.fields.into_iter().map(|(key, value)| {
                            // The worker's English field names are keys: shown translated.
                            let (label, value) = (super::words::field_label(&key), super::words::field_value(&key, &value));
                            if value.contains('\n') {
                                view! { <tr data-field=key><th>{label}</th><td><pre>{value}</pre></td></tr> }.into_any()
                            } else {
                                view! { <tr data-field=key><th>{label}</th><td>{value}</td></tr> }.into_any()
                            }
                        }).collect_view()}
                    </table>
                    {(!d.complete).then(|| view! { <p class="hint">{t("sw-loading-the-full-details")}</p> })}
                    {(d.group.len() > 1).then(|| view! { <p class="hint">{tr_with("sw-spmd-group", &[("count", Arg::from(d.group.len()))])}</p> })}
                    {move || swim.compare_match.get().map(|m| {
                        let (own, other) = if m.side == 0 { ("A", "B") } else { ("B", "A") };
                        let args = |o: String| [("own", Arg::from(own)), ("task", Arg::from(m.task.to_string())), ("other", Arg::from(other)), ("match", Arg::from(o))];
                        let text = match (&m.other, m.rule.as_deref()) {
                            (Some(o), Some("order")) => tr_with("sw-match-order", &args(o.to_string())),
                            (Some(o), _) => tr_with("sw-match-same-id", &args(o.to_string())),
                            (None, _) => tr_with("sw-match-none", &args(String::new())),
                        };
                        view! {
                            <p class="compare-match" data-testid="compare-match" data-task=m.task.to_string()
                                data-other=m.other.map(|o| o.to_string()) data-rule=m.rule.clone()>{text}</p>
                        }
                    })}
                    {graph_button}
                </div>
            }
            .into_any()
        } else {
            view! { <p class="hint">{t("sw-click-a-bar-for-its")}</p> }.into_any()
        }
    }
}

#[component]
fn SidePanels(lane: Lane) -> impl IntoView {
    let nav = Nav::get();
    let swim = lane.ui;
    view! {
        <div class="swimlane-side">
            <div id="swimlane-measure" class="measure"></div>
            <div id="search-results" class="search-results">
                {move || swim.search.with(|s| {
                    let current = s.current;
                    s.hits.iter().enumerate().take(200).map(|(i, h)| {
                        let bar = h.bar;
                        let label = format!("{} @ {:.3} µs", h.label, h.start_us);
                        view! { <div class="search-hit" data-track=bar.track.to_string() data-index=bar.index.to_string() class:current=current == Some(i) on:click=move |_| {
                            swim.search.update(|s| s.current = Some(i));
                            lane.jump_to(bar);
                        }>{label}</div> }
                    }).collect_view()
                })}
            </div>
            <ul id="markers" class="markers">
                {move || nav.markers.get().into_iter().map(|m| {
                    let id = m.id;
                    let color = m.color;
                    view! {
                        <li class="marker" data-t-us=format!("{:.3}", m.t_us)>
                            <input class="marker-label" prop:value=m.label.clone()
                                on:change=move |ev| markers::edit(nav, id, Some(input_value(&ev)), None)/>
                            <select class="marker-color" on:change=move |ev| markers::edit(nav, id, None, input_value(&ev).parse().ok())>
                                {MARKER_COLORS.iter().enumerate().map(|(i, (name, _))| view! { <option value=i.to_string() selected=i == color>{*name}</option> }).collect_view()}
                            </select>
                            <span class="marker-time">{axis::format_duration_us(m.t_us)}</span>
                            <button class="marker-delete" on:click=move |_| markers::remove(nav, id)>"✕"</button>
                        </li>
                    }
                }).collect_view()}
            </ul>
            <div id="range-stats">
                {move || swim.range_stats.get().map(|rs| {
                    let csv = range_stats_csv(&rs);
                    let download = move |_| browser::download_text("range_statistics.csv", "text/csv;charset=utf-8", &format!("\u{feff}{csv}"));
                    view! {
                    <p class="hint">{format!("{} → {} ({})", axis::format_duration_us(rs.start_us), axis::format_duration_us(rs.end_us), axis::format_duration_us(rs.end_us - rs.start_us))}
                        " " <button id="range-stats-csv" title=t("sw-download-these-statistics-as-csv") on:click=download>"CSV"</button></p>
                    <table class="details range-stats">
                        <tr><th>{t("sw-function")}</th><th>{t("sw-count")}</th><th>{t("sw-total-s")}</th><th>{t("sw-avg-s")}</th><th>{t("sw-max-s")}</th></tr>
                        {rs.rows.into_iter().map(|r| view! {
                            <tr class="range-row"><td>{r.name}</td><td>{r.count}</td><td>{format!("{:.3}", r.total_us)}</td><td>{format!("{:.3}", r.avg_us)}</td><td>{format!("{:.3}", r.max_us)}</td></tr>
                        }).collect_view()}
                    </table>
                }})}
            </div>
        </div>
    }
}

/// The area statistics as CSV: the range in µs, then one line per function (µs, 3 decimals).
fn range_stats_csv(rs: &super::RangeStatsView) -> String {
    use crate::table::csv_field;
    use std::fmt::Write as _;
    let mut out =
        format!("range_start_us,{:.3}\r\nrange_end_us,{:.3}\r\nfunction,count,total_us,avg_us,max_us\r\n", rs.start_us, rs.end_us);
    for r in &rs.rows {
        let _ = write!(out, "{},{},{:.3},{:.3},{:.3}\r\n", csv_field(&r.name), r.count, r.total_us, r.avg_us, r.max_us);
    }
    out
}

#[component]
#[allow(clippy::too_many_lines)] // the view's effects: timeline, mount, focus, window, highlight
pub fn SwimlaneView() -> impl IntoView {
    let (session, nav, ui) = (Session::get(), Nav::get(), SwimlaneUi::get());
    let lane = ui.new_lane();
    let container = NodeRef::<leptos::html::Div>::new();
    let canvas = NodeRef::<leptos::html::Canvas>::new();
    let overlay = NodeRef::<leptos::html::Canvas>::new();
    let tooltip = NodeRef::<leptos::html::Div>::new();
    // The timeline nav shows (asked for when it changes; kept while other views are shown).
    let key = Memo::new(move |_| {
        let datasets = nav.datasets.get();
        let &first = datasets.first()?;
        let trace_path = if super::trace::is_trace_mode(nav) {
            nav.trace_path.get().or_else(|| session.with_row(first, |r| r.info.path.clone()))
        } else {
            None
        };
        // Only a timeline of several datasets is aligned (one dataset is never shifted).
        let align = if datasets.len() > 1 && trace_path.is_none() { nav.swimlane.with(|s| s.align.clone()) } else { TimelineAlign::Auto };
        Some(TimelineKey { datasets, trace_path, align })
    });
    Effect::new(move |_| {
        if let Some(key) = key.get() {
            ui.request(key);
        }
    });
    // Mount once the canvases exist; show each timeline of that key that arrives, then nav's focus.
    Effect::new(move |_| {
        ui.version.track();
        let shown = key.get();
        let (Some(div), Some(gl_canvas), Some(text_canvas), Some(tip)) = (container.get(), canvas.get(), overlay.get(), tooltip.get())
        else {
            return;
        };
        if !lane.renderer.is_some() {
            if let Err(message) = mount(ui, lane, &div.into(), &gl_canvas, &text_canvas, tip.into()) {
                return session.problem(message);
            }
        }
        let data = shown.and_then(|k| ui.data_of(&k));
        lane.with(|r| {
            r.resize();
            r.set_data(data);
        });
        lane.follow(nav.focus.get_untracked());
        lane.redraw();
    });
    // Focus asked by other parts (a table row, "Show in swimlane", a search from elsewhere).
    Effect::watch(move || nav.focus.get(), move |focus, _, _| lane.follow(focus.clone()), false);
    // A window asked by other parts (a path tab's interval).
    Effect::watch(
        move || nav.window_us.get(),
        move |window, _, _| {
            let Some((t0, t1)) = *window else { return };
            lane.with(|r| {
                if r.data.is_some() && r.last_reported_window != Some((t0, t1)) {
                    r.set_window(t0, t1);
                    r.last_reported_window = Some((t0, t1));
                }
            });
            lane.redraw();
        },
        false,
    );
    // Pinned and folded lanes asked by nav (back / forward to another arrangement).
    Effect::watch(
        move || nav.lanes.get(),
        move |lanes, _, _| {
            if lane.with(|r| r.apply_lanes(lanes)) == Some(true) {
                lane.redraw();
            }
        },
        false,
    );
    // The highlighted tasks' mask over the shown timeline.
    Effect::new(move |_| {
        ui.version.track();
        let highlight = nav.highlight.get();
        let built = match (highlight, ui.data()) {
            (Some(h), Some(d)) => {
                let (mask, bars) = super::highlight::build(&d, &h);
                nav.outcome.set(Some(Outcome::Highlighted { tasks: h.tasks.len(), bars }));
                (bars > 0).then_some(mask)
            }
            _ => None,
        };
        ui.highlight.with(|h| *h = built);
        lane.redraw();
    });
    Effect::new(move |_| {
        nav.swimlane.track();
        nav.markers.track();
        ui.measure.track();
        lane.redraw();
    });
    // Another theme: the canvas' palette changes (read at each frame).
    let prefs = crate::settings::Settings::get();
    Effect::new(move |_| {
        prefs.scheme.track();
        lane.redraw();
    });
    let _ = leptos_use_resize_observer::use_resize_observer(container, move |_, _| {
        lane.with(SwimlaneRenderer::resize);
        lane.redraw();
    });
    on_cleanup(move || ui.unmounted(lane.id));
    let trace_mode = move || super::trace::is_trace_mode(nav);
    let embedded = use_context::<crate::embed::Embed>().is_some_and(|e| e.embedded);
    view! {
        <div class="swimlane-page">
            <Toolbar lane=lane/>
            <Legend/>
            <div id="swimlane" class="swimlane" tabindex="0" node_ref=container>
                <canvas id="swimlane-gl" class="gl-layer" node_ref=canvas></canvas>
                <canvas class="text-layer" node_ref=overlay></canvas>
                <div class="tooltip" node_ref=tooltip></div>
                <ContextMenuView lane=lane/>
            </div>
            // What is selected, said by screen readers (keyboard: ] [ ↓ ↑ move through the bars).
            <div class="sr-only" aria-live="polite" data-testid="swimlane-announce">{move || nav.selected.get().map(|s| {
                let time = match (s.start_us, s.end_us) {
                    (Some(a), Some(b)) => format!("{a:.3}–{b:.3} µs"),
                    _ => String::new(),
                };
                tr_with("sw-announce", &[
                    ("lane", Arg::from(s.lane.unwrap_or_default())),
                    ("task", Arg::from(s.task.map(|t| t.to_string()).unwrap_or_default())),
                    ("function", Arg::from(s.function.unwrap_or_default())),
                    ("time", Arg::from(time)),
                ])
            })}</div>
            <div class="swimlane-bottom">
                <div id="task-details" class="details-panel"><Details/></div>
                <SidePanels lane=lane/>
            </div>
        </div>
        <Show when=trace_mode><super::trace::TraceStatsPanel/></Show>
        <crate::tour::SwimlaneTour embedded=embedded/>
    }
}
