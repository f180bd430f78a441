#!/bin/bash
# Prepare what scripts/gpu_train.sh carries to the GPU machine, here: carry/gpu.tgz (gpu/data, gpu/art, .whl), and
# print its size beside the tracked files' (a call carries 64 MiB in all; .gitignore keeps all three out of git).
# Needs the train extra's fonttools (pyftsubset). On a fresh checkout it first imports the real
# photos (work/real43), fetches the art (`fanshot art`) and builds work/train-rows and work/clutter-neg.
set -euo pipefail
cd "$(dirname "$0")/.."
ART=${ART:-$HOME/.cache/fanshot/art}; PY=${PY:-python3}
fanshot() { $PY -m fanshot "$@"; }
[ -d work/real43 ] || fanshot dataset import ../shared/data/chinese-mahjong-detection work/real43
[ -d "$ART/faces" ] || fanshot art --cache "$ART"
[ -d work/train-rows ] || fanshot evalsets --train-rows 300 --seed 501 --out work/train-rows
[ -d work/clutter-neg ] || fanshot evalsets --out work/clutter-neg --seed 100 --rows 0 --big 0 --clutter 150
rm -rf gpu carry .whl && mkdir -p gpu/art/faces carry
# To fit the 64 MiB beside the tracked files (models/experiments/2026-12-04-gpu-both-models.md, 12-06; the tracked
# files grew 6.4 MB with the small-face classifier): 100 of the 296 valid photos (ultralytics' per-epoch check needs
# no more), one of each train photo's three Roboflow copies (ultralytics augments each epoch), WebP quality 70
fanshot train pack work/real43 --out gpu/data --most-valid 100 --variants 1 --quality 70 --extra work/train-rows \
  --negatives work/clutter-neg/clutter --negatives work/clutter-neg/clutter-train
for faces in "$ART"/faces/*; do  # every training source; never the adaptation-only art
  [ "$(basename "$faces")" = kmahjongg-classic ] || cp -r "$faces" gpu/art/faces/
done
cp -r "$ART/backgrounds" gpu/art/
$PY - <<'EOF'  # the table mats at 1,200 px instead of 1,600: renders take crops of them
import glob
import cv2
for path in glob.glob("gpu/art/backgrounds/*.jpg"):
    image = cv2.imread(path)
    scale = 1200 / max(image.shape[:2])
    if scale < 1:
        small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        cv2.imwrite(path, small, [cv2.IMWRITE_JPEG_QUALITY, 90])
EOF
# the drawn faces' font, subset to the glyphs drawn.py uses (the faces come out the same, 12 KB instead of 5 MB)
font=pkgs/fonts-wqy-microhei/usr/share/fonts/truetype/wqy/wqy-microhei.ttc
mkdir -p "gpu/art/$(dirname $font)"
glyphs=$($PY -c "print(''.join(sorted({c for c in open('datasets/synth/drawn.py', encoding='utf-8').read() if ord(c) > 127})))")
$PY -m fontTools.subset "$ART/$font" --font-number=0 --text="${glyphs}0123456789" --layout-features='*' \
  --glyph-names --notdef-outline --name-IDs='*' --name-languages='*' --hinting --legacy-kern \
  --output-file="gpu/art/$font"
$PY -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
  -d .whl -r scripts/gpu_wheels.txt
tar -czf carry/gpu.tgz gpu .whl
carried=$(stat -c %s carry/gpu.tgz); tracked=$(git ls-files -z | xargs -0 cat | wc -c)
echo "carry/gpu.tgz: $(( carried / 1024 / 1024 )) MiB; tracked files: $(( tracked / 1024 / 1024 )) MiB (64 MiB in all)"
if (( carried + tracked > 64 * 1024 * 1024 )); then  # the device tool would refuse the call
  echo "over 64 MiB by $(( (carried + tracked) / 1024 / 1024 - 64 )) MiB: carry less (--most-valid, fewer photos)" >&2
  exit 1
fi
# the device call (carry: ["carry"], timeout_s 580):
#   set -o pipefail; mkdir -p /tmp/g && tar -xzf carry/gpu.tgz -C /tmp/g && cp -r /tmp/g/.whl . && \
#   DATA=/tmp/g/gpu/data ART=/tmp/g/gpu/art bash scripts/gpu_train.sh 2>&1 | tee $OUT/run.log
