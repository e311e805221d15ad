# The Task Dependency Graph.
gr-layers-top-bottom-or-left = layers top→bottom or left→right
gr-fit-the-whole-graph-to = fit the whole graph to the screen (F)
gr-fit = Fit
gr-save-the-graph-as-drawn = save the graph as drawn (PNG)
gr-save-the-whole-graph-as = save the whole graph as SVG
gr-save-the-graph-s-nodes = save the graph's nodes as CSV
gr-depth = Depth
gr-0-off = 0 (off)
gr-all = all
gr-search-rxty-or-function-name = search rXtY or function name
gr-laying-out = laying out…
gr-static-properties-of-the-graph = Static properties of the graph, not what happened at run time: flame = alloc task or early_dispatch: true in deps.json; star = every predecessor has the flame and one of them is not alloc
gr-early-dispatch-capable = early-dispatch capable ·
gr-all-preds-early-static = all preds early (static)
gr-the-whole-graph-press-or = the whole graph: press or drag to move the view
gr-hover-or-click-a-task = Hover or click a task to highlight its predecessors (orange) and successors (blue) to the chosen depth; fan-in / fan-out are over all deps.json edges.
gr-show-in-swimlane = Show in swimlane
gr-names-from = Function names come from the newest name_map*.json beside deps.json (the lexicographically greatest name = the newest timestamp): { $path }. Keys: 1–5 edge mode, F fit, Esc clear; ? lists every shortcut.
gr-edge-mode = Edge mode
gr-no-name-map = none (names fall back to func_<id>)
gr-mode-title = edge mode { $mode } (key { $key })
gr-mode-full = Full
gr-mode-reduced = Reduced
gr-mode-omitted = Omitted
gr-mode-reduced-df = Reduced DF
gr-mode-omitted-df = Omitted DF
gr-hud = { $nodes } nodes · edges: { $edges } · layout { $layout_ms } ms · { $crossings } crossings
gr-hit-of = { $n } of { $total }
gr-searching = searching…
gr-no-match = no task matches “{ $query }”

# Keyboard navigation of the graph: the canvas's name and the live region (issue 20, item 5).
gr-canvas-role = task graph
gr-canvas-label = Task dependency graph, { $nodes } tasks. Keys: ] and [ next and previous task; { $successor } to a successor, { $predecessor } to a predecessor, { $across } within a layer; Esc clears the selection; ? lists every shortcut. The selected task's details follow the graph.
gr-announce = Task { $task } · { $function } · { $kind } · { $preds ->
    [one] 1 predecessor
   *[other] { $preds } predecessors
}, { $succs ->
    [one] 1 successor
   *[other] { $succs } successors
} · { $n } of { $total }
gr-announce-no-successor = { $task } has no successor in this edge mode
gr-announce-no-predecessor = { $task } has no predecessor in this edge mode
gr-announce-layer-end = No further task in this layer
gr-announce-empty = The graph has no tasks
gr-announce-cleared = Selection cleared
# i18n-rest
gr-edges-on-screen = { $count } edges on screen
gr-tensor-arguments = Tensor arguments ({ $count })
gr-edge-annotations = Edge annotations ({ $count })
gr-layout-cancelled = Layout cancelled.
gr-layout-again = Lay out again
# i18n-notes: the selected task's tables (column titles; the CSV keeps the English keys)
col-dep-index = Index
col-dep-type = Type
col-dep-tensor = Tensor
col-dep-dtype = Dtype
col-dep-shape = Shape
col-dep-strides = Strides
col-dep-offset = Offset
col-dep-edge = Edge
col-dep-peer = Peer
col-dep-source = Source
col-dep-flags = Flags
col-dep-arg = Arg
col-dep-overlap = Overlap
# i18n-notes: the selected task's facts
gr-field-func-name = func name
gr-field-task = task
gr-field-kind = kind
gr-field-block-num = block_num
gr-field-markers = markers
gr-field-fan-in = fan-in ({ $count })
gr-field-fan-out = fan-out ({ $count })
gr-marker-early-and-preds = early-dispatch capable, all preds early (static)
gr-marker-early = early-dispatch capable (static)
gr-marker-preds = all preds early (static)
gr-marker-none = none

# The layout's note when it drew edges reversed to lay out a cycle (the header's reversed_edges).
graph-reversed-edges = the graph has a cycle: { $count } edge(s) drawn reversed to lay it out
