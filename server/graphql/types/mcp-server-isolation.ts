// McpServer.isolation: how the server is contained on this installation (readers of the registry
// see when a server started as a command runs NOT isolated).
import { builder } from '../builder.ts';
import { McpServerRef } from '../refs.ts';

builder.objectFields(McpServerRef, (t) => ({
  isolated: t.boolean({
    description:
      'True when the server is contained: one reached over HTTP through the egress gate, one started as a command under bubblewrap (no network, a private scratch directory, memory and CPU limits). False: a command that runs as a plain process on this installation (see isolation).',
    resolve: (s, _a, ctx) => s.transport === 'HTTP' || ctx.deps.runtime.mcp?.sandbox?.mode === 'bwrap',
  }),
  isolation: t.string({
    description: 'How it is contained, in a sentence (for a command that is not: why).',
    resolve: (s, _a, ctx) => {
      if (s.transport === 'HTTP') return "Reached over HTTP through the egress gate: only the workspace's allowed hosts, no internal addresses.";
      const sb = ctx.deps.runtime.mcp?.sandbox;
      if (sb?.mode === 'bwrap') return `Runs under bubblewrap: no network, read-only system files, a private scratch directory, at most ${sb.memoryMb} MiB and ${sb.cpuSeconds} s of CPU.`;
      return `Not isolated: it runs as a plain process on this installation (${sb?.reason ?? 'no sandbox configured'}).`;
    },
  }),
}));
