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
app-worker-state = worker: { $state ->
    [starting] starting
    [restarted] restarted
   *[ready] ready
}
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

# Table columns and their tooltips.
col-func-id = Func ID
col-function-name = Function Name
col-count = Count
col-max-duration-us = Max Duration (µs)
col-min-duration-us = Min Duration (µs)
col-avg-duration-us = Avg Duration (µs)
coltip-longest-start-end-setup-excluded = longest start→end, setup excluded
coltip-shortest-start-end-setup-excluded = shortest start→end, setup excluded
coltip-mean-start-end-setup-excluded = mean start→end, setup excluded
col-id = ID
col-name = Name
col-avg-us = Avg (µs)
col-max-us = Max (µs)
col-value-us = Value (µs)
col-metric = Metric
col-a-baseline = A (baseline)
col-b-this-run = B (this run)
col-delta = Δ
col-deltapct = Δ%
col-function = Function
col-delta-total-exec = Δ total exec
col-delta-avg-exec = Δ avg exec
col-delta-avg-latency = Δ avg latency
col-a-task = A task
col-b-task = B task
col-a-exec-us = A exec (µs)
col-b-exec-us = B exec (µs)
col-delta-us = Δ (µs)
col-matched-by = Matched by
col-a-start-us = A start (µs)
col-b-start-us = B start (µs)
coltip-b-a = B − A
coltip-b-a-a = (B − A) / A
coltip-b-a-us = B − A, µs
coltip-last-end-first-start-over-the-task-s-aicore-rows = last end − first start over the task's AICore rows
coltip-id-same-function-and-task-id-order-the-k-th-execution-of-the-function = id: same function and task id; order: the k-th execution of the function
col-space = Space
col-a-high-water-b = A high-water (B)
col-b-high-water-b = B high-water (B)
col-delta-b = Δ (B)
col-capacity-b = Capacity (B)
coltip-bytes-max-offset-size-over-the-space-s-tiles = bytes: max(offset + size) over the space's tiles
coltip-the-chip-s-capacity-of-the-space = the chip's capacity of the space
col-type = Type
col-high-water-b = High-water (B)
col-usage-pct = Usage %
col-peak-live-b = Peak live (B)
col-boxes = Boxes
col-bases = Bases
coltip-max-offset-size-over-the-space-s-boxes-the-highest-address-in-use = max(offset + size) over the space's boxes: the highest address in use
coltip-the-chip-s-capacity-of-the-space-compiler-formats-md-3-2 = the chip's capacity of the space (compiler-formats.md §3.2)
coltip-high-water-capacity-amber-80-pct-red-95-pct = high-water / capacity; amber ≥ 80 %, red ≥ 95 %
coltip-most-bytes-live-on-one-line-views-not-counted-twice = most bytes live on one line (views not counted twice)
coltip-distinct-base-buffers = distinct base buffers
col-n = #
col-task = Task
col-kernel = Kernel
col-start-us = Start (µs)
col-task-us = Task (µs)
col-compute-us = Compute (µs)
col-stall-us = Stall (µs)
col-stall-kind = Stall kind
col-task-id = Task ID
col-pct-makespan = % makespan
col-kernel-family = Kernel family
col-n-on-path = # on path
coltip-rxty = rXtY
coltip-first-block-start-last-block-end = first block start → last block end
coltip-non-overlapped-compute-on-the-path = non-overlapped compute on the path
coltip-runtime-scheduling-stall-before-the-task = runtime-scheduling stall before the task
coltip-data-wait-upstream-producer-core-wait-core-busy-front-gap-launch-delay = data-wait: upstream producer; core-wait: core busy; front-gap: launch delay
col-length = Length
col-exec-us = Exec (µs)
col-span-us = Span (µs)
col-head = Head
col-tail = Tail
col-chain = Chain
coltip-tasks-in-the-chain = tasks in the chain
coltip-task-durations-first-block-start-last-block-end = Σ task durations (first block start → last block end)
coltip-first-start-last-end = first start → last end
col-gap-us = Gap (µs)
col-cause = Cause
col-blocker = Blocker
coltip-blocker-release-task-start-red-above-the-threshold = blocker release → task start; red above the threshold
coltip-same-core-another-task-held-the-core-predecessor-waited-for-a-data-predecessor-launch-path-head = same-core: another task held the core; predecessor: waited for a data predecessor; launch: path head
coltip-the-report-s-tiling-stall-gap = the report's tiling stall (≤ gap)
col-before-last-fin = Before last FIN?
col-max-lead-us = Max lead (µs)
col-target-because = Target because
col-preds = Preds
col-blocks = Blocks
col-early-blocks = Early blocks
col-last-pred = Last pred
col-first-dispatch-us = First dispatch (µs)
col-last-pred-fin-us = Last pred FIN (µs)
coltip-first-dispatch-the-latest-predecessor-fin = first dispatch < the latest predecessor FIN
coltip-last-predecessor-fin-first-dispatch = last predecessor FIN − first dispatch
coltip-config-every-predecessor-allows-early-dispatch-phase-staged-by-a-scheduler-early-dispatch-phase = config: every predecessor allows early dispatch; phase: staged by a scheduler early_dispatch phase
col-func-name = Func Name
col-avg-exec-us = Avg Exec (µs)
col-max-exec-us = Max Exec (µs)
col-min-exec-us = Min Exec (µs)
col-total-exec-us = Total Exec (µs)
col-avg-latency-us = Avg Latency (µs)
col-exec-pct = Exec %
col-avg-head-oh-us = Avg Head OH (µs)
col-avg-tail-oh-us = Avg Tail OH (µs)
col-avg-prop-us = Avg Prop (µs)
col-avg-local-us = Avg Local (µs)
coltip-kernel-time-on-aicore = kernel time on AICore
coltip-dispatch-finish-level-2 = dispatch → finish (level ≥ 2)
coltip-exec-latency = Σ exec / Σ latency
coltip-start-dispatch = start − dispatch
coltip-finish-end = finish − end
coltip-dispatch-aicore-receive = dispatch → AICore receive
coltip-receive-start-setup = receive → start (setup)
col-core = Core
col-setup-us = Setup (µs)
col-ratio-pct = Ratio (%)
coltip-aicore-receive-start = AICore receive → start
coltip-start-end = start → end
coltip-setup-setup-exec = setup / (setup + exec)
coltip-raw-u64-task-id = raw u64 task id
col-pair-count = Count
col-pair-total-exec = Total exec
col-pair-avg-exec = Avg exec
col-pair-max-exec = Max exec
col-pair-min-exec = Min exec
col-pair-avg-latency = Avg latency
col-pair-head-oh = Head OH
col-pair-tail-oh = Tail OH
app-worker-crashed = The analysis worker crashed: { $message }
app-theme = Theme
app-theme-title = Colour theme: the system's, light or dark
app-theme-system = System
app-theme-light = Light
app-theme-dark = Dark
app-table-rows = { $count } rows
app-full-screen = Full screen
app-exit-full-screen = Exit full screen
app-download-the-diff-as-shown = Download the diff as shown as PNG
app-diff-pane-before = The snapshot before (left)
app-diff-pane-after = The snapshot after (right)
app-diff-pane-stacked = The diff
progress-group = Progress of the work running
progress-line = { $stage } { $path }: { $percent }%
progress-what = { $stage } { $path }
progress-stage-read = Reading
progress-stage-model = Building the model of
progress-stage-timeline = Laying out the timeline of
progress-stage-layout = Laying out the graph:
progress-stage-diff = Comparing
progress-bytes = { $done } / { $total }
progress-steps = step { $done } of { $total }
progress-left = { $time } left
progress-seconds = { $seconds } s
progress-minutes = { $minutes } min { $seconds } s
progress-under-a-second = < 1 s
progress-cancel = Cancel
progress-cancel-title = Stop this work: the load job is terminated and its memory freed; what has loaded stays usable
progress-cancelling = Cancelling…
side-cancelled = Loading cancelled.
side-load-again = Load again
side-load-again-title = Open the folder again and load every dataset
# i18n-rest
app-drop-no-files = the dropped items hold no files
app-drop-unreadable = could not read the dropped folder: { $message }
app-worker-start-failed = could not start the analysis worker: { $error }
# discovery notes and what is missing (worker data shown translated)
side-note-records-files = { $count } records files; using { $using }
side-note-deps-files = { $count } deps files; using { $using }
side-note-name-map-files = { $count } name_map*.json files; using { $using } (lexicographically greatest = newest timestamp)
side-note-pass-snapshots = { $count } pass snapshot(s)
side-note-pass-dump = pass dump of this case: { $path }
side-note-pass-dumps = { $count } pass dumps of this case; using the newest, { $using } (others: { $others })
side-missing-memory-map = no *after_AllocateMemoryAddr.py: no memory reuse map
side-missing-frontend = no 00_frontend.py: the first pass cannot be compared
side-missing-records-graph = no chip_swimlane_records.json: no swimlane (deps.json alone gives the dependency graph)
side-missing-records = no chip_swimlane_records.json: no swimlane
side-missing-deps = no deps.json: function names and dependency lines unavailable
side-missing-name-map = no name_map*.json: functions shown by id (func_N)
# graph layout phases (the progress bar's `layout` stage)
progress-phase-start = starting
progress-phase-build = building the graph
progress-phase-cycles = breaking cycles
progress-phase-layers = layering
progress-phase-dummies = splitting long edges
progress-phase-crossings = reducing crossings
progress-phase-coordinates = placing nodes
progress-phase-edges = routing edges

# The worker's fixed sentences in a file error or an error (worker_words.rs): the English is
# the worker's own text word for word; { $detail } is a sentence of its own or a parser's words.
werr-cancelled = cancelled by the user
werr-read-file = could not read the file: { $detail }
werr-manifest = could not load the dataset manifest: { $detail }
werr-bad-manifest = bad dataset manifest: { $detail }
werr-stalled = no bytes from { $what } for { $seconds } s
werr-graph-no-deps = dataset { $id } has no deps.json: the Task Dependency Graph needs one
werr-no-records = dataset { $id } has no readable swimlane records
werr-no-perf = dataset { $id } has no chip swimlane records: no performance analysis
werr-no-paths = dataset { $id } has no path analyses (no readable swimlane records)
werr-not-pass-dump = dataset { $id } is not a pass dump
werr-not-in-folder = the file is not in the opened folder
werr-new-folder = a new folder was opened
werr-job-answer = the load job answered something else
werr-job-gone = the analysis job went away
werr-job-start = could not start an analysis job: { $detail }
werr-job-panicked = the analysis job panicked: { $detail }
werr-job-failed = the analysis job failed: { $detail }
werr-timeline-failed = the timeline could not be built: { $detail }
werr-records-again = could not read the swimlane records again: { $detail }
werr-layout-failed = dependency graph layout failed: { $detail }
