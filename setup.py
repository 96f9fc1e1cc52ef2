"""The compiled core of the practice bot's playouts (``joker/bots/_core.pyx``),
built by ``pip install -e .`` with the machine's C compiler; everything else
about the package is in pyproject.toml."""

import hashlib
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent
CORE = HERE / "joker" / "bots" / "_core.pyx"

# The build records the digest of the source it compiled: joker.bots.core
# refuses to load a module built from another version of it.
digest = hashlib.sha256(CORE.read_bytes()).hexdigest()
(CORE.parent / "_core_digest.pxi").write_text(f'SOURCE_DIGEST = "{digest}"\n')

setup(
    ext_modules=cythonize(
        [
            Extension(
                "joker.bots._core",
                ["joker/bots/_core.pyx"],
                extra_compile_args=["-O3"],
            )
        ],
        language_level=3,
        quiet=True,
    )
)
