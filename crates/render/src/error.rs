//! The error type of the renderer's fallible set-up steps (context, shaders, GPU objects).

use std::fmt;

use wasm_bindgen::JsValue;

/// Why a renderer or overlay could not be created. Drawing itself never fails: a lost context
/// just draws nothing (see [`crate::GlRenderer::is_context_lost`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RenderError {
    /// `canvas.getContext("webgl2")` returned `null`: the browser has no WebGL2, it is disabled
    /// (hardware acceleration off, GPU blocklisted), or the canvas already has another context.
    WebGl2Unavailable,
    /// `canvas.getContext("2d")` returned `null` (the canvas already has another context).
    Canvas2dUnavailable,
    /// `getContext` threw, or returned something that is not the expected context.
    Context(String),
    /// A shader failed to compile; `log` is the driver's info log.
    Shader { stage: &'static str, log: String },
    /// The program failed to link; the driver's info log.
    Link(String),
    /// `create*` returned `null` for the named GPU object (usually a lost context).
    Create(&'static str),
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::WebGl2Unavailable => f.write_str(
                "WebGL2 is not available in this browser: the timeline needs WebGL2 \
                 (Chrome/Edge 56+, Firefox 51+, Safari 15+). Check that hardware acceleration \
                 is enabled and that WebGL is not blocked (chrome://gpu, about:support).",
            ),
            RenderError::Canvas2dUnavailable => {
                f.write_str("the text overlay canvas has no 2D context (does it already have a WebGL context?)")
            }
            RenderError::Context(msg) => write!(f, "could not create the drawing context: {msg}"),
            RenderError::Shader { stage, log } => {
                write!(f, "{stage} shader failed to compile: {log}")
            }
            RenderError::Link(log) => write!(f, "shader program failed to link: {log}"),
            RenderError::Create(what) => {
                write!(f, "could not create WebGL {what} (is the context lost?)")
            }
        }
    }
}

impl std::error::Error for RenderError {}

/// Text of a thrown JS value, for error messages.
pub(crate) fn js_text(value: &JsValue) -> String {
    value.as_string().unwrap_or_else(|| format!("{value:?}"))
}
