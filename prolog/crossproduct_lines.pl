:- module(crossproduct_lines,
          [ lines_model/3,      % +Puzzle, -Rows, -Model
            lines_labeling/2,   % +Grid, ?Rows
            prime_exponents/2   % +N, -Exponents
          ]).
/** <module> CrossProduct's lines encoding: each line's product as sets of states in bits.

A line multiplies its digits to its product.  Read cell by cell, a line's
state is what it has multiplied so far, as the exponents of 2, 3, 5 and 7
(e2, e3, e5, e7), each at most the product's own: a line of product
2^a 3^b 5^c 7^d has (a+1)(b+1)(c+1)(d+1) states, and numbering them in
mixed radix (e2 + (a+1)(e3 + (b+1)(e5 + (c+1) e7))) makes each digit one
shift of that number.  So the set of states reachable before a cell is an
integer with a bit per state, and a cell's digits take it to the next set
with an AND (the states from which the digit stays within the product)
and a shift per digit.  A line whose product is 0 has two states, no zero
yet and a zero seen.

A sweep of a line goes forward from the state of no digits, then back from
its product, and keeps in each cell exactly the digits on some way from
the one to the other: each line is arc consistent, where CLP(FD)'s sums of
exponents only bound them.  That is what makes the questions of a
well-formed 12x8 puzzle cheap: a proof that no other solution exists,
which took the restarts encoding's search up to 88 million inferences,
takes the sweeps about 130,000.  The search sets the cell with the
fewest digits left, sweeping the lines of each cell changed until none
changes, in restarted attempts (see lines_labeling/2).  The domains are
integers in a term changed with setarg/3, so backtracking restores them;
the cells of Rows are plain variables, bound once every cell has one
digit.  Constraints a caller put on them after lines_model/3 (a given,
`#\=`, any CLP(FD) domain) are read when the labeling starts, and checked
again as the cells are bound.

This is the CrossCells masks encoding's way (its states in
crosscells_lines.pl, its sweeps in crosscells_masks.pl) with cells of ten
values instead of two.
*/

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(clpfd)).            % reads the domains a caller posted
:- use_module(restarts, [restarted/3, shuffled/3, alternated/3]).

:- set_prolog_flag(optimise, true).     % compiled arithmetic: the sweeps are all bits
:- use_module(library(apply_macros)).   % maplist/N and forall/2 compiled to loops here, from
                                        % source or QLF alike, whatever loaded before

%!  lines_model(+Puzzle, -Rows, -Model) is semidet.
%
%   Rows is the grid of Puzzle (plain variables), and Model is
%   labeling(Labeling), its search.  Every line is swept once: fails when
%   the products and givens leave a line no way through.  Model is
%   too_many_states when a line has more than max_line_states/1 states
%   (then the caller states the puzzle otherwise).
lines_model(Puzzle, Rows, Model) :-
    _{rows: RowProducts, columns: ColumnProducts, givens: Givens, low: Low} :< Puzzle,
    length(RowProducts, Height),
    length(ColumnProducts, Width),
    Size is Height * Width,
    length(Rows, Height),
    maplist(row_of(Width), Rows),
    Digits is (1 << 10) - (1 << Low),
    findall(Line, row_line(RowProducts, Width, Line), RowLines),
    findall(Line, column_line(ColumnProducts, Width, Height, Line), ColumnLines),
    append(RowLines, ColumnLines, AllLines),
    (   memberchk(too_many_states, AllLines)
    ->  Model = too_many_states
    ;   maplist(line_or_fail, AllLines, Lines0),
        grid_model(Lines0, Size, Width, Digits, Givens, Rows, Model)
    ).

grid_model(Lines0, Size, Width, Digits, Givens, Rows, labeling(lines_labeling(Grid, Rows))) :-
    length(Domains0, Size),
    maplist(=(Digits), Domains0),
    Domains =.. [domains|Domains0],
    Lines =.. [lines|Lines0],
    cell_lines(Lines0, Size, CellLines),
    length(Lines0, M),
    All is (1 << (M + 1)) - 2,
    Grid = grid(Domains, Lines, CellLines, All, Width),
    maplist(given(Grid), Givens),
    propagate(Grid).

row_of(Width, Row) :-
    length(Row, Width).

%   A line is line(Cells, Moves, Target), no_way when no digits make its
%   product, or too_many_states; a row or column whose product is not known
%   has no line.
row_line(Products, Width, Line) :-
    nth0(R, Products, Product),
    integer(Product),
    Last is Width - 1,
    findall(I, ( between(0, Last, C), I is R * Width + C + 1 ), Cells),
    product_line(Product, Cells, Line).

column_line(Products, Width, Height, Line) :-
    nth0(C, Products, Product),
    integer(Product),
    Last is Height - 1,
    findall(I, ( between(0, Last, R), I is R * Width + C + 1 ), Cells),
    product_line(Product, Cells, Line).

line_or_fail(Line, Line) :-
    Line \== no_way.

%!  product_line(+Product, +Cells, -Line) is det.
%
%   Moves holds, for each digit 0..9 (argument D+1), the moves it makes:
%   move(From, Shift), the states From (bits) that it takes Shift further.
product_line(0, Cells, line(CellsTerm, Moves, 2)) :- !,
    CellsTerm =.. [cells|Cells],
    Moves = moves([move(1, 1), move(2, 0)], Keep, Keep, Keep, Keep, Keep, Keep, Keep, Keep, Keep),
    Keep = [move(3, 0)].
product_line(Product, Cells, Line) :-
    length(Cells, N),
    MostTwos is 3 * N,                  % a digit has at most three 2s (8), two 3s (9)
    MostThrees is 2 * N,
    (   Product > 0,
        prime_exponents(Product, Exponents),
        maplist(=<, Exponents, [MostTwos, MostThrees, N, N])   % else too many states to hold
    ->  radices(Exponents, Radices),
        foldl(multiplied, Radices, 1, States),
        max_line_states(Max),
        (   States > Max
        ->  Line = too_many_states
        ;   exponents_line(Exponents, Radices, Cells, Line)
        )
    ;   Line = no_way
    ).

%   A line of up to 12 cells has fewer, whatever its product (37 x 25 x 13
%   x 13 = 156,325 states, for products no puzzle has); random puzzles'
%   lines have hundreds to a few thousand, even 20 cells long.  More, and
%   each mask is tens of kilobytes: a row of 80 cells of 1.1 million
%   states took 8 s to solve.
max_line_states(250_000).

multiplied(Factor, Product0, Product) :-
    Product is Product0 * Factor.

exponents_line(Exponents, Radices, Cells, line(CellsTerm, Moves, Target)) :-
    CellsTerm =.. [cells|Cells],
    findall(DigitMoves, ( between(1, 9, D), digit_moves(Exponents, Radices, D, DigitMoves) ),
            Moves1),
    Moves =.. [moves, []|Moves1],
    rank(Exponents, Radices, Rank),
    Target is 1 << Rank.

%!  prime_exponents(+N, -Exponents) is semidet.
%
%   Exponents are those of 2, 3, 5 and 7 in N; fails when N has another
%   prime factor.  0 counts as having none, for the table of digits.
prime_exponents(0, [0, 0, 0, 0]) :- !.
prime_exponents(N, Exponents) :-
    foldl(divide_out, [2, 3, 5, 7], Exponents, N, 1).

divide_out(P, E, N0, N) :-
    (   N0 mod P =:= 0
    ->  N1 is N0 // P,
        divide_out(P, E0, N1, N),
        E is E0 + 1
    ;   E = 0,
        N = N0
    ).

radices(Exponents, Radices) :-
    maplist(succ, Exponents, Radices).

%   The number of a state, in mixed radix: E2 + R2 * (E3 + R3 * (E5 + R5 * E7)).
rank([E2, E3, E5, E7], [R2, R3, R5, _], Rank) :-
    Rank is E2 + R2 * (E3 + R3 * (E5 + R5 * E7)).

%   The move of digit D on a line of the product's Exponents (numbered by
%   Radices): the states it keeps within them, shifted by its own
%   exponents' rank.
digit_moves(Exponents, Radices, D, Moves) :-
    prime_exponents(D, Own),
    (   maplist(=<, Own, Exponents)
    ->  rank(Own, Radices, Shift),
        maplist(room, Exponents, Own, Rooms),
        within_mask(Rooms, Radices, From),
        Moves = [move(From, Shift)]
    ;   Moves = []
    ).

room(Exponent, Own, Room) :-
    Room is Exponent - Own.

%   The states whose exponents are at most Rooms, as bits.
within_mask([A, B, C, D], [R2, R3, R5, _], Mask) :-
    Twos is (1 << (A + 1)) - 1,
    repeated(Twos, B, R2, Threes),
    Stride5 is R2 * R3,
    repeated(Threes, C, Stride5, Fives),
    Stride7 is Stride5 * R5,
    repeated(Fives, D, Stride7, Mask).

%   Block, and Block shifted by Stride, 2 Stride, ... K Stride, together.
repeated(Block, K, Stride, Mask) :-
    numlist(0, K, Ks),
    foldl(shifted_block(Block, Stride), Ks, 0, Mask).

shifted_block(Block, Stride, K, Mask0, Mask) :-
    Mask is Mask0 \/ (Block << (K * Stride)).

%   CellLines holds, for each cell, the set of its lines (bit J for line J).
cell_lines(Lines, Size, CellLines) :-
    functor(CellLines, cell_lines, Size),
    forall(between(1, Size, I), nb_setarg(I, CellLines, 0)),
    foldl(line_cell_bits(CellLines), Lines, 1, _).

line_cell_bits(CellLines, line(Cells, _, _), J, J1) :-
    Bit is 1 << J,
    functor(Cells, _, N),
    forall(between(1, N, K),
           ( arg(K, Cells, I), arg(I, CellLines, B0), B is B0 \/ Bit, nb_setarg(I, CellLines, B) )),
    J1 is J + 1.

given(Grid, [R, C, Digit]) :-
    arg(5, Grid, Width),
    I is R * Width + C + 1,
    narrow(Grid, I, 1 << Digit).

%!  narrow(+Grid, +I, +Allowed) is semidet.
%
%   Cell I keeps only the digits of Allowed (bits); its lines become
%   pending when that takes any.  Fails when none is left.
narrow(Grid, I, Allowed) :-
    arg(1, Grid, Domains),
    arg(I, Domains, Domain0),
    Domain is Domain0 /\ Allowed,
    Domain =\= 0,
    (   Domain =:= Domain0
    ->  true
    ;   setarg(I, Domains, Domain),
        arg(3, Grid, CellLines),
        arg(I, CellLines, Bits),
        arg(4, Grid, Pending0),
        Pending is Pending0 \/ Bits,
        setarg(4, Grid, Pending)
    ).

%!  propagate(+Grid) is semidet.
%
%   Sweeps the pending lines until none is; fails when a line has no way
%   through.  A sweep leaves its line arc consistent, so the cells it
%   narrows make only their other line pending for good.
propagate(Grid) :-
    arg(4, Grid, Pending),
    (   Pending =:= 0
    ->  true
    ;   J is lsb(Pending),
        Rest is Pending xor (1 << J),
        setarg(4, Grid, Rest),
        arg(2, Grid, Lines),
        arg(J, Lines, Line),
        sweep(Line, Grid),
        propagate(Grid)
    ).

%   Forward: the states each cell's digits reach from the start, kept as
%   a list (the last first); back from the target: the digits of each
%   cell that lead from a state reached before it to one from which the
%   target is reached.
sweep(line(Cells, Moves, Target), Grid) :-
    arg(1, Grid, Domains),
    functor(Cells, _, N),
    forward(1, N, Cells, Domains, Moves, 1, [1], [Last|Before]),
    Last /\ Target =\= 0,
    backward(N, Before, Cells, Moves, Target, Grid).

forward(K, N, Cells, Domains, Moves, States, Reached0, Reached) :-
    (   K > N
    ->  Reached = Reached0
    ;   arg(K, Cells, I),
        arg(I, Domains, Domain),
        image(Domain, States, Moves, 0, Next),
        Next =\= 0,
        K1 is K + 1,
        forward(K1, N, Cells, Domains, Moves, Next, [Next|Reached0], Reached)
    ).

%   The states the digits of Domain take States to.
image(0, _, _, Image, Image) :- !.
image(Domain, States, Moves, Image0, Image) :-
    D is lsb(Domain),
    Rest is Domain xor (1 << D),
    A is D + 1,
    arg(A, Moves, DigitMoves),
    moved(DigitMoves, States, Image0, Image1),
    image(Rest, States, Moves, Image1, Image).

moved([], _, Image, Image).
moved([move(From, Shift)|Moves], States, Image0, Image) :-
    Image1 is Image0 \/ ((States /\ From) << Shift),
    moved(Moves, States, Image1, Image).

backward(0, _, _, _, _, _) :- !.
backward(K, [Before|Earlier], Cells, Moves, After, Grid) :-
    arg(K, Cells, I),
    arg(1, Grid, Domains),
    arg(I, Domains, Domain),
    supported(Domain, Before, After, Moves, 0, Kept, 0, Leading),
    narrow(Grid, I, Kept),
    K1 is K - 1,
    backward(K1, Earlier, Cells, Moves, Leading, Grid).

%   Kept: the digits of Domain that take a state of Before into After;
%   Leading: the states of Before from which one of them does.
supported(0, _, _, _, Kept, Kept, Leading, Leading) :- !.
supported(Domain, Before, After, Moves, Kept0, Kept, Leading0, Leading) :-
    D is lsb(Domain),
    Rest is Domain xor (1 << D),
    A is D + 1,
    arg(A, Moves, DigitMoves),
    preimage(DigitMoves, Before, After, 0, From),
    (   From =:= 0
    ->  Kept1 = Kept0,
        Leading1 = Leading0
    ;   Kept1 is Kept0 \/ (1 << D),
        Leading1 is Leading0 \/ From
    ),
    supported(Rest, Before, After, Moves, Kept1, Kept, Leading1, Leading).

preimage([], _, _, From, From).
preimage([move(Sources, Shift)|Moves], Before, After, From0, From) :-
    From1 is From0 \/ (Before /\ Sources /\ (After >> Shift)),
    preimage(Moves, Before, After, From1, From).

%!  lines_labeling(+Grid, ?Rows) is nondet.
%
%   Rows, each solution once: the cells a caller bound or constrained
%   after lines_model/3 narrowed first, then the search in restarted
%   attempts (restarts:restarted/3) of Unit * luby(K) inferences each,
%   Unit 2,000 a cell.  Arc consistent lines leave most searches a few
%   dozen choices, but one order can still wander: with a row's product
%   not known (as conflicts and hints ask), the 9th row of the notebook's
%   10x6 took over 10 s in reading order, and under 0.1 s restarted.
lines_labeling(Grid, Rows) :-
    append(Rows, Cells),
    foldl(outside(Grid), Cells, 1, _),
    propagate(Grid),
    arg(1, Grid, Domains),
    functor(Domains, _, Size),
    Unit is max(2000 * Size, 20_000),
    restarted(lines_attempt(Grid, Size, Cells), Unit, Cells).

outside(Grid, Cell, I, I1) :-
    (   integer(Cell)
    ->  Cell >= 0,
        narrow(Grid, I, 1 << Cell)
    ;   var(Cell),
        fd_dom(Cell, Dom),
        Dom \== inf..sup
    ->  findall(D, ( between(0, 9, D), D in Dom ), Ds),
        foldl(digit_bit, Ds, 0, Allowed),
        narrow(Grid, I, Allowed)
    ;   true
    ),
    I1 is I + 1.

digit_bit(D, Bits0, Bits) :-
    Bits is Bits0 \/ (1 << D).

%!  lines_attempt(+Grid, +Size, ?Cells, +K, -Labeling) is det.
%
%   Attempt K takes the cells in reading order (the first) or in the K-th
%   order of shuffled/3, which breaks the ties between cells with as few
%   digits left, and tries the digits upward or downward (alternated/3).
lines_attempt(Grid, Size, Cells, K, lines_search(Grid, Order, Digits, Cells)) :-
    numlist(1, Size, Numbers),
    (   K =:= 1
    ->  Order = Numbers
    ;   shuffled(K, Numbers, Order)
    ),
    numlist(0, 9, Upward),
    alternated(K, Upward, Digits).

%   Sets the cell with the fewest digits left (the first such in Order) to
%   each of its Digits in turn, propagates, and goes on until every cell
%   has one digit; then Cells are bound to them.
lines_search(Grid, Order, Digits, Cells) :-
    arg(1, Grid, Domains),
    fewest(Order, Domains, 0, 11, I),
    (   I =:= 0
    ->  foldl(cell_digit(Domains), Cells, 1, _)
    ;   arg(I, Domains, Domain),
        member(D, Digits),
        Domain /\ (1 << D) =\= 0,
        narrow(Grid, I, 1 << D),
        propagate(Grid),
        lines_search(Grid, Order, Digits, Cells)
    ).

%   I is the first cell of Order with the fewest digits left, more than one
%   (0: none).
fewest([], _, I, _, I).
fewest([K|Ks], Domains, I0, Fewest0, I) :-
    arg(K, Domains, Domain),
    Count is popcount(Domain),
    (   Count > 1,
        Count < Fewest0
    ->  fewest(Ks, Domains, K, Count, I)
    ;   fewest(Ks, Domains, I0, Fewest0, I)
    ).

cell_digit(Domains, Cell, I, I1) :-
    arg(I, Domains, Domain),
    Cell is lsb(Domain),
    I1 is I + 1.
