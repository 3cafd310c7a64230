import { Suspense } from 'react';
import { Studio } from '../../components/Studio';

export default function StudioPage() {
  return (
    <Suspense fallback={<p className="muted pad">Loading…</p>}>
      <Studio />
    </Suspense>
  );
}
