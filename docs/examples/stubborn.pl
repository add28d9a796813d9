:- module(stubborn, [model/3]).
% An encoding that never stops: its labeling catches the time limit's exception.
model(_, [[X]], stubborn:forever(X)).
forever(X) :- catch((repeat, fail), _, true), forever(X).
