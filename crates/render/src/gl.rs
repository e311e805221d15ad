//! The WebGL2 renderer: instanced rectangles, lines and arrows in CSS pixels.
//!
//! Geometry is one shared unit quad (and one arrow-head triangle); every rectangle or line is
//! one *instance* whose attributes (position, size, colour) come from a per-instance buffer
//! advanced with `vertexAttribDivisor(…, 1)`. A batch of any size is one `drawArraysInstanced`
//! (split only above [`MAX_INSTANCES_PER_DRAW`]).
//!
//! Uploads go through a `Vec<u8>` kept by the renderer and `bufferSubData` from a `&[u8]`
//! (wasm-bindgen passes it as a view of wasm memory: no copy on the JS side, no `unsafe`).
//! GPU buffers grow by doubling and are reused, so after the first frames nothing is
//! allocated per frame. Colours are straight (non-premultiplied) RGBA8; the shaders
//! premultiply and blend with `ONE, ONE_MINUS_SRC_ALPHA` into a premultiplied-alpha canvas.
//!
//! Coordinates are CSS pixels, origin top-left; the renderer converts to device pixels with the
//! ratio given to [`GlRenderer::resize`]. Rects and lines thinner than one device pixel are
//! widened to one device pixel so nothing vanishes when zoomed out. A 1-px horizontal line is
//! crisp when its `y` is at a pixel centre (`n + 0.5` at ratio 1).

use wasm_bindgen::JsCast;
use web_sys::{
    HtmlCanvasElement, WebGl2RenderingContext as Gl, WebGlBuffer, WebGlContextAttributes, WebGlProgram, WebGlShader, WebGlUniformLocation,
    WebGlVertexArrayObject,
};

use crate::error::{js_text, RenderError};

/// An axis-aligned rectangle in CSS pixels, origin top-left, straight-alpha RGBA colour.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RectInstance {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
    pub rgba: [u8; 4],
}

/// A line segment from `(x0, y0)` to `(x1, y1)` in CSS pixels, `width` CSS pixels thick
/// (butt ends), straight-alpha RGBA colour.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LineInstance {
    pub x0: f32,
    pub y0: f32,
    pub x1: f32,
    pub y1: f32,
    pub width: f32,
    pub rgba: [u8; 4],
}

/// What the current frame has drawn so far (reset by [`GlRenderer::begin_frame`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameStats {
    pub rects_drawn: usize,
    pub lines_drawn: usize,
    /// `drawArraysInstanced` calls, arrow heads included.
    pub draw_calls: usize,
}

/// Largest number of instances in one draw call; bigger batches are split.
pub const MAX_INSTANCES_PER_DRAW: usize = 1 << 18;

const RECT_STRIDE: usize = 20; // x y w h (f32) + rgba (u8 x 4)
const LINE_STRIDE: usize = 24; // x0 y0 x1 y1 width (f32) + rgba (u8 x 4)
const MIN_BUFFER_BYTES: usize = 16 * 1024;

const RECT_VS: &str = r"#version 300 es
layout(location = 0) in vec2 a_corner;
layout(location = 1) in vec4 a_rect;
layout(location = 2) in vec4 a_color;
uniform vec2 u_viewport;
uniform float u_min_size;
out vec4 v_color;
void main() {
    vec2 size = max(a_rect.zw, vec2(u_min_size));
    vec2 p = a_rect.xy + a_corner * size;
    vec2 clip = p / u_viewport * 2.0 - 1.0;
    gl_Position = vec4(clip.x, -clip.y, 0.0, 1.0);
    v_color = vec4(a_color.rgb * a_color.a, a_color.a);
}
";

/// Lines and arrow heads. `u_head == 0`: the shaft, a quad from p0 to p1 shortened by
/// `u_shorten`; `u_head > 0`: an arrow head `u_head` px long whose tip is at p1.
const LINE_VS: &str = r"#version 300 es
layout(location = 0) in vec2 a_corner;
layout(location = 1) in vec4 a_seg;
layout(location = 2) in float a_width;
layout(location = 3) in vec4 a_color;
uniform vec2 u_viewport;
uniform float u_min_size;
uniform float u_head;
uniform float u_shorten;
out vec4 v_color;
void main() {
    vec2 p0 = a_seg.xy;
    vec2 p1 = a_seg.zw;
    vec2 d = p1 - p0;
    float len = length(d);
    vec2 dir = len > 1e-6 ? d / len : vec2(1.0, 0.0);
    vec2 n = vec2(-dir.y, dir.x);
    vec2 p;
    if (u_head > 0.0) {
        p = p1 + dir * (a_corner.x * u_head) + n * (a_corner.y * u_head);
    } else {
        vec2 q1 = p1 - dir * min(u_shorten, len);
        float w = max(a_width, u_min_size);
        p = p0 + (q1 - p0) * a_corner.x + n * ((a_corner.y - 0.5) * w);
    }
    vec2 clip = p / u_viewport * 2.0 - 1.0;
    gl_Position = vec4(clip.x, -clip.y, 0.0, 1.0);
    v_color = vec4(a_color.rgb * a_color.a, a_color.a);
}
";

const FS: &str = r"#version 300 es
precision mediump float;
in vec4 v_color;
out vec4 o_color;
void main() {
    o_color = v_color;
}
";

/// Unit quad as a triangle strip: (0,0) (1,0) (0,1) (1,1).
const QUAD: [f32; 8] = [0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0, 1.0];
/// Arrow head in (along, across) units of the head length: tip at the origin.
const HEAD: [f32; 6] = [0.0, 0.0, -1.0, 0.45, -1.0, -0.45];

struct Program {
    handle: WebGlProgram,
    u_viewport: Option<WebGlUniformLocation>,
    u_min_size: Option<WebGlUniformLocation>,
    u_head: Option<WebGlUniformLocation>,
    u_shorten: Option<WebGlUniformLocation>,
}

/// A GPU buffer that grows by doubling and is overwritten with `bufferSubData`.
struct InstanceBuffer {
    buffer: WebGlBuffer,
    capacity_bytes: usize,
}

impl InstanceBuffer {
    fn upload(&mut self, gl: &Gl, bytes: &[u8]) {
        gl.bind_buffer(Gl::ARRAY_BUFFER, Some(&self.buffer));
        if bytes.len() > self.capacity_bytes {
            let cap = bytes.len().max(MIN_BUFFER_BYTES).next_power_of_two();
            gl.buffer_data_with_i32(Gl::ARRAY_BUFFER, i32::try_from(cap).unwrap_or(i32::MAX), Gl::DYNAMIC_DRAW);
            self.capacity_bytes = cap;
        }
        gl.buffer_sub_data_with_i32_and_u8_array(Gl::ARRAY_BUFFER, 0, bytes);
    }
}

/// Draws instanced rectangles and lines on a WebGL2 canvas. See the module docs.
pub struct GlRenderer {
    canvas: HtmlCanvasElement,
    gl: Gl,
    rect_program: Program,
    line_program: Program,
    rect_vao: WebGlVertexArrayObject,
    line_vao: WebGlVertexArrayObject,
    head_vao: WebGlVertexArrayObject,
    rect_instances: InstanceBuffer,
    line_instances: InstanceBuffer,
    /// Reused staging bytes for instance uploads.
    scratch: Vec<u8>,
    css_width: f32,
    css_height: f32,
    dpr: f32,
    device_width: u32,
    device_height: u32,
    scissor_css: Option<(f32, f32, f32, f32)>,
    stats: FrameStats,
}

impl GlRenderer {
    /// Creates a WebGL2 context on `canvas` (no antialiasing, premultiplied alpha, no depth or
    /// stencil, drawing buffer not preserved), compiles the shaders and creates the buffers.
    /// The canvas keeps its current size until [`GlRenderer::resize`].
    pub fn new(canvas: &HtmlCanvasElement) -> Result<GlRenderer, RenderError> {
        let attrs = WebGlContextAttributes::new();
        attrs.set_alpha(true);
        attrs.set_antialias(false);
        attrs.set_depth(false);
        attrs.set_stencil(false);
        attrs.set_premultiplied_alpha(true);
        attrs.set_preserve_drawing_buffer(false);
        let gl: Gl = match canvas.get_context_with_context_options("webgl2", &attrs) {
            Ok(Some(ctx)) => ctx.dyn_into::<Gl>().map_err(|v| RenderError::Context(format!("not a WebGL2 context: {}", js_text(&v))))?,
            Ok(None) => return Err(RenderError::WebGl2Unavailable),
            Err(e) => return Err(RenderError::Context(js_text(&e))),
        };

        let rect_program = link(&gl, RECT_VS, FS)?;
        let line_program = link(&gl, LINE_VS, FS)?;
        let quad = static_buffer(&gl, &QUAD)?;
        let head = static_buffer(&gl, &HEAD)?;
        let rect_instances = InstanceBuffer { buffer: gl.create_buffer().ok_or(RenderError::Create("buffer"))?, capacity_bytes: 0 };
        let line_instances = InstanceBuffer { buffer: gl.create_buffer().ok_or(RenderError::Create("buffer"))?, capacity_bytes: 0 };

        let rect_vao = gl.create_vertex_array().ok_or(RenderError::Create("vertex array"))?;
        gl.bind_vertex_array(Some(&rect_vao));
        corner_attribute(&gl, &quad);
        gl.bind_buffer(Gl::ARRAY_BUFFER, Some(&rect_instances.buffer));
        instance_attribute(&gl, 1, 4, Gl::FLOAT, false, RECT_STRIDE, 0);
        instance_attribute(&gl, 2, 4, Gl::UNSIGNED_BYTE, true, RECT_STRIDE, 16);

        let line_vao = gl.create_vertex_array().ok_or(RenderError::Create("vertex array"))?;
        gl.bind_vertex_array(Some(&line_vao));
        corner_attribute(&gl, &quad);
        line_instance_attributes(&gl, &line_instances.buffer);

        let head_vao = gl.create_vertex_array().ok_or(RenderError::Create("vertex array"))?;
        gl.bind_vertex_array(Some(&head_vao));
        corner_attribute(&gl, &head);
        line_instance_attributes(&gl, &line_instances.buffer);

        gl.bind_vertex_array(None);
        gl.bind_buffer(Gl::ARRAY_BUFFER, None);
        gl.disable(Gl::DEPTH_TEST);
        gl.disable(Gl::CULL_FACE);
        gl.enable(Gl::BLEND);
        gl.blend_func(Gl::ONE, Gl::ONE_MINUS_SRC_ALPHA);

        let device_width = canvas.width().max(1);
        let device_height = canvas.height().max(1);
        Ok(GlRenderer {
            canvas: canvas.clone(),
            gl,
            rect_program,
            line_program,
            rect_vao,
            line_vao,
            head_vao,
            rect_instances,
            line_instances,
            scratch: Vec::new(),
            css_width: device_width as f32,
            css_height: device_height as f32,
            dpr: 1.0,
            device_width,
            device_height,
            scissor_css: None,
            stats: FrameStats::default(),
        })
    }

    /// Sizes the drawing buffer to `css × device_pixel_ratio` device pixels (rounded) and sets
    /// the viewport. The canvas' CSS size is the page layout's business; call this from a
    /// `ResizeObserver` or when `devicePixelRatio` changes. Cheap when nothing changed.
    pub fn resize(&mut self, css_width: f32, css_height: f32, device_pixel_ratio: f32) {
        let size = crate::CanvasSize::new(css_width, css_height, device_pixel_ratio);
        let (css_width, css_height, dpr) = (size.css_width, size.css_height, size.dpr);
        let (device_width, device_height) = size.apply_to(&self.canvas);
        self.css_width = css_width;
        self.css_height = css_height;
        self.dpr = dpr;
        self.device_width = device_width;
        self.device_height = device_height;
        self.gl.viewport(0, 0, to_i32(device_width), to_i32(device_height));
        self.apply_scissor();
    }

    /// Starts a frame: resets [`FrameStats`] and the scissor, and clears the whole canvas to
    /// `clear_rgba` (straight alpha, 0..1).
    pub fn begin_frame(&mut self, clear_rgba: [f32; 4]) {
        self.stats = FrameStats::default();
        self.scissor_css = None;
        self.gl.disable(Gl::SCISSOR_TEST);
        self.gl.viewport(0, 0, to_i32(self.device_width), to_i32(self.device_height));
        let [r, g, b, a] = clear_rgba.map(|c| if c.is_finite() { c.clamp(0.0, 1.0) } else { 0.0 });
        self.gl.clear_color(r * a, g * a, b * a, a);
        self.gl.clear(Gl::COLOR_BUFFER_BIT);
    }

    /// Draws `rects` in order (later ones on top) with one instanced draw call.
    pub fn draw_rects(&mut self, rects: &[RectInstance]) {
        for chunk in rects.chunks(MAX_INSTANCES_PER_DRAW) {
            self.scratch.clear();
            self.scratch.reserve(chunk.len() * RECT_STRIDE);
            for r in chunk {
                for v in [r.x, r.y, r.w, r.h] {
                    self.scratch.extend_from_slice(&v.to_le_bytes());
                }
                self.scratch.extend_from_slice(&r.rgba);
            }
            self.rect_instances.upload(&self.gl, &self.scratch);
            self.use_program(false);
            self.gl.bind_vertex_array(Some(&self.rect_vao));
            self.gl.draw_arrays_instanced(Gl::TRIANGLE_STRIP, 0, 4, to_i32(chunk.len()));
            self.stats.rects_drawn += chunk.len();
            self.stats.draw_calls += 1;
        }
        self.gl.bind_vertex_array(None);
    }

    /// Draws `lines` as quads along each segment with one instanced draw call.
    pub fn draw_lines(&mut self, lines: &[LineInstance]) {
        self.draw_segments(lines, 0.0);
    }

    /// Draws `arrows` as lines with a filled head `head_len` CSS px long at `(x1, y1)`: two
    /// instanced draw calls from one upload. The shaft stops where the head begins.
    pub fn draw_arrows(&mut self, arrows: &[LineInstance], head_len: f32) {
        let head_len = if head_len.is_finite() { head_len.max(0.0) } else { 0.0 };
        self.draw_segments(arrows, head_len);
    }

    fn draw_segments(&mut self, lines: &[LineInstance], head_len: f32) {
        for chunk in lines.chunks(MAX_INSTANCES_PER_DRAW) {
            self.scratch.clear();
            self.scratch.reserve(chunk.len() * LINE_STRIDE);
            for l in chunk {
                for v in [l.x0, l.y0, l.x1, l.y1, l.width] {
                    self.scratch.extend_from_slice(&v.to_le_bytes());
                }
                self.scratch.extend_from_slice(&l.rgba);
            }
            self.line_instances.upload(&self.gl, &self.scratch);
            self.use_program(true);
            let p = &self.line_program;
            self.gl.uniform1f(p.u_head.as_ref(), 0.0);
            self.gl.uniform1f(p.u_shorten.as_ref(), head_len * 0.9);
            self.gl.bind_vertex_array(Some(&self.line_vao));
            self.gl.draw_arrays_instanced(Gl::TRIANGLE_STRIP, 0, 4, to_i32(chunk.len()));
            self.stats.draw_calls += 1;
            if head_len > 0.0 {
                self.gl.uniform1f(p.u_head.as_ref(), head_len);
                self.gl.bind_vertex_array(Some(&self.head_vao));
                self.gl.draw_arrays_instanced(Gl::TRIANGLES, 0, 3, to_i32(chunk.len()));
                self.stats.draw_calls += 1;
            }
            self.stats.lines_drawn += chunk.len();
        }
        self.gl.bind_vertex_array(None);
    }

    /// Restricts the following draws to a rectangle `(x, y, w, h)` in CSS px, or lifts the
    /// restriction with `None`. [`GlRenderer::begin_frame`] lifts it too.
    pub fn set_scissor(&mut self, rect: Option<(f32, f32, f32, f32)>) {
        self.scissor_css = rect;
        self.apply_scissor();
    }

    fn apply_scissor(&self) {
        let Some((x, y, w, h)) = self.scissor_css else {
            self.gl.disable(Gl::SCISSOR_TEST);
            return;
        };
        let dpr = self.dpr;
        let dw = self.device_width as f32;
        let dh = self.device_height as f32;
        let x0 = (x * dpr).round().clamp(0.0, dw);
        let x1 = ((x + w.max(0.0)) * dpr).round().clamp(x0, dw);
        let y0 = (y * dpr).round().clamp(0.0, dh);
        let y1 = ((y + h.max(0.0)) * dpr).round().clamp(y0, dh);
        self.gl.enable(Gl::SCISSOR_TEST);
        // GL's origin is bottom-left.
        self.gl.scissor(x0 as i32, (dh - y1) as i32, (x1 - x0) as i32, (y1 - y0) as i32);
    }

    /// Reads the RGBA of the device pixel under CSS point `(css_x, css_y)` from the drawing
    /// buffer (premultiplied values). For tests: call it right after drawing, in the same task,
    /// before the browser composites and discards the buffer. `None` outside the canvas.
    pub fn read_pixel(&self, css_x: f32, css_y: f32) -> Option<[u8; 4]> {
        let px = (css_x * self.dpr).floor();
        let py = (css_y * self.dpr).floor();
        if !(px >= 0.0 && py >= 0.0 && px < self.device_width as f32 && py < self.device_height as f32) {
            return None;
        }
        let gl_y = self.device_height as f32 - 1.0 - py;
        let mut out = [0u8; 4];
        self.gl.read_pixels_with_opt_u8_array(px as i32, gl_y as i32, 1, 1, Gl::RGBA, Gl::UNSIGNED_BYTE, Some(&mut out)).ok()?;
        Some(out)
    }

    /// Counters of the current frame.
    pub fn stats(&self) -> FrameStats {
        self.stats
    }

    /// The canvas this renderer draws on.
    pub fn canvas(&self) -> &HtmlCanvasElement {
        &self.canvas
    }

    /// CSS size and device pixel ratio from the last [`GlRenderer::resize`].
    pub fn css_size(&self) -> (f32, f32, f32) {
        (self.css_width, self.css_height, self.dpr)
    }

    /// True after the browser dropped the GPU context (drawing then does nothing); the app
    /// should build a new renderer on a `webglcontextrestored` event.
    pub fn is_context_lost(&self) -> bool {
        self.gl.is_context_lost()
    }

    fn use_program(&self, line: bool) {
        let p = if line { &self.line_program } else { &self.rect_program };
        self.gl.use_program(Some(&p.handle));
        // Map CSS px to device px exactly: viewport in CSS px = device size / ratio.
        self.gl.uniform2f(p.u_viewport.as_ref(), self.device_width as f32 / self.dpr, self.device_height as f32 / self.dpr);
        self.gl.uniform1f(p.u_min_size.as_ref(), 1.0 / self.dpr);
    }
}

fn to_i32(n: impl TryInto<i32>) -> i32 {
    n.try_into().unwrap_or(i32::MAX)
}

fn compile(gl: &Gl, stage: u32, source: &str) -> Result<WebGlShader, RenderError> {
    let name = if stage == Gl::VERTEX_SHADER { "vertex" } else { "fragment" };
    let shader = gl.create_shader(stage).ok_or(RenderError::Create("shader"))?;
    gl.shader_source(&shader, source);
    gl.compile_shader(&shader);
    if gl.get_shader_parameter(&shader, Gl::COMPILE_STATUS).as_bool() == Some(true) {
        Ok(shader)
    } else {
        let log = gl.get_shader_info_log(&shader).unwrap_or_default();
        gl.delete_shader(Some(&shader));
        Err(RenderError::Shader { stage: name, log })
    }
}

fn link(gl: &Gl, vs: &str, fs: &str) -> Result<Program, RenderError> {
    let v = compile(gl, Gl::VERTEX_SHADER, vs)?;
    let f = compile(gl, Gl::FRAGMENT_SHADER, fs)?;
    let program = gl.create_program().ok_or(RenderError::Create("program"))?;
    gl.attach_shader(&program, &v);
    gl.attach_shader(&program, &f);
    gl.link_program(&program);
    // The program keeps the compiled code; the shader objects can go.
    gl.delete_shader(Some(&v));
    gl.delete_shader(Some(&f));
    if gl.get_program_parameter(&program, Gl::LINK_STATUS).as_bool() != Some(true) {
        let log = gl.get_program_info_log(&program).unwrap_or_default();
        gl.delete_program(Some(&program));
        return Err(RenderError::Link(log));
    }
    Ok(Program {
        u_viewport: gl.get_uniform_location(&program, "u_viewport"),
        u_min_size: gl.get_uniform_location(&program, "u_min_size"),
        u_head: gl.get_uniform_location(&program, "u_head"),
        u_shorten: gl.get_uniform_location(&program, "u_shorten"),
        handle: program,
    })
}

fn static_buffer(gl: &Gl, data: &[f32]) -> Result<WebGlBuffer, RenderError> {
    let buffer = gl.create_buffer().ok_or(RenderError::Create("buffer"))?;
    let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
    gl.bind_buffer(Gl::ARRAY_BUFFER, Some(&buffer));
    gl.buffer_data_with_u8_array(Gl::ARRAY_BUFFER, &bytes, Gl::STATIC_DRAW);
    Ok(buffer)
}

/// Location 0: per-vertex corner (vec2 f32) from `buffer`.
fn corner_attribute(gl: &Gl, buffer: &WebGlBuffer) {
    gl.bind_buffer(Gl::ARRAY_BUFFER, Some(buffer));
    gl.enable_vertex_attrib_array(0);
    gl.vertex_attrib_pointer_with_i32(0, 2, Gl::FLOAT, false, 0, 0);
    gl.vertex_attrib_divisor(0, 0);
}

/// A per-instance attribute read from the currently bound `ARRAY_BUFFER`.
fn instance_attribute(gl: &Gl, location: u32, size: i32, ty: u32, normalized: bool, stride: usize, offset: i32) {
    gl.enable_vertex_attrib_array(location);
    gl.vertex_attrib_pointer_with_i32(location, size, ty, normalized, to_i32(stride), offset);
    gl.vertex_attrib_divisor(location, 1);
}

fn line_instance_attributes(gl: &Gl, buffer: &WebGlBuffer) {
    gl.bind_buffer(Gl::ARRAY_BUFFER, Some(buffer));
    instance_attribute(gl, 1, 4, Gl::FLOAT, false, LINE_STRIDE, 0);
    instance_attribute(gl, 2, 1, Gl::FLOAT, false, LINE_STRIDE, 16);
    instance_attribute(gl, 3, 4, Gl::UNSIGNED_BYTE, true, LINE_STRIDE, 20);
}
