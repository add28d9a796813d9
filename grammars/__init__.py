"""The pyparsing grammars of the puzzle layouts, one module per family.

Installed as `crossprolog.grammars`; each module offers `looks_like(text)` and
`parse(text, **options)`, which returns the family's model or raises ParseError.
"""
