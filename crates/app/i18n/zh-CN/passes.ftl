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
# i18n-notes: the note a compiler view shows when another view opened it (compiler_note.rs)
cn-the-folder = 所开文件夹
cn-dump-newest = { $dump }（最新）
cn-from-run = 运行 { $runtime }，Pass 转储 { $dump }
cn-from-run-newest = 运行 { $runtime }，Pass 转储 { $dump }（{ $count } 个中最新的）
cn-from-run-chosen = 运行 { $runtime }，Pass 转储 { $dump }（从 { $count } 个中选定）
cn-opened-from = 打开自{ $from }。
cn-subject-kernel = Kernel { $kernel }（{ $from }）
cn-subject-tile = Tile { $tile }，定义于 { $snapshot }:{ $line }
cn-showing-function = 显示 { $function }，对应{ $subject }：{ $rule }。
cn-several-functions = 有多个函数匹配{ $subject }（{ $rule }）：{ $functions }。请在函数列表中选择一个。
cn-no-function = 此 Pass 转储中没有 IR 函数匹配{ $subject }：显示全部 { $count } 个函数。（Kernel 按名称、名称中的单词、单词开头或单词缩写匹配函数。）
cn-rule-exact = 名称相同
cn-rule-same-name = 忽略大小写及 kernel_/aic_/aiv_ 前缀后名称相同
cn-rule-words = Kernel 名是函数名中的一个单词
cn-rule-word-prefix = Kernel 名是函数名中某个单词的开头
cn-rule-abbreviation = Kernel 名是函数名中某个单词的缩写
