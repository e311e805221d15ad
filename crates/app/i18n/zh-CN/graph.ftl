# 任务依赖图。
gr-layers-top-bottom-or-left = 分层方向：自上而下或自左向右
gr-fit-the-whole-graph-to = 将整个依赖图适配到屏幕（F）
gr-fit = 适配
gr-save-the-graph-as-drawn = 按当前绘制保存依赖图（PNG）
gr-save-the-whole-graph-as = 将整个依赖图保存为 SVG
gr-save-the-graph-s-nodes = 将依赖图的节点保存为 CSV
gr-depth = 深度
gr-0-off = 0（关闭）
gr-all = 全部
gr-search-rxty-or-function-name = 搜索 rXtY 或函数名
gr-laying-out = 正在布局…
gr-static-properties-of-the-graph = 依赖图的静态属性，而非运行时实际发生的情况：火焰 = alloc 任务或 deps.json 中 early_dispatch: true；星形 = 所有前驱都带火焰且其中至少一个不是 alloc
gr-early-dispatch-capable = 可提前派发 ·
gr-all-preds-early-static = 所有前驱均可提前（静态）
gr-the-whole-graph-press-or = 整个依赖图：按下或拖动以移动视图
gr-hover-or-click-a-task = 悬停或单击任务，按所选深度高亮其前驱（橙色）与后继（蓝色）；扇入 / 扇出按 deps.json 的全部边统计。
gr-show-in-swimlane = 在泳道图中显示
gr-names-from = 函数名来自 deps.json 旁最新的 name_map*.json（字典序最大的文件名 = 最新的时间戳）：{ $path }。按键：1–5 边模式，F 适配，Esc 清除；? 列出全部快捷键。
gr-edge-mode = 边模式
gr-no-name-map = 无（函数名回退为 func_<id>）
gr-mode-title = 边模式 { $mode }（按键 { $key }）
gr-mode-full = 完整
gr-mode-reduced = 精简
gr-mode-omitted = 省略
gr-mode-reduced-df = 精简 DF
gr-mode-omitted-df = 省略 DF
gr-hud = { $nodes } 个节点 · 边：{ $edges } · 布局 { $layout_ms } ms · { $crossings } 处交叉
gr-hit-of = 第 { $n } 个，共 { $total } 个
gr-searching = 搜索中…
gr-no-match = 没有任务匹配“{ $query }”

# 依赖图的键盘导航：画布的名称与实时播报区域（issue 20，第 5 项）。
gr-canvas-role = 任务依赖图
gr-canvas-label = 任务依赖图，共 { $nodes } 个任务。按键：] 和 [ 下一个 / 上一个任务；{ $successor } 到后继，{ $predecessor } 到前驱，{ $across } 在本层内移动；Esc 清除选择；? 列出全部快捷键。所选任务的详情在依赖图下方。
gr-announce = 任务 { $task } · { $function } · { $kind } · { $preds } 个前驱，{ $succs } 个后继 · 第 { $n } 个，共 { $total } 个
gr-announce-no-successor = { $task } 在当前边模式下没有后继
gr-announce-no-predecessor = { $task } 在当前边模式下没有前驱
gr-announce-layer-end = 本层在该方向上没有更多任务
gr-announce-empty = 依赖图中没有任务
gr-announce-cleared = 已清除选择
# i18n-rest
gr-edges-on-screen = 屏幕上 { $count } 条边
gr-tensor-arguments = 张量参数（{ $count }）
gr-edge-annotations = 边注释（{ $count }）
gr-layout-cancelled = 已取消布局。
gr-layout-again = 重新布局
# i18n-notes: the selected task's tables (column titles; the CSV keeps the English keys)
col-dep-index = 序号
col-dep-type = 类型
col-dep-tensor = 张量
col-dep-dtype = 数据类型
col-dep-shape = 形状
col-dep-strides = 步长
col-dep-offset = 偏移
col-dep-edge = 边
col-dep-peer = 对端
col-dep-source = 来源
col-dep-flags = 标志
col-dep-arg = 参数
col-dep-overlap = 重叠
# i18n-notes: the selected task's facts
gr-field-func-name = 函数名
gr-field-task = 任务
gr-field-kind = 类型
gr-field-block-num = block_num
gr-field-markers = 标记
gr-field-fan-in = 扇入（{ $count }）
gr-field-fan-out = 扇出（{ $count }）
gr-marker-early-and-preds = 可提前派发，前驱均提前（静态）
gr-marker-early = 可提前派发（静态）
gr-marker-preds = 前驱均提前（静态）
gr-marker-none = 无

# 布局为排布环而反向绘制的边数。
graph-reversed-edges = 图中有环：为完成布局，{ $count } 条边被反向绘制
