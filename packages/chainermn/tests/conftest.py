"""Makes the shared ``_helpers`` module importable from every chainermn test module.

With ``--import-mode=importlib`` pytest does not put test directories on ``sys.path``.
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
