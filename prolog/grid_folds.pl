:- module(grid_folds,
          [ fold_box/4,           % +Op, +Target, +Low-High, -Box
            fold_guide/5,         % +Op, +Target, +Low-High, +Runs, -Guide
            fold_support/4        % +Numbers, +Box, +Grid, -Seen
          ]).
/** <module> A sum or product of too many fillings to list, folded cell by cell.

A KenKen cage of ten cells over two rows has millions of fillings: the
kernel's table of them took seconds and gigabytes to make, and each look
at it as long.  Such a rule is folded instead (grid_fillings.pl decides
which: more than most_fillings/1 fillings).  A product of digits is a sum
of their primes' exponents, so a partial product is a point (a, b, c, d)
of 2^a 3^b 5^c 7^d, and only the points at or below the target's own
exponents can still reach it; a sum is the one-dimensional case.  The
points are numbered in mixed radix and a set of them is an integer's
bits (the box); each exponent's radix leaves room for what one digit
adds past the target, so adding a digit's point never carries into the
next exponent.

fold_guide/5 steers the listing of a big rule's fillings (grid_fillings.pl)
by the points each cell can still finish from, the cells of a row taken
together (a row of 1..6 adds up to 21, whatever digits that may repeat
would make), so that a listing meets no dead end but those of the digits
the cells before it in its row or column took.

fold_support/4 keeps in each cell the digits that some filling the
cells allow has there (arc consistent on the rule alone): the points
reachable after each cell from the left, those from which the target is
reachable from the right, and a digit stays where it joins the two.  It
lets two cells of a unit hold one digit, which the unit itself forbids:
weaker than a table, for a cost of cells times digits operations on the
box, where a table's is its fillings.  The hints fold such rules the same
way (crossprolog/folds.py).
*/

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(grid_candidates, [field/3, goal_expansion/2, remove_digits/3, cell_allowed/3]).

:- set_prolog_flag(optimise, true).     % compiled arithmetic: the passes are all masks
:- use_module(library(apply_macros)).   % maplist/N and forall/2 compiled to loops here, from
                                        % source or QLF alike, whatever loaded before

%!  fold_box(+Op, +Target, +Low-High, -Box) is semidet.
%
%   Box is box(Top, Inside, Steps) for the sum (Op +) or product (Op *)
%   Target of digits Low..High: Top the target's point, Inside the set
%   of the points at or below it, Steps a step(Digit, Shift, Valid) for
%   each digit that divides into the target, Shift the number its point
%   adds to another's, Valid the set of the points from which it can be
%   taken away.  Fails for a product with a digit under 1, which has no
%   exponents (the rule is listed then).
fold_box(Op, Target, Low-High, box(Top, Inside, Steps)) :-
    fold_frame(Op, Target, Low-High, frame(Op, Bounds, Weights, Digits, Vectors)),
    point(Bounds, Weights, Top),
    box_set(Bounds, Weights, Inside),
    foldl(digit_step(Bounds, Weights), Digits, Vectors, Steps, []).

%   The frame of a fold: the target's point (Bounds), the weights of its
%   coordinates, and the digits with their points (Vectors).
fold_frame(Op, Target, Low-High, frame(Op, Bounds, Weights, Digits, Vectors)) :-
    numlist(Low, High, Digits),
    digit_vectors(Op, Digits, Primes, Vectors),
    target_vector(Op, Target, Primes, Bounds),
    max_components(Vectors, Bounds, Largest),
    maplist(radix, Bounds, Largest, Radices),
    weights(Radices, 1, Weights).

%   Vectors: each digit's exponents of Primes, the primes up to the
%   largest digit (a sum: the digit itself, of one "prime").
digit_vectors(+, Digits, [sum], Vectors) :-
    Digits = [Low|_],
    Low >= 0,
    maplist(sum_vector, Digits, Vectors).
digit_vectors(*, Digits, Primes, Vectors) :-
    Digits = [Low|_],
    Low >= 1,
    last(Digits, High),
    findall(P, ( between(2, High, P), \+ has_divisor(P) ), Primes),
    maplist(exponents(Primes), Digits, Vectors).

sum_vector(Digit, [Digit]).

has_divisor(N) :-
    Below is N - 1,
    between(2, Below, D),
    N mod D =:= 0, !.

exponents(Primes, N, Vector) :-
    foldl(exponent_of, Primes, Vector, N, _).

exponent_of(P, E, N0, N) :-
    exponent_of(P, N0, 0, E, N).

exponent_of(P, N0, E0, E, N) :-
    (   N0 mod P =:= 0
    ->  N1 is N0 // P,
        E1 is E0 + 1,
        exponent_of(P, N1, E1, E, N)
    ;   E = E0,
        N = N0
    ).

%   Bounds: the target's point; a product with a prime no digit has
%   (a factor 11) has none, and no filling (the box of an impossible
%   point is left empty by its steps: every bound -1).
target_vector(+, Target, [sum], [Target]).
target_vector(*, Target, Primes, Bounds) :-
    Target < 1, !,                          % digits of 1 and more make none
    same_length(Primes, Bounds),
    maplist(=(-1), Bounds).
target_vector(*, Target, Primes, Bounds) :-
    foldl(exponent_of, Primes, Exponents, Target, Left),
    (   Left =:= 1
    ->  Bounds = Exponents
    ;   same_length(Exponents, Bounds),
        maplist(=(-1), Bounds)
    ).

max_components(Vectors, Bounds, Largest) :-
    foldl(componentwise_max, Vectors, Bounds, Largest).

componentwise_max(Vector, Max0, Max) :-
    maplist(larger, Vector, Max0, Max).

larger(A, B, Max) :-
    Max is max(A, B).

smaller_by(A, B, Difference) :-
    Difference is A - B.

%   Room for a point at the bound plus a digit's largest exponent.
radix(Bound, Largest, Radix) :-
    Radix is max(Bound, 0) + Largest + 1.

weights([], _, []).
weights([Radix|Radices], W, [W|Ws]) :-
    W1 is W * Radix,
    weights(Radices, W1, Ws).

point(Vector, Weights, Point) :-
    foldl(add_weighed, Vector, Weights, 0, Point).

add_weighed(Coordinate, Weight, Point0, Point) :-
    Point is Point0 + Coordinate * Weight.

%   The set of the points from the origin to Bounds, each coordinate.
box_set(Bounds, Weights, Set) :-
    foldl(stretched, Bounds, Weights, 1, Set).

%   Set0 repeated at 0, Weight, ..., Bound * Weight: Set0 times the number
%   of one bit every Weight (Set0 lies below Weight, so no two overlap).
stretched(Bound, Weight, Set0, Set) :-
    (   Bound < 0
    ->  Set = 0
    ;   Set is Set0 * (((1 << ((Bound + 1) * Weight)) - 1) // ((1 << Weight) - 1))
    ).

%   A digit whose point lies inside the box can be a cell's: its points
%   to take it away from are the box's points at or above its own.
digit_step(Bounds, Weights, Digit, Vector, [step(Digit, Shift, Valid)|Steps], Steps) :-
    maplist(smaller_by, Bounds, Vector, Room),
    \+ ( member(R, Room), R < 0 ), !,
    point(Vector, Weights, Shift),
    box_set(Room, Weights, Below),
    Valid is Below << Shift.
digit_step(_, _, _, _, Steps, Steps).

%!  fold_guide(+Op, +Target, +Low-High, +Runs, -Guide) is semidet.
%
%   Guide is guide(Fits, Shifts, Reaching) for listing the fillings of the
%   sum (Op +) or product (Op *) Target of cells in Runs (lengths, in
%   order: the cells of a run hold different digits).  Fits is the mask of
%   the digits that divide into the target, Shifts a term whose argument
%   Digit + 1 is the number a digit's point adds to another's, and
%   Reaching the set of points from which each cell, and the cells after
%   it, can reach the target, then the target's own.  The cells of a run
%   are taken together (a row of nine adds up to 45 whatever its order),
%   so a cage whose target only its rows' different digits forbid has no
%   point to start from, and a listing guided by it never takes a digit
%   after which the cells left cannot finish.  Fails as fold_box/4.
fold_guide(Op, Target, Digits, Runs, guide(Fits, Shifts, Reaching)) :-
    fold_frame(Op, Target, Digits, Frame),
    Frame = frame(_, Bounds, Weights, Ds, Vectors),
    point(Bounds, Weights, Top),
    last(Ds, High),
    Arity is High + 1,
    functor(Shifts, shifts, Arity),
    foldl(digit_shift(Bounds, Weights, Shifts), Ds, Vectors, 0, Fits),
    Goal is 1 << Top,
    max_list([0|Runs], Longest),
    numlist(1, Longest, Sizes),
    maplist(subset_steps(Frame), Sizes, StepsBySize),
    reverse(Runs, Backwards),
    foldl(run_reaching(StepsBySize), Backwards, [Goal], Reaching).

digit_shift(Bounds, Weights, Shifts, Digit, Vector, Fits0, Fits) :-
    maplist(=<, Vector, Bounds), !,
    point(Vector, Weights, Shift),
    I is Digit + 1,
    arg(I, Shifts, Shift),
    Fits is Fits0 \/ (1 << Digit).
digit_shift(_, _, _, _, _, Fits, Fits).

%   Reaching: for each of a run's cells, the points from which it and the
%   run's cells after it reach After, the first of Rest (the runs after).
run_reaching(StepsBySize, Length, Rest, Reaching) :-
    Rest = [After|_],
    numlist(1, Length, Ks),
    reverse(Ks, Tails),
    maplist(tail_reaching(StepsBySize, After), Tails, Points),
    append(Points, Rest, Reaching).

tail_reaching(StepsBySize, After, Size, Points) :-
    nth1(Size, StepsBySize, Steps),
    foldl(step_back(After), Steps, 0, Points).

step_back(After, Shift-Valid, Points0, Points) :-
    Points is Points0 \/ ((After /\ Valid) >> Shift).

%   Steps: a Shift-Valid for each point Size different digits make inside
%   the box: Shift what it adds, Valid the points it can be taken from.
subset_steps(frame(Op, Bounds, Weights, Ds, Vectors), Size, Steps) :-
    subset_vectors(Op, Bounds, Ds, Vectors, Size, Distinct),
    maplist(vector_step(Bounds, Weights), Distinct, Steps).

%   The sums of Size different digits of a range are every number from that
%   of the smallest to that of the largest (one digit moved up by one at a
%   time); a product's points are those of each set of digits.
subset_vectors(+, [Target], Ds, _, Size, Distinct) :- !,
    length(Smallest, Size),
    append(Smallest, _, Ds),
    length(Largest, Size),
    append(_, Largest, Ds),
    sum_list(Smallest, Least),
    sum_list(Largest, Most0),
    Most is min(Most0, Target),
    findall([Sum], between(Least, Most, Sum), Distinct).
subset_vectors(*, Bounds, Ds, Vectors, Size, Distinct) :-
    pairs_keys_values(Pairs, Ds, Vectors),
    findall(Vector, subset_vector(Size, Pairs, Bounds, Vector), Found),
    sort(Found, Distinct).

subset_vector(0, _, Bounds, Vector) :- !,
    same_length(Bounds, Vector),
    maplist(=(0), Vector).
subset_vector(Size, [_-V|Pairs], Bounds, Vector) :-
    Left is Size - 1,
    subset_vector(Left, Pairs, Bounds, Rest),
    maplist(plus, V, Rest, Vector),
    maplist(=<, Vector, Bounds).
subset_vector(Size, [_|Pairs], Bounds, Vector) :-
    length(Pairs, N),
    N >= Size,
    subset_vector(Size, Pairs, Bounds, Vector).

vector_step(Bounds, Weights, Vector, Shift-Valid) :-
    point(Vector, Weights, Shift),
    maplist(smaller_by, Bounds, Vector, Room),
    box_set(Room, Weights, Below),
    Valid is Below << Shift.

%!  fold_support(+Numbers, +Box, +Grid, -Seen) is semidet.
%
%   The open cells of Numbers keep the digits some filling of Box their
%   cells allow has there; fails when there is none.  Seen is the cells'
%   masks packed as table_support packs them, once narrowed.  A cell of
%   one digit moves where the others start from (the point of the digits
%   fixed), so the passes walk only the cells with a choice: in a search
%   most of a big cage's cells are fixed.
fold_support(Numbers, box(Top, Inside, Steps), Grid, Seen) :-
    maplist(cell_allowed(Grid), Numbers, Masks),
    fixed_point(Masks, Steps, Inside, 0, Fixed, Supported, Choices, ChoicesSupported),
    Goal is 1 << Top,
    reaching(Choices, Steps, Goal, [From|After]),
    Start is 1 << Fixed,
    From /\ Start =\= 0,
    points_before(Choices, Steps, Inside, Start, Before),
    choices_supported(Choices, Steps, Before, After, ChoicesSupported),
    field(width, Grid, Width),
    narrowed(Numbers, Masks, Supported, Grid, Width, 0, 0, Seen).

%   Fixed: the point the cells of one digit add up to, inside the box
%   (fails when it is not, or when such a digit has no step: it does not
%   divide into the target); Choices the masks of the others, in order.
%   Supported: each cell's digits supported, a fixed cell's its own (there
%   is a filling, and each has it), the others' the variables of
%   ChoicesSupported, one for each of Choices.  Each digit's point is
%   checked as it is added: the radices leave room for one digit past the
%   target, and a coordinate further on would carry into the next one.
fixed_point([], _, _, Fixed, Fixed, [], [], []).
fixed_point([Mask|Masks], Steps, Inside, Fixed0, Fixed, [S|Supported], Choices, ChoicesSupported) :-
    (   Mask /\ (Mask - 1) =:= 0
    ->  D is lsb(Mask),
        memberchk(step(D, Shift, _), Steps),
        Fixed1 is Fixed0 + Shift,
        getbit(Inside, Fixed1) =:= 1,
        S = Mask,
        Choices = Choices1,
        ChoicesSupported = ChoicesSupported1
    ;   Fixed1 = Fixed0,
        Choices = [Mask|Choices1],
        ChoicesSupported = [S|ChoicesSupported1]
    ),
    fixed_point(Masks, Steps, Inside, Fixed1, Fixed, Supported, Choices1, ChoicesSupported1).

%   Before: for each cell, the points its cells before it can reach.
points_before([], _, _, _, []).
points_before([Mask|Masks], Steps, Inside, Points, [Points|Before]) :-
    steps_forward(Steps, Mask, Points, 0, Next0),
    Next is Next0 /\ Inside,
    points_before(Masks, Steps, Inside, Next, Before).

steps_forward([], _, _, Next, Next).
steps_forward([step(D, Shift, _)|Steps], Mask, Points, Next0, Next) :-
    (   Mask /\ (1 << D) =\= 0
    ->  Next1 is Next0 \/ (Points << Shift)
    ;   Next1 = Next0
    ),
    steps_forward(Steps, Mask, Points, Next1, Next).

%   For each cell and after the last, the points from which it and the
%   cells after it can reach the target: the target's own after the last.
reaching([], _, Goal, [Goal]).
reaching([Mask|Masks], Steps, Goal, [Points|After]) :-
    reaching(Masks, Steps, Goal, After),
    After = [Next|_],
    steps_back(Steps, Mask, Next, 0, Points).

steps_back([], _, _, Points, Points).
steps_back([step(D, Shift, Valid)|Steps], Mask, Next, Points0, Points) :-
    (   Mask /\ (1 << D) =\= 0
    ->  Points1 is Points0 \/ ((Next /\ Valid) >> Shift)
    ;   Points1 = Points0
    ),
    steps_back(Steps, Mask, Next, Points1, Points).

%   For each cell with a choice, the digits of its Mask that take a point
%   before it to one after it.
choices_supported([], _, [], _, []).
choices_supported([Mask|Masks], Steps, [Before|Befores], [After|Afters], [S|Ss]) :-
    digits_supported(Steps, Mask, Before, After, 0, S),
    choices_supported(Masks, Steps, Befores, Afters, Ss).

digits_supported([], _, _, _, S, S).
digits_supported([step(D, Shift, _)|Steps], Mask, Before, After, S0, S) :-
    Bit is 1 << D,
    (   Mask /\ Bit =\= 0,
        (Before << Shift) /\ After =\= 0
    ->  S1 is S0 \/ Bit
    ;   S1 = S0
    ),
    digits_supported(Steps, Mask, Before, After, S1, S).

narrowed([], [], [], _, _, _, Seen, Seen).
narrowed([I|Is], [Mask|Masks], [Supported|Ss], Grid, Width, Shift, Seen0, Seen) :-
    (   Supported =:= Mask
    ->  true
    ;   remove_digits(Grid, Mask /\ \ Supported, I)
    ),
    Seen1 is Seen0 \/ (Supported << Shift),
    Shift1 is Shift + Width,
    narrowed(Is, Masks, Ss, Grid, Width, Shift1, Seen1, Seen).
