"""Run the lesson from the shell (with the course installed: .venv/bin/python -m agentlib ...).

    python -m agentlib                       the scripted demo: offline, free, always the same
    python -m agentlib --real                the lesson's question to the real model (LLM_API_KEY, see .env.example)
    python -m agentlib --real --save r.json  ... and record the run
    python -m agentlib --replay r.json       replay a recorded run: offline, no key
    python -m agentlib --local               the same question to a tiny model on this machine (make local-model)
    python -m agentlib --real --question "..." --max-steps 4 --language de
    python -m agentlib eval                  score a model on data/questions.json (--model oracle|naive|real|local|replay)
    python -m agentlib progress /home        the class's progress: exercises solved, minutes per notebook (--csv, --minutes)

Exit status: 0 the model answered, 1 the run failed (an error, the step limit), 2 bad usage.
"""

import argparse
import sys
from pathlib import Path
from shlex import quote

from . import QUESTION, RealModel, ScriptedModel, lesson_script, run_agent
from .classroom.viewer import trace_text
from .text import say

FAILED, USAGE = 1, 2  # argparse's convention: 2 for a command line that cannot be run
EXIT_CODES = "exit status: 0 the model answered, 1 the run failed (an error, the step limit), 2 bad usage"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["eval"]:
        return evaluate_command(argv[1:])
    if argv[:1] == ["progress"]:  # the instructor's table: agentlib/classroom/progress_report.py
        from .classroom.progress_report import main as progress
        return progress(argv[1:])
    parser = argparse.ArgumentParser(prog="python -m agentlib", description=__doc__.splitlines()[0],
                                     epilog=f"{EXIT_CODES}. `python -m agentlib eval --help`: score a model on "
                                            f"the question set.")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--real", action="store_true", help="use the real model instead of the script")
    source.add_argument("--replay", metavar="TRACE", help="replay a run saved with --save (or a folder of them)")
    source.add_argument("--local", action="store_true", help="use the tiny model on this machine: no key, no "
                                                             "cost, poor choices (install it with make local-model)")
    parser.add_argument("--question", help="the question to ask; needs --real, --local or --replay (the script answers "
                                           "only the lesson's question; a replay defaults to the recorded one)")
    parser.add_argument("--max-steps", type=positive, default=8, metavar="N",
                        help="stop after N model calls if the model has not answered (default: 8)")
    parser.add_argument("--language", choices=["en", "de"], default="en",
                        help="language of the lesson's question and of the printed trace (default: en)")
    parser.add_argument("--save", metavar="TRACE", help="save the run's trace as JSON, e.g. for --replay")
    args = parser.parse_args(argv)
    refuse_empty(parser, args, save="run.json", replay="run.json")
    kind = "real" if args.real else "local" if args.local else "replay" if args.replay else "script"
    if args.question is not None and kind == "script":
        parser.error("--question needs --real or --replay (or --local): the scripted demo knows only the lesson's "
                     "question")
    if args.question is not None and not args.question.strip():
        parser.error("--question is empty: put the question in quotes, e.g. --question \"What is a Client?\"")
    save = args.save is not None and usage_check(writable_file, args.save)
    if kind == "replay":
        model = usage_check(load_recording, args.replay, args.language)
        question = usage_check(recorded_question, model, args.replay, args.question, args.language)
    else:
        model = choose_model(kind, language=args.language)
        question = args.question or QUESTION[args.language]
    if kind not in ("script", "replay"):
        print(f"asking {model.name} (each step can take a few seconds) ...", file=sys.stderr)
    answer, stats = run_agent(model, question, max_steps=args.max_steps, verbose=False)
    shown = out(trace_text(stats.trace, language=args.language))
    if kind not in ("script", "local") and stats.trace.records:  # none for a run that never reached a paid model
        from .providers.pricing import describe_cost, trace_cost

        shown = out(f"\n{say('providers.cost_label', args.language)}: "
                    f"{describe_cost(trace_cost(stats.trace), args.language)}") and shown
    if save:
        from .classroom.evaluate import save_trace

        written = save_trace(stats.trace, save)
        if written != save:
            return FAILED
        shown = out(f"saved: {save}") and shown
    return 0 if answer is not None and shown else FAILED


def evaluate_command(argv):
    parser = argparse.ArgumentParser(prog="python -m agentlib eval",
                                     description="Run the agent on every question of the question set and score "
                                                 "the citations.", epilog=EXIT_CODES.replace("the model answered",
                                                                                             "the table is complete"))
    parser.add_argument("--model", choices=["oracle", "naive", "real", "local", "replay"], default="oracle",
                        help="oracle and naive are scripted and free; real needs LLM_API_KEY; local is the tiny "
                             "model on this machine (make local-model); replay needs --recording")
    parser.add_argument("--recording", metavar="FOLDER", help="traces saved by an earlier `eval --save`")
    parser.add_argument("--questions", metavar="FILE", help="default: data/questions.json")
    parser.add_argument("--language", choices=["en", "de"], default="en",
                        help="which language of each question to ask (default: en)")
    parser.add_argument("--max-steps", type=positive, default=8, metavar="N",
                        help="stop a question after N model calls (default: 8)")
    parser.add_argument("--save", metavar="FOLDER", help="save every run's trace there, for --model replay")
    args = parser.parse_args(argv)
    refuse_empty(parser, args, save="runs", recording="runs", questions="data/questions.json")
    if args.model == "replay" and not args.recording:
        parser.error("--model replay needs --recording FOLDER")
    from .classroom.evaluate import evaluate, report, writable_folder
    from .classroom.questions import load_questions
    from .providers.errors import ModelError

    questions = usage_check(load_questions, args.questions)
    save = args.save is not None and usage_check(writable_folder, args.save)
    if args.model == "replay":
        model = usage_check(load_recording, args.recording, args.language, True)
    else:
        model = choose_model(args.model, language=args.language, questions=questions)
    try:
        table = evaluate(model, questions, language=args.language, max_steps=args.max_steps, save_to=save)
    except ModelError as error:
        print(f"error: {error}", file=sys.stderr)
        return FAILED
    except KeyboardInterrupt:
        print(f"error: you interrupted the evaluation{'; the runs so far are in ' + str(save) if save else ''}",
              file=sys.stderr)
        return FAILED
    except ImportError as error:
        return missing_package(error)
    return 0 if out(report(table)) else FAILED


def refuse_empty(parser, args, **examples):
    """Exit 2 when a file option is given as "": an empty name must not quietly mean "no file"."""
    for name, example in examples.items():
        value = getattr(args, name)
        if value is not None and not value.strip():
            parser.error(f"--{name} is empty: give it a name, e.g. --{name} {example}")


def out(text):
    """Print `text`; False when the output cannot take it (a full disk), True when it did or a reader left.

    A reader that closes the pipe (`| head`) has all it wanted; the run goes on (a --save still happens)
    with the rest of its output sent nowhere. Either way, no traceback.
    """
    try:
        print(text, flush=True)
        return True
    except BrokenPipeError:
        discard_output()
        return True
    except OSError as error:  # ENOSPC from >/dev/full, EIO from a terminal that went away
        discard_output()
        print(f"error: cannot write the output ({error.strerror or error})", file=sys.stderr)
        return False


def discard_output():
    """Send the rest of stdout nowhere, so that Python's own flush at exit fails no more."""
    import os

    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def entry():
    """main() as the shell runs it: help or usage text that cannot be written is one line, not a traceback."""
    try:
        status = main()
    except SystemExit as done:  # argparse: --help, or a command line that cannot be run
        status = done.code
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        discard_output()
    except OSError as error:
        discard_output()
        print(f"error: cannot write the output ({error.strerror or error})", file=sys.stderr)
        status = status or FAILED
    return status


def positive(text):
    """argparse type: a whole number of at least 1. Example: positive("-1") -> ArgumentTypeError"""
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return int(text)


def usage_check(function, *args):
    """`function(*args)`, or exit 2 with its one sentence when a file named on the command line is unusable."""
    try:
        return function(*args)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(USAGE)


def writable_file(path):
    """`path` as a file --save can write (missing folders made), checked before the run costs anything."""
    target = Path(path)
    if target.is_dir():
        raise IsADirectoryError(f"{target} is a folder: give --save a file name, e.g. --save {target / 'run.json'}")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        existed = target.exists()
        with open(target, "a", encoding="utf-8"):
            pass
        if not existed:
            target.unlink()
    except OSError as error:
        raise PermissionError(f"cannot write {target} ({error.strerror or error}): choose another file with "
                              f"--save") from None
    return target


def load_recording(path, language="en", evaluation=False):
    """A ReplayModel of the trace at `path`, or of every *.json in that folder; ValueError naming a bad file."""
    from .models import ReplayModel
    from .trace import Trace

    path = Path(path)
    if evaluation:
        record = f"`python -m agentlib eval --model real --save {quote(str(path))}` (needs a key)"
    else:
        target = path / "run.json" if path.is_dir() else path
        record = f"`python -m agentlib --real --save {quote(str(target))}` (needs a key)"
    if path.is_dir():
        files = sorted(path.glob("*.json"))
        if not files:
            raise FileNotFoundError(f"{path} holds no recording (*.json): record one with {record}")
    elif path.is_file():
        files = [path]
    else:
        raise FileNotFoundError(f"no recording at {path}: check the path, or record one with {record}")
    traces = []
    for file in files:
        try:
            if not file.is_file():  # a FIFO would block forever
                raise ValueError("not a regular file")
            trace = Trace.load(file)
            trace.question  # noqa: B018 -- raises when the trace holds no question, which no replay can ask
            traces.append(trace)
        except (OSError, ValueError, LookupError, TypeError, AttributeError, RecursionError, StopIteration) as error:
            if path.is_dir():  # a stray file in a folder of recordings: set it aside
                fix = f"set it aside with `mv {quote(str(file))} {quote(str(file) + '.bad')}`"
            else:
                fix = "replay a file that `python -m agentlib --real --save run.json` wrote (needs a key)"
            raise ValueError(f"{file} is not a run saved with --save ({why(error)}): {fix}") from None
    try:
        return ReplayModel(traces, language)
    except (TypeError, ValueError) as error:  # e.g. a model name that is not text
        raise ValueError(f"{path} holds a tampered recording ({error}): record it again with {record}") from None


def why(error):
    """A few words on what is wrong with a saved trace.

    Example: KeyError("records") -> "the field 'records' is missing"
    """
    from .classroom.questions import reason

    if isinstance(error, KeyError):
        return f"the field {error.args[0]!r} is missing"
    if isinstance(error, StopIteration):
        return "it holds no question"
    if isinstance(error, (AttributeError, TypeError)):
        return "it is JSON, but not an object with the fields format, messages and records"
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return reason(error)  # not JSON, not UTF-8, nested too deeply, or Trace's own complaint


def recorded_question(model, path, question, language):
    """The question to replay: the one asked if it was recorded, else the recorded one, or the lesson's."""
    questions = list(dict.fromkeys(trace.question for trace in model.traces))
    if question is not None and question not in questions:
        raise ValueError(f"{path} holds no recording of the question {shortened(question)}: leave out --question "
                         f"to replay what it recorded, or record this one with "
                         f"`python -m agentlib --real --question {as_argument(question)} --save run.json`")
    if question is not None or len(questions) == 1:
        return question or questions[0]
    if QUESTION[language] in questions:
        return QUESTION[language]
    raise ValueError(f"{path} holds recordings of {len(questions)} questions: say which one to replay with "
                     f"--question, e.g. --question {as_argument(questions[0])}")


# A question is shown cut to 500 characters: a pasted 100 KB question must not come back in full, twice.
def shortened(text, limit=500):
    """`text` quoted, cut to `limit` characters. Example: shortened("a" * 600) -> "'aaa…'" (500 a's, then …)"""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def as_argument(question, limit=500):
    """`question` as the shell takes it, or a placeholder when it is too long to repeat.

    Example: as_argument("What is a Client?") -> "'What is a Client?'"
    """
    return quote(question) if len(question) <= limit else "'<the question>'"


def choose_model(kind, language="en", questions=None):
    """The model named on the command line; exits 1 with one sentence when it cannot be had."""
    from .providers.errors import ModelError

    try:
        if kind == "real":
            return RealModel(language=language)
        if kind == "local":
            from .providers.local import local_server

            return RealModel(**local_server(language), language=language)
        if kind in ("oracle", "naive"):
            from .classroom.oracle import NaiveModel, OracleModel

            return OracleModel(questions) if kind == "oracle" else NaiveModel()
        return ScriptedModel(lesson_script(language))
    except ImportError as error:
        sys.exit(missing_package(error))
    except (ModelError, OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(FAILED)


def missing_package(error):
    """Say which package is missing and the command that installs it; returns the exit status."""
    print(f"error: the package {error.name or error} is not installed for {sys.executable}: run `make setup` "
          f"and use .venv/bin/python, or install the course in its folder with `{sys.executable} -m pip install "
          f"-r requirements.txt`", file=sys.stderr)
    return FAILED


if __name__ == "__main__":
    sys.exit(entry())
