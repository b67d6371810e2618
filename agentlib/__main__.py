"""Run the lesson from the shell.

    python -m agentlib                      the scripted demo: offline, free, always the same
    python -m agentlib --real               the same question to the real model (LLM_API_KEY, see .env.example)
    python -m agentlib --real --save r.json  ... and record the run
    python -m agentlib --replay r.json      replay a recorded run: offline, no key
    python -m agentlib --question "..." --max-steps 4 --language de
    python -m agentlib eval                 score a model on data/questions.json (--model oracle|naive|real|replay)
"""

import argparse
import sys

from . import QUESTION, RealModel, ScriptedModel, lesson_script, run_agent
from .classroom.viewer import trace_text


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["eval"]:
        return evaluate_command(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m agentlib", description=__doc__.splitlines()[0],
                                     epilog="python -m agentlib eval --help: score a model on the question set")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--real", action="store_true", help="use the real model instead of the script")
    source.add_argument("--replay", metavar="TRACE", help="replay a run saved with --save (or a folder of them)")
    parser.add_argument("--question", help="the question to ask (default: the lesson's)")
    parser.add_argument("--max-steps", type=int, default=8)
    parser.add_argument("--language", choices=["en", "de"], default="en")
    parser.add_argument("--save", metavar="TRACE", help="save the run's trace as JSON, e.g. for --replay")
    args = parser.parse_args(argv)
    model = choose_model("real" if args.real else "replay" if args.replay else "script", args.replay, args.language)
    answer, stats = run_agent(model, args.question or QUESTION[args.language], max_steps=args.max_steps)
    print("\n" + trace_text(stats.trace, language=args.language))
    if args.real or args.replay:
        from .providers.pricing import describe_cost, trace_cost

        print(f"\n{'Kosten' if args.language == 'de' else 'Cost'}: "
              f"{describe_cost(trace_cost(stats.trace), args.language)}")
    if args.save:
        stats.trace.save(args.save)
        print(f"saved: {args.save}")
    return 0 if answer is not None else 1


def evaluate_command(argv):
    parser = argparse.ArgumentParser(prog="python -m agentlib eval",
                                     description="Run the agent on every question of the question set and score "
                                                 "the citations.")
    parser.add_argument("--model", choices=["oracle", "naive", "real", "replay"], default="oracle",
                        help="oracle and naive are scripted and free; real needs LLM_API_KEY; replay needs "
                             "--recording")
    parser.add_argument("--recording", metavar="FOLDER", help="traces saved by an earlier `eval --save`")
    parser.add_argument("--questions", metavar="FILE", help="default: data/questions.json")
    parser.add_argument("--language", choices=["en", "de"], default="en")
    parser.add_argument("--max-steps", type=int, default=8)
    parser.add_argument("--save", metavar="FOLDER", help="save every run's trace there, for --model replay")
    args = parser.parse_args(argv)
    if args.model == "replay" and not args.recording:
        parser.error("--model replay needs --recording FOLDER")
    from .classroom.evaluate import evaluate, load_questions

    try:
        questions = load_questions(args.questions)
    except (OSError, ValueError) as error:
        sys.exit(f"error: {error}")
    model = choose_model(args.model, args.recording, args.language, questions)
    table = evaluate(model, questions, language=args.language, max_steps=args.max_steps, save_to=args.save)
    print(table.to_string())
    return 0


def choose_model(kind, recording=None, language="en", questions=None):
    """The model named on the command line; exits with one sentence when it cannot be had."""
    from .providers.errors import ModelError

    try:
        if kind == "real":
            return RealModel(language=language)
        if kind == "replay":
            from .models import ReplayModel

            return ReplayModel.load(recording, language)
        if kind in ("oracle", "naive"):
            from .classroom.evaluate import NaiveModel, OracleModel

            return OracleModel(questions) if kind == "oracle" else NaiveModel()
        return ScriptedModel(lesson_script(language))
    except (ModelError, ImportError, OSError, ValueError) as error:
        sys.exit(f"error: {error}")


if __name__ == "__main__":
    sys.exit(main())
