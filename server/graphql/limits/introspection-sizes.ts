// How large the introspection lists of a schema are on average (fields per type, args per field
// …): what an introspection list multiplies its selection by in the cost.
import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, isUnionType, type GraphQLSchema } from 'graphql';

export type Multipliers = Map<string, number>; // "Type.field" → items per parent, for introspection lists

/** Average list sizes of the schema's introspection, e.g. how many fields a type has on average. */
export function introspectionMultipliers(schema: GraphQLSchema): Multipliers {
  const types = Object.values(schema.getTypeMap());
  let fields = 0;
  let args = 0;
  let inputFields = 0;
  let enumValues = 0;
  let interfaces = 0;
  let possible = 0;
  for (const t of types) {
    if (isObjectType(t) || isInterfaceType(t)) {
      const fs = Object.values(t.getFields());
      fields += fs.length;
      for (const f of fs) args += f.args.length;
      interfaces += t.getInterfaces().length;
    }
    if (isInterfaceType(t) || isUnionType(t)) possible += schema.getPossibleTypes(t).length;
    if (isInputObjectType(t)) inputFields += Object.keys(t.getFields()).length;
    if (isEnumType(t)) enumValues += t.getValues().length;
  }
  const directives = schema.getDirectives();
  const dirArgs = directives.reduce((n, d) => n + d.args.length, 0);
  const avg = (n: number, d: number) => Math.max(1, Math.ceil(n / Math.max(1, d)));
  return new Map([
    ['__Schema.types', types.length],
    ['__Schema.directives', directives.length],
    ['__Type.fields', avg(fields, types.length)],
    ['__Type.inputFields', avg(inputFields, types.length)],
    ['__Type.enumValues', avg(enumValues, types.length)],
    ['__Type.interfaces', avg(interfaces, types.length)],
    ['__Type.possibleTypes', avg(possible, types.length)],
    ['__Field.args', avg(args, fields)],
    ['__Directive.args', avg(dirArgs, directives.length)],
  ]);
}
