import { builder } from '../builder.ts';
import { WithheldReasonEnum } from '../enums/withheld-reason.ts';
import { ObjectVersionWithheldRef } from '../refs.ts';

builder.objectType(ObjectVersionWithheldRef, {
  description: 'Why a version is withheld: its name, content and summary are not shown.',
  fields: (t) => ({
    reason: t.field({ type: WithheldReasonEnum, description: 'Why it is withheld.', resolve: (w) => w.reason }),
    message: t.exposeString('message', { description: 'The reason in words.' }),
    inVersion: t.exposeInt('inVersion', { description: 'The version that withheld it.' }),
  }),
});
