"""The grades a person's solving path earns: data, apart from the techniques that earn them.

A grade is named by the hardest rating its path needs (Sudoku Explainer's scale);
docs/hints.md says which techniques fall where.  The command line offers the names
without loading the techniques.
"""

from __future__ import annotations

# Each grade's name and the highest rating in it, easiest first.
GRADES = (("easy", 1.5), ("medium", 2.5), ("hard", 2.8), ("fiendish", 6.6), ("diabolical", 99.0))


def grade_name(rating: float) -> str:
    """The name of the grade holding `rating`."""
    return next(name for name, top in GRADES if rating <= top)
