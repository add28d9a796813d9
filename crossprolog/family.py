"""What a puzzle family is: the record that says everything about it in one place.

A family is a grammar module (how its text reads), a model class (what the
puzzle means, how it draws itself), a Prolog module (its constraints), and a
`Family` record in `crossprolog.registry` that names them and states the rest:
its options, its generator, and how it recognises its own text.  Nothing
outside these four places knows anything about a family.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from importlib import import_module
from types import ModuleType
from typing import Any, Callable, Iterator, NamedTuple


class Imported:
    """A value of one of crossprolog's modules (`module` relative to the package, as
    "grammars.sudoku"), imported on first use: a record names its family's functions
    and values so, and the command line starts without the families it does not use."""

    def __init__(self, module: str, name: str):
        self.module, self.name = module, name

    def get(self) -> Any:
        return getattr(import_module(f"{__package__}.{self.module}"), self.name)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.get()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"{self.module}.{self.name}"


class OptionError(ValueError):
    """An option value that does not read; `offset` is where in the value text (0-based)."""

    def __init__(self, message: str, offset: int = 0):
        super().__init__(message)
        self.offset = offset


@dataclass(frozen=True)
class Option:
    """A rule a puzzle of the family may change: on the command line (`--first-cell seeds`)
    or as a directive line at the top of its file (`# first-cell: seeds`).

    `read` turns the text of a value into what the model takes (raising
    OptionError); `write` gives it back as a directive writes it.  A `flag`
    is a switch: `--zero` on the command line, `# zero: yes` in a file.
    `key` is the model's keyword for it (default: the name with `_` for `-`).
    `default` may be Imported, as `read` may: `default_value()` is the value.
    """

    name: str
    help: str
    default: Any = None
    choices: tuple[str, ...] = ()
    read: Callable[[str], Any] | None = None
    write: Callable[[Any], str] = str
    flag: bool = False
    key: str = ""

    def __post_init__(self) -> None:
        if not self.key:
            object.__setattr__(self, "key", self.name.replace("-", "_"))

    def value(self, text: str) -> Any:
        """The value `text` states.  Raises OptionError."""
        text = text.strip()
        if self.flag:
            return read_yes_no(text)
        if self.read is not None:
            return self.read(text)
        if text.lower() not in self.choices:
            raise OptionError(f"expected {' or '.join(self.choices)}, not {text!r}")
        return text.lower()

    def refusal(self, value: Any) -> str | None:
        """Why `value`, given as a model's value rather than as text, cannot be this
        option's (None when it can): a flag is True or False, a choice one of the
        choices, another option's value of its default's type (the model checks the rest)."""
        if self.flag:
            return None if isinstance(value, bool) else "True or False"
        if self.choices:
            return None if value in self.choices else f"one of {', '.join(map(repr, self.choices))}"
        default = self.default_value()
        if default is None or isinstance(value, type(default)):
            return None
        return f"a {type(default).__name__} or a text such as {self.write(default)!r}"

    def default_value(self) -> Any:
        """The default, imported if the record names it."""
        return self.default.get() if isinstance(self.default, Imported) else self.default

    def directive(self, value: Any) -> str:
        """The directive line that states `value`."""
        return f"# {self.name}: {('yes' if value else 'no') if self.flag else self.write(value)}"


YES, NO = ("yes", "true", "on"), ("no", "false", "off")


def read_yes_no(text: str) -> bool:
    if text.lower() in YES:
        return True
    if text.lower() in NO:
        return False
    raise OptionError(f"expected yes or no, not {text!r}")


class Claim(NamedTuple):
    """How sure a grammar is that a text is its family's, and why (for error messages).

    Grammars claim with one of the strengths below, at most STRONG (CERTAIN is
    the registry's, for a text holding a directive of the family); the registry
    picks the strongest claim, the registry's order breaking ties.
    """

    strength: float
    reason: str


CERTAIN = 1.0    # a mark that is the family's own and nobody else's: a directive, say
STRONG = 0.8     # the family's tokens, laid out as its puzzles are
WEAK = 0.4       # text the family can read, but so might another
NONE = Claim(0.0, "")


@dataclass(frozen=True)
class Family:
    """One puzzle family: everything the CLI, the engine and the API need to know of it.

    Its modules are imported on first use, named after the family: the grammar
    `crossprolog.grammars.<name>`, the model `crossprolog.<name>`.  `grammar` is
    a module with `claim(lines) -> Claim`, `parse(lines, **options) -> Puzzle`
    (lines as `grammars.common.source_lines` gives them, directives already
    taken out) and `is_comment(line)`; and optionally `is_header(line)` (a line
    of the family's own file format that only looks like a directive),
    `split(lines)` (the lines of each puzzle, when the family's own format holds
    several in one text, as Sudoku's .sdm files do) and `read_all(text,
    separator, **options)` (every puzzle of a whole text read in one pass, or
    None: see `registry.parse_all`; it takes only texts whose every puzzle
    `registry.detect` gives its family, as guessing tries each in turn).  `model` is the Puzzle class its model
    module calls `model_name`; `prolog` the name of its module in `prolog/`
    (exporting `model/4` and `encodings/1`); the model module's function
    `generator_name` (rows, cols, n, seed) yields random puzzles, and
    `well_formed_name` random puzzles with exactly one solution (None: none).
    `sizes` are the sizes `stats` looks at by default; `suffixes` those of the
    family's own files (.sdk) that a directory stands for, beside .txt and .md.
    `reasoning` is the encoding whose propagation explains hints (None: the
    default; it must post CLP(FD) constraints, which a plain search does not).
    `generated_options` name the options its generators take (the rules the
    puzzles they make follow): `generate` offers only those.
    """

    name: str
    title: str
    model_name: str
    prolog: str
    options: tuple[Option, ...] = ()
    generator_name: str | None = None
    well_formed_name: str | None = None
    sizes: tuple[tuple[int, int], ...] = ()
    summary: str = ""
    reasoning: str | None = None
    suffixes: tuple[str, ...] = ()
    generated_options: tuple[str, ...] = ()
    option_names: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "option_names", frozenset(o.name for o in self.options))

    @cached_property
    def grammar(self) -> ModuleType:
        return import_module(f"{__package__}.grammars.{self.name}")

    @cached_property
    def module(self) -> ModuleType:
        """The model module: the model, its generators."""
        return import_module(f"{__package__}.{self.name}")

    @property
    def model(self) -> type:
        return getattr(self.module, self.model_name)

    @property
    def generator(self) -> Callable[[int, int, int, int | None], Iterator[Any]] | None:
        return self.generator_name and getattr(self.module, self.generator_name)

    @property
    def well_formed(self) -> Callable[[int, int, int, int | None], Iterator[Any]] | None:
        return self.well_formed_name and getattr(self.module, self.well_formed_name)

    def option(self, name: str) -> Option | None:
        return next((o for o in self.options if o.name == name), None)

