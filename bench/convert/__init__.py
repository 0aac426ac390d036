"""Instance formats of other tools: puzz.link URLs (:mod:`bench.convert.pzpr`), janko.at
files (:mod:`bench.convert.janko`), and the import/export between them and instance files
(:mod:`bench.convert.formats`)."""
