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
