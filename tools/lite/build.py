"""Build the course as a JupyterLite site: one static folder that runs in any browser, offline.

    .lite/venv/bin/python tools/lite/build.py [--out site]     (make lite does this)

Everything comes from the package registries, pinned: the Pyodide core from npm (the version
jupyterlite-pyodide-kernel pins), the pure wheels of the kernel's packages that Pyodide's lock
names, and tools/lite/wheels.txt, from PyPI; agentlib is built from this checkout, with data/
inside its wheel so the doc tools find the docs as they do on a laptop. The site holds both
editions' notebooks (without outputs) and the docs, only files git tracks: never a builder's own
agent_loop.py, .env or scratch files. Its configuration names no other host.

Start-up: the site's Pyodide lock lists every wheel the site serves, and the kernel loads its own
packages and the course's (PRELOAD) while Pyodide starts, all at once, instead of installing
them one after the other with piplite; a set-up cell's piplite.install then finds them there.
npm's Pyodide and PyPI's wheels hold source only, which the browser's Python would compile at every
kernel start (about 730 modules, most of the wait for an idle kernel): the build compiles them with
that Pyodide under Node and ships the bytecode in place of the source (to_bytecode): each module once, so
the archives stay as small as the source was and the kernel unpacks half the files. agentlib keeps its
source beside its bytecode, for its tracebacks and the code it shows; so does anyio (WITH_SOURCE).

Deliberately left out: Pyodide's compiled packages (pandas and numpy have no WebAssembly wheels
on PyPI; the token table does without them), the tiny local model (a laptop feature).
"""

import argparse
import base64
import email.parser
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
WORK = ROOT / ".lite"  # the build's venv, download cache and staging folder; git ignores it
CORE = ["pyodide.mjs", "pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "package.json"]
KERNEL_NEEDS = ["micropip", "ipython", "jedi"]  # what the kernel loads from Pyodide's lock at start
PYODIDE_URL = "./static/pyodide/pyodide.mjs"
CONTENTS = ("notebooks/de", "notebooks/en", "notebooks/images", "data")  # what the file browser shows
EXTENSION_WHEELS = "extensions/@jupyterlite/pyodide-kernel-extension/static/pypi"  # piplite, pyodide-kernel ...
# Loaded with Pyodide, in parallel: the names the kernel would otherwise install one by one with
# piplite (pyodide-kernel's worker skips each one named here), and what the notebooks' set-up cells
# install, openai too. Measured against installing them all with piplite (three runs of six, two busy
# cores): the wait for an idle kernel stayed the same within the noise (starting Pyodide and importing
# IPython are most of it), and notebook 05's set-up cell went from 1.4-2.0 s to 0.5-0.7 s.
COURSE = "agentloop-course"  # agentlib's wheel
# Wheels whose source ships beside their bytecode: the course's, for its tracebacks and the source it shows; anyio's,
# whose lazy importer parses its own source (inspect.getsource) at import. check_imports finds any other.
WITH_SOURCE = [COURSE, "anyio"]
PRELOAD = [
    "micropip",
    "piplite",
    "pyodide-kernel",
    "ipykernel",
    "comm",
    "ipython",
    "jedi",
    COURSE,
    "ipywidgets",
    "openai",
]
# Run in that Pyodide by to_bytecode, with the unpacked archives in /work: bytecode for each .py file. Where the source
# goes (the standard library, every wheel but the course's), x.pyc takes x.py's place: the browser's Python imports a
# module from its bytecode alone (zipimport in the standard library's zip, the sourceless loader in site-packages),
# and the archive holds each module once. Unchecked hashes: nothing changes those files. The course keeps its source,
# for tracebacks, with its bytecode in __pycache__/x.cpython-314.pyc; checked hashes, so an edited copy recompiles.
BYTECODE = """
import compileall, sys
from pathlib import Path
from py_compile import PycInvalidationMode as Mode
stdlib, site_packages = (next(p for p in sys.path if p.endswith(end)) for end in (".zip", "site-packages"))
for folder in sorted(Path("/work").iterdir()):
    course = folder.name.endswith(".with-source")
    compileall.compile_dir(folder, ddir=stdlib if folder.name.endswith(".zip") else site_packages, legacy=not course,
                           quiet=1, invalidation_mode=Mode.CHECKED_HASH if course else Mode.UNCHECKED_HASH)
"""


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "site", help="the site's folder (default: site)")
    out = parser.parse_args(argv).out.resolve()
    started = time.monotonic()
    cache, stage = WORK / "cache", WORK / "stage"
    shutil.rmtree(stage, ignore_errors=True)  # a fresh stage and output: doit's cache cannot keep old state
    shutil.rmtree(out, ignore_errors=True)
    pyodide = stage / "static" / "pyodide"
    lock, pyodide_package = pyodide_core(cache, pyodide)
    kernel = kernel_packages(lock, cache / "pyodide-wheels", pyodide)
    pypi = stage / "pypi"
    download(requirements(HERE / "wheels.txt"), cache / "wheels", lock["info"], pypi)
    agentlib_wheel(pypi)
    contents = stage / "contents"
    copy_contents(ROOT, contents)
    shutil.copy(ROOT / "tools" / "lab-settings" / "overrides.json", stage)  # widget state saved with a notebook
    run(
        sys.executable,
        "-m",
        "jupyter",
        "lite",
        "build",
        "--lite-dir",
        stage,
        "--output-dir",
        out,
        "--contents",
        contents,
        "--apps",
        "lab",
        "--no-sourcemaps",
        cwd=stage,
    )  # doit keeps its task database in the working folder: a fresh one every build
    to_bytecode(compiled(out), pyodide_package, cache / "bytecode")
    for index in (out / "pypi" / "all.json", out / EXTENSION_WHEELS / "all.json"):
        redigest(index)
    shipped = site_lock(out, lock, kernel)
    configure(out / "jupyter-lite.json")
    ask_to_persist(out / "lab" / "index.html")
    check(out, shipped)
    check_imports(out, shipped)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"built {out} in {time.monotonic() - started:.0f} s: {size / 2**20:.1f} MiB")


def run(*command, **options):
    subprocess.run([str(part) for part in command], check=True, **options)


def pyodide_core(cache, target):
    """Copy npm's `pyodide` package (the core, no package wheels) into `target`. Returns its lock, and the
    folder in `cache` where the whole package stays unpacked, for Node to run (to_bytecode)."""
    from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION  # only in .lite/venv, as is main()

    tgz = cache / f"pyodide-{PYODIDE_VERSION}.tgz"
    if not tgz.exists():
        cache.mkdir(parents=True, exist_ok=True)
        run("npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", cache, "--silent")
    unpacked = cache / f"pyodide-{PYODIDE_VERSION}"
    if not (unpacked / "pyodide-lock.json").is_file():
        with tarfile.open(tgz) as archive:
            archive.extractall(
                unpacked,
                filter=lambda member, path: tarfile.data_filter(
                    member.replace(name=member.name.removeprefix("package/")), path
                ),
            )
    target.mkdir(parents=True)
    for name in CORE:
        shutil.copy(unpacked / name, target / name)
    return json.loads((unpacked / "pyodide-lock.json").read_text()), unpacked


def kernel_packages(lock, cache, target):
    """The lock's entries for KERNEL_NEEDS and their dependencies, with PyPI's wheels next to the
    core. PyPI's wheels are other builds than Pyodide's: site_lock puts the hash of the file shipped in each entry.
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
        entry["file_name"] = wheel.name
    return packages


def download(pins, cache, info, target):
    """Download `pins` (name==version, no dependencies) for Pyodide's Python into `cache` once and
    copy them to `target`. Returns {normalized name: wheel in target}."""
    cache.mkdir(parents=True, exist_ok=True)
    have = {wheel_name(w): w for w in cache.glob("*.whl")}
    missing = [
        p
        for p in pins
        if normal(p.split("==")[0]) not in have
        or not have[normal(p.split("==")[0])].name.split("-")[1] == p.split("==")[1]
    ]
    if missing:
        python = "".join(info["python"].split(".")[:2])  # 3.14.2 -> 314
        run(
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--only-binary=:all:",
            "--dest",
            cache,
            "--python-version",
            python,
            "--implementation",
            "cp",
            "--abi",
            f"cp{python}",
            "--platform",
            f"pyemscripten_{info['abi_version']}_wasm32",
            "--platform",
            "any",
            *missing,
        )
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


def tracked(root, *parts):
    """The files git tracks under `parts` of the checkout at `root`, relative to it, that exist.

    Example: tracked(ROOT, "data") -> [PosixPath("data/httpx-docs/api.md"), ...]
    """

    def listed(*options):
        try:
            found = subprocess.run(
                ["git", "ls-files", "-z", *options, "--", *parts], cwd=root, check=True, capture_output=True
            ).stdout
        except (OSError, subprocess.CalledProcessError):
            raise SystemExit(
                f"{root} is not a git checkout (or git is missing): the site ships only the files "
                f"git tracks, so build it from a clone of the repository"
            )
        return sorted(name for name in found.decode().split("\0") if name)

    new = listed("--others", "--exclude-standard")  # neither tracked nor ignored: a module not yet added?
    if new:
        print(
            f"not in the site, as git does not track them (git add them if they belong): {', '.join(new)}",
            file=sys.stderr,
        )
    return [Path(name) for name in listed() if (root / name).is_file()]


def copy_contents(root, target):
    """Copy the tracked files of CONTENTS into `target`; notebooks without outputs, as they are committed,
    whatever a run on the builder's machine left in them."""
    for name in tracked(root, *CONTENTS):
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        if name.suffix == ".ipynb":
            (target / name).write_text(
                json.dumps(without_outputs(json.loads((root / name).read_text())), indent=1, ensure_ascii=False) + "\n"
            )
        else:
            shutil.copy(root / name, target / name)


def without_outputs(notebook):
    """`notebook` (nbformat JSON) with no outputs, execution counts or saved widget state."""
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            cell.update(outputs=[], execution_count=None)
    notebook.get("metadata", {}).pop("widgets", None)
    return notebook


def agentlib_wheel(target, root=ROOT):
    """A wheel of the checkout's agentlib (its tracked files) with data/ beside the package, as in the
    repository, so agentlib.docs.DOCS and the evaluation's questions resolve in the browser too."""
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "source"
        for name in [Path("pyproject.toml"), *tracked(root, "agentlib")]:
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(root / name, source / name)
        run(
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--wheel-dir",
            scratch,
            source,
        )
        (built,) = Path(scratch).glob("*.whl")
        with_data(built, target / built.name, root)


def with_data(wheel, target, root=ROOT):
    """Copy `wheel` to `target`, adding the tracked files of data/ at its top (site-packages/data, beside
    agentlib) and to its RECORD. (micropip does not install a wheel's .data/purelib folder.)"""
    with zipfile.ZipFile(wheel) as old, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as new:
        record_name = next(n for n in old.namelist() if n.endswith(".dist-info/RECORD"))
        record = old.read(record_name).decode()
        for name in old.namelist():
            if name != record_name:
                new.writestr(name, old.read(name))
        for path in tracked(root, "data"):
            name, content = path.as_posix(), (root / path).read_bytes()
            new.writestr(name, content)
            record += record_line(name, content)
        new.writestr(record_name, record)


def record_line(name, content):
    """The line of a wheel's RECORD for its file `name`, which holds `content`."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(content).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(content)}\n"


def compiled(out):
    """What to_bytecode compiles in the site `out`: the standard library's zip and every wheel."""
    wheels = [
        *(out / "static" / "pyodide").glob("*.whl"),
        *(out / "pypi").glob("*.whl"),
        *(out / EXTENSION_WHEELS).glob("*.whl"),
    ]
    return [out / "static" / "pyodide" / "python_stdlib.zip", *sorted(wheels)]


def to_bytecode(archives, pyodide_package, cache):
    """Compile each of `archives` (zips: the standard library, wheels) to bytecode with npm's Pyodide in
    `pyodide_package` under Node, so the browser's Python imports them without compiling: bytecode in place of the
    source, but beside it in the course's wheel (BYTECODE). Compiled archives are kept in `cache` under the SHA-256
    of the archive they came from and of BYTECODE: a build compiles only what changed."""
    key = hashlib.sha256(BYTECODE.encode())
    done = {}
    for archive in archives:
        digest = key.copy()
        digest.update(archive.read_bytes())
        done[archive] = cache / pyodide_package.name / digest.hexdigest() / archive.name
    if todo := [archive for archive in archives if not done[archive].is_file()]:
        with tempfile.TemporaryDirectory() as scratch:
            folders = {
                archive: Path(scratch) / f"{index:03}-{archive.name}{'.with-source' if with_source(archive) else ''}"
                for index, archive in enumerate(todo)
            }
            for archive, folder in folders.items():
                with zipfile.ZipFile(archive) as unpack:
                    unpack.extractall(folder)
            run("node", HERE / "in_pyodide.mjs", pyodide_package, scratch, BYTECODE)
            for archive, folder in folders.items():
                with_bytecode(archive, folder, done[archive], keep_source=with_source(archive))
    for archive in archives:
        shutil.copy(done[archive], archive)


def with_source(archive):
    return archive.suffix == ".whl" and wheel_name(archive) in WITH_SOURCE


def with_bytecode(archive, folder, target, keep_source=False):
    """Write `archive` to `target` with the bytecode that `folder`, its compiled copy, holds: each x.pyc in place of
    its x.py, or, with `keep_source`, every .pyc added after the source; in a wheel's RECORD too. A .py file that
    did not compile stays. Entries keep their order and dates, added ones get the zip format's first date: the
    same archive compiles to the same bytes."""
    with zipfile.ZipFile(archive) as old:
        names = old.namelist()
        pycs = {p.relative_to(folder).as_posix() for p in folder.rglob("*.pyc")} - set(names)
        replaced = set() if keep_source else {name for name in names if name + "c" in pycs}
        added = sorted(pycs - {name + "c" for name in replaced}) if keep_source else []
        part = target.with_name(target.name + ".part")
        part.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(part, "w", zipfile.ZIP_DEFLATED) as new:
            for info in old.infolist():
                if info.filename in replaced:
                    pyc = zipfile.ZipInfo(info.filename + "c", info.date_time)
                    pyc.external_attr = info.external_attr
                    new.writestr(pyc, (folder / pyc.filename).read_bytes(), zipfile.ZIP_DEFLATED)
                elif info.filename.endswith(".dist-info/RECORD"):
                    new.writestr(info, record(old.read(info).decode(), replaced, added, folder).encode())
                else:
                    new.writestr(info, old.read(info))
            for name in added:
                info = zipfile.ZipInfo(name)
                info.external_attr = 0o644 << 16
                new.writestr(info, (folder / name).read_bytes(), zipfile.ZIP_DEFLATED)
    part.replace(target)


def record(lines, replaced, added, folder):
    """A wheel's RECORD `lines` with each of `replaced` (.py files) naming its bytecode instead, and `added`
    (bytecode beside the source) at the end; the bytecode files are in `folder`."""
    kept = [line for line in lines.splitlines(keepends=True) if line.rsplit(",", 2)[0] not in replaced]
    pycs = sorted(name + "c" for name in replaced) + added
    return "".join(kept) + "".join(record_line(name, (folder / name).read_bytes()) for name in pycs)


def redigest(index):
    """Put the sizes and digests of the wheels that piplite's `index` (an all.json) lists into it again, after
    to_bytecode changed the wheels."""
    packages = json.loads(index.read_text())
    for package in packages.values():
        for files in package["releases"].values():
            for entry in files:
                content = (index.parent / entry["filename"]).read_bytes()
                md5, sha256 = hashlib.md5(content).hexdigest(), hashlib.sha256(content).hexdigest()
                entry.update(size=len(content), md5_digest=md5, digests={"md5": md5, "sha256": sha256})
    index.write_text(json.dumps(packages, indent=2, sort_keys=True))


def site_lock(out, lock, kernel):
    """Write the site's Pyodide lock: `kernel` (entries of Pyodide's own lock) and every wheel the site
    serves to piplite, the course's and the kernel extension's, where they lie (file_name relative to the
    lock), with their dependencies in Pyodide and the hash of the file as shipped. Returns its packages."""
    pyodide = out / "static" / "pyodide"
    wheels = sorted(
        [*(out / "pypi").glob("*.whl"), *(out / EXTENSION_WHEELS).glob("*.whl")],
        key=lambda w: Version(w.name.split("-")[1]),
    )  # of two versions of a stub, the newer wins
    packages = {**kernel, **{wheel_name(w): lock_entry(w, pyodide) for w in wheels}}
    markers = {
        "sys_platform": "emscripten",
        "platform_system": "Emscripten",
        "platform_machine": "wasm32",
        "os_name": "posix",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "python_full_version": lock["info"]["python"],
        "python_version": ".".join(lock["info"]["python"].split(".")[:2]),
        "extra": "",
    }
    for entry in packages.values():
        entry["sha256"] = hashlib.sha256((pyodide / entry["file_name"]).read_bytes()).hexdigest()  # as shipped
        if "requires" in entry:
            needs = [Requirement(r) for r in entry.pop("requires")]
            entry["depends"] = sorted({normal(r.name) for r in needs if not r.marker or r.marker.evaluate(markers)})
            if missing := [d for d in entry["depends"] if d not in packages]:
                raise SystemExit(
                    f"{entry['name']} needs {', '.join(missing)}, which the site does not ship: "
                    f"add {'them' if len(missing) > 1 else 'it'} to tools/lite/wheels.txt"
                )
    (pyodide / "pyodide-lock.json").write_text(json.dumps({**lock, "packages": packages}, indent=1))
    return packages


def lock_entry(wheel, lock_folder):
    """The lock entry of `wheel`; its requirements under "requires" until site_lock resolves them."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = email.parser.Parser().parsestr(
            archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        )
    tops = {n.split("/")[0] for n in names if n.count("/") == 1 and n.endswith("/__init__.py")}
    tops |= {n[:-3] for n in names if "/" not in n and n.endswith(".py")}
    return {
        "name": metadata["Name"],
        "version": metadata["Version"],
        "file_name": os.path.relpath(wheel, lock_folder),
        "install_dir": "site",
        "package_type": "package",
        "imports": sorted(tops),
        "requires": metadata.get_all("Requires-Dist") or [],
    }


def configure(path):
    """Name the site, turn piplite's PyPI fallback off, load PRELOAD with Pyodide, and hand SVG images
    to the page as base64: JupyterLite turns an image into a data URL with btoa(), which throws on any
    character beyond Latin-1 (the anatomy diagram's arrows), and the image shows only its alt text.
    After the build: a jupyter-lite.json in the lite folder is merged early, and later steps may write over it."""
    from jupyterlite_pyodide_kernel.constants import PYODIDE_KERNEL_PLUGIN_ID

    config = json.loads(path.read_text())
    data = config["jupyter-config-data"]
    data["appName"] = "Agentenschleife · Agent loop"
    kernel = data["litePluginSettings"][PYODIDE_KERNEL_PLUGIN_ID]
    kernel.update(disablePyPIFallback=True, loadPyodideOptions={"packages": PRELOAD})
    # The indexes' addresses name their SHA-256, so a browser fetches a changed one: redigest changed them.
    indexes = [url.split("?")[0] for url in kernel["pipliteUrls"]]
    kernel["pipliteUrls"] = [
        f"{index}?sha256={hashlib.sha256((path.parent / index).read_bytes()).hexdigest()}" for index in indexes
    ]
    data["fileTypes"]["svg"]["fileFormat"] = "base64"
    path.write_text(json.dumps(config, indent=2))


def ask_to_persist(page):
    """Have the page ask the browser to keep the site's storage, where the student's notebooks and progress
    are, even when the disk runs low (browsers evict unpersisted sites' data first). Chromium decides
    silently, Firefox asks the student once; a browser without the API skips it."""
    html = page.read_text()
    page.write_text(html.replace("</head>", "<script>navigator.storage?.persist?.()</script>\n</head>", 1))


def check(out, shipped):
    """Refuse a site that would reach for another host: the guard against doit's cache, which can
    drop the local pyodideUrl on a rebuild (the kernel then tries a CDN and hangs)."""
    from jupyterlite_pyodide_kernel.constants import PYODIDE_KERNEL_PLUGIN_ID

    config = json.loads((out / "jupyter-lite.json").read_text())
    kernel = config["jupyter-config-data"]["litePluginSettings"][PYODIDE_KERNEL_PLUGIN_ID]
    problems = []
    if kernel.get("pyodideUrl") != PYODIDE_URL:
        problems.append(f"pyodideUrl is {kernel.get('pyodideUrl')!r}, not {PYODIDE_URL!r}")
    if kernel.get("disablePyPIFallback") is not True:
        problems.append("disablePyPIFallback is not true")
    problems += [
        f"pipliteUrls names another host: {u}" for u in kernel.get("pipliteUrls", []) if not u.startswith("./")
    ]
    pyodide = out / "static" / "pyodide"
    problems += [f"{p['file_name']} is missing" for p in shipped.values() if not (pyodide / p["file_name"]).is_file()]
    problems += [f"{name} is preloaded but not in the lock" for name in PRELOAD if name not in shipped]
    problems += [
        f"{n} has no notebooks" for n in ("de", "en") if not list((out / "files" / "notebooks" / n).glob("*.ipynb"))
    ]
    if problems:
        raise SystemExit("the site is broken:\n  " + "\n  ".join(problems))


def check_imports(out, shipped):
    """Refuse a site whose preloaded packages do not import: load them in its own Pyodide under Node, as the kernel
    does, and import each one's top-level modules. A package that reads its own source at import fails here without
    it, and belongs in WITH_SOURCE."""
    packages = {normal(name): entry for name, entry in shipped.items()}
    loaded, todo = set(), [normal(name) for name in PRELOAD]
    while todo:
        if (name := normal(todo.pop())) not in loaded:
            loaded.add(name)
            todo += packages[name]["depends"]
    modules = sorted({m for name in loaded for m in packages[name]["imports"] if m.isidentifier()})  # not a name: a
    # lock entry of Pyodide's names its package there (matplotlib-inline)
    code = f"""
import importlib, pyodide_js
from pyodide.ffi import to_js
await pyodide_js.loadPackage(to_js({sorted(loaded)!r}))
for module in {modules!r}:
    importlib.import_module(module)
"""
    with tempfile.TemporaryDirectory() as scratch:
        try:
            run("node", HERE / "in_pyodide.mjs", out / "static" / "pyodide", scratch, code)
        except subprocess.CalledProcessError:
            raise SystemExit("the site's preloaded packages do not import in its Pyodide (the error is above)")


if __name__ == "__main__":
    main(sys.argv[1:])
