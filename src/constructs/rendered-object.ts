/** An ApiObject whose whole manifest is produced by the render engine at synthesis. */
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';

export class RenderedObject extends ApiObject {
  constructor(scope: Construct, id: string, apiVersion: string, kind: string, private readonly produce: () => any) {
    super(scope, id, { apiVersion, kind });
  }

  public toJson(): any {
    return this.produce();
  }
}
