//! Overview tab: task count, time span, Task Time, AICore Time, utilisation, exec/latency
//! ratio, the collection level and what it allows, and the readers' warnings. Every value
//! carries `data-testid="ov-{key}"` and its full-precision number in `data-value`.

use crate::i18n::{t, tr, tr_with, warning_message, Arg};
use leptos::prelude::*;
use pypto_render::axis;

use super::Panel;

/// One labelled value.
fn stat(test_id: &'static str, label: fn() -> String, value: Option<f64>, text: String, tip: fn() -> String) -> impl IntoView {
    let raw = value.map(|v| format!("{v}")).unwrap_or_default();
    view! {
        <div class="ov-stat" title=tip>
            <span class="ov-label">{label}</span>
            <span class="ov-value" data-testid=test_id data-value=raw>{text}</span>
        </div>
    }
}

/// What a collection level allows the viewer to show (the worker's `level_allows`, by level).
fn level_allows(level: u32) -> String {
    tr(match level {
        1 => "pa-ov-level-allows-1",
        2 => "pa-ov-level-allows-2",
        3 => "pa-ov-level-allows-3",
        4 => "pa-ov-level-allows-4",
        _ => "pa-ov-level-allows-unknown",
    })
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
        let pct = |v: Option<f64>| v.map_or_else(|| tr("pa-ov-needs-level-2"), |p| format!("{p:.2} %"));
        view! {
            <div class="ov-grid">
                {stat("ov-tasks", || tr("pa-ov-tasks"), Some(o.tasks as f64), o.tasks.to_string(), || tr("pa-ov-tasks-tip"))}
                {stat("ov-rows", || tr("pa-ov-rows"), Some(o.rows as f64), o.rows.to_string(), || tr("pa-ov-rows-tip"))}
                {stat("ov-first_start_us", || tr("pa-ov-first-start-us"), Some(o.first_start_us), us(o.first_start_us), || tr("pa-ov-first-start-us-tip"))}
                {stat("ov-last_end_us", || tr("pa-ov-last-end-us"), Some(o.last_end_us), us(o.last_end_us), || tr("pa-ov-last-end-us-tip"))}
                {stat("ov-span_us", || tr("pa-ov-span-us"), Some(span), us(span), || tr("pa-ov-span-us-tip"))}
                {stat("ov-task_time_us", || tr("pa-ov-task-time-us"), Some(o.task_time_us), us(o.task_time_us), || tr("pa-ov-task-time-us-tip"))}
                {stat("ov-aicore_time_us", || tr("pa-ov-aicore-time-us"), Some(o.aicore_time_us), us(o.aicore_time_us), || tr("pa-ov-aicore-time-us-tip"))}
                {stat("ov-active_cores", || tr("pa-ov-active-cores"), Some(o.active_cores as f64),
                    format!("{} ({} AIC, {} AIV)", o.active_cores, o.active_aic_cores, o.active_aiv_cores), || tr("pa-ov-active-cores-tip"))}
                {stat("ov-utilisation_pct", || tr("pa-ov-utilisation-pct"), Some(o.utilisation_pct), format!("{:.2} %", o.utilisation_pct),
                    || tr("pa-ov-utilisation-pct-tip"))}
                {stat("ov-total_test_time_us", || tr("pa-ov-total-test-time-us"), o.total_test_time_us,
                    o.total_test_time_us.map_or_else(|| tr("pa-ov-needs-level-2"), us), || tr("pa-ov-total-test-time-us-tip"))}
                {stat("ov-exec_latency_pct", || tr("pa-ov-exec-latency-pct"), o.exec_latency_pct, pct(o.exec_latency_pct),
                    || tr("pa-ov-exec-latency-pct-tip"))}
                {stat("ov-avg_exec_us", || tr("pa-ov-avg-exec-us"), o.avg_exec_us, o.avg_exec_us.map_or_else(|| "—".to_string(), us), || tr("pa-ov-avg-exec-us-tip"))}
                {stat("ov-avg_latency_us", || tr("pa-ov-avg-latency-us"), o.avg_latency_us, o.avg_latency_us.map_or_else(|| "—".to_string(), us), || tr("pa-ov-avg-latency-us-tip"))}
                {stat("ov-level", || tr("pa-ov-level"), Some(f64::from(o.level)), tr_with("pa-ov-level-n", &[("level", Arg::from(o.level))]), || tr("pa-ov-level-tip"))}
            </div>
            <p class="ov-level" data-testid="ov-level-allows">{level_allows(o.level)}</p>
            <h3 class="ov-warnings-title">{t("pa-warnings")}</h3>
            {if o.warnings.is_empty() {
                view! { <p class="hint" data-testid="ov-no-warnings">{t("pa-the-readers-reported-no-warnings")}</p> }.into_any()
            } else {
                view! {
                    <ul class="ov-warnings" data-testid="ov-warnings">
                        {o.warnings.iter().map(|w| view! { <li data-kind=w.kind.key()>{warning_message(w)}</li> }).collect_view()}
                    </ul>
                }.into_any()
            }}
        }
        .into_any()
    }
}
