import pytest

from benchmarks import vision_latency
from fanshot.vision.recogniser import MODELS_DIR


class Clock:
    """A fake perf_counter that advances only when a timed system says how long it took."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_with_repeats_each_photo_keeps_its_fastest_time_per_system(tmp_path, monkeypatch):
    clock, settled = Clock(), []
    monkeypatch.setattr(vision_latency.time, "perf_counter", clock)
    monkeypatch.setattr(vision_latency.time, "sleep", settled.append)
    photos = [tmp_path / f"{k}.jpg" for k in range(3)]
    for photo in photos:
        photo.write_bytes(b"x")
    # each call takes the next of these ms (the first call of each system is the untimed warm-up)
    costs = {"fanshot": iter([5, 40, 10, 25, 30, 30, 30, 50, 20, 20]),
             "single_look": iter([5, 9, 9, 9, 9, 9, 9, 9, 9, 9]), "peer": iter([5, 80, 60, 70, 60, 60, 60, 90, 60, 60])}
    calls = {name: 0 for name in costs}

    def system(name):
        def run(data):
            calls[name] += 1
            clock.now += next(costs[name]) / 1000
            return {"image": {"width": 1, "height": 1}, "timing_ms": {"localise": 1.0, "classify": 1.0}}
        return run

    report = vision_latency.measure("640px", photos, {name: system(name) for name in costs}, repeat=3)
    assert calls == {name: 1 + 3 * 3 for name in costs}
    # fastest of each photo's three: fanshot 10, 30, 20; peer 60, 60, 60
    assert report["median_ms"] == {"fanshot": 20.0, "single_look": 9.0, "peer": 60.0}
    assert report["repeat"] == 3
    # every timed call waits first for the last one's ONNX Runtime threads to stop spinning
    assert settled == [vision_latency.SETTLE_S] * (3 * 3 * 3)


@pytest.mark.model
def test_a_candidate_models_folder_is_timed_beside_the_shipped_one():
    timed = vision_latency.systems(peer=False, candidates=[MODELS_DIR])
    assert set(timed) == {"fanshot", "single_look", f"models:{MODELS_DIR}"}
