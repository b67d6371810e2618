"""Run the lesson from the shell.

    python -m agentlib                  the scripted demo: offline, free, always the same
    python -m agentlib --real           the same question to the real model (needs LLM_API_KEY)
    python -m agentlib --question "..." --max-steps 4
"""

import argparse
import sys

from . import QUESTION, RealModel, ScriptedModel, lesson_script, run_agent


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m agentlib", description=__doc__.splitlines()[0])
    parser.add_argument("--real", action="store_true", help="use the real model instead of the script")
    parser.add_argument("--question", default=QUESTION["en"])
    parser.add_argument("--max-steps", type=int, default=8)
    args = parser.parse_args(argv)
    if args.real:
        try:
            model = RealModel()
        except (RuntimeError, ImportError) as error:
            sys.exit(f"error: {error}")
    else:
        model = ScriptedModel(lesson_script())
    answer, stats = run_agent(model, args.question, max_steps=args.max_steps)
    print("\n" + stats.trace.render())
    return 0 if answer is not None else 1


if __name__ == "__main__":
    sys.exit(main())
