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
