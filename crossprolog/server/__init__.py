"""`crossprolog serve`: a local web page to type, draw, solve, check, hint and generate
puzzles, and the JSON API behind it (docs/web.md).

In layers: replies (what a worker process answers to one question, by the
command line's own functions), pool (the worker processes), app (the Starlette
application: the page's static files, the API, the limits).  Starlette and uvicorn
are the `web` extra.
"""
