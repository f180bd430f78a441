#!/bin/bash
# Train the localiser on a GPU machine that has torch but not ultralytics (this project's device machine), in one
# call. Carried with the working tree:
#   .whl/       ultralytics and ultralytics-thop wheels (pip download --no-deps ultralytics==8.4.190 ultralytics-thop)
#   gpu/data    `fanshot train pack` output: the real photos, rows of web crops, photos of no tile, shrunk
#   gpu/art     the art cache's faces/ and backgrounds/, and the drawn faces' font (pkgs/fonts-wqy-microhei)
# There, it renders RANDOMISED randomised, SCATTERED scattered and PLAIN plain photos on every core, adds them to
# the pack, and trains from models/localiser.onnx with 2 warm-up epochs. Writes best.pt, last.pt, results.csv,
# args.yaml and the log to $OUT.
# Env: HOURS (training budget, default 0.1), DEVICE (0; cpu for a dry run), BATCH (32), SEED (7000: renders take
# SEED, SEED+1, SEED+2), RANDOMISED (800), SCATTERED (1000), PLAIN (400), DATA (gpu/data), ART (gpu/art), PY (python3).
set -u -o pipefail
PY=${PY:-python3}; HOURS=${HOURS:-0.1}; DEVICE=${DEVICE:-0}; BATCH=${BATCH:-32}; SEED=${SEED:-7000}
RANDOMISED=${RANDOMISED:-800}; SCATTERED=${SCATTERED:-1000}; PLAIN=${PLAIN:-400}; DATA=${DATA:-gpu/data}; ART=${ART:-gpu/art}
CORES=$(nproc); start=$(date +%s); scratch=$(mktemp -d)
elapsed() { echo "$(( $(date +%s) - start )) s: $*"; }
if [ -d .whl ]; then
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
$PY -c "import torch, ultralytics, onnx; print('torch', torch.__version__, 'ultralytics', ultralytics.__version__, 'cuda', torch.cuda.is_available())" || exit 1
renders=$scratch/renders
fanshot synth --randomise --n $RANDOMISED --seed $SEED --art-cache $ART --workers $CORES --out $renders/randomised || exit 1
fanshot synth --scatter --n $SCATTERED --seed $((SEED + 1)) --art-cache $ART --workers $CORES --out $renders/scattered || exit 1
fanshot synth --n $PLAIN --seed $((SEED + 2)) --art-cache $ART --workers $CORES --out $renders/plain || exit 1
elapsed rendered
data=$scratch/data; cp -r $DATA $data  # the carried pack stays as it came
fanshot train pack --link --out $data --extra $renders/randomised --extra $renders/scattered --extra $renders/plain || exit 1
elapsed packed; ls $data/localiser/train/images | wc -l
runs=$scratch/runs
fanshot train localiser --data $data --runs $runs --name loc-gpu --init models/localiser.onnx --warmup-epochs 2 \
  --hours $HOURS --batch $BATCH --device $DEVICE --workers $((CORES - 1)) > $OUT/loc-gpu.log 2>&1
status=$?
elapsed "trained (exit $status)"
cp $runs/loc-gpu/weights/best.pt $runs/loc-gpu/weights/last.pt $runs/loc-gpu/results.csv $runs/loc-gpu/args.yaml $OUT/
tail -4 $OUT/loc-gpu.log; cut -d, -f1-9 $runs/loc-gpu/results.csv
exit $status
