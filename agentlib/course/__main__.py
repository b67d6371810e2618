"""The instructor's command line (with the course installed: .venv/bin/python -m agentlib.course ...).

    python -m agentlib.course eval                score a model on data/questions.json (--model oracle|naive|...)
    python -m agentlib.course eval --model real --save runs    ... and record every run, for --model replay
    python -m agentlib.course progress /home      the class's progress: exercises solved, minutes per notebook
    python -m agentlib.course progress /home --html class.html    ... as one web page: the grid, who is stuck, a chart

Exit status: 0 the table is complete, 1 the run failed, 2 bad usage. The lesson's own run is
`python -m agentlib` (--real).
"""

import argparse
import csv
import sys
from pathlib import Path
from shlex import quote

FAILED, USAGE = 1, 2  # argparse's convention: 2 for a command line that cannot be run
EXIT_CODES = "exit status: 0 the table is complete, 1 the run failed (an error, the step limit), 2 bad usage"


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["progress"]:
        return progress(argv[1:])
    if argv[:1] in (["-h"], ["--help"]):  # asked for: the commands, on stdout, and success
        print("usage: python -m agentlib.course eval|progress ...\n\n" + __doc__.split("\n\n", 1)[1].strip("\n"))
        return 0
    if argv[:1] != ["eval"]:
        print("usage: python -m agentlib.course eval|progress ... (--help after either says more)", file=sys.stderr)
        return USAGE
    parser = argparse.ArgumentParser(
        prog="python -m agentlib.course eval",
        epilog=EXIT_CODES,
        description="Run the agent on every question of the question set and score the citations.",
    )
    parser.add_argument(
        "--model",
        choices=["oracle", "naive", "real", "replay"],
        default="oracle",
        help="oracle and naive are scripted and free; real needs LLM_API_KEY (or LLM_BASE_URL of a "
        "server on this machine); replay needs --recording",
    )
    parser.add_argument("--recording", metavar="FOLDER", help="traces saved by an earlier `eval --save`")
    parser.add_argument("--questions", metavar="FILE", help="default: data/questions.json")
    parser.add_argument(
        "--language", choices=["en", "de"], default="en", help="which language of each question to ask (default: en)"
    )
    parser.add_argument(
        "--max-steps", type=positive, default=8, metavar="N", help="stop a question after N model calls (default: 8)"
    )
    parser.add_argument("--save", metavar="FOLDER", help="save every run's trace there, for --model replay")
    args = parser.parse_args(argv[1:])
    for name, example in (("save", "runs"), ("recording", "runs"), ("questions", "data/questions.json")):
        if getattr(args, name) is not None and not getattr(args, name).strip():  # "" must not mean "no file"
            parser.error(f"--{name} is empty: give it a name, e.g. --{name} {example}")
    if args.model == "replay" and not args.recording:
        parser.error("--model replay needs --recording FOLDER")
    from ..provider.errors import ModelError
    from .evaluate import evaluate, report, writable_folder
    from .questions import load_questions

    questions = usage_check(load_questions, args.questions)
    save = args.save is not None and usage_check(writable_folder, args.save)
    try:
        model = (
            usage_check(load_recording, args.recording, args.language)
            if args.model == "replay"
            else choose_model(args.model, args.language, questions)
        )
        table = evaluate(model, questions, language=args.language, max_steps=args.max_steps, save_to=save)
    except ModelError as error:
        print(f"error: {error}", file=sys.stderr)
        return FAILED
    except KeyboardInterrupt:
        print(
            f"error: you interrupted the evaluation{'; the runs so far are in ' + str(save) if save else ''}",
            file=sys.stderr,
        )
        return FAILED
    except ImportError as error:
        print(
            f"error: the package {error.name or error} is not installed for {sys.executable}: run `make setup` "
            f"and use .venv/bin/python, or install the course in its folder with `{sys.executable} -m pip install "
            f"-r requirements.txt`",
            file=sys.stderr,
        )
        return FAILED
    print(report(table))
    return 0


def progress(argv):
    """`progress PATH...`: the class's table (or CSV, or --minutes, or an --html page); see progress_report.py."""
    from .class_table import aligned, spreadsheet_safe, table
    from .progress import FILE, FOLDER
    from .progress_report import read_class

    parser = argparse.ArgumentParser(
        prog="python -m agentlib.course progress",
        description="The instructor's view of a class: who solved which exercise, who "
        "is stuck, how long each notebook took.",
        epilog="marks: ✓ solved, ✗ 2 two different incorrect attempts, ○ not attempted "
        "(the check ran on the untouched cell), · not reached (the check never "
        "ran). exit status: 0 every home was read, 1 some could not be, "
        "2 bad usage",
    )
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="a student's home or handed-in folder, a progress file (ada.jsonl), or a folder of these (e.g. /home)",
    )
    parser.add_argument("--csv", action="store_true", help="comma-separated values instead of a table")
    parser.add_argument(
        "--minutes", action="store_true", help="only the median minutes per notebook, for the course's stated times"
    )
    parser.add_argument("--html", metavar="FILE", help="write the class as one self-contained web page instead")
    parser.add_argument("--language", choices=["en", "de"], default="en", help="the language of the --html page")
    args = parser.parse_args(argv)
    missing = [path for path in args.paths if not Path(path).exists()]
    if missing:
        parser.error(f"{missing[0]} does not exist: name a student's home, a folder of homes or a progress file")
    if args.html is not None and (args.csv or args.minutes):
        parser.error("--html writes the whole class as a page: leave out --csv and --minutes")
    if args.html is not None and (
        not args.html.strip() or Path(args.html).is_dir() or not Path(args.html).parent.is_dir()
    ):
        parser.error(f"--html {args.html!r}: name a file in a folder that exists, e.g. --html class.html")
    students, problems = read_class(args.paths)
    for problem in problems:
        print(f"warning: {problem}", file=sys.stderr)
    for name, student in students.items():  # said, not failed on: the rest of the file still counts
        if student.skipped:
            print(
                f"note: {name}: {student.skipped} line(s) of the progress file are no record and were skipped",
                file=sys.stderr,
            )
    if not any(student.found for student in students.values()):
        print(f"error: no progress file ({FOLDER}/{FILE} or NAME.jsonl) under {', '.join(args.paths)}", file=sys.stderr)
        return FAILED
    if args.html is not None:
        from .class_view import page

        try:
            Path(args.html).write_text(page(students, args.language), encoding="utf-8")
        except OSError as error:
            print(f"error: cannot write {args.html} ({error.strerror or error})", file=sys.stderr)
            return FAILED
        print(f"wrote {args.html}: {len(students)} students")
    elif args.csv:
        csv.writer(sys.stdout, lineterminator="\n").writerows(
            [[spreadsheet_safe(cell) for cell in row] for row in table(students, args.minutes)]
        )
    else:
        print(aligned(table(students, args.minutes)))
    return FAILED if problems else 0


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


def load_recording(path, language="en"):
    """A ReplayModel of every *.json trace in the folder `path` (or of that one file); ValueError naming a bad file."""
    from ..trace import Trace
    from .questions import reason
    from .replay import ReplayModel

    path = Path(path)
    files = sorted(path.glob("*.json")) if path.is_dir() else [path] if path.is_file() else []
    if not files:
        raise FileNotFoundError(
            f"no recording (*.json) at {path}: check the path, or record one with `python -m "
            f"agentlib.course eval --model real --save {quote(str(path))}` (needs a key)"
        )
    traces = []
    for file in files:
        try:
            traces.append(Trace.load(file))
            traces[-1].question  # noqa: B018 -- raises when the trace holds no question, which no replay can ask
        except Exception as error:
            raise ValueError(
                f"{file} is not a run saved with --save ({reason(error)}): set it aside with "
                f"`mv {quote(str(file))} {quote(str(file) + '.bad')}`"
            ) from None
    return ReplayModel(traces, language)


def choose_model(kind, language, questions):
    """The model named on the command line; exits 1 with one sentence when it cannot be had."""
    from ..models import RealModel
    from ..provider.errors import ModelError
    from .oracle import NaiveModel, OracleModel

    try:
        return (
            RealModel(language=language)
            if kind == "real"
            else OracleModel(questions)
            if kind == "oracle"
            else NaiveModel()
        )
    except (ModelError, OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        sys.exit(FAILED)


if __name__ == "__main__":
    sys.exit(main())
