"""puzz.link (pzprjs) URLs: the framing (:mod:`bench.pzpr.url`) and one module per pzprjs
body encoding, shared by every puzzle whose ``codec.py`` names it:

* :mod:`bench.pzpr.number16` — ``Number16`` (nurikabe, shikaku, fillomino);
* :mod:`bench.pzpr.fourcell` — ``4Cell`` (shakashaka);
* :mod:`bench.pzpr.circle` — ``Circle``, base 27 (yinyang).

Each encoding module exposes one :class:`~bench.pzpr.common.Encoding` (``decode(body, cols,
rows)`` -> cell tokens in reading order, ``encode(cells)`` -> body). Decoding is strict: a
malformed body is an :class:`~bench.pzpr.common.InterchangeError`, never a wrong instance.
"""
