// loadLocaliser (api/static/live/localiser.js) with a made-up runtime: where it fetches the model from, which
// backend it opens, and that a frame that comes while one is being read is dropped, never queued.
import assert from "node:assert/strict";
import { test } from "node:test";

import { hardwareGpu, loadLocaliser } from "../../api/static/live/localiser.js";

const SETTINGS = { localiser: { file: "localiser.onnx", imgsz: 8, classes: ["face", "back"], conf: 0.55 },
                   recogniser: { nms_iou: 0.5, live: { steady_ms: 1000 } } };

// A server whose `active` version is v7: vision.json answers from the redirected address.
function server(asked) {
  return async (url) => {
    asked.push(url);
    if (url.endsWith("/vision.json")) {
      return { ok: true, url: "http://localhost/v1/models/v7/files/vision.json", json: async () => SETTINGS };
    }
    if (url === "http://localhost/v1/models/v7/files/localiser.onnx") {
      return { ok: true, arrayBuffer: async () => new Uint8Array([1, 2, 3]).buffer };
    }
    return { ok: false, status: 404 };
  };
}

// A runtime whose sessions answer one face over the whole square, each run when `release` is called.
function runtime({ gpuFails = false } = {}) {
  const runs = [];
  const opened = [];
  const ort = {
    env: { wasm: {} },
    Tensor: class { constructor(type, data, dims) { Object.assign(this, { type, data, dims }); } },
    InferenceSession: {
      async create(model, { executionProviders }) {
        opened.push(executionProviders);
        if (gpuFails && executionProviders.includes("webgpu")) throw new Error("no adapter");
        return {
          inputNames: ["images"], outputNames: ["output0"],
          run: (feeds) => new Promise((resolve) => runs.push(() => resolve({ output0: {
            dims: [1, 6, 1], getData: async () => new Float32Array([4, 4, 8, 8, 0.9, 0.1]), feeds } }))),
        };
      },
    },
  };
  return { ort, runs, opened };
}

const frame = { data: new Uint8ClampedArray(16 * 16 * 4), width: 16, height: 16 };

test("a frame that comes while one is read is dropped; the next after it is read", async () => {
  const asked = [];
  const { ort, runs } = runtime();
  const localiser = await loadLocaliser({ fetchImpl: server(asked), runtime: ort, gpu: false });
  assert.deepEqual(asked, ["/v1/models/active/files/vision.json", "http://localhost/v1/models/v7/files/localiser.onnx"]);
  assert.equal(localiser.inputSize, 8);
  assert.deepEqual(localiser.config, { localiser: SETTINGS.localiser, recogniser: SETTINGS.recogniser });
  const first = localiser.detect(frame);
  assert.equal(await localiser.detect(frame), null);
  assert.equal(runs.length, 1);
  runs[0]();
  const { boxes, ms } = await first;
  assert.deepEqual(boxes, [{ x1: 0, y1: 0, x2: 16, y2: 16, score: Math.fround(0.9), kind: "face" }]);
  assert.ok(ms >= 0);
  const second = localiser.detect(frame);
  runs[1]();
  assert.equal((await second).boxes.length, 1);
});

test("WebGPU where the browser has it, else WASM", async () => {
  const onGpu = runtime();
  assert.equal((await loadLocaliser({ fetchImpl: server([]), runtime: onGpu.ort, gpu: true })).backend, "webgpu");
  const noAdapter = runtime({ gpuFails: true });
  assert.equal((await loadLocaliser({ fetchImpl: server([]), runtime: noAdapter.ort, gpu: true })).backend, "wasm");
  assert.deepEqual(noAdapter.opened, [["webgpu"], ["wasm"]]);
  const noGpu = runtime();
  assert.equal((await loadLocaliser({ fetchImpl: server([]), runtime: noGpu.ort, gpu: false, threads: 2 })).backend,
               "wasm");
  assert.equal(noGpu.ort.env.wasm.numThreads, 2);
  assert.equal((await loadLocaliser({ fetchImpl: server([]), runtime: noGpu.ort, gpu: false })).threads, 2);
});

test("a version the server does not have is an error naming the address", async () => {
  await assert.rejects(loadLocaliser({ versionId: "gone", runtime: runtime().ort, fetchImpl: async () => ({ ok: false, status: 404 }) }),
                       /\/v1\/models\/gone\/files\/vision.json answered 404/);
});

test("WebGPU only on a hardware adapter: a software fallback one reads slower than WASM", async () => {
  const adapter = (info) => ({ requestAdapter: async () => info && { info } });
  assert.equal(await hardwareGpu(adapter({ vendor: "apple", isFallbackAdapter: false })), true);
  assert.equal(await hardwareGpu(adapter({ vendor: "google", architecture: "swiftshader", isFallbackAdapter: true })),
               false);
  assert.equal(await hardwareGpu(adapter(null)), false); // no adapter at all
  assert.equal(await hardwareGpu({ requestAdapter: async () => { throw new Error("blocked"); } }), false);
  assert.equal(await hardwareGpu(undefined), false); // no navigator.gpu
});
