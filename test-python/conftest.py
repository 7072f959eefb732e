"""Shared helpers of the Python suite: it runs against the installed ``cdk8s-dynamo`` wheel (see
scripts/language-tests.sh), never against the sources."""
import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
IMAGE = "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0"

# a two-component graph (Frontend, decode), shared with the TypeScript tests of the command
GRAPH_YAML = (ROOT / "test" / "fixtures" / "cli" / "graph.yaml").read_text()
# the same graph with a component type the operator refuses (admission rule 43)
BAD_YAML = GRAPH_YAML.replace("type: decode", "type: router")
RULE_43 = (
    'DynamoGraphDeployment/llm: spec.components[1].type (component "decode"): Unsupported value: "router": '
    'supported values: "frontend", "worker", "prefill", "decode", "planner", "epp" (rule 43)'
)


def js_message(error: BaseException) -> str:
    """The message of the JavaScript error behind a Python exception (jsii prefixes the error's name)."""
    text = str(error)
    assert text.startswith("Error: "), text
    return text[len("Error: "):]


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    """A fresh folder to run in (cdk8s apps write dist/ into the working directory)."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(scope="session", autouse=True)
def installed_package():
    """The suite must test the installed wheel, not a checkout that happens to be importable."""
    import cdk8s_dynamo

    assert "site-packages" in cdk8s_dynamo.__file__, cdk8s_dynamo.__file__
    assert os.environ.get("VIRTUAL_ENV") or "site-packages" in cdk8s_dynamo.__file__
    return cdk8s_dynamo
