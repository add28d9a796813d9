:- module(kenken,
          [ encodings/1,        % -Names
            model/4,            % +Encoding, +Puzzle, -Rows, -Labeling
            constraints/4       % +Puzzle, -Rows, -Named, -Goals
          ]).
/** <module> KenKen: an NxN grid holding 1..N once in every row and column, cut
into cages whose digits combine to their targets.

A puzzle arrives from Python as a dict

    _{size: N, cages: [_{cells: [[Row, Column], ...], op: Op, target: T}, ...],
      givens: [[Row, Column, Digit], ...]}

with 0-based rows and columns, Op one of "+", "-", "*", "/" and "=" (a
one-cell cage: the cell is T), as text.  "-" and "/" cages have two cells:
the larger digit less, or divided by, the smaller is T.  Givens are digits
a solver has already placed.  The solution is the grid, a list of rows.

model/4 is the pure relation: it posts the constraints of an encoding and
hands back the labeling that goes with it.

  - candidates (the default): a Prolog search over digit masks, no
    CLP(FD): naked and hidden singles in the rows and columns, and each
    cage keeps the fillings its cells still allow, its cells only the
    digits those fillings have (arc consistent, as a table), the rest of
    a row or column none that every filling puts in it; branches on
    a cell with the fewest candidates.  See CANDIDATES below.  It posts
    no constraints, so hints reason with tables (the family's
    reasoning encoding).

The CLP(FD) encodings state the rows and columns with all_distinct/1 and
label first-fail; they differ in how a cage holds:

  - tables: each cage is a table constraint over its
    fillings, the digits for its cells that make the target, no digit
    twice in a row or column of the cage.  A table is arc consistent: a
    digit that no filling uses leaves the domain at once.
  - arithmetic: each cage as CLP(FD) arithmetic: a sum, a chain of
    products, abs(A - B) #= T, or A #= B*T #\/ B #= A*T.  Propagates
    bounds only, as a person reasoning about sums would not.
*/

:- use_module(library(clpfd)).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(pairs)).

encodings([candidates, tables, arithmetic]).

%!  model(+Encoding, +Puzzle, -Rows, -Labeling) is semidet.
%
%   Rows is the grid of digit variables of Puzzle, constrained the way
%   Encoding says; Labeling labels them.  Fails when the constraints are
%   found inconsistent.
model(candidates, Puzzle, Rows, Labeling) :- !,
    candidates_model(Puzzle, Rows, Labeling).
model(Encoding, Puzzle, Rows, labeling([ff], Digits)) :-
    memberchk(Encoding, [tables, arithmetic]),
    _{size: N, cages: Cages, givens: Givens} :< Puzzle,
    length(Rows, N),
    maplist(length_(N), Rows),
    append(Rows, Digits),
    Digits ins 1..N,
    maplist(give(Rows), Givens),
    maplist(all_distinct, Rows),
    transpose(Rows, Columns),
    maplist(all_distinct, Columns),
    maplist(cage(Encoding, N, Rows), Cages).

length_(Length, List) :-
    length(List, Length).

give(Rows, [R, C, Digit]) :-
    cell(Rows, [R, C], Digit).

cell(Rows, [R, C], Digit) :-
    nth0(R, Rows, Row),
    nth0(C, Row, Digit).

%!  cage(+Encoding, +N, +Rows, +Cage) is semidet.
%
%   The digits of Cage's cells combine to its target, as Encoding states it.
cage(Encoding, N, Rows, Cage) :-
    _{cells: Places, op: OpText, target: Target} :< Cage,
    atom_string(Op, OpText),
    maplist(cell(Rows), Places, Digits),
    holds(Encoding, Op, Target, N, Places, Digits).

holds(tables, Op, Target, N, Places, Digits) :-
    same_length(Places, Filling),
    findall(Filling, filling(Op, Target, N, Places, Filling), Fillings),
    tuples_in([Digits], Fillings).
holds(arithmetic, Op, Target, _, _, Digits) :-
    combines(Op, Digits, Target).

%!  combines(+Op, +Digits, +Target) is semidet.
%
%   The arithmetic encoding's statement of a cage.
combines(+, Digits, Target) :-
    sum(Digits, #=, Target).
combines(*, Digits, Target) :-
    foldl(times, Digits, 1, Target).
combines(-, [A, B], Target) :-
    abs(A - B) #= Target.
combines(/, [A, B], Target) :-
    A #= B * Target #\/ B #= A * Target.
combines(=, [A], Target) :-
    A #= Target.

times(Digit, Product0, Product) :-
    Product #= Product0 * Digit.

%!  filling(+Op, +Target, +N, +Places, -Digits) is nondet.
%
%   Digits (one of 1..N per place of Places) combine to Target under Op,
%   and no digit stands twice in a row or column.  Sums and products are
%   pruned as the digits are chosen, so a big cage costs its fillings, not
%   N to the power of its size.
filling(Op, Target, N, [P, Q], [A, B]) :-
    memberchk(Op, [-, /]), !,           % the second digit follows from the first
    between(1, N, A),
    other_digit(Op, Target, A, B),
    between(1, N, B),
    \+ ( A =:= B, lined_up(P, Q) ).
filling(Op, Target, N, Places, Digits) :-
    length(Places, Left),
    filled(Places, Digits, [], Op, Target, N, Left, Rest),
    finished(Op, Rest, Digits, Target).

filled([], [], _, _, Rest, _, _, Rest).
filled([Place|Places], [Digit|Digits], Placed, Op, Rest0, N, Left0, Rest) :-
    Left is Left0 - 1,
    digits(Op, Rest0, Left, N, Low, High),
    between(Low, High, Digit),
    \+ ( member(Other-Digit, Placed), lined_up(Place, Other) ),
    left(Op, Rest0, Digit, Rest1),
    filled(Places, Digits, [Place-Digit|Placed], Op, Rest1, N, Left, Rest).

other_digit(-, Target, A, B) :-
    (   B is A - Target
    ;   Target =\= 0,
        B is A + Target
    ).
other_digit(/, Target, A, B) :-
    (   B is A * Target
    ;   Target > 1,
        A mod Target =:= 0,
        B is A // Target
    ).

lined_up([R, _], [R, _]).
lined_up([_, C], [_, C]).

%   The digits a cell may take when Rest0 is what is left of the target
%   and Left cells come after it: a sum needs from 1 to N from each.
digits(+, Rest0, Left, N, Low, High) :- !,
    Low is max(1, Rest0 - Left * N),
    High is min(N, Rest0 - Left).
digits(*, Rest0, 0, N, Rest0, High) :- !,      % the last digit of a product is what is left
    High is min(N, Rest0).
digits(=, Target, _, N, Low, High) :- !,
    Low is max(1, Target),
    High is min(N, Target).
digits(_, _, _, N, 1, N).

%   What is left of the target once Digit is in: a product must be
%   divisible.  The two-cell operations decide at the end.
left(+, Rest0, Digit, Rest) :- !,
    Rest is Rest0 - Digit.
left(*, Rest0, Digit, Rest) :- !,
    Rest0 mod Digit =:= 0,
    Rest is Rest0 // Digit.
left(_, Rest, _, Rest).

finished(+, 0, _, _).
finished(*, 1, _, _).
finished(-, _, [A, B], Target) :-
    Target =:= abs(A - B).
finished(/, _, [A, B], Target) :-
    Target * min(A, B) =:= max(A, B).
finished(=, _, [Target], Target).


%!  constraints(+Puzzle, -Rows, -Named, -Goals) is det.
%
%   The puzzle's own constraints as a person writes them by hand, for an
%   exported program to read: Goals are CLP(FD) goals on the digits of Rows
%   (not posted): their range, the givens, all_distinct for each row and
%   column, one goal per cage (arithmetic, as the encoding of that name
%   states it), then the labeling.  Named names no other variable.
constraints(Puzzle, Rows, [], Goals) :-
    _{size: N, cages: Cages, givens: Givens} :< Puzzle,
    length(Rows, N),
    maplist(length_(N), Rows),
    append(Rows, Digits),
    transpose(Rows, Columns),
    maplist(given_goal(Rows), Givens, GivenGoals),
    maplist(distinct_goal, Rows, RowGoals),
    maplist(distinct_goal, Columns, ColumnGoals),
    maplist(cage_goal(Rows), Cages, CageGoals),
    maplist(domain_goal(1..N), Rows, DomainGoals),
    append([DomainGoals, GivenGoals, RowGoals, ColumnGoals, CageGoals, [labeling([ff], Digits)]],
           Goals).

domain_goal(Domain, Row, Row ins Domain).

given_goal(Rows, [R, C, Digit], Cell #= Digit) :-
    cell(Rows, [R, C], Cell).

distinct_goal(Line, all_distinct(Line)).

cage_goal(Rows, Cage, Goal) :-
    _{cells: Places, op: OpText, target: Target} :< Cage,
    atom_string(Op, OpText),
    maplist(cell(Rows), Places, Digits),
    cage_statement(Op, Digits, Target, Goal).

cage_statement(+, [D|Ds], Target, Sum #= Target) :-
    foldl(plus_expression, Ds, D, Sum).
cage_statement(*, [D|Ds], Target, Product #= Target) :-
    foldl(times_expression, Ds, D, Product).
cage_statement(-, [A, B], Target, abs(A - B) #= Target).
cage_statement(/, [A, B], Target, A #= Target*B #\/ B #= Target*A).
cage_statement(=, [A], Target, A #= Target).

plus_expression(D, Expression, Expression + D).
times_expression(D, Expression, Expression * D).


                 /*******************************
                 *   CANDIDATES: DIGIT MASKS    *
                 *******************************/

%   The candidates encoding reasons in plain Prolog on a word per cell, as
%   Sudoku's candidates encoding does: the digits a cell can still take
%   are a bitmask (bit D for digit D), in a term changed with setarg/3 so
%   that backtracking restores it.  A placed digit leaves the cell's row
%   and column (naked singles), a digit only one cell of a line can take
%   goes there (hidden singles), and a cage keeps the fillings its cells
%   still allow, its cells only the digits some kept filling has there
%   (arc consistent, as a table).  A filling is one integer, its cells'
%   digits in fields of N+1 bits, so it fits the cells' masks, packed the
%   same way, when it is a subset of them: one AND per filling.  The
%   digits every kept filling puts in a cage's cells of one row or column
%   leave the rest of that line (a 3+ domino takes 1 and 2 from its row):
%   this halves the inferences of checking 9x9 puzzles.  A cage whose
%   cells allow just what it left them is not looked at again.
%   No attributed variable wakes up: CLP(FD)'s tables and all_distinct
%   spent 3 M inferences checking ten 6x6 puzzles.
%
%   The state of the search is
%
%       candidates(Cells, Masks, Open, Placed, Cages, Lives, Pending, Geometry)
%
%   Cells: the N*N grid variables row by row (cell I = Row*N + Column + 1);
%   Masks: their candidate masks, 0 once placed; Open: how many cells are
%   not placed; Placed: for each of the 2N lines (rows 1..N, then
%   columns), the mask of its placed digits; Cages: cages(cage(Cells,
%   Width, Lines), ...) with Cells a list of cell numbers (Lines: see
%   cage_lines/4); Lives: for each cage, live(Seen, Fillings), the packed
%   fillings still allowed; Pending: pending(Lines, Cages), the
%   sets (bit U, bit K) of lines and cages whose cells changed since they
%   were last looked at; Geometry: geometry(N, CellLines, Peers,
%   LineCells, CellCage), facts of the grid as terms.

:- set_prolog_flag(optimise, true).     % compiled arithmetic: the inner loops are all masks

%!  candidates_model(+Puzzle, -Rows, -Labeling) is semidet.
%
%   Rows is the grid of plain variables; the givens, the singles and what
%   the cages allow are placed (failing when they contradict each other),
%   and Labeling searches for the rest.
candidates_model(Puzzle, Rows, label_candidates(Grid)) :-
    _{size: N, cages: CageData, givens: Givens} :< Puzzle,
    length(Rows, N),
    maplist(length_(N), Rows),
    append(Rows, Variables),
    Cells =.. [cells|Variables],
    Cells2 is N * N,
    All is (1 << (N + 1)) - 2,
    length(Ms, Cells2),
    maplist(=(All), Ms),
    Masks =.. [masks|Ms],
    Lines2 is 2 * N,
    length(Ps, Lines2),
    maplist(=(0), Ps),
    Placed =.. [placed|Ps],
    geometry(N, CellLines, Peers, LineCells),
    maplist(cage_fillings(N), CageData, CageTerms0, LiveLists),
    maplist(cage_lines(CellLines, LineCells), CageTerms0, CageTerms),
    Cages =.. [cages|CageTerms],
    maplist(unseen, LiveLists, LiveTerms),
    Lives =.. [lives|LiveTerms],
    cell_cages(CageTerms, Cells2, CellCage),
    GeometryWithCages = geometry(N, CellLines, Peers, LineCells, CellCage),
    length(CageTerms, NCages),
    AllLines is (1 << (Lines2 + 1)) - 2,
    AllCages is (1 << (NCages + 1)) - 2,
    Grid = candidates(Cells, Masks, Cells2, Placed, Cages, Lives, pending(AllLines, AllCages),
                      GeometryWithCages),
    maplist(place_given(Grid, N), Givens),
    propagate_candidates(Grid).

%   A cage's fillings as live(Seen, Fillings): Seen is the union of
%   Fillings once the cage's cells were narrowed to it (-1 before), so
%   when its cells allow just that, the cage has nothing to do.
unseen(Fillings, live(-1, Fillings)).

%!  geometry(+N, -CellLines, -Peers, -LineCells) is det.
%
%   CellLines: for each cell its row and column line(R, C); Peers: the
%   cells sharing a line with it; LineCells: each line's cells.
%   Tabled: a size's grid is worked out once.

:- table geometry/4.

geometry(N, CellLines, Peers, LineCells) :-
    Cells2 is N * N,
    findall(line(R, C), ( between(1, Cells2, I),
                          R is (I - 1) // N + 1,
                          C is (I - 1) mod N + 1 + N ),
            CLs),
    CellLines =.. [cell_lines|CLs],
    findall(Row, ( between(1, N, R), row_cells(N, R, Row) ), Rows),
    findall(Column, ( between(1, N, C), column_cells(N, C, Column) ), Columns),
    append(Rows, Columns, LineLists),
    LineCells =.. [line_cells|LineLists],
    findall(Ps, ( between(1, Cells2, I),
                  arg(I, CellLines, line(R, C)),
                  arg(R, LineCells, RowCells),
                  arg(C, LineCells, ColumnCells),
                  append(RowCells, ColumnCells, Both),
                  exclude(==(I), Both, Ps) ),
            PeerLists),
    Peers =.. [peers|PeerLists].

row_cells(N, R, Cells) :-
    findall(I, ( between(1, N, C), I is (R - 1) * N + C ), Cells).

column_cells(N, C, Cells) :-
    findall(I, ( between(1, N, R), I is (R - 1) * N + C ), Cells).

%   A cage as cage(Cells, Width) with its fillings packed: the K-th cell's
%   digit D is bit D of the K-th field of Width = N+1 bits.
cage_fillings(N, Cage, cage(Numbers, Width), Packed) :-
    _{cells: Places, op: OpText, target: Target} :< Cage,
    atom_string(Op, OpText),
    maplist(place_number(N), Places, Numbers),
    Width is N + 1,
    (   memberchk(Op, [-, /])
    ->  same_length(Places, Filling),
        findall(P, ( filling(Op, Target, N, Places, Filling),
                     foldl(packed_digit(Width), Filling, 0-0, P-_) ),
                Packed0)
    ;   lined_after(Places, Lined),
        length(Places, Left),
        same_length(Places, Forbidden),
        maplist(=(0), Forbidden),
        findall(P, packed_filling(Lined, Forbidden, Op, Target, N, Left, 0, Width, 0, P),
                Packed0)
    ),
    sort(Packed0, Packed).

%   For each place, a flag (1 or 0) for each place after it: whether the
%   two share a row or column.
lined_after([], []).
lined_after([P|Ps], [Flags|Lined]) :-
    maplist(lined_flag(P), Ps, Flags),
    lined_after(Ps, Lined).

lined_flag(P, Q, Flag) :-
    (   lined_up(P, Q)
    ->  Flag = 1
    ;   Flag = 0
    ).

%   packed_filling(+Lined, +Forbidden, +Op, +Rest, +N, +Left, +Shift, +Width, +P0, -P):
%   a filling of a sum, product or given cage, packed as it is chosen: the
%   next cell's digits are those its bounds (a sum) or divisibility (a
%   product) allow, less the digits placed before it in its row or column
%   (Forbidden, a mask per place still to fill).
packed_filling([[]], [F], _, Digit, N, _, Shift, _, P0, P) :- !,
    Digit >= 1,                         % the last digit of a sum or product is what is left
    Digit =< N,
    F /\ (1 << Digit) =:= 0,
    P is P0 \/ (1 << (Digit + Shift)).
packed_filling([Flags|Lined], [F|Fs], Op, Rest0, N, Left0, Shift, Width, P0, P) :-
    Left is Left0 - 1,
    digits(Op, Rest0, Left, N, Low, High),
    Low =< High,
    Range is (1 << (High + 1)) - (1 << Low),
    Free is Range /\ \ F,
    Free =\= 0,
    mask_digit(Free, Digit),
    left(Op, Rest0, Digit, Rest1),
    Bit is 1 << Digit,
    forbid(Flags, Fs, Bit, Fs1),
    P1 is P0 \/ (Bit << Shift),
    Shift1 is Shift + Width,
    packed_filling(Lined, Fs1, Op, Rest1, N, Left, Shift1, Width, P1, P).

forbid([], [], _, []).
forbid([Flag|Flags], [F|Fs], Bit, [F1|Fs1]) :-
    (   Flag =:= 1
    ->  F1 is F \/ Bit
    ;   F1 = F
    ),
    forbid(Flags, Fs, Bit, Fs1).


place_number(N, [R, C], I) :-
    I is R * N + C + 1.

packed_digit(Width, Digit, P0-Shift, P-Shift1) :-
    P is P0 \/ (1 << (Digit + Shift)),
    Shift1 is Shift + Width.

cell_cages(CageTerms, Cells2, CellCage) :-
    findall(I-K, ( nth1(K, CageTerms, cage(Numbers, _, _)), member(I, Numbers) ), Pairs0),
    findall(I-0, between(1, Cells2, I), None),
    append(Pairs0, None, Pairs),
    keysort(Pairs, Sorted),
    group_pairs_by_key(Sorted, Grouped),
    maplist(first_cage, Grouped, Ks),
    CellCage =.. [cell_cage|Ks].

first_cage(_-[K|_], K).                 % 0: in no cage (keysort keeps a cage first)

place_given(Grid, N, [R, C, Digit]) :-
    I is R * N + C + 1,
    place(Grid, I, Digit).

%!  place(+Grid, +Cell, +Digit) is semidet.
%
%   Cell takes Digit: it leaves the cell's row and column, where a cell
%   left one candidate takes it in turn (a naked single).  Fails when
%   Digit is no candidate of Cell, or is placed in its row or column
%   already.
place(Grid, I, Digit) :-
    Grid = candidates(Cells, Masks, Open0, Placed, _, _, _, Geometry),
    arg(I, Cells, Cell),
    arg(I, Masks, Mask),
    (   Mask =\= 0
    ->  Bit is 1 << Digit,
        Mask /\ Bit =\= 0,
        Cell = Digit,
        setarg(I, Masks, 0),
        changed(Grid, I),
        Open is Open0 - 1,
        setarg(3, Grid, Open),
        Geometry = geometry(_, CellLines, Peers, _, _),
        arg(I, CellLines, line(R, C)),
        line_takes(R, Bit, Placed),
        line_takes(C, Bit, Placed),
        arg(I, Peers, Ps),
        remove_from_peers(Ps, Bit, Masks, Grid)
    ;   Cell =:= Digit
    ).

line_takes(U, Bit, Placed) :-
    arg(U, Placed, Taken0),
    Taken0 /\ Bit =:= 0,
    Taken is Taken0 \/ Bit,
    setarg(U, Placed, Taken).

remove_from_peers([], _, _, _).
remove_from_peers([I|Is], Bit, Masks, Grid) :-
    arg(I, Masks, Mask),
    (   Mask /\ Bit =:= 0
    ->  true
    ;   narrow(Grid, Masks, I, Mask, Bit)
    ),
    remove_from_peers(Is, Bit, Masks, Grid).

%   Cell I, whose mask Mask0 has some of Bits, loses them; left one
%   digit, it takes it.
narrow(Grid, Masks, I, Mask0, Bits) :-
    Mask is Mask0 /\ \ Bits,
    Mask =\= 0,
    setarg(I, Masks, Mask),
    changed(Grid, I),
    (   Mask /\ (Mask - 1) =:= 0
    ->  Digit is lsb(Mask),
        place(Grid, I, Digit)
    ;   true
    ).

%   The lines and the cage of a cell whose candidates changed are pending.
changed(Grid, I) :-
    arg(7, Grid, Pending),
    Pending = pending(Lines0, Cages0),
    arg(8, Grid, geometry(_, CellLines, _, _, CellCage)),
    arg(I, CellLines, line(R, C)),
    arg(I, CellCage, K),
    Lines is Lines0 \/ (1 << R) \/ (1 << C),
    Cages is Cages0 \/ (1 << K),
    setarg(1, Pending, Lines),
    setarg(2, Pending, Cages).

%!  propagate_candidates(+Grid) is semidet.
%
%   Looks at the pending cages (keeping the fillings their cells allow)
%   and lines (placing hidden singles) until none is pending; fails when
%   a cage has no filling left or a line a digit no cell can take.
propagate_candidates(Grid) :-
    arg(7, Grid, Pending),
    Pending = pending(Lines, Cages0),
    Cages is Cages0 /\ \ 1,             % bit 0: cells in no cage
    (   Cages =\= 0
    ->  K is lsb(Cages),
        Rest is Cages xor (1 << K),
        setarg(2, Pending, Rest),
        cage_support(Grid, K),
        propagate_candidates(Grid)
    ;   Lines =\= 0
    ->  U is lsb(Lines),
        Rest is Lines xor (1 << U),
        setarg(1, Pending, Rest),
        line_singles(Grid, U),
        propagate_candidates(Grid)
    ;   true
    ).

%!  cage_support(+Grid, +K) is semidet.
%
%   Cage K keeps the fillings its cells still allow, and its cells only
%   the digits some kept filling has there.
cage_support(Grid, K) :-
    Grid = candidates(Cells, Masks, _, _, Cages, Lives, _, _),
    arg(K, Cages, cage(Numbers, Width, Lines)),
    packed_allowed(Numbers, Cells, Masks, Width, 0, 0, Allowed),
    arg(K, Lives, Fillings),
    Fillings = live(Seen, Live0),
    (   Allowed =:= Seen                % as it was left: every kept filling fits
    ->  true
    ;   fitting(Live0, Allowed, Live, 0, Support),
        Live \== [],
        Field is (1 << Width) - 1,
        (   Seen >= 0,                  % the lines were looked at with these fillings
            same_length(Live0, Live)
        ->  setarg(1, Fillings, Support)
        ;   setarg(K, Lives, live(Support, Live)),
            musts(Lines, Live, Field, Grid)
        ),
        narrow_to_support(Numbers, Support, Width, Field, Grid)
    ).

%!  cage_lines(+CellLines, +LineCells, +Cage0, -Cage) is det.
%
%   Cage0 with its lines: line(Shifts, Others) for each row or column
%   holding two or more of its cells, Shifts the fields of those cells
%   in a packed filling, Others the line's cells outside the cage.
cage_lines(CellLines, LineCells, cage(Numbers, Width), cage(Numbers, Width, Lines)) :-
    (   Numbers = [_, _|_]
    ->  cell_line_shifts(Numbers, CellLines, Width, 0, Pairs),
        keysort(Pairs, Sorted),
        group_pairs_by_key(Sorted, Grouped),
        lines_of(Grouped, Numbers, LineCells, Lines)
    ;   Lines = []
    ).

cell_line_shifts([], _, _, _, []).
cell_line_shifts([I|Is], CellLines, Width, Shift, [R-Shift, C-Shift|Pairs]) :-
    arg(I, CellLines, line(R, C)),
    Shift1 is Shift + Width,
    cell_line_shifts(Is, CellLines, Width, Shift1, Pairs).

lines_of([], _, _, []).
lines_of([U-Shifts|Grouped], Numbers, LineCells, Lines) :-
    (   Shifts = [_, _|_]
    ->  arg(U, LineCells, InLine),
        subtract(InLine, Numbers, Others),
        Lines = [line(Shifts, Others)|Lines1]
    ;   Lines = Lines1
    ),
    lines_of(Grouped, Numbers, LineCells, Lines1).

%   The digits every kept filling puts in the cage's cells of a line are
%   in no other cell of it.
musts([], _, _, _).
musts([line(Shifts, Others)|Lines], Live, Field, Grid) :-
    must(Live, Shifts, Field, Field, Must),
    (   Must =:= 0
    ->  true
    ;   arg(2, Grid, Masks),
        remove_from_peers(Others, Must, Masks, Grid)
    ),
    musts(Lines, Live, Field, Grid).

must([], _, _, Must, Must).
must([F|Fs], Shifts, Field, Must0, Must) :-
    in_line(Shifts, F, Field, 0, Digits),
    Must1 is Must0 /\ Digits,
    (   Must1 =:= 0
    ->  Must = 0
    ;   must(Fs, Shifts, Field, Must1, Must)
    ).

in_line([], _, _, Digits, Digits).
in_line([Shift|Shifts], F, Field, Digits0, Digits) :-
    Digits1 is Digits0 \/ ((F >> Shift) /\ Field),
    in_line(Shifts, F, Field, Digits1, Digits).

%   The digits a cell allows (its candidates, or its digit), in its field.
packed_allowed([], _, _, _, _, Allowed, Allowed).
packed_allowed([I|Is], Cells, Masks, Width, Shift, Allowed0, Allowed) :-
    arg(I, Cells, Cell),
    (   var(Cell)
    ->  arg(I, Masks, Mask)
    ;   Mask is 1 << Cell
    ),
    Allowed1 is Allowed0 \/ (Mask << Shift),
    Shift1 is Shift + Width,
    packed_allowed(Is, Cells, Masks, Width, Shift1, Allowed1, Allowed).

%   Live: the fillings of Live0 within Allowed; Support their union.
fitting([], _, [], Support, Support).
fitting([F|Fs], Allowed, Live, Support0, Support) :-
    (   F /\ Allowed =:= F
    ->  Live = [F|Live1],
        Support1 is Support0 \/ F,
        fitting(Fs, Allowed, Live1, Support1, Support)
    ;   fitting(Fs, Allowed, Live, Support0, Support)
    ).

%   Each open cell of the cage loses the digits no kept filling has in
%   its field.
narrow_to_support([], _, _, _, _).
narrow_to_support([I|Is], Support, Width, Field, Grid) :-
    Grid = candidates(_, Masks, _, _, _, _, _, _),
    arg(I, Masks, Mask),
    Supported is Support /\ Field,
    Unsupported is Mask /\ \ Supported,
    (   Unsupported =:= 0               % a placed cell's mask is 0
    ->  true
    ;   narrow(Grid, Masks, I, Mask, Unsupported)
    ),
    Rest is Support >> Width,
    narrow_to_support(Is, Rest, Width, Field, Grid).

%!  line_singles(+Grid, +U) is semidet.
%
%   Places every digit that only one open cell of line U can take; fails
%   when a digit is neither placed in the line nor a candidate of any of
%   its cells.
line_singles(Grid, U) :-
    Grid = candidates(_, Masks, _, Placed, _, _, _, geometry(N, _, _, LineCells, _)),
    arg(U, LineCells, Cells),
    once_twice(Cells, Masks, 0, 0, Once, Twice),
    arg(U, Placed, Taken),
    All is (1 << (N + 1)) - 2,
    Once \/ Taken =:= All,
    Hidden is Once /\ \ Twice,
    place_hidden(Hidden, U, Cells, Grid).

once_twice([], _, Once, Twice, Once, Twice).
once_twice([I|Is], Masks, Once0, Twice0, Once, Twice) :-
    arg(I, Masks, M),
    Twice1 is Twice0 \/ (Once0 /\ M),
    Once1 is Once0 \/ M,
    once_twice(Is, Masks, Once1, Twice1, Once, Twice).

%   Placing one hidden single may place the next one's digit by a chain of
%   naked singles (then it is taken in the line already), or take it from
%   its only cell (then no cell has it, and this fails).
place_hidden(0, _, _, _) :- !.
place_hidden(Hidden, U, Cells, Grid) :-
    Digit is lsb(Hidden),
    Bit is 1 << Digit,
    Grid = candidates(_, Masks, _, Placed, _, _, _, _),
    arg(U, Placed, Taken),
    (   Taken /\ Bit =\= 0
    ->  true
    ;   member(I, Cells),
        arg(I, Masks, Mask),
        Mask /\ Bit =\= 0
    ->  place(Grid, I, Digit)
    ),
    Rest is Hidden xor Bit,
    place_hidden(Rest, U, Cells, Grid).

%!  label_candidates(+Grid) is nondet.
%
%   Every grid: the cells a caller bound or restricted after model/4 (the
%   driver does, to ask what the puzzle allows with a cell set) are taken
%   in first, then the search.
label_candidates(Grid) :-
    arg(1, Grid, Cells),
    functor(Cells, _, Cells2),
    numlist_(1, Cells2, Is),
    maplist(from_outside(Grid), Is),
    propagate_candidates(Grid),
    search_candidates(Grid).

numlist_(Low, High, List) :-
    findall(I, between(Low, High, I), List).

%   A cell bound from outside is placed; one restricted (a CLP(FD) domain)
%   loses the candidates its domain lacks.
from_outside(Grid, I) :-
    Grid = candidates(Cells, Masks, _, _, _, _, _, _),
    arg(I, Cells, Cell),
    (   nonvar(Cell)
    ->  place(Grid, I, Cell)
    ;   fd_var(Cell),
        arg(I, Masks, Mask),
        Mask =\= 0
    ->  outside_domain(Mask, Cell, 0, Out),
        (   Out =:= 0
        ->  true
        ;   narrow(Grid, Masks, I, Mask, Out)
        )
    ;   true
    ).

outside_domain(0, _, Out, Out) :- !.
outside_domain(Mask, Cell, Out0, Out) :-
    Digit is lsb(Mask),
    Bit is 1 << Digit,
    (   fd_dom(Cell, Dom),
        Digit in Dom
    ->  Out1 = Out0
    ;   Out1 is Out0 \/ Bit
    ),
    Rest is Mask xor Bit,
    outside_domain(Rest, Cell, Out1, Out).

%!  search_candidates(+Grid) is nondet.
%
%   Places every open cell: branches on the digits of an open cell with
%   the fewest candidates, smallest first, and propagates.
search_candidates(Grid) :-
    arg(3, Grid, Open),
    (   Open =:= 0
    ->  true
    ;   arg(2, Grid, Masks),
        functor(Masks, _, Cells2),
        fewest_candidates(1, Cells2, Masks, 0, 99, I),
        arg(I, Masks, Mask),
        mask_digit(Mask, Digit),
        place(Grid, I, Digit),
        propagate_candidates(Grid),
        search_candidates(Grid)
    ).

fewest_candidates(I, Cells2, Masks, Best0, Count0, Best) :-
    (   I > Cells2
    ->  Best = Best0
    ;   arg(I, Masks, Mask),
        I1 is I + 1,
        (   Mask =\= 0,
            Count is popcount(Mask),
            Count < Count0
        ->  (   Count =:= 2
            ->  Best = I                % none has fewer
            ;   fewest_candidates(I1, Cells2, Masks, I, Count, Best)
            )
        ;   fewest_candidates(I1, Cells2, Masks, Best0, Count0, Best)
        )
    ).

%   The digits of Mask, smallest first.
mask_digit(Mask, Digit) :-
    Smallest is lsb(Mask),
    (   Digit = Smallest
    ;   Rest is Mask /\ (Mask - 1),
        Rest =\= 0,
        mask_digit(Rest, Digit)
    ).
