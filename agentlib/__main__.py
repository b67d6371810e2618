"""The lesson's script from the shell (with the course's venv: .venv/bin/python -m agentlib ...).

    python -m agentlib                       the scripted run: offline, free, the same every time
    python -m agentlib --real                the lesson's question to the real model (LLM_API_KEY, see .env.example)
    python -m agentlib --real --question "..." --max-steps 4 --language de --save run.json

Exit status: 0 the model answered, 1 it did not (the step limit, an error), 2 bad usage. The course's
commands (the evaluation, the class's progress): python -m agentlib.course.
"""

import argparse
import os
import sys
import tempfile
from pathlib import Path

from . import QUESTION, RealModel, ScriptedModel, lesson_script, run_agent
from .provider.errors import ModelError


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m agentlib", description=__doc__.splitlines()[0])
    parser.add_argument("--real", action="store_true", help="ask the real model instead of replaying the script")
    parser.add_argument("--question", help="the question to ask (needs --real: the script answers only the lesson's)")
    parser.add_argument("--max-steps", type=int, default=8, metavar="N", help="stop after N model calls (default: 8)")
    parser.add_argument("--language", choices=["en", "de"], default="en", help="the run's language (default: en)")
    parser.add_argument("--save", metavar="TRACE", help="save the run's trace as JSON")
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] in (["progress"], ["eval"]):  # the course's commands: the lesson does not import the course
        parser.error(f"{argv[0]} is the course's command: python -m agentlib.course {' '.join(argv)}")
    args = parser.parse_args(argv)
    if args.question is not None and not args.real:
        parser.error("--question needs --real: the script knows only the lesson's question")
    if args.max_steps < 1:
        parser.error("--max-steps must be 1 or more")
    if args.save is not None and (Path(args.save).is_dir() or not Path(args.save).parent.is_dir()):
        parser.error(f"--save {args.save!r}: name a file in a folder that exists, e.g. --save run.json")
    try:
        model = RealModel(language=args.language) if args.real else ScriptedModel(lesson_script(args.language))
    except (ModelError, ValueError, OSError) as problem:  # no key, a bad URL, a .env that cannot be read
        print(problem, file=sys.stderr)
        return 1
    except ModuleNotFoundError as missing:  # the system's python instead of the course's
        print(f"{missing.name} is missing here: use the course's .venv/bin/python, or run make setup", file=sys.stderr)
        return 1
    question = args.question or QUESTION[args.language]
    answer, stats = run_agent(model, question, max_steps=args.max_steps, language=args.language)
    if args.save:
        try:
            stats.trace.save(args.save)
        except OSError as problem:  # the run is done (and maybe paid for): keep it where it can be written
            fallback = Path(tempfile.mkstemp(prefix="agentlib-run-", suffix=".json")[1])
            stats.trace.save(fallback)
            print(f"could not save {args.save} ({problem.strerror}); the trace is in {fallback}", file=sys.stderr)
            return 1
        print(f"saved: {args.save}")
    return 0 if answer is not None else 1


if __name__ == "__main__":
    try:
        status = main()
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not in Python's own flush at exit
    except OSError as problem:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # that last flush would fail again
        # A closed pipe (python -m agentlib | head) is the reader's choice; anything else deserves a sentence.
        closed = isinstance(problem, BrokenPipeError)
        status = 1 if closed else f"python -m agentlib: its output cannot be written ({problem.strerror or problem})"
    sys.exit(status)
