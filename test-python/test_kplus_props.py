"""Every prop that takes a cdk8s-plus value, given from Python, read back from what cdk8s writes.

The values cross the jsii boundary as references to JavaScript objects (EnvValue, EnvFrom, Volume,
Secret, ...) or as structs (ContainerResources, k8s.PodTemplateSpec, ...); each test checks the
synthesized entry, so a value lost on the way (an empty ``envFrom: [{}]``, limits without their
quantities) fails it. The suite runs against the peers pip resolves for the wheel as well as the
pinned ones (scripts/language-tests.sh): the envFrom loss only showed with cdk8s-plus-34 2.0.60 and
later.
"""
import cdk8s
import cdk8s_plus_34 as kplus
import yaml
from cdk8s_plus_34 import k8s

from cdk8s_dynamo import (
    BackendFramework,
    CheckpointConfig,
    ComponentDeployment,
    ComponentVolumeMount,
    DynamoGraph,
    EppConfig,
    ExperimentalOptions,
    GmsClientPod,
    GpuMemoryService,
    OutputMode,
)

from conftest import IMAGE


def _new_chart():
    app = cdk8s.App()
    return app, cdk8s.Chart(app, "llm", namespace="team-a")


def _graph(chart, **props):
    return DynamoGraph(
        chart, "Graph", metadata=cdk8s.ApiObjectMetadata(name="g"), backend_framework=BackendFramework.VLLM, **props
    )


def _docs(app):
    return [doc for doc in yaml.safe_load_all(app.synth_yaml()) if doc is not None]


def _one(docs, kind):
    found = [d for d in docs if d["kind"] == kind]
    assert len(found) == 1, [d["kind"] for d in docs]
    return found[0]


def _worker_spec(app):
    """The worker's entry of the synthesized graph (the frontend is first)."""
    return _one(_docs(app), "DynamoGraphDeployment")["spec"]["components"][1]


def _main(component):
    containers = component["podTemplate"]["spec"]["containers"]
    assert containers[0]["name"] == "main"
    return containers[0]


def _worker(chart, graph=None, **options):
    graph = graph or _graph(chart)
    graph.add_frontend("Frontend", image=IMAGE)
    return graph, graph.add_worker("VllmWorker", image=IMAGE, **options)


def test_env_values_of_every_source():
    app, chart = _new_chart()
    secret = kplus.Secret.from_secret_name(chart, "Hf", "hf-token")
    config_map = kplus.ConfigMap.from_config_map_name(chart, "Settings", "settings")
    _worker(
        chart,
        env={
            "PLAIN": kplus.EnvValue.from_value("1"),
            "TOKEN": kplus.EnvValue.from_secret_value(kplus.SecretValue(secret=secret, key="token"), optional=True),
            "LEVEL": kplus.EnvValue.from_config_map(config_map, "level"),
            "POD": kplus.EnvValue.from_field_ref(kplus.EnvFieldPaths.POD_NAME),
            "CPUS": kplus.EnvValue.from_resource(kplus.ResourceFieldPaths.CPU_LIMIT),
        },
    )
    assert _main(_worker_spec(app))["env"] == [
        {"name": "PLAIN", "value": "1"},
        {"name": "TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf-token", "key": "token", "optional": True}}},
        {"name": "LEVEL", "valueFrom": {"configMapKeyRef": {"name": "settings", "key": "level"}}},
        {"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}},
        {"name": "CPUS", "valueFrom": {"resourceFieldRef": {"resource": "limits.cpu"}}},
    ]


def test_env_values_of_secrets_and_config_maps_made_in_the_chart():
    app, chart = _new_chart()
    secret = kplus.Secret(chart, "Token", string_data={"token": "t"})
    config_map = kplus.ConfigMap(chart, "Settings", data={"level": "debug"})
    _worker(
        chart,
        env={
            "TOKEN": kplus.EnvValue.from_secret_value(kplus.SecretValue(secret=secret, key="token")),
            "LEVEL": kplus.EnvValue.from_config_map(config_map, "level"),
        },
    )
    docs = _docs(app)
    assert _one(docs, "Secret")["metadata"]["name"] == secret.name
    assert _one(docs, "ConfigMap")["metadata"]["name"] == config_map.name
    spec = _one(docs, "DynamoGraphDeployment")["spec"]["components"][1]
    assert _main(spec)["env"] == [
        {"name": "TOKEN", "valueFrom": {"secretKeyRef": {"name": secret.name, "key": "token"}}},
        {"name": "LEVEL", "valueFrom": {"configMapKeyRef": {"name": config_map.name, "key": "level"}}},
    ]


def test_graph_env_prop_and_add_env():
    app, chart = _new_chart()
    secret = kplus.Secret.from_secret_name(chart, "Hf", "hf-token")
    graph = _graph(chart, env={"LOG": kplus.EnvValue.from_value("debug")})
    graph.add_env("TOKEN", kplus.EnvValue.from_secret_value(kplus.SecretValue(secret=secret, key="token")))
    _, worker = _worker(chart, graph=graph, env={"A": kplus.EnvValue.from_value("1")})
    worker.add_env("A", kplus.EnvValue.from_value("2"))  # replaces the prop's entry
    worker.add_env("POD", kplus.EnvValue.from_field_ref(kplus.EnvFieldPaths.POD_NAMESPACE))
    dgd = _one(_docs(app), "DynamoGraphDeployment")
    assert dgd["spec"]["env"] == [
        {"name": "LOG", "value": "debug"},
        {"name": "TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf-token", "key": "token"}}},
    ]
    assert _main(dgd["spec"]["components"][1])["env"] == [
        {"name": "A", "value": "2"},
        {"name": "POD", "valueFrom": {"fieldRef": {"fieldPath": "metadata.namespace"}}},
    ]


def test_env_from_secrets_and_config_maps():
    """The README's quick start: Env.from_secret; and Env.from_config_map with a prefix, of named and made objects."""
    app, chart = _new_chart()
    made_secret = kplus.Secret(chart, "Token", string_data={"token": "t"})
    made_config_map = kplus.ConfigMap(chart, "Settings", data={"level": "debug"})
    _worker(
        chart,
        env_from=[
            kplus.Env.from_secret(kplus.Secret.from_secret_name(chart, "Hf", "hf-token-secret")),
            kplus.Env.from_config_map(kplus.ConfigMap.from_config_map_name(chart, "Cm", "settings"), "APP_"),
            kplus.Env.from_secret(made_secret),
            kplus.Env.from_config_map(made_config_map),
        ],
    )
    assert _main(_worker_spec(app))["envFrom"] == [
        {"secretRef": {"name": "hf-token-secret"}},
        {"configMapRef": {"name": "settings"}, "prefix": "APP_"},
        {"secretRef": {"name": made_secret.name}},
        {"configMapRef": {"name": made_config_map.name}},
    ]


def test_env_from_reaches_the_deployment_in_workloads_output():
    app, chart = _new_chart()
    graph = _graph(chart, output=OutputMode.WORKLOADS)
    _worker(
        chart,
        graph=graph,
        env_from=[
            kplus.Env.from_secret(kplus.Secret.from_secret_name(chart, "Hf", "hf-token-secret")),
            kplus.Env.from_config_map(kplus.ConfigMap.from_config_map_name(chart, "Cm", "settings"), "APP_"),
        ],
    )
    deployments = {d["metadata"]["name"]: d for d in _docs(app) if d["kind"] == "Deployment"}
    worker = next(d for name, d in deployments.items() if "vllmworker" in name)
    main = next(c for c in worker["spec"]["template"]["spec"]["containers"] if c["name"] == "main")
    assert main["envFrom"] == [
        {"secretRef": {"name": "hf-token-secret"}},
        {"configMapRef": {"name": "settings"}, "prefix": "APP_"},
    ]


def test_volume_mounts_of_every_volume_source():
    app, chart = _new_chart()
    secret = kplus.Secret.from_secret_name(chart, "Hf", "hf-token")
    config_map = kplus.ConfigMap.from_config_map_name(chart, "Settings", "settings")
    claim = kplus.PersistentVolumeClaim.from_claim_name(chart, "Models", "models")
    _worker(
        chart,
        volume_mounts=[
            ComponentVolumeMount(volume=kplus.Volume.from_secret(chart, "SecretVolume", secret), path="/secrets", read_only=True),
            ComponentVolumeMount(volume=kplus.Volume.from_config_map(chart, "ConfigVolume", config_map), path="/etc/app", sub_path="app"),
            ComponentVolumeMount(volume=kplus.Volume.from_persistent_volume_claim(chart, "ModelVolume", claim), path="/models"),
            ComponentVolumeMount(
                volume=kplus.Volume.from_empty_dir(
                    chart, "Scratch", "scratch", medium=kplus.EmptyDirMedium.MEMORY, size_limit=cdk8s.Size.gibibytes(2)
                ),
                path="/scratch",
            ),
        ],
    )
    spec = _worker_spec(app)
    assert _main(spec)["volumeMounts"] == [
        {"name": "secret-hf-token", "mountPath": "/secrets", "readOnly": True},
        {"name": "configmap-settings", "mountPath": "/etc/app", "subPath": "app"},
        {"name": "pvc-models", "mountPath": "/models"},
        {"name": "scratch", "mountPath": "/scratch"},
    ]
    assert spec["podTemplate"]["spec"]["volumes"] == [
        {"name": "secret-hf-token", "secret": {"secretName": "hf-token"}},
        {"name": "configmap-settings", "configMap": {"name": "settings"}},
        {"name": "pvc-models", "persistentVolumeClaim": {"claimName": "models", "readOnly": False}},
        {"name": "scratch", "emptyDir": {"medium": "Memory", "sizeLimit": "2048Mi"}},
    ]


def test_volume_mounts_of_objects_made_in_the_chart():
    app, chart = _new_chart()
    secret = kplus.Secret(chart, "Token", string_data={"token": "t"})
    config_map = kplus.ConfigMap(chart, "Settings", data={"level": "debug"})
    claim = kplus.PersistentVolumeClaim(chart, "Models", storage=cdk8s.Size.gibibytes(100))
    _worker(
        chart,
        volume_mounts=[
            {"volume": kplus.Volume.from_secret(chart, "SecretVolume", secret), "path": "/secrets"},
            {"volume": kplus.Volume.from_config_map(chart, "ConfigVolume", config_map), "path": "/etc/app"},
            {"volume": kplus.Volume.from_persistent_volume_claim(chart, "ModelVolume", claim, read_only=True), "path": "/models"},
        ],
    )
    docs = _docs(app)
    assert {d["kind"] for d in docs} == {"Secret", "ConfigMap", "PersistentVolumeClaim", "DynamoGraphDeployment"}
    spec = _one(docs, "DynamoGraphDeployment")["spec"]["components"][1]
    assert spec["podTemplate"]["spec"]["volumes"] == [
        {"name": f"secret-{secret.name}", "secret": {"secretName": secret.name}},
        {"name": f"configmap-{config_map.name}", "configMap": {"name": config_map.name}},
        {"name": f"pvc-{claim.name}", "persistentVolumeClaim": {"claimName": claim.name, "readOnly": True}},
    ]
    assert [m["name"] for m in _main(spec)["volumeMounts"]] == [f"secret-{secret.name}", f"configmap-{config_map.name}", f"pvc-{claim.name}"]


def test_volume_mounts_as_dicts():
    """A dict inside a list reaches the jsii runtime as written (the Python binding converts a dict to
    a struct only where it is the value of a parameter or a struct field): its keys are read in the
    library's case. (The runtime drops keys it does not know, such as ``read_only``: give the entries as
    ComponentVolumeMount to use the snake_case names.)"""
    app, chart = _new_chart()
    scratch = kplus.Volume.from_empty_dir(chart, "Scratch", "scratch")
    _worker(chart, volume_mounts=[{"volume": scratch, "path": "/scratch", "readOnly": True, "subPath": "a"}])
    assert _main(_worker_spec(app))["volumeMounts"] == [{"name": "scratch", "mountPath": "/scratch", "readOnly": True, "subPath": "a"}]


def _pod_template():
    """A k8s.PodTemplateSpec with quantities, ports and probes (numbers and names as IntOrString)."""
    return k8s.PodTemplateSpec(
        metadata=k8s.ObjectMeta(labels={"team": "a"}, annotations={"note": "x"}),
        spec=k8s.PodSpec(
            containers=[
                k8s.Container(
                    name="main",
                    resources=k8s.ResourceRequirements(
                        limits={"nvidia.com/gpu": k8s.Quantity.from_string("2"), "memory": k8s.Quantity.from_string("40Gi")},
                        requests={"cpu": k8s.Quantity.from_number(8)},
                    ),
                    ports=[k8s.ContainerPort(container_port=9090, name="metrics", protocol="TCP")],
                    readiness_probe=k8s.Probe(
                        http_get=k8s.HttpGetAction(path="/health", port=k8s.IntOrString.from_number(9090)),
                        period_seconds=10,
                    ),
                    liveness_probe=k8s.Probe(
                        tcp_socket=k8s.TcpSocketAction(port=k8s.IntOrString.from_string("metrics")),
                        failure_threshold=3,
                    ),
                ),
            ],
            tolerations=[k8s.Toleration(key="nvidia.com/gpu", operator="Exists", effect="NoSchedule")],
            node_selector={"gpu": "h100"},
        ),
    )


POD_TEMPLATE_MAIN = {
    "name": "main",
    "image": IMAGE,
    "resources": {"limits": {"nvidia.com/gpu": "2", "memory": "40Gi"}, "requests": {"cpu": 8}},
    "ports": [{"containerPort": 9090, "name": "metrics", "protocol": "TCP"}],
    "readinessProbe": {"httpGet": {"path": "/health", "port": 9090}, "periodSeconds": 10},
    "livenessProbe": {"tcpSocket": {"port": "metrics"}, "failureThreshold": 3},
}


def test_pod_template_keeps_quantities_ports_and_probes():
    app, chart = _new_chart()
    _worker(chart, pod_template=_pod_template())
    template = _worker_spec(app)["podTemplate"]
    assert template["metadata"] == {"labels": {"team": "a"}, "annotations": {"note": "x"}}
    assert template["spec"]["containers"] == [POD_TEMPLATE_MAIN]
    assert template["spec"]["tolerations"] == [{"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"}]
    assert template["spec"]["nodeSelector"] == {"gpu": "h100"}


def test_pod_template_as_dicts():
    """The same template as dicts: snake_case keys where the binding converts the dict to a struct
    (the template, its spec), the library's keys in the dicts of a list (the containers)."""
    app, chart = _new_chart()
    container = {
        "name": "main",
        "resources": {
            "limits": {"nvidia.com/gpu": k8s.Quantity.from_string("2"), "memory": k8s.Quantity.from_string("40Gi")},
            "requests": {"cpu": k8s.Quantity.from_number(8)},
        },
        "ports": [{"containerPort": 9090, "name": "metrics", "protocol": "TCP"}],
        "readinessProbe": {"httpGet": {"path": "/health", "port": k8s.IntOrString.from_number(9090)}, "periodSeconds": 10},
        "livenessProbe": {"tcpSocket": {"port": k8s.IntOrString.from_string("metrics")}, "failureThreshold": 3},
    }
    _worker(chart, pod_template={"metadata": {"labels": {"team": "a"}}, "spec": {"node_selector": {"gpu": "h100"}, "containers": [container]}})
    template = _worker_spec(app)["podTemplate"]
    assert template["metadata"] == {"labels": {"team": "a"}}
    assert template["spec"]["nodeSelector"] == {"gpu": "h100"}
    assert template["spec"]["containers"] == [POD_TEMPLATE_MAIN]


def test_add_sidecar_and_shared_memory_size():
    app, chart = _new_chart()
    _, worker = _worker(chart, shared_memory_size=k8s.Quantity.from_string("16Gi"))
    worker.add_sidecar(  # the struct's fields as keyword arguments, as jsii gives a last struct parameter
        name="proxy",
        image="envoyproxy/envoy:v1.31.0",
        args=["--config-path", "/etc/envoy.yaml"],
        env=[k8s.EnvVar(name="PORT", value="8080")],
        resources=k8s.ResourceRequirements(limits={"cpu": k8s.Quantity.from_string("500m")}),
        ports=[k8s.ContainerPort(container_port=8080)],
        readiness_probe=k8s.Probe(http_get=k8s.HttpGetAction(port=k8s.IntOrString.from_number(8080))),
    )
    spec = _worker_spec(app)
    assert spec["sharedMemorySize"] == "16Gi"
    containers = spec["podTemplate"]["spec"]["containers"]
    assert [c["name"] for c in containers] == ["main", "proxy"]
    assert containers[1] == {
        "name": "proxy",
        "image": "envoyproxy/envoy:v1.31.0",
        "args": ["--config-path", "/etc/envoy.yaml"],
        "env": [{"name": "PORT", "value": "8080"}],
        "resources": {"limits": {"cpu": "500m"}},
        "ports": [{"containerPort": 8080}],
        "readinessProbe": {"httpGet": {"port": 8080}},
    }


def test_component_deployment_takes_the_same_props():
    app, chart = _new_chart()
    ComponentDeployment(
        chart,
        "Worker",
        metadata=cdk8s.ApiObjectMetadata(name="worker"),
        backend_framework=BackendFramework.VLLM,
        image=IMAGE,
        env={"TOKEN": kplus.EnvValue.from_secret_value(kplus.SecretValue(secret=kplus.Secret.from_secret_name(chart, "Hf", "hf"), key="t"))},
        env_from=[kplus.Env.from_config_map(kplus.ConfigMap.from_config_map_name(chart, "Cm", "settings"), "APP_")],
        volume_mounts=[{"volume": kplus.Volume.from_empty_dir(chart, "Scratch", "scratch"), "path": "/scratch"}],
        resources=kplus.ContainerResources(cpu=kplus.CpuResources(limit=kplus.Cpu.units(2))),
    )
    dcd = _one(_docs(app), "DynamoComponentDeployment")
    main = dcd["spec"]["podTemplate"]["spec"]["containers"][0]
    assert main["env"] == [{"name": "TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf", "key": "t"}}}]
    assert main["envFrom"] == [{"configMapRef": {"name": "settings"}, "prefix": "APP_"}]
    assert main["volumeMounts"] == [{"name": "scratch", "mountPath": "/scratch"}]
    assert main["resources"] == {"limits": {"cpu": "2"}}
    assert dcd["spec"]["podTemplate"]["spec"]["volumes"] == [{"name": "scratch", "emptyDir": {}}]


def test_epp_config_from_a_config_map_and_experimental_pod_templates():
    """Values of the graph's `to_json()`: what the props become before the operator's rules are applied."""
    _, chart = _new_chart()
    graph = _graph(chart)
    graph.add_epp(
        "Epp",
        image="nvcr.io/nvidia/ai-dynamo/epp:1.4.0",
        epp_config=EppConfig.from_config_map(kplus.ConfigMap.from_config_map_name(chart, "EppCm", "epp-config"), "config.yaml"),
    )
    graph.add_worker(
        "W",
        image=IMAGE,
        experimental=ExperimentalOptions(
            gpu_memory_service=GpuMemoryService(extra_client_pods=[GmsClientPod(name="loader", pod_template=_pod_template())]),
            checkpoint=CheckpointConfig.automatic(job_pod_template=_pod_template()),
        ),
    )
    epp, worker = graph.to_json()["spec"]["components"]
    assert epp["eppConfig"] == {"configMapRef": {"name": "epp-config", "key": "config.yaml"}}
    expected_main = {k: v for k, v in POD_TEMPLATE_MAIN.items() if k != "image"}
    client_pod = worker["experimental"]["gpuMemoryService"]["extraClientPods"][0]
    assert client_pod["name"] == "loader"
    assert client_pod["podTemplate"]["spec"]["containers"] == [expected_main]
    assert worker["experimental"]["checkpoint"]["job"]["podTemplate"]["spec"]["containers"] == [expected_main]
