// The camera mode (issue 39): the rear camera's video with the tiles the in-page localiser finds outlined over it,
// a status line that says what to change (guide.js), and the shot, taken by itself once the framing is right or
// with the shutter. The shot is the tiles' region at the side the server reads at (shot.js), handed to the page's
// one upload path (`onShot`). The camera is stopped when the mode is left or the page is hidden.
import { $, setStatus } from "./dom.js";
import { t } from "./i18n.js";
import { detail, frameStats, guide, lumaOf } from "./live/guide.js";
import { fitSize } from "./photo.js";
import { scaleBoxes, shotRegion } from "./live/shot.js";

// px: the frame the localiser is given (it reads at 416: more only costs copying), also the copy whose detail says
// whether the view is blurred (issue 50: 1280 copied twice a frame cost the frame rate)
const DETECT_SIDE = 640;

const ADVICE = {
  steady: () => t("live_steady"), too_small: () => t("live_too_small"), dark: () => t("live_dark"),
  blurred: () => t("live_blurred"), unsure: () => t("live_unsure"), moving: () => t("live_moving"), none: () => t("live_none"),
  cut: (seen) => t("live_cut", { n: seen.cut }),
};

let session = null; // the open camera mode: {stream, track, localiser, live, frames, taking, closed}
let localiserLoad = null; // the localiser, loaded once per page

/** The in-page localiser (live/localiser.js), loaded when the camera first opens. */
function loadGuide() {
  localiserLoad ??= import("./live/localiser.js").then(({ loadLocaliser }) => loadLocaliser({ versionId: "active" }));
  return localiserLoad;
}

/** The guide's thresholds: the model's vision.json's, or for a version adapted before they existed the shipped
 *  models'. */
async function liveSettings(localiser) {
  const own = localiser.config.recogniser?.live;
  if (own?.min_detail !== undefined) return own; // a version adapted before the detail measure: the shipped one's
  const response = await fetch("/v1/models/base/files/vision.json");
  if (!response.ok) throw new Error(`vision.json: HTTP ${response.status}`);
  return (await response.json()).recogniser.live;
}

/** The pixels of `source` (video, bitmap) at `width`×`height`. */
function pixels(source, width, height) {
  const context = new OffscreenCanvas(width, height).getContext("2d", { willReadFrequently: true });
  context.drawImage(source, 0, 0, width, height);
  return context.getImageData(0, 0, width, height);
}

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

/** One video frame through the localiser and the guide; a frame that comes while the localiser is busy is
 *  dropped (detect answers null). */
async function look(current, video) {
  const { localiser, live } = current;
  if (!video.videoWidth || current.taking) return; // no frame yet
  const { width, height } = fitSize(video.videoWidth, video.videoHeight, DETECT_SIDE);
  const frame = pixels(video, width, height);
  const found = await localiser.detect(frame);
  if (!found || current.closed || current.taking) return;
  const { width: smallWidth, height: smallHeight } = fitSize(video.videoWidth, video.videoHeight, live.sharpness_width);
  const stats = frameStats(lumaOf(pixels(video, smallWidth, smallHeight)));
  stats.detail = detail(lumaOf(frame));
  const now = performance.now();
  current.frames = [...current.frames.filter((frame) => frame.t >= now - 2 * live.steady_ms) /* the guide looks back steady_ms */,
    { t: now, boxes: found.boxes, width, height, ...stats, scale: current.fullWidth / width }];
  const seen = guide(current.frames, live);
  current.seen = seen;
  performance.mark("fanshot-frame-analysed"); // the viewfinder's frame rate, for BENCHMARKS.md
  drawBoxes(found.boxes, width, height, seen);
  say(seen);
  if (seen.ready) takeShot(current);
}

function watch(current, video) {
  const next = () => {
    if (current.closed) return;
    look(current, video).catch((error) => {
      setStatus($("camera-advice"), () => t("live_no_guide", { error: error.message || error.name }), true);
    }).finally(() => {
      if (!current.closed) video.requestVideoFrameCallback(next);
    });
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

/** The tiles in the shot itself (it may frame the scene unlike the video): the localiser on a copy of it. */
async function tilesIn(localiser, bitmap) {
  const { width, height } = fitSize(bitmap.width, bitmap.height, DETECT_SIDE);
  const image = pixels(bitmap, width, height);
  for (let tries = 0; tries < 50; tries += 1) { // the live frame being read finishes first
    const found = await localiser.detect(image);
    if (found) return scaleBoxes(found.boxes, width, bitmap.width);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return [];
}

/** The shot of a full-resolution frame as a JPEG: the tiles' region at the side the server reads at; with no
 *  localiser loaded, or `whole` (the guide not satisfied: a crop round the few tiles found would lose the rest),
 *  the whole frame (the upload shrinks it as it does a chosen photo). */
export async function shotOf(bitmap, localiser, live, whole = false) {
  const region = localiser && !whole ? shotRegion(await tilesIn(localiser, bitmap), bitmap.width, bitmap.height, live)
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
    const blob = await shotOf(bitmap, current.localiser, current.live, current.seen?.state !== "steady");
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
  const current = { ...opened, onShot, frames: [], taking: false, closed: false, localiser: null, live: null, seen: null };
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
    const localiser = await loadGuide();
    if (current.closed) return;
    const live = await liveSettings(localiser);
    if (current.closed) return;
    Object.assign(current, { localiser, live });
    watch(current, video);
  } catch (error) {
    localiserLoad = null; // tried again next time the camera opens
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
