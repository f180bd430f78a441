"""The installed package: the folders api/, vision/, scoring/, datasets/ and models/ install under one top-level name,
`fanshot`, so that nothing generic (Hugging Face's `datasets`, say) is shadowed or shadows it."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("api", "vision", "scoring", "datasets")  # importable only as fanshot.<folder>
NOT_SOURCE = {".venv", "node_modules", ".git", "build", "dist", "__pycache__", "fanshot-data", "work", "runs"}


def not_source(part: str) -> bool:
    return part in NOT_SOURCE or part.startswith(".venv") or part.endswith(".egg-info")


def python_files() -> list[Path]:
    return [path for path in ROOT.rglob("*.py") if not any(map(not_source, path.relative_to(ROOT).parts))]


def imports_of_a_bare_folder(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        found += [f"{path.relative_to(ROOT)}:{node.lineno} {name}" for name in names
                  if name.split(".")[0] in FOLDERS]
    return found


def test_no_code_imports_a_folder_by_its_bare_name() -> None:
    """The repository root is on sys.path under pytest, so `import api` would still work here and nowhere else."""
    assert [hit for path in python_files() for hit in imports_of_a_bare_folder(path)] == []


def build_wheel(out: Path) -> Path:
    """Build from a copy, so that the build leaves nothing in the checkout."""
    source = out / "source"
    shutil.copytree(ROOT, source, ignore=lambda _, names: [n for n in names if not_source(n) or n == "tests"])
    # this environment's setuptools (the dev extra) builds it: no isolated build environment to install each time
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(out), str(source)], check=True)
    (wheel,) = out.glob("fanshot-*.whl")
    return wheel


@pytest.mark.slow
def test_the_wheel_installs_only_fanshot_and_every_module_imports_from_it(tmp_path: Path) -> None:
    wheel = build_wheel(tmp_path)
    assert {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()} == {
        "fanshot", f"{wheel.name.split('-')[0]}-{wheel.name.split('-')[1]}.dist-info"}
    assert {"fanshot/api/static/i18n/en.js", "fanshot/api/static/live/localiser.js"} <= set(
        zipfile.ZipFile(wheel).namelist())  # the page's folders, not only its top level

    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "venv")], check=True)
    python = tmp_path / "venv/bin/python"
    site = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               capture_output=True, text=True, check=True).stdout.strip())
    empty = set(os.listdir(site))
    subprocess.run([sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps", "--no-index",
                    wheel], check=True)
    added = set(os.listdir(site)) - empty
    assert {name for name in added if not name.endswith(".dist-info")} == {"fanshot"}, added

    # Every module imports from the installed copy alone: run outside the checkout, with the dependencies of this
    # environment (its site-packages on PYTHONPATH; its .pth files, and so the editable install, are not read).
    check = (
        "import importlib, pkgutil, fanshot\n"
        "assert fanshot.__file__.startswith(SITE), fanshot.__file__\n"
        "names = [m.name for m in pkgutil.walk_packages(fanshot.__path__, 'fanshot.')\n"
        "         if m.name != 'fanshot.__main__']\n"
        "for name in names:\n"
        "    assert importlib.import_module(name).__file__.startswith(SITE), name\n"
        "from fanshot.vision.recogniser import MODELS_DIR\n"
        "from fanshot.scoring import ruleset_summaries\n"
        "from fanshot.datasets.corrections import SHIPPED\n"
        "assert (SHIPPED / 'chinese-mahjong-detection.tsv').is_file(), SHIPPED\n"
        "assert (MODELS_DIR / 'localiser.onnx').is_file() and (MODELS_DIR / 'vision.json').is_file(), MODELS_DIR\n"
        "assert len(ruleset_summaries()) == RULESETS\n"  # every rule set file of the checkout travels in the wheel
        "print(len(names))\n"
    ).replace("SITE", repr(str(site))).replace("RULESETS", str(len(list((ROOT / "scoring/rulesets").glob("*.toml")))))
    environment = {**os.environ, "PYTHONPATH": sysconfig.get_path("purelib")}
    result = subprocess.run([python, "-c", check], cwd=tmp_path, env=environment,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) > 50  # the whole product, not a stub
