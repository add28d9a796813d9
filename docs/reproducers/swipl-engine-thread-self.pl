% SWI-Prolog 9.2.9: a thread_initialization/1 goal that calls thread_self/1
% crashes the first engine_next/2 of an engine (segmentation fault in
% pl_engine_next2_va, at a mutex).  Run it from this folder:
%
%     swipl -q -g main -t halt swipl-engine-thread-self.pl
%
% It should print `x`; it ends with exit code 139.  Without thread_self/1 in
% the goal (set_prolog_flag/2 alone, as prolog/crossprolog.pl has it), it
% prints `x`.

:- thread_initialization((thread_self(main) -> true ; true)).

main :-
    engine_create(x, true, Engine),
    engine_next(Engine, Answer),
    writeln(Answer).
