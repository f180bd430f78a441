"""The `fanshot` command. Each package contributes its subcommands through a `register(subparsers)` function;
each subcommand is a thin shell over a library function and returns the process exit code."""

from __future__ import annotations

import argparse
import importlib
import signal
import sys

# Packages whose `cli` module registers subcommands. A package missing its optional dependencies
# (e.g. training without the `train` extra) still registers; it fails only when its subcommand runs.
SUBCOMMAND_MODULES = (
    "fanshot.scoring.cli", "fanshot.datasets.cli", "fanshot.datasets.synth.cli", "fanshot.vision.training.cli",
    "fanshot.vision.cli", "fanshot.vision.evaluation.cli", "fanshot.api.cli",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="fanshot", description="Photograph a revealed Guangdong mahjong hand, "
                                     "confirm the tiles, get the score.")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in SUBCOMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as missing:
            if missing.name == name:  # that package has no CLI yet
                continue
            raise
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `fanshot ... | head` ends quietly, like other tools
    args = build_parser().parse_args(argv)
    args.argv = sys.argv[1:] if argv is None else argv  # the command line, for what records it (eval --report)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
