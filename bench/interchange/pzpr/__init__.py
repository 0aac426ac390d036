"""puzz.link (pzprjs) URLs: the framing (:mod:`bench.interchange.pzpr.url`) and one module per
pzprjs body encoding, shared by every puzzle whose ``codec.py`` names it:

* :mod:`bench.interchange.pzpr.number16` — ``Number16`` (nurikabe, shikaku, fillomino);
* :mod:`bench.interchange.pzpr.fourcell` — ``4Cell`` (shakashaka);
* :mod:`bench.interchange.pzpr.circle` — ``Circle``, base 27 (yinyang).

Each encoding module exposes one :class:`~bench.interchange.pzpr.common.Encoding`
(``decode(body, cols, rows)`` -> cell tokens in reading order, ``encode(cells)`` -> body).
Decoding is strict: a malformed body is an
:class:`~bench.interchange.pzpr.common.InterchangeError`, never a wrong instance.
"""
