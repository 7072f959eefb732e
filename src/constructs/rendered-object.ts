/** An ApiObject whose whole manifest is produced by the render engine at synthesis. */
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';

export class RenderedObject extends ApiObject {
  /**
   * @param name `metadata.name` of the produced manifest, when known before synthesis
   */
  constructor(scope: Construct, id: string, apiVersion: string, kind: string, private readonly produce: () => any, name?: string) {
    super(scope, id, { apiVersion, kind, metadata: name === undefined ? undefined : { name } });
  }

  public toJson(): any {
    return this.produce();
  }
}
