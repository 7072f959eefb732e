/**
 * DGD `metadata.annotations` (rows 1-4 and 6).
 *
 * Internal module.
 */
import { componentEntries, effectiveMode, failover, MODE_INTRA_POD } from './component-shape';
import { FieldPath } from './field-path';
import { ViolationSink } from './violation';
import { JsonMap, mapAt, stringAt } from '../model/json';
import { isLenientSemver } from '../model/runtime-version';
import {
  ANNOTATION_KUBE_DISCOVERY_MODE,
  ANNOTATION_GROVE_UPDATE_STRATEGY,
  ANNOTATION_ORIGIN_VERSION,
  ANNOTATION_VLLM_EXECUTOR_BACKEND,
} from '../model/well-known';

/** Rows 1-4 and 6 on a defaulted DGD. */
export function checkGraphAnnotations(doc: JsonMap, sink: ViolationSink): void {
  const annotations = mapAt(mapAt(doc, 'metadata'), 'annotations') ?? {};
  const path = FieldPath.of('metadata', 'annotations');

  const origin = stringAt(annotations, ANNOTATION_ORIGIN_VERSION);
  if (origin !== undefined && !isLenientSemver(origin)) {
    sink.invalid(path.key(ANNOTATION_ORIGIN_VERSION), origin, 'must be valid semver', '1');
  }

  const backend = stringAt(annotations, ANNOTATION_VLLM_EXECUTOR_BACKEND);
  if (backend !== undefined && !['mp', 'ray'].includes(backend.toLowerCase())) {
    sink.invalid(path.key(ANNOTATION_VLLM_EXECUTOR_BACKEND), backend, 'must be "mp" or "ray"', '2');
  }

  const updateStrategy = stringAt(annotations, ANNOTATION_GROVE_UPDATE_STRATEGY);
  if (updateStrategy !== undefined && updateStrategy !== 'RollingRecreate' && updateStrategy !== 'OnDelete') {
    sink.notSupported(path.key(ANNOTATION_GROVE_UPDATE_STRATEGY), updateStrategy, ['RollingRecreate', 'OnDelete'], '3');
  }

  const discoveryMode = stringAt(annotations, ANNOTATION_KUBE_DISCOVERY_MODE);
  if (discoveryMode !== undefined && discoveryMode !== 'pod' && discoveryMode !== 'container') {
    sink.notSupported(path.key(ANNOTATION_KUBE_DISCOVERY_MODE), discoveryMode, ['pod', 'container'], '4');
  }

  const intraPodFailover = componentEntries(mapAt(doc, 'spec')).some(({ component }) => {
    const fo = failover(component);
    return fo !== undefined && effectiveMode(stringAt(fo, 'mode')) === MODE_INTRA_POD;
  });
  if (intraPodFailover && discoveryMode !== 'container') {
    sink.invalid(path.key(ANNOTATION_KUBE_DISCOVERY_MODE), discoveryMode ?? '', 'must be "container" when intra-pod failover is configured', '6');
  }
}
