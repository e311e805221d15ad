//! Timelines that jobs build, handed to the page: a load job's timeline of the dataset the
//! page opens first arrives after the dataset's summary ([`receive_prebuilt`], started by the
//! open flow) and goes to the page's `Timeline` request, the one waiting or the next; any
//! built timeline's answer is sent with its render columns and its query index kept
//! ([`hand_over`], also for the timeline handler's own jobs).

use pypto_analysis::timeline::Timeline;
use pypto_protocol::timeline::{TimelineHeader, TimelineRequest};

use crate::bench_log::bench_log;
use crate::jobs;
use crate::store::{Prebuilt, StoredTimeline, SESSION};
use crate::transport::Reply;

/// Answers a timeline request with a built timeline and keeps its index.
pub(crate) fn hand_over(
    timeline_id: u32,
    dataset_ids: &[u32],
    mut header: TimelineHeader,
    t: Timeline,
    columns: &wasm_bindgen::JsValue,
    reply: Reply<TimelineRequest>,
) {
    header.timeline_id = timeline_id;
    reply.send_object(header, columns);
    SESSION.with_borrow_mut(|s| {
        s.timelines.insert(timeline_id, StoredTimeline { dataset_ids: dataset_ids.to_vec(), timeline: t });
    });
}

/// A timeline job's answer read: the header, the query index and the render columns.
pub(crate) fn built_timeline(
    answer: Result<(jobs::FromJob, wasm_bindgen::JsValue), String>,
) -> Result<(TimelineHeader, Timeline, wasm_bindgen::JsValue), String> {
    let (reply, columns) = answer?;
    let jobs::FromJob::TimelineBuilt { header } = reply else { return Err("the job built no timeline".to_owned()) };
    let index = jobs::decode_at::<Timeline>(&columns, "index")?;
    let render = js_sys::Reflect::get(&columns, &wasm_bindgen::JsValue::from_str("timeline")).unwrap_or(wasm_bindgen::JsValue::UNDEFINED);
    Ok((header, index, render))
}

/// Waits for a load job's timeline ([`Prebuilt`]): handed to the page at once when it asked
/// for it meanwhile (the last request; the page superseded the earlier ones), else kept until
/// it does.
pub(crate) async fn receive_prebuilt(generation: u64, dataset_id: u32, done: jobs::Answer) {
    let answer = built_timeline(jobs::answer(done).await);
    let waiting = SESSION.with_borrow_mut(|s| {
        if s.generation != generation {
            return None;
        }
        match s.prebuilt.remove(&dataset_id) {
            Some(Prebuilt::Pending(waiting)) => Some(waiting),
            _ => None,
        }
    });
    let Some(mut waiting) = waiting else { return };
    match answer {
        Ok((header, t, render)) => {
            bench_log(&format!("pypto-worker timeline of dataset {dataset_id}: {} bars, built by the load job", t.source.len()));
            match waiting.pop() {
                Some((timeline_id, reply)) => hand_over(timeline_id, &[dataset_id], header, t, &render, reply),
                None => SESSION.with_borrow_mut(|s| {
                    s.prebuilt.insert(dataset_id, Prebuilt::Ready { header, timeline: t, columns: render });
                }),
            }
        }
        Err(message) => {
            if let Some((_, reply)) = waiting.pop() {
                reply.fail(format!("the timeline could not be built: {message}"));
            }
        }
    }
}
