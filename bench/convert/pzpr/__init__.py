"""puzz.link (pzprjs) URLs: the framing (:mod:`bench.convert.pzpr.url`) and one module per
pzprjs body encoding, shared by every puzzle whose ``codec.py`` names it:

* :mod:`bench.convert.pzpr.number16` — ``Number16`` (nurikabe, shikaku, fillomino);
* :mod:`bench.convert.pzpr.fourcell` — ``4Cell`` (shakashaka);
* :mod:`bench.convert.pzpr.circle` — ``Circle``, base 27 (yinyang).

Each encoding module exposes one :class:`~bench.convert.pzpr.common.Encoding`
(``decode(body, cols, rows)`` -> cell tokens in reading order, ``encode(cells)`` -> body).
Decoding is strict: a malformed body is an
:class:`~bench.convert.pzpr.common.ConversionError`, never a wrong instance.
"""
