// Generated files as the HTTP file route finds them: the files a provider delivered are listed in
// their generation job's result (result.files[] of { path, mime }), named after the upstream job.
import type { Db } from '../db/client.ts';

/**
 * The files of the SUCCEEDED job with this upstream id in any of these workspaces. Invariant: only
 * the caller's workspaces are searched — a member's, or the one workspace a signed URL was signed
 * for — so a file of another workspace is never found, whatever its name, and a job that was not
 * delivered (still running, failed, cancelled) serves nothing.
 */
export function deliveredFiles(db: Db, p: { workspaceIds: string[]; upstreamJobId: string }): Promise<{ path: string; mime: string }[]> {
  return db.$queryRawUnsafe<{ path: string; mime: string }[]>(
    `SELECT f->>'path' AS path, f->>'mime' AS mime
       FROM generation_jobs j, jsonb_array_elements(COALESCE(j.result->'files', '[]'::jsonb)) f
      WHERE j.workspace_id = ANY($1::uuid[]) AND j.upstream_job_id = $2 AND j.status = 'SUCCEEDED'`,
    p.workspaceIds,
    p.upstreamJobId,
  );
}
