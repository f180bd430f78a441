"""Widening a classifier checkpoint to the crop folders' classes (a fine-tune that adds `NOT_A_TILE`), where the
`train` extra (torch, ultralytics) is installed."""


from tests.services import needs_train_extra

needs_train_extra()
import torch  # noqa: E402

from fanshot.vision.training.train import widened_classifier  # noqa: E402


def test_widened_classifier_keeps_known_rows_by_name_and_never_picks_the_new_class(tmp_path):
    from ultralytics.nn.tasks import ClassificationModel

    model = ClassificationModel("yolo11n-cls.yaml", nc=3, verbose=False).eval()
    model.names = {0: "3m", 1: "1m", 2: "2m"}  # an order the crop folders' (name order) does not share
    torch.save({"model": model.half(), "train_args": {"task": "classify"}}, tmp_path / "base.pt")
    crops = torch.rand(4, 3, 64, 64)
    before = model.float()(crops)[0]  # eval mode: (probabilities, logits)

    out = widened_classifier(tmp_path / "base.pt", ["1m", "2m", "3m", "none"], tmp_path / "wide.pt")

    wide = torch.load(out, weights_only=False)["model"].eval()
    assert wide.names == {0: "1m", 1: "2m", 2: "3m", 3: "none"}
    after = wide(crops)[0]
    assert after.shape == (4, 4)
    moved = [["1m", "2m", "3m"].index(model.names[int(i)]) for i in before.argmax(1)]
    assert after.argmax(1).tolist() == moved  # each crop still reads as the same class, now in its new row
