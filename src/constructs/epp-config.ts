/** Legacy (Go) EPP configuration of an `epp` component. */
import type * as kplus from 'cdk8s-plus-34';
import { KubernetesValueError, plainJson, shownValue } from './kubernetes-values';
import { isMap } from '../model/json';
import { copyJson } from '../model/json-copy';
import { JsonObject } from '../model/v1beta1';

/**
 * Deprecated EPP configuration: selects the legacy Go EPP (runtime versions before 1.5.0).
 * Native Rust EPP images (1.5.0 and later) take no configuration.
 */
export class EppConfig {
  /** Configuration held in a key of an existing ConfigMap. */
  public static fromConfigMap(configMap: kplus.IConfigMap, key: string, optional?: boolean): EppConfig {
    if (typeof configMap?.name !== 'string') throw new Error(`EppConfig.fromConfigMap: configMap: Invalid value: ${shownValue(configMap)}: must be a ConfigMap (kplus.ConfigMap.fromConfigMapName(...))`);
    if (typeof key !== 'string') throw new Error(`EppConfig.fromConfigMap: key: Invalid value: ${shownValue(key)}: must be a string`);
    if (optional !== undefined && typeof optional !== 'boolean') throw new Error(`EppConfig.fromConfigMap: optional: Invalid value: ${shownValue(optional)}: must be true or false`);
    const ref: JsonObject = { key, name: configMap.name };
    if (optional !== undefined) ref.optional = optional;
    return new EppConfig({ configMapRef: ref });
  }

  /** An inline `EndpointPickerConfig`; the operator creates its ConfigMap. */
  public static fromConfig(config: { [key: string]: any }): EppConfig {
    if (!isMap(config)) throw new Error(`EppConfig.fromConfig: config: Invalid value: ${shownValue(config)}: must be an object (an EndpointPickerConfig)`);
    try {
      return new EppConfig({ config: plainJson(config, 'config') });
    } catch (e) {
      if (e instanceof KubernetesValueError) throw new Error(`EppConfig.fromConfig: ${e.message}`);
      throw e;
    }
  }

  private constructor(private readonly json: JsonObject) {}

  /** @internal */
  public _toJson(): JsonObject {
    return copyJson(this.json);
  }
}
