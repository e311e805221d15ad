//! Getting a folder's files from the user, read-only: the File System Access picker, the
//! `<input webkitdirectory>` fallback, and drag and drop. Each walks the folder once into
//! entries (relative path, size) and the matching `File`s; no bytes are read here.

use pypto_protocol::datasets::EntryMeta;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = window, js_name = showDirectoryPicker, catch)]
    fn show_directory_picker_js(options: &JsValue) -> Result<js_sys::Promise, JsValue>;
}

/// A walked folder: display label, entries and their files in the same order.
pub struct Walked {
    pub label: String,
    pub entries: Vec<EntryMeta>,
    pub files: js_sys::Array,
}

impl Walked {
    fn new(label: String) -> Self {
        Self { label, entries: Vec::new(), files: js_sys::Array::new() }
    }

    fn push(&mut self, path: String, file: &web_sys::File) {
        self.entries.push(EntryMeta { path, size_bytes: file.size() as u64 });
        self.files.push(file);
    }
}

/// Whether the File System Access directory picker exists here (Chromium, same-origin).
pub fn has_directory_picker() -> bool {
    web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &JsValue::from_str("showDirectoryPicker")).ok())
        .is_some_and(|f| f.is_function())
}

fn error_text(err: &JsValue) -> String {
    js_sys::Reflect::get(err, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| err.as_string())
        .unwrap_or_else(|| format!("{err:?}"))
}

fn is_abort(err: &JsValue) -> bool {
    js_sys::Reflect::get(err, &JsValue::from_str("name")).ok().and_then(|n| n.as_string()).as_deref() == Some("AbortError")
}

/// Asks for a folder with `showDirectoryPicker({mode: "read"})` and walks it.
/// `Ok(None)` when the user cancelled.
pub async fn pick_and_walk() -> Result<Option<Walked>, String> {
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&options, &JsValue::from_str("mode"), &JsValue::from_str("read"));
    let promise = show_directory_picker_js(&options).map_err(|e| error_text(&e))?;
    let handle = match JsFuture::from(promise).await {
        Ok(handle) => handle,
        Err(err) if is_abort(&err) => return Ok(None),
        Err(err) => return Err(error_text(&err)),
    };
    let root: web_sys::FileSystemDirectoryHandle = handle.dyn_into().map_err(|_| "the picker returned no folder".to_string())?;
    walk_handle(root).await.map(Some)
}

/// Walks a directory handle depth-first with an explicit stack.
pub async fn walk_handle(root: web_sys::FileSystemDirectoryHandle) -> Result<Walked, String> {
    let mut walked = Walked::new(root.name());
    let mut stack: Vec<(String, web_sys::FileSystemDirectoryHandle)> = vec![(String::new(), root)];
    while let Some((prefix, dir)) = stack.pop() {
        let iterator = dir.values();
        loop {
            let next = JsFuture::from(iterator.next().map_err(|e| error_text(&e))?).await.map_err(|e| error_text(&e))?;
            if js_sys::Reflect::get(&next, &JsValue::from_str("done")).ok().and_then(|d| d.as_bool()).unwrap_or(true) {
                break;
            }
            let value = js_sys::Reflect::get(&next, &JsValue::from_str("value")).map_err(|e| error_text(&e))?;
            let handle: web_sys::FileSystemHandle = value.unchecked_into();
            let path = format!("{prefix}{}", handle.name());
            if handle.kind() == web_sys::FileSystemHandleKind::Directory {
                stack.push((format!("{path}/"), handle.unchecked_into()));
            } else {
                let file_handle: web_sys::FileSystemFileHandle = handle.unchecked_into();
                let file = JsFuture::from(file_handle.get_file()).await.map_err(|e| error_text(&e))?;
                walked.push(path, &file.unchecked_into());
            }
        }
    }
    Ok(walked)
}

/// The files of an `<input type=file webkitdirectory>`: paths come as `top/a/b.json`.
pub fn walk_file_list(list: &web_sys::FileList) -> Walked {
    let mut walked = Walked::new(String::new());
    for i in 0..list.length() {
        let Some(file) = list.item(i) else { continue };
        let relative =
            js_sys::Reflect::get(&file, &JsValue::from_str("webkitRelativePath")).ok().and_then(|v| v.as_string()).unwrap_or_default();
        let relative = if relative.is_empty() { file.name() } else { relative };
        let (top, rest) = relative.split_once('/').unwrap_or(("", relative.as_str()));
        if walked.label.is_empty() {
            walked.label = top.to_string();
        }
        walked.push(rest.to_string(), &file);
    }
    walked
}

/// The next batch of a directory entry's children (the promise's own resolve and reject are
/// the callbacks).
fn read_entries_batch(reader: &web_sys::FileSystemDirectoryReader) -> js_sys::Promise {
    let reader = reader.clone();
    js_sys::Promise::new(&mut move |resolve, reject| {
        let _ = reader.read_entries_with_callback_and_callback(&resolve, &reject);
    })
}

/// A file entry's `File`.
fn entry_file(entry: &web_sys::FileSystemFileEntry) -> js_sys::Promise {
    let entry = entry.clone();
    js_sys::Promise::new(&mut move |resolve, reject| entry.file_with_callback_and_callback(&resolve, &reject))
}

/// Walks the folders (and loose files) dropped on the page.
pub async fn walk_drop(transfer: &web_sys::DataTransfer) -> Result<Walked, String> {
    let items = transfer.items();
    let mut roots: Vec<web_sys::FileSystemEntry> = Vec::new();
    for i in 0..items.length() {
        if let Some(item) = items.get(i) {
            if let Ok(Some(entry)) = item.webkit_get_as_entry() {
                roots.push(entry);
            }
        }
    }
    if roots.is_empty() {
        // No entry API (or items made by a script): take the dropped files as they are.
        let mut walked = Walked::new("dropped files".to_string());
        if let Some(files) = transfer.files() {
            for i in 0..files.length() {
                if let Some(file) = files.item(i) {
                    walked.push(file.name(), &file);
                }
            }
        }
        return Ok(walked);
    }
    // One dropped folder is the opened folder itself; several items keep their names.
    let single_dir = roots.len() == 1 && roots.first().is_some_and(web_sys::FileSystemEntry::is_directory);
    let label =
        if single_dir { roots.first().map(web_sys::FileSystemEntry::name).unwrap_or_default() } else { "dropped items".to_string() };
    let mut walked = Walked::new(label);
    let mut stack: Vec<(String, web_sys::FileSystemEntry)> =
        roots.into_iter().map(|entry| (if single_dir { String::new() } else { entry.name() }, entry)).collect();
    while let Some((path, entry)) = stack.pop() {
        if entry.is_directory() {
            let dir: web_sys::FileSystemDirectoryEntry = entry.unchecked_into();
            let reader = dir.create_reader();
            loop {
                let batch = JsFuture::from(read_entries_batch(&reader)).await.map_err(|e| error_text(&e))?;
                let batch: js_sys::Array = batch.unchecked_into();
                if batch.length() == 0 {
                    break;
                }
                for child in batch.iter() {
                    let child: web_sys::FileSystemEntry = child.unchecked_into();
                    let child_path = if path.is_empty() { child.name() } else { format!("{path}/{}", child.name()) };
                    stack.push((child_path, child));
                }
            }
        } else {
            let file_entry: web_sys::FileSystemFileEntry = entry.unchecked_into();
            let file = JsFuture::from(entry_file(&file_entry)).await.map_err(|e| error_text(&e))?;
            walked.push(path, &file.unchecked_into());
        }
    }
    Ok(walked)
}
