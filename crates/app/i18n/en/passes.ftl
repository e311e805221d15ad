# The IR Pass Trace.
pt-invalid = invalid
pt-warnings-log = warnings (.log)
pt-open-the-memory-reuse-map = Open the memory reuse map of this snapshot
pt-map = ▦ map
pt-no-op = no-op
pt-show-this-line-in-the = Show this line in the diff
pt-warnings = Warnings
pt-all-functions = All functions
pt-function-filter = Show one function
# i18n-rest
pt-filter-changed = Changed
pt-filter-noop = No-op
pt-filter-all = All
pt-layout-side = Side by side
pt-layout-stacked = Stacked
pt-fold-unchanged = Fold unchanged
pt-expand-all = Expand all
pt-long-line = { $count } characters: shown without colouring
pt-unchanged-lines = ⋯ { $count } unchanged lines (click to expand)
pt-unchanged-lines-png = ⋯ { $count } unchanged lines
# i18n-notes: the note a compiler view shows when another view opened it (compiler_note.rs)
cn-the-folder = the folder
cn-dump-newest = { $dump } (newest)
cn-from-run = run { $runtime }, pass dump { $dump }
cn-from-run-newest = run { $runtime }, pass dump { $dump }, the newest of { $count }
cn-from-run-chosen = run { $runtime }, pass dump { $dump }, chosen of { $count }
cn-opened-from = Opened from { $from }.
cn-subject-kernel = kernel { $kernel } ({ $from })
cn-subject-tile = tile { $tile }, defined at { $snapshot }:{ $line }
cn-showing-function = Showing { $function } for { $subject }: { $rule }.
cn-several-functions = Several functions match { $subject } ({ $rule }): { $functions }. Pick one in the function list.
cn-no-function = No IR function of this pass dump matches { $subject }: showing all { $count } functions. (A kernel matches a function by name, its words, a word's start or an abbreviation of one.)
cn-rule-exact = the same name
cn-rule-same-name = the same name ignoring case and the kernel_/aic_/aiv_ prefix
cn-rule-words = the kernel's name is a word of the function's
cn-rule-word-prefix = the kernel's name starts a word of the function's
cn-rule-abbreviation = the kernel's name abbreviates a word of the function's
