import { Suspense } from 'react';
import { PageSkeleton } from '../../components/Shell';
import { Studio } from '../../components/Studio';

export default function StudioPage() {
  return (
    <Suspense fallback={<PageSkeleton label="Loading the studio…" />}>
      <Studio />
    </Suspense>
  );
}
