"""The README's map of agentlib stays true: every module it lists exists with the line count it gives."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
ROWS = re.findall(r"^\|(?: \d+ \|)? `(agentlib/[\w/]+\.py)` \| (\d+) \|", README, re.M)


def test_readme_lists_every_agentlib_module_with_its_current_line_count():
    listed = {path: int(count) for path, count in ROWS}
    modules = {p.relative_to(ROOT).as_posix() for p in (ROOT / "agentlib").rglob("*.py")
               if p.name not in ("__init__.py", "__main__.py")}
    assert set(listed) == modules, "README's reading-order tables and agentlib/ list different modules"
    stale = {path: (count, len((ROOT / path).read_text(encoding="utf-8").splitlines()))
             for path, count in listed.items()
             if count != len((ROOT / path).read_text(encoding="utf-8").splitlines())}
    assert not stale, f"README line counts (said, real): {stale}"
