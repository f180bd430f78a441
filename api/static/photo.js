// The photo before it is sent: turned upright as its EXIF says and shrunk to a long side of MAX_SIDE, so a
// 50-200 MP camera photo uploads in seconds; the server reads at most 1600 px anyway.

export const MAX_SIDE = 2000;

/** The size a width×height photo is shrunk to (never enlarged). */
export function fitSize(width, height, maxSide = MAX_SIDE) {
  const scale = Math.min(1, maxSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** The photo to upload: the file itself when it is small enough, else an upright JPEG of at most MAX_SIDE.
 *  A file the browser cannot decode is sent as it is: the server says what is wrong with it. */
export async function preparePhoto(file) {
  let bitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: "from-image" });
  } catch {
    return file;
  }
  const { width, height } = fitSize(bitmap.width, bitmap.height);
  if (width === bitmap.width && height === bitmap.height) {
    bitmap.close();
    return file;
  }
  const canvas = new OffscreenCanvas(width, height);
  canvas.getContext("2d").drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const blob = await canvas.convertToBlob({ type: "image/jpeg", quality: 0.9 });
  return new File([blob], file.name.replace(/\.[^.]*$/, "") + ".jpg", { type: "image/jpeg" });
}
