"""Evaluation: how well the models read photos (mAP, the tile-level breakdown, the report, the choice of a
model). Serving never imports this package; `fanshot.vision` holds what reads a photo."""
