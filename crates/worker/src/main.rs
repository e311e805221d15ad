//! Entry point of the `pypto-worker` web worker binary (built by Trunk as a module worker).
fn main() {
    pypto_worker::start();
}
