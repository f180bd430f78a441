// Where the page loads onnxruntime-web from: the app's own copy of the npm package (node_modules, served at
// /static/vendor/onnxruntime-web/ when the app runs from a clone after `npm ci`), else the same pinned version
// from jsDelivr. The version is package.json's (tests/js/runtime.test.js checks), and the server's
// Content-Security-Policy allows exactly this CDN folder (api/security.py reads it from here).
export const LOCAL_RUNTIME = "/static/vendor/onnxruntime-web/";
export const CDN_RUNTIME = "https://cdn.jsdelivr.net/npm/onnxruntime-web@1.31.1/dist/";
export const RUNTIME_MODULE = "ort.webgpu.min.mjs"; // the WebGPU and WASM backends in one module

export async function runtimeBase(fetchImpl = fetch) {
  try {
    if ((await fetchImpl(LOCAL_RUNTIME + RUNTIME_MODULE, { method: "HEAD" })).ok) return LOCAL_RUNTIME;
  } catch {
    // no answer for the local copy: the CDN's is the only one (the service worker may hold it)
  }
  return CDN_RUNTIME;
}

// The runtime module, its WASM files fetched from the same folder.
export async function loadRuntime(fetchImpl = fetch) {
  const base = await runtimeBase(fetchImpl);
  const ort = await import(base + RUNTIME_MODULE);
  ort.env.wasm.wasmPaths = base;
  return ort;
}
