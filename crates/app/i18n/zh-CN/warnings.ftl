# 读取器与分析的警告（pypto_vocab::Warning），每个 WarningKind 一条：`warning-<kind key>`，参数取自
# Warning::args。记录列表（$rows、$tasks 等）按读取器写出的样子列出记录；$more 为未列出的条数（0：无）。

warning-records-negative-time = 已跳过 { $count } 行时间为负的记录：{ $rows }{ $more ->
        [0] {""}
       *[other] ，另有 { $more } 行
    }
warning-records-end-before-start = 已跳过 { $count } 行结束早于开始的记录：{ $rows }{ $more ->
        [0] {""}
       *[other] ，另有 { $more } 行
    }
warning-records-implausible-time = 已跳过 { $count } 行时间不合理的记录：{ $rows }{ $more ->
        [0] {""}
       *[other] ，另有 { $more } 行
    }
warning-records-two-task-shapes = 同时存在 `tasks` 与 `aicore_tasks`；已读取 `tasks`（对象格式）
warning-records-two-scheduler-shapes = 同时存在 `scheduler_tasks` 与 `aicpu_tasks`；已读取 `scheduler_tasks`
warning-records-mixed-widths = `{ $table }` 的各行列数不一致{ $table ->
        [aicore_tasks] ；按 { $columns } 列读取
       *[other] {""}
    }
warning-records-level-inferred = 缺少{ $shape ->
        [raw] 泳道级别
       *[other] 级别
    }字段；根据内容推断为级别 { $level }
warning-records-level-above-4 = 级别 { $level } 高于 4；按 4 读取
warning-records-stream-id-too-large = 调度流编号 { $id } 大得不合理；已跳过该流
warning-records-metric-out-of-range = 调度流 { $stream }：记录 { $record } 的指标超出范围
warning-records-stream-id-repeated = 调度流编号 { $id } 出现两次；保留后一个
warning-records-unknown-phase-kind = { $count } 条调度阶段记录的类型未知（已保留，未绘制）
warning-records-host-and-device-orchestrator = 主机编排的采集中也有 AICPU 编排器记录（时钟含义不明确）
warning-deps-empty = deps.json 中没有任务、张量或边
warning-deps-no-kernel-ids = 部分任务没有有效的 `kernel_ids`（旧版 deps.json）：无法解析其函数
warning-deps-kernel-id-below-minus-one = { $count } 个任务的 kernel id 小于 -1（只有 -1 表示无），未解析：{ $tasks }{ $more ->
        [0] {""}
       *[other] ，另有 { $more } 个
    }
warning-deps-block-num-below-one = { $count } 个任务的 block_num 小于 1，按 1 读取：{ $tasks }{ $more ->
        [0] {""}
       *[other] ，另有 { $more } 个
    }
warning-deps-edge-to-unlisted-task = deps.json 的边引用了 { $count } 个既不在其任务列表（{ $listed } 个任务）也不在记录中的任务：{ $tasks }{ $more ->
        [0] {""}
       *[other] ，另有 { $more } 个
    }
warning-name-map-entry-skipped = 已跳过 { $count } 个名称映射条目：{ $entries }{ $more ->
        [0] {""}
       *[other] ，另有 { $more } 个
    }
warning-name-map-null = `callable_id_to_name` 为 null：文件未给出任何函数名
warning-cpm-task-on-and-off-path = 任务 { $task }：{ $on } 个条块在路径上，{ $off } 个被改名移出路径；按在路径上计
warning-cpm-no-task-bars = 没有 Worker View 任务条块（ph X、pid { $pid }、args.taskId）：路径为空
warning-trace-bad-task-ids = { $count } 个 args.taskId/args.task_id 值不是整数，已忽略
warning-trace-unmatched-begin = { $count } 个 B 事件没有对应的 E：绘制到该线程的最后时间戳
warning-trace-unmatched-end = { $count } 个 E 事件没有对应的 B：未绘制
warning-trace-negative-duration = { $count } 个 X 事件的 dur 为负，按零长度绘制（第一个：{ $first }）
warning-trace-time-out-of-range = { $count } 个事件的时间超出 ±2^63 ns（±292 年，Perfetto 的范围），未绘制（第一个：{ $first }）
warning-host-phase-skipped = { $reason ->
        [truncated] 行提前结束（被截断？），已跳过该轮
        [not-json] 不是有效的 JSON，已跳过该轮
        [not-a-pass] 应为一轮准备的对象 `{"{"}"pid", "inv", "records": [...]{"}"}`，已跳过该行
        [records-not-array] `records` 不是数组，已跳过该轮
        [bad-record] records[{ $index }]：应有 `phase` 及整数 `start_ns`/`end_ns`，已跳过该记录
       *[empty] 文件中没有任何一轮准备（为空）：没有可显示的主机准备阶段
    }
warning-host-phase-implausible-time = { $count } 条主机准备记录未绘制：{ $records }{ $more ->
        [0] {""}
       *[other] ，另有 { $more } 条
    }
warning-host-phase-records-dropped = 记录器丢弃了这一轮的 { $count } 条记录：其阶段不完整
warning-host-phase-no-host-clock = { $count } 条主机准备记录未显示：泳道记录不是主机编排的，没有可用于放置它们的主机时钟
warning-join-duplicate-key = { $count } 个重复的 AICore 关联键（core_id, reg_task_id）；以后一行为准
warning-join-unpartnered-aicpu-rows = 已丢弃 { $count } 行没有对应 AICore 行的 AICPU 记录（AICore 缓冲区丢失？）；最多的核：{ $cores }
warning-join-no-aicpu-rows = 级别 { $level } 但没有 AICPU 行：无法关联任何任务（{ $rows } 行 AICore 记录未使用）
warning-clock-not-calibrated = 主机编排的采集没有可用的时钟锚点：设备时间放在主机编排窗口之后（近似；跨域间隔未知）
warning-dummy-task-without-record = deps.json 中有 { $count } 个虚任务没有 dummy_task 调度记录（未绘制）：{ $tasks }
warning-critical-path-from-microseconds = 对象格式的记录以 µs 而非周期为单位：按 round(µs × { $freq } / 1e6) 重建节拍
warning-critical-path-several-epochs = 记录含多个运行轮次：同一任务 id 在各轮次的行已合并
warning-critical-path-without-deps = 没有 deps.json：关键路径只使用同核链接（无数据边）
warning-critical-path-failed = 未能计算关键路径：{ $error }
warning-edge-mode-fallback = 警告：依赖图有环；跳过传递归约，改为输出完整图（--edge-mode { $mode } 被忽略）
