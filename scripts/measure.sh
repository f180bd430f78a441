#!/bin/bash
# The recogniser's measurements, as the model card gives them (run from the repository root, `fanshot` on the path):
#   bash scripts/measure.sh sets                          build every evaluation set under work/ (about 6 minutes)
#   bash scripts/measure.sh choice NAME MODELS [OPTIONS]  the choice sets → work/choice-NAME.json
#   bash scripts/measure.sh heldout NAME MODELS [OPTIONS] the test split and held-out sets → work/heldout-NAME.json
#   bash scripts/measure.sh compare BASE CANDIDATE [OPTIONS]  the choice rule's verdict on the choice sets
# OPTIONS go to `fanshot eval` (e.g. --conf 0.4, --without zoom_in; for compare --base-without zoom_in,
# --candidate-conf 0.4, --report DIR). Or judge two saved reports with
#   fanshot choose work/choice-shipped.json work/choice-NAME.json
# The choice sets choose; the test split and the held-out sets are read once per shipped version, never to choose.
set -euo pipefail
E=work/evalsets
# the nine art sources before 2026-12-02: the render sets drawn then are drawn the same again
OLD="--art drawn --art drawn-kai --art gnome-postmodern --art gnome-smooth --art kmahjongg-default
     --art kmahjongg-traditional --art noto-symbols2 --art symbola --art xmahjongg-real"

sets() {
  fanshot dataset import ../shared/data/chinese-mahjong-detection work/real43  # applies our label corrections
  for split in valid test; do fanshot dataset manifest work/real43/$split --out work/real43/$split.jsonl; done
  fanshot art && fanshot art --source kmahjongg-classic  # Debian's librsvg2-bin draws the SVG sets
  fanshot synth --randomise --n 200 --seed 4343 $OLD --out work/tune-random
  fanshot synth --n 200 --seed 4545 $OLD --out work/tune-plain
  fanshot evalsets --out $E
  fanshot evalsets --out work/clutter-tune --seed 200 --rows 0 --big 0 --clutter 100
  fanshot synth --art kmahjongg-classic --n 20 --seed 3101 --out work/classic-adapt
  fanshot synth --scatter --n 150 --seed 7171 --out work/scatter-tune
  # held out
  fanshot synth --n 200 --seed 5151 $OLD --out $E/rendered
  fanshot synth --randomise --n 150 --seed 6161 $OLD --out work/rendered-random-v2
  fanshot synth --scatter --n 150 --seed 7272 --out work/scatter-eval
  python3 benchmarks/vision_latency.py --make-12mp work/real43/test.jsonl --out work/test-12mp
}

# the choice sets, in the order the model card lists them
CHOICE="work/real43/valid.jsonl work/tune-random work/tune-plain $E/web-closeups-train/manifest.jsonl
        $E/mixed-rows-train $E/small-12mp-train $E/tiny-12mp-train work/clutter-tune/clutter/manifest.jsonl
        work/clutter-tune/clutter-train/manifest.jsonl work/classic-adapt work/scatter-tune"

case "${1:-}" in
  sets) sets ;;
  choice)
    name=$2 models=$3; shift 3
    fanshot eval $CHOICE --split . --json --photos --models "$models" "$@" > work/choice-$name.json ;;
  compare)  # the choice rule's verdict on a candidate: both versions read the choice sets (OPTIONS: --report DIR,
    base=$2 candidate=$3; shift 3  # --base-without STAGE, --candidate-conf 0.4, ...; see fanshot eval --help)
    fanshot eval $CHOICE --split . --compare "$base" "$candidate" "$@" ;;
  heldout)
    name=$2 models=$3; shift 3
    fanshot eval work/real43/test.jsonl work/test-12mp/manifest.jsonl $E/rendered work/rendered-random-v2 \
      $E/web-closeups/manifest.jsonl $E/mixed-rows $E/small-12mp $E/tiny-12mp $E/clutter/manifest.jsonl work/scatter-eval \
      --split . --json --photos --models "$models" "$@" > work/heldout-$name.json ;;
  *) echo "usage: bash scripts/measure.sh sets | choice NAME MODELS [OPTIONS] | heldout NAME MODELS [OPTIONS]" \
          "| compare BASE CANDIDATE [OPTIONS]" >&2
     exit 2 ;;
esac
