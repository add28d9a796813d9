:- module(restarts,
          [ restarted/3,        % :Attempt, +Unit, ?Solution
            luby/2,             % +I, -L
            shuffled/3,         % +K, +List, -Shuffled
            alternated/3        % +K, +Values, -Ordered
          ]).
/** <module> Restarts: a search with a heavy tail, cut short and begun again.

A labeling can spend ages below one bad early choice, where the same
constraints labeled in another order take a moment.  Restarting bounds what
a bad order costs: attempt K runs within a budget of inferences, the
budgets growing along the Luby sequence, and the next attempt begins again
from the same constraints, labeling in its own order.

  - restarted/3 runs the attempts and gives each solution exactly once.
  - luby/2 is the sequence of budgets, in units.
  - shuffled/3 is a different, fixed order of a list for each attempt.
  - alternated/3 flips the order of the values tried in half the attempts.

The families' modules load this one beside them (`:- use_module(restarts).`
resolves relative to the loading file).
*/

:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(pairs)).

:- meta_predicate
    restarted(2, +, ?).

%!  restarted(:Attempt, +Unit, ?Solution) is nondet.
%
%   call(Attempt, K, Labeling) sets up attempt K (from 1): Labeling is the
%   goal that labels (in the module of Attempt), binding Solution to a
%   ground term on each success.  Setting up is not counted; Labeling runs
%   within Unit * luby(K) inferences (counted afresh after each solution it
%   gives), and past them the next attempt starts over.  A solution an
%   earlier attempt gave is not given again.
%
%   To know that, the solutions given are remembered, but no more than
%   remembered_at_most/1 of them, so that counting many solutions runs in
%   memory that does not grow with their number: once that many are
%   remembered, the attempt that gave the last of them ends, and the next
%   one is the last: it runs without a budget, to its end, and gives what
%   it finds that is not remembered.  An attempt that runs to its end has
%   seen every solution, so either way the search ends: counting every
%   solution still terminates, and gives each once.
%
%   Setting up is the place for work that may load code on first use (such
%   as numlist/3 loading library(error)): a budget that ran out while code
%   was loading would leave it half loaded.
restarted(Attempt, Unit, Solution) :-
    trie_new(Given),
    Remembered = remembered(0),
    strip_module(Attempt, Module, _),
    remembered_at_most(Most),
    between(1, inf, K),
    call(Attempt, K, Labeling),
    (   arg(1, Remembered, Most)
    ->  !,
        Module:Labeling,
        \+ trie_lookup(Given, Solution, _)
    ;   luby(K, Times),
        Budget is Unit * Times,
        Stopped = stopped(false),
        (   budgeted(Module:Labeling, Budget, Given-Remembered, Most, Stopped, Solution)
        ;   arg(1, Stopped, false), !,
            fail
        )
    ).

%!  remembered_at_most(-Most) is det.
%
%   How many solutions restarted/3 remembers at most: enough that the
%   questions asked with restarts on (the first solution, whether there is
%   a second) never get to the last attempt; a few megabytes of tries.
remembered_at_most(1000).

%!  budgeted(:Labeling, +Budget, +Given-Remembered, +Most, +Stopped, ?Solution) is nondet.
%
%   The solutions of one attempt of restarted/3 not given before, each
%   remembered in the trie Given (Remembered counts them): Labeling within
%   Budget inferences after each solution.  Past the budget, or once Most
%   solutions are remembered (after the last of them), the attempt ends
%   with Stopped set: the search goes on with the next attempt.
budgeted(Labeling, Budget, Given-Remembered, Most, Stopped, Solution) :-
    call_with_inference_limit(Labeling, Budget, Result),
    (   Result == inference_limit_exceeded
    ->  nb_setarg(1, Stopped, true),
        !,
        fail
    ;   true
    ),
    not_given_before(Given, Solution),
    arg(1, Remembered, N0),
    N is N0 + 1,
    nb_setarg(1, Remembered, N),
    (   N >= Most
    ->  nb_setarg(1, Stopped, true),
        !
    ;   true
    ).

%!  not_given_before(+Given, +Solution) is semidet.
%
%   Solution is not in the trie Given, and now is: Given keeps the
%   solutions out of reach of backtracking.
not_given_before(Given, Solution) :-
    trie_insert(Given, Solution).

%!  luby(+I, -L) is det.
%
%   L is the I-th term (from 1) of the Luby sequence 1 1 2 1 1 2 4 1 1 2 ...:
%   2^(K-1) when I is 2^K - 1, else, with 2^K =< I < 2^(K+1) - 1, the
%   term I - 2^K + 1 of the sequence started over.
luby(I, L) :-
    K is msb(I + 1),
    (   I + 1 =:= 1 << K
    ->  L is 1 << (K - 1)
    ;   I1 is I - (1 << K) + 1,
        luby(I1, L)
    ).

%!  shuffled(+K, +List, -Shuffled) is det.
%
%   Shuffled is List in the K-th order: the element at I (from 1) sorted
%   by a hash of K and I (mixed/2), so that the orders of different
%   attempts have nothing to do with each other or with List's own order.
shuffled(K, List, Shuffled) :-
    length(List, N),
    numlist(1, N, Indices),
    maplist(hashed_key(K), Indices, List, Keyed),
    keysort(Keyed, Sorted),
    pairs_values(Sorted, Shuffled).

%!  alternated(+K, +Values, -Ordered) is det.
%
%   Ordered is Values in attempts 1, 4, 5, 8, 9, ... (K mod 4 is 0 or 1)
%   and reversed in attempts 2, 3, 6, 7, ...: half the attempts try the
%   other value first, and so do half the odd ones and half the even ones
%   (a search may take its heuristic by K's parity).
alternated(K, Values, Values) :-
    K mod 4 < 2, !.
alternated(_, Values, Reversed) :-
    reverse(Values, Reversed).

hashed_key(K, I, Element, Key-Element) :-
    mixed(K * 1000003 + I, Key).

%!  mixed(+X, -Hash) is det.
%
%   Hash is a 32-bit integer hash of X (two rounds of xor-shift and
%   multiply): nearby Xs get unrelated Hashes.
mixed(X, Hash) :-
    X1 is (((X xor (X >> 16)) * 0x45d9f3b) /\ 0xFFFFFFFF),
    X2 is (((X1 xor (X1 >> 16)) * 0x45d9f3b) /\ 0xFFFFFFFF),
    Hash is X2 xor (X2 >> 16).
