#!/bin/bash
# The CPU replay localisers' training data (models/experiments/2026-12-06-cpu-replay-localiser.md): every kind of
# photo the shipped localiser reads, replayed so that a fine-tune forgets none. Run from the repository root with
# `fanshot` on the path:
#   bash scripts/replay_data.sh replay|replay2|replay3     → work/<name>-data (a localiser YOLO folder, linked)
# replay: the first mix (close-ups and 12 MP crops ×2); replay2: + tiny 12 MP crops at 14-48 tile widths, clutter
# and randomised ×2; replay3: close-ups and small 12 MP crops ×4. Each run then trains with the command its
# vision.json `training` line gives (about 20 min an epoch on 2 cores).
set -euo pipefail
name=${1:?"which mix: replay, replay2 or replay3"}
R=work/replay P=work/replay/pack
ART=${ART:-gpu/art}  # the renders were drawn in the art as scripts/gpu_carry.sh copies it (backgrounds at 1,200 px)
[ -d "$ART/faces" ] || { echo "no $ART/faces: run scripts/gpu_carry.sh first (it copies the art), or set ART" >&2; exit 2; }
bash scripts/measure.sh sets  # work/real43 and the evaluation sets
[ -d work/train-rows ] || fanshot evalsets --train-rows 300 --seed 501 --out work/train-rows
[ -d work/clutter-neg ] || fanshot evalsets --out work/clutter-neg --seed 100 --rows 0 --big 0 --clutter 150
# the real photos, rows and negatives as scripts/gpu_carry.sh packed them before 2026-12-06's fourth session
[ -d $P ] || fanshot train pack work/real43 --out $P --most-valid 200 --extra work/train-rows \
  --negatives work/clutter-neg/clutter --negatives work/clutter-neg/clutter-train
[ -d $R/scattered ] || fanshot synth --scatter --n 500 --seed 7411 --art-cache "$ART" --out $R/scattered
[ -d $R/randomised ] || fanshot synth --randomise --n 400 --seed 7410 --art-cache "$ART" --out $R/randomised
[ -d $R/plain ] || fanshot synth --n 300 --seed 7412 --art-cache "$ART" --out $R/plain
[ -d $R/closeup-real ] || python scripts/replay_crops.py closeup work/real43 $R/closeup-real --n 150 --seed 7420
[ -d $R/closeup-plain ] || python scripts/replay_crops.py closeup $R/plain $R/closeup-plain --n 150 --seed 7422
[ -d $R/twelve ] || fanshot evalsets --out $R/twelve --seed 900 --rows 0 --big 25 --clutter 0
[ -d $R/hand-small ] || python scripts/replay_crops.py hand $R/twelve/small-12mp-train $R/hand-small --n 100 --seed 7421
[ -d $R/hand-tiny ] || python scripts/replay_crops.py hand $R/twelve/tiny-12mp-train $R/hand-tiny --n 100 --seed 7423
[ -d $R/far-tiny ] || python scripts/replay_crops.py far $R/twelve/tiny-12mp-train $R/far-tiny --n 100 --seed 7424
times() { for _ in $(seq "$2"); do printf '%s ' "$R/$1"; done; }
case $name in
  replay) extra="$P/negatives $(times scattered 1) $(times randomised 1) $(times plain 1) $(times closeup-real 2)
                 $(times closeup-plain 2) $(times hand-small 2) $(times hand-tiny 2)" ;;
  replay2) extra="$P/negatives $P/negatives $(times scattered 1) $(times randomised 2) $(times plain 1)
                  $(times closeup-real 2) $(times closeup-plain 2) $(times hand-small 2) $(times far-tiny 2)" ;;
  replay3) extra="$P/negatives $P/negatives $(times scattered 1) $(times randomised 2) $(times plain 1)
                  $(times closeup-real 4) $(times closeup-plain 4) $(times hand-small 4) $(times far-tiny 2)" ;;
  *) echo "unknown mix $name: replay, replay2 or replay3" >&2; exit 2 ;;
esac
python - "$P/tiles" "work/$name-data/localiser" $extra <<'EOF'
import sys
from pathlib import Path
from fanshot.vision.training.train import build_localiser_dataset
print(build_localiser_dataset(Path(sys.argv[1]), Path(sys.argv[2]), [Path(x) for x in sys.argv[3:]]))
EOF
