"""The package structure of docs/architecture.md: no module imports another that imports
it back, even through others or only for type checking (import-linter checks the layers
in the test command)."""

from __future__ import annotations

import grimp


def test_no_import_cycles() -> None:
    graph = grimp.build_graph("pagelens", include_external_packages=False)
    cycles = sorted(
        (importer, imported)
        for importer in graph.modules
        for imported in graph.find_modules_directly_imported_by(importer)
        if importer != "pagelens"  # the public facade imports everything
        and imported != "pagelens"
        and graph.chain_exists(importer=imported, imported=importer)
    )
    assert not cycles, cycles
