//! Browser tests of the WebGL2 renderer and the text overlay (headless Chromium through
//! wasm-bindgen-test-runner): draw, then read pixels back in the same task.
#![cfg(target_arch = "wasm32")]
#![allow(clippy::expect_used)] // a test may panic on a broken browser environment

use pypto_render::camera::TimeCamera;
use pypto_render::lanes::{emit_bars, visible_range, LaneGeometry};
use pypto_render::text::TextOverlay;
use pypto_render::{GlRenderer, LineInstance, RectInstance};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::HtmlCanvasElement;

wasm_bindgen_test_configure!(run_in_browser);

const RED: [u8; 4] = [255, 0, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];
const GREEN: [u8; 4] = [0, 255, 0, 255];
const WHITE: [u8; 4] = [255, 255, 255, 255];

fn canvas() -> HtmlCanvasElement {
    let document = web_sys::window().and_then(|w| w.document()).expect("document");
    let canvas = document.create_element("canvas").expect("create canvas");
    document.body().expect("body").append_child(&canvas).expect("append");
    canvas.dyn_into::<HtmlCanvasElement>().expect("a canvas")
}

fn renderer(css_w: f32, css_h: f32, dpr: f32) -> GlRenderer {
    let mut r = GlRenderer::new(&canvas()).expect("WebGL2 renderer");
    r.resize(css_w, css_h, dpr);
    r
}

#[wasm_bindgen_test]
fn rects_and_lines_land_where_expected() {
    let mut r = renderer(200.0, 100.0, 1.0);
    assert_eq!((r.canvas().width(), r.canvas().height()), (200, 100));
    r.begin_frame([1.0, 1.0, 1.0, 1.0]);
    r.draw_rects(&[
        RectInstance { x: 10.0, y: 10.0, w: 50.0, h: 30.0, rgba: RED },
        RectInstance { x: 100.0, y: 10.0, w: 20.0, h: 20.0, rgba: GREEN },
    ]);
    r.draw_lines(&[LineInstance { x0: 0.0, y0: 80.5, x1: 200.0, y1: 80.5, width: 3.0, rgba: BLUE }]);

    assert_eq!(r.read_pixel(11.0, 11.0), Some(RED), "inside red, near its top-left corner");
    assert_eq!(r.read_pixel(59.0, 39.0), Some(RED), "inside red, near its bottom-right corner");
    assert_eq!(r.read_pixel(60.0, 20.0), Some(WHITE), "just right of red");
    assert_eq!(r.read_pixel(20.0, 40.0), Some(WHITE), "just below red");
    assert_eq!(r.read_pixel(9.0, 20.0), Some(WHITE), "just left of red");
    assert_eq!(r.read_pixel(110.0, 20.0), Some(GREEN));
    assert_eq!(r.read_pixel(150.0, 50.0), Some(WHITE));
    assert_eq!(r.read_pixel(150.0, 80.0), Some(BLUE), "on the line");
    assert_eq!(r.read_pixel(150.0, 84.0), Some(WHITE), "below the line");
    assert_eq!(r.read_pixel(250.0, 50.0), None, "outside the canvas");

    let s = r.stats();
    assert_eq!((s.rects_drawn, s.lines_drawn, s.draw_calls), (2, 1, 2));
}

#[wasm_bindgen_test]
fn device_pixel_ratio_scissor_and_thin_rects() {
    let mut r = renderer(100.0, 50.0, 2.0);
    assert_eq!((r.canvas().width(), r.canvas().height()), (200, 100));
    r.begin_frame([0.0, 0.0, 0.0, 1.0]);
    // A rect far thinner than a device pixel is still drawn one device pixel wide.
    r.draw_rects(&[RectInstance { x: 5.0, y: 5.0, w: 0.01, h: 10.0, rgba: GREEN }]);
    assert_eq!(r.read_pixel(5.0, 10.0), Some(GREEN));
    assert_eq!(r.read_pixel(5.5, 10.0), Some([0, 0, 0, 255]));

    // Scissor to the left half: a full-canvas rect only colours the left half.
    r.set_scissor(Some((0.0, 0.0, 50.0, 50.0)));
    r.draw_rects(&[RectInstance { x: 0.0, y: 0.0, w: 100.0, h: 50.0, rgba: RED }]);
    r.set_scissor(None);
    assert_eq!(r.read_pixel(49.0, 25.0), Some(RED));
    assert_eq!(r.read_pixel(51.0, 25.0), Some([0, 0, 0, 255]));
    // Pixel position maps with dpr: CSS (30.25, 40.75) is device (60, 81).
    r.draw_rects(&[RectInstance { x: 30.0, y: 40.5, w: 0.5, h: 0.5, rgba: BLUE }]);
    assert_eq!(r.read_pixel(30.25, 40.75), Some(BLUE));
    assert_eq!(r.read_pixel(30.75, 40.75), Some(RED));
}

#[wasm_bindgen_test]
fn blending_is_straight_alpha_over() {
    let mut r = renderer(10.0, 10.0, 1.0);
    r.begin_frame([1.0, 1.0, 1.0, 1.0]);
    r.draw_rects(&[RectInstance { x: 0.0, y: 0.0, w: 10.0, h: 10.0, rgba: [0, 0, 0, 128] }]);
    let px = r.read_pixel(5.0, 5.0).expect("pixel");
    assert!((126..=128).contains(&px[0]) && px[3] == 255, "{px:?}");
}

#[wasm_bindgen_test]
fn buffers_grow_and_are_reused() {
    let mut r = renderer(300.0, 100.0, 1.0);
    let mut rects = Vec::new();
    for frame in 0..3 {
        rects.clear();
        // 30_000 one-pixel rects: grows the instance buffer on the first frame.
        for i in 0..30_000u32 {
            let x = (i % 300) as f32;
            let y = (i / 300) as f32;
            let c = if frame == 2 && i == 0 { BLUE } else { RED };
            rects.push(RectInstance { x, y, w: 1.0, h: 1.0, rgba: c });
        }
        r.begin_frame([1.0, 1.0, 1.0, 1.0]);
        r.draw_rects(&rects);
        r.draw_rects(&rects[..10]);
        let s = r.stats();
        assert_eq!((s.rects_drawn, s.draw_calls), (30_010, 2));
        assert_eq!(r.read_pixel(299.5, 99.5), Some(RED));
    }
    assert_eq!(r.read_pixel(0.5, 0.5), Some(BLUE));
}

#[wasm_bindgen_test]
fn arrows_draw_a_head() {
    let mut r = renderer(100.0, 40.0, 1.0);
    r.begin_frame([1.0, 1.0, 1.0, 1.0]);
    r.draw_arrows(&[LineInstance { x0: 10.0, y0: 20.5, x1: 90.0, y1: 20.5, width: 1.0, rgba: BLUE }], 10.0);
    assert_eq!(r.read_pixel(50.0, 20.0), Some(BLUE), "shaft");
    assert_eq!(r.read_pixel(82.0, 18.0), Some(BLUE), "head is wider than the shaft");
    assert_eq!(r.read_pixel(91.0, 20.0), Some(WHITE), "nothing beyond the tip");
    assert_eq!(r.read_pixel(50.0, 17.0), Some(WHITE));
    assert_eq!(r.stats().draw_calls, 2);
}

#[wasm_bindgen_test]
fn lane_bars_through_camera_render() {
    let mut cam = TimeCamera::new(200.0);
    cam.fit(1e9, 1e9 + 100.0);
    let start = [1e9 + 10.0, 1e9 + 50.0];
    let end = [1e9 + 20.0, 1e9 + 60.0];
    let (t0, t1) = cam.visible_range_us();
    let mut rects = Vec::new();
    let n = emit_bars(&cam, &start, &end, visible_range(&start, &end, t0, t1), LaneGeometry { y: 0.0, h: 20.0 }, |_| RED, &mut rects);
    assert_eq!(n, 2);
    let mut r = renderer(200.0, 20.0, 1.0);
    r.begin_frame([1.0, 1.0, 1.0, 1.0]);
    r.draw_rects(&rects);
    let mid = cam.us_to_px(1e9 + 15.0) as f32;
    assert_eq!(r.read_pixel(mid, 10.0), Some(RED));
    let gap = cam.us_to_px(1e9 + 35.0) as f32;
    assert_eq!(r.read_pixel(gap, 10.0), Some(WHITE));
}

#[wasm_bindgen_test]
fn camera_zoom_keeps_anchor() {
    let mut cam = TimeCamera::new(1000.0);
    cam.fit(0.0, 5e8);
    let anchor = 640.0;
    let t = cam.px_to_us(anchor);
    for _ in 0..60 {
        cam.zoom_at(anchor, 1.5);
        assert!((cam.px_to_us(anchor) - t).abs() <= 1e-6_f64.max(t.abs() * 1e-15), "anchor moved");
    }
}

#[wasm_bindgen_test]
fn text_overlay_draws_and_measures() {
    let c = canvas();
    let mut t = TextOverlay::new(&c).expect("2d overlay");
    t.resize(120.0, 30.0, 2.0);
    assert_eq!((c.width(), c.height()), (240, 60));
    assert_eq!(c.style().get_property_value("pointer-events").ok().as_deref(), Some("none"));
    let font = "16px sans-serif";
    let w = t.measure("Hello", font);
    assert!(w > 10.0 && w < 100.0, "{w}");
    t.clear();
    t.fill_rect(0.0, 0.0, 10.0, 10.0, RED);
    t.fill_text("Hello", 20.0, 15.0, font, [0, 0, 0, 255]);
    t.line(0.0, 25.0, 120.0, 25.0, 2.0, BLUE);
    assert!(t.fill_text_fitted("A rather long label that will not fit", 0.0, 15.0, 60.0, font, [0, 0, 0, 255]));
    assert!(!t.fill_text_fitted("Wide", 0.0, 15.0, 1.0, font, [0, 0, 0, 255]));
    let data = t.context().get_image_data(5.0 * 2.0, 5.0 * 2.0, 1.0, 1.0).expect("image data").data();
    assert_eq!(data.to_vec(), vec![255, 0, 0, 255]);
}

#[wasm_bindgen_test]
fn webgl2_missing_is_a_clear_error() {
    // A canvas that already has a 2D context cannot give a WebGL2 one.
    let c = canvas();
    let _ctx = c.get_context("2d").expect("2d");
    let err = GlRenderer::new(&c).err().expect("must fail");
    assert!(err.to_string().contains("WebGL2"), "{err}");
}
