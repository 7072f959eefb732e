/**
 * EPP components and `eppConfig`: webhook rows 49 (or 51 for older operators), 55, 57, 58. The
 * CRD's CEL rules on them (rows 52, 53) are evaluated by the CEL engine (cel/check.ts).
 *
 * Internal module.
 */
import { ComponentContext } from './component-context';
import { componentType, isMultinode } from './component-shape';
import { mainContainer } from './main-container';
import { rulesHave } from './operator-rules';
import { ViolationSink } from './violation';
import { has, intAt, mapAt, stringAt } from '../model/json';
import { compareVersions, NATIVE_RUST_EPP_VERSION, resolveRuntimeVersion } from '../model/runtime-version';

export function checkEpp(ctx: ComponentContext, sink: ViolationSink): void {
  const { component, path } = ctx;
  const type = componentType(component);
  const eppConfig = mapAt(component, 'eppConfig');

  // row 55
  const configMapRef = mapAt(eppConfig, 'configMapRef');
  if (configMapRef && (stringAt(configMapRef, 'name') ?? '') === '') {
    sink.required(path.child('eppConfig', 'configMapRef', 'name'), 'is required', '55');
  }

  if (type !== 'epp') return;

  // row 57
  if (isMultinode(component)) {
    sink.forbidden(path.child('multinode'), component.multinode, 'EPP component cannot be multinode', '57');
  }
  // row 58
  const replicas = intAt(component, 'replicas');
  if (replicas !== undefined && replicas !== 1) {
    sink.invalid(path.child('replicas'), replicas, 'EPP component must have exactly 1 replica', '58');
  }
  // row 51: operators without the runtime contract (OPERATOR_GATES.eppRuntimeContract) ask every
  // EPP for its configuration
  if (!rulesHave(ctx.options, 'eppRuntimeContract')) {
    if (!has(component, 'eppConfig')) sink.required(path.child('eppConfig'), 'is required for EPP components', '51');
    return;
  }
  // row 49: the runtime contract decides between the native Rust EPP and the legacy Go EPP
  const image = stringAt(mainContainer(component)?.container, 'image');
  const version = resolveRuntimeVersion(image, stringAt(component, 'runtimeVersionOverride'));
  if (version === undefined) return;
  const eppConfigPath = path.child('eppConfig');
  if (compareVersions(version, NATIVE_RUST_EPP_VERSION) >= 0) {
    if (has(component, 'eppConfig')) {
      sink.forbidden(eppConfigPath, component.eppConfig, 'must be omitted for native Rust EPP images with runtime version 1.5.0 or later', '49');
    }
  } else if (!has(component, 'eppConfig')) {
    sink.required(eppConfigPath, 'is required for legacy Go EPP images with runtime version earlier than 1.5.0', '49');
  }
}
