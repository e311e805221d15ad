//! The dataset sidebar: every dataset discovery found (runtime directories, pass dumps,
//! STRACE files, grouped by multi-rank parent; a comparison source's under its own heading),
//! what views each enables and what is lost for missing siblings, the parsed summary facts and
//! warnings, the per-file errors, and per capture or pass dump a "compare with…" list of the
//! others of its kind (the chosen one is the baseline A, this one B).

use leptos::prelude::*;
use pypto_protocol::datasets::DatasetSummary;
use pypto_protocol::Feature;
use pypto_protocol::{DatasetKind, Warning};
use pypto_vocab::{DiscoveryNote, NoteFiles};

use crate::i18n::{fmt_count, t, tr, tr_with, warning_message, Arg};
use crate::worker_words;

use crate::nav::Nav;
use crate::session::{DatasetRow, LoadState, Session};
use crate::worker_client::WorkerClient;

fn kind_label(kind: DatasetKind) -> String {
    tr(match kind {
        DatasetKind::Runtime => "side-kind-runtime",
        DatasetKind::PassDump => "side-kind-pass-dump",
        DatasetKind::ServingStrace => "side-kind-strace",
    })
}

/// The message id of a feature's title (what discovery says a dataset enables).
pub fn feature_message(feature: Feature) -> &'static str {
    match feature {
        Feature::ChipSwimlane => "feature-chip-swimlane",
        Feature::WorkerView => "feature-worker-view",
        Feature::SchedulerView => "feature-scheduler-view",
        Feature::TaskDependencyGraph => "feature-task-graph",
        Feature::FunctionPerformance => "feature-function-performance",
        Feature::PerformanceAnalysis => "feature-performance-analysis",
        Feature::CriticalPathHighlight => "feature-critical-path",
        Feature::HostPrepareLanes => "feature-host-prepare",
        Feature::IrPassTrace => "feature-ir-pass-trace",
        Feature::MemoryReuse => "feature-memory-reuse",
        Feature::ServingStraceSwimlane => "feature-strace-swimlane",
    }
}

/// A discovery note in the page language.
fn note_text(note: &DiscoveryNote) -> String {
    match note {
        DiscoveryNote::SeveralFiles { files, count, using } => {
            let id = match files {
                NoteFiles::Records => "side-note-records-files",
                NoteFiles::Deps => "side-note-deps-files",
                NoteFiles::NameMap => "side-note-name-map-files",
            };
            tr_with(id, &[("count", Arg::from(*count)), ("using", Arg::from(using))])
        }
        DiscoveryNote::PassSnapshots { count } => tr_with("side-note-pass-snapshots", &[("count", Arg::from(*count))]),
        DiscoveryNote::PassDump { path } => tr_with("side-note-pass-dump", &[("path", Arg::from(path))]),
        DiscoveryNote::PassDumps { count, using, others } => tr_with(
            "side-note-pass-dumps",
            &[("count", Arg::from(*count)), ("using", Arg::from(using)), ("others", Arg::from(others.join(", ")))],
        ),
    }
}

/// What discovery says is missing, one fixed English sentence each (a key): in the page
/// language when known, else as sent.
struct Missing {
    key: &'static str,
    text_id: &'static str,
}

const MISSING: &[Missing] = &[
    Missing { key: "no *after_AllocateMemoryAddr.py: no memory reuse map", text_id: "side-missing-memory-map" },
    Missing { key: "no 00_frontend.py: the first pass cannot be compared", text_id: "side-missing-frontend" },
    Missing {
        key: "no chip_swimlane_records.json: no swimlane (deps.json alone gives the dependency graph)",
        text_id: "side-missing-records-graph",
    },
    Missing { key: "no chip_swimlane_records.json: no swimlane", text_id: "side-missing-records" },
    Missing { key: "no deps.json: function names and dependency lines unavailable", text_id: "side-missing-deps" },
    Missing { key: "no name_map*.json: functions shown by id (func_N)", text_id: "side-missing-name-map" },
];

fn missing_text(sentence: &str) -> String {
    MISSING.iter().find(|m| m.key == sentence).map_or_else(|| sentence.to_owned(), |m| tr(m.text_id))
}

fn summary_view(summary: &DatasetSummary) -> AnyView {
    let mut lines: Vec<String> = Vec::new();
    let records = summary.records.as_ref();
    if let Some(r) = records {
        let clock_mhz = r.clock_freq_hz as f64 / 1e6;
        lines.push(tr_with(
            "side-level-clock-cores",
            &[
                ("level", Arg::from(r.level.to_string())),
                ("mhz", Arg::from(clock_mhz.to_string())),
                ("cores", Arg::from(u64::from(r.num_cores))),
            ],
        ));
        lines.push(tr_with(
            "side-tasks-span",
            &[("tasks", Arg::from(fmt_count(r.task_count))), ("span", Arg::from(format!("{:.3}", r.span_us)))],
        ));
    }
    if let Some(d) = &summary.deps {
        lines
            .push(tr_with("side-deps", &[("tasks", Arg::from(d.tasks)), ("edges", Arg::from(d.edges)), ("tensors", Arg::from(d.tensors))]));
    }
    if let Some(n) = summary.name_map_entries {
        lines.push(tr_with("side-name-map", &[("count", Arg::from(n))]));
    }
    if let Some(h) = &summary.host_phases {
        lines.push(tr_with(
            "side-host-prepare",
            &[("passes", Arg::from(h.passes)), ("phases", Arg::from(h.drawn)), ("lanes", Arg::from(h.lanes))],
        ));
    }
    if let Some(p) = &summary.pass_dump {
        lines.push(tr_with(
            if p.has_frontend { "side-passes-frontend" } else { "side-passes" },
            &[("count", Arg::from(u64::from(p.pass_count)))],
        ));
        lines.extend(p.problems.iter().map(|problem| format!("⚠ {problem}")));
    }
    if let Some(t) = &summary.trace {
        lines.push(tr_with(
            "side-trace",
            &[
                ("processes", Arg::from(u64::from(t.processes))),
                ("lanes", Arg::from(u64::from(t.lanes))),
                ("spans", Arg::from(t.spans)),
                ("instants", Arg::from(t.instants)),
                ("span", Arg::from(format!("{:.3}", t.span_us))),
            ],
        ));
    }
    let errors = summary.errors.len();
    if errors > 0 {
        lines.push(tr_with("side-file-errors", &[("count", Arg::from(errors))]));
    }
    let pass = summary.pass_dump.as_ref();
    view! {
        <div class="summary"
            data-level=records.map(|r| r.level.to_string())
            data-clock-hz=records.map(|r| r.clock_freq_hz.to_string())
            data-cores=records.map(|r| r.num_cores.to_string())
            data-tasks=records.map(|r| r.task_count.to_string())
            data-span-us=records.map(|r| format!("{:.3}", r.span_us))
            data-deps-tasks=summary.deps.as_ref().map(|d| d.tasks.to_string())
            data-deps-edges=summary.deps.as_ref().map(|d| d.edges.to_string())
            data-deps-tensors=summary.deps.as_ref().map(|d| d.tensors.to_string())
            data-passes=pass.map(|p| p.pass_count.to_string())
            data-valid=pass.map(|p| (p.problems.is_empty() && p.has_frontend).to_string())
            data-host-phases=summary.host_phases.as_ref().map(|h| h.drawn.to_string())
            data-trace-spans=summary.trace.as_ref().map(|t| t.spans.to_string())
            data-trace-instants=summary.trace.as_ref().map(|t| t.instants.to_string())>
            {lines.into_iter().map(|line| view! { <div class="fact">{line}</div> }).collect_view()}
            <DatasetWarnings warnings=summary.warnings.clone()/>
        </div>
    }
    .into_any()
}

/// Where a warning is: the file's name, and the line and column when the reader knows them.
fn warning_place(w: &Warning) -> String {
    let file = w.path.rsplit('/').next().unwrap_or(&w.path);
    match (file.is_empty(), w.line > 0) {
        (true, _) => String::new(),
        (false, true) => tr_with(
            "side-file-line-column",
            &[("file", Arg::from(file)), ("line", Arg::from(w.line.to_string())), ("column", Arg::from(w.column.to_string()))],
        ),
        (false, false) => file.to_owned(),
    }
}

/// The dataset's warnings (what the readers and analyses said; the list `report` prints),
/// each with its file and position; the full path in the tooltip.
#[component]
fn DatasetWarnings(warnings: Vec<Warning>) -> impl IntoView {
    (!warnings.is_empty()).then(|| {
        let count = warnings.len();
        view! {
            <details class="dataset-warnings" data-testid="dataset-warnings" open=count <= 3 on:click=|ev| ev.stop_propagation()>
                <summary>{move || tr_with("side-warnings", &[("count", Arg::from(count))])}</summary>
                <ul>
                    {warnings.into_iter().map(|w| {
                        let place = warning_place(&w);
                        let message = warning_message(&w);
                        // The tooltip: the full path and position as `report` prints them, then
                        // the message in the page language (in English, `report`'s line).
                        let title = Warning { message: message.clone(), ..w.clone() }.to_string();
                        view! {
                            <li class="dataset-warning" data-kind=w.kind.key() data-path=w.path.clone() title=title>
                                {(!place.is_empty()).then(|| view! { <span class="warning-place">{place}": "</span> })}
                                <span class="warning-message">{message}</span>
                            </li>
                        }
                    }).collect_view()}
                </ul>
            </details>
        }
    })
}

/// A heading's datasets: whether they are the comparison source's, the multi-rank parent, and
/// each row with its "compare with…" peers (id, title).
type SidebarGroup = (bool, Option<String>, Vec<(DatasetRow, Vec<(u32, String)>)>);

/// Whether a dataset can be one side of a comparison: a capture with records, a pass dump.
fn comparable(row: &DatasetRow) -> bool {
    match row.kind() {
        DatasetKind::Runtime => row.has_records(),
        DatasetKind::PassDump => true,
        DatasetKind::ServingStrace => false,
    }
}

/// "Compare with…": the other datasets of `row`'s kind (`peers`: id, title); choosing one
/// compares it (A, the baseline) with `row` (B, this run).
#[component]
fn CompareWith(id: u32, peers: Vec<(u32, String)>) -> impl IntoView {
    let (session, nav) = (Session::get(), Nav::get());
    (!peers.is_empty()).then(|| {
        let on_change = move |ev: web_sys::Event| {
            let value = event_target_value(&ev);
            if let Ok(baseline) = value.parse::<u32>() {
                nav.show_compare(session, baseline, id, None);
            }
            // Back to "Compare with…": the list offers a choice, it does not show one.
            if let Some(select) = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlSelectElement>(t).ok()) {
                select.set_value("");
            }
        };
        view! {
            <select class="compare-with" data-testid="compare-with" title=t("side-compare-with-title")
                aria-label=t("side-compare-with-label")
                on:click=|ev| ev.stop_propagation() on:change=on_change prop:value="">
                <option value="" selected=true>{t("side-compare-with")}</option>
                {peers.into_iter().map(|(peer, title)| view! { <option value=peer.to_string()>{title}</option> }).collect_view()}
            </select>
        }
    })
}

#[component]
fn DatasetItem(row: DatasetRow, peers: Vec<(u32, String)>) -> impl IntoView {
    let (session, nav) = (Session::get(), Nav::get());
    let id = row.id();
    let title = row.title();
    let info = row.info;
    let side = move || {
        nav.compared().and_then(|(a, b)| {
            if a == id {
                Some("A")
            } else if b == id {
                Some("B")
            } else {
                None
            }
        })
    };
    let files_title = info.files.iter().map(|f| format!("{}: {}", f.role, f.path)).collect::<Vec<_>>().join("\n");
    view! {
        <li class="dataset" data-kind=info.kind.attr() data-path=info.path.clone()
            class:selected=move || nav.datasets.with(|d| d.as_slice() == [id])
            class:compared=move || side().is_some() data-compared=side
            on:click=move |_| nav.show_dataset(session, id)>
            // A button, so the keyboard reaches every dataset (its click is the entry's).
            <button class="dataset-name" title=files_title aria-current=move || nav.datasets.with(|d| d.as_slice() == [id]).then_some("true")>
                {move || side().map(|s| view! { <span class="compare-side">{s}</span> })}{title}
            </button>
            <div class="dataset-kind">{move || kind_label(info.kind)}</div>
            <CompareWith id=id peers=peers/>
            <ul class="views">{info.views.iter().map(|v| view! { <li data-feature=v.title()>{t(feature_message(*v))}</li> }).collect_view()}</ul>
            <ul class="missing">{info.missing.iter().map(|m| { let m = m.clone(); view! { <li>{move || missing_text(&m)}</li> } }).collect_view()}</ul>
            <ul class="notes">{info.notes.iter().map(|n| { let n = n.clone(); view! { <li>{move || note_text(&n)}</li> } }).collect_view()}</ul>
            {match row.summary {
                Some(summary) if summary.cancelled => view! {
                    <div class="cancelled" data-testid="dataset-cancelled">{t("side-cancelled")}" "
                        <button class="retry" data-testid="load-again" title=t("side-load-again-title")
                            on:click=move |ev| { ev.stop_propagation(); WorkerClient::get().reopen_last(); }>{t("side-load-again")}</button>
                    </div>
                }.into_any(),
                Some(summary) => summary_view(&summary),
                None => view! { <div class="pending">{t("side-pending")}</div> }.into_any(),
            }}
        </li>
        // Chrome traces beside the records open as a generic swimlane (what users took to Perfetto);
        // a sibling of the dataset entry, so a click on the entry never lands on one.
        <li class="dataset-traces"><ul class="traces">{info.files.iter().filter(|f| f.role.is_chrome_trace()).map(|f| {
                let path = f.path.clone();
                let name = path.rsplit('/').next().unwrap_or(&path).to_string();
                view! { <li><button class="open-trace" data-path=path.clone() title=t("side-open-trace-title")
                    on:click=move |ev| { ev.stop_propagation(); nav.show_trace(id, path.clone()); }>
                    {move || tr_with("side-open-trace", &[("name", Arg::from(&name))])}</button></li> }
        }).collect_view()}</ul></li>
    }
}

#[component]
pub fn Sidebar() -> impl IntoView {
    let (session, nav) = (Session::get(), Nav::get());
    let grouped = move || {
        // Multi-rank datasets appear under their parent's heading, in discovery order; the
        // comparison source's datasets after the folder's, under its heading.
        let rows = session.datasets.get();
        let peers_of = |row: &DatasetRow| -> Vec<(u32, String)> {
            if !comparable(row) {
                return Vec::new();
            }
            rows.iter().filter(|r| r.id() != row.id() && r.kind() == row.kind() && comparable(r)).map(|r| (r.id(), r.title())).collect()
        };
        let mut groups: Vec<SidebarGroup> = Vec::new();
        for row in &rows {
            let (comparison, group) = (row.info.comparison, row.info.group.clone());
            let peers = peers_of(row);
            match groups.iter_mut().find(|(c, g, _)| *c == comparison && *g == group) {
                Some((_, _, members)) => members.push((row.clone(), peers)),
                None => groups.push((comparison, group, vec![(row.clone(), peers)])),
            }
        }
        let mut headed = false;
        groups
            .into_iter()
            .map(|(comparison, group, members)| {
                let heading = (comparison && !std::mem::replace(&mut headed, true)).then(|| {
                    let label = session.comparison_label.get().unwrap_or_default();
                    view! {
                        <li class="comparison-heading" data-testid="comparison-heading" title=label.clone()>
                            {tr_with("side-comparison-source", &[("label", Arg::from(crate::session::short_label(&label)))])}</li>
                    }
                });
                // Clicking a multi-rank heading opens all its runtime datasets in one timeline.
                let ids: Vec<u32> = members
                    .iter()
                    .map(|(r, _)| r)
                    .filter(|r| r.kind() == DatasetKind::Runtime && r.has_records())
                    .map(DatasetRow::id)
                    .collect();
                let title = tr_with("side-open-ranks", &[("count", Arg::from(ids.len()))]);
                view! {
                    {heading}
                    {group.map(|g| {
                        let shown = ids.clone();
                        view! {
                            <li class="group-heading" title=title
                                class:selected=move || nav.datasets.with(|d| d.len() > 1 && *d == shown)>
                                <button class="group-open" on:click=move |_| nav.show_timeline(ids.clone())>{g}</button></li>
                        }
                    })}
                    {members.into_iter().map(|(row, peers)| view! { <DatasetItem row=row peers=peers/> }).collect_view()}
                }
            })
            .collect_view()
    };
    view! {
        <aside class="sidebar" aria-label=t("side-datasets")>
            <h2>{t("side-datasets")}</h2>
            <Show when=move || session.datasets.with(Vec::is_empty)>
                <p class="empty">
                    {move || tr(if session.load.get() == LoadState::Loading { "side-loading" } else { "side-empty" })}
                </p>
            </Show>
            <ul id="datasets">{grouped}</ul>
            <Show when=move || { session.ignored_files.get() > 0 }>
                <p class="ignored">{move || tr_with("side-ignored", &[("count", Arg::from(session.ignored_files.get()))])}</p>
            </Show>
            <CrashNotice/>
            <ErrorsPanel/>
        </aside>
    }
}

#[component]
fn CrashNotice() -> impl IntoView {
    let (session, client) = (Session::get(), WorkerClient::get());
    view! {
        <Show when=move || session.crash.with(Option::is_some)>
            <div class="worker-crash">
                <p>{move || session.crash.get().unwrap_or_default()}</p>
                <p>{t("side-worker-restarted")}</p>
                <button class="reload" on:click=move |_| {
                    session.crash.set(None);
                    client.reopen_last();
                }>{t("side-reload")}</button>
            </div>
        </Show>
    }
}

#[component]
fn ErrorsPanel() -> impl IntoView {
    let (session, client) = (Session::get(), WorkerClient::get());
    view! {
        <Show when=move || session.file_errors.with(|e| !e.is_empty()) || session.errors.with(|e| !e.is_empty())>
            <h2>{t("side-problems")}</h2>
        </Show>
        <ul id="errors">
            {move || session.file_errors.get().into_iter().map(|e| {
                let position = if e.line > 0 { tr_with("side-line-column", &[("line", Arg::from(e.line.to_string())), ("column", Arg::from(e.column.to_string()))]) } else { tr("side-whole-file") };
                view! {
                    <li class="file-error" data-path=e.path.clone()>
                        <span class="error-path">{e.path.clone()}</span>
                        <span class="error-pos">{format!(" ({position})")}</span>
                        // The worker's sentences in the page language; a parser's own words as written.
                        <div class="error-message">{worker_words::say(&e.message)}</div>
                        // A read that failed (stalled, network) may work the next time: the
                        // whole source is opened again, as the crash notice's reload does.
                        {e.read_failed.then(|| view! {
                            <button class="retry" title=t("side-retry-title")
                                on:click=move |_| client.reopen_last()>{t("side-retry")}</button>
                        })}
                    </li>
                }
            }).collect_view()}
            {move || session.errors.get().into_iter().map(|message| view! {
                <li class="general-error">{worker_words::say(&message)}</li>
            }).collect_view()}
        </ul>
    }
}
