"""The ``cdk8s-dynamo`` console script the wheel installs: the command, run through Node.js."""
import shutil
import subprocess

import pytest

from conftest import BAD_YAML, GRAPH_YAML, RULE_43


def run(*args, cwd=None):
    return subprocess.run(["cdk8s-dynamo", *args], capture_output=True, text=True, cwd=cwd)


def test_the_script_is_installed_in_the_environment():
    assert shutil.which("cdk8s-dynamo") is not None


def test_version():
    from importlib.metadata import version

    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == version("cdk8s-dynamo")


@pytest.mark.parametrize("output", ["graph", "components", "workloads"])
def test_render_each_output_mode(tmp_path, output):
    (tmp_path / "graph.yaml").write_text(GRAPH_YAML)
    result = run("render", "--output", output, "graph.yaml", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "kind: " in result.stdout


def test_render_out_writes_one_file_per_input(tmp_path):
    (tmp_path / "graph.yaml").write_text(GRAPH_YAML)
    result = run("render", "--output", "workloads", "--out", "out", "graph.yaml", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "kind: Deployment" in (tmp_path / "out" / "graph.k8s.yaml").read_text()


def test_validate_exit_codes(tmp_path):
    (tmp_path / "graph.yaml").write_text(GRAPH_YAML)
    (tmp_path / "bad.yaml").write_text(BAD_YAML)
    assert run("validate", "graph.yaml", cwd=tmp_path).returncode == 0
    bad = run("validate", "bad.yaml", cwd=tmp_path)
    assert bad.returncode == 1
    assert bad.stdout == ""
    # the command places each problem in the file (file:line:column)
    assert bad.stderr.splitlines() == [f"bad.yaml:16:7: {RULE_43}"]
    assert run("validate", "missing.yaml", cwd=tmp_path).returncode == 1


def test_usage_errors_exit_2():
    result = run("render", "--bogus", "graph.yaml")
    assert result.returncode == 2
    assert 'unknown option "--bogus"' in result.stderr
