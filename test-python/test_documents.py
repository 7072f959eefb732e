"""DynamoDocuments: validation and rendering of YAML text without an app or the command."""
import re
import subprocess

import pytest
import yaml

from cdk8s_dynamo import DynamoDocuments, OperatorOptions, OutputMode

from conftest import BAD_YAML, GRAPH_YAML, RULE_43, js_message


def _kinds(text):
    return [doc["kind"] for doc in yaml.safe_load_all(text) if doc is not None]


def _command(*args, stdin):
    """The installed console script, reading a file from standard input."""
    return subprocess.run(["cdk8s-dynamo", *args, "-"], input=stdin, capture_output=True, text=True)


def test_a_valid_graph_has_no_problems():
    assert DynamoDocuments.validate_yaml(GRAPH_YAML) == []


def test_problems_are_lines_named_after_the_source():
    assert DynamoDocuments.validate_yaml(BAD_YAML, source="bad.yaml") == [f"bad.yaml: {RULE_43}"]
    assert DynamoDocuments.validate_yaml(BAD_YAML) == [f"input: {RULE_43}"]


def _without_position(line):
    """A problem without where in the file it is: the command starts it `file:line:column:`, the YAML reader says `at line L, column C`."""
    return re.sub(r" at line \d+, column \d+", "", re.sub(r"^([^:\s]+):\d+:\d+: ", r"\1: ", line))


@pytest.mark.parametrize("text", [GRAPH_YAML, BAD_YAML, "a: [\n", "apiVersion: v1\nmetadata: {name: x}\n"])
def test_the_same_problems_as_the_command(text):
    result = _command("validate", stdin=text)
    problems = DynamoDocuments.validate_yaml(text, source="-")
    # the command adds a summary line after a success, and places each problem in the file
    lines = [_without_position(line) for line in result.stderr.splitlines() if not re.match(r"^validated \d+ objects? in \d+ files?: ok$", line)]
    assert [_without_position(p) for p in problems] == lines
    assert result.returncode == (1 if problems else 0)


def test_the_operator_decides_the_rules():
    # providerOverride needs the Grove provider (admission rule 82)
    pinned = GRAPH_YAML.replace(
        "      type: frontend\n",
        "      type: frontend\n"
        "      providerOverride:\n"
        "        apiVersion: grove.io/v1alpha1\n"
        "        value: {topologyConstraint: {packDomain: rack}}\n",
    )
    assert DynamoDocuments.validate_yaml(pinned, operator=OperatorOptions(grove_available=True)) == []
    assert any("(rule 82)" in p for p in DynamoDocuments.validate_yaml(pinned))
    # operator options may be given as a dict of their Python names too
    assert DynamoDocuments.validate_yaml(pinned, operator={"grove_available": True}) == []


def test_invalid_operator_options_raise():
    with pytest.raises(RuntimeError) as raised:
        DynamoDocuments.validate_yaml(GRAPH_YAML, operator=OperatorOptions(discovery_backend="zookeeper"))
    assert js_message(raised.value).startswith('operator.discoveryBackend: Unsupported value: "zookeeper"')


@pytest.mark.parametrize(
    "output, flag, kinds",
    [
        (None, "graph", ["DynamoGraphDeployment"]),
        (OutputMode.GRAPH, "graph", ["DynamoGraphDeployment"]),
        (OutputMode.COMPONENTS, "components", ["DynamoComponentDeployment"] * 2),
        (OutputMode.WORKLOADS, "workloads", None),
    ],
)
def test_render_writes_what_the_command_writes(output, flag, kinds):
    rendered = DynamoDocuments.render_yaml(GRAPH_YAML, output=output, namespace="team-a")
    result = _command("render", "--output", flag, "--namespace", "team-a", stdin=GRAPH_YAML)
    assert result.returncode == 0, result.stderr
    assert rendered == result.stdout
    if kinds is not None:
        assert _kinds(rendered) == kinds
    else:
        assert {"Deployment", "Service", "DynamoComponentDeployment"} <= set(_kinds(rendered))


def test_render_raises_the_problems():
    with pytest.raises(RuntimeError) as raised:
        DynamoDocuments.render_yaml(BAD_YAML, source="bad.yaml", output=OutputMode.WORKLOADS)
    assert js_message(raised.value) == f"bad.yaml: {RULE_43}"


def test_render_raises_on_text_that_is_not_yaml():
    with pytest.raises(RuntimeError) as raised:
        DynamoDocuments.render_yaml("a: [\n")
    assert js_message(raised.value).startswith("input: invalid YAML at line ")
