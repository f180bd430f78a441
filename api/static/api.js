// Calls to the Fanshot API: JSON in, JSON out; a refusal becomes an ApiError carrying the API's error list
// (each with its `code`, which the page words in the reader's language), a lost connection an ApiError "network".

export class ApiError extends Error {
  constructor(status, errors) {
    super(errors.map((error) => error.message).join("; ") || `HTTP ${status}`);
    this.status = status;
    this.errors = errors;
  }
}

const networkError = () => new ApiError(0, [{ code: "network", message: "no connection" }]);

/** A failed answer as an ApiError: the API's own error list, or, for anything else (a proxy's 502 or 504 page,
 *  HTML or empty), `not_json`: the server or a proxy answered, so it is not a lost connection (issue 35). */
const answerError = (status, data) => Object.assign(new ApiError(status, Array.isArray(data?.errors)
  && data.errors.length ? data.errors : [{ code: "not_json", message: `HTTP ${status} without the API's error list` }]),
{ data }); // the whole answer: a game's 412 carries the game as it is now

/** `{data, etag}` of a JSON call; `headers` are added to the request (e.g. If-Match). */
export async function callTagged(method, url, body, headers = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["content-type"] = "application/json";
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch {
    throw networkError();
  }
  const isJson = (response.headers.get("content-type") || "").includes("json");
  const data = isJson ? await response.json().catch(() => null) : null;
  if (!response.ok) throw answerError(response.status, data);
  return { data, etag: response.headers.get("etag") };
}

export async function call(method, url, body) {
  return (await callTagged(method, url, body)).data;
}

/** POST a form with upload progress: `onProgress(fraction)` as the bytes go out (fetch cannot report it). */
export function upload(url, form, onProgress) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", url);
    request.responseType = "json";
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener("load", () => {
      if (request.status >= 200 && request.status < 300) resolve(request.response);
      else reject(answerError(request.status, request.response));
    });
    request.addEventListener("error", () => reject(networkError()));
    request.send(form);
  });
}

/** A failed request that the same request may pass later: no connection, a busy or failing server; not a refusal
 *  of the request itself (a 4xx other than 429). */
export const worthRetrying = (error) => !(error.status >= 400 && error.status < 500) || error.status === 429;

/** The address of a QR code (an SVG, GET /v1/qr) that says `text`: a link for another phone's camera. */
export const qrOf = (text) => `/v1/qr?text=${encodeURIComponent(text)}`;
