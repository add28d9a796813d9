:- module(mine, [model/3]).

model(Puzzle, Rows, Labeling) :- Labeling = labeling([ff] Rows), _{rows: Rows} :< Puzzle.
