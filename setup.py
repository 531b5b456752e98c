"""Build the solver's compiled core; everything else is in pyproject.toml.

The extension is optional: without a C compiler the install still succeeds and
``bummerl.solver`` falls back to its pure-Python search with a warning.
"""

from setuptools import Extension, setup  # type: ignore[import-untyped,unused-ignore]

setup(
    ext_modules=[
        Extension(
            "bummerl.solver._csolver",
            ["src/bummerl/solver/_csolver.c"],
            extra_compile_args=["-O3", "-std=c99"],
            optional=True,
        )
    ]
)
