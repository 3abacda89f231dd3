"""The production image holds a runnable app: its file tree, built here the way the Dockerfile's
COPY lines build it from a context filtered by .dockerignore (no Docker engine is needed), has
every package pyproject's ``find`` installs, and ``kg.cli`` and ``api.app`` import from that tree
alone, with the editable install of this checkout taken out of the import system."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path, PurePosixPath

import pytest

ROOT = Path(__file__).resolve().parents[2]


def dockerignore_rules(text: str) -> list[tuple[bool, re.Pattern[str]]]:
    """(negated, regex) per line, as Docker's pattern matcher reads them: from the context root
    (a bare name matches only at the top), ``*`` within one path segment, ``**`` across any."""
    rules: list[tuple[bool, re.Pattern[str]]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        pattern = os.path.normpath(line.removeprefix("!").strip()).lstrip("/")
        rules.append((negated, re.compile(_glob_regex(pattern) + r"\Z")))
    return rules


def _glob_regex(pattern: str) -> str:
    out, i = "", 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out, i = out + "(?:.*/)?", i + 3
        elif pattern.startswith("**", i):
            out, i = out + ".*", i + 2
        elif pattern[i] == "*":
            out, i = out + "[^/]*", i + 1
        elif pattern[i] == "?":
            out, i = out + "[^/]", i + 1
        else:
            out, i = out + re.escape(pattern[i]), i + 1
    return out


def ignored(rel: str, rules: list[tuple[bool, re.Pattern[str]]]) -> bool:
    """Docker excludes a path when the last rule matching it, or one of its parent folders, is
    not a ``!`` rule."""
    parts = PurePosixPath(rel).parts
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    state = False
    for negated, rx in rules:
        if any(rx.match(p) for p in prefixes):
            state = not negated
    return state


def copy_instructions(dockerfile: str) -> tuple[list[tuple[list[str], str]], str]:
    """(sources, absolute destination) of each COPY from the build context, in order, and the
    last WORKDIR (where the app runs)."""
    text = re.sub(r"\\\n", " ", dockerfile)
    workdir = "/"
    copies: list[tuple[list[str], str]] = []
    for line in text.splitlines():
        words = line.strip().split(None, 1)
        if len(words) < 2:
            continue
        op, rest = words[0].upper(), words[1].strip()
        if op == "WORKDIR":
            workdir = str(PurePosixPath(workdir) / rest)
        elif op == "COPY":
            args = json.loads(rest) if rest.startswith("[") else shlex.split(rest)
            flags = [a for a in args if a.startswith("--")]
            assert not any(f.startswith("--from") for f in flags), "copy from a stage: extend me"
            *sources, dest = [a for a in args if not a.startswith("--")]
            target = str(PurePosixPath(workdir) / dest) + ("/" if dest.endswith("/") else "")
            copies.append((sources, target))
    return copies, workdir


def build_image_tree(context: Path, image: Path) -> Path:
    """The files the Dockerfile's COPY lines put in the image, under ``image`` as its root;
    returns the app's folder (the last WORKDIR) there."""
    rules = dockerignore_rules((context / ".dockerignore").read_text(encoding="utf-8"))
    assert not any(neg for neg, _ in rules), "'!' rules are not modelled here: extend me"
    copies, workdir = copy_instructions((context / "Dockerfile").read_text(encoding="utf-8"))
    for sources, dest in copies:
        target = image / dest.lstrip("/")
        for src in sources:
            origin = (context / src).resolve()
            rel = origin.relative_to(context).as_posix()
            if rel != "." and ignored(rel, rules):
                continue
            if origin.is_dir():
                _copy_dir(context, origin, target, rules)
            else:
                into = target / origin.name if dest.endswith("/") or len(sources) > 1 else target
                into.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(origin, into)
    return image / workdir.lstrip("/")


def _copy_dir(
    context: Path, origin: Path, target: Path, rules: list[tuple[bool, re.Pattern[str]]]
) -> None:
    for folder, dirs, files in os.walk(origin):
        here = Path(folder)
        rel_here = here.relative_to(context)
        dirs[:] = [d for d in dirs if not ignored((rel_here / d).as_posix(), rules)]
        out = target / here.relative_to(origin)
        out.mkdir(parents=True, exist_ok=True)
        for name in files:
            if not ignored((rel_here / name).as_posix(), rules):
                shutil.copy2(here / name, out / name, follow_symlinks=False)
        # A symlinked folder the walk does not enter (a checkout's node_modules link) is sent
        # by Docker as the link itself.
        for d in dirs:
            if (here / d).is_symlink():
                os.symlink(os.readlink(here / d), out / d)


def package_roots() -> list[str]:
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = meta["tool"]["setuptools"]["packages"]["find"]["include"]
    return [p.rstrip("*").rstrip(".") for p in include]


def test_dockerignore_reads_like_docker() -> None:
    rules = dockerignore_rules("**/node_modules\n.git\ntools/neo4j/lib\n")
    assert ignored("tools/explorer/node_modules/cytoscape/a.js", rules)
    assert ignored(".git/HEAD", rules)
    assert not ignored("api/.gitkeep", rules)
    assert ignored("tools/neo4j/lib/neo4j.jar", rules)
    assert not ignored("tools/neo4j/pom.xml", rules)
    # Unlike .gitignore, a bare name is matched at the context root only.
    assert not ignored("sub/.git/HEAD", dockerignore_rules(".git\n"))


def test_context_leaves_out_heavy_and_private_paths() -> None:
    rules = dockerignore_rules((ROOT / ".dockerignore").read_text(encoding="utf-8"))
    for path in (".venv/bin/python", ".kg/graph.kuzu", ".git/HEAD", ".env", "x/.kg/g.kuzu"):
        assert ignored(path, rules), path
    for path in ("tools/explorer/node_modules/x.js", "api/__pycache__/app.cpython-311.pyc"):
        assert ignored(path, rules), path
    for path in ("kg/cli.py", "core/errors.py", "llm/config.py", "pyproject.toml", "README.md"):
        assert not ignored(path, rules), path


@pytest.mark.slow
def test_image_tree_has_every_package_and_imports_the_app(tmp_path: Path) -> None:
    image = tmp_path / "image"
    app = build_image_tree(ROOT, image)
    assert (app / "pyproject.toml").is_file() and (app / "README.md").is_file()
    missing = [p for p in package_roots() if not (app / p / "__init__.py").is_file()]
    assert not missing, f"packages pyproject installs but the image lacks: {missing}"
    assert list((app / "cypher" / "kuzu").glob("*.cypher")), "the named queries are data files"
    assert not (app / ".venv").exists() and not (app / ".git").exists()
    # This checkout's editable install would find any package the image lacks: take it out,
    # check it is out, then import from the image's tree only.
    probe = f"""
import importlib, importlib.util, sys
sys.meta_path[:] = [f for f in sys.meta_path
                    if not getattr(f, "__module__", "").startswith("__editable__")]
sys.path_hooks[:] = [h for h in sys.path_hooks
                     if not getattr(h, "__module__", "").startswith("__editable__")]
sys.path_importer_cache.clear()
assert importlib.util.find_spec("core") is None, "the editable install is still importable"
sys.path.insert(0, {str(app)!r})
for name in ("kg.cli", "api.app", *{package_roots()!r}):
    module = importlib.import_module(name)
    assert module.__file__.startswith({str(app)!r}), (name, module.__file__)
print("imported")
"""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-I", "-c", probe],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0 and "imported" in done.stdout, done.stderr[-3000:]
