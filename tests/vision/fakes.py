"""A recogniser whose localiser is a function of the test's: the stages run on finds the test chooses."""

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from fanshot.vision.config import RecogniserConfig
from fanshot.vision.recogniser import Detections, Recogniser

# (image, conf, fill) → (boxes, scores, kinds) before the threshold: the fake keeps those scoring `conf` or more
Finds = Callable[[np.ndarray, float, float], tuple[np.ndarray, np.ndarray, list[str]]]


@dataclass(frozen=True)
class FakeRecogniser(Recogniser):
    """Runs `finds` in place of the localiser, and records each call's (conf, fill) in `calls` (shared by the
    copies `with_config` makes)."""

    finds: Finds | None = None
    calls: list[tuple[float, float]] = field(default_factory=list)

    def localise(self, image: np.ndarray, conf: float, fill: float = 1.0) -> Detections:
        self.calls.append((conf, fill))
        boxes, scores, kinds = self.finds(image, conf, fill)
        keep = np.asarray(scores) >= conf
        return Detections(np.asarray(boxes, float).reshape(-1, 4)[keep], np.asarray(scores, float)[keep],
                          [kind for kind, kept in zip(kinds, keep, strict=True) if kept])


def fake_recogniser(finds: Finds, config: RecogniserConfig | None = None, size: int = 416) -> FakeRecogniser:
    return FakeRecogniser(None, size, ["face", "back"], None, 64, ["1m", "2m", "3m", "4m"],
                          config or RecogniserConfig(conf=0.5, unsure=0.3), finds=finds)


def nothing() -> tuple[np.ndarray, np.ndarray, list[str]]:
    return np.zeros((0, 4)), np.zeros(0), []
