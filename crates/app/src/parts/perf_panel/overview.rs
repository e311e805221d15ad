//! Overview tab: task count, time span, Task Time, AICore Time, utilisation, exec/latency
//! ratio, the collection level and what it allows, and the readers' warnings. Every value
//! carries `data-testid="ov-{key}"` and its full-precision number in `data-value`.

use crate::i18n::t;
use leptos::prelude::*;
use pypto_render::axis;

use super::Panel;

/// One labelled value.
fn stat(key: &'static str, label: &'static str, value: Option<f64>, text: String, tip: &'static str) -> impl IntoView {
    let raw = value.map(|v| format!("{v}")).unwrap_or_default();
    view! {
        <div class="ov-stat" title=tip>
            <span class="ov-label">{label}</span>
            <span class="ov-value" data-testid=format!("ov-{key}") data-value=raw>{text}</span>
        </div>
    }
}

fn us(v: f64) -> String {
    axis::format_duration_us(v)
}

#[component]
pub fn OverviewTab() -> impl IntoView {
    let data = Panel::get().data();
    move || {
        let Some(d) = data.get() else {
            return view! { <p class="hint">{t("pa-computing-the-overview")}</p> }.into_any();
        };
        let o = d.overview.clone();
        let span = o.last_end_us - o.first_start_us;
        let pct = |v: Option<f64>| v.map_or_else(|| "— (needs level ≥ 2)".to_string(), |p| format!("{p:.2} %"));
        view! {
            <div class="ov-grid">
                {stat("tasks", "Tasks", Some(o.tasks as f64), o.tasks.to_string(), "distinct task ids with an AICore execution")}
                {stat("rows", "AICore executions", Some(o.rows as f64), o.rows.to_string(), "joined rows (an SPMD task counts once per block)")}
                {stat("first_start_us", "First start", Some(o.first_start_us), us(o.first_start_us), "earliest kernel start")}
                {stat("last_end_us", "Last end", Some(o.last_end_us), us(o.last_end_us), "latest kernel end")}
                {stat("span_us", "Time span", Some(span), us(span), "last end − first start")}
                {stat("task_time_us", "Task Time", Some(o.task_time_us), us(o.task_time_us), "last kernel end − first kernel start (setup excluded)")}
                {stat("aicore_time_us", "AICore Time", Some(o.aicore_time_us), us(o.aicore_time_us), "Σ kernel time over AICore executions (setup excluded)")}
                {stat("active_cores", "Active cores", Some(o.active_cores as f64),
                    format!("{} ({} AIC, {} AIV)", o.active_cores, o.active_aic_cores, o.active_aiv_cores), "cores with at least one execution")}
                {stat("utilisation_pct", "AICore utilisation", Some(o.utilisation_pct), format!("{:.2} %", o.utilisation_pct),
                    "AICore Time / (Task Time × active cores)")}
                {stat("total_test_time_us", "Total test time", o.total_test_time_us,
                    o.total_test_time_us.map_or_else(|| "— (needs level ≥ 2)".to_string(), us), "earliest dispatch → latest finish")}
                {stat("exec_latency_pct", "Exec / latency", o.exec_latency_pct, pct(o.exec_latency_pct),
                    "Σ kernel time / Σ dispatch→finish latency (scheduler overhead share)")}
                {stat("avg_exec_us", "Avg exec per task", o.avg_exec_us, o.avg_exec_us.map_or_else(|| "—".to_string(), us), "mean kernel time")}
                {stat("avg_latency_us", "Avg latency per task", o.avg_latency_us, o.avg_latency_us.map_or_else(|| "—".to_string(), us), "mean dispatch → finish")}
                {stat("level", "Collection level", Some(f64::from(o.level)), format!("level {}", o.level), "chip_swimlane_level of the records")}
            </div>
            <p class="ov-level" data-testid="ov-level-allows">{o.level_allows.clone()}</p>
            <h4>{t("pa-warnings")}</h4>
            {if o.warnings.is_empty() {
                view! { <p class="hint" data-testid="ov-no-warnings">{t("pa-the-readers-reported-no-warnings")}</p> }.into_any()
            } else {
                view! {
                    <ul class="ov-warnings" data-testid="ov-warnings">
                        {o.warnings.iter().map(|w| view! { <li>{w.clone()}</li> }).collect_view()}
                    </ul>
                }.into_any()
            }}
        }
        .into_any()
    }
}
