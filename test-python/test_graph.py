"""Graphs authored in Python: the three output modes, imports from YAML, and errors as exceptions."""
import cdk8s
import cdk8s_plus_34 as kplus
import constructs
import pytest
import yaml

from cdk8s_dynamo import (
    BackendFramework,
    ComponentType,
    DynamoGraph,
    MultinodeOptions,
    OperatorOptions,
    OutputMode,
)

from conftest import BAD_YAML, GRAPH_YAML, IMAGE, RULE_43, js_message


def _docs(text):
    return [doc for doc in yaml.safe_load_all(text) if doc is not None]


def _graph(chart, output, **props):
    graph = DynamoGraph(
        chart,
        "Graph",
        metadata=cdk8s.ApiObjectMetadata(name="vllm-agg"),
        backend_framework=BackendFramework.VLLM,
        output=output,
        **props,
    )
    graph.add_frontend("Frontend", image=IMAGE)
    worker = graph.add_worker(
        "VllmWorker",
        image=IMAGE,
        args=["--model", "Qwen/Qwen3-0.6B"],
        env={"HF_HOME": kplus.EnvValue.from_value("/cache")},
        gpus=1,
    )
    return graph, worker


def _synth(output, **props):
    app = cdk8s.App()
    chart = cdk8s.Chart(app, "llm", namespace="team-a")
    graph, worker = _graph(chart, output, **props)
    return graph, worker, _docs(app.synth_yaml())


def test_graph_output_is_the_custom_resource():
    graph, worker, docs = _synth(OutputMode.GRAPH)
    assert graph.output == OutputMode.GRAPH
    assert worker.type == ComponentType.WORKER  # `type` keeps its name in Python
    assert [d["kind"] for d in docs] == ["DynamoGraphDeployment"]
    dgd = docs[0]
    assert dgd["apiVersion"] == "nvidia.com/v1beta1"
    assert dgd["metadata"] == {"name": "vllm-agg", "namespace": "team-a"}
    assert dgd["spec"]["backendFramework"] == "vllm"
    components = dgd["spec"]["components"]
    assert [(c["name"], c["type"]) for c in components] == [("Frontend", "frontend"), ("VllmWorker", "worker")]
    main = components[1]["podTemplate"]["spec"]["containers"][0]
    assert main["args"] == ["--model", "Qwen/Qwen3-0.6B"]
    assert {"name": "HF_HOME", "value": "/cache"} in main["env"]
    assert main["resources"]["limits"]["nvidia.com/gpu"] == "1"


def test_components_output_is_what_the_graph_controller_creates():
    _, _, docs = _synth(OutputMode.COMPONENTS)
    assert [d["kind"] for d in docs] == ["DynamoComponentDeployment"] * 2
    names = [d["metadata"]["name"] for d in docs]
    assert names[0] == "vllm-agg-frontend"
    assert names[1].startswith("vllm-agg-vllmworker")
    assert all(d["metadata"]["namespace"] == "team-a" for d in docs)


def test_workloads_output_is_every_object_the_operator_creates():
    _, _, docs = _synth(OutputMode.WORKLOADS)
    kinds = {d["kind"] for d in docs}
    assert {"DynamoComponentDeployment", "Deployment", "Service", "ServiceAccount", "Role", "RoleBinding"} <= kinds
    assert "DynamoGraphDeployment" not in kinds


def test_workloads_output_for_an_operator_with_grove():
    _, _, docs = _synth(OutputMode.WORKLOADS, operator=OperatorOptions(grove_available=True))
    assert "PodCliqueSet" in {d["kind"] for d in docs}


def test_from_yaml_gives_the_document_back():
    app = cdk8s.App()
    chart = cdk8s.Chart(app, "imported")
    graph = DynamoGraph.from_yaml(chart, "Graph", GRAPH_YAML)
    assert isinstance(graph, DynamoGraph)
    assert _docs(app.synth_yaml()) == _docs(GRAPH_YAML)


def test_from_yaml_in_components_output():
    app = cdk8s.App()
    chart = cdk8s.Chart(app, "imported", namespace="team-a")
    DynamoGraph.from_yaml(chart, "Graph", GRAPH_YAML, output=OutputMode.COMPONENTS)
    docs = _docs(app.synth_yaml())
    assert [d["metadata"]["name"].split("-")[1] for d in docs] == ["frontend", "decode"]


def test_a_prop_error_is_an_exception_with_the_construct_path():
    chart = cdk8s.Chart(cdk8s.Testing.app(), "test")
    graph = DynamoGraph(chart, "Graph", metadata=cdk8s.ApiObjectMetadata(name="x"), backend_framework=BackendFramework.VLLM)
    with pytest.raises(RuntimeError) as raised:
        graph.add_worker("W", image=IMAGE, gpus=1.5)
    assert js_message(raised.value) == "test/Graph/W: gpus: Invalid value: 1.5: must be an integer greater than or equal to 0"


def test_components_are_parts_of_the_graph_and_their_ids_are_unique():
    chart = cdk8s.Chart(cdk8s.Testing.app(), "test")
    graph = DynamoGraph(chart, "Graph", metadata=cdk8s.ApiObjectMetadata(name="x"), backend_framework=BackendFramework.VLLM)
    frontend = graph.add_frontend("F", image=IMAGE)
    assert not isinstance(frontend, constructs.Construct)
    with pytest.raises(RuntimeError) as raised:
        graph.add_worker("F", image=IMAGE)
    assert js_message(raised.value) == 'test/Graph: component id: Duplicate value: "F": the graph already has a component of this id'
    assert [c.name for c in graph.components] == ["F"]
    assert [c.node.path for c in graph.node.find_all()] == ["test/Graph", "test/Graph/Resource"]


def test_an_untyped_multinode_worker_in_a_disaggregated_graph_is_refused():
    chart = cdk8s.Chart(cdk8s.Testing.app(), "test")
    graph = DynamoGraph(chart, "Graph", metadata=cdk8s.ApiObjectMetadata(name="x"), backend_framework=BackendFramework.VLLM)
    graph.add_decode_worker("decode", image=IMAGE, gpus=1)
    with pytest.raises(RuntimeError) as raised:
        graph.add_multinode_worker("prefill", image=IMAGE, multinode=MultinodeOptions(node_count=2))
    assert js_message(raised.value).startswith(
        "test/Graph/prefill: type: Required value: the graph has prefill or decode workers (decode (decode))"
    )
    worker = graph.add_multinode_worker("prefill", type=ComponentType.PREFILL, image=IMAGE, multinode=MultinodeOptions(node_count=2))
    assert worker.type == ComponentType.PREFILL


def test_a_synth_validation_error_is_an_exception_naming_the_rule():
    app = cdk8s.Testing.app()
    chart = cdk8s.Chart(app, "test")
    graph = DynamoGraph(chart, "Graph", metadata=cdk8s.ApiObjectMetadata(name="x"), backend_framework=BackendFramework.VLLM)
    graph.add_frontend("F", image="frontend")  # no version tag: the operator needs runtimeVersionOverride
    with pytest.raises(RuntimeError) as raised:
        app.synth()
    assert js_message(raised.value) == (
        "Validation failed with the following errors:\n"
        '  [test/Graph] test/Graph: DynamoGraphDeployment/x: spec.components[0].runtimeVersionOverride (component "F"): '
        "Required value: is required when the specified main container image has no parseable semantic-version tag (rule 47)"
    )


def test_an_imported_graph_the_operator_refuses_fails_the_synthesis():
    app = cdk8s.Testing.app()
    DynamoGraph.from_yaml(cdk8s.Chart(app, "test"), "Graph", BAD_YAML)
    with pytest.raises(RuntimeError) as raised:
        app.synth()
    assert js_message(raised.value) == f"Validation failed with the following errors:\n  [test/Graph] test/Graph: {RULE_43}"
