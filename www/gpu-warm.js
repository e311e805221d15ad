// Opens a WebGL2 context off the main thread, once, at start: the page's first WebGL context
// otherwise pays for bringing up the browser's GPU side (0.3–0.8 s on the main thread under
// SwiftShader, measured when the first swimlane mounted). Started by boot.js; the context is
// dropped and the worker closes itself.
try {
  new OffscreenCanvas(1, 1).getContext('webgl2');
} catch {
  // no OffscreenCanvas or no WebGL2: the views say so when they mount
}
close();
