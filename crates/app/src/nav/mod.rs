//! The page's `nav`: what the user is looking at — which datasets, which view of them, the
//! focus (a bar, a task, a search), the swimlane's time window, the highlighted tasks, the
//! markers, and each view's own serialisable settings (swimlane labels, critical-path mode,
//! dependency depth, setup options, keys; the pass trace's pass, layout and function; the memory
//! map's snapshot, function, chip and tile; the Performance Analysis panel's tab).
//!
//! Parts change `nav` — a cross-view action is a `nav` command ([`Nav::show`], [`Nav::focus`],
//! …), never a call into another view — and every view reads it. A view that reports its own
//! state here (the swimlane's window and selection) also reacts to changes of it: it compares
//! with what it last reported, so its own reports do not come back to it. `nav` is mirrored
//! to the URL hash in one place ([`hash`]): written shortly after every change, read once when a folder
//! has loaded ([`Nav::restore_or_default`]). It knows no view module: which view shows a
//! dataset by default is the view registry's business (`nav.view` is `None` until chosen).

pub mod hash;

use std::sync::Arc;

use leptos::prelude::*;
use pypto_protocol::timeline::BarRef;
use pypto_protocol::{DatasetKind, TaskId, TimelineView, ViewKind};

use crate::owned::Delay;
use crate::session::{LoadState, Session};
use hash::{Link, PassDumpLink};

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

/// Tasks to keep bright in the swimlane, the rest de-emphasised (a single-dependency chain).
#[derive(Clone, Debug, PartialEq)]
pub struct Highlight {
    pub dataset_id: u32,
    pub tasks: Arc<[TaskId]>,
}

/// How swimlane bars are labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelMode {
    Function,
    TaskId,
    Both,
}

/// Which critical path de-emphasises the other bars.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathMode {
    None,
    Static,
    Observed,
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
}

impl Default for SwimlaneSettings {
    fn default() -> Self {
        Self {
            label_mode: LabelMode::Function,
            show_setup: true,
            setup_in_duration: false,
            path: PathMode::None,
            depth: 1,
            keys: KeyMap { zoom_in: "w".into(), zoom_out: "s".into(), pan_left: "a".into(), pan_right: "d".into() },
        }
    }
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
}

impl Nav {
    /// A nav showing nothing; writes the hash as it changes, and once a folder has loaded
    /// restores the view its hash names (or shows the first dataset).
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
        // frame while the window moves.
        let link = Memo::new(move |_| nav.link(session));
        let write = Delay::new(HASH_WRITE_DELAY_MS);
        Effect::new(move |_| {
            link.track();
            write.schedule(move || {
                if let Some(hash) = link.try_get_untracked().and_then(|l| hash::encode(&l)) {
                    hash::replace(&hash);
                }
            });
        });
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
    }

    /// Forgets the focus, window and highlight (another dataset is shown).
    fn reset_position(&self) {
        self.focus.set(Focus::None);
        self.outcome.set(None);
        self.selected.set(None);
        self.window_us.set(None);
        self.highlight.set(None);
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

    /// Shows one timeline of several runtime datasets (a multi-rank group).
    pub fn show_timeline(&self, ids: Vec<u32>) {
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
        self.reset_position();
        self.markers.set(Vec::new());
        self.trace_path.set(Some(path));
        self.view.set(Some(ViewKind::TraceSwimlane));
        self.datasets.set(vec![id]);
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

    /// The shown state as a link.
    fn link(&self, session: Session) -> Link {
        let datasets = self.datasets.get();
        let Some(&first) = datasets.first() else { return Link::None };
        let Some(kind) = session.datasets.with(|rows| rows.iter().find(|r| r.id() == first).map(crate::session::DatasetRow::kind)) else {
            return Link::None;
        };
        match kind {
            DatasetKind::PassDump => {
                let memory = self.view.get() == Some(ViewKind::MemoryReuse);
                let (p, m) = (self.pass_trace.get(), self.memory.get());
                Link::PassDump(PassDumpLink {
                    dataset_id: first,
                    memory,
                    pass: p.pass,
                    stacked: p.stacked,
                    function: if memory { m.function } else { p.function },
                    snapshot: m.shown_snapshot.or(m.snapshot),
                    chip: m.chip,
                    tile: m.tile,
                })
            }
            DatasetKind::Runtime | DatasetKind::ServingStrace => {
                // Only once the swimlane reported its window (it has the timeline).
                let Some(window_us) = self.window_us.get() else { return Link::None };
                let selected = match self.focus.get() {
                    Focus::Bar(bar) => Some(bar),
                    _ => None,
                };
                Link::Runtime { datasets, window_us: Some(window_us), selected }
            }
        }
    }

    /// The folder has loaded: shows what the page's hash names (a pass dump's view, runtime
    /// datasets with their window and selection), else the first runtime dataset with records
    /// (else the first serving STRACE trace). Nothing when the user already chose a dataset.
    pub fn restore_or_default(&self, session: Session) {
        if self.datasets.with_untracked(|d| !d.is_empty()) {
            return;
        }
        match hash::parse(&hash::current()) {
            Link::PassDump(p) if session.with_row(p.dataset_id, |r| r.kind() == DatasetKind::PassDump) == Some(true) => {
                self.pass_trace.set(PassTraceNav {
                    pass: p.pass,
                    stacked: p.stacked,
                    function: if p.memory { None } else { p.function.clone() },
                });
                if p.memory {
                    self.memory.set(MemoryNav {
                        snapshot: p.snapshot,
                        shown_snapshot: None,
                        function: p.function,
                        chip: p.chip,
                        tile: p.tile,
                    });
                }
                self.view.set(p.memory.then_some(ViewKind::MemoryReuse));
                self.datasets.set(vec![p.dataset_id]);
                return;
            }
            Link::Runtime { datasets, window_us, selected }
                if datasets.iter().all(|&id| session.with_row(id, crate::session::DatasetRow::has_records) == Some(true)) =>
            {
                self.window_us.set(window_us);
                self.focus.set(selected.map_or(Focus::None, Focus::Bar));
                self.view.set(Some(ViewKind::ChipSwimlane));
                self.datasets.set(datasets);
                return;
            }
            _ => {}
        }
        let first = session.datasets.with_untracked(|rows| {
            rows.iter()
                .find(|r| r.kind() == DatasetKind::Runtime && r.has_records())
                .or_else(|| rows.iter().find(|r| r.kind() == DatasetKind::ServingStrace && r.has_trace()))
                .map(crate::session::DatasetRow::id)
        });
        if let Some(id) = first {
            self.show_dataset(session, id);
        }
    }
}
