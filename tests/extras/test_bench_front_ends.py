"""The front-end bench's table and its skip: what it prints, not how fast anything is (make bench measures that)."""

from bench import front_ends

MEASURED = {
    "date": "2026-12-02T14:27:16+00:00",
    "notebook": "notebooks/de/05_skriptmodell.ipynb",
    "rounds": 3,
    "chromium": "156.0",
    "load_average": [2.5, 3.1],
    "median_seconds": {
        "JupyterLab": {"link_to_idle": 4.0, "run_all": 2.0},
        "site": {"link_to_idle": 14.0, "run_all": 3.0},
    },
    "site_ratio": {"site": {"link_to_idle": 3.5, "run_all": 1.5}},
}


def test_the_table_puts_both_front_ends_and_the_sites_ratio_side_by_side():
    lines = front_ends.table(MEASURED).splitlines()
    assert "median of 3 rounds" in lines[0] and "load 2.5 at the start, 3.1 at the end" in lines[0]
    rows = {line[:32].strip(): line[32:].split() for line in lines[2:]}
    assert rows == {
        "JupyterLab (ipykernel)": ["4.0", "2.0"],
        "site (JupyterLite, Pyodide)": ["14.0", "3.0"],
        "site / JupyterLab": ["3.50", "1.50"],
    }


def test_without_a_built_site_the_bench_names_the_command_instead_of_failing(tmp_path, monkeypatch):
    monkeypatch.setattr(front_ends, "SITE", tmp_path / "site")
    results = front_ends.measure(1)
    assert results == {"skipped": "the JupyterLite site is not built: run make lite"}
    assert front_ends.table(results).endswith("left out: the JupyterLite site is not built: run make lite")
