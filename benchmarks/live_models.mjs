// Candidate live localisers side by side in onnxruntime-web's WASM backend under node (the page's runtime and
// build, without the browser), on one thread: one run of each model in turn, round after round, so that a busy
// host slows them alike; the median ms per run of each, and its ratio to the first model's.
//
//   node benchmarks/live_models.mjs [ROUNDS] MODEL.onnx[:SIZE] ...   (SIZE: the square input, default 416)
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";

import * as ort from "onnxruntime-web";

const [rounds, ...specs] = /^\d+$/.test(process.argv[2]) ? [Number(process.argv[2]), ...process.argv.slice(3)]
  : [20, ...process.argv.slice(2)];
ort.env.wasm.numThreads = 1;
const models = [];
for (const spec of specs) {
  const [file, size = "416"] = spec.split(":");
  const session = await ort.InferenceSession.create(readFileSync(file), { executionProviders: ["wasm"] });
  const side = Number(size);
  const input = new ort.Tensor("float32", new Float32Array(3 * side * side).fill(114 / 255), [1, 3, side, side]);
  for (let i = 0; i < 3; i++) await session.run({ [session.inputNames[0]]: input });
  models.push({ spec, session, input, ms: [] });
}
const before = loadavg()[0];
for (let round = 0; round < rounds; round++) {
  for (const model of models) {
    const start = performance.now();
    await model.session.run({ [model.session.inputNames[0]]: model.input });
    model.ms.push(performance.now() - start);
  }
}
const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
for (const model of models) {
  console.log(JSON.stringify({ model: model.spec, rounds, median_ms: +median(model.ms).toFixed(1),
                               ratio_to_first: +(median(model.ms) / median(models[0].ms)).toFixed(2),
                               load: [+before.toFixed(2), +loadavg()[0].toFixed(2)] }));
}
