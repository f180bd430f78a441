#!/bin/bash
# The recogniser's measurements, as the model card gives them (run from the repository root, `fanshot` on the path):
#   bash scripts/measure.sh sets                          build the evaluation sets not yet under work/ (about 6 minutes)
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
# the 14 art sources of 2026-12-02 to 12-06 (the scattered sets were drawn in them, before the drawn-* fonts came)
FOURTEEN="$OLD --art xmahjongg-dorothys --art xmahjongg-dorwhite --art xmahjongg-dorwhite-yellow
     --art xmahjongg-gnome --art xmahjongg-gnome2"

# Each set is built unless its folder is there already (scripts/gpu_carry.sh imports work/real43, say).
unless_built() { [ -e "$1" ] || "${@:2}"; }

sets() {
  unless_built work/real43 fanshot dataset import ../shared/data/chinese-mahjong-detection work/real43  # our corrections
  for split in valid test; do fanshot dataset manifest work/real43/$split --out work/real43/$split.jsonl; done
  fanshot art && fanshot art --source kmahjongg-classic  # Debian's librsvg2-bin draws the SVG sets
  unless_built work/tune-random fanshot synth --randomise --n 200 --seed 4343 $OLD --out work/tune-random
  unless_built work/tune-plain fanshot synth --n 200 --seed 4545 $OLD --out work/tune-plain
  unless_built $E fanshot evalsets --out $E
  unless_built work/clutter-tune fanshot evalsets --out work/clutter-tune --seed 200 --rows 0 --big 0 --clutter 100
  unless_built work/classic-adapt fanshot synth --art kmahjongg-classic --n 20 --seed 3101 --out work/classic-adapt
  unless_built work/scatter-tune fanshot synth --scatter --n 150 --seed 7171 $FOURTEEN --out work/scatter-tune
  # held out
  unless_built $E/rendered fanshot synth --n 200 --seed 5151 $OLD --out $E/rendered
  unless_built work/rendered-random-v2 fanshot synth --randomise --n 150 --seed 6161 $OLD --out work/rendered-random-v2
  unless_built work/scatter-eval fanshot synth --scatter --n 150 --seed 7272 $FOURTEEN --out work/scatter-eval
  unless_built work/test-12mp python3 benchmarks/vision_latency.py --make-12mp work/real43/test.jsonl --out work/test-12mp
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
