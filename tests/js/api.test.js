// Which failed requests are worth sending again as they are.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ApiError, worthRetrying } from "../../api/static/api.js";

test("no connection, a busy or failing server are worth a retry; a refusal of the request is not", () => {
  const retried = [0, 429, 500, 502, 503].map((status) => worthRetrying(new ApiError(status, [])));
  const refused = [400, 413, 415, 422].map((status) => worthRetrying(new ApiError(status, [])));
  assert.deepEqual(retried, [true, true, true, true, true]);
  assert.deepEqual(refused, [false, false, false, false]);
});
