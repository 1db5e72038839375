"""Run upstream's own Every Eval Ever validator over an export folder (inside its own throwaway venv).

Usage: <venv>/bin/python eee_validate.py EXPORT_DIR. Prints one JSON object: each file's
repository path with the errors and warnings of ``validate_aggregate`` (pydantic ``EvaluationLog``
plus the datastore's semantic checks: path layout, UUID file name, score bounds, model identity).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from every_eval_ever.validator.validation_core import validate_aggregate


def main(folder: Path) -> None:
    files = sorted(p for p in folder.rglob("*.json") if p.name != "registry-export.json")
    repo_paths = {p: p.relative_to(folder).as_posix() for p in files}
    available = frozenset(repo_paths.values())
    reports = {}
    for path, repo_path in repo_paths.items():
        report = validate_aggregate(path, repo_path=repo_path, available_files=available,
                                    read_repo_file=lambda name: (folder / name).read_text(encoding="utf-8"),
                                    run_semantic_checks=True)
        reports[repo_path] = {"valid": report.valid,
                              "errors": [f"{e.get('loc')}: {e.get('msg')}" for e in report.errors],
                              "warnings": [f"{w.get('loc')}: {w.get('msg')}" for w in report.warnings]}
    json.dump(reports, sys.stdout, indent=1)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
