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
pt-diff-cancelled = Diff cancelled.
pt-diff-again = Diff again
pt-damaged-title = Damaged or cut short (the diff shows the file as read):
pt-damaged-after = This snapshot is damaged or cut short: the diff shows it as read.
pt-damaged-before = The snapshot this pass is compared with is damaged or cut short: the diff shows it as read.
pt-damaged-compared-with = (compared with)
