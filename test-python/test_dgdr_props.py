"""Every prop of ``DynamoGraphDeploymentRequestProps`` and of its nested props, given from Python as
keywords and structs (``RequestHardwareProps(...)``, ``cdk8s.ApiObjectMetadata(...)``, enums by
member), reaches the synthesized request exactly: the table test/fixtures/dgdr-props/cases.json
(shared with the TypeScript, Java and Go suites) gives the props and the request synthesized in
GRAPH output. The plain JSON maps (``planner``, ``profiling_job``, ``dgd``) are given as dicts with
nested maps, lists, numbers and booleans.
"""
import json
import re

import cdk8s
import pytest
import yaml

import cdk8s_dynamo
from cdk8s_dynamo import DynamoGraphDeploymentRequest

from conftest import ROOT

FIXTURE = json.loads((ROOT / "test" / "fixtures" / "dgdr-props" / "cases.json").read_text())

# the struct each nested prop takes (the plain JSON maps are given as dicts)
STRUCTS = {
    "metadata": cdk8s.ApiObjectMetadata,
    "ownerReferences": cdk8s.OwnerReference,
    "hardware": cdk8s_dynamo.RequestHardwareProps,
    "workload": cdk8s_dynamo.RequestWorkloadProps,
    "sla": cdk8s_dynamo.RequestSlaProps,
    "modelCache": cdk8s_dynamo.RequestModelCacheProps,
    "features": cdk8s_dynamo.RequestFeaturesProps,
    "overrides": cdk8s_dynamo.RequestOverridesProps,
}
PLAIN = {"planner", "profilingJob", "dgd", "labels", "annotations"}


def _snake(prop):
    """The Python name of a prop (``numGpusPerNode`` is ``num_gpus_per_node``)."""
    return re.sub(r"[A-Z]", lambda m: "_" + m.group(0).lower(), prop)


def _typed(key, value):
    if key in FIXTURE["enums"]:
        return getattr(getattr(cdk8s_dynamo, FIXTURE["enums"][key]), value)
    if key in PLAIN:
        return value
    struct = STRUCTS.get(key)
    if struct is not None and isinstance(value, list):
        return [struct(**_keywords(item)) for item in value]
    if struct is not None:
        return struct(**_keywords(value))
    return value


def _keywords(props):
    return {_snake(key): _typed(key, value) for key, value in props.items()}


@pytest.mark.parametrize("case", FIXTURE["cases"], ids=[c["title"] for c in FIXTURE["cases"]])
def test_every_prop_reaches_the_request(case):
    app = cdk8s.App()
    DynamoGraphDeploymentRequest(cdk8s.Chart(app, "test"), "Request", **_keywords(case["props"]))
    docs = [d for d in yaml.safe_load_all(app.synth_yaml()) if d is not None]
    assert docs == [case["expected"]]


def test_the_table_sets_every_keyword_of_the_constructor():
    """Each keyword of the construct (and of each nested struct) is set by a case, or said to be tested elsewhere."""
    import inspect

    given = set()

    def collect(props, prefix):
        for key, value in props.items():
            given.add(prefix + _snake(key))
            if key not in PLAIN and isinstance(value, dict):
                collect(value, prefix + _snake(key) + ".")

    for case in FIXTURE["cases"]:
        collect(case["props"], "")
    missing = []

    def check(signature, prefix):
        for name in signature.parameters:
            if name in ("self", "scope", "id") or (prefix == "" and name in {_snake(p) for p in FIXTURE["notHere"]}):
                continue
            if prefix + name not in given:
                missing.append(prefix + name)

    check(inspect.signature(DynamoGraphDeploymentRequest.__init__), "")
    for key, struct in STRUCTS.items():
        if struct.__module__.startswith("cdk8s_dynamo"):
            check(inspect.signature(struct.__init__), _snake(key) + ".")
    assert missing == []
