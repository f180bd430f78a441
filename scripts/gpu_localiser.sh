#!/bin/bash
# Train the localiser on a GPU machine that has torch but not ultralytics (this project's device machine):
# ultralytics travels as wheels in .whl/ (pip download --no-deps ultralytics==8.4.190 ultralytics-thop), the
# dataset as `fanshot train pack` output in gpu/data. From models/localiser.onnx, 2 warm-up epochs.
# Writes best.pt, last.pt, results.csv and the log to $OUT.   Env: HOURS (budget, default 0.1), DEVICE (0; cpu
# for a dry run here), WORKERS (15), PY (python3).
set -u
PY=${PY:-python3}; HOURS=${HOURS:-0.1}; DEVICE=${DEVICE:-0}; WORKERS=${WORKERS:-15}
if [ -d .whl ]; then
  $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
fi
# polars_stub: ultralytics' trainer imports polars to read its results.csv; polars is not there and too big to carry.
export PYTHONPATH=/tmp/site:$PWD/scripts/polars_stub:$PWD PYTHONUNBUFFERED=1
nvidia-smi -L 2>/dev/null; nproc
$PY -c "import torch, ultralytics, onnx; print('torch', torch.__version__, 'ultralytics', ultralytics.__version__, 'cuda', torch.cuda.is_available())" || exit 1
runs=/tmp/runs-gpu; start=$(date +%s)
$PY -m fanshot train localiser --data gpu/data --runs $runs --name loc-gpu --init models/localiser.onnx --warmup-epochs 2 \
  --hours $HOURS --batch 32 --device $DEVICE --workers $WORKERS > $OUT/loc-gpu.log 2>&1
echo "trained in $(( $(date +%s) - start )) s"
cp $runs/loc-gpu/weights/best.pt $runs/loc-gpu/weights/last.pt $runs/loc-gpu/results.csv $OUT/
tail -4 $OUT/loc-gpu.log; cut -d, -f1-9 $runs/loc-gpu/results.csv
