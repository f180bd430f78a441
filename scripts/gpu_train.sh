#!/bin/bash
# Train both models on the GPU machine in one call (issue 33 item 4; the GPU issue runs it), ending within 9
# minutes. Carried with the working tree (models/ holds the start):
#   .whl/      the wheels that machine lacks (scripts/gpu_wheels.txt: ultralytics, onnxslim, pydantic, ...)
#   gpu/data   `fanshot train pack` output: tiles/ (real photos, rows of web crops) and negatives/ (no tile)
#   gpu/art    the art cache's faces/ and backgrounds/, and the drawn faces' font (pkgs/fonts-wqy-microhei)
# There it renders RANDOMISED randomised, SCATTERED scattered and PLAIN plain photos on every core, builds the
# localiser's set and the classifier's crops from the pack and the renders (`fanshot train data`, not-a-tile
# crops from the negatives), trains the localiser and then the classifier, each from the shipped model, and
# exports both to ONNX with a vision.json that keeps the shipped recogniser's settings: $OUT/models, ready for
# `fanshot eval --models` and `fanshot choose`. Both checkpoints go to $OUT/checkpoints.tar, the logs and results
# in logs.tgz.
# Time: what is left of DEADLINE seconds after the data is built, less RESERVE for the exports, goes to the
# localiser (LOCALISER_SHARE of it) and then to the classifier (the rest), unless LOCALISER_HOURS or
# CLASSIFIER_HOURS is set.
# Env: DEADLINE (500), RESERVE (75), LOCALISER_SHARE (0.65), DEVICE (0), BATCH (32), CLASSIFIER_BATCH (256),
# CLASSIFIER_LR0 (0.0002), SEED (7000: renders take SEED, SEED+1, SEED+2), RANDOMISED (800), SCATTERED (1000),
# PLAIN (400), DATA (gpu/data), ART (gpu/art), PY (python3).
#   --dry-run   the same steps on the CPU at toy size (a test runs it, so the recipe cannot rot between GPU
#               runs): without DATA, a pack of a few rendered photos made first; tiny budgets and batches.
set -u -o pipefail
PY=${PY:-python3}; start=$(date +%s); scratch=$(mktemp -d); CORES=$(nproc)
trap 'rm -rf "$scratch"' EXIT
DRY_RUN=$([ "${1:-}" = "--dry-run" ] && echo 1)
if [ -n "$DRY_RUN" ]; then
  DEVICE=cpu; RANDOMISED=${RANDOMISED:-2}; SCATTERED=${SCATTERED:-2}; PLAIN=${PLAIN:-2}; BATCH=${BATCH:-4}
  CLASSIFIER_BATCH=${CLASSIFIER_BATCH:-16}; LOCALISER_HOURS=${LOCALISER_HOURS:-0.001}
  CLASSIFIER_HOURS=${CLASSIFIER_HOURS:-0.001}; ART=${ART:-$scratch/no-art}; CORES=1
elif [ -n "${1:-}" ]; then
  echo "usage: [ENV=...] bash scripts/gpu_train.sh [--dry-run]" >&2; exit 2
fi
DEADLINE=${DEADLINE:-500}; RESERVE=${RESERVE:-75}; LOCALISER_SHARE=${LOCALISER_SHARE:-0.65}; DEVICE=${DEVICE:-0}
BATCH=${BATCH:-32}; CLASSIFIER_BATCH=${CLASSIFIER_BATCH:-256}; CLASSIFIER_LR0=${CLASSIFIER_LR0:-0.0002}
SEED=${SEED:-7000}; RANDOMISED=${RANDOMISED:-800}; SCATTERED=${SCATTERED:-1000}; PLAIN=${PLAIN:-400}
ART=${ART:-gpu/art}; OUT=${OUT:?OUT: the folder the weights and logs go to}
elapsed() { echo "$(( $(date +%s) - start )) s: $*"; }
# hours for a stage: its env setting, else SHARE of the seconds left before DEADLINE less RESERVE
hours() { [ -n "$1" ] && { echo "$1"; return; }
  $PY -c "import sys; left = $DEADLINE - ($(date +%s) - $start) - $RESERVE; print(f'{max(left * $2, 60) / 3600:.4f}')"; }
if [ -d .whl ] && [ -z "$DRY_RUN" ]; then  # wheels for the GPU machine's Python, not this one's
  $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target $scratch/site .whl/*.whl || exit 1
fi
# The folders install under the name `fanshot` (pyproject's package-dir); uninstalled, a folder of links gives them
# that name, and `python -P` keeps the checkout's own fanshot/ (the command alone) off the path.
src=$scratch/src; mkdir -p $src/fanshot; cp fanshot/*.py $src/fanshot/
for package in api vision scoring datasets models; do ln -sfn "$PWD/$package" $src/fanshot/$package; done
# gpu_stubs: stand-ins for two packages the GPU machine lacks and the call cannot carry: polars (ultralytics' trainer
# reads its results.csv with it) and pillow_heif (fanshot's image reader registers HEIC; training reads none).
export PYTHONPATH=$scratch/site:$PWD/scripts/gpu_stubs:$src PYTHONUNBUFFERED=1
fanshot() { $PY -P -m fanshot "$@"; }
nvidia-smi -L 2>/dev/null; echo "$CORES cores"
$PY -c "import torch, ultralytics, onnx, pydantic; print('torch', torch.__version__, 'ultralytics', ultralytics.__version__, 'cuda', torch.cuda.is_available())" || exit 1
renders=$scratch/renders
if [ -z "${DATA:-}" ] && [ -n "$DRY_RUN" ]; then  # a toy pack: a few renders as both splits
  toy=$scratch/toy; fanshot synth --n 3 --seed 1 --art-cache $ART --workers 1 --out $toy/train || exit 1
  ln -s train $toy/valid; cp $toy/train/data.yaml $toy/data.yaml
  fanshot train pack $toy --out $scratch/pack --negatives $toy/train || exit 1
  DATA=$scratch/pack
fi
DATA=${DATA:-gpu/data}
fanshot synth --randomise --n $RANDOMISED --seed $SEED --art-cache $ART --workers $CORES --out $renders/randomised || exit 1
fanshot synth --scatter --n $SCATTERED --seed $((SEED + 1)) --art-cache $ART --workers $CORES --out $renders/scattered || exit 1
fanshot synth --n $PLAIN --seed $((SEED + 2)) --art-cache $ART --workers $CORES --out $renders/plain || exit 1
elapsed rendered
data=$scratch/data
fanshot train data $DATA/tiles --out $data --extra $renders/randomised --extra $renders/scattered \
  --extra $renders/plain --extra $DATA/negatives --negatives $DATA/negatives || exit 1
elapsed "data built"; ls $data/localiser/train/images | wc -l
runs=$scratch/runs
fanshot train localiser --data $data --runs $runs --name localiser --init models/localiser.onnx --warmup-epochs 2 \
  --hours $(hours "${LOCALISER_HOURS:-}" $LOCALISER_SHARE) --batch $BATCH --device $DEVICE --workers $((CORES - 1)) \
  > $OUT/localiser.log 2>&1 || { tail -20 $OUT/localiser.log; exit 1; }
elapsed "localiser trained"
fanshot train classifier --data $data --runs $runs --name classifier --init models/classifier.onnx \
  --lr0 $CLASSIFIER_LR0 --warmup-epochs 0.3 --hours $(hours "${CLASSIFIER_HOURS:-}" 1) --batch $CLASSIFIER_BATCH \
  --device $DEVICE --workers $((CORES - 1)) > $OUT/classifier.log 2>&1 || { tail -20 $OUT/classifier.log; exit 1; }
elapsed "classifier trained"
# the shipped settings, kept by the export, and the second look's localiser and the small faces' classifier they
# name (not retrained here)
mkdir -p $OUT/models && cp models/vision.json models/localiser-second.onnx models/classifier-small.onnx $OUT/models/
fanshot train export --runs $runs --out $OUT/models --command-line \
  "DEVICE=$DEVICE SEED=$SEED RANDOMISED=$RANDOMISED SCATTERED=$SCATTERED PLAIN=$PLAIN bash scripts/gpu_train.sh" \
  > $OUT/export.log 2>&1 || { tail -20 $OUT/export.log; exit 1; }
for kind in localiser classifier; do
  cp $runs/$kind/results.csv $OUT/$kind-results.csv; cp $runs/$kind/weights/best.pt $OUT/$kind-best.pt
  tail -3 $OUT/$kind-results.csv | cut -d, -f1-8
done
# At most 8 files come back from the device machine: the logs and the epochs' results travel as one archive and
# both checkpoints as another, so that the models folder (5 files), checkpoints.tar, logs.tgz and the call's own
# run.log make 8.
logs=(localiser.log classifier.log export.log localiser-results.csv classifier-results.csv)
tar -czf $OUT/logs.tgz -C $OUT "${logs[@]}" && (cd $OUT && rm "${logs[@]}")
tar -cf $OUT/checkpoints.tar -C $OUT localiser-best.pt classifier-best.pt && rm $OUT/localiser-best.pt $OUT/classifier-best.pt
elapsed "exported to $OUT/models"
