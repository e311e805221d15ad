//! The swimlane's chrome (Leptos): toolbar (search, label mode, critical path, dependency
//! depth, setup options, fit, PNG export, settings), the canvas host, the legend, the details
//! panel with the tensor table, search results, markers, measure and range statistics; and
//! [`SwimlaneView`], which owns the renderer ([`Lane`]), asks for the timeline `nav` names and
//! follows `nav`'s focus, window and highlight.

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
                "no match".to_string()
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
            <input id="swimlane-search" type="search" placeholder="Search function or rXtY (Enter / Shift+Enter)"
                prop:value=move || query.get() on:input=move |ev| query.set(input_value(&ev)) on:keydown=on_key/>
            <button id="search-prev" title="Previous (Shift+Enter)" on:click=move |_| search_step(lane, &query.get_untracked(), -1)>"◀"</button>
            <button id="search-next" title="Next (Enter)" on:click=move |_| search_step(lane, &query.get_untracked(), 1)>"▶"</button>
            <span id="search-status" class="search-status">{status}</span>
            // Chip-only controls; a Chrome trace has no task ids, paths or dependencies (K6).
            <Show when=move || !trace_mode() fallback=|| view! { <super::trace::TraceControls/> }>
            <label>"Labels "
                <select id="label-mode" prop:value=move || settings.with(|s| s.label_mode.key()) on:change=move |ev| {
                    let mode = LabelMode::parse(&input_value(&ev)).unwrap_or(LabelMode::Function);
                    settings.update(|s| s.label_mode = mode);
                    // The user's choice is also the remembered one (a link's is only shown).
                    prefs.label_mode.set(mode);
                }>
                    <option value="name">"function"</option>
                    <option value="id">"rXtY"</option>
                    <option value="both">"both"</option>
                </select>
            </label>
            <label>"Critical path "
                <select id="path-mode" prop:value=move || settings.with(|s| s.path.key())
                    on:change=move |ev| {
                        let mode = PathMode::parse(&input_value(&ev)).unwrap_or(PathMode::None);
                        settings.update(|s| s.path = mode);
                    }>
                    <option value="none">"none"</option>
                    <option value="static" disabled=move || !paths().0>"static"</option>
                    <option value="observed" disabled=move || !paths().1>"observed"</option>
                </select>
            </label>
            <label>"Deps "
                <select id="dep-depth" prop:value=move || settings.with(|s| s.depth.to_string()) on:change=move |ev| {
                    let depth = input_value(&ev).parse().unwrap_or(1);
                    settings.update(|s| s.depth = depth);
                    lane.refresh_dependencies();
                }>
                    <option value="0">"0 (none)"</option>
                    <option value="1">"1"</option>
                    <option value="2">"2"</option>
                    <option value="3">"3"</option>
                    <option value="-1">"all"</option>
                </select>
            </label>
            <AlignChooser/>
            <label><input id="show-setup" type="checkbox" prop:checked=move || settings.with(|s| s.show_setup)
                on:change=move |ev| { let v = checked(&ev); settings.update(|s| s.show_setup = v); }/>" setup"</label>
            <label><input id="setup-in-duration" type="checkbox" prop:checked=move || settings.with(|s| s.setup_in_duration)
                on:change=move |ev| { let v = checked(&ev); settings.update(|s| s.setup_in_duration = v); }/>" setup in duration"</label>
            </Show>
            <button id="fit-view" title="Fit the selection or everything (F)" on:click=move |_| { lane.with(SwimlaneRenderer::fit); lane.redraw(); }>"Fit"</button>
            <button id="export-png" data-testid="swimlane-export-png" title="Export the current view as PNG"
                on:click=move |_| { let name = export_dataset(); lane.with(|r| super::export::export_png(r, &name)); }>"PNG"</button>
            <button id="export-svg" data-testid="swimlane-export-svg" title="Export the visible window as SVG (text as text)"
                on:click=move |_| { let name = export_dataset(); lane.with(|r| super::export::export_svg(r, &name)); }>"SVG"</button>
            <Show when=move || !trace_mode()><super::perfetto::PerfettoExportButton lane=lane/></Show>
            <button id="swimlane-settings-toggle" on:click=move |_| swim.show_settings.update(|v| *v = !*v)>"⚙"</button>
            <Show when=move || !trace_mode()>
                <button id="perf-panel-toggle" data-testid="perf-panel-toggle" class:active=move || nav.panel.with(|p| p.open)
                    title="Performance Analysis: overview, kernel statistics, setup, critical path, gaps"
                    on:click=move |_| nav.panel.update(|p| p.open = !p.open)>"Performance Analysis"</button>
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
        TimelineAlign::Task(ids) => ids.iter().flatten().next().map_or_else(|| "selected task".to_owned(), |id| format!("task {id}")),
        _ => "selected task".to_owned(),
    };
    let task_title = move || {
        selected_task().map_or_else(
            || "Select a task's bar first: each dataset is then shifted so that this task's first start is at 0".to_owned(),
            |t| format!("Shift each dataset so that {t}'s first start is at 0"),
        )
    };
    let label = move || swim.alignment.with(|a| a.label.clone());
    view! {
        <Show when=move || { datasets() > 1 }>
            <label title="How the datasets share the time axis">"Align "
                <select id="align-mode" data-testid="align-mode" prop:value=move || settings.with(|s| s.align.key()) on:change=on_change>
                    <option value="auto" title="By the clock anchors when every dataset calibrates to host time, else at first dispatch">"auto"</option>
                    <option value="first" title="Shift each dataset so that its first dispatch is at 0">"first dispatch"</option>
                    <option value="task" title=task_title disabled=move || selected_task().is_none()>{task_option}</option>
                    <option value="none" title="Each dataset on its own time axis">"none"</option>
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
    let key_input = move |id: &'static str, label: &'static str, get: fn(&KeyMap) -> String, put: fn(&mut KeyMap, String)| {
        view! {
            <label>{label}
                <input id=id class="key-input" maxlength="12" prop:value=move || settings.with(|s| get(&s.keys))
                    on:change=move |ev| { let v = input_value(&ev); settings.update(|s| put(&mut s.keys, v)); }/>
            </label>
        }
    };
    view! {
        <div id="swimlane-settings" class="swimlane-settings">
            <strong>"Keys "</strong>
            {key_input("key-zoom-in", "zoom in ", |k| k.zoom_in.clone(), |k, v| k.zoom_in = v)}
            {key_input("key-zoom-out", "zoom out ", |k| k.zoom_out.clone(), |k, v| k.zoom_out = v)}
            {key_input("key-pan-left", "pan left ", |k| k.pan_left.clone(), |k, v| k.pan_left = v)}
            {key_input("key-pan-right", "pan right ", |k| k.pan_right.clone(), |k, v| k.pan_right = v)}
            <span class="hint">"Wheel scrolls, Ctrl+wheel zooms, drag pans, Alt+click twice measures, Shift+drag (or R) selects an area, click the axis for a marker."</span>
            <button id="reset-settings" data-testid="reset-settings"
                title="Forget the remembered key bindings, label mode, theme, language, panel width and last folder: back to the defaults"
                on:click=move |_| prefs.reset(nav)>"Reset settings"</button>
        </div>
    }
}

#[component]
fn Legend() -> impl IntoView {
    let swim = SwimlaneUi::get();
    view! {
        <div id="swimlane-legend" class="legend">
            {move || swim.legend.get().into_iter().take(64).map(|e| {
                let [r, g, b, _] = palette::color_for_key(e.color_key);
                let style = format!("background: rgb({r},{g},{b})");
                view! { <span class="legend-entry" title=format!("{} bars", e.bars)><span class="swatch" style=style></span>{e.name}</span> }
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
                    <button id="menu-task-markers" on:click=move |_| super::markers_for_bar(lane, menu.bar, false)>"Markers at task start / end"</button>
                    <button id="menu-group-markers" on:click=move |_| super::markers_for_bar(lane, menu.bar, true)>"Markers at SPMD group bounds"</button>
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
            <button data-testid="swim-show-in-graph" on:click=move |_| nav.show_with(ViewKind::TaskGraph, super::graph_focus(task))>"Show in graph"</button>
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
                    <button class="details-csv" data-testid="task-details-csv" title="Download these details as CSV"
                        on:click=move |_| crate::exports::download_csv(&csv_name, &csv)>"CSV"</button>
                    <h3 class=title_class>{d.title.clone()}</h3>
                    <table class="details">
                        {d.fields.into_iter().map(|(label, value)| {
                            if value.contains('\n') {
                                view! { <tr><th>{label}</th><td><pre>{value}</pre></td></tr> }.into_any()
                            } else {
                                view! { <tr><th>{label}</th><td>{value}</td></tr> }.into_any()
                            }
                        }).collect_view()}
                    </table>
                    {(!d.complete).then(|| view! { <p class="hint">"Loading the full details…"</p> })}
                    {(d.group.len() > 1).then(|| view! { <p class="hint">{format!("SPMD group: {} blocks highlighted", d.group.len())}</p> })}
                    {move || swim.compare_match.get().map(|m| {
                        let (own, other) = if m.side == 0 { ("A", "B") } else { ("B", "A") };
                        let text = match (&m.other, m.rule.as_deref()) {
                            (Some(o), Some("order")) => format!("{own} {} ↔ {other} {o} (matched as the same execution of its function: highlighted)", m.task),
                            (Some(o), _) => format!("{own} {} ↔ {other} {o} (same function and task id: highlighted)", m.task),
                            (None, _) => format!("{own} {}: no match in run {other}", m.task),
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
            view! { <p class="hint">"Click a bar for its details. W/S zoom, A/D pan, F fits, Ctrl+wheel zooms at the cursor, right-click a bar for markers."</p> }.into_any()
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
                        " " <button id="range-stats-csv" title="Download these statistics as CSV" on:click=download>"CSV"</button></p>
                    <table class="details range-stats">
                        <tr><th>"function"</th><th>"count"</th><th>"total µs"</th><th>"avg µs"</th><th>"max µs"</th></tr>
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
    let _ = leptos_use_resize_observer::use_resize_observer(container, move |_, _| {
        lane.with(SwimlaneRenderer::resize);
        lane.redraw();
    });
    on_cleanup(move || ui.unmounted(lane.id));
    let trace_mode = move || super::trace::is_trace_mode(nav);
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
            <div class="swimlane-bottom">
                <div id="task-details" class="details-panel"><Details/></div>
                <SidePanels lane=lane/>
            </div>
        </div>
        <Show when=trace_mode><super::trace::TraceStatsPanel/></Show>
    }
}
