//! The view registry: [`VIEWS`], one [`ViewSpec`] per view — its kind, title, which datasets
//! it serves and when it is available, whether it is the dataset's default, its component —
//! read by the view switcher (the tab bar above a dataset's view) and the view area. A new
//! view is one module exporting its `SPEC` (a [`ViewSpec`]) and one line in [`VIEWS`] (plus
//! its protocol messages; ARCHITECTURE.md walks through one). Views never import each other: a cross-view action is a `nav`
//! command.

pub mod compare_passes;
pub mod compare_runs;
pub mod dep_graph;
pub mod function_perf;
pub mod memory_map;
pub mod pass_trace;
pub mod swimlane;

use leptos::prelude::*;
use pypto_protocol::{DatasetKind, ViewKind};

use crate::i18n::{fmt_count, t, tr, tr_with, Arg};
use crate::nav::Nav;
use crate::session::{DatasetRow, Session};
use crate::settings::Settings;
pub use crate::view_spec::ViewSpec;

/// Every view, in the switcher's order.
pub const VIEWS: &[ViewSpec] = &[
    swimlane::CHIP_SPEC,
    swimlane::TRACE_SPEC,
    function_perf::SPEC,
    dep_graph::SPEC,
    pass_trace::SPEC,
    memory_map::SPEC,
    compare_runs::SPEC,
    compare_passes::SPEC,
];

/// The spec of `kind`.
pub fn spec(kind: ViewKind) -> Option<&'static ViewSpec> {
    VIEWS.iter().find(|s| s.kind == kind)
}

/// Calls every view's `init` (in `App`, so their state lives as long as the page).
pub fn init_all() {
    for spec in VIEWS {
        (spec.init)();
    }
}

/// What shows a dataset whose default view cannot (a runtime directory without records), in
/// order: its dependency graph (a deps.json alone), else its function table (a name map alone,
/// which says what it lacks).
const FALLBACK_VIEWS: &[ViewKind] = &[ViewKind::TaskGraph, ViewKind::FunctionPerformance];

/// The view that shows `row` when `asked` is asked for: `asked` if available, else the
/// dataset's default view, else the first available of [`FALLBACK_VIEWS`]; `None` when none is
/// available.
pub fn resolve(row: &DatasetRow, asked: Option<ViewKind>) -> Option<ViewKind> {
    let fits = |s: &ViewSpec| (s.available)(row);
    // (A Chrome trace beside runtime records is asked for: the trace view shows it.)
    let of_kind = |s: &ViewSpec| s.dataset_kind == row.kind() && fits(s);
    asked
        .and_then(spec)
        .filter(|s| fits(s))
        .or_else(|| VIEWS.iter().find(|s| s.default && of_kind(s)))
        .or_else(|| FALLBACK_VIEWS.iter().filter_map(|&k| spec(k)).find(|s| of_kind(s)))
        .map(|s| s.kind)
}

/// Every view that can show `row` (the embedding API lists them; `navigate` takes them).
pub fn available(row: &DatasetRow) -> Vec<ViewKind> {
    VIEWS.iter().filter(|s| s.dataset_kind == row.kind() && (s.available)(row)).map(|s| s.kind).collect()
}

/// The switcher's views of `row`.
fn switchable(row: &DatasetRow) -> Vec<&'static ViewSpec> {
    VIEWS.iter().filter(|s| s.switchable && s.dataset_kind == row.kind() && (s.available)(row)).collect()
}

/// The views of a comparison of two datasets of `kind`, in its switcher's order (the first is
/// its default). Their specs say they are available for no single dataset.
pub fn comparison_views(kind: DatasetKind) -> &'static [ViewKind] {
    match kind {
        DatasetKind::Runtime => &[ViewKind::CompareRuns, ViewKind::ChipSwimlane],
        DatasetKind::PassDump => &[ViewKind::ComparePasses],
        DatasetKind::ServingStrace => &[],
    }
}

/// The view of a comparison of two datasets of `kind` when `asked` is asked for.
fn resolve_comparison(kind: DatasetKind, asked: Option<ViewKind>) -> Option<ViewKind> {
    let views = comparison_views(kind);
    asked.filter(|v| views.contains(v)).or_else(|| views.first().copied())
}

/// The bar above a comparison: A (baseline) and B (this run), swap, the comparison's views,
/// leave.
#[component]
fn ComparisonBar(a: DatasetRow, b: DatasetRow, shown: Option<ViewKind>) -> impl IntoView {
    let (session, nav) = (Session::get(), Nav::get());
    let tabs = comparison_views(b.kind())
        .iter()
        .filter_map(|&kind| spec(kind))
        .map(|s| {
            let kind = s.kind;
            let title_id = if kind == ViewKind::ChipSwimlane { "view-swimlanes-a-over-b" } else { s.title_id };
            let tooltip_id = s.tooltip_id;
            view! {
                <button data-testid=format!("view-switch-{}", kind.key()) class:active=shown == Some(kind)
                    title=move || (!tooltip_id.is_empty()).then(|| tr(tooltip_id))
                    role="tab" aria-selected=(shown == Some(kind)).to_string()
                    on:click=move |_| if shown != Some(kind) { nav.show(kind) }>{t(title_id)}</button>
            }
        })
        .collect_view();
    view! {
        <div class="comparison-bar" data-testid="comparison-bar" data-a=a.info.path.clone() data-b=b.info.path.clone()>
            <span class="compare-side">"A"</span>
            <span class="compare-path" title=t("compare-bar-baseline")>{a.title()}</span>
            <button class="compare-swap" data-testid="compare-swap" title=t("compare-bar-swap") aria-label=t("compare-bar-swap")
                on:click=move |_| nav.swap_compare()>"⇄"</button>
            <span class="compare-side">"B"</span>
            <span class="compare-path" title=t("compare-bar-this-run")>{b.title()}</span>
            <div class="view-switcher" role="tablist">{tabs}</div>
            <button class="compare-exit" data-testid="compare-exit" title=t("compare-bar-exit-title")
                on:click=move |_| nav.exit_compare(session)>{t("compare-bar-exit")}</button>
        </div>
    }
}

/// The tab bar above a dataset's view: its available views (none above a Chrome trace).
#[component]
fn ViewSwitcher(row: DatasetRow, shown: Option<ViewKind>) -> impl IntoView {
    let nav = Nav::get();
    let specs = switchable(&row);
    // A view outside the switcher (a Chrome trace) shows none.
    let in_switcher = shown.and_then(spec).is_none_or(|s| s.switchable);
    // One tab alone still names the view the user is looking at.
    (in_switcher && !specs.is_empty()).then(|| {
        let buttons = specs
            .into_iter()
            .map(|s| {
                let kind = s.kind;
                let (title_id, tooltip_id) = (s.title_id, s.tooltip_id);
                view! {
                    <button data-testid=format!("view-switch-{}", kind.key()) class:active=shown == Some(kind)
                        title=move || (!tooltip_id.is_empty()).then(|| tr(tooltip_id))
                        role="tab" aria-selected=(shown == Some(kind)).to_string()
                        on:click=move |_| if shown != Some(kind) { nav.show(kind) }>{t(title_id)}</button>
                }
            })
            .collect_view();
        view! { <div class="view-switcher" role="tablist">{buttons}</div> }
    })
}

/// What each file a folder may hold enables (the landing page's table): file pattern, the
/// message id of what it enables.
const FILES_ENABLE: &[(&str, &str)] = &[
    ("chip_swimlane_records.json (l2_swimlane_records*.json)", "welcome-enables-records"),
    ("deps.json", "welcome-enables-deps"),
    ("name_map*.json", "welcome-enables-name-map"),
    ("CPM_static*.json, CPM_observed*.json", "welcome-enables-cpm"),
    ("host_phase_records.jsonl", "welcome-enables-host-phases"),
    ("*strace-swimlane*.json", "welcome-enables-strace"),
    ("passes_dump*/ (NN_after_<Pass>.py, 00_frontend.py)", "welcome-enables-passes"),
    ("passes_dump*/*after_AllocateMemoryAddr.py", "welcome-enables-memory"),
];

/// The landing page: what to open and what each file enables, the demo, the last folder.
#[component]
fn Welcome() -> impl IntoView {
    let rows =
        FILES_ENABLE.iter().map(|(file, enables)| view! { <tr><td><code>{*file}</code></td><td>{t(enables)}</td></tr> }).collect_view();
    let (prefs, client) = (Settings::get(), crate::worker_client::WorkerClient::get());
    // A browser reopens a folder only when the user picks it: the name is all we can offer.
    let last = move || {
        prefs.last_folder.get().map(|name| {
            view! {
                <p class="last-folder" data-testid="last-folder">{move || tr_with("welcome-last-folder", &[("name", Arg::from(&name))])}</p>
            }
        })
    };
    view! {
        <div class="welcome">
            <h1>{t("app-brand")}</h1>
            <p>{t("welcome-intro")}</p>
            <p>
                <button class="welcome-demo" data-testid="welcome-demo" on:click=move |_| client.open_url(crate::toolbar::demo_url())>
                    {t("welcome-open-demo")}</button>
                " "<span class="hint">{t("welcome-demo-hint")}</span>
            </p>
            <table class="welcome-files" data-testid="welcome-files">
                <thead><tr><th>{t("welcome-file")}</th><th>{t("welcome-enables")}</th></tr></thead>
                <tbody>{rows}</tbody>
            </table>
            <p>{t("welcome-keys")}</p>
            {last}
        </div>
    }
}

/// A dataset no view can show (a runtime directory without records, say): its files.
#[component]
fn DatasetPage(row: DatasetRow) -> impl IntoView {
    let views = row.info.views.clone();
    let features = move || views.iter().map(|v| tr(crate::sidebar::feature_message(*v))).collect::<Vec<_>>().join(", ");
    view! {
        <div class="dataset-page">
            <h1>{row.title()}</h1>
            <p>{move || tr_with("dataset-page-views", &[("views", Arg::from(features()))])}</p>
            <p class="note">{t("dataset-page-note")}</p>
            <ul class="file-list">
                {row.info.files.iter().map(|f| {
                    let (role, path, size) = (f.role.to_string(), f.path.clone(), f.size_bytes);
                    view! { <li>{move || tr_with("dataset-page-file", &[("role", Arg::from(&role)), ("path", Arg::from(&path)), ("bytes", Arg::from(fmt_count(size)))])}</li> }
                }).collect_view()}
            </ul>
        </div>
    }
}

/// The view area: the shown datasets' view (per [`resolve`]), under the view switcher.
#[component]
pub fn ViewArea() -> impl IntoView {
    let (session, nav) = (Session::get(), Nav::get());
    // What decides the component: the dataset, its view and which views are available.
    // Summaries of other datasets arriving must not re-create a mounted canvas view.
    let shown = Memo::new(move |_| {
        let datasets = nav.datasets.get();
        let &first = datasets.first()?;
        let asked = nav.view.get();
        let compared = nav.compared();
        session.datasets.with(|rows| {
            let row = rows.iter().find(|r| r.id() == first)?;
            let view = match compared {
                Some(_) => resolve_comparison(row.kind(), asked),
                None if datasets.len() > 1 => Some(ViewKind::ChipSwimlane),
                None => resolve(row, asked),
            };
            let available: Vec<ViewKind> = switchable(row).iter().map(|s| s.kind).collect();
            Some((first, view, available, compared))
        })
    });
    let shown_view = Signal::derive(move || shown.get().and_then(|s| s.1));
    let area = move || match shown.get() {
        None => view! { <Welcome/> }.into_any(),
        Some((_, view, _, Some((a, b)))) => {
            let (Some(a), Some(b)) = (session.with_row(a, Clone::clone), session.with_row(b, Clone::clone)) else {
                return view! { <Welcome/> }.into_any();
            };
            let bar = view! { <ComparisonBar a=a b=b shown=view/> };
            match view.and_then(spec) {
                Some(spec) => view! {
                    {bar}
                    // (the swimlane's Performance Analysis panel is run A's, as a multi-rank timeline's is its first rank's)
                    <div class="view-with-dock">{(spec.component)()}{(spec.docked)()}</div>
                }
                .into_any(),
                None => bar.into_any(),
            }
        }
        Some((id, view, _, None)) => {
            let Some(row) = session.with_row(id, Clone::clone) else { return view! { <Welcome/> }.into_any() };
            let switcher = view! { <ViewSwitcher row=row.clone() shown=view/> };
            match view.and_then(spec) {
                Some(spec) => view! {
                    {switcher}
                    <div class="view-with-dock">{(spec.component)()}{(spec.docked)()}</div>
                }
                .into_any(),
                None => view! { {switcher} <DatasetPage row=row/> }.into_any(),
            }
        }
    };
    view! { <crate::shortcuts::ShortcutSheet view=shown_view/> {area} }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pypto_protocol::datasets::{DatasetFile, DatasetInfo, DatasetSummary, RecordsSummary};
    use pypto_protocol::{DatasetKind, Feature, FileRole};

    fn row(kind: DatasetKind, roles: &[FileRole], features: &[Feature], records: bool) -> DatasetRow {
        let records = records.then(|| RecordsSummary {
            path: String::new(),
            level: 4,
            format: String::new(),
            clock_freq_hz: 1,
            num_cores: 1,
            task_count: 1,
            aicore_rows: 1,
            first_start_us: 0.0,
            last_end_us: 1.0,
            span_us: 1.0,
            scheduler_threads: 1,
        });
        DatasetRow {
            info: DatasetInfo {
                dataset_id: 0,
                kind,
                path: "d".into(),
                group: None,
                files: roles.iter().map(|&role| DatasetFile { role, path: String::new(), size_bytes: 0 }).collect(),
                views: features.to_vec(),
                missing: Vec::new(),
                notes: Vec::new(),
                pass_dumps: Vec::new(),
                comparison: false,
            },
            summary: Some(DatasetSummary { records, ..DatasetSummary::default() }),
        }
    }

    #[test]
    fn every_view_kind_has_one_spec() {
        for kind in ViewKind::ALL {
            assert_eq!(VIEWS.iter().filter(|s| s.kind == kind).count(), 1, "{kind:?}");
        }
        for dataset in [DatasetKind::Runtime, DatasetKind::PassDump, DatasetKind::ServingStrace] {
            assert_eq!(VIEWS.iter().filter(|s| s.dataset_kind == dataset && s.default).count(), 1, "{dataset:?}");
        }
    }

    #[test]
    fn a_dataset_resolves_to_an_available_view() {
        let full = row(DatasetKind::Runtime, &[FileRole::Records, FileRole::Deps, FileRole::NameMap], &[], true);
        assert_eq!(resolve(&full, None), Some(ViewKind::ChipSwimlane));
        assert_eq!(resolve(&full, Some(ViewKind::TaskGraph)), Some(ViewKind::TaskGraph));
        assert_eq!(switchable(&full).len(), 3);
        assert_eq!(available(&full), [ViewKind::ChipSwimlane, ViewKind::FunctionPerformance, ViewKind::TaskGraph]);
        // deps.json alone: no swimlane, the graph by default
        let deps_only = row(DatasetKind::Runtime, &[FileRole::Deps], &[], false);
        assert_eq!(resolve(&deps_only, None), Some(ViewKind::TaskGraph));
        assert_eq!(resolve(&deps_only, Some(ViewKind::ChipSwimlane)), Some(ViewKind::TaskGraph));
        assert_eq!(resolve(&deps_only, Some(ViewKind::TaskGraph)), Some(ViewKind::TaskGraph));
        // with a name map too: still the graph; a name map alone: its table (which says what it lacks)
        let deps_and_map = row(DatasetKind::Runtime, &[FileRole::NameMap, FileRole::Deps], &[], false);
        assert_eq!(resolve(&deps_and_map, None), Some(ViewKind::TaskGraph));
        let map_only = row(DatasetKind::Runtime, &[FileRole::NameMap], &[], false);
        assert_eq!(resolve(&map_only, None), Some(ViewKind::FunctionPerformance));
        // nothing a view shows: the dataset page
        assert_eq!(resolve(&row(DatasetKind::Runtime, &[FileRole::CpmStatic], &[], false), None), None);
        // a pass dump: the pass trace, the memory map only with its snapshot
        let dump = row(DatasetKind::PassDump, &[FileRole::PassSnapshot], &[Feature::IrPassTrace], false);
        assert_eq!(resolve(&dump, None), Some(ViewKind::PassTrace));
        assert_eq!(resolve(&dump, Some(ViewKind::MemoryReuse)), Some(ViewKind::PassTrace));
        let with_map = row(DatasetKind::PassDump, &[FileRole::PassSnapshot], &[Feature::IrPassTrace, Feature::MemoryReuse], false);
        assert_eq!(resolve(&with_map, Some(ViewKind::MemoryReuse)), Some(ViewKind::MemoryReuse));
        // a view of another kind of dataset is never shown
        assert_eq!(resolve(&with_map, Some(ViewKind::TaskGraph)), Some(ViewKind::PassTrace));
        assert_eq!(resolve(&full, Some(ViewKind::PassTrace)), Some(ViewKind::ChipSwimlane));
        assert_eq!(resolve(&full, Some(ViewKind::MemoryReuse)), Some(ViewKind::ChipSwimlane));
    }
}
