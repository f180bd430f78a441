// Shots the server could not be reached for, kept on this device to send later (issue 39): each a Blob with what
// sending it needs, in IndexedDB, so a reload or a closed tab never loses one. The page sends them when it is
// back online, on its next load and on Try again; an entry goes once the server has answered (201), or has refused
// the shot for good (a 4xx other than 408/429: sending the same bytes again cannot pass, and the page says why).
import { worthRetrying } from "./api.js";

const GATEWAY = new Set([502, 503, 504]);

/** Whether a failed upload never reached the server: no connection, or a proxy's own page in the server's place
 *  (a 502/503/504 without the API's error list). Such a shot is kept; a refusal or a server error is not. */
export const unreachable = (error) => error.status === 0
  || (GATEWAY.has(error.status) && error.errors?.[0]?.code === "not_json");

/** Send every kept shot, oldest first, through `send(blob, meta)` (resolving to the server's answer); stop at the
 *  first that fails in a way a later try may cure. `{ sent: [{meta, answer}], refused: [{meta, error}], left }`. */
async function sendAll(store, send) {
  const report = { sent: [], refused: [], left: 0 };
  const entries = await store.all();
  for (const [index, { key, blob, meta }] of entries.entries()) {
    try {
      const answer = await send(blob, meta);
      await store.remove(key);
      report.sent.push({ meta, answer });
    } catch (error) {
      if (worthRetrying(error)) {
        report.left = entries.length - index;
        break;
      }
      await store.remove(key);
      report.refused.push({ meta, error });
    }
  }
  return report;
}

/** One sender at a time across this device's tabs (a shot sent twice would be read and stored twice). */
const acrossTabs = (run) => (globalThis.navigator?.locks ? navigator.locks.request("fanshot-outbox", run) : run());

/** The outbox on `store` ({ add(record), all() → [{key, ...record}] oldest first, remove(key) }). */
export function outboxOn(store, lock = acrossTabs) {
  let sending = null; // the run in progress: `online` and a page load at once send each shot once
  return {
    keepForLater: (blob, meta) => store.add({ blob, meta }),
    pending: () => store.all(),
    sendPending(send) {
      sending ??= lock(() => sendAll(store, send)).finally(() => { sending = null; });
      return sending;
    },
  };
}

/** The store in this browser's IndexedDB, opened on first use. */
export function indexedDbStore(name = "fanshot-outbox", table = "shots") {
  let opened = null;
  const open = () => opened ??= new Promise((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(table, { autoIncrement: true });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  /** Run `act(objectStore)` in a transaction; its requests, once the transaction is committed. */
  async function transact(mode, act) {
    const transaction = (await open()).transaction(table, mode);
    const requests = act(transaction.objectStore(table));
    await new Promise((resolve, reject) => {
      transaction.oncomplete = resolve;
      transaction.onerror = transaction.onabort = () => reject(transaction.error);
    });
    return requests;
  }
  return {
    add: async (record) => (await transact("readwrite", (shots) => shots.add(record))).result,
    async all() {
      const [keys, records] = await transact("readonly", (shots) => [shots.getAllKeys(), shots.getAll()]);
      return keys.result.map((key, index) => ({ key, ...records.result[index] }));
    },
    remove: (key) => transact("readwrite", (shots) => shots.delete(key)),
  };
}

export const { keepForLater, pending, sendPending } = outboxOn(indexedDbStore());
