"""The course's HTML is built from elements: text is escaped by construction, and no module writes markup by hand."""

import ast
import re
from html.parser import HTMLParser
from pathlib import Path

from agentlib.course.html import html, lines, tag

ROOT = Path(__file__).resolve().parents[2]
SCANNED = sorted((ROOT / "agentlib" / "course").rglob("*.py")) + [ROOT / "agentlib" / "extras" / "side_by_side.py"]
# A closing tag, an opening tag with an attribute, or a line break: markup, not a placeholder such as "<cell>".
MARKUP = re.compile(r"</[a-z][a-z0-9]*>|<[a-z][a-z0-9]*\s+[a-z-]+=|<br\s*/?>")


class Parsed(HTMLParser):
    """What a browser reads from the markup: [("<", tag, attributes), ("text", ...), (">", tag)]."""

    def __init__(self, markup):
        super().__init__()
        self.seen = []
        self.feed(markup)

    def handle_starttag(self, name, attributes):
        self.seen.append(("<", name, dict(attributes)))

    def handle_endtag(self, name):
        self.seen.append((">", name))

    def handle_data(self, data):
        self.seen.append(("text", data))


def test_texts_and_attribute_values_are_read_back_as_written_and_open_no_tag():
    hostile = "</b><script>alert(\"x\")</script> & 'q'"
    written = html(tag("b", hostile, title=hostile, class_="note", aria_live="polite", role=None))
    assert Parsed(written).seen == [
        ("<", "b", {"title": hostile, "class": "note", "aria-live": "polite"}),
        ("text", hostile),
        (">", "b"),
    ]


def test_children_keep_their_order_and_lines_break_between_parts():
    written = html(tag("p", "a ", tag("i", "b"), " c", None, tag("br"), *lines("d", 3)))
    assert written == "<p>a <i>b</i> c<br>d<br>3</p>"


def hand_written_markup(source):
    """Lines where markup is put together as text: an f-string, `.format`, `.join`, `+` or `%` with a piece of
    markup, or html.escape. Example: 'x = f"<b>{name}</b>"' -> [1]"""
    tree = ast.parse(source)
    texts = {  # names bound to a string, for `BADGE.format(...)`
        target.id: node.value.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
        for target in node.targets
        if isinstance(target, ast.Name)
    }

    def markup(node):
        if isinstance(node, ast.JoinedStr):
            return markup(ast.Constant("{}".join(p.value for p in node.values if isinstance(p, ast.Constant))))
        text = node.value if isinstance(node, ast.Constant) else texts.get(getattr(node, "id", None))
        return isinstance(text, str) and MARKUP.search(text) is not None

    found = []
    for node in ast.walk(tree):
        built = (
            isinstance(node, ast.JoinedStr)
            and markup(node)
            or isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("format", "join", "replace")
            and (markup(node.func.value) or any(markup(a) for a in node.args))
            or isinstance(node, ast.BinOp)
            and isinstance(node.op, (ast.Add, ast.Mod))
            and (markup(node.left) or markup(node.right))
            or isinstance(node, ast.ImportFrom)
            and (node.module, node.level) == ("html", 0)  # the standard library's, not the course's
            or isinstance(node, ast.Attribute)
            and ast.unparse(node) == "html.escape"
        )
        if built:
            found.append(node.lineno)
    return sorted(set(found))


def test_the_scan_finds_each_way_of_writing_markup_by_hand_and_passes_elements_and_placeholders():
    written = [
        'f"<b>{name}</b>"',
        "BADGE = \"<span style='x'>{text}</span>\"\nBADGE.format(text=t)",
        "\"<td style='x'>\" + cell",
        '"<br>".join(parts)',
        "text.replace('\\n', '<br>')",
        '"<p>%s</p>" % text',
        "from html import escape",
        "import html\nhtml.escape(text)",
    ]
    assert [source for source in written if not hand_written_markup(source)] == []
    fine = ['tag("b", name)', 'f"    # {n}. <step{n}>"', 'compile(text, "<cell>", "exec")', 'f"<{kind}: repr()>"']
    assert [source for source in fine if hand_written_markup(source)] == []


def test_no_course_module_writes_markup_by_hand():
    found = {
        str(path.relative_to(ROOT)): lines
        for path in SCANNED
        if (lines := hand_written_markup(path.read_text(encoding="utf-8")))
    }
    assert found == {}, "build it with agentlib/course/html.py's elements instead"
