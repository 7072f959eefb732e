"""Every OperatorOptions prop, given from Python as a keyword of ``OperatorOptions``, shows in what is rendered.

The scenario table test/fixtures/operator-options/cases.json (shared with the TypeScript, Java and Go
suites) names for each prop a value, a graph and where the value must appear. Each case is rendered by
``DynamoGraph.from_yaml`` in WORKLOADS output and by ``DynamoDocuments.render_yaml``; the value is read
back from an operator configuration file by ``OperatorConfiguration.from_yaml``; invalid values are
refused when the options are given, naming the prop.
"""
import json
import re

import cdk8s
import pytest
import yaml

from cdk8s_dynamo import (
    DynamoDocuments,
    DynamoGraph,
    OperatorConfiguration,
    OperatorOptions,
    OutputMode,
    RegistrySecret,
)

from conftest import ROOT, js_message

DIR = ROOT / "test" / "fixtures" / "operator-options"
FIXTURE = json.loads((DIR / "cases.json").read_text())


def _snake(prop):
    """The Python name of a prop (``modelExpressUrl`` is ``model_express_url``)."""
    return re.sub(r"[A-Z]", lambda m: "_" + m.group(0).lower(), prop)


def _typed(prop, value):
    """The value as the typed API takes it: registry secrets as ``RegistrySecret`` structs."""
    if prop == "registrySecrets":
        return [RegistrySecret(name=s["name"], registries=list(s["registries"])) for s in value]
    return value


def _options(case):
    props = dict(case.get("with", {}))
    props[case["prop"]] = case["value"]
    return OperatorOptions(**{_snake(p): _typed(p, v) for p, v in props.items()})


def _plain(value):
    """A value read from the typed API as JSON data (structs as dicts)."""
    if isinstance(value, RegistrySecret):
        return {"name": value.name, "registries": list(value.registries)}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _graph_text(case_or_file):
    return (DIR / case_or_file).read_text()


def _synthesized(file, operator):
    app = cdk8s.App()
    chart = cdk8s.Chart(app, "llm")
    DynamoGraph.from_yaml(chart, "Graph", _graph_text(file), output=OutputMode.WORKLOADS, operator=operator)
    return [d for d in yaml.safe_load_all(app.synth_yaml()) if d is not None]


def _rendered(file, operator):
    text = DynamoDocuments.render_yaml(_graph_text(file), output=OutputMode.WORKLOADS, operator=operator)
    return [d for d in yaml.safe_load_all(text) if d is not None]


def _seen(objects, expectation):
    """What the objects show where the expectation looks ("absent" when its object is not rendered)."""
    found = [
        o for o in objects
        if o["kind"] == expectation["kind"] and expectation.get("name") in (None, o["metadata"]["name"])
    ]
    assert len(found) <= 1, f"{len(found)} objects of kind {expectation['kind']}"
    if not found:
        return "absent"
    if expectation.get("absent"):
        return "present"
    value = found[0]
    for step in expectation["path"]:
        if isinstance(step, dict):
            value = next((v for v in value if v.get("name") == step["name"]), None) if isinstance(value, list) else None
        elif isinstance(step, int):
            value = value[step] if isinstance(value, list) and step < len(value) else None
        else:
            value = value.get(step) if isinstance(value, dict) else None
        if value is None:
            return None
    return value


def _wanted(expectation):
    return "absent" if expectation.get("absent") else expectation["value"]


def _title(case):
    return f"{case['prop']}={json.dumps(case['value'])}"


CASES = [pytest.param(c, id=_title(c)) for c in FIXTURE["cases"]]
INVALID = [pytest.param(i, id=_title(i)) for i in FIXTURE["invalid"]]


def test_the_table_covers_every_prop_of_operator_options():
    given = {_snake(c["prop"]) for c in FIXTURE["cases"]}
    known = {name for name in vars(OperatorOptions) if isinstance(getattr(OperatorOptions, name), property)}
    assert given == known


@pytest.mark.parametrize("case", [c for c in CASES if c.values[0].get("expect")])
def test_the_value_shows_in_what_is_rendered(case, workdir):
    operator = _options(case)
    from_construct = _synthesized(case["graph"], operator)
    from_documents = _rendered(case["graph"], operator)
    for expectation in case["expect"]:
        assert (expectation, _seen(from_construct, expectation)) == (expectation, _wanted(expectation))
        assert (expectation, _seen(from_documents, expectation)) == (expectation, _wanted(expectation))


@pytest.mark.parametrize("case", [c for c in CASES if c.values[0].get("refused")])
def test_the_value_makes_a_graph_the_operator_refuses(case, workdir):
    with pytest.raises(Exception) as synth_error:
        _synthesized(case["graph"], _options(case))
    assert case["refused"] in str(synth_error.value)
    with pytest.raises(Exception) as render_error:
        _rendered(case["graph"], _options(case))
    assert case["refused"] in js_message(render_error.value)


@pytest.mark.parametrize("case", [c for c in CASES if c.values[0].get("noEffect")])
def test_a_value_without_effect_is_accepted_and_changes_nothing(case, workdir):
    without = OperatorOptions(**{_snake(p): _typed(p, v) for p, v in case.get("with", {}).items()})
    assert _rendered(case["graph"], _options(case)) == _rendered(case["graph"], without)
    assert _synthesized(case["graph"], _options(case)) == _rendered(case["graph"], without)


@pytest.mark.parametrize("case", CASES)
def test_the_value_is_read_back_from_a_configuration_file_and_helm_values(case):
    options = OperatorConfiguration.from_yaml(case["config"], "config.yaml")
    assert _plain(getattr(options, _snake(case["prop"]))) == case["value"]
    assert _plain(getattr(_options(case), _snake(case["prop"]))) == case["value"]
    if "helm" in case:
        options = OperatorConfiguration.from_helm_values(case["helm"])
        assert _plain(getattr(options, _snake(case["prop"]))) == case["value"]


@pytest.mark.parametrize("invalid", INVALID)
def test_an_invalid_value_is_refused_naming_the_prop(invalid, workdir):
    props = dict(invalid.get("with", {}))
    props[invalid["prop"]] = invalid["value"]
    operator = OperatorOptions(**{_snake(p): _typed(p, v) for p, v in props.items()})
    chart = cdk8s.Chart(cdk8s.App(), "llm")
    with pytest.raises(Exception) as construct_error:
        DynamoGraph(chart, "Graph", operator=operator)
    # jsii gives a constructor's error its bare message, a static method's with the error's name
    assert str(construct_error.value) == f"llm/Graph: {invalid['error']}"
    with pytest.raises(Exception) as import_error:
        DynamoGraph.from_yaml(chart, "Imported", _graph_text("graph.yaml"), operator=operator)
    assert js_message(import_error.value) == f"llm/Imported: {invalid['error']}"
    for call in (DynamoDocuments.validate_yaml, DynamoDocuments.render_yaml):
        with pytest.raises(Exception) as error:
            call(_graph_text("graph.yaml"), operator=operator)
        assert js_message(error.value) == invalid["error"]
