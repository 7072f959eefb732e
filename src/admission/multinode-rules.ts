/**
 * Explicit roles of multinode components (rows 71-73), and the role provider overrides they carry
 * (rows 82-86 in role scope).
 *
 * Internal module.
 */
import { ComponentContext } from './component-context';
import { nodeCount } from './component-shape';
import { checkProviderOverride, roleScope } from './provider-override-rules';
import { ViolationSink } from './violation';
import { intAt, isMap, listAt, mapAt, stringAt } from '../model/json';

const ROLE_NAMES = ['leader', 'worker'];

export function checkRoles(ctx: ComponentContext, sink: ViolationSink): void {
  const { component, path } = ctx;
  const roles = listAt(component, 'roles');
  if (!roles) return;
  const rolesPath = path.child('roles');

  // row 71
  if (!mapAt(component, 'multinode')) {
    sink.forbidden(
      rolesPath,
      roles,
      'roles are supported only for component shapes that define a role schema; this release supports multinode components',
      '71',
    );
    return;
  }

  const seen = new Set<string>();
  roles.forEach((role, index) => {
    if (!isMap(role)) return;
    const name = stringAt(role, 'name');
    if (name === undefined) return;
    const rolePath = rolesPath.index(index);
    const scope = roleScope(name);
    // row 72 (an exact duplicate name is already rejected by the list-map schema, row 70)
    if (!scope) {
      sink.notSupported(rolePath.child('name'), name, ROLE_NAMES, '72');
      return;
    }
    seen.add(name);
    // row 73
    const replicas = intAt(role, 'replicas');
    const expected = name === 'worker' ? nodeCount(component) - 1 : 1;
    if (replicas !== undefined && replicas !== expected) {
      sink.invalid(rolePath.child('replicas'), replicas, `must equal ${expected} for multinode role ${JSON.stringify(name)}`, '73');
    }
    // rows 82-86 for role overrides (a standalone DCD has no such field: row 79)
    const override = mapAt(role, 'providerOverride');
    if (override && ctx.owner === 'DGD') {
      checkProviderOverride({ override, path: rolePath.child('providerOverride'), scope, component }, ctx.provider ?? '', sink);
    }
  });
  for (const required of ROLE_NAMES) {
    if (!seen.has(required)) sink.required(rolesPath, `must contain the ${JSON.stringify(required)} role`, '72');
  }
}
