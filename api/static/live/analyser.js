// The page's side of the frame analysis worker (worker.js, issue 50): it starts the worker, opens the localiser in
// it, and hands it frames as ImageBitmaps (transferred, not copied). Each request is answered by its id.

/** The analyser of model version `versionId`: `{config, backend, threads, inputSize, analyse(source, size, small)}`;
 *  `analyse` takes a frame (a VideoFrame or ImageBitmap, transferred: the page no longer holds it), the size of
 *  the localiser's copy and optionally of the guide's small one (`{width, height}`), and answers
 *  `{boxes, luma, sharpness, detail, ms}` (the boxes in the localiser's copy's pixels). */
export async function startAnalyser(versionId = "active") {
  const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  const waiting = new Map();
  let next = 0;
  worker.onmessage = ({ data: { id, answer, error } }) => {
    const { resolve, reject } = waiting.get(id);
    waiting.delete(id);
    if (error === undefined) resolve(answer);
    else reject(new Error(error));
  };
  worker.onerror = (event) => { // the worker's own script failed to load or run
    for (const { reject } of waiting.values()) reject(new Error(event.message || "the analysis worker did not start"));
    waiting.clear();
  };
  const ask = (type, request, transfer = []) => new Promise((resolve, reject) => {
    const id = next++;
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, type, ...request }, transfer);
  });
  try {
    const opened = await ask("open", { versionId });
    return { ...opened, analyse: (source, size, small) => ask("analyse", { source, size, small }, [source]) };
  } catch (error) {
    worker.terminate();
    throw error;
  }
}
