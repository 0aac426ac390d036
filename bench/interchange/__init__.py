"""Instance formats of other tools: puzz.link URLs (:mod:`bench.interchange.pzpr`), janko.at
files (:mod:`bench.interchange.janko`), and the import/export between them and instance files
(:mod:`bench.interchange.formats`)."""
