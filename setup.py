"""Build the compiled cores; everything else is in pyproject.toml.

The extensions are optional: without a C compiler the install still succeeds,
``bummerl.solver`` falls back to its pure-Python search with a warning and
``bummerl.rng`` to its Python shuffle (the specification; the same deals).
"""

from setuptools import Extension, setup  # type: ignore[import-untyped,unused-ignore]

setup(
    ext_modules=[
        Extension(
            "bummerl.solver._csolver",
            ["src/bummerl/solver/_csolver.c"],
            extra_compile_args=["-O3", "-std=c99"],
            optional=True,
        ),
        # The seeded shuffle of bummerl.rng (the deal of every game); the Python code is the fallback.
        Extension("bummerl._crng", ["src/bummerl/_crng.c"], extra_compile_args=["-O3", "-std=c99"], optional=True),
        # The two-player games in C for the batched environments (bummerl.core; the Python engine is the reference).
        Extension(
            "bummerl.core._two_player",
            ["src/bummerl/core/_two_player.c"],
            depends=["src/bummerl/core/_core.h"],
            extra_compile_args=["-O3", "-std=c99"],
            optional=True,
        ),
        # Dreierschnapsen and Bauernschnapsen in C, the same interface (bummerl.table_game is the reference).
        Extension(
            "bummerl.core._table",
            ["src/bummerl/core/_table.c"],
            depends=["src/bummerl/core/_core.h"],
            extra_compile_args=["-O3", "-std=c99"],
            optional=True,
        ),
    ]
)
