// bench:limits' judgement, a pure function over the rows ./measure.ts collected: every document is
// refused (401 without a token, an error and no data otherwise) within its size's floor, and /health
// answers within HEALTH_FLOOR_MS meanwhile (medians over the repetitions).
import { fmt } from '../stats.ts';
import { HEALTH_FLOOR_MS } from './config.ts';
import type { Row } from './measure.ts';

/** A row within all its floors (the report marks the others ✗). */
export const withinFloors = (r: Row) => r.refused && r.p50Ms <= r.floorMs && r.healthMs <= HEALTH_FLOOR_MS;

export function checkFloors(rows: Row[]): string[] {
  const failures: string[] = [];
  for (const r of rows) {
    if (!r.refused) failures.push(`${r.doc} [${r.size}, ${r.who}] was not refused: ${r.what}`);
    if (!(r.p50Ms <= r.floorMs)) failures.push(`${r.doc} [${r.size}, ${r.who}] took ${fmt(r.p50Ms)} ms (median; floor ${r.floorMs} ms)`);
    if (!(r.healthMs <= HEALTH_FLOOR_MS)) failures.push(`/health took ${fmt(r.healthMs)} ms (median) during ${r.doc} [${r.size}, ${r.who}] (floor ${HEALTH_FLOOR_MS} ms)`);
  }
  return failures;
}
