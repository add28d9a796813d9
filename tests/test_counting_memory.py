"""Counting in constant memory: a count's memory does not grow with the solutions it
counts, a restarted search still gives each solution once, and a count that runs
out of stack keeps its count so far.

Memory is measured after a number of solutions, never after a time: the bound
does not depend on the machine's speed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from crossprolog import parse

# A puzzle with hundreds of thousands of solutions or more, per family (make bench
# measures them too: bench/memory.py).
MANY_SOLUTIONS = {path.stem: path.read_text() for path in sorted(
    (Path(__file__).resolve().parent.parent / "bench" / "many-solutions").glob("*.txt"))}
FEW, MANY = 1_000, 20_000
GROWTH_MB = 15  # remembering every solution took 3 KB each: about 57 MB over these

PEAK_AFTER_COUNTS = """
import json, resource, sys
from crossprolog import parse
puzzle = parse(sys.stdin.read())
peaks = []
for limit in map(int, sys.argv[1:]):
    assert puzzle.count(limit) == limit
    peaks.append(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
print(json.dumps(peaks))
"""


@pytest.mark.parametrize("family", MANY_SOLUTIONS)
def test_counting_solutions_takes_no_more_memory_for_more_solutions(family):
    """The peak memory after counting MANY solutions is about that after FEW, with each
    family's default encoding (in a process of its own, so that the peak is the count's)."""
    run = subprocess.run([sys.executable, "-c", PEAK_AFTER_COUNTS, str(FEW), str(MANY)],
                         input=MANY_SOLUTIONS[family], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    few, many = json.loads(run.stdout)  # kilobytes
    assert (many - few) / 1024 < GROWTH_MB, f"{family}: {few // 1024} MB, then {many // 1024} MB"


# 5,468 solutions: more than restarted/3 remembers (1,000), so the search's last attempt
# must leave out what the attempts before it gave.
PAST_WHAT_IS_REMEMBERED = {
    "crossproduct": ("960 8400 972 6300\n? ? ? ? 280\n? ? ? ? 96\n? ? ? ? 315\n"
                     "? ? ? ? 324\n? ? ? ? 180\n? ? ? ? 100\n", "restarts", "primes"),
    # 0/1 tables of 5 x 5 with two 1s in every row and column: 2,040.
    "crosscells": ("\n".join(["+1 +2 +3 +4 +5 #2"] * 5 + ["#2 #2 #2 #2 #2"]), "restarts", "masks"),
}


@pytest.mark.parametrize("family", PAST_WHAT_IS_REMEMBERED)
def test_a_restarted_search_gives_every_solution_once_past_what_it_remembers(family):
    text, restarted, plain = PAST_WHAT_IS_REMEMBERED[family]
    puzzle = parse(text, family=family)
    found = puzzle.search(encoding=restarted)
    expected = {s.values for s in puzzle.search(encoding=plain).solutions}
    assert len(expected) > 1_000
    assert found.status == "complete"
    assert len(found.solutions) == len(expected)  # none twice
    assert {s.values for s in found.solutions} == expected


# A user's encoding whose every solution holds on to more stack: counting runs it out.
STACK_EATER = """:- module(stack_eater, [model/3, family/1]).
:- set_prolog_flag(stack_limit, 64_000_000).
family(crossproduct).
model(_Puzzle, [[D]], deeper(0, D)).
deeper(N, D) :- D is N mod 9 + 1.
deeper(N, D) :- N1 is N + 1, numlist(1, 100000, Kept), deeper(N1, D), length(Kept, _).
"""


def test_a_count_that_runs_out_of_stack_ends_with_the_count_so_far(tmp_path):
    encoding = tmp_path / "stack_eater.pl"
    encoding.write_text(STACK_EATER)
    puzzle = tmp_path / "any.txt"
    puzzle.write_text("4\n? 4\n")
    command = [sys.executable, "-m", "crossprolog", "count", "--encoding-file", str(encoding),
               "--encoding", "stack_eater", str(puzzle)]
    text = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert text.returncode == 3, text.stderr
    assert text.stdout.startswith("at least ") and "ran out of resources" in text.stdout
    assert "Traceback" not in text.stderr
    record = subprocess.run(command + ["--format", "json"], capture_output=True, text=True,
                            timeout=120)
    found = json.loads(record.stdout)
    assert found["status"] == "error" and found["complete"] is False
    assert found["count"] > 0 and "Stack limit" in found["error"]
    # The API keeps the count so far as well (in a process of its own: the stack limit stays).
    api = subprocess.run([sys.executable, "-c", f"""
from crossprolog import ResourceLimit, engine, parse
name = engine.load_encoding({str(encoding)!r})
try:
    parse("4\\n? 4\\n").count(encoding=name)
except ResourceLimit as stopped:
    print(stopped.found.status, stopped.found.count)
"""], capture_output=True, text=True, timeout=120)
    status, count = api.stdout.split()
    assert status == "resource" and int(count) > 0, api.stderr



# One solution of PAST_WHAT_IS_REMEMBERED's CrossProduct, given with its first digit
# changed: as many solutions as the right encodings find, one of them wrong.
ONE_WRONG = """:- module(one_wrong, [model/3]).
model(Puzzle, Out, (crossproduct:Labeling, wrong_once(Rows, Out))) :-
    crossproduct:model(primes, Puzzle, Rows, Labeling).
wrong_once(Rows, Out) :-
    (   Rows = [[2, 7, 4, 5]|Rest]
    ->  Out = [[3, 7, 4, 5]|Rest]
    ;   Out = Rows
    ).
"""


def test_compare_over_more_solutions_than_it_keeps_tells_agreement_by_digest(tmp_path):
    """Past KEPT_AT_MOST solutions, compare keeps none: the Prolog encodings' digests,
    and the digest Python takes of clingo's solutions, agree; an encoding with one
    wrong solution among as many is told apart."""
    from crossprolog import engine
    from crossprolog.compare import KEPT_AT_MOST, compare

    path = tmp_path / "one_wrong.pl"
    path.write_text(ONE_WRONG)
    engine.load_encoding(str(path))
    puzzle = parse(PAST_WHAT_IS_REMEMBERED["crossproduct"][0], family="crossproduct")
    runs = compare(puzzle, ["primes", "restarts", "asp", "one_wrong"], limit=0, repeat=1,
                   timeout=120)
    assert all(run.solutions == 5468 > KEPT_AT_MOST for run in runs)
    assert [run.agrees for run in runs] == [True, True, True, False]
