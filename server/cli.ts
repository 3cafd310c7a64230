// Operator commands:  npm run atelier -- <command>
//   init  [--workspace NAME] [--email EMAIL] [--name NAME]   new workspace + owner + token
//   token [--workspace SLUG] [--email EMAIL] [--scopes read,write,approve] [--name LABEL] [--service]
//         (--service: an integration's token: never approves, confirms each paid action)
//   revoke <token or prefix>                                  revoke a token and its web sessions
//   migrate                                                   apply pending migrations
//   replay <taskId>                                           re-run a recorded task against its
//                                                             recorded model and tool responses
//   replay --save <taskId> [--reason TEXT] [--dir DIR]        save a task's recorded run as a replay
//                                                             fixture (default dir test/fixtures/replays)
//   replay --policy <file.json> [--workspace SLUG] [--since ISO] [--fixtures DIR]
//                                                             list the past actions a changed policy
//                                                             would now deny or escalate
// Uses DATABASE_URL, or the embedded PostgreSQL of `npm start` (started here if not running).
import { parseArgs } from 'node:util';
import { loadConfig } from './config.ts';
import { createPrisma } from './db/client.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded.ts';
import { ensureDatabase, migrate, reachable } from './db/migrate.ts';
import { createLogger } from './log.ts';
import { replayTask } from './runtime/replay.ts';
import { replayTools } from './runtime/replay-cli.ts';
import { createToken } from './auth/create-token.ts';
import { revokeToken } from './auth/revoke-token.ts';
import { initWorkspace } from './services/workspaces/init-workspace.ts';

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      workspace: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      scopes: { type: 'string' },
      service: { type: 'boolean' },
      save: { type: 'string' },
      reason: { type: 'string' },
      dir: { type: 'string' },
      policy: { type: 'string' },
      since: { type: 'string' },
      fixtures: { type: 'string' },
    },
  });
  const config = loadConfig();
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  let embedded: EmbeddedPostgres | undefined;
  let url = config.databaseUrl;
  if (!url) {
    const running = `postgresql://postgres:postgres@127.0.0.1:${config.embeddedPgPort}/atelier`;
    if (await reachable(running.replace('/atelier', '/postgres'))) url = running;
    else {
      embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, port: config.embeddedPgPort, log });
      url = embedded.connectionString;
    }
  }
  try {
    await ensureDatabase(url);
    await migrate(url);
    const prisma = createPrisma(url, { max: 2 });
    try {
      switch (command) {
        case 'migrate':
          console.log('database is migrated');
          break;
        case 'replay': {
          if (values.save || values.policy) {
            process.exitCode = await replayTools(prisma, values);
            break;
          }
          const raw = positionals[0];
          if (!raw) throw new Error('usage: npm run replay -- <taskId>');
          // Accept a task's uuid or its GraphQL global id.
          const decoded = Buffer.from(raw, 'base64').toString('utf8');
          const taskId = decoded.startsWith('Task:') ? decoded.slice(5) : raw;
          const report = await replayTask(prisma, taskId);
          console.log(JSON.stringify(report, null, 2));
          console.log(
            report.divergence
              ? `first divergence: turn ${report.divergence.turn}, step ${report.divergence.step} (${report.divergence.kind}): ${report.divergence.detail}`
              : `no divergence: ${report.steps} steps and ${report.toolCalls} tool calls replayed identically`,
          );
          if (report.divergence) process.exitCode = 3;
          break;
        }
        case 'init': {
          const r = await initWorkspace(prisma, {
            workspaceName: values.workspace,
            ownerEmail: values.email,
            ownerName: values.name,
          });
          console.log(`workspace: ${r.workspace.name} (${r.workspace.slug})\nowner: ${r.user.email}\ntoken: ${r.token}`);
          break;
        }
        case 'token': {
          const workspace = values.workspace
            ? await prisma.workspace.findUnique({ where: { slug: values.workspace } })
            : await prisma.workspace.findFirst({ orderBy: { createdAt: 'asc' } });
          if (!workspace) throw new Error('No such workspace (run: npm run atelier -- init)');
          const membership = await prisma.membership.findFirst({
            where: {
              workspaceId: workspace.id,
              ...(values.email ? { user: { email: values.email.toLowerCase() } } : { role: 'OWNER' }),
            },
            orderBy: { createdAt: 'asc' },
          });
          if (!membership) throw new Error('No such member in that workspace');
          const scopes = (values.scopes ?? 'read,write,approve').split(',').map((s) => s.trim().toUpperCase());
          const r = await createToken(prisma, {
            workspaceId: workspace.id,
            userId: membership.userId,
            name: values.name ?? 'cli',
            scopes: scopes as ('READ' | 'WRITE' | 'APPROVE')[],
            principal: values.service ? 'SERVICE' : 'HUMAN',
          });
          console.log(`token (${r.scopes.join(', ').toLowerCase()}) for workspace ${workspace.slug}:\n${r.token}`);
          break;
        }
        case 'revoke': {
          const which = positionals[0];
          if (!which) throw new Error('usage: npm run atelier -- revoke <token or its prefix>');
          const r = await revokeToken(prisma, which);
          console.log(`revoked ${r.revoked} credential(s): the token and the web sessions made from it`);
          break;
        }
        default:
          console.error('usage: npm run atelier -- <init|token|revoke|migrate|replay> [options]');
          process.exitCode = 2;
      }
    } finally {
      await prisma.$disconnect();
    }
  } finally {
    await embedded?.stop();
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
