//! The load progress bar in the top bar, for a user waiting on a big capture: what the worker
//! is doing (reading a file, building the model, laying out the timeline or the graph,
//! computing a diff), a bar with its percent, bytes or steps done of all, the time left at the
//! rate so far, and a Cancel that stops the work (the worker terminates its load jobs; what
//! already loaded stays usable). It reads `session.progress`; the worker client sends the
//! cancel.

use leptos::prelude::*;
use pypto_protocol::datasets::ProgressStage;

use crate::i18n::{t, tr, tr_with, Arg};
use crate::session::{stage_message_id, LoadProgress, Session};
use crate::worker_client::WorkerClient;

/// `1.5 MB`, `240 MB`, `2.42 GB`: decimal units, as file managers show sizes.
pub fn fmt_bytes(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1e9 {
        format!("{:.2} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.0} kB", b / 1e3)
    } else {
        format!("{bytes} B")
    }
}

/// `1 min 05 s`, `12 s`, `< 1 s`: a time left.
fn fmt_seconds(seconds: f64) -> String {
    if seconds < 1.0 {
        return tr("progress-under-a-second");
    }
    let whole = seconds.round() as u64;
    if whole < 60 {
        tr_with("progress-seconds", &[("seconds", Arg::from(whole))])
    } else {
        tr_with("progress-minutes", &[("minutes", Arg::from(whole / 60)), ("seconds", Arg::from(format!("{:02}", whole % 60)))])
    }
}

/// "40.2 MB of 240 MB" or "3 of 7 steps".
fn amount_text(p: &LoadProgress) -> String {
    let (done, total) = (p.progress.done_bytes, p.progress.total_bytes);
    if p.stage().counts_bytes() {
        tr_with("progress-bytes", &[("done", Arg::from(fmt_bytes(done))), ("total", Arg::from(fmt_bytes(total)))])
    } else {
        tr_with("progress-steps", &[("done", Arg::from(done)), ("total", Arg::from(total))])
    }
}

/// The top bar's progress: nothing while the worker is idle.
#[component]
pub fn LoadProgressBar() -> impl IntoView {
    let (session, client) = (Session::get(), WorkerClient::get());
    let shown = move || session.progress.with(Option::is_some) || session.cancelling.get();
    let percent = move || session.progress.with(|p| p.as_ref().and_then(LoadProgress::fraction).map(|f| (f * 100.0).round() as u32));
    let stage = move || session.progress.with(|p| p.as_ref().map_or(ProgressStage::Read, LoadProgress::stage));
    let label = move || {
        if session.cancelling.get() {
            return tr("progress-cancelling");
        }
        session.progress.with(|p| {
            p.as_ref().map_or_else(String::new, |p| {
                tr_with(
                    "progress-what",
                    &[
                        ("stage", Arg::from(tr(stage_message_id(p.stage())))),
                        ("path", Arg::from(crate::session::progress_path_text(&p.progress))),
                    ],
                )
            })
        })
    };
    let detail = move || {
        session.progress.with(|p| {
            let Some(p) = p else { return String::new() };
            let amount = amount_text(p);
            let percent = p.fraction().map(|f| format!("{:.0}%", f * 100.0));
            let left = p.seconds_left().map(|s| tr_with("progress-left", &[("time", Arg::from(fmt_seconds(s)))]));
            [Some(amount), percent, left].into_iter().flatten().collect::<Vec<_>>().join(" · ")
        })
    };
    let cancel = move |_| client.cancel();
    view! {
        <Show when=shown>
            <div class="load-progress" data-testid="load-progress" role="group" aria-label=t("progress-group")
                data-stage=move || stage().key() data-percent=move || percent().map_or_else(String::new, |p| p.to_string())
                title=move || format!("{} · {}", label(), detail())>
                <span class="load-progress-label">{label}</span>
                <span class="load-progress-track" role="progressbar" aria-label=label aria-valuemin="0" aria-valuemax="100"
                    aria-valuenow=move || percent().map(|p| p.to_string())
                    class:indeterminate=move || percent().is_none()>
                    <span class="load-progress-fill" style:width=move || format!("{}%", percent().unwrap_or(100))></span>
                </span>
                <span class="load-progress-detail" data-testid="load-progress-detail">{detail}</span>
                <button class="load-progress-cancel" data-testid="cancel-load" title=t("progress-cancel-title")
                    disabled=move || session.cancelling.get() on:click=cancel>{t("progress-cancel")}</button>
            </div>
        </Show>
    }
}

#[cfg(test)]
mod tests {
    use super::fmt_bytes;

    #[test]
    fn bytes_read_in_decimal_units() {
        assert_eq!(fmt_bytes(512), "512 B");
        assert_eq!(fmt_bytes(40_200_000), "40.2 MB");
        assert_eq!(fmt_bytes(2_420_000_000), "2.42 GB");
    }
}
