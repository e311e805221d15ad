# IR Pass 追踪。
pt-invalid = 无效
pt-warnings-log = 警告（.log）
pt-open-the-memory-reuse-map = 打开此快照的内存复用图
pt-map = ▦ 内存图
pt-no-op = 无变化
pt-show-this-line-in-the = 在差异视图中显示此行
pt-warnings = 警告
pt-all-functions = 全部函数
pt-function-filter = 只显示一个函数
# i18n-rest
pt-filter-changed = 有变化
pt-filter-noop = 无变化
pt-filter-all = 全部
pt-layout-side = 并排
pt-layout-stacked = 上下
pt-fold-unchanged = 折叠未变化行
pt-expand-all = 全部展开
pt-long-line = { $count } 个字符：不着色显示
pt-unchanged-lines = ⋯ { $count } 行未变化（单击展开）
pt-unchanged-lines-png = ⋯ { $count } 行未变化
pt-diff-cancelled = 已取消计算差异。
pt-diff-again = 重新计算差异
pt-damaged-title = 文件损坏或被截断（差异按读取到的内容显示）：
pt-damaged-after = 此快照已损坏或被截断：差异按读取到的内容显示。
pt-damaged-before = 此 Pass 所比较的快照已损坏或被截断：差异按读取到的内容显示。
pt-damaged-compared-with = （被比较的快照）
