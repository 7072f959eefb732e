/**
 * The shell script of the profiling Job's `output-copier` container. This is this library's own
 * text (it does not copy the operator's), written to behave as the operator's does where it
 * matters: while the `profiler` container runs it relays each new `phase`/`message` of
 * `<output>/profiler_status.yaml` into the request's output ConfigMap; once the profiler has
 * terminated it waits up to 120 s for that file and, on `status: success`, writes the ConfigMap
 * with `phase`, `message`, `profiler_status: success`, the generated `final_config.yaml` and the
 * status file; on `status: failed` it writes `profiler_status: failed` and `profiler_error` (and
 * exits 0, so the controller reads the reason from the ConfigMap); any other status exits 1. The
 * ConfigMap carries the labels and the controller owner reference the operator's does. Because the
 * text differs, the Job's `nvidia.com/last-applied-hash` differs from the operator's (docs/dynamographdeploymentrequest.md,
 * "Differences from the operator").
 *
 * Internal module.
 */

export interface SidecarScriptValues {
  readonly outputPath: string;
  readonly outputFile: string;
  readonly configMapName: string;
  readonly namespace: string;
  readonly dgdrName: string;
  readonly dgdrUid: string;
}

/** The script for one request. */
export function sidecarScript(v: SidecarScriptValues): string {
  const status = `${v.outputPath}/profiler_status.yaml`;
  return `set -eu
STATUS_FILE='${status}'
RESULT_FILE='${v.outputPath}/${v.outputFile}'
CM_FILE=/tmp/dgdr-output.yaml

# field NAME: the value of a top-level "NAME:" line of the status file, without quotes
field() {
  [ -f "$STATUS_FILE" ] || return 0
  sed -n "s/^$1:[[:space:]]*//p" "$STATUS_FILE" | head -n 1 | tr -d "\\"'"
}

# begin_cm: starts the ConfigMap manifest (owned by the request) in $CM_FILE
begin_cm() {
  cat >"$CM_FILE" <<MANIFEST
apiVersion: v1
kind: ConfigMap
metadata:
  name: ${v.configMapName}
  namespace: ${v.namespace}
  labels:
    dgdr.nvidia.com/name: ${v.dgdrName}
    dgdr.nvidia.com/namespace: ${v.namespace}
    nvidia.com/managed-by: dynamo-operator
  ownerReferences:
  - apiVersion: nvidia.com/v1beta1
    kind: DynamoGraphDeploymentRequest
    name: ${v.dgdrName}
    uid: ${v.dgdrUid}
    controller: true
    blockOwnerDeletion: true
data:
MANIFEST
}

# add_file KEY FILE: appends FILE as a block value of KEY
add_file() {
  [ -f "$2" ] || return 0
  echo "  $1: |" >>"$CM_FILE"
  sed 's/^/    /' "$2" >>"$CM_FILE"
}

RELAYED=''
relay() {
  phase=$(field phase)
  [ -n "$phase" ] && [ "$phase" != "$RELAYED" ] || return 0
  begin_cm
  printf '  phase: "%s"\\n  message: "%s"\\n' "$phase" "$(field message)" >>"$CM_FILE"
  if kubectl apply -f "$CM_FILE" >/dev/null 2>&1; then RELAYED=$phase; else echo "could not record phase $phase"; fi
}

echo "waiting for the profiler"
while :; do
  relay
  state=$(kubectl get pod "$HOSTNAME" -n '${v.namespace}' -o jsonpath='{.status.containerStatuses[?(@.name=="profiler")].state}' 2>/dev/null || true)
  case "$state" in *terminated*) break ;; esac
  sleep 10
done
relay

waited=0
until [ -f "$STATUS_FILE" ]; do
  if [ "$waited" -ge 120 ]; then echo "no status file after 120s"; exit 1; fi
  sleep 2
  waited=$((waited + 2))
done

case "$(field status)" in
  success)
    begin_cm
    printf '  phase: "%s"\\n  message: "%s"\\n  profiler_status: "success"\\n' "$(field phase)" "$(field message)" >>"$CM_FILE"
    add_file '${v.outputFile}' "$RESULT_FILE"
    add_file profiler_status.yaml "$STATUS_FILE"
    kubectl apply -f "$CM_FILE"
    echo "profiling output saved to ConfigMap ${v.configMapName}"
    ;;
  failed)
    reason=$(field error)
    [ -n "$reason" ] || reason=$(field message)
    begin_cm
    printf '  phase: "%s"\\n  message: "%s"\\n  profiler_status: "failed"\\n  profiler_error: "%s"\\n' "$(field phase)" "$(field message)" "$reason" >>"$CM_FILE"
    add_file profiler_status.yaml "$STATUS_FILE"
    kubectl apply -f "$CM_FILE"
    echo "profiler failed: $reason"
    ;;
  *)
    echo "unexpected profiler status: $(field status)"
    exit 1
    ;;
esac
`;
}
