"""HTML built from elements, so every text and attribute value is escaped by construction: no markup by hand.

    html(tag("b", "1 < 2", style="color:#c62828"))   # -> '<b style="color:#c62828">1 &lt; 2</b>'

The standard library's ElementTree, not jinja2: the course's widgets also run in the browser (JupyterLite), where
jinja2 is missing. A `style` element's text is written as it is, as HTML reads it: only the course's own CSS goes
there. Deliberately left out: templates, pretty-printing, scripts.
"""

import xml.etree.ElementTree as ET


def tag(name, *children, **attributes):
    """An element holding `children` in order: texts, elements, or None for nothing. Attributes given as None are
    left out; `class_` is written `class`, `aria_live` `aria-live`.

    Example: tag("p", "a ", tag("b", "b"), " c", role=None) -> <p>a <b>b</b> c</p>
    """
    element = ET.Element(
        name, {key.rstrip("_").replace("_", "-"): str(value) for key, value in attributes.items() if value is not None}
    )
    for child in children:
        if isinstance(child, ET.Element):
            element.append(child)
        elif child is not None and len(element):
            element[-1].tail = (element[-1].tail or "") + str(child)
        elif child is not None:
            element.text = (element.text or "") + str(child)
    return element


def lines(*parts):
    """The parts with a line break between each two. Example: lines("a", tag("i", "b")) -> ["a", <br>, <i>b</i>]"""
    pieces = []
    for part in parts:
        pieces += [tag("br"), part] if pieces else [part]
    return pieces


def parse(markup):
    """An element from markup a library wrote (Pygments' highlighted code); it must be well-formed XML."""
    return ET.fromstring(markup)


def html(*elements):
    """The elements as HTML, one after the other. Example: html(tag("br"), tag("i", "x")) -> '<br><i>x</i>'"""
    return "".join(ET.tostring(element, encoding="unicode", method="html") for element in elements)
