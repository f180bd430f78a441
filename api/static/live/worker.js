// The camera's frame analysis, off the page's main thread (issue 50: at CPU ×4 the main thread, which also runs the
// page, read 1.7 frames a second): a dedicated module worker that opens the localiser (localiser.js) and, per
// frame, reads the localiser's copy of it and measures the blur and brightness the guide needs (guide.js). The page
// (analyser.js) only grabs the frames, draws the boxes and says what to do. One request at a time, in order.
import { detail, frameStats, lumaOf } from "./guide.js";
import { loadLocaliser } from "./localiser.js";

let localiser = null;
let queue = Promise.resolve();

const contexts = new Map(); // one canvas per size, kept: none made per frame

/** The RGBA pixels of `source` (a VideoFrame or ImageBitmap) drawn at `width`×`height`. */
function pixels(source, { width, height }) {
  const key = `${width}×${height}`;
  if (!contexts.has(key)) contexts.set(key, new OffscreenCanvas(width, height).getContext("2d", { willReadFrequently: true }));
  const context = contexts.get(key);
  context.drawImage(source, 0, 0, width, height);
  return context.getImageData(0, 0, width, height);
}

async function open({ versionId }) {
  localiser = await loadLocaliser({ versionId });
  const { config, backend, threads, inputSize } = localiser;
  return { config, backend, threads, inputSize };
}

/** The tiles on the localiser's copy of `source` (`size`: {width, height}; the boxes in its pixels) and, given
 *  `small` (the size of the guide's small copy), the brightness, sharpness and detail the guide judges by; `ms`:
 *  the worker's time for it all. `source` is closed once read. */
async function analyse({ source, size, small }) {
  const start = performance.now();
  let image, smallImage;
  try {
    image = pixels(source, size);
    smallImage = small && pixels(source, small);
  } finally {
    source.close(); // a camera's VideoFrames come from a small pool: one left open stalls it
  }
  const { boxes } = await localiser.detect(image); // never busy: requests come one at a time
  const stats = small ? { ...frameStats(lumaOf(smallImage)), detail: detail(lumaOf(image)) } : {};
  return { boxes, ...stats, ms: performance.now() - start };
}

const ANSWERS = { open, analyse };

self.onmessage = ({ data: { id, type, ...request } }) => {
  queue = queue.then(() => ANSWERS[type](request)).then(
    (answer) => self.postMessage({ id, answer }),
    (error) => self.postMessage({ id, error: error.message || error.name || String(error) }),
  );
};
