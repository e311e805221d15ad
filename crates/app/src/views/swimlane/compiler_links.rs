//! The swimlane toolbar's way from what ran to what was compiled (toolkit-features.md A10,
//! A11): "IR Pass Trace" and "Memory Map" open the pass dump of the capture's case (discovery's
//! `pass_dumps`: same directory, parent, beside `dfx_outputs`; the newest first, the others
//! offered in a list). With a task selected they open its kernel's IR function (the rule is
//! `pypto_vocab::kernel_function`'s; the opened view says what matched, or that nothing did).
//!
//! Test ids: `swim-open-pass-trace`, `swim-open-memory-map` (`data-dump` = the dump's path,
//! `data-kernel`), `swim-pass-dump` (the list, when there are several).

use crate::i18n::{t, tr, tr_with, Arg};
use leptos::prelude::*;
use pypto_protocol::{Feature, ViewKind};

use super::SwimlaneUi;
use crate::nav::{CompilerTarget, Nav, OpenedFrom};
use crate::session::Session;

/// The shown runtime dataset's path and its pass dumps: `(dataset id, path, has a memory map)`.
fn dumps(session: Session, nav: Nav) -> (String, Vec<(u32, String, bool)>) {
    let Some(first) = nav.dataset() else { return (String::new(), Vec::new()) };
    let Some((path, paths)) =
        session.datasets.with(|rows| rows.iter().find(|r| r.id() == first).map(|r| (r.info.path.clone(), r.info.pass_dumps.clone())))
    else {
        return (String::new(), Vec::new());
    };
    let found = session.datasets.with(|rows| {
        paths
            .iter()
            .filter_map(|p| rows.iter().find(|r| r.info.path == *p).map(|r| (r.id(), p.clone(), r.enables(Feature::MemoryReuse))))
            .collect()
    });
    (path, found)
}

/// The runtime dataset's path, or "the folder" in the page language when it is the folder itself.
fn label(path: &str) -> String {
    if path.is_empty() {
        tr("cn-the-folder")
    } else {
        path.to_owned()
    }
}

/// The two buttons (and the dump list when the case has several dumps).
#[component]
pub fn CompilerButtons() -> impl IntoView {
    let (session, nav, swim) = (Session::get(), Nav::get(), SwimlaneUi::get());
    let found = Memo::new(move |_| dumps(session, nav));
    // The chosen dump's index in the list (0 = the newest); back to it when the list changes.
    let chosen = RwSignal::new(0usize);
    Effect::new(move |_| {
        found.track();
        chosen.set(0);
    });
    let current = move || found.with(|(_, d)| d.get(chosen.get()).or_else(|| d.first()).cloned());
    let kernel = move || swim.details.with(|d| d.as_ref().and_then(|d| d.kernel.clone()));
    let open = move |view: ViewKind| {
        let Some((id, dump, _)) = current() else { return };
        let (runtime, count) = found.with_untracked(|(p, d)| (p.clone(), d.len()));
        let from = OpenedFrom { runtime, dump, count, chosen: chosen.get_untracked() };
        let target = match kernel() {
            Some(kernel) => CompilerTarget::Kernel { kernel, from },
            None => CompilerTarget::Dump { from },
        };
        nav.show_compiler(id, view, target);
    };
    let title = move |what_id: &str, needs_map: bool| {
        let (runtime, _) = found.get();
        let what = tr(what_id);
        match current() {
            None => tr_with("sw-no-pass-dump-found", &[("runtime", Arg::from(label(&runtime)))]),
            Some((_, dump, false)) if needs_map => tr_with("sw-pass-dump-no-memory-map", &[("dump", Arg::from(dump))]),
            Some((_, dump, _)) => match kernel() {
                Some(k) => tr_with("sw-open-kernel-in", &[("kernel", Arg::from(k)), ("what", Arg::from(what)), ("dump", Arg::from(dump))]),
                None => tr_with("sw-open-view-of", &[("what", Arg::from(what)), ("dump", Arg::from(dump))]),
            },
        }
    };
    let dump_path = move || current().map(|(_, p, _)| p).unwrap_or_default();
    let list = move || {
        let (_, d) = found.get();
        (d.len() > 1).then(|| {
            let options = d
                .iter()
                .enumerate()
                .map(|(i, (_, p, _))| {
                    let text = if i == 0 { tr_with("cn-dump-newest", &[("dump", Arg::from(p))]) } else { p.clone() };
                    view! { <option value=i.to_string() selected=move || chosen.get() == i>{text}</option> }
                })
                .collect_view();
            view! {
                <select id="swim-pass-dump" data-testid="swim-pass-dump" title=t("sw-the-pass-dumps-of-this")
                    on:change=move |ev| chosen.set(event_target_value(&ev).parse().unwrap_or(0))>{options}</select>
            }
        })
    };
    view! {
        <span class="compiler-links">
            <button id="swim-open-pass-trace" data-testid="swim-open-pass-trace" data-dump=dump_path data-kernel=move || kernel().unwrap_or_default()
                disabled=move || current().is_none() title=move || title("sw-ir-pass-trace", false)
                on:click=move |_| open(ViewKind::PassTrace)>{t("sw-ir-pass-trace")}</button>
            <button id="swim-open-memory-map" data-testid="swim-open-memory-map" data-dump=dump_path
                disabled=move || !current().is_some_and(|c| c.2) title=move || title("sw-memory-map", true)
                on:click=move |_| open(ViewKind::MemoryReuse)>{t("sw-memory-map")}</button>
            {list}
        </span>
    }
}
