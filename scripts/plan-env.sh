#!/usr/bin/env bash
# Creates the Python environment `cdk8s-dynamo plan` runs the Dynamo profiler in (docs/plan.md).
#
#   scripts/plan-env.sh DYNAMO_SOURCE [VENV]
#
# DYNAMO_SOURCE  a checkout of ai-dynamo/dynamo at the commit of the supported operator (1.5.0,
#                main of 2026-08-21, 2a6da14c8): the profiler imports the repository's `deploy`
#                package (deploy/utils), which no package on PyPI holds, and the DGD override
#                tool the profiler calls (deploy/operator/cmd/dgd-apply-overrides) is built from it.
# VENV           where to create the environment (default: .tmp/plan-venv in this repository).
#
# Environment: PYTHON, the interpreter to create it with (default python3.12; the profiler's
# dependencies need 3.10 to 3.12). Needs pip access to PyPI; the override tool needs Go (its
# modules come from the Go module proxy, or the module cache).
#
# Versions (see docs/plan.md for why):
#   ai-dynamo / ai-dynamo-runtime 1.5.0.dev20260821  the nightly whose dynamo.profiler, planner,
#       common and mocker sources are identical to those of the operator's commit
#   aiconfigurator / aiconfigurator-core 0.12.0      the operator's profiler pins 0.11.0.dev20260728,
#       which PyPI holds only as a stub that downloads the wheel from another index; 0.11.0 has no
#       installable aiconfigurator-core either; 0.12.0 is the closest installable release
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: scripts/plan-env.sh DYNAMO_SOURCE [VENV]" >&2
  exit 2
fi
SOURCE=$(cd "$1" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENV=${2:-$ROOT/.tmp/plan-venv}
PYTHON=${PYTHON:-python3.12}

if [ ! -f "$SOURCE/deploy/utils/dynamo_deployment.py" ]; then
  echo "plan-env: $SOURCE/deploy/utils/dynamo_deployment.py not found: DYNAMO_SOURCE must be a checkout of ai-dynamo/dynamo" >&2
  exit 1
fi

DYNAMO_VERSION=1.5.0.dev20260821
AIC_VERSION=0.12.0

"$PYTHON" -m venv "$VENV"
# ai-dynamo without its dependencies: it requires aisimulate 0.1.0.dev1, which requires the
# uninstallable aiconfigurator 0.11.0.dev20260728 (the rapid search does not import aisimulate);
# its other dependencies, the runtime's, and what the profiler imports, are installed next
"$VENV/bin/pip" install --disable-pip-version-check --no-deps "ai-dynamo==$DYNAMO_VERSION"
"$VENV/bin/pip" install --disable-pip-version-check \
  "ai-dynamo-runtime==$DYNAMO_VERSION" \
  "aiconfigurator==$AIC_VERSION" "aiconfigurator-core==$AIC_VERSION" \
  "pydantic>=2.10.6,<=2.13" "aiohttp>=3.14.3,<4.0" "transformers>=4.56.0" \
  "kubernetes==32.0.1" "kubernetes_asyncio==32.0.0" "prometheus_client>=0.23.1,<1.0" \
  "msgspec>=0.19.0" "zstandard>=0.23.0,<1.0" "pyzmq>=26.0.0" "typing_extensions>=4.10.0" \
  "tqdm>=4.0.0" "aiofiles<=25.1.0" httpx

# the repository's deploy package (deploy/__init__.py and deploy/utils), importable from the venv
SITE=$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
rm -rf "$VENV/dynamo-source"
mkdir -p "$VENV/dynamo-source/deploy"
cp "$SOURCE/deploy/__init__.py" "$VENV/dynamo-source/deploy/"
cp -R "$SOURCE/deploy/utils" "$VENV/dynamo-source/deploy/utils"
echo "$VENV/dynamo-source" > "$SITE/dynamo-source.pth"

# the operator's DGD override tool, beside the interpreter: plan hands it to the profiler
if [ -d "$SOURCE/deploy/operator/cmd/dgd-apply-overrides" ] && command -v go > /dev/null; then
  (cd "$SOURCE/deploy/operator" && go build -o "$VENV/bin/dgd-apply-overrides" ./cmd/dgd-apply-overrides)
else
  echo "plan-env: Go or deploy/operator/cmd/dgd-apply-overrides missing: requests with spec.overrides.dgd cannot be planned" >&2
fi

"$VENV/bin/python" -c 'import dynamo.profiler.profile_sla' > /dev/null
echo "plan-env: ready: cdk8s-dynamo plan --python $VENV/bin/python REQUEST.yaml"
