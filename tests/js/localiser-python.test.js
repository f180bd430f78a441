// The page's localiser (api/static/live/localiser.js + letterbox.js on onnxruntime-web's WASM backend, which runs
// in node as in the browser) against the Python one (Recogniser.localise) on real photos of the shared test split
// and 4:3 crops of them: the same pixels in (tests/js/localiser_reference.py decodes them), the same tiles out, each
// box within 1 px. Python: $FANSHOT_PYTHON (tests/test_js.py sets it), else the clone's .venv.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

import { loadLocaliser } from "../../api/static/live/localiser.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PHOTOS = join(ROOT, "../shared/data/chinese-mahjong-detection/test/images");
const PHOTO_COUNT = 3;
const python = process.env.FANSHOT_PYTHON ?? (existsSync(join(ROOT, ".venv/bin/python")) ? join(ROOT, ".venv/bin/python") : "python3");

// The shipped models folder, answered as the server answers GET /v1/models/base/files/{name}.
async function modelsFolder(url) {
  const name = url.split("/").pop();
  const bytes = readFileSync(join(ROOT, "models", name));
  return { ok: true, url: "", json: async () => JSON.parse(bytes), arrayBuffer: async () => bytes.buffer };
}

function rgba(rgb) {
  const data = new Uint8ClampedArray((rgb.length / 3) * 4);
  for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
    data[j] = rgb[i]; data[j + 1] = rgb[i + 1]; data[j + 2] = rgb[i + 2]; data[j + 3] = 255;
  }
  return data;
}

const RUNTIME = join(ROOT, "node_modules/onnxruntime-web");
const photos = existsSync(PHOTOS) ? readdirSync(PHOTOS).filter((name) => name.endsWith(".jpg")).sort().slice(0, PHOTO_COUNT) : [];
const missing = (photos.length < PHOTO_COUNT && `no shared test photos at ${PHOTOS} (CI provides ../shared)`)
  || (!existsSync(RUNTIME) && "onnxruntime-web is not installed: npm ci");

test("the page's localiser finds the Python one's tiles on the same photos, each box within 1 px",
     { skip: !process.env.CI && missing, timeout: 240_000 }, async () => {
  assert.ok(!missing, missing);
  const out = mkdtempSync(join(tmpdir(), "fanshot-localiser-"));
  try {
    const frames = JSON.parse(execFileSync(python, [join(ROOT, "tests/js/localiser_reference.py"), out,
                                                    ...photos.map((name) => join(PHOTOS, name))], { cwd: ROOT }));
    const ort = await import("onnxruntime-web");
    ort.env.wasm.numThreads = 1;
    const localiser = await loadLocaliser({ versionId: "base", fetchImpl: modelsFolder, runtime: ort, gpu: false });
    assert.equal(localiser.backend, "wasm");
    assert.equal(frames.length, 2 * PHOTO_COUNT);
    for (const frame of frames) {
      const where = `${frame.photo} at ${frame.width}×${frame.height}`;
      const { boxes } = await localiser.detect({ data: rgba(readFileSync(frame.pixels)), width: frame.width,
                                                 height: frame.height });
      assert.ok(frame.boxes.length > 0, `${where}: Python found no tile, a photo that tests nothing`);
      assert.equal(boxes.length, frame.boxes.length, `${where}: tile count`);
      frame.boxes.forEach((expected, i) => { // both best first
        const found = boxes[i];
        assert.equal(found.kind, frame.kinds[i], `${where}: tile ${i}'s kind`);
        assert.ok(Math.abs(found.score - frame.scores[i]) < 1e-3, `${where}: tile ${i}'s score ${found.score} vs ${frame.scores[i]}`);
        const offBy = Math.max(...[found.x1, found.y1, found.x2, found.y2].map((value, k) => Math.abs(value - expected[k])));
        assert.ok(offBy <= 1, `${where}: tile ${i}'s box is ${offBy.toFixed(2)} px from Python's`);
      });
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
