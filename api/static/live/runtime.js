// Where the page loads onnxruntime-web from: the app's own copy of the npm package (node_modules, served at
// /static/vendor/onnxruntime-web/ when the app runs from a clone after `npm ci`), else the same pinned version
// from jsDelivr. The version is package.json's (tests/js/runtime.test.js checks), and the server's
// Content-Security-Policy allows exactly this CDN folder (api/security.py reads it from here).
export const LOCAL_RUNTIME = "/static/vendor/onnxruntime-web/";
export const CDN_RUNTIME = "https://cdn.jsdelivr.net/npm/onnxruntime-web@1.31.1/dist/";
// The WASM backend alone (its .wasm 15 MB), or with WebGPU (a 29 MB .wasm, which it takes for WASM too).
export const WASM_MODULE = "ort.wasm.min.mjs";
export const GPU_MODULE = "ort.webgpu.min.mjs";

export async function runtimeBase(fetchImpl = fetch) {
  try {
    if ((await fetchImpl(LOCAL_RUNTIME + WASM_MODULE, { method: "HEAD" })).ok) return LOCAL_RUNTIME;
  } catch {
    // no answer for the local copy: the CDN's is the only one (the service worker may hold it)
  }
  return CDN_RUNTIME;
}

// The runtime module (with WebGPU when `gpu`), its WASM files fetched from the same folder.
export async function loadRuntime(fetchImpl = fetch, gpu = false) {
  const base = await runtimeBase(fetchImpl);
  const ort = await import(base + (gpu ? GPU_MODULE : WASM_MODULE));
  ort.env.wasm.wasmPaths = base;
  return ort;
}
