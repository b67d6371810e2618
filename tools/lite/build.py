"""Build the course as a JupyterLite site: one static folder that runs in any browser, offline.

    .lite/venv/bin/python tools/lite/build.py [--out site]     (make lite does this)

Everything comes from the package registries, pinned: the Pyodide core from npm (the version
jupyterlite-pyodide-kernel pins), the pure wheels of the kernel's packages that Pyodide's lock
names, and tools/lite/wheels.txt, from PyPI; agentlib is built from this checkout, with data/
inside its wheel so the doc tools find the docs as they do on a laptop. The site holds both
editions' notebooks and the docs, and its configuration names no other host.

Deliberately left out: Pyodide's compiled packages (pandas and numpy have no WebAssembly wheels
on PyPI; the token table does without them), the tiny local model (a laptop feature).
"""

import argparse
import base64
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

from jupyterlite_pyodide_kernel.constants import PYODIDE_KERNEL_PLUGIN_ID, PYODIDE_VERSION

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
WORK = ROOT / ".lite"  # the build's venv, download cache and staging folder; git ignores it
CORE = ["pyodide.mjs", "pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "package.json"]
KERNEL_NEEDS = ["micropip", "ipython", "jedi"]  # what the kernel loads from Pyodide's lock at start
PYODIDE_URL = "./static/pyodide/pyodide.mjs"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "site", help="the site's folder (default: site)")
    out = parser.parse_args(argv).out.resolve()
    started = time.monotonic()
    cache, stage = WORK / "cache", WORK / "stage"
    shutil.rmtree(stage, ignore_errors=True)  # a fresh stage and output: doit's cache cannot keep old state
    shutil.rmtree(out, ignore_errors=True)
    pyodide = stage / "static" / "pyodide"
    lock = pyodide_core(cache, pyodide)
    shipped = kernel_packages(lock, cache / "pyodide-wheels", pyodide)
    (pyodide / "pyodide-lock.json").write_text(json.dumps({**lock, "packages": shipped}, indent=1))
    pypi = stage / "pypi"
    download(requirements(HERE / "wheels.txt"), cache / "wheels", lock["info"], pypi)
    agentlib_wheel(pypi)
    contents = stage / "contents"
    for part in ("notebooks/de", "notebooks/en", "notebooks/images", "data"):
        shutil.copytree(ROOT / part, contents / part, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    shutil.copy(ROOT / "tools" / "lab-settings" / "overrides.json", stage)  # widget state saved with a notebook
    run(sys.executable, "-m", "jupyter", "lite", "build", "--lite-dir", stage, "--output-dir", out,
        "--contents", contents, "--apps", "lab", "--no-sourcemaps",
        cwd=stage)  # doit keeps its task database in the working folder: a fresh one every build
    configure(out / "jupyter-lite.json")
    check(out, shipped)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"built {out} in {time.monotonic() - started:.0f} s: {size / 2**20:.1f} MiB")


def run(*command, **options):
    subprocess.run([str(part) for part in command], check=True, **options)


def pyodide_core(cache, target):
    """Unpack npm's `pyodide` package (the core, no package wheels) into `target`; return its lock."""
    tgz = cache / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tgz.exists():
        cache.mkdir(parents=True, exist_ok=True)
        run("npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", cache, "--silent")
    target.mkdir(parents=True)
    with tarfile.open(tgz) as archive:
        for name in CORE:
            (target / name).write_bytes(archive.extractfile(f"package/{name}").read())
        return json.load(archive.extractfile("package/pyodide-lock.json"))


def kernel_packages(lock, cache, target):
    """The lock's entries for KERNEL_NEEDS and their dependencies, with PyPI's wheels next to the
    core. PyPI's wheels are other builds than Pyodide's, so each entry gets the hash of the file shipped.
    """
    packages, todo = {}, list(KERNEL_NEEDS)
    while todo:
        name = normal(todo.pop())
        if name not in packages:
            packages[name] = dict(lock["packages"][name])
            todo += packages[name]["depends"]
    pins = [f"{p['name']}=={p['version']}" for p in packages.values()]
    wheels = download(pins, cache, lock["info"], target)
    for entry in packages.values():
        wheel = wheels[normal(entry["name"])]
        entry.update(file_name=wheel.name, sha256=hashlib.sha256(wheel.read_bytes()).hexdigest())
    return packages


def download(pins, cache, info, target):
    """Download `pins` (name==version, no dependencies) for Pyodide's Python into `cache` once and
    copy them to `target`. Returns {normalized name: wheel in target}."""
    cache.mkdir(parents=True, exist_ok=True)
    have = {wheel_name(w): w for w in cache.glob("*.whl")}
    missing = [p for p in pins if normal(p.split("==")[0]) not in have
               or not have[normal(p.split("==")[0])].name.split("-")[1] == p.split("==")[1]]
    if missing:
        python = "".join(info["python"].split(".")[:2])  # 3.14.2 -> 314
        run(sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
            "--dest", cache, "--python-version", python, "--implementation", "cp", "--abi", f"cp{python}",
            "--platform", f"pyemscripten_{info['abi_version']}_wasm32", "--platform", "any", *missing)
        have = {wheel_name(w): w for w in cache.glob("*.whl")}
    target.mkdir(parents=True, exist_ok=True)
    chosen = {}
    for pin in pins:
        name, version = pin.split("==")
        wheel = have[normal(name)]
        if wheel.name.split("-")[1] != version:
            raise SystemExit(f"{wheel.name} is not {pin}: remove {cache} and build again")
        chosen[normal(name)] = Path(shutil.copy(wheel, target))
    return chosen


def requirements(path):
    return [line.split("#")[0].strip() for line in path.read_text().splitlines() if line.split("#")[0].strip()]


def normal(name):
    """PEP 503 name. Example: normal("Prompt_Toolkit") -> "prompt-toolkit"."""
    return name.lower().replace("_", "-").replace(".", "-")


def wheel_name(wheel):
    return normal(wheel.name.split("-")[0])


def agentlib_wheel(target):
    """A wheel of this checkout's agentlib with data/ beside the package, as in the repository,
    so agentlib.docs.DOCS and the evaluation's questions resolve in the browser too."""
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "source"
        source.mkdir()
        shutil.copy(ROOT / "pyproject.toml", source)
        shutil.copytree(ROOT / "agentlib", source / "agentlib", ignore=shutil.ignore_patterns("__pycache__"))
        run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
            "--wheel-dir", scratch, source)
        (built,) = Path(scratch).glob("*.whl")
        with_data(built, target / built.name)


def with_data(wheel, target):
    """Copy `wheel` to `target`, adding data/ at its top (site-packages/data, beside agentlib) and
    to its RECORD. (micropip does not install a wheel's .data/purelib folder.)"""
    data = [p for p in sorted((ROOT / "data").rglob("*")) if p.is_file()]
    with zipfile.ZipFile(wheel) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        record_name = next(n for n in old.namelist() if n.endswith(".dist-info/RECORD"))
        record = old.read(record_name).decode()
        for name in old.namelist():
            if name != record_name:
                new.writestr(name, old.read(name))
        for path in data:
            name, content = path.relative_to(ROOT).as_posix(), path.read_bytes()
            new.writestr(name, content)
            digest = base64.urlsafe_b64encode(hashlib.sha256(content).digest()).rstrip(b"=").decode()
            record += f"{name},sha256={digest},{len(content)}\n"
        new.writestr(record_name, record)


def configure(path):
    """Name the site and turn piplite's PyPI fallback off, after the build: a jupyter-lite.json in
    the lite folder is merged early, and later steps of the build may write over it."""
    config = json.loads(path.read_text())
    data = config["jupyter-config-data"]
    data["appName"] = "Agentenschleife · Agent loop"
    data["litePluginSettings"][PYODIDE_KERNEL_PLUGIN_ID]["disablePyPIFallback"] = True
    path.write_text(json.dumps(config, indent=2))


def check(out, shipped):
    """Refuse a site that would reach for another host: the guard against doit's cache, which can
    drop the local pyodideUrl on a rebuild (the kernel then tries a CDN and hangs)."""
    config = json.loads((out / "jupyter-lite.json").read_text())
    kernel = config["jupyter-config-data"]["litePluginSettings"][PYODIDE_KERNEL_PLUGIN_ID]
    problems = []
    if kernel.get("pyodideUrl") != PYODIDE_URL:
        problems.append(f"pyodideUrl is {kernel.get('pyodideUrl')!r}, not {PYODIDE_URL!r}")
    if kernel.get("disablePyPIFallback") is not True:
        problems.append("disablePyPIFallback is not true")
    problems += [f"pipliteUrls names another host: {u}" for u in kernel.get("pipliteUrls", []) if not u.startswith("./")]
    pyodide = out / "static" / "pyodide"
    problems += [f"{p['file_name']} is missing" for p in shipped.values() if not (pyodide / p["file_name"]).is_file()]
    problems += [f"{n} has no notebooks" for n in ("de", "en") if not list((out / "files" / "notebooks" / n).glob("*.ipynb"))]
    if problems:
        raise SystemExit("the site is broken:\n  " + "\n  ".join(problems))


if __name__ == "__main__":
    main(sys.argv[1:])
