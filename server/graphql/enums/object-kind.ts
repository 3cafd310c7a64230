import { OBJECT_KINDS } from '../../domain/object-content.ts';
import { builder } from '../builder.ts';

export const ObjectKindEnum = builder.enumType('ObjectKind', { values: OBJECT_KINDS });
