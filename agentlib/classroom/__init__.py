"""What the notebooks show and check, built around the lesson's code, never inside it.

viewer.py (step through a trace), controls.py (the max_steps control),
tokens.py (token tables), show.py (print a function's source), exercises.py
(the exercise checks), evaluate.py (an agent against a question set).
These modules import the lesson modules; the lesson never imports them.
ipywidgets, pandas and IPython are imported only where they are used.
"""
