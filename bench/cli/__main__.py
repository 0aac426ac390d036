"""``python -m bench.cli``: the `puzzlebench` command."""

import sys

from bench.cli import main

sys.exit(main())
