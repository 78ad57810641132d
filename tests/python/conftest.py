"""Shared fixtures of the Python package tests (CTest python_*: PYTHONPATH = BUILD/python,
TENET_CLI = the tenet binary, TENET_SOURCE_DIR = the source tree)."""
import json
import os
import subprocess

import pytest

SOURCE_DIR = os.environ.get("TENET_SOURCE_DIR",
                            os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
CLI = os.environ.get("TENET_CLI", os.path.join(SOURCE_DIR, "build", "tenet"))


def src(*parts):
    return os.path.join(SOURCE_DIR, *parts)


def cli_json(*args):
    """The tenet command's JSON output (it must succeed)."""
    out = subprocess.run([CLI, *args, "--format", "json"], capture_output=True, text=True,
                         cwd=SOURCE_DIR)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.fixture(autouse=True)
def _in_source_dir(monkeypatch):
    monkeypatch.chdir(SOURCE_DIR)
