/** Legacy (Go) EPP configuration of an `epp` component. */
import type * as kplus from 'cdk8s-plus-34';
import { JsonObject } from '../model/v1beta1';

/**
 * Deprecated EPP configuration: selects the legacy Go EPP (runtime versions before 1.5.0).
 * Native Rust EPP images (1.5.0 and later) take no configuration.
 */
export class EppConfig {
  /** Configuration held in a key of an existing ConfigMap. */
  public static fromConfigMap(configMap: kplus.IConfigMap, key: string, optional?: boolean): EppConfig {
    const ref: JsonObject = { key, name: configMap.name };
    if (optional !== undefined) ref.optional = optional;
    return new EppConfig({ configMapRef: ref });
  }

  /** An inline `EndpointPickerConfig`; the operator creates its ConfigMap. */
  public static fromConfig(config: { [key: string]: any }): EppConfig {
    return new EppConfig({ config: JSON.parse(JSON.stringify(config)) });
  }

  private constructor(private readonly json: JsonObject) {}

  /** @internal */
  public _toJson(): JsonObject {
    return JSON.parse(JSON.stringify(this.json));
  }
}
