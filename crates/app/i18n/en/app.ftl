# The page's shell: top bar, landing page, load state.
app-brand = PyPTO Trace Viewer
app-open-folder = Open folder…
app-open-folder-title = Open a folder of runtime records or pass dumps (read-only)
app-compare-folder = Compare with folder…
app-compare-folder-title = Open another folder beside this one to compare runs (its captures are the baselines, A)
app-open-demo = Open demo
app-drop-hint = or drop a folder anywhere
app-copy-link = Copy link
app-copy-link-title = Copy a link to this view (same folder or URL, same view, selection and settings)
app-link-copied = Link copied
app-link-copy-failed = Copy failed: copy the address bar
app-compared-with = Compared with (the baselines): { $label }
app-worker-title = analysis worker
app-worker-state = worker: { $state }
app-language = Language
app-language-english = English
app-language-chinese = 中文
app-datasets-count = { $count ->
    [one] { $count } dataset
   *[other] { $count } datasets
}

# The dataset sidebar.
side-kind-runtime = runtime records
side-kind-pass-dump = pass dump
side-kind-strace = serving STRACE
side-level-clock-cores = level { $level } · { $mhz } MHz · { $cores } cores
side-tasks-span = { $tasks } tasks · span { $span } µs
side-deps = deps: { $tasks } tasks · { $edges } edges · { $tensors } tensors
side-name-map = name map: { $count } functions
side-host-prepare = host prepare: { $passes ->
    [one] 1 pass
   *[other] { $passes } passes
} · { $phases ->
    [one] 1 phase
   *[other] { $phases } phases
} in { $lanes ->
    [one] 1 lane
   *[other] { $lanes } lanes
}
side-passes = { $count } passes
side-passes-frontend = { $count } passes + frontend
side-trace = { $processes } processes · { $lanes } lanes · { $spans } spans · { $instants } instants · span { $span } µs
side-file-errors = { $count ->
    [one] 1 file error
   *[other] { $count } file errors
}
side-file-line-column = { $file } (line { $line }, column { $column })
side-warnings = ⚠ { $count ->
    [one] 1 warning
   *[other] { $count } warnings
}
side-compare-with = Compare with…
side-compare-with-label = Compare with
side-compare-with-title = Compare this (B, this run) with another (A, the baseline)
side-pending = loading…
side-open-trace = ▶ { $name } (trace)
side-open-trace-title = Open this Chrome trace as a swimlane
side-comparison-source = Comparison source: { $label }
side-open-ranks = Open the { $count } ranks in one timeline
side-datasets = Datasets
side-loading = Loading…
side-empty = Open a folder, the demo, or drop a folder here.
side-ignored = { $count } other files ignored
side-worker-restarted = The worker was restarted.
side-reload = Reload the data
side-problems = Problems
side-line-column = line { $line }, column { $column }
side-whole-file = whole file
side-retry = Retry
side-retry-title = Open the same folder or URL again

# What discovery says a dataset enables.
feature-chip-swimlane = Chip Swimlane
feature-worker-view = Worker View
feature-scheduler-view = Scheduler View
feature-task-graph = Task Dependency Graph
feature-function-performance = Function Performance
feature-performance-analysis = Performance Analysis
feature-critical-path = Critical path highlight
feature-host-prepare = Host Prepare lanes
feature-ir-pass-trace = IR Pass Trace
feature-memory-reuse = Memory Reuse
feature-strace-swimlane = Serving STRACE swimlane
app-dismiss = Dismiss
app-open-this-view-in-the = Open this view in the full viewer, in a new tab
app-open-full-viewer = Open full viewer ↗
app-drag-to-resize = drag to resize
app-export-the-table-in-its = Export the table (in its current order) as CSV
app-full-screen-esc-leaves = Full screen (Esc leaves)
app-benchmark = benchmark
app-click-to-sort = { $column } — click to sort
