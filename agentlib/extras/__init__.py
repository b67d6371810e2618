"""Extras around the course, imported by neither the lesson nor the course: the tiny local model
(local.py), the frameworks of notebook 09 (frameworks.py, side_by_side.py) and its replay server."""
