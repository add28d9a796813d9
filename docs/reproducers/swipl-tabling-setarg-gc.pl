:- module(kenken, []).
:- use_module(library(apply)).
:- use_module(library(lists)).
:- use_module(library(pairs)).
length_(Length, List) :- length(List, Length).

candidates_model(Rows, label_candidates(Grid)) :-
    N = 8,
    cages(CageData),
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
    findall(X-X, between(1,5000,X), _),
    pairs_keys_values(CageData, CageTerms0, LiveLists),
    maplist(no_lines, CageTerms0, CageTerms),
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
    propagate_candidates(Grid).

unseen(Fillings, live(-1, Fillings)).


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

cell_cages(CageTerms, Cells2, CellCage) :-
    findall(I-K, ( nth1(K, CageTerms, cage(Numbers, _, _)), member(I, Numbers) ), Pairs0),
    findall(I-0, between(1, Cells2, I), None),
    append(Pairs0, None, Pairs),
    keysort(Pairs, Sorted),
    group_pairs_by_key(Sorted, Grouped),
    maplist(first_cage, Grouped, Ks),
    CellCage =.. [cell_cage|Ks].

first_cage(_-[K|_], K).                 % 0: in no cage (keysort keeps a cage first)

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
        propagate_candidates(Grid)
    ;   true
    ).

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
            true
        ),
        narrow_to_support(Numbers, Support, Width, Field, Grid)
    ).

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

fitting([], _, [], Support, Support).
fitting([F|Fs], Allowed, Live, Support0, Support) :-
    (   F /\ Allowed =:= F
    ->  Live = [F|Live1],
        Support1 is Support0 \/ F,
        fitting(Fs, Allowed, Live1, Support1, Support)
    ;   fitting(Fs, Allowed, Live, Support0, Support)
    ).

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

label_candidates(Grid) :-
    arg(1, Grid, Cells),
    functor(Cells, _, Cells2),
    numlist_(1, Cells2, Is),
    propagate_candidates(Grid),
    search_candidates(Grid).

numlist_(Low, High, List) :-
    findall(I, between(Low, High, I), List).

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

mask_digit(Mask, Digit) :-
    Smallest is lsb(Mask),
    (   Digit = Smallest
    ;   Rest is Mask /\ (Mask - 1),
        Rest =\= 0,
        mask_digit(Rest, Digit)
    ).
no_lines(cage(Ns, W), cage(Ns, W, [])).

cages([cage([1,9,10],9)-[2105408,2129936,2228232,4198464,4227080,16779328,16781328,16785416],cage([2,3,11],9)-[2113792,2228256,4210752,4227104,8392960,8396864,8421392,8519688,16785440,16793616,67112992,67125256],cage([4,12],9)-[1152,2112,4128,16392,32772,65538],cage([5,13],9)-[1152,2304,65538,131076],cage([6,7,14],9)-[8454400,8519808,33571072,33685536,67125376,67174432],cage([8,16],9)-[1040,2080,4160,8194,8320,16388,16640,32776,65552,131104],cage([15,22,23,24],9)-[269488192,269492256,269500432,269516808,269615106,270534720,270540816,270565380,270598146,272631840,272646148,272662530,276826128,276828168,276832260,285214728,285216772,285220866,301991940,301993986,335546370,537399360,537403424,537411600,537427976,537460740,538969152,538984452,539000834,541066272,541069320,541081602,545260560,545263620,545267714,553649160,553652226,570426372,603980802,1074268224,1074274320,1074282504,1074298884,1074791488,1074798600,1074823170,1077938184,1082131464,1082132484,1090520068,1090521090,1107297282,2148010016,2148012048,2148024324,2148533280,2148536328,2148548610,2149581840,2155873284,2155874306,2164261890,4295493648,4295495688,4295499780,4296016912,4296024066,4297066500,4299162628,4299163650,8590460936,8590462980,8590984200,8590987266,8592032772,8592033794,8594129922,17180395524,17181967362,34360787970],cage([17],9)-[32],cage([18,19],9)-[2176,65540],cage([20,28],9)-[16640,131104],cage([21,29,37],9)-[528640,532544,557072,655368,1052688,1056776,2098432,2099216,2105348,2228226,4195392,4196360,4198404,4227074,16778256,16785410,67109896,67112962],cage([25,26],9)-[1040,2304,8194,131076],cage([27,35],9)-[4224,65544],cage([30,31,38],9)-[16843008,16908416,33587456,33685568,67141760,67174464],cage([32,39,40],9)-[4210944,4325408,8397056,8519696,67117088,67125264],cage([33,34,41,42],9)-[269549824,269615232,270565632,270663744,272646400,272662656,272695360,272760864,276832512,276840576,276955152,285217024,285220992,285245472,285278224,285343752,301992192,301998144,302022672,302055432,302120964,335546496,335548480,335552544,335560720,335577096,335609860,335675394,537460992,537526400,538984704,539000960,539033664,539099168,541073664,541081728,541130784,545263872,545267840,545275968,545325072,545390600,553652352,553680912,553713672,553779204,570426624,570429504,570433568,570441744,570458120,570490884,570556418,603980928,603983904,603996168,604012548,604045314,1074299136,1074397248,1074807040,1074823296,1074856000,1074921504,1077944448,1077952576,1077968928,1078067208,1082132736,1082138688,1082163216,1082195976,1082261508,1090520320,1090521216,1090527264,1090535440,1090551816,1090584580,1090650114,1107298368,1107312648,1107329028,1107361794,1140851776,1140852768,1140858888,1140867076,1140883458,2148024576,2148040832,2148073536,2148139040,2148548736,2148597792,2148663312,2149585152,2149597248,2149613600,2149646352,2155873536,2155874432,2155876416,2155888656,2155905032,2155937796,2156003330,2164262016,2164264992,2164277256,2164293636,2164326402,2181039168,2181040160,2181042192,2181054468,2181070850,2214593568,2214594576,2214608898,4295500032,4295557152,4295622672,4296020224,4296024192,4296048672,4296081424,4296146952,4297066752,4297068672,4297072704,4297097232,4297195524,4299162880,4299163776,4299165760,4299169824,4299194376,4299227140,4299292674,4311746592,4311748624,4311752712,4311777282,4328522784,4328523792,4328529924,4362077200,4362078216,4362080260,4362084354,8590463232,8590467200,8590475328,8590524432,8590589960,8590985472,8590987392,8590991424,8591048712,8592033024,8592033920,8592035904,8592039968,8592048144,8592097284,8592162818,8594130048,8594131008,8594133024,8594145288,8594194434,8598324288,8598327312,8598331400,8598339588,8623490064,8623491080,8623493124,8623497218,8657044488,8657047554,17180395776,17180397696,17180401728,17180426256,17180524548,17180919040,17180919936,17180921920,17180925984,17180934160,17180950536,17181048834,17181967488,17181968448,17181970464,17181999108,17184064576,17184065568,17184071688,17184079876,17184096258,17188259856,17188265988,17188274178,17196647440,17196648456,17196650500,17196654594,17246979076,17246980098,34360263936,34360264832,34360266816,34360270880,34360279056,34360295432,34360328196,34360788096,34360789056,34360791072,34360803336,34360852482,34361836608,34361837600,34361839632,34361851908,34361868290,34363933728,34363940868,34363949058,34368128016,34368129032,34368131076,34368135170,34376516616,34376519682,34393293828,34393294850],cage([36,44],9)-[1152,2304,65538,131076],cage([43,51,59],9)-[540928,557184,589888,655392,1057024,1065088,1114144,1179664,2105472,2113600,2129952,2162704,4196608,4198528,4259848,4325380,8389888,8390784,8392768,8421384,8454148,8519682,16778368,16781344,16793608,16842754,33555520,33556512,33558544,33562632,33570820,33587202,67109920,67110928,67117060,67125250],cage([45,46],9)-[1152,2304,65538,131076],cage([47,48,55],9)-[528448,557064,2098240,2101252,2129922,16778248,16781314],cage([49,50,57,58],9)-[269549824,269615232,272638080,301992192,302120964,335546496,335609860,537460992,537526400,541130756,570426624,570433540,570556418,603980928,604045314,2148073488,2148534400,2181039120,17180395776,17180524548,17180919040,17180919824,17181048834,17184071682,17246979076,17246980098,34360264832,34360328196,34360788096,34360852482,34393293828,34393294850],cage([52,60],9)-[2112,4112,8200,32772],cage([53,61],9)-[4352,8320,16448,32800,65552,131080],cage([54,62,63],9)-[528640,532608,540736,557088,589840,655368,1052800,1056832,1081360,1114120,1179652,2098432,2099328,2105376,2113552,2129928,2162692,2228226,4195456,4196416,4198432,4210696,4227076,4259842,8389696,8390688,8392720,8396808,8421378,16778272,16779280,16785412,16793602,33555472,33556488,33558532,33562626,67109896,67112962],cage([56,64],9)-[1280,2176,4160,8224,16400,32776,65540,131074]]).
