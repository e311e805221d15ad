# The readers' and analyses' warnings (pypto_vocab::Warning), one message per WarningKind:
# `warning-<kind key>` with the warning's arguments (Warning::args). The English text must be
# the warning's `message` word for word (the CLI prints the message; a test compares them on
# one damaged dataset per kind). Lists of records ($rows, $tasks, …) name the records as the
# reader wrote them; $more is how many more there are (0: none).

warning-records-negative-time = { $count } row(s) with a negative time skipped: { $rows }{ $more ->
        [0] {""}
       *[other] , and { $more } more
    }
warning-records-end-before-start = { $count } row(s) with an end before the start skipped: { $rows }{ $more ->
        [0] {""}
       *[other] , and { $more } more
    }
warning-records-implausible-time = { $count } row(s) with an implausible time skipped: { $rows }{ $more ->
        [0] {""}
       *[other] , and { $more } more
    }
warning-records-two-task-shapes = both `tasks` and `aicore_tasks` present; read `tasks` (object format)
warning-records-two-scheduler-shapes = both `scheduler_tasks` and `aicpu_tasks` present; read `scheduler_tasks`
warning-records-mixed-widths = `{ $table }` rows have mixed widths{ $table ->
        [aicore_tasks] ; read as { $columns } columns
       *[other] {""}
    }
warning-records-level-inferred = no { $shape ->
        [raw] swimlane level
       *[other] level
    } key; level { $level } inferred from the content
warning-records-level-above-4 = level { $level } is above 4; read as 4
warning-records-stream-id-too-large = scheduler stream id { $id } is implausibly large; stream skipped
warning-records-metric-out-of-range = scheduler stream { $stream }: metric for record { $record } out of range
warning-records-stream-id-repeated = scheduler stream id { $id } appears twice; later stream kept
warning-records-unknown-phase-kind = { $count } scheduler phase record(s) of unknown kind (kept, not drawn)
warning-records-host-and-device-orchestrator = host-orchestrated capture also has AICPU orchestrator records (ambiguous clocks)
warning-deps-empty = deps.json has no tasks, tensors or edges
warning-deps-no-kernel-ids = some tasks have no valid `kernel_ids` (older deps.json): their functions cannot be resolved
warning-deps-kernel-id-below-minus-one = { $count } task(s) with a kernel id below -1 (only -1 means none), not resolved: { $tasks }{ $more ->
        [0] {""}
       *[other] , and { $more } more
    }
warning-deps-block-num-below-one = { $count } task(s) with a block_num below 1, read as 1: { $tasks }{ $more ->
        [0] {""}
       *[other] , and { $more } more
    }
warning-deps-edge-to-unlisted-task = deps.json edges name { $count } task(s) that neither its task list ({ $listed } tasks) nor the records hold: { $tasks }{ $more ->
        [0] {""}
       *[other] , and { $more } more
    }
warning-name-map-entry-skipped = { $count } name map entr(y/ies) skipped: { $entries }{ $more ->
        [0] {""}
       *[other] , and { $more } more
    }
warning-name-map-null = `callable_id_to_name` is null: the file names no functions
warning-cpm-task-on-and-off-path = task { $task }: { $on } bar(s) on the path and { $off } renamed off it; counted on the path
warning-cpm-no-task-bars = no Worker View task bars (ph X, pid { $pid }, args.taskId): empty path
warning-trace-bad-task-ids = { $count } args.taskId/args.task_id values were not integers and were ignored
warning-trace-unmatched-begin = { $count } B event(s) without an E: drawn up to the thread's last timestamp
warning-trace-unmatched-end = { $count } E event(s) without a B: not drawn
warning-trace-negative-duration = { $count } X event(s) with a negative dur, drawn with zero length (first: { $first })
warning-trace-time-out-of-range = { $count } event(s) with a time beyond ±2^63 ns (±292 years, Perfetto's range), not drawn (first: { $first })
warning-host-phase-skipped = { $reason ->
        [truncated] line ends early (truncated?), pass skipped
        [not-json] not valid JSON, pass skipped
        [not-a-pass] expected a pass object `{"{"}"pid", "inv", "records": [...]{"}"}`, line skipped
        [records-not-array] `records` is not an array, pass skipped
        [bad-record] records[{ $index }]: expected `phase` and integer `start_ns`/`end_ns`, record skipped
       *[empty] the file holds no prepare pass (empty): no host prepare phases to show
    }
warning-host-phase-implausible-time = { $count } host prepare record(s) not drawn: { $records }{ $more ->
        [0] {""}
       *[other] , and { $more } more
    }
warning-host-phase-records-dropped = the recorder dropped { $count } record(s) of this pass: its phases are incomplete
warning-host-phase-no-host-clock = { $count } host prepare record(s) not shown: the swimlane records are not host-orchestrated, so there is no host clock to place them on
warning-join-duplicate-key = { $count } duplicate AICore join key(s) (core_id, reg_task_id); the later row wins
warning-join-unpartnered-aicpu-rows = { $count } AICPU row(s) without an AICore partner dropped (AICore buffer lost?); top cores: { $cores }
warning-join-no-aicpu-rows = level { $level } but no AICPU rows: no tasks can be joined ({ $rows } AICore rows unused)
warning-clock-not-calibrated = host-orchestrated capture without usable clock anchors: device time placed after the host orchestration window (approximate; cross-domain gaps unknown)
warning-dummy-task-without-record = { $count } dummy task(s) in deps.json without a dummy_task scheduler record (not drawn): { $tasks }
warning-critical-path-from-microseconds = object-format records carry µs, not cycles: ticks rebuilt as round(µs × { $freq } / 1e6)
warning-critical-path-several-epochs = records hold several run epochs: rows of one task id across epochs are merged
warning-critical-path-without-deps = no deps.json: the critical paths use same-core links only (no data edges)
warning-critical-path-failed = critical path not computed: { $error }
warning-edge-mode-fallback = warning: dependency graph has a cycle; transitive reduction skipped, emitting full graph (--edge-mode { $mode } ignored)
