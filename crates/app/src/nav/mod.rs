//! The page's `nav`: what the user is looking at — which datasets, which view of them, the
//! focus (a bar, a task, a search), the swimlane's time window, the highlighted tasks, the
//! markers, and each view's own serialisable settings (swimlane labels, critical-path mode,
//! dependency depth, setup options, keys, pinned and folded lanes; the graph's edge mode,
//! direction, depth, selection and camera; the data tables' sort; the pass trace's pass, layout
//! and function; the memory map's snapshot, function, chip and tile; the Performance Analysis
//! panel's tab).
//!
//! Parts change `nav` — a cross-view action is a `nav` command ([`Nav::show`], [`Nav::focus`],
//! …), never a call into another view — and every view reads it. A view that reports its own
//! state here (the swimlane's window, selection and pins, the graph's selection and camera)
//! also reacts to changes of it: it compares with what it last reported, so its own reports do
//! not come back to it. `nav` is mirrored to the URL hash in one place ([`hash`]): written
//! shortly after every change — a new history entry when the datasets, the view or a selection
//! changed (`Link::place`), else the current entry replaced (pans, zooms, settings) — read
//! once when a folder has loaded ([`Nav::restore_or_default`]) and again on back / forward
//! (`popstate`, applied without a new entry). It knows no view module: which view shows a
//! dataset by default is the view registry's business (`nav.view` is `None` until chosen).

pub mod hash;

use std::sync::Arc;

use leptos::prelude::*;
use pypto_protocol::timeline::{BarRef, TimelineAlign};
use pypto_protocol::{DatasetKind, EdgeMode, TaskId, TimelineView, ViewKind};

use crate::owned::Delay;
use crate::session::{DatasetRow, LoadState, Session};
use hash::{Link, LinkMarker};

/// How long after a change of `nav` the URL hash is written.
const HASH_WRITE_DELAY_MS: u32 = 100;

/// Where the user's attention is, as the views understand it.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Focus {
    #[default]
    None,
    /// A bar of the shown timeline (the swimlane's selection).
    Bar(BarRef),
    /// A task: the swimlane selects its bar in `view` (on `core` when given, else its earliest
    /// one; when it has none there and `search_if_missing`, it searches for the task), the
    /// task graph its node.
    Task { task: TaskId, view: TimelineView, core: Option<u32>, search_if_missing: bool },
    /// A search the swimlane runs (a function name, or a task id as text); its first hit is
    /// selected.
    Search(String),
}

/// What the last [`Focus::Task`] or highlight did, reported by the view that carried it out
/// (the Performance Analysis panel shows it).
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The task's bar was selected in `view`.
    Selected { task: TaskId, view: TimelineView },
    /// The task has no bar in `view`.
    NoBar { task: TaskId, view: TimelineView },
    /// No bar in `view`: searching for the task instead.
    Searching { task: TaskId, view: TimelineView },
    /// A highlight of `tasks` tasks lit `bars` bars (0: none of them has a bar).
    Highlighted { tasks: usize, bars: usize },
}

/// What the shown view selected, described — a swimlane bar, a graph node — for whoever
/// reports it (the embedding API's `selection` event). `None` fields: that view does not know.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Selected {
    pub task: Option<TaskId>,
    pub function: Option<String>,
    pub lane: Option<String>,
    pub start_us: Option<f64>,
    pub end_us: Option<f64>,
}

/// Tasks to keep bright in the swimlane, the rest de-emphasised (a single-dependency chain;
/// in a comparison, the selected task and its match in the other run).
#[derive(Clone, Debug, PartialEq)]
pub struct Highlight {
    pub dataset_id: u32,
    pub tasks: Arc<[TaskId]>,
    /// A task of another shown dataset kept bright too (the selected task's match in the other
    /// compared run).
    pub matched: Option<(u32, TaskId)>,
}

/// How swimlane bars are labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelMode {
    Function,
    TaskId,
    Both,
}

impl LabelMode {
    /// The key in links, settings and the toolbar's `<select>`.
    pub fn key(self) -> &'static str {
        match self {
            Self::Function => "name",
            Self::TaskId => "id",
            Self::Both => "both",
        }
    }

    pub fn parse(key: &str) -> Option<Self> {
        [Self::Function, Self::TaskId, Self::Both].into_iter().find(|m| m.key() == key)
    }
}

/// Which critical path de-emphasises the other bars.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathMode {
    None,
    Static,
    Observed,
}

impl PathMode {
    /// The key in links and the toolbar's `<select>`.
    pub fn key(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Static => "static",
            Self::Observed => "observed",
        }
    }

    pub fn parse(key: &str) -> Option<Self> {
        [Self::None, Self::Static, Self::Observed].into_iter().find(|m| m.key() == key)
    }
}

/// Keys of the swimlane's keyboard navigation (matched against `KeyboardEvent.key`, lower
/// case, or `KeyboardEvent.code`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyMap {
    pub zoom_in: String,
    pub zoom_out: String,
    pub pan_left: String,
    pub pan_right: String,
}

/// The swimlane's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct SwimlaneSettings {
    pub label_mode: LabelMode,
    /// Draw the setup region (receive → start).
    pub show_setup: bool,
    /// Durations shown include the setup.
    pub setup_in_duration: bool,
    pub path: PathMode,
    /// Dependency depth: 0 none, N levels, -1 all.
    pub depth: i32,
    pub keys: KeyMap,
    /// How a timeline of several datasets places them on one axis (a single dataset's
    /// timeline ignores it).
    pub align: TimelineAlign,
}

impl Default for KeyMap {
    fn default() -> Self {
        Self { zoom_in: "w".into(), zoom_out: "s".into(), pan_left: "a".into(), pan_right: "d".into() }
    }
}

impl Default for SwimlaneSettings {
    fn default() -> Self {
        Self {
            label_mode: LabelMode::Function,
            show_setup: true,
            setup_in_duration: false,
            path: PathMode::None,
            depth: 1,
            keys: KeyMap::default(),
            align: TimelineAlign::Auto,
        }
    }
}

/// The swimlane's lanes the user arranged (track indices of the shown timeline).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LanesNav {
    /// Pinned to the top, in pin order.
    pub pinned: Vec<u32>,
    /// Folded to their first row (Chrome-trace lanes).
    pub folded: Vec<u32>,
}

/// The graph's camera: the layout point at the canvas centre and the zoom (screen px per
/// layout unit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GraphCamera {
    pub cx: f32,
    pub cy: f32,
    pub scale: f32,
}

/// The Task Dependency Graph's state.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GraphNav {
    pub mode: EdgeMode,
    /// Layers left→right (else top→bottom).
    pub left_right: bool,
    /// Highlight depth: 0 none, N levels, -1 all.
    pub depth: i32,
    pub selected: Option<TaskId>,
    /// `None`: fit the graph.
    pub camera: Option<GraphCamera>,
}

impl Default for GraphNav {
    fn default() -> Self {
        Self { mode: EdgeMode::Full, left_right: false, depth: 1, selected: None, camera: None }
    }
}

/// A data table's sort (tables are named by their test id, columns by their id).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableSort {
    pub table: String,
    pub column: String,
    pub descending: bool,
}

/// How many colours a marker can take (the swimlane's palette has as many).
pub const MARKER_COLOR_COUNT: usize = 5;

/// A vertical time marker of the swimlane.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    pub id: u32,
    pub t_us: f64,
    pub label: String,
    /// Index into the swimlane's marker colours (< [`MARKER_COLOR_COUNT`]).
    pub color: usize,
}

/// The IR Pass Trace's state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PassTraceNav {
    /// The selected pass's snapshot file (`None`: the first changed pass, once listed).
    pub pass: Option<String>,
    pub stacked: bool,
    /// The function filter (`Class.method`).
    pub function: Option<String>,
}

/// The Memory Reuse view's state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemoryNav {
    /// The snapshot asked for (`None`: the `AllocateMemoryAddr` one).
    pub snapshot: Option<String>,
    /// The snapshot shown (what the worker answered for `snapshot`), for links.
    pub shown_snapshot: Option<String>,
    /// The function whose map is open (`None`: the overview).
    pub function: Option<String>,
    /// The chip asked for (`None`: detected, else assumed).
    pub chip: Option<String>,
    /// The selected tile's name.
    pub tile: Option<String>,
}

/// What a compiler view opened from another view shows first (taken by the view it opens).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompilerTarget {
    /// The function of runtime kernel `kernel` (`pypto_vocab::kernel_function`'s rule), opened
    /// from `from` (which capture, which of its pass dumps).
    Kernel { kernel: String, from: OpenedFrom },
    /// Line `line` (1-based) of snapshot `snapshot` in function `function` (a memory map's tile).
    Line { snapshot: String, function: String, line: u32, tile: String },
    /// No function: the whole dump, opened from `from`.
    Dump { from: OpenedFrom },
}

/// Where the swimlane opened a compiler view from (the note words it in the page language):
/// the capture, the pass dump and which of the case's `count` dumps it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenedFrom {
    /// The runtime dataset's path (empty: the folder itself).
    pub runtime: String,
    /// The pass dump's path.
    pub dump: String,
    /// How many pass dumps the case has.
    pub count: usize,
    /// The dump's index among them (0 = the newest).
    pub chosen: usize,
}

/// The tabs of the Performance Analysis panel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PanelTab {
    #[default]
    Overview,
    Kernels,
    Setup,
    CriticalPath,
    Gaps,
    EarlyDispatch,
    Chains,
}

impl PanelTab {
    pub const ALL: [PanelTab; 7] =
        [Self::Overview, Self::Kernels, Self::Setup, Self::CriticalPath, Self::Gaps, Self::EarlyDispatch, Self::Chains];

    /// The key in links (and the panel's test ids `perf-tab-{key}`).
    pub fn key(self) -> &'static str {
        match self {
            Self::Overview => "overview",
            Self::Kernels => "kernels",
            Self::Setup => "setup",
            Self::CriticalPath => "critical-path",
            Self::Gaps => "gaps",
            Self::EarlyDispatch => "early-dispatch",
            Self::Chains => "chains",
        }
    }

    pub fn parse(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.key() == key)
    }
}

/// A comparison of two datasets of one kind: what the comparison views show.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompareNav {
    /// The shown datasets (`nav.datasets`) are compared: `[A (baseline), B (this run)]`.
    pub on: bool,
    /// The function whose per-task deltas are shown (runs).
    pub function: Option<String>,
    /// The aligned pass row whose snapshots are diffed A against B (pass dumps).
    pub pass: Option<u32>,
}

/// The Performance Analysis panel's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PanelNav {
    pub open: bool,
    pub tab: PanelTab,
}

/// What the user looks at: `Copy` handles to small signals (provided by `App`).
#[derive(Clone, Copy)]
pub struct Nav {
    /// The datasets shown: one, or a multi-rank group (one timeline of all its ranks).
    pub datasets: RwSignal<Vec<u32>>,
    /// Which view of them (`None`: the registry's default for the dataset).
    pub view: RwSignal<Option<ViewKind>>,
    /// The Chrome trace file the trace swimlane shows.
    pub trace_path: RwSignal<Option<String>>,
    pub focus: RwSignal<Focus>,
    /// What the last focus command or highlight did.
    pub outcome: RwSignal<Option<Outcome>>,
    /// What the shown view selected, as it reports it (`None`: nothing).
    pub selected: RwSignal<Option<Selected>>,
    /// The swimlane's time window, µs (`None`: the whole capture).
    pub window_us: RwSignal<Option<(f64, f64)>>,
    pub highlight: RwSignal<Option<Highlight>>,
    pub markers: RwSignal<Vec<Marker>>,
    pub swimlane: RwSignal<SwimlaneSettings>,
    pub pass_trace: RwSignal<PassTraceNav>,
    pub memory: RwSignal<MemoryNav>,
    pub panel: RwSignal<PanelNav>,
    /// What the compiler view being opened shows first ([`Nav::show_compiler`]).
    pub compiler_target: RwSignal<Option<CompilerTarget>>,
    pub lanes: RwSignal<LanesNav>,
    pub graph: RwSignal<GraphNav>,
    /// The data tables' sorts (one entry per sorted table).
    pub tables: RwSignal<Vec<TableSort>>,
    /// Whether (and what of) the two shown datasets are compared.
    pub compare: RwSignal<CompareNav>,
    /// The link the current history entry holds (a new place is pushed as a new entry).
    written: StoredValue<Option<Link>>,
}

/// Sets `signal` to `value` unless it already holds it (nothing is notified then).
fn set_if_changed<T: PartialEq + Send + Sync + 'static>(signal: RwSignal<T>, value: T) {
    if signal.with_untracked(|v| *v != value) {
        signal.set(value);
    }
}

impl Nav {
    /// A nav showing nothing; writes the hash as it changes, and once a folder has loaded
    /// restores the view its hash names (or shows the first dataset); back / forward apply the
    /// entry's link.
    pub fn new(session: Session) -> Self {
        let nav = Self {
            datasets: RwSignal::new(Vec::new()),
            view: RwSignal::new(None),
            trace_path: RwSignal::new(None),
            focus: RwSignal::new(Focus::None),
            outcome: RwSignal::new(None),
            selected: RwSignal::new(None),
            window_us: RwSignal::new(None),
            highlight: RwSignal::new(None),
            markers: RwSignal::new(Vec::new()),
            swimlane: RwSignal::new(SwimlaneSettings::default()),
            pass_trace: RwSignal::new(PassTraceNav::default()),
            memory: RwSignal::new(MemoryNav::default()),
            panel: RwSignal::new(PanelNav::default()),
            compiler_target: RwSignal::new(None),
            lanes: RwSignal::new(LanesNav::default()),
            graph: RwSignal::new(GraphNav::default()),
            tables: RwSignal::new(Vec::new()),
            compare: RwSignal::new(CompareNav::default()),
            written: StoredValue::new(None),
        };
        // A new folder: nothing of the old one is shown.
        Effect::watch(move || session.generation.get(), move |_, _, _| nav.forget_folder(), false);
        // A folder has loaded: the link's view, else the first dataset.
        Effect::watch(
            move || session.load.get(),
            move |load, before, _| {
                if *load == LoadState::Done && before != Some(&LoadState::Done) {
                    nav.restore_or_default(session);
                }
            },
            false,
        );
        // The hash follows nav, written a moment after a change (one pending write at a time,
        // which writes the link as it is then): off an interaction's path, and not once per
        // frame while the window moves. A new place is a new history entry.
        let link = Memo::new(move |_| nav.link(session));
        let write = Delay::new(HASH_WRITE_DELAY_MS);
        Effect::new(move |_| {
            link.track();
            write.schedule(move || {
                let Some(link) = link.try_get_untracked().flatten() else { return };
                let Some(hash) = hash::encode(&link) else { return };
                if nav.written.with_value(|w| w.as_ref().is_some_and(|w| w.place() != link.place())) {
                    hash::push(&hash);
                } else {
                    hash::replace(&hash);
                }
                nav.written.set_value(Some(link));
            });
        });
        // Back / forward: the entry's link, shown without a new entry.
        if let Some(window) = web_sys::window() {
            gloo::events::EventListener::new(&window, "popstate", move |_| {
                if let Some(link) = hash::parse(&hash::current()) {
                    if nav.apply(session, &link) {
                        nav.written.set_value(Some(link));
                    }
                }
            })
            .forget();
        }
        nav
    }

    /// The nav of the page (provided by `App`).
    pub fn get() -> Self {
        expect_context::<Self>()
    }

    /// The first shown dataset (tracked).
    pub fn dataset(&self) -> Option<u32> {
        self.datasets.with(|d| d.first().copied())
    }

    fn forget_folder(&self) {
        self.datasets.set(Vec::new());
        self.view.set(None);
        self.trace_path.set(None);
        self.reset_position();
        self.markers.set(Vec::new());
        self.pass_trace.set(PassTraceNav::default());
        self.memory.set(MemoryNav::default());
        self.compiler_target.set(None);
        self.tables.set(Vec::new());
        self.compare.set(CompareNav::default());
        // The next folder's first link replaces the entry (a folder is not reopened by a link).
        self.written.set_value(None);
    }

    /// Forgets the focus, window, highlight, lanes and the graph's selection and camera
    /// (another dataset is shown).
    fn reset_position(&self) {
        self.focus.set(Focus::None);
        self.outcome.set(None);
        self.selected.set(None);
        self.window_us.set(None);
        self.highlight.set(None);
        self.lanes.set(LanesNav::default());
        self.graph.update(|g| *g = GraphNav { selected: None, camera: None, ..*g });
    }

    /// Shows dataset `id` (a serving STRACE file in the trace swimlane), in the view shown
    /// when it has it, else in its default view.
    pub fn show_dataset(&self, session: Session, id: u32) {
        let Some((kind, path)) = session.with_row(id, |r| (r.kind(), r.info.path.clone())) else { return };
        if kind == DatasetKind::ServingStrace {
            return self.show_trace(id, path);
        }
        if self.datasets.with_untracked(|d| d.as_slice() == [id]) && self.trace_path.with_untracked(Option::is_none) {
            return;
        }
        self.leave_comparison();
        self.reset_position();
        self.markers.set(Vec::new());
        self.pass_trace.set(PassTraceNav::default());
        self.memory.update(|m| *m = MemoryNav { chip: m.chip.take(), ..MemoryNav::default() });
        if self.trace_path.with_untracked(Option::is_some) {
            self.trace_path.set(None);
            self.view.set(None);
        }
        self.datasets.set(vec![id]);
    }

    /// Shows one timeline of several runtime datasets (a multi-rank group), aligned
    /// [`TimelineAlign::Auto`].
    pub fn show_timeline(&self, ids: Vec<u32>) {
        self.leave_comparison();
        if self.swimlane.with_untracked(|s| s.align != TimelineAlign::Auto) {
            self.swimlane.update(|s| s.align = TimelineAlign::Auto);
        }
        if self.datasets.with_untracked(|d| *d == ids) && self.trace_path.with_untracked(Option::is_none) {
            self.view.set(Some(ViewKind::ChipSwimlane));
            return;
        }
        self.reset_position();
        self.markers.set(Vec::new());
        self.trace_path.set(None);
        self.view.set(Some(ViewKind::ChipSwimlane));
        self.datasets.set(ids);
    }

    /// Shows the Chrome trace `path` of dataset `id` as a swimlane.
    pub fn show_trace(&self, id: u32, path: String) {
        if self.trace_path.with_untracked(|p| p.as_deref() == Some(path.as_str())) && self.datasets.with_untracked(|d| d.as_slice() == [id])
        {
            return;
        }
        self.leave_comparison();
        self.reset_position();
        self.markers.set(Vec::new());
        self.trace_path.set(Some(path));
        self.view.set(Some(ViewKind::TraceSwimlane));
        self.datasets.set(vec![id]);
    }

    /// Opens `view` (the IR Pass Trace or the Memory Reuse map) of pass dump `dataset_id`, showing
    /// `target` first (a kernel's function, a tile's defining line).
    pub fn show_compiler(&self, dataset_id: u32, view: ViewKind, target: CompilerTarget) {
        self.leave_comparison();
        let same = self.datasets.with_untracked(|d| d.as_slice() == [dataset_id]);
        if !same {
            self.reset_position();
            self.markers.set(Vec::new());
            self.trace_path.set(None);
            self.memory.update(|m| *m = MemoryNav { chip: m.chip.take(), ..MemoryNav::default() });
        }
        let stacked = same && self.pass_trace.with_untracked(|p| p.stacked);
        let pass = match &target {
            CompilerTarget::Line { snapshot, .. } => Some(snapshot.clone()),
            _ => None,
        };
        self.pass_trace.set(PassTraceNav { pass, stacked, function: None });
        if view == ViewKind::MemoryReuse {
            self.memory.update(|m| *m = MemoryNav { chip: m.chip.take(), ..MemoryNav::default() });
        }
        self.compiler_target.set(Some(target));
        self.view.set(Some(view));
        if !same {
            self.datasets.set(vec![dataset_id]);
        }
    }

    /// Compares dataset `baseline` (A) with `current` (B, this run) — two datasets of one kind —
    /// in `view` (`None`: the comparison view of their kind).
    pub fn show_compare(&self, session: Session, baseline: u32, current: u32, view: Option<ViewKind>) {
        let Some(kind) = session.with_row(current, DatasetRow::kind) else { return };
        if session.with_row(baseline, DatasetRow::kind) != Some(kind) || baseline == current {
            return;
        }
        let view = view.or(match kind {
            DatasetKind::PassDump => Some(ViewKind::ComparePasses),
            _ => Some(ViewKind::CompareRuns),
        });
        let same = self.compare.with_untracked(|c| c.on) && self.datasets.with_untracked(|d| d.as_slice() == [baseline, current]);
        if !same {
            self.reset_position();
            self.markers.set(Vec::new());
            self.trace_path.set(None);
            self.compare.set(CompareNav { on: true, ..CompareNav::default() });
            // Two runs happened at different times: their swimlanes start together.
            self.swimlane.update(|s| s.align = TimelineAlign::FirstDispatch);
        }
        self.view.set(view);
        if !same {
            self.datasets.set(vec![baseline, current]);
        }
    }

    /// The compared datasets `(A, B)` when a comparison is shown (tracked).
    pub fn compared(&self) -> Option<(u32, u32)> {
        if !self.compare.with(|c| c.on) {
            return None;
        }
        self.datasets.with(|d| match d.as_slice() {
            [a, b] => Some((*a, *b)),
            _ => None,
        })
    }

    /// Swaps A and B of the shown comparison (the view stays).
    pub fn swap_compare(&self) {
        let Some((a, b)) = self.compared_untracked() else { return };
        self.reset_position();
        self.markers.set(Vec::new());
        self.compare.update(|c| c.pass = None);
        self.datasets.set(vec![b, a]);
    }

    /// Ends the comparison: shows B (this run) alone.
    pub fn exit_compare(&self, session: Session) {
        let Some((_, b)) = self.compared_untracked() else { return };
        self.leave_comparison();
        self.datasets.set(Vec::new());
        self.view.set(None);
        self.show_dataset(session, b);
    }

    pub fn compared_untracked(&self) -> Option<(u32, u32)> {
        untrack(|| self.compared())
    }

    /// Forgets the comparison (another dataset is shown).
    fn leave_comparison(&self) {
        if self.compare.with_untracked(|c| c.on) {
            self.compare.set(CompareNav::default());
            self.view.set(None);
            // The comparison's alignment was the comparison's (a multi-rank group starts on auto).
            if self.swimlane.with_untracked(|s| s.align != TimelineAlign::Auto) {
                self.swimlane.update(|s| s.align = TimelineAlign::Auto);
            }
        }
    }

    /// Switches the shown datasets to `view`.
    pub fn show(&self, view: ViewKind) {
        self.view.set(Some(view));
    }

    /// Switches to `view` with `focus` (a cross-view action: "show in graph", a table row).
    pub fn show_with(&self, view: ViewKind, focus: Focus) {
        self.focus.set(focus);
        self.view.set(Some(view));
    }

    /// Moves the focus (the view showing the datasets carries it out).
    pub fn focus(&self, focus: Focus) {
        self.outcome.set(None);
        self.focus.set(focus);
    }

    /// Shows the window `[t0, t1]` µs in the swimlane.
    pub fn show_window(&self, t0_us: f64, t1_us: f64) {
        self.window_us.set(Some((t0_us, t1_us)));
    }

    /// Adds a marker at `t_us` (colours in turn); an empty label becomes `M<n>`. Returns its id.
    pub fn add_marker(&self, t_us: f64, label: &str) -> u32 {
        let mut added = 0;
        self.markers.update(|markers| {
            let id = markers.iter().map(|m| m.id).max().map_or(1, |m| m + 1);
            let label = if label.is_empty() { format!("M{id}") } else { label.to_owned() };
            markers.push(Marker { id, t_us, label, color: (id as usize - 1) % MARKER_COLOR_COUNT });
            added = id;
        });
        added
    }

    /// The sort of data table `table` (tracked).
    pub fn table_sort(&self, table: &str) -> Option<TableSort> {
        self.tables.with(|t| t.iter().find(|s| s.table == table).cloned())
    }

    /// Sorts data table `table` by `column` (`None`: unsorted).
    pub fn set_table_sort(&self, table: &str, sort: Option<(String, bool)>) {
        self.tables.update(|t| {
            t.retain(|s| s.table != table);
            if let Some((column, descending)) = sort {
                t.push(TableSort { table: table.to_owned(), column, descending });
            }
        });
    }

    /// The shown state as a link (`None` while no dataset is shown); tracked.
    fn link(&self, session: Session) -> Option<Link> {
        let ids = self.datasets.get();
        if ids.is_empty() {
            return None;
        }
        let datasets: Option<Vec<String>> =
            session.datasets.with(|rows| ids.iter().map(|id| rows.iter().find(|r| r.id() == *id).map(|r| r.info.path.clone())).collect());
        let s = self.swimlane.get();
        let memory = self.memory.get();
        Some(Link {
            datasets: datasets?,
            view: self.view.get(),
            trace: self.trace_path.get(),
            window_us: self.window_us.get(),
            selected: match self.focus.get() {
                Focus::Bar(bar) => Some(bar),
                _ => None,
            },
            markers: self.markers.get().into_iter().map(|m| LinkMarker { t_us: m.t_us, color: m.color, label: m.label }).collect(),
            lanes: self.lanes.get(),
            label_mode: (s.label_mode != LabelMode::Function).then_some(s.label_mode),
            path: s.path,
            depth: s.depth,
            show_setup: s.show_setup,
            setup_in_duration: s.setup_in_duration,
            align: s.align,
            panel: self.panel.get(),
            graph: self.graph.get(),
            sorts: self.tables.get(),
            pass_trace: self.pass_trace.get(),
            memory: MemoryNav { snapshot: memory.shown_snapshot.or(memory.snapshot), shown_snapshot: None, ..memory },
            compare: self.compare.get(),
        })
    }

    /// Shows what `link` says, when the opened folder has its datasets (else changes nothing
    /// and returns false). Which view shows them is the registry's (`nav.view` is a wish).
    fn apply(&self, session: Session, link: &Link) -> bool {
        let Some(ids) = link.datasets.iter().map(|p| session.dataset_by_path(p)).collect::<Option<Vec<u32>>>() else { return false };
        self.outcome.set(None);
        set_if_changed(self.highlight, None);
        set_if_changed(self.window_us, link.window_us);
        set_if_changed(self.focus, link.selected.map_or(Focus::None, Focus::Bar));
        let markers = link
            .markers
            .iter()
            .zip(1..)
            .map(|(m, id)| Marker { id, t_us: m.t_us, label: m.label.clone(), color: m.color % MARKER_COLOR_COUNT })
            .collect();
        set_if_changed(self.markers, markers);
        set_if_changed(self.lanes, link.lanes.clone());
        let mut settings = self.swimlane.get_untracked();
        settings.label_mode = link.label_mode.unwrap_or(settings.label_mode);
        settings.path = link.path;
        settings.depth = link.depth;
        settings.show_setup = link.show_setup;
        settings.setup_in_duration = link.setup_in_duration;
        settings.align = link.align.clone();
        set_if_changed(self.swimlane, settings);
        set_if_changed(self.panel, link.panel);
        set_if_changed(self.graph, link.graph);
        set_if_changed(self.tables, link.sorts.clone());
        set_if_changed(self.pass_trace, link.pass_trace.clone());
        set_if_changed(self.memory, link.memory.clone());
        let compare = if ids.len() == 2 { link.compare.clone() } else { CompareNav::default() };
        set_if_changed(self.compare, compare);
        set_if_changed(self.trace_path, link.trace.clone());
        set_if_changed(self.view, link.view);
        set_if_changed(self.datasets, ids);
        true
    }

    /// The folder has loaded: shows what the page's hash names (when the folder has its
    /// datasets), else the first runtime dataset with records, else the first serving STRACE
    /// trace, else the first dataset of any kind (a deps.json alone, a pass dump: the registry
    /// picks the view that can show it). Nothing when the user already chose a dataset.
    /// A comparison source that has just loaded is shown compared with what is shown (or the
    /// folder's first run), unless the link names what to show.
    pub fn restore_or_default(&self, session: Session) {
        let fresh_comparison = session.comparison_fresh.get_untracked();
        if fresh_comparison {
            session.comparison_fresh.set(false);
        }
        if let Some(shown) = self.datasets.with_untracked(|d| d.first().copied()) {
            if fresh_comparison {
                let current =
                    if self.compare.with_untracked(|c| c.on) { self.datasets.with_untracked(|d| d.get(1).copied()) } else { Some(shown) };
                if let Some((a, b)) = current.and_then(|b| comparison_with(session, b)).or_else(|| default_comparison(session)) {
                    self.show_compare(session, a, b, None);
                }
            }
            return;
        }
        if let Some(link) = hash::parse(&hash::current()) {
            if self.apply(session, &link) {
                return;
            }
        }
        if let Some((a, b)) = default_comparison(session) {
            return self.show_compare(session, a, b, None);
        }
        let first = session.datasets.with_untracked(|rows| {
            rows.iter()
                .filter(|r| !r.info.comparison)
                .find(|r| r.kind() == DatasetKind::Runtime && r.has_records())
                .or_else(|| rows.iter().find(|r| r.kind() == DatasetKind::ServingStrace && r.has_trace()))
                .or_else(|| rows.iter().find(|r| !r.info.comparison))
                .or_else(|| rows.first())
                .map(DatasetRow::id)
        });
        if let Some(id) = first {
            self.show_dataset(session, id);
        }
    }
}

/// The comparison source's dataset to compare the folder's dataset `current` with: the one at
/// the same path under the comparison source's name, else its first of the same kind (runs
/// with records).
fn comparison_with(session: Session, current: u32) -> Option<(u32, u32)> {
    let (kind, path, comparison) = session.with_row(current, |r| (r.kind(), r.info.path.clone(), r.info.comparison))?;
    if comparison {
        return None;
    }
    session.datasets.with_untracked(|rows| {
        let candidates =
            || rows.iter().filter(|r| r.info.comparison && r.kind() == kind && (kind != DatasetKind::Runtime || r.has_records()));
        let same_path = |r: &&DatasetRow| match r.info.path.split_once('/') {
            Some((_, rest)) => rest == path,
            None => path.is_empty(),
        };
        candidates().find(same_path).or_else(|| candidates().next()).map(|r| (r.id(), current))
    })
}

/// With a comparison source opened beside the folder: its first runtime capture with records
/// (A, the baseline) and the folder's (B, this run), else their first pass dumps.
fn default_comparison(session: Session) -> Option<(u32, u32)> {
    session.datasets.with_untracked(|rows| {
        let first = |comparison: bool, fits: &dyn Fn(&DatasetRow) -> bool| {
            rows.iter().find(|r| r.info.comparison == comparison && fits(r)).map(DatasetRow::id)
        };
        let runs = |r: &DatasetRow| r.kind() == DatasetKind::Runtime && r.has_records();
        let dumps = |r: &DatasetRow| r.kind() == DatasetKind::PassDump;
        first(true, &runs).zip(first(false, &runs)).or_else(|| first(true, &dumps).zip(first(false, &dumps)))
    })
}
