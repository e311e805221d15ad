# 编译器 Pass 快照的问题（IR Pass 追踪的标记与横幅、内存图、Pass 对比）：每个
# `pypto_vocab::SnapshotProblemKind` 一条消息，`snapshot-<key>`。英文与检查给出的原文逐字相同；
# Python 自己的报错措辞在此译为中文。$line 为从 1 开始的行号，$offset 为从 0 开始的字节偏移，$count 为数量。

-snapshot-cut = 文件在语句中间结束（被截断？）

snapshot-invalid-utf8 = 字节偏移 { $offset } 处不是有效的 UTF-8（{ $byte }；文件中共 { $count } 个无法解码的字节，显示为 U+FFFD）
snapshot-null-byte = 空字节：Python 源代码不能包含空字节（文件已损坏？）
snapshot-unterminated-string = 字符串字面量未结束
snapshot-unterminated-triple-quoted-string = 三引号字符串字面量未结束
snapshot-never-closed = '{ $bracket }' 始终没有闭合
snapshot-mismatched-bracket = 右括号 '{ $close }' 与左括号 '{ $open }' 不匹配
snapshot-mismatched-bracket-on-line = 右括号 '{ $close }' 与第 { $line } 行的左括号 '{ $open }' 不匹配
snapshot-unmatched-bracket = 没有与之匹配的左括号：'{ $bracket }'
snapshot-too-many-nested = 括号嵌套层数过多
snapshot-expected-indented-block = 第 { $line } 行的 ':' 之后应有缩进的代码块
snapshot-unexpected-indent = 意外的缩进
snapshot-unindent-mismatch = 减少缩进后与任何外层缩进级别都不一致
snapshot-statement-ends-with = 语法错误：语句以 '{ $token }' 结尾
snapshot-expected-colon = 此处应有 ':'
snapshot-decorator-without-def = 语法错误：装饰器之后必须是 def 或 class
snapshot-keyword-after-dot = 语法错误：'{ $keyword }' 是关键字，不能作为 '.' 之后的名称
snapshot-invalid-character = 无效字符 '{ $character }'（{ $code_point }）
snapshot-character-after-continuation = 续行符之后出现了意外的字符
snapshot-non-printable-character = 无效的不可打印字符 { $code_point }
snapshot-cut-nothing-follows = { -snapshot-cut }：'{ $token }' 之后没有内容
snapshot-cut-line-continuation = { -snapshot-cut }：续行符 '\' 之后没有内容
snapshot-cut-expected-colon = { -snapshot-cut }：{ snapshot-expected-colon }
snapshot-cut-decorator = { -snapshot-cut }：第 { $line } 行的装饰器之后没有 def 或 class
snapshot-cut-keyword-after-dot = { -snapshot-cut }：'{ $keyword }' 是关键字，不能作为 '.' 之后的名称
snapshot-empty-file = 文件为空：Pass 快照应包含整个程序（被截断，或从未写入？）
snapshot-ends-mid-line = 文件在一行中间结束，缺少每个快照都有的末尾换行符（被截断？）
