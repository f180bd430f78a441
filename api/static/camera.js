// The camera mode (issue 39): the rear camera's video with the tiles the in-page localiser finds outlined over it,
// a status line that says what to change (guide.js), and the shot, taken by itself once the framing is right or
// with the shutter. The shot is the tiles' region at the side the server reads at (shot.js), handed to the page's
// one upload path (`onShot`). The camera is stopped when the mode is left or the page is hidden.
import { $, setStatus } from "./dom.js";
import { t } from "./i18n.js";
import { guide } from "./live/guide.js";
import { fitSize } from "./photo.js";
import { scaleBoxes, shotRegion } from "./live/shot.js";

// px: the frame the localiser is given (it reads at 416: more only costs copying), also the copy whose detail says
// whether the view is blurred (issue 50: 1280 copied twice a frame cost the frame rate). The copies are made in the
// analysis worker (live/worker.js): the page's main thread only grabs the frame.
const DETECT_SIDE = 640;

const IN_FLIGHT = 2; // frames handed to the analysis worker at once: the one it reads and the next

const ADVICE = {
  steady: () => t("live_steady"), too_small: () => t("live_too_small"), dark: () => t("live_dark"),
  blurred: () => t("live_blurred"), unsure: () => t("live_unsure"), moving: () => t("live_moving"), none: () => t("live_none"),
  cut: (seen) => t("live_cut", { n: seen.cut }),
};

let session = null; // the open camera mode: {stream, track, analyser, live, frames, taking, closed}
let analyserLoad = null; // the analysis worker with the localiser, started once per page

/** The in-page localiser in its worker (live/analyser.js), started when the camera first opens. */
function loadGuide() {
  analyserLoad ??= import("./live/analyser.js").then(({ startAnalyser }) => startAnalyser("active"));
  return analyserLoad;
}

/** The guide's thresholds: the model's vision.json's, or for a version adapted before they existed the shipped
 *  models'. */
async function liveSettings(analyser) {
  const own = analyser.config.recogniser?.live;
  if (own?.min_detail !== undefined) return own; // a version adapted before the detail measure: the shipped one's
  const response = await fetch("/v1/models/base/files/vision.json");
  if (!response.ok) throw new Error(`vision.json: HTTP ${response.status}`);
  return (await response.json()).recogniser.live;
}

/** The video's current frame, to hand to the worker: a VideoFrame (no copy) where the browser has WebCodecs. */
const grab = (video) => ("VideoFrame" in window ? new VideoFrame(video) : createImageBitmap(video));

function drawBoxes(boxes, width, height, seen) {
  const canvas = $("camera-boxes");
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext("2d");
  context.lineWidth = Math.max(2, width / 320);
  for (const box of boxes) {
    context.strokeStyle = box.kind === "back" ? "#4dabf7" : seen.state === "steady" ? "#51cf66" : "#ffd43b";
    context.strokeRect(box.x1, box.y1, box.x2 - box.x1, box.y2 - box.y1);
  }
}

/** The status line: the count, then what to change; rewritten only when its words change (it is read out). */
function say(seen) {
  const count = () => t("live_count", { n: seen.count });
  if ($("live-count").textContent !== count()) setStatus($("live-count"), count);
  const advice = () => ADVICE[seen.state](seen);
  if ($("camera-advice").textContent !== advice()) setStatus($("camera-advice"), advice);
  $("camera").dataset.state = seen.state;
}

/** One video frame through the analysis worker (localiser, blur, brightness), then the guide. */
async function look(current, video) {
  const { analyser, live } = current;
  if (!video.videoWidth || current.taking) return; // no frame yet
  const size = fitSize(video.videoWidth, video.videoHeight, DETECT_SIDE);
  const small = fitSize(video.videoWidth, video.videoHeight, live.sharpness_width);
  const found = await analyser.analyse(await grab(video), size, small);
  if (current.closed || current.taking) return;
  const { boxes, luma, sharpness, detail } = found;
  const now = performance.now();
  current.frames = [...current.frames.filter((frame) => frame.t >= now - 2 * live.steady_ms) /* the guide looks back steady_ms */,
    { t: now, boxes, ...size, luma, sharpness, detail, scale: current.fullWidth / size.width }];
  const seen = guide(current.frames, live);
  current.seen = seen;
  performance.mark("fanshot-frame-analysed", { detail: { workerMs: found.ms } }); // the frame rate, for BENCHMARKS.md
  drawBoxes(boxes, size.width, size.height, seen);
  say(seen);
  if (seen.ready) takeShot(current);
}

/** Each new video frame goes to the worker while fewer than IN_FLIGHT are there: one read, the next waiting, so
 *  the worker never idles between frames (issue 50: waiting for the next frame after each answer cost a share of
 *  the rate); a frame that comes while both places are taken is dropped. */
function watch(current, video) {
  let inFlight = 0;
  const next = () => {
    if (current.closed) return;
    if (inFlight < IN_FLIGHT) {
      inFlight += 1;
      look(current, video).catch((error) => {
        setStatus($("camera-advice"), () => t("live_no_guide", { error: error.message || error.name }), true);
      }).finally(() => { inFlight -= 1; });
    }
    video.requestVideoFrameCallback(next);
  };
  video.requestVideoFrameCallback(next);
}

/** The full-resolution frame: the camera's own photo where the browser can take one, else the video's frame
 *  (at the track's resolution). */
async function fullFrame(current) {
  if ("ImageCapture" in window) {
    try {
      return await createImageBitmap(await new ImageCapture(current.track).takePhoto());
    } catch {
      // some cameras (and browsers) take no photo from a stream: the video frame is the shot
    }
  }
  return createImageBitmap($("camera-video"));
}

/** The tiles in the shot itself (it may frame the scene unlike the video): the localiser on a copy of it (after
 *  the live frame being read: the worker answers in order). */
async function tilesIn(analyser, bitmap) {
  const size = fitSize(bitmap.width, bitmap.height, DETECT_SIDE);
  const { boxes } = await analyser.analyse(await createImageBitmap(bitmap), size);
  return scaleBoxes(boxes, size.width, bitmap.width);
}

/** The shot of a full-resolution frame as a JPEG: the tiles' region at the side the server reads at; with no
 *  analyser started (live/analyser.js), or `whole` (the guide not satisfied: a crop round the few tiles found
 *  would lose the rest), the whole frame (the upload shrinks it as it does a chosen photo). */
export async function shotOf(bitmap, analyser, live, whole = false) {
  const region = analyser && !whole ? shotRegion(await tilesIn(analyser, bitmap), bitmap.width, bitmap.height, live)
    : { x: 0, y: 0, width: bitmap.width, height: bitmap.height, outWidth: bitmap.width, outHeight: bitmap.height };
  const canvas = new OffscreenCanvas(region.outWidth, region.outHeight);
  canvas.getContext("2d").drawImage(bitmap, region.x, region.y, region.width, region.height, 0, 0, region.outWidth, region.outHeight);
  return canvas.convertToBlob({ type: "image/jpeg", quality: 0.9 });
}

/** Take the shot, once, and hand it to the page's upload; the camera mode closes. Taken while the guide is not
 *  satisfied (the shutter), the shot is the whole frame. */
async function takeShot(current) {
  if (current.taking) return;
  current.taking = true;
  $("shutter").disabled = true;
  setStatus($("camera-advice"), () => t("live_taking"));
  try {
    const bitmap = await fullFrame(current);
    const blob = await shotOf(bitmap, current.analyser, current.live, current.seen?.state !== "steady");
    bitmap.close();
    closeCamera();
    current.onShot(new File([blob], "camera.jpg", { type: "image/jpeg" }));
  } catch (error) {
    current.taking = false;
    $("shutter").disabled = false;
    setStatus($("camera-advice"), () => t("camera_failed", { error: error.message || error.name }), true);
  }
}

function cameraProblem(error) {
  if (!window.isSecureContext) return () => t("camera_insecure"); // the cause is the page's address, not the phone
  if (error?.name === "NotAllowedError" || error?.name === "SecurityError") return () => t("camera_refused");
  if (error.name === "NotFoundError" || error.name === "OverconstrainedError") return () => t("camera_none");
  return () => t("camera_failed", { error: error.message || error.name });
}

/** The rear camera at the highest resolution its track gives. */
async function openStream() {
  if (!window.isSecureContext) throw Object.assign(new Error("page opened over http"), { name: "SecurityError" });
  if (!navigator.mediaDevices?.getUserMedia) throw Object.assign(new Error("no camera"), { name: "NotFoundError" });
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: false, video: { facingMode: { ideal: "environment" }, width: { ideal: 4096 }, height: { ideal: 4096 } },
  });
  const [track] = stream.getVideoTracks();
  const most = track.getCapabilities?.() ?? {};
  if (most.width?.max && most.height?.max) await track.applyConstraints({ width: most.width.max, height: most.height.max }).catch(() => {});
  return { stream, track };
}

async function openCamera(onShot) {
  if (session) return;
  setStatus($("photo-status"), "");
  let opened;
  try {
    opened = await openStream();
  } catch (error) {
    setStatus($("photo-status"), cameraProblem(error), true);
    $("photo-button").focus();
    return;
  }
  const current = { ...opened, onShot, frames: [], taking: false, closed: false, analyser: null, live: null, seen: null };
  session = current;
  const video = $("camera-video");
  video.srcObject = opened.stream;
  $("camera").hidden = false;
  $("shutter").disabled = false;
  setStatus($("live-count"), "");
  setStatus($("camera-advice"), () => t("live_loading"));
  await video.play().catch(() => {});
  current.fullWidth = opened.track.getSettings().width || video.videoWidth;
  $("shutter").focus();
  try {
    const analyser = await loadGuide();
    if (current.closed) return;
    const live = await liveSettings(analyser);
    if (current.closed) return;
    Object.assign(current, { analyser, live });
    watch(current, video);
  } catch (error) {
    analyserLoad = null; // tried again next time the camera opens
    setStatus($("camera-advice"), () => t("live_no_guide", { error: error.message || error.name }), true);
  }
}

/** Leave the camera mode: the camera goes off (its light too). */
export function closeCamera() {
  if (!session) return;
  session.closed = true;
  for (const track of session.stream.getTracks()) track.stop();
  session = null;
  $("camera-video").srcObject = null;
  $("camera").hidden = true;
}

export function wireCamera(onShot) {
  // on http the browser gives no camera: say so beside the button, which stays, and say where to go instead
  $("camera-insecure").hidden = window.isSecureContext;
  const leave = () => {
    closeCamera();
    $("camera-button").focus();
  };
  $("camera-button").addEventListener("click", () => openCamera(onShot));
  $("camera-close").addEventListener("click", leave);
  $("shutter").addEventListener("click", () => session && takeShot(session));
  $("camera").addEventListener("keydown", (event) => { if (event.key === "Escape") leave(); });
  document.addEventListener("visibilitychange", () => { if (document.hidden) closeCamera(); });
}
