"""``DynamoGraphDeploymentRequest(..., plan=True)`` from Python: synthesis runs the profiler on the
request as ``cdk8s-dynamo plan`` does and synthesizes what the operator deploys for it.

The profiler is a stand-in interpreter that replays the recorded run of the operator's golden
``dgdr/deployment`` (test/fixtures/plan/deployment, see its README): it checks that it is called as
that run was (``-m dynamo.profiler --config <the same spec> --output-dir DIR``, the same
``DGDR_NAME``, ``DGDR_NAMESPACE`` and override tool), then writes the recorded output. Each output
mode is compared with what the installed console script's ``plan`` writes for the same request.
"""
import json
import subprocess
import sys

import cdk8s
import pytest
import yaml

from cdk8s_dynamo import (
    DynamoGraphDeploymentRequest,
    GpuSku,
    OutputMode,
    RequestBackend,
    RequestFeaturesProps,
    RequestHardwareProps,
    RequestOverridesProps,
    RequestSlaProps,
    RequestWorkloadProps,
    SearchStrategy,
)

from conftest import ROOT, js_message

RECORDING = ROOT / "test" / "fixtures" / "plan" / "deployment"

REPLAY = f"""#!{sys.executable}
import json, os, pathlib, shutil, sys
recording = pathlib.Path({str(RECORDING)!r})
call = json.loads((recording / "call.json").read_text())
args = sys.argv[1:]
def differs(what, expected, got):
    sys.stderr.write(f"replay: {{what}} differs from the recorded run: expected {{expected!r}}, got {{got!r}}\\n")
    sys.exit(1)
if args[:3] != ["-m", call["module"], "--config"] or len(args) != 6 or args[4] != "--output-dir":
    differs("the arguments", ["-m", call["module"], "--config", "SPEC", "--output-dir", "DIR"], args)
if json.loads(args[3]) != call["config"]:
    differs("the --config JSON", call["config"], json.loads(args[3]))
for name, value in call["env"].items():
    if os.environ.get(name) != value:
        differs(name, value, os.environ.get(name))
if bool(os.environ.get("DYNAMO_DGD_APPLY_OVERRIDES_BIN")) != call["overrideTool"]:
    differs("the override tool", call["overrideTool"], not call["overrideTool"])
for file in (recording / "output").iterdir():
    shutil.copy(file, pathlib.Path(args[5]) / file.name)
sys.exit(call["exitCode"])
"""


@pytest.fixture
def replay(tmp_path):
    """The stand-in interpreter, with the (empty) override tool beside it, as plan looks for one."""
    python = tmp_path / "python"
    python.write_text(REPLAY)
    python.chmod(0o755)
    (tmp_path / "dgd-apply-overrides").write_text("")
    return str(python)


def _request(chart, **props):
    """The request of the golden dgdr/deployment, as its harness applied it."""
    return DynamoGraphDeploymentRequest(
        chart,
        "Request",
        metadata=cdk8s.ApiObjectMetadata(name="aic-deployment", namespace="clusterenv-conformance"),
        model="Qwen/Qwen3-0.6B",
        backend=RequestBackend.VLLM,
        image="test.invalid/profiler:1.4.0-test",
        runtime_version_override="1.4.0",
        search_strategy=SearchStrategy.RAPID,
        auto_apply=True,
        hardware=RequestHardwareProps(
            gpu_sku=GpuSku.H100_SXM, vram_mb=81920, num_gpus_per_node=8, total_gpus=8, interconnect="nvlink", rdma=False,
        ),
        workload=RequestWorkloadProps(isl=4000, osl=1000),
        sla=RequestSlaProps(ttft=2000, itl=30),
        features=RequestFeaturesProps(mocker=True),
        overrides=RequestOverridesProps(dgd={
            "apiVersion": "nvidia.com/v1beta1",
            "kind": "DynamoGraphDeployment",
            "metadata": {"annotations": {"nvidia.com/enable-grove": "false"}},
        }),
        **props,
    )


def _docs(text):
    return [doc for doc in yaml.safe_load_all(text) if doc is not None]


@pytest.mark.parametrize("output", [OutputMode.GRAPH, OutputMode.COMPONENTS, OutputMode.WORKLOADS])
def test_plan_synthesizes_what_cdk8s_dynamo_plan_writes(workdir, replay, output):
    app = cdk8s.App()
    request = _request(cdk8s.Chart(app, "llm"), output=output, plan=True, python=replay)
    synthesized = _docs(app.synth_yaml())
    (workdir / "request.json").write_text(json.dumps(request.to_json()))
    mode = {OutputMode.GRAPH: "graph", OutputMode.COMPONENTS: "components", OutputMode.WORKLOADS: "workloads"}[output]
    plan = subprocess.run(
        ["cdk8s-dynamo", "plan", "--quiet", "--python", replay, "--output", mode, "request.json"],
        capture_output=True, text=True, cwd=workdir,
    )
    assert plan.returncode == 0, plan.stderr
    assert synthesized == _docs(plan.stdout)
    kinds = [f"{d['kind']}/{d['metadata']['name']}" for d in synthesized]
    assert kinds[0] == "DynamoGraphDeployment/aic-deployment-dgd"
    if output == OutputMode.GRAPH:
        assert kinds == ["DynamoGraphDeployment/aic-deployment-dgd"]
    if output == OutputMode.WORKLOADS:
        assert "Deployment/aic-deployment-dgd-frontend" in kinds


def test_plan_without_a_profiler_fails_saying_what_to_install(workdir, tmp_path):
    app = cdk8s.App()
    missing = str(tmp_path / "no-python")
    _request(cdk8s.Chart(app, "llm"), plan=True, python=missing)
    with pytest.raises(RuntimeError) as raised:
        app.synth_yaml()
    message = js_message(raised.value)
    assert (
        f"llm/Request: DynamoGraphDeploymentRequest/aic-deployment: cannot run the profiler: {missing}: not found "
        "(create a Python environment with the Dynamo profiler as docs/plan.md describes "
        "and name its interpreter with the python prop or $CDK8S_DYNAMO_PYTHON)"
    ) in message
