// The shipped localiser in the page, on the camera's frames (issue 39): a model version's vision.json and localiser
// fetched from the server (GET /v1/models/{version}/files/{name}), run by onnxruntime-web on WebGPU where the
// browser has it, else on WASM. `detect` never queues: a frame that comes while one is being read is dropped.
import { frameTensor, detections } from "./letterbox.js";
import { loadRuntime } from "./runtime.js";

async function fetched(fetchImpl, url) {
  const answer = await fetchImpl(url);
  if (!answer.ok) throw new Error(`${url} answered ${answer.status}: the page cannot load the localiser`);
  return answer;
}

// A session on WebGPU when the browser offers it and it opens, else on WASM; and which it is.
async function openSession(ort, model, gpu) {
  if (gpu) {
    try {
      return { session: await ort.InferenceSession.create(model, { executionProviders: ["webgpu"] }), backend: "webgpu" };
    } catch {
      // no usable adapter (or an operator it lacks): WASM reads the same model
    }
  }
  return { session: await ort.InferenceSession.create(model, { executionProviders: ["wasm"] }), backend: "wasm" };
}

// Whether the browser offers a WebGPU adapter on real hardware: a fallback one (software, such as SwiftShader in
// headless Chromium) read a frame over 20 times slower than WASM (BENCHMARKS.md).
export async function hardwareGpu(gpu = globalThis.navigator?.gpu) {
  if (!gpu) return false;
  try {
    const adapter = await gpu.requestAdapter();
    return Boolean(adapter) && !(adapter.info?.isFallbackAdapter ?? adapter.isFallbackAdapter);
  } catch {
    return false;
  }
}

// versionId: "active" (whichever version the server reads with), "base" or an adapted version's id.
// runtime: an onnxruntime-web module (default: runtime.js's pick); threads: WASM threads (default: the runtime's:
// min(4, half the cores) in a cross-origin isolated page, else 1), and the count the runtime took is returned.
// gpu: whether to try WebGPU (default: where `hardwareGpu` says so).
export async function loadLocaliser({ versionId = "active", fetchImpl = fetch, runtime, threads, gpu } = {}) {
  const settingsAnswer = await fetched(fetchImpl, `/v1/models/${encodeURIComponent(versionId)}/files/vision.json`);
  const settings = await settingsAnswer.json();
  // "active" redirects to the version's own folder: take the model from the same one, even if it switches meanwhile
  const folder = settingsAnswer.url ? new URL(".", settingsAnswer.url).href
    : `/v1/models/${encodeURIComponent(versionId)}/files/`;
  const part = settings.localiser;
  const model = new Uint8Array(await (await fetched(fetchImpl, folder + part.file)).arrayBuffer());
  const tryGpu = gpu ?? await hardwareGpu();
  const ort = runtime ?? await loadRuntime(fetchImpl, tryGpu);
  if (threads) ort.env.wasm.numThreads = threads;
  const { session, backend } = await openSession(ort, model, tryGpu);
  const size = part.imgsz;
  const reading = { conf: part.conf, nmsIou: settings.recogniser.nms_iou, classes: part.classes };
  let busy = false;

  async function detect(frame) {
    if (busy) return null;
    busy = true;
    try {
      const start = performance.now();
      const { tensor, box } = frameTensor(frame, size);
      const input = new ort.Tensor("float32", tensor, [1, 3, size, size]);
      const output = (await session.run({ [session.inputNames[0]]: input }))[session.outputNames[0]];
      const boxes = detections(await output.getData(), output.dims, box, frame, reading);
      return { boxes, ms: performance.now() - start };
    } finally {
      busy = false;
    }
  }

  return { detect, inputSize: size, backend, threads: ort.env.wasm.numThreads,
           config: { localiser: settings.localiser, recogniser: settings.recogniser } };
}
