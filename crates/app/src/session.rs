//! The page's `session`: what the worker announced about the opened folder — the worker's
//! status, whether a load is running and its progress, the datasets discovery found with their
//! parsed summaries, file errors and other problems, a crash. Every part of the page reads it;
//! only the worker client writes it ([`Session::announce`]) and the openers reset it
//! ([`Session::begin_open`]; [`Session::begin_comparison`] for a comparison source opened
//! beside the folder, whose rows replace the previous comparison source's). It knows nothing
//! of views or of what the user looks at (`nav`).

use leptos::prelude::*;
use pypto_protocol::datasets::{
    DatasetFile, DatasetInfo, DatasetLoaded, DatasetSummary, Datasets, FileError, LoadFinished, Progress, ProgressStage,
};
use pypto_protocol::{DatasetKind, Feature, FileRole, FromWorker};

/// Lifecycle of the analysis worker as the page sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkerState {
    Starting,
    Ready,
    /// The worker crashed and was started again.
    Restarted,
}

impl WorkerState {
    /// The `data-state` of `#worker-status` (DOM contract).
    pub fn as_str(self) -> &'static str {
        match self {
            WorkerState::Starting => "starting",
            WorkerState::Ready => "ready",
            WorkerState::Restarted => "restarted",
        }
    }
}

/// Whether a folder is being loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadState {
    Idle,
    Loading,
    Done,
}

impl LoadState {
    /// The `data-load-state` of `<body>` (DOM contract).
    pub fn as_str(self) -> &'static str {
        match self {
            LoadState::Idle => "idle",
            LoadState::Loading => "loading",
            LoadState::Done => "done",
        }
    }
}

/// One dataset: what discovery found, and its summary once parsed.
#[derive(Clone, Debug, PartialEq)]
pub struct DatasetRow {
    pub info: DatasetInfo,
    pub summary: Option<DatasetSummary>,
}

impl DatasetRow {
    pub fn id(&self) -> u32 {
        self.info.dataset_id
    }

    pub fn kind(&self) -> DatasetKind {
        self.info.kind
    }

    /// Its first file of `role`.
    pub fn file(&self, role: FileRole) -> Option<&DatasetFile> {
        self.info.files.iter().find(|f| f.role == role)
    }

    pub fn has_file(&self, role: FileRole) -> bool {
        self.file(role).is_some()
    }

    /// Whether discovery says its files enable `feature`.
    pub fn enables(&self, feature: Feature) -> bool {
        self.info.views.contains(&feature)
    }

    /// Parsed chip swimlane records (a chip timeline can be shown).
    pub fn has_records(&self) -> bool {
        self.summary.as_ref().is_some_and(|s| s.records.is_some())
    }

    /// A parsed serving STRACE trace.
    pub fn has_trace(&self) -> bool {
        self.summary.as_ref().is_some_and(|s| s.trace.is_some())
    }

    /// Its path as the sidebar titles it.
    pub fn title(&self) -> String {
        if self.info.path.is_empty() {
            "(opened folder)".to_owned()
        } else {
            self.info.path.clone()
        }
    }
}

/// The session's reactive state: small values and lists, `Copy` handles.
#[derive(Clone, Copy)]
pub struct Session {
    pub worker: RwSignal<WorkerState>,
    pub load: RwSignal<LoadState>,
    /// What was opened (folder name or URL).
    pub source_label: RwSignal<String>,
    /// The comparison source opened beside it (folder name or URL), if any.
    pub comparison_label: RwSignal<Option<String>>,
    /// Loads running: the folder's, the comparison source's (`load` is `Done` when neither).
    loading: RwSignal<(bool, bool)>,
    /// A comparison source was opened and nothing has shown it yet (`nav` shows it once loaded).
    pub comparison_fresh: RwSignal<bool>,
    pub datasets: RwSignal<Vec<DatasetRow>>,
    pub ignored_files: RwSignal<u64>,
    /// File errors of all datasets (path, line, column, message).
    pub file_errors: RwSignal<Vec<FileError>>,
    /// Problems not tied to a file (manifest fetch failed, a request the worker refused).
    pub errors: RwSignal<Vec<String>>,
    /// Why the worker crashed, until the user reloads the data.
    pub crash: RwSignal<Option<String>>,
    /// What long work the worker is doing and how far it is (the progress bar).
    pub progress: RwSignal<Option<LoadProgress>>,
    /// The user pressed Cancel and the worker has not yet said it stopped (progress messages
    /// of the stopped work are ignored meanwhile).
    pub cancelling: RwSignal<bool>,
    pub load_elapsed_ms: RwSignal<Option<f64>>,
    /// Bumped by every open: parts drop what they hold of the previous folder.
    pub generation: RwSignal<u64>,
}

impl Session {
    pub fn new() -> Self {
        Self {
            worker: RwSignal::new(WorkerState::Starting),
            load: RwSignal::new(LoadState::Idle),
            source_label: RwSignal::new(String::new()),
            comparison_label: RwSignal::new(None),
            loading: RwSignal::new((false, false)),
            comparison_fresh: RwSignal::new(false),
            datasets: RwSignal::new(Vec::new()),
            ignored_files: RwSignal::new(0),
            file_errors: RwSignal::new(Vec::new()),
            errors: RwSignal::new(Vec::new()),
            crash: RwSignal::new(None),
            progress: RwSignal::new(None),
            cancelling: RwSignal::new(false),
            load_elapsed_ms: RwSignal::new(None),
            generation: RwSignal::new(0),
        }
    }

    /// The session of the page (provided by `App`).
    pub fn get() -> Self {
        expect_context::<Self>()
    }

    /// Forgets the previous folder before `label` loads.
    pub fn begin_open(&self, label: &str) {
        self.generation.update(|g| *g += 1);
        self.load.set(LoadState::Loading);
        self.loading.set((true, false));
        self.source_label.set(label.to_owned());
        self.comparison_label.set(None);
        self.comparison_fresh.set(false);
        self.datasets.set(Vec::new());
        self.file_errors.set(Vec::new());
        self.errors.set(Vec::new());
        self.progress.set(None);
        self.load_elapsed_ms.set(None);
    }

    /// Forgets the previous comparison source before `label` loads beside the folder.
    pub fn begin_comparison(&self, label: &str) {
        self.load.set(LoadState::Loading);
        self.loading.update(|l| l.1 = true);
        self.comparison_label.set(Some(label.to_owned()));
        self.comparison_fresh.set(true);
        self.datasets.update(|rows| rows.retain(|r| !r.info.comparison));
        self.progress.set(None);
    }

    /// The worker stopped (crashed): no load runs.
    pub fn stop_loads(&self) {
        self.cancelling.set(false);
        self.progress.set(None);
        self.loading.set((false, false));
        self.load.set(LoadState::Idle);
    }

    /// Takes a message nobody asked for (the worker's announcements). Returns it back when it
    /// is not an announcement.
    pub fn announce(&self, msg: FromWorker) -> Option<FromWorker> {
        match msg {
            FromWorker::Progress(p) => {
                if self.cancelling.get_untracked() {
                    // The stopped work's last words.
                } else if matches!(p.stage, ProgressStage::Model | ProgressStage::Timeline)
                    && p.total_bytes > 0
                    && p.done_bytes >= p.total_bytes
                {
                    // A job's model or timeline at its last step is over (a job that goes on
                    // after the load ended, as a prebuilt timeline, says so this way).
                    self.progress.set(None);
                } else {
                    let now_ms = js_sys::Date::now();
                    self.progress.update(|current| *current = Some(LoadProgress::next(current.as_ref(), p, now_ms)));
                }
            }
            FromWorker::Cancelled { .. } => {
                self.cancelling.set(false);
                self.progress.set(None);
            }
            FromWorker::Datasets(Datasets { source_label, datasets, ignored_files, comparison }) => {
                let new = datasets.into_iter().map(|info| DatasetRow { info, summary: None });
                if comparison {
                    self.comparison_label.set(Some(source_label));
                    self.datasets.update(|rows| {
                        rows.retain(|r| !r.info.comparison);
                        rows.extend(new);
                    });
                } else {
                    self.source_label.set(source_label);
                    self.ignored_files.set(ignored_files);
                    // The folder's rows first, the comparison source's (which may have come
                    // first) after them.
                    self.datasets.update(|rows| {
                        rows.retain(|r| r.info.comparison);
                        let kept = std::mem::take(rows);
                        rows.extend(new);
                        rows.extend(kept);
                    });
                }
            }
            FromWorker::DatasetLoaded(DatasetLoaded { dataset_id, summary }) => {
                self.file_errors.update(|errors| errors.extend(summary.errors.iter().cloned()));
                self.datasets.update(|rows| {
                    if let Some(row) = rows.iter_mut().find(|r| r.id() == dataset_id) {
                        row.summary = Some(summary);
                    }
                });
            }
            FromWorker::LoadFinished(LoadFinished { elapsed_ms, comparison }) => {
                self.progress.set(None);
                self.loading.update(|l| if comparison { l.1 = false } else { l.0 = false });
                if !comparison {
                    self.load_elapsed_ms.set(Some(elapsed_ms));
                }
                if self.loading.get_untracked() == (false, false) {
                    self.load.set(LoadState::Done);
                }
            }
            FromWorker::SourceFailed(error) => {
                self.progress.set(None);
                self.file_errors.update(|errors| errors.push(error));
            }
            FromWorker::Error { message } => self.problem(message),
            other => return Some(other),
        }
        None
    }

    /// Records a problem not tied to a file (shown in the sidebar).
    pub fn problem(&self, message: String) {
        self.progress.set(None);
        self.errors.update(|e| e.push(message));
    }

    /// The row of dataset `id` (tracked).
    pub fn row(&self, id: u32) -> Option<DatasetRow> {
        self.datasets.with(|rows| rows.iter().find(|r| r.id() == id).cloned())
    }

    /// The dataset whose path in the folder is `path` (its stable key in links; untracked).
    pub fn dataset_by_path(&self, path: &str) -> Option<u32> {
        self.datasets.with_untracked(|rows| rows.iter().find(|r| r.info.path == path).map(DatasetRow::id))
    }

    /// Reads the row of dataset `id` without cloning it (untracked).
    pub fn with_row<T>(&self, id: u32, f: impl FnOnce(&DatasetRow) -> T) -> Option<T> {
        self.datasets.with_untracked(|rows| rows.iter().find(|r| r.id() == id).map(f))
    }
}

impl Default for Session {
    fn default() -> Self {
        Self::new()
    }
}

/// A source's name as the chrome shows it: a folder's name, or a URL's last path segment
/// (`http://host/data/run2/` → `run2`).
pub fn short_label(label: &str) -> &str {
    let trimmed = label.trim_end_matches('/');
    let trimmed = trimmed.strip_suffix("pypto-viewer-manifest.json").map_or(trimmed, |t| t.trim_end_matches('/'));
    trimmed.rsplit('/').next().filter(|n| !n.is_empty()).unwrap_or(label)
}

/// The catalogue's name of `stage` ("Reading", "Laying out the graph"…).
pub fn stage_message_id(stage: ProgressStage) -> &'static str {
    match stage {
        ProgressStage::Read => "progress-stage-read",
        ProgressStage::Model => "progress-stage-model",
        ProgressStage::Timeline => "progress-stage-timeline",
        ProgressStage::Layout => "progress-stage-layout",
        ProgressStage::Diff => "progress-stage-diff",
    }
}

/// The catalogue's name of a graph layout's phase (the `path` of a `layout` progress:
/// `dag_layout::Phase::as_str`, or `start` while the layout's job starts); `None` for a key
/// this page does not know (shown as it came).
pub fn layout_phase_message_id(key: &str) -> Option<&'static str> {
    Some(match key {
        "start" => "progress-phase-start",
        "build" => "progress-phase-build",
        "cycles" => "progress-phase-cycles",
        "layers" => "progress-phase-layers",
        "dummies" => "progress-phase-dummies",
        "crossings" => "progress-phase-crossings",
        "coordinates" => "progress-phase-coordinates",
        "edges" => "progress-phase-edges",
        _ => return None,
    })
}

/// What a progress message's `path` reads as: a layout's phase in words, else the path.
pub fn progress_path_text(progress: &Progress) -> String {
    match progress.stage {
        ProgressStage::Layout => layout_phase_message_id(&progress.path).map_or_else(|| progress.path.clone(), crate::i18n::tr),
        _ => progress.path.clone(),
    }
}

/// The worker's last progress message and what the page derives from the messages of the
/// same work (same stage and path): when that work began here, hence its rate and time left.
///
/// Files of one dataset read at once (deps.json and the records, each parsed on its own core)
/// are one work: `progress` then sums their bytes and names them all (`dir/deps.json,
/// chip_swimlane_records.json`), so the bar neither flickers between them nor restarts its
/// clock at each message.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadProgress {
    pub progress: Progress,
    /// When the first message of this work came, ms (`Date.now()`), and how far it was then.
    pub began_ms: f64,
    pub began_done: u64,
    /// When the last message came, ms.
    pub at_ms: f64,
    /// The reads of this work, in the order they began: path, bytes done, bytes in all
    /// (empty for other stages).
    pub reads: Vec<(String, u64, u64)>,
}

/// The folder part of `path` (`a/b/deps.json` → `a/b`).
fn parent_of(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

impl LoadProgress {
    /// The state after `p` came at `now_ms`, following `current`.
    pub fn next(current: Option<&Self>, p: Progress, now_ms: f64) -> Self {
        match current {
            Some(c)
                if p.stage == ProgressStage::Read
                    && c.progress.stage == ProgressStage::Read
                    && c.reads.first().is_some_and(|(first, ..)| parent_of(first) == parent_of(&p.path)) =>
            {
                let mut reads = c.reads.clone();
                match reads.iter_mut().find(|(path, ..)| *path == p.path) {
                    Some(read) => {
                        read.1 = read.1.max(p.done_bytes);
                        read.2 = p.total_bytes;
                    }
                    None => reads.push((p.path.clone(), p.done_bytes, p.total_bytes)),
                }
                Self { progress: Self::sum_of(&reads, p.stage), began_ms: c.began_ms, began_done: c.began_done, at_ms: now_ms, reads }
            }
            Some(c) if c.progress.stage == p.stage && c.progress.path == p.path && p.done_bytes >= c.progress.done_bytes => {
                Self { progress: p, began_ms: c.began_ms, began_done: c.began_done, at_ms: now_ms, reads: Vec::new() }
            }
            _ => {
                let reads = if p.stage == ProgressStage::Read { vec![(p.path.clone(), p.done_bytes, p.total_bytes)] } else { Vec::new() };
                Self { began_done: p.done_bytes, progress: p, began_ms: now_ms, at_ms: now_ms, reads }
            }
        }
    }

    /// One progress for the reads together: their bytes summed, the path of the first one still
    /// reading and the names of the others still reading (the last read when all are done).
    fn sum_of(reads: &[(String, u64, u64)], stage: ProgressStage) -> Progress {
        let done_bytes = reads.iter().map(|r| r.1).sum();
        let total_bytes = reads.iter().map(|r| r.2).sum();
        let reading: Vec<&str> = reads.iter().filter(|r| r.1 < r.2).map(|r| r.0.as_str()).collect();
        let path = match reading.split_first() {
            None => reads.last().map_or_else(String::new, |r| r.0.clone()),
            Some((first, rest)) => {
                let names = rest.iter().map(|p| p.rsplit('/').next().unwrap_or(p));
                std::iter::once(*first).chain(names).collect::<Vec<_>>().join(", ")
            }
        };
        Progress { path, done_bytes, total_bytes, stage }
    }

    pub fn stage(&self) -> ProgressStage {
        self.progress.stage
    }

    /// Done of total, 0..=1 (`None` when the total is unknown).
    pub fn fraction(&self) -> Option<f64> {
        let Progress { done_bytes, total_bytes, .. } = self.progress;
        (total_bytes > 0).then(|| (done_bytes as f64 / total_bytes as f64).clamp(0.0, 1.0))
    }

    /// Seconds left at the rate since this work began here; `None` until there is a rate
    /// worth believing (half a second and some progress).
    pub fn seconds_left(&self) -> Option<f64> {
        let elapsed_ms = self.at_ms - self.began_ms;
        let done = self.progress.done_bytes.saturating_sub(self.began_done);
        if elapsed_ms < 500.0 || done == 0 || self.progress.total_bytes == 0 {
            return None;
        }
        let left = self.progress.total_bytes.saturating_sub(self.progress.done_bytes);
        Some(left as f64 / done as f64 * elapsed_ms / 1000.0)
    }

    /// One line for the embedded viewer's bar and tests: `Reading deps.json: 40%`.
    pub fn text(&self) -> String {
        let percent = self.fraction().map_or_else(String::new, |f| format!("{:.0}", f * 100.0));
        crate::i18n::tr_with(
            "progress-line",
            &[
                ("stage", crate::i18n::Arg::from(crate::i18n::tr(stage_message_id(self.stage())))),
                ("path", crate::i18n::Arg::from(&self.progress.path)),
                ("percent", crate::i18n::Arg::from(percent)),
            ],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{layout_phase_message_id, short_label, stage_message_id, LoadProgress};
    use crate::i18n::format_in;
    use crate::settings::Language;
    use pypto_protocol::datasets::{Progress, ProgressStage};

    fn progress(stage: ProgressStage, path: &str, done: u64, total: u64) -> Progress {
        Progress { path: path.to_owned(), done_bytes: done, total_bytes: total, stage }
    }

    #[test]
    #[allow(clippy::float_cmp)] // exact inputs, exact results
    fn time_left_follows_the_rate_since_the_work_began() {
        let read = ProgressStage::Read;
        let first = LoadProgress::next(None, progress(read, "a/a.json", 10, 110), 1_000.0);
        assert_eq!(first.seconds_left(), None, "no rate from one message");
        // 50 more bytes in 2 s: 50 left at 25 B/s is 2 s.
        let later = LoadProgress::next(Some(&first), progress(read, "a/a.json", 60, 110), 3_000.0);
        assert_eq!((later.began_ms, later.began_done), (1_000.0, 10));
        assert_eq!(later.seconds_left(), Some(2.0));
        assert_eq!(later.fraction().map(|f| (f * 100.0).round()), Some(55.0));
        // Another dataset's file (or another stage) is other work: its clock starts again.
        let other = LoadProgress::next(Some(&later), progress(read, "b/b.json", 5, 10), 3_100.0);
        assert_eq!((other.began_ms, other.began_done, other.seconds_left()), (3_100.0, 5, None));
        let layout = LoadProgress::next(Some(&other), progress(ProgressStage::Layout, "b/b.json", 5, 10), 3_200.0);
        assert_eq!(layout.began_ms, 3_200.0);
        // An unknown total (an open-ended step) has no fraction and no time left.
        let diff = LoadProgress::next(None, progress(ProgressStage::Diff, "x.py", 0, 0), 0.0);
        assert_eq!((diff.fraction(), diff.seconds_left()), (None, None));
    }

    #[test]
    #[allow(clippy::float_cmp)] // exact inputs, exact results
    fn files_of_one_dataset_read_at_once_are_one_work() {
        let read = ProgressStage::Read;
        let a = LoadProgress::next(None, progress(read, "big/dfx/deps.json", 10, 100), 1_000.0);
        let ab = LoadProgress::next(Some(&a), progress(read, "big/dfx/records.json", 20, 200), 1_500.0);
        assert_eq!(ab.progress.path, "big/dfx/deps.json, records.json");
        assert_eq!((ab.progress.done_bytes, ab.progress.total_bytes), (30, 300));
        // The clock and the bytes it began with are the first file's: 80 more bytes (the second
        // file's 20 among them) in 2 s is 40 B/s, and 210 are left.
        let later = LoadProgress::next(Some(&ab), progress(read, "big/dfx/deps.json", 70, 100), 3_000.0);
        assert_eq!((later.began_ms, later.began_done), (1_000.0, 10));
        assert_eq!((later.progress.done_bytes, later.progress.total_bytes), (90, 300));
        assert_eq!(later.seconds_left(), Some(5.25));
        // A finished file leaves the name; the other one is still read.
        let done = LoadProgress::next(Some(&later), progress(read, "big/dfx/deps.json", 100, 100), 3_500.0);
        assert_eq!(done.progress.path, "big/dfx/records.json");
        // Another dataset's read is other work.
        let other = LoadProgress::next(Some(&done), progress(read, "small/dfx/deps.json", 1, 2), 3_600.0);
        assert_eq!((other.progress.path.as_str(), other.began_ms, other.progress.total_bytes), ("small/dfx/deps.json", 3_600.0, 2));
    }

    #[test]
    fn every_stage_is_named_in_both_languages() {
        let stages = [ProgressStage::Read, ProgressStage::Model, ProgressStage::Timeline, ProgressStage::Layout, ProgressStage::Diff];
        for stage in stages {
            let id = stage_message_id(stage);
            for language in [Language::English, Language::Chinese] {
                assert_ne!(format_in(language, id, &[]), id, "{id} in {language:?}");
            }
        }
        let zh = format_in(Language::Chinese, stage_message_id(ProgressStage::Read), &[]);
        assert!(zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)), "Chinese stage name: {zh}");
    }

    #[test]
    fn every_layout_phase_is_named_in_both_languages() {
        // `dag_layout::Phase::as_str` of each phase, the job's start and the graph's build.
        for key in ["start", "build", "cycles", "layers", "dummies", "crossings", "coordinates", "edges"] {
            let id = layout_phase_message_id(key).unwrap_or_else(|| panic!("no message for phase {key}"));
            for language in [Language::English, Language::Chinese] {
                assert_ne!(format_in(language, id, &[]), id, "{id} in {language:?}");
            }
        }
        assert_eq!(layout_phase_message_id("spline"), None);
    }

    #[test]
    fn short_labels_are_a_sources_last_name() {
        assert_eq!(short_label("http://127.0.0.1:8080/data/run2/"), "run2");
        assert_eq!(short_label("https://h/x/base/pypto-viewer-manifest.json"), "base");
        assert_eq!(short_label("build_output"), "build_output");
        assert_eq!(short_label("/"), "/");
    }
}
