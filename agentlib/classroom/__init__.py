"""What the notebooks show and check, built around the lesson's code, never inside it.

viewer.py (step through a trace), controls.py (the max_steps control),
tokens.py (token tables), show.py (print a function's source), evaluate.py
(an agent against a question set), and the exercise checks: exercises.py
(the framework and the practice exercises), own_tools.py (the student's own
decorator and read_doc), own_loop.py (the student's own loop, ScriptedModel
and RealModel), loopback.py (the tiny chat-completions server that check uses).
These modules import the lesson modules; the lesson never imports them.
ipywidgets, pandas and IPython are imported only where they are used.
"""
