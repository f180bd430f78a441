// Teaching Fanshot the table's tiles (issue 34): the time a job has left, when the page offers teaching, what the
// models section says of the saved photos, and the taps a finished job offers.
import assert from "node:assert/strict";
import { test } from "node:test";

import { offersTeaching, offerText, photosNote, resultChoices, secondsLeft, timeLeftText } from "../../api/static/adapt.js";
import { setLanguage } from "../../api/static/i18n.js";

const job = (progress, seconds, state = "running") => ({
  state, progress, created_at: "2026-12-05T10:00:00.000+00:00",
  updated_at: new Date(Date.parse("2026-12-05T10:00:00.000+00:00") + seconds * 1000).toISOString(),
});

test("time left: the rest at the pace so far, by the server's two stamps", () => {
  assert.equal(secondsLeft(job(0.25, 60)), 180); // a quarter in a minute: three minutes to go
  assert.equal(secondsLeft(job(0.5, 30)), 30);
});

test("time left: less what passed on the phone since the job last reported, never below zero", () => {
  assert.equal(secondsLeft(job(0.25, 60), 20), 160);
  assert.equal(secondsLeft(job(0.5, 30), 45), 0);
});

test("time left: nothing said until enough is done to tell, nor for a job queued or over", () => {
  assert.equal(secondsLeft(job(0, 5)), null);
  assert.equal(secondsLeft(job(0.04, 60)), null);
  assert.equal(secondsLeft(job(0.05, 0)), null); // no time measured yet
  assert.equal(secondsLeft(job(0.3, 10, "queued")), null);
  assert.equal(secondsLeft(job(1, 100, "done")), null);
});

test("time left in words: seconds in fives under a minute, then minutes, in both languages", () => {
  setLanguage("en");
  assert.equal(timeLeftText(4), "a few seconds left");
  assert.equal(timeLeftText(23), "about 25 s left");
  assert.equal(timeLeftText(180), "about 3 min left");
  assert.equal(timeLeftText(100), "about 2 min left");
  setLanguage("zh-Hans");
  assert.equal(timeLeftText(4), "还要几秒钟");
  assert.equal(timeLeftText(23), "大约还要 25 秒");
  assert.equal(timeLeftText(180), "大约还要 3 分钟");
  setLanguage("en");
});

const listing = (newPhotos, active = "base", auto = false) => ({
  active, confirmed_photos: newPhotos + 10, new_photos: newPhotos, photos_needed: 2, photos_suggested: 10,
  adapt_auto: auto, versions: [{ id: "base", photos: 0 }],
});

const saved = (confirmed) => ({ confirmed_photos: confirmed, photos_needed: 2, photos_suggested: 10 });

test("teaching is offered from 10 saved photos new to the version in use (the server counts them), not before", () => {
  assert.equal(offersTeaching(listing(9)), false);
  assert.equal(offersTeaching(listing(10)), true);
  assert.equal(offersTeaching(listing(14, "v1")), true);
});

test("the offer says whether it teaches from the shipped models or again from the version in use", () => {
  setLanguage("en");
  assert.match(offerText(listing(10)), /^You have saved 20 photos of your tiles\./);
  assert.match(offerText(listing(12, "v1")), /^You have saved 12 photos since the version in use \(v1\) learned\./);
  assert.match(offerText(listing(12, "v1", true)), /This server starts teaching by itself once 10 new photos are saved\.$/);
  setLanguage("zh-Hans");
  assert.match(offerText(listing(12, "v1")), /版本（v1）.*12 张照片/);
  setLanguage("en");
});

test("the models section says how many more photos teaching needs, and how many it learns well from", () => {
  setLanguage("en");
  assert.equal(photosNote(saved(1)), "Photos saved: 1. Teaching needs at least 2; save 1 more to start (from 10 on it learns well).");
  assert.equal(photosNote(saved(7)), "Photos saved: 7. You can teach now, but it learns your tiles well from 10 on: save 3 more for that.");
  assert.equal(photosNote(saved(10)), "Photos saved: 10: enough to teach Fanshot your tiles.");
  setLanguage("zh-Hans");
  assert.equal(photosNote(saved(7)), "已保存照片：7 张。现在就可以学，但 10 张起才学得好：再保存 3 张。");
  setLanguage("en");
});

const finished = (version, activated) => ({ state: "done", version, outcome: { activated, figures: {} } });

test("a new version in use: keep it, or roll back to the one in use before", () => {
  assert.deepEqual(resultChoices(finished("abc", true), "base"),
    [{ words: "teach_keep", version: null }, { words: "teach_roll_back", version: "base" }]);
  assert.deepEqual(resultChoices(finished("abc", true), "older"),
    [{ words: "teach_keep", version: null }, { words: "teach_roll_back", version: "older" }]);
});

test("a new version not switched to: use it anyway, or keep the one in use", () => {
  assert.deepEqual(resultChoices(finished("abc", false), "base"),
    [{ words: "teach_use_anyway", version: "abc" }, { words: "teach_keep_current", version: null }]);
});

test("no new version, or no version known to roll back to: nothing to switch", () => {
  assert.deepEqual(resultChoices(finished(null, false), "base"), [{ words: "close", version: null }]);
  assert.deepEqual(resultChoices(finished("abc", true), null), [{ words: "teach_keep", version: null }]);
});
