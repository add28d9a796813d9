"""The techniques past the subsets, as HoDoKu, SudokuWiki and Sudoku Explainer name them:
fish, wings, single-digit chains, XY-chains and the unique rectangle.

Each is one function from the pencil marks (`techniques.Marks`) to the steps it
finds, over the statement's units as data (a digit's strong links, a cell's
peers), so each applies to every family whose units are as long as its digits
(Sudoku's rows, columns and boxes; KenKen's rows and columns).  The ratings are
Sudoku Explainer's where it rates the technique (fish, XY- and XYZ-wing, the
unique rectangle); the skyscraper, the 2-string kite and the W-wing, which it
rates only as "turbot fish" (6.6), sit where HoDoKu puts them, below the
XY-wing.  Forcing chains and contradictions, which try a candidate, are in
`forcing.py`.
"""

from __future__ import annotations

from collections import deque
from itertools import combinations
from typing import Callable, Iterator

from .techniques import Index, Marks, Statement, Step, Unit, name

FISH = {2: ("X-wing", 3.2), 3: ("swordfish", 3.8), 4: ("jellyfish", 5.2)}


def whole(s: Statement, kind: str) -> list[Unit]:
    """The units of `kind` ("row", "column", "box") holding every digit once."""
    return [u for u in s.units if u.kind == kind and len(u.cells) == len(s.digits)]


def where(m: Marks, cells, d: int) -> tuple[Index, ...]:
    """The open cells of `cells` that can still take `d`."""
    return tuple(i for i in cells if i not in m.values and d in m.cands[i])


def removals(m: Marks, d: int, seeing_all: list[Index], keep=()) -> tuple[tuple[Index, int], ...]:
    """(cell, d) for every open cell other than `keep` that sees each of `seeing_all` and can take `d`."""
    s = m.statement
    common = set.intersection(*(set(s.peers[i]) for i in seeing_all)) - set(keep) - set(seeing_all)
    return tuple((j, d) for j in sorted(common) if j not in m.values and d in m.cands[j])


def fish(size: int) -> Callable[[Marks], Iterator[Step]]:
    """X-wing, swordfish, jellyfish: a digit `size` rows can take only within `size`
    columns (or columns within rows) leaves the rest of those columns."""
    technique, rating = FISH[size]

    def found(m: Marks) -> Iterator[Step]:
        s = m.statement
        for base_kind, cover_kind in (("row", "column"), ("column", "row")):
            covers = whole(s, cover_kind)
            cover_of = {i: u for u in covers for i in u.cells}
            for d in s.digits:
                bases = [(u, where(m, u.cells, d)) for u in whole(s, base_kind)]
                bases = [(u, w) for u, w in bases if 2 <= len(w) <= size and all(i in cover_of for i in w)]
                for chosen in combinations(bases, size):
                    lines = {cover_of[i] for _, w in chosen for i in w}
                    if len(lines) != size:
                        continue
                    corners = {i for _, w in chosen for i in w}
                    removed = tuple((j, d) for u in sorted(lines, key=lambda u: u.cells)
                                    for j in where(m, u.cells, d) if j not in corners)
                    if removed:
                        named = " and ".join(u.name for u, _ in chosen)
                        crossing = " and ".join(u.name for u in sorted(lines, key=lambda u: u.cells))
                        yield Step(technique, rating, named,
                                   f"their {d}s are at {name(s, corners)}, in {crossing}: "
                                   f"{d} leaves {name(s, [j for j, _ in removed])}",
                                   tuple(sorted(corners)), removed=removed)
    found.__name__ = technique.replace("-", "_").lower()
    return found


def strong_links(m: Marks, d: int) -> list[tuple[Unit, Index, Index]]:
    """The units where `d` can go in two cells only: one of them takes it."""
    s = m.statement
    links = []
    for u in s.units:
        if len(u.cells) == len(s.digits):
            w = where(m, u.cells, d)
            if len(w) == 2:
                links.append((u, *w))
    return links


def single_digit_wings(m: Marks) -> Iterator[Step]:
    """Skyscraper and 2-string kite: two strong links on a digit whose ends `b` and `c`
    see each other: one of the far ends `a`, `e` takes it, so the cells seeing both lose it."""
    s = m.statement
    for d in s.digits:
        for (u1, *p), (u2, *q) in combinations(strong_links(m, d), 2):
            if u1.kind == "box" or u2.kind == "box" or set(p) & set(q):
                continue
            for a, b in (p, p[::-1]):
                for e, c in (q, q[::-1]):
                    if c not in s.peers[b]:
                        continue
                    same = u1.kind == u2.kind
                    if not same and not any(b in u.cells and c in u.cells for u in s.units_of[b] if u.kind == "box"):
                        continue
                    removed = removals(m, d, [a, e], keep=(b, c))
                    if removed:
                        technique, rating = ("skyscraper", 4.0) if same else ("2-string kite", 4.1)
                        yield Step(technique, rating, f"{u1.name} and {u2.name}",
                                   f"{d} is at {s.names[a]} or {s.names[b]} in {u1.name}, at {s.names[c]} or "
                                   f"{s.names[e]} in {u2.name}; {s.names[b]} and {s.names[c]} see each other, "
                                   f"so {s.names[a]} or {s.names[e]} takes {d}: it leaves "
                                   f"{name(s, [j for j, _ in removed])}", (a, b, c, e), removed=removed)


def pairs(m: Marks, size: int = 2) -> list[Index]:
    return [i for i, c in enumerate(m.cands) if i not in m.values and len(c) == size]


def xy_wings(m: Marks) -> Iterator[Step]:
    """A cell holding x or y (the pivot) sees one holding x or z and one holding y or z:
    one of those two takes z, so the cells seeing both lose z."""
    s = m.statement
    two = pairs(m)
    for pivot in two:
        x, y = sorted(m.cands[pivot])
        wings = [i for i in two if i in s.peers[pivot] and m.cands[i] != m.cands[pivot]
                 and len(m.cands[i] & m.cands[pivot]) == 1]
        for p, q in combinations(wings, 2):
            zs = (m.cands[p] - m.cands[pivot]) & (m.cands[q] - m.cands[pivot])
            if len(zs) != 1 or (m.cands[p] & m.cands[q]) != zs:
                continue
            z = next(iter(zs))
            removed = removals(m, z, [p, q], keep=(pivot,))
            if removed:
                yield Step("XY-wing", 4.2, s.names[pivot],
                           f"it holds {x} or {y}, and sees {s.names[p]} ({either_of(m, p)}) and {s.names[q]} "
                           f"({either_of(m, q)}): one of them takes {z}, so {z} leaves "
                           f"{name(s, [j for j, _ in removed])}", (pivot, p, q), removed=removed)


def either_of(m: Marks, i: Index) -> str:
    return " or ".join(map(str, sorted(m.cands[i])))


def xyz_wings(m: Marks) -> Iterator[Step]:
    """A cell holding x, y or z sees one holding x or z and one holding y or z: one of the
    three takes z, so the cells seeing all three lose z."""
    s = m.statement
    two = pairs(m)
    for pivot in pairs(m, 3):
        wings = [i for i in two if i in s.peers[pivot] and m.cands[i] < m.cands[pivot]]
        for p, q in combinations(wings, 2):
            zs = m.cands[p] & m.cands[q]
            if len(zs) != 1 or m.cands[p] | m.cands[q] != m.cands[pivot]:
                continue
            z = next(iter(zs))
            removed = removals(m, z, [pivot, p, q])
            if removed:
                yield Step("XYZ-wing", 4.4, s.names[pivot],
                           f"it holds {either_of(m, pivot)}, and sees {s.names[p]} ({either_of(m, p)}) and "
                           f"{s.names[q]} ({either_of(m, q)}): one of the three takes {z}, so {z} leaves "
                           f"{name(s, [j for j, _ in removed])}", (pivot, p, q), removed=removed)


def w_wings(m: Marks) -> Iterator[Step]:
    """Two cells holding only x or y that do not see each other, joined by a strong link on
    x (each end seeing one of them): one of the two takes y, so the cells seeing both lose y."""
    s = m.statement
    two = pairs(m)
    for p, q in combinations(two, 2):
        if m.cands[p] != m.cands[q] or q in s.peers[p]:
            continue
        for x in sorted(m.cands[p]):
            y = next(iter(m.cands[p] - {x}))
            for u, a, b in strong_links(m, x):
                for near_p, near_q in ((a, b), (b, a)):
                    if near_p in s.peers[p] and near_q in s.peers[q] and not {near_p, near_q} & {p, q}:
                        removed = removals(m, y, [p, q])
                        if removed:
                            yield Step("W-wing", 4.4, f"{s.names[p]} and {s.names[q]}",
                                       f"both hold {x} or {y}; {x} is at {s.names[near_p]} or {s.names[near_q]} "
                                       f"in {u.name}, which see them, so one of them takes {y}: {y} leaves "
                                       f"{name(s, [j for j, _ in removed])}", (p, q, near_p, near_q),
                                       removed=removed)
                            break


def unique_rectangles(m: Marks) -> Iterator[Step]:
    """Unique rectangle type 1, when the puzzle is known to have one solution: four open cells
    in two rows, two columns and two boxes, three holding only x or y; were the fourth x or y,
    x and y could swap, so it loses them."""
    s = m.statement
    if not s.unique:
        return
    line = {kind: {i: u for u in whole(s, kind) for i in u.cells} for kind in ("row", "column", "box")}
    two = [i for i in pairs(m) if i in line["row"] and i in line["column"]]
    for p, q in combinations(two, 2):
        if m.cands[p] != m.cands[q] or line["row"][p] is not line["row"][q]:
            continue
        for r in two:
            if r == p or m.cands[r] != m.cands[p] or line["column"][r] is not line["column"][p]:
                continue
            (f,) = set(line["row"][r].cells) & set(line["column"][q].cells)
            corners = (p, q, r, f)
            if f in m.values or len({line["box"].get(i) for i in corners}) != 2 or not m.cands[p] < m.cands[f]:
                continue
            x, y = sorted(m.cands[p])
            yield Step("unique rectangle", 4.5, name(s, corners),
                       f"{name(s, (p, q, r))} hold only {x} or {y}; were {s.names[f]} {x} or {y}, the two "
                       f"could swap in these four cells and the puzzle would have two solutions: "
                       f"{x} and {y} leave {s.names[f]}", corners, removed=((f, x), (f, y)))


def x_chains(m: Marks) -> Iterator[Step]:
    """A chain of strong links on one digit joined by cells that see each other (simple
    colouring is one): one of its two ends takes the digit, so the cells seeing both lose it.
    The shortest such chain from each end first."""
    s = m.statement
    for d in s.digits:
        strong: dict[Index, set[Index]] = {}
        for _, a, b in strong_links(m, d):
            strong.setdefault(a, set()).add(b)
            strong.setdefault(b, set()).add(a)
        holders = [i for i in range(len(m.cands)) if i not in m.values and d in m.cands[i]]
        for start in sorted(strong):
            # (cell, it takes d when start does not): reached by a strong link from a cell
            # that does not take d, by a weak link (a peer) from one that does
            def links(node, start=start):
                cell, takes = node
                ahead = [j for j in holders if j in s.peers[cell]] if takes else strong.get(cell, ())
                return [(j, not takes) for j in ahead if j != start]

            for chain, removed in eliminating(m, d, (start, False), links, lambda node: node[1], shortest=4):
                yield Step("X-chain", 6.5, f"the {d}s of {name(s, chain)}",
                           f"{d} is at {s.names[start]} or, by the chain "
                           f"{linked(s, chain)}, at {s.names[chain[-1]]}: it leaves "
                           f"{name(s, [c for c, _ in removed])}", tuple(chain), removed=removed)
                return


def eliminating(m: Marks, digit: int, first: tuple, links: Callable[[tuple], list[tuple]],
                ends: Callable[[tuple], bool], shortest: int) -> Iterator[tuple[list[Index], tuple]]:
    """The chains from `first` (a cell, and what it takes) along `links`, shortest first,
    to a node `ends` accepts, of at least `shortest` cells, whose two end cells take
    `digit` from a cell seeing both: each as its cells and those removals."""
    for node, before in walks(first, links):
        if ends(node):
            chain = traced(before, node)
            removed = removals(m, digit, [first[0], node[0]], keep=chain)
            if len(chain) >= shortest and removed:
                yield chain, removed


def walks(first: tuple, links: Callable[[tuple], list[tuple]]) -> Iterator[tuple[tuple, dict]]:
    """The nodes (a cell, and what it takes) reached from `first` by `links`, breadth
    first (the shortest chain to each), each once, with the links walked so far (for
    `traced`)."""
    before = {first: None}
    queue = deque([first])
    while queue:
        node = queue.popleft()
        for reached in links(node):
            if reached not in before:
                before[reached] = node
                queue.append(reached)
                yield reached, before


def traced(before: dict, node) -> list[Index]:
    """The cells of the chain `walks` took to `node`, from its first."""
    chain = []
    while node is not None:
        chain.append(node[0])
        node = before[node]
    return chain[::-1]


def linked(s: Statement, chain: list[Index]) -> str:
    """`r1c1 = r1c5 - r3c5 = r3c9`: strong (=) and weak (-) links, alternating."""
    return "".join(f"{' = ' if k % 2 else ' - '}{s.names[i]}" if k else s.names[i] for k, i in enumerate(chain))


def xy_chains(m: Marks) -> Iterator[Step]:
    """A chain of cells each holding two digits, each seeing the next and sharing a digit with
    it: if the first cell is not z the last is, so the cells seeing both lose z."""
    s = m.statement
    two = pairs(m)
    for start in two:
        def links(node, start=start):  # to a pair seeing the cell, its other digit taken
            cell, takes = node
            return [(j, next(iter(m.cands[j] - {takes}))) for j in two
                    if j in s.peers[cell] and takes in m.cands[j] and j != start]

        for z in sorted(m.cands[start]):
            first = (start, next(iter(m.cands[start] - {z})))  # what start takes if it is not z
            for chain, removed in eliminating(m, z, first, links, lambda node: node[1] == z, shortest=3):
                j = chain[-1]
                yield Step("XY-chain", 6.6, f"{name(s, [start])} to {name(s, [j])}",
                           f"if {s.names[start]} is not {z}, the chain {' - '.join(s.names[i] for i in chain)} "
                           f"(each holding two digits) makes {s.names[j]} {z}: {z} leaves "
                           f"{name(s, [c for c, _ in removed])}", tuple(chain), removed=removed)
                return
