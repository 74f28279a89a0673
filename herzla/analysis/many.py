"""The name of :mod:`herzla.analysis.solve_many` in herzla 0.2, kept so that the imports
written against it still work."""

from herzla.analysis.solve_many import WINDOW, SolveFailure, check_work, solve_each, solve_many

__all__ = ["WINDOW", "SolveFailure", "check_work", "solve_each", "solve_many"]
