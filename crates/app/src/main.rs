//! Entry point of the `pypto-app` page binary: mounts the Leptos UI.
fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(pypto_app::App);
}
