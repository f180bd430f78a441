// Calls to the Fanshot API: JSON in, JSON out; a refusal becomes an ApiError carrying the API's error list.

export class ApiError extends Error {
  constructor(status, errors) {
    super(errors.map((error) => error.message).join("; ") || `HTTP ${status}`);
    this.status = status;
    this.errors = errors;
  }
}

export async function call(method, url, body) {
  const init = { method, headers: {} };
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["content-type"] = "application/json";
  }
  const response = await fetch(url, init);
  const isJson = (response.headers.get("content-type") || "").includes("json");
  const data = isJson ? await response.json() : null;
  if (!response.ok) throw new ApiError(response.status, data?.errors ?? []);
  return data;
}
