"""The name of :mod:`herzla.analysis.steps` in herzla 0.2, kept so that the imports written
against it still work."""

from herzla.analysis.steps import Step, line_steps, line_text, parse_play, record_steps, walk

__all__ = ["Step", "line_steps", "line_text", "parse_play", "record_steps", "walk"]
