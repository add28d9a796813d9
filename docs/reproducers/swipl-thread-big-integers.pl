% SWI-Prolog 9.2.9: a thread other than main computes no integer past about a
% kilobyte.  Its max_integer_size flag reads 0 (main has none: no bound), and
% a big integer raises resource_error(tripwire(max_integer_size, 0)):
% "Trapped tripwire max_integer_size: big integers and rationals are limited
% to 0 bytes".  The same in an engine (engine_create/3) and in a thread
% janus attaches for a Python thread.  Run it from this folder:
%
%     swipl -q -g main -t halt swipl-thread-big-integers.pl
%
% It prints main_ok, then the error for the thread, then thread_ok after the
% flag is set in the thread (prolog/crossprolog.pl does so for every thread
% with thread_initialization/1).

main :-
    X is 1 << 10000, X > 0,
    writeln(main_ok),
    catch(in_thread(true), Error, (print_message(error, Error))),
    in_thread(set_prolog_flag(max_integer_size, 1073741824)).

in_thread(Setup) :-
    thread_create(( Setup, Y is 1 << 10000, Y > 0, writeln(thread_ok) ), Thread,
                  [at_exit(true)]),
    thread_join(Thread, Status),
    (   Status = exception(Error)
    ->  throw(Error)
    ;   true
    ).
