// A job's entry (crates/worker/src/jobs.rs): the analysis worker starts its jobs from this script
// and posts its compiled WebAssembly.Module first, so a job instantiates that module instead of
// fetching and compiling the wasm again. Then the worker's `main` runs, says ready, and takes its
// `{ job }` message. A failed start is thrown in a task of its own, which the starting worker
// sees as the job's `error` event.
import init from './pypto-worker.js';

addEventListener('message', (event) => {
  init({ module_or_path: event.data.module }).catch((err) => setTimeout(() => { throw err; }));
}, { once: true });
