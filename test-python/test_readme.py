"""The Python quick start of docs/languages.md, run as a reader would run it: its files, copied out of the page."""
import re
import subprocess
import sys

import yaml

from conftest import BAD_YAML, GRAPH_YAML, ROOT, RULE_43

SECTION = "### Python quick start"


def readme_file(name):
    """The code block that follows `` `name`: `` in the Python quick start of docs/languages.md."""
    text = (ROOT / "docs" / "languages.md").read_text()
    start = text.index(SECTION)
    end = min(i for i in (text.find("\n## ", start + 1), text.find("\n### ", start + 1), len(text)) if i >= 0)
    section = text[start:end]
    at = section.index(f"`{name}`:")
    block = re.search(r"```[a-z]*\n(.*?)```", section[at:], re.S)
    assert block, f"no code block after `{name}`: in the Python quick start of docs/languages.md"
    return block.group(1)


def run_python(script, cwd):
    return subprocess.run([sys.executable, script], capture_output=True, text=True, cwd=cwd)


def test_main_py_synthesizes_the_graph(workdir):
    (workdir / "main.py").write_text(readme_file("main.py"))
    result = run_python("main.py", workdir)
    assert result.returncode == 0, result.stderr
    docs = [d for d in yaml.safe_load_all((workdir / "dist" / "llm.k8s.yaml").read_text()) if d]
    assert [(d["kind"], d["metadata"]["name"]) for d in docs] == [("DynamoGraphDeployment", "vllm-agg")]
    assert docs[0]["metadata"]["namespace"] == "team-a"
    worker = docs[0]["spec"]["components"][1]
    main = worker["podTemplate"]["spec"]["containers"][0]
    # what a running graph needs: the worker starts a Dynamo engine (the operator gives a default
    # command only to frontends), reads the model token's secret and asks for a GPU
    assert worker["type"] == "worker"
    assert main["command"] == ["python3", "-m", "dynamo.vllm"]
    assert main["args"] == ["--model", "Qwen/Qwen3-0.6B"]
    assert main["envFrom"] == [{"secretRef": {"name": "hf-token-secret"}}]
    assert main["resources"] == {"limits": {"nvidia.com/gpu": "1"}}


def test_check_py_validates_and_renders_a_file(workdir):
    (workdir / "check.py").write_text(readme_file("check.py"))
    (workdir / "graph.yaml").write_text(GRAPH_YAML)
    result = run_python("check.py", workdir)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    kinds = {d["kind"] for d in yaml.safe_load_all((workdir / "workloads.yaml").read_text()) if d}
    assert {"Deployment", "Service"} <= kinds

    (workdir / "graph.yaml").write_text(BAD_YAML)
    (workdir / "workloads.yaml").unlink()
    result = run_python("check.py", workdir)
    assert result.returncode == 1
    assert result.stdout.splitlines() == [f"graph.yaml: {RULE_43}"]
    assert not (workdir / "workloads.yaml").exists()
