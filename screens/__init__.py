"""The app's screens: one Flet component per file, each taking its state as arguments.

State lives in observable dataclasses (``screens/state.py``) whose methods are plain Python,
tested without a browser; the components only render it and call those methods.
"""
