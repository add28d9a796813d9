"""The bundled CLP(FD) modules, shipped as package data of crossprolog.prolog."""
