import { Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * The names of the fields the operation asks for under `path` of the field being resolved (`['items']` for a
 * list's rows), across fragments; null when they cannot be known for certain (a directive, a fragment that is
 * missing), in which case the caller reads everything. Lets a list read only the columns its rows will show.
 */
export function requestedFields(info: GraphQLResolveInfo, path: readonly string[]): Set<string> | null {
  let sets: SelectionSetNode[] = info.fieldNodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
  for (const name of path) {
    const fields = collectFields(sets, info);
    if (!fields) return null;
    sets = fields.filter((f) => f.name.value === name).flatMap((f) => (f.selectionSet ? [f.selectionSet] : []));
  }
  const fields = collectFields(sets, info);
  return fields ? new Set(fields.map((f) => f.name.value)) : null;
}

function collectFields(sets: readonly SelectionSetNode[], info: GraphQLResolveInfo): FieldNode[] | null {
  const out: FieldNode[] = [];
  const visit = (set: SelectionSetNode): boolean => {
    for (const selection of set.selections) {
      // @include / @skip depend on variables: read everything rather than evaluate them here.
      if (selection.directives?.length) return false;
      if (selection.kind === Kind.FIELD) out.push(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (!visit(selection.selectionSet)) return false;
      } else {
        const fragment = info.fragments[selection.name.value];
        if (!fragment || !visit(fragment.selectionSet)) return false;
      }
    }
    return true;
  };
  return sets.every(visit) ? out : null;
}

/**
 * The row keys that the resolvers of the requested fields read, from a map of field name to keys; null (read
 * every column) when a field is not in the map. `__typename` needs no column.
 */
export function columnsFor<K extends string>(
  fields: Set<string> | null,
  keysByField: Readonly<Record<string, readonly K[]>>,
): Set<K> | null {
  if (!fields) return null;
  const keys = new Set<K>();
  for (const field of fields) {
    if (field === '__typename') continue;
    const needed = keysByField[field];
    if (!needed) return null;
    for (const key of needed) keys.add(key);
  }
  return keys;
}
