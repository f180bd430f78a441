"""Every relative link in the repository's Markdown files resolves to a file or folder in the checkout, so that moving
a document (the experiment log, the benchmark rounds) cannot strand the figures that cite it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOT_DOCS = {".git", "node_modules", "build", "dist", "work", "runs", "fanshot-data", "__pycache__"}
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def markdown_files() -> list[Path]:
    return sorted(path for path in ROOT.rglob("*.md")
                  if not any(part in NOT_DOCS or part.startswith(".venv") for part in path.relative_to(ROOT).parts))


def relative_links(text: str) -> list[str]:
    """Link targets outside fenced code and inline code, less web addresses and in-page anchors."""
    links, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced:
            continue
        prose = re.sub(r"`[^`]*`", "", line)
        links += [target for target in LINK.findall(prose)
                  if not re.match(r"[a-z][a-z0-9+.-]*:", target) and not target.startswith("#")]
    return links


def broken_links(path: Path) -> list[str]:
    return [target for target in relative_links(path.read_text())
            if not (path.parent / target.split("#")[0]).exists()]


def test_the_link_finder_sees_links_and_skips_code_addresses_and_anchors() -> None:
    text = ("[a](docs/A.md) ![b](b.png) [c](https://x.org) [d](#here) `[e](e.md)` [f](g.md#part)\n"
            "```\n[h](h.md)\n```\n")
    assert relative_links(text) == ["docs/A.md", "b.png", "g.md#part"]


@pytest.mark.parametrize("path", markdown_files(), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_relative_link_resolves(path: Path) -> None:
    assert broken_links(path) == [], f"{path.relative_to(ROOT)}: a link names no file; point it where the text moved"
