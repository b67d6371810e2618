"""The notebooks' source: one module per notebook, read by tools/build_notebooks.py."""
