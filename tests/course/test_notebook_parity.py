"""The German and English notebooks are one course in two languages: same cells, same code.

Markdown differs, and so do the strings and comments a student reads inside
code; everything else must match token for token.
"""

import io
import tokenize
from pathlib import Path

import nbformat
import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
PAIRS = [
    ("01_ueberblick", "01_overview"),
    ("02_werkzeuge_per_dekorator", "02_tools_by_decorator"),
    ("03_doku_werkzeuge", "03_doc_tools"),
    ("04_die_schleife", "04_the_loop"),
    ("05_skriptmodell", "05_scripted_model"),
    ("06_echtes_modell", "06_real_model"),
    ("07_uebungen_und_selbsttest", "07_exercises_and_self_test"),
    ("08_vertiefung", "08_extras"),
    ("09_frameworks", "09_frameworks"),
]
STRING_PARTS = {"FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END"}  # Python 3.12+ splits f-strings


def load(language, name):
    return nbformat.read(NOTEBOOKS / language / f"{name}.ipynb", as_version=4)


def masked(source):
    """The code's tokens with every string literal replaced by STR and every comment dropped.

    Example: masked('print("Hallo")  # sag hallo') -> [('NAME', 'print'), ('OP', '('), ('STRING', 'STR'), ...]
    """
    out = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        kind = tokenize.tok_name[token.type]
        if kind in ("COMMENT", "NL"):
            continue
        if kind == "STRING" or kind in STRING_PARTS:
            if not out or out[-1] != ("STRING", "STR"):  # an f-string's parts count as one string
                out.append(("STRING", "STR"))
            continue
        out.append((kind, token.string))
    return out


def test_both_languages_have_exactly_the_notebooks_of_the_course():
    for language, index in (("de", 0), ("en", 1)):
        assert sorted(p.stem for p in (NOTEBOOKS / language).glob("*.ipynb")) == [pair[index] for pair in PAIRS]


@pytest.mark.parametrize("de, en", PAIRS, ids=[pair[1] for pair in PAIRS])
def test_same_cells_in_the_same_order_with_the_same_ids_and_tags(de, en):
    german, english = load("de", de), load("en", en)
    shape = lambda notebook: [(c.id, c.cell_type, c.metadata.get("tags", [])) for c in notebook.cells]
    assert shape(german) == shape(english)


@pytest.mark.parametrize("de, en", PAIRS, ids=[pair[1] for pair in PAIRS])
def test_code_cells_differ_only_in_strings_and_comments(de, en):
    for german, english in zip(load("de", de).cells, load("en", en).cells):
        if german.cell_type == "code":
            assert masked(german.source) == masked(english.source), german.id


@pytest.mark.parametrize("de, en", PAIRS, ids=[pair[1] for pair in PAIRS])
def test_each_edition_speaks_its_own_language(de, en):
    german, english = load("de", de), load("en", en)
    assert german.cells[1].source.strip() and german.cells[1].source != english.cells[1].source
    for notebook, language in ((german, "de"), (english, "en")):
        setup = next(c for c in notebook.cells if c.cell_type == "code")
        assert f'LANGUAGE = "{language}"' in setup.source
        other = "en" if language == "de" else "de"
        assert all(f"anatomy-{other}.svg" not in c.source for c in notebook.cells)


def test_masking_keeps_code_and_hides_only_strings_and_comments():
    assert masked('print("Hallo")  # sag hallo') == masked("print('Hello')")
    assert masked('print(f"{n} Schritte")') == masked('print(f"{n} steps")')
    assert masked("run(max_steps=2)") != masked("run(max_steps=3)")
