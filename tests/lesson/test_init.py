"""agentlib/__init__.py: one public surface; importing the lesson loads only the standard library."""

import subprocess
import sys

import agentlib


def test_every_public_name_is_there():
    for name in agentlib.__all__:
        assert hasattr(agentlib, name), name


def test_the_lesson_loads_only_the_standard_library_and_never_the_course_or_the_extras():
    code = (
        "import sys; before = set(sys.modules); import agentlib, agentlib.tools, agentlib.docs, agentlib.loop, "
        "agentlib.messages, agentlib.models, agentlib.trace, agentlib.lesson, agentlib.provider.settings, "
        "agentlib.provider.errors, agentlib.provider.keys, agentlib.provider.replies, agentlib.__main__; "
        "print(sorted({m.split('.')[0] for m in set(sys.modules) - before} - set(sys.stdlib_module_names) "
        "- {'agentlib'})); import agentlib.provider.http; "
        "print(sorted(m for m in sys.modules if m.startswith(('agentlib.course', 'agentlib.extras'))))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    outside_the_standard_library, course_or_extras = done.stdout.splitlines()
    assert outside_the_standard_library == "[]"
    assert course_or_extras == "[]"  # not even with the openai client loaded
